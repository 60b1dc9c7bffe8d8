"""The league server: many clubs' laptops forward their tables' journals to one place."""

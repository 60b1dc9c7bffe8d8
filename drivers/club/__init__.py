"""The club laptop's collector: its ASGI app, its store (SQLite), USB import and mDNS."""

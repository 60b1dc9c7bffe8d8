"""The league's web pages (German): match day, clubs' lists, rankings, season, organiser."""

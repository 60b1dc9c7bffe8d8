"""The club laptop's pages: the evening, a table's list, the ranking, the next series, the
roster and the season (Starlette routes, Jinja2 templates, server-sent events)."""

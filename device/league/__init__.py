"""The league's pure parts: what a forwarded list must show, match days and standings."""

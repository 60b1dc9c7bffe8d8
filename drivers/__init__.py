"""Adapters to the outside world (serial reader, GPIO, TinyDB store, sync), each with a fake.

Nothing here touches hardware at import time; adapters are built from config by name.
"""

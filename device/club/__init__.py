"""The club evening's pure logic: ranking across tables, the seat draw, the season.

Standard library only; every list figure comes from :mod:`device.table.listing` and
:mod:`device.scoring`, the same code the tables use.
"""

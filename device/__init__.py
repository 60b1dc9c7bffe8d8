"""Skattisch's table brain: Skat rules (ISkO), table flow, score list and ports.

Pure standard-library Python. Nothing here imports ``ui``, ``drivers``, Kivy, pyserial,
gpiozero or TinyDB; the drivers implement the ports defined in :mod:`device.ports`.
"""

"""Screenshots of exactly what the window shows, as PNG files a person can look at.

Kivy's ``Window.screenshot`` reads the back buffer after the frame was flipped, which under
Xvfb's software GL is often empty (a black picture). Here the window is drawn once more into
the back buffer and read before any flip, so the picture is the current frame.
"""

from __future__ import annotations

from pathlib import Path

from kivy.core.window import Window
from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels


def save_png(path: str | Path) -> Path:
    """Draw the window and save it as ``path`` (folders are created). Main thread only."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    width, height = Window.size
    Window.on_draw()  # the whole widget tree into the back buffer, as the next frame will be
    data = glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE)
    Window._win.save_bytes_in_png(str(path), data, width, height)  # SDL2's own PNG writer
    return path

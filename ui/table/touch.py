"""Simulated touches that travel the same road as a finger on the panel.

:class:`ScriptedTouchProvider` is a Kivy input provider like the panel's own (``mtdev``,
``hidinput``): it is registered with the event loop, and each frame the loop asks it for new
events. A tap is a touch ``begin`` in one frame and its ``end`` in the next, at window
coordinates, so the post-processing modules, the window's hit testing and every widget's
``on_touch_down``/``on_touch_up`` run exactly as for a real touch. Nothing here calls a
button's ``on_press``.

Only the Kivy main thread may call :meth:`ScriptedTouchProvider.tap`.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable
from typing import Any

from kivy.base import EventLoop
from kivy.input.motionevent import MotionEvent
from kivy.input.provider import MotionEventProvider

_ids = itertools.count(1)


class ScriptedTouch(MotionEvent):
    """One finger on the glass, at a position given in window pixels."""

    def __init__(self, x: float, y: float) -> None:
        window = EventLoop.window
        super().__init__(
            "scripted", next(_ids), self._normalised(window, x, y), is_touch=True, type_id="touch"
        )

    @staticmethod
    def _normalised(window: Any, x: float, y: float) -> dict[str, float]:
        return {"sx": x / max(1.0, window.width - 1.0), "sy": y / max(1.0, window.height - 1.0)}

    def depack(self, args: dict[str, float]) -> None:
        self.profile = ["pos"]
        self.sx, self.sy = args["sx"], args["sy"]
        super().depack(args)


class ScriptedTouchProvider(MotionEventProvider):
    """Feeds scripted taps into the event loop, one event per frame."""

    def __init__(self) -> None:
        super().__init__("scripted", None)
        self._queue: deque[tuple[str, ScriptedTouch, Callable[[], None] | None]] = deque()

    @classmethod
    def install(cls) -> ScriptedTouchProvider:
        """Create one and register it with the running event loop."""
        provider = cls()
        EventLoop.add_input_provider(provider)
        return provider

    def tap(self, x: float, y: float, done: Callable[[], None] | None = None) -> None:
        """Touch down at window pixel (x, y), lift the finger one frame later, then call
        ``done`` (on the main thread, after the ``end`` was dispatched)."""
        touch = ScriptedTouch(x, y)
        self._queue.append(("begin", touch, None))
        self._queue.append(("end", touch, done))

    @property
    def busy(self) -> bool:
        return bool(self._queue)

    def update(self, dispatch_fn: Callable[..., None]) -> None:
        if not self._queue:
            return
        etype, touch, done = self._queue.popleft()
        dispatch_fn(etype, touch)
        if done is not None:
            # The loop dispatches what providers hand over right after update(): run the
            # callback on the next clock tick so it sees the touch's effects.
            from kivy.clock import Clock

            Clock.schedule_once(lambda _dt: done(), 0)


def window_center(widget: Any) -> tuple[float, float]:
    """A widget's centre in window coordinates (what a finger aims at)."""
    x, y = widget.to_window(*widget.center)
    return float(x), float(y)

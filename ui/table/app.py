"""The table App: the controller between the service and the screens.

(One module over 600 lines on purpose: the App is the one controller between the service and the
screens; its intents, pumping and refresh share its state.)

Threads: only the Kivy main thread touches widgets. The reader and the GPIO panel submit
their commands to the service from their own threads; the App pumps the service on the main
thread before the next frame after a command arrives (Kivy's clock triggers may be set from any
thread): the App's own commands and, through the service's ``wake_on_submit``, those that reach
the service by other ways (the sync's news); a service without that hook is polled every
:data:`PUMP_SECONDS`. When something happened, it
refreshes the screens from ``service.snapshot()`` once per frame at most (a clock trigger
coalesces bursts of events).

Screens never hold rules: they read the snapshot and call the App's intents (``app.bid(18)``,
``app.pass_()``, ``app.declare(key)``, ``app.confirm_seat(seat)``, …), which send the
service's commands. What the service refuses comes back as a refusal and is shown in the
hint banner, worded by :func:`ui.i18n.refusal_text` from its key and values.
"""

from __future__ import annotations

import ctypes
import gc
import logging
import math
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import DEFAULT_FONT, LabelBase

# Kivy runs a full garbage collection when it makes the window (its graphics context's first
# flush): over every object alive, the table's modules and all, 30-45 ms of the cold start.
# What is alive now (imported modules, classes, the start-up's settings) lives as
# long as the table: frozen, out of that collection and every later full one.
gc.freeze()
from kivy.core.window import Window  # noqa: E402 - made here: after the freeze
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from device.cards import Card
from device.hardware import Button, ButtonPressed, CardScanned
from device.table import commands as cmd
from device.table.state import Phase
from ui import codecache, i18n
from ui.i18n import tr
from ui.table import errors, theme
from ui.table.counters import Counters, Sent
from ui.table.drawn_text import forget_drawn_texts
from ui.table.viewmodels import status_of
from ui.table.widgets import Hint, StatusBar, make_spare_buttons, spare_buttons_wanted

log = logging.getLogger(__name__)

PUMP_SECONDS = 0.03  # how often a service that cannot wake the App is pumped on the main thread
HINT_SECONDS = 6.0  # a reason or an error: long enough to read at arm's length
INFO_SECONDS = 3.0  # news ("Spiel 3 steht in der Liste") over the status bar
HERE = Path(__file__).parent

# phase -> the screen that shows it
PHASE_SCREENS = {
    Phase.SETUP: "setup",
    Phase.BIDDING: "game",
    Phase.DECLARING: "declare",
    Phase.PLAYING: "play",
    Phase.RAMSCH: "ramsch",
    Phase.RESULT: "result",
    Phase.SERIES_OVER: "end",
    Phase.CLOSED: "end",
}
# screens a person opens on top of the game; they stay until closed
OVERLAY_SCREENS = ("list", "settings")
# built in idle frames after the first one, in the order a game needs them
PREBUILT_SCREENS = ("game", "declare", "play", "result", "list", "end")
PREBUILD_DELAY = 0.3  # seconds after the first frame: start-up's own work is done by then
PREBUILD_IDLE = 1.0  # seconds without a command before a screen is built ahead (players deal, think)
SPARE_BUTTONS_A_FRAME = 4  # buttons made ahead per idle frame


def register_font() -> None:
    """Make DejaVu Sans the default font: it has ♣ ♠ ♥ ♦, Kivy's Roboto has not."""
    if theme.FONT_REGULAR.exists():
        bold = theme.FONT_BOLD if theme.FONT_BOLD.exists() else theme.FONT_REGULAR
        LabelBase.register(DEFAULT_FONT, str(theme.FONT_REGULAR), fn_bold=str(bold))
    else:  # still usable; suit symbols show as boxes until fonts-dejavu-core is installed
        log.warning("%s missing: install fonts-dejavu-core for the suit symbols", theme.FONT_REGULAR)
    # the list's narrow columns: DejaVu Sans Condensed (fonts-dejavu-extra), else the regular font
    condensed = theme.FONT_CONDENSED if theme.FONT_CONDENSED.exists() else theme.FONT_REGULAR
    condensed_bold = theme.FONT_CONDENSED_BOLD if theme.FONT_CONDENSED_BOLD.exists() else theme.FONT_BOLD
    if condensed.exists():
        LabelBase.register(theme.LIST_FONT, str(condensed), fn_bold=str(condensed_bold))


def freeze_long_lived() -> None:
    """Leave the objects alive now out of the garbage collector's full collections: the
    list's events and state, Kivy and the screens built so far live as long as the App. A
    full collection walks every tracked object (hundreds of thousands with a 48-game list);
    it came every few screen changes and took its 50-100 ms from whichever tap or card was
    being shown (cProfile: the same step cost 2x more in one run than in another). Objects
    made later are collected as before; frozen ones are still freed when nothing refers to
    them (reference counting), only a cycle among them stays. So the garbage made since the
    last freeze is collected first (a collection over those objects only: the older ones are
    frozen): frozen with the rest, the widgets a screen had let go of (cycles, each of them)
    stayed for good, some 90,000 objects of a 12-game evening's start."""
    gc.collect()
    gc.freeze()


def collect_all() -> None:
    """A full collection over every object, the frozen ones too, then all that is alive frozen
    again: what lived long and was let go of since (the old list's rows, widgets taken off a
    screen after they were frozen) is freed. As costly as the full collections the freezing
    spares the taps (a tenth of a second and more): only while the table is idle."""
    gc.unfreeze()
    freeze_long_lived()
    give_back_free_memory()


def give_back_free_memory() -> None:
    """The C heap's free pages given back to the system (glibc's ``malloc_trim``): freed
    memory otherwise stays with the process, counted in its resident memory, until it is
    used again. Nothing where the C library has no such call."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


def collect_after_first_frame() -> None:
    """No garbage collection until the first frame is up: what start-up makes (the list's
    state, Kivy, the screen on view) lives as long as the App, and the collector's passes over
    it took a tenth of the start-up's time. :meth:`TableApp._started` freezes what
    is alive then and lets the collector run again; reference counting frees as before.
    (``skattisch run`` turns it off earlier, before its imports.)"""
    gc.disable()


def collect_after_drawn(*, freeze: bool = False) -> None:
    """No garbage collection until the next frame is on screen, then the collector on again
    (CPython's own thresholds decide whether one is due): the frame first, a collection it
    would have started after it. For every pumped command (a card: a young collection about
    once a card, a middle one of 7 ms now and then, 28 ms Pi-class) and every screen
    change (one in three results paid for one, a full one now and then: 10 to 40 ms).
    ``freeze``: what is alive then is frozen too (:func:`freeze_long_lived`), for a change that
    builds widgets that stay (the list's first open: its screen and the rows in view, some
    thousand objects): a collection in between walks them all and keeps none (123
    young, 11 middle and one full collection, a sixth of the list's first open), and after it
    they would be walked again by the next collections, at the next tap."""
    global _pause
    if _pause is not None:
        _pause.freeze = _pause.freeze or freeze  # already paused for this frame
    elif gc.isenabled():  # (start-up's own pause ends with its first frame)
        _pause = _CollectorPause(freeze)


_pause: _CollectorPause | None = None


class _CollectorPause:
    """The collector off until the next frame is swapped (or, no frame drawn, a second)."""

    def __init__(self, freeze: bool) -> None:
        self.freeze = freeze
        gc.disable()
        Window.bind(on_flip=self.end)
        self.fallback = Clock.schedule_once(self.end, 1.0)

    def end(self, *_args: Any) -> None:
        global _pause
        Window.unbind(on_flip=self.end)
        self.fallback.cancel()
        if _pause is self:
            _pause = None
            if self.freeze:
                freeze_long_lived()
            gc.enable()


class Root(FloatLayout):
    """Status bar over the screens, and the hint banner floating above both."""


class TableApp(App):
    """The table's touch UI. ``service`` is a :class:`device.table.TableService` (or anything
    with its ``submit``/``pump``/``snapshot``).

    ``panel``: a :class:`drivers.panel.FakePanel` or GPIO panel (shown the service's
    ``panel_view()``); ``simulate``: show the on-screen card picker and panel buttons;
    ``hooks``: what the settings screen may do to the machine (``shutdown``,
    ``save_settings``); ``on_started``: called on the main thread once the first frame is
    up (the script runner starts there).
    """

    scale = NumericProperty(1.0)
    simulate = BooleanProperty(False)
    onscreen_keyboard = BooleanProperty(False)  # names typed on the table's own keyboard (ui/table/keyboard.py)
    table_number = NumericProperty(1)
    language = StringProperty("de")
    snapshot = ObjectProperty(None, allownone=True)
    # What the screens' kv rules read of the snapshot, set from each one (_show_flags): a rule
    # bound to ``app.snapshot`` itself ran again at every card on every screen built.
    may_undo = BooleanProperty(False)
    may_end_series = BooleanProperty(False)
    bock_enabled = BooleanProperty(False)
    may_pick_skat = BooleanProperty(False)  # declaring: the skat taken (or a card may be turned)
    may_add_skat = BooleanProperty(False)  # the result asks for the skat's cards
    can_leave_setup = BooleanProperty(False)

    def __init__(
        self, service: Any, *, panel: Any = None, simulate: bool = False, table_number: int = 1,
        table_name: str = "", pin_hash: str = "", language: str = "de", config: Any = None,
        hooks: dict[str, Callable[..., Any]] | None = None,
        on_started: Callable[[TableApp], None] | None = None, deck_problem: str = "",
        pin_clock: Callable[[], float] = time.monotonic, **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.service = service
        self.panel = panel
        self.simulate = simulate
        self.table_number = table_number
        self.table_name = table_name
        from device.pin import PinGuard

        self.pin_guard = PinGuard(pin_hash, clock=pin_clock)
        # why the reader cannot name the cards (no usable deck), "" when it can
        self.deck_problem = deck_problem
        # why the GPIO panel could not be opened ("" if fine): the table runs without it, and
        # the status bar and the start's banner say so
        self.panel_problem = ""
        self.reader: Any = None  # the card reader, once started (its deck follows a teach-in)
        self.table_config = config
        self.sync_client: Any = None  # the sync driver (set by skattisch run when the store is on disk)
        self.hooks = dict(hooks or {})
        self.language = language
        i18n.set_language(language)
        self.counters = Counters()
        self._on_started = on_started
        self._send_lock = threading.Lock()
        self._in_flight = 0
        self._last_input_at = 0.0  # perf_counter of the last command submitted (screens are built ahead when idle)
        self.feedback: Any = None  # device.table.feedback.PanelFeedback, once a panel is attached
        self._refresh_trigger = Clock.create_trigger(self.refresh, -1)
        self._prebuild_later = Clock.create_trigger(self._prebuild_next, PREBUILD_IDLE)  # once, however often asked
        self._pump_trigger = Clock.create_trigger(self._pump, -1)
        self._hint_clear = Clock.create_trigger(self._clear_hint, HINT_SECONDS)
        self.title = "Skattisch"
        self.first_frame_at: float | None = None
        self._started_up = False  # the first frame is up: work ahead may begin (when idle)
        self._list_opened = False  # the list was shown once (its rows in view were made)
        self._old_list_left = False  # a new list is open: what held the old one is collected when idle
        self.listeners: list[Callable[[Any], None]] = []  # called with each PumpResult
        self._picker: Any = None
        # the service's snapshot the last refresh fetched: the next one is due when the service
        # hands out another object (``snapshot`` keeps the old object when the new one is equal)
        self._fetched: Any = None
        self._picker_turned: str | None = None  # Tournée: the skat card turned up when the picker opened
        self._setup_forced = False
        self._settings_unlocked = not self.pin_guard.locked
        self._shutdown_asked: Any = None  # the shutdown question a long press opened
        self.store_problem: str | None = None  # the stored lists cannot be read: the store screen
        self.store_repair: Callable[[], Any] = lambda: None
        self._reader_capture: Callable[[Any], None] | None = None
        self._panel_capture: Callable[[Any], None] | None = None

    # -- building ------------------------------------------------------------------------

    def build(self) -> Root:
        collect_after_first_frame()
        register_font()
        self._update_scale()
        Window.clearcolor = theme.BACKGROUND
        Window.bind(size=lambda *_: self._update_scale())
        codecache.cover_kv()  # the kv files' expressions compiled once, not at every start
        Builder.load_file(str(HERE / "widgets.kv"))
        Builder.load_file(str(HERE / "app.kv"))
        root = Root()
        self.status_bar: StatusBar = root.ids.status_bar
        self.hint_banner: Hint = root.ids.hint
        self.manager: ScreenManager = root.ids.manager
        self.manager.transition = NoTransition()  # no animation that delays the next tap
        return root

    def screen(self, name: str) -> Any:
        """The screen ``name``, built (with its kv rules) the first time it is asked for: the
        first frame waits only for the screen it shows, and unseen screens cost no memory."""
        if not self.manager.has_screen(name):
            from ui.table.screens.registry import SCREENS, screen_class

            cls = screen_class(name)  # its module imported now (not at start-up)
            kv = HERE / "screens" / (SCREENS[name][0] + ".kv")
            if str(kv) not in Builder.files:
                Builder.load_file(str(kv))
            self.manager.add_widget(cls(name=name))
        return self.manager.get_screen(name)

    def on_start(self) -> None:
        self.error_handler = errors.install(self)  # an error in a callback: banner, log, go on
        self._wake_on_commands()
        Clock.schedule_interval(self._tick_clock, 1.0)
        self._tick_clock()
        self.refresh()
        if self.snapshot.list is not None and self.snapshot.list.rows:
            self._list_with_first_frame()
        Clock.schedule_once(self._started, 0)

    def _list_with_first_frame(self) -> None:
        """A restart on a list with games: the list laid out with the first frame, its rows in
        view made, so that its first open costs no more than a later one (after a restart
        players look there first; it cost 3 cards' frames). Laid out once the screens' place is
        settled (set more than once before the first frame)."""
        def lay_out(_dt: float) -> None:
            collect_after_drawn(freeze=True)  # its widgets stay: no collection among them, frozen after
            self._lay_out_ahead("list")
        trigger = Clock.create_trigger(lay_out, -1)
        self.manager.fbind("size", trigger)

        def first_frame(*_args: Any) -> None:
            Window.unbind(on_flip=first_frame)
            self.manager.funbind("size", trigger)
        Window.bind(on_flip=first_frame)

    def _started(self, _dt: float) -> None:
        self.first_frame_at = time.perf_counter()
        codecache.let_go_of_used()  # start-up's compiled code is made: its bytes are memory for the screens
        freeze_long_lived()
        gc.enable()  # off since build (collect_after_first_frame)
        if self._on_started is not None:
            self._on_started(self)
        Clock.schedule_once(self._prebuild_next, PREBUILD_DELAY)
        # what start-up compiled, for the next start (written once, after an update; not before the first frame)
        Clock.schedule_once(lambda _dt: codecache.save(), PREBUILD_DELAY)
        self._started_up = True

    def _prebuild_next(self, _dt: float) -> None:
        """While the table is idle, build one screen of a game that is not built yet, then the
        next a frame later: the first declaration or result then costs no more than later ones,
        and neither the first frame nor a tap waits for a screen nobody asked for yet. Then
        buttons ahead, a few a frame, for the screens' buttons (``widgets.show_buttons``);
        a refresh asks for more when the game has used them."""
        missing = [name for name in PREBUILT_SCREENS if not self.manager.has_screen(name)]
        if not missing and not spare_buttons_wanted() and not self._old_list_left:
            freeze_long_lived()  # the screens and buttons built ahead live on too
            codecache.save()  # and their kv rules' code
            return
        if self.in_flight or time.perf_counter() - self._last_input_at < PREBUILD_IDLE:
            self._prebuild_later()
            return
        if self._old_list_left:
            self._old_list_left = False
            collect_all()
        elif missing:
            if missing[0] == "list":  # its rows when first shown (a table started without games)
                self.screen("list")
            else:
                self._lay_out_ahead(missing[0])
        else:
            make_spare_buttons(SPARE_BUTTONS_A_FRAME)
        Clock.schedule_once(self._prebuild_next, 0)

    def _lay_out_ahead(self, name: str) -> None:
        """Screen ``name`` built, not on view, laid out as it will be shown (its own
        :meth:`~ui.table.screens.TableScreen.lay_out_ahead` for the latest snapshot)."""
        screen = self.screen(name)
        if self.manager.current != name:
            screen.size, screen.pos = self.manager.size, self.manager.pos
            screen.lay_out_ahead(self.snapshot)

    def _wake_on_commands(self) -> None:
        """Pumped when a command arrives, from any thread (an idle table polls nothing); a
        service without ``wake_on_submit`` every :data:`PUMP_SECONDS`."""
        wake_on_submit = getattr(self.service, "wake_on_submit", None)
        if wake_on_submit is not None:
            wake_on_submit(self._pump_trigger)
            self._pump_trigger()  # for what was queued before
        else:
            self._pump_event = Clock.schedule_interval(self._pump, PUMP_SECONDS)

    def on_stop(self) -> None:
        self._pump_event.cancel() if hasattr(self, "_pump_event") else None
        wake_on_submit = getattr(self.service, "wake_on_submit", None)
        if wake_on_submit is not None:
            wake_on_submit(None)
        errors.uninstall(self.error_handler) if hasattr(self, "error_handler") else None

    def _update_scale(self) -> None:
        self.scale = theme.scale_for(Window.height)

    # -- talking to the service ----------------------------------------------------------

    def submit(self, command: object, source: str = "screen") -> None:
        """Hand a command to the service (safe from any thread: reader and panel use it too)."""
        with self._send_lock:
            self._in_flight += 1
            self._last_input_at = time.perf_counter()
            self.counters.add_sent(Sent(source, command))
        self.service.submit(command)
        # Pumped before the next frame, not at the next interval: a scanned card waited up to
        # two of Kivy's frames for the interval. Kivy's triggers are thread safe.
        self._pump_trigger()

    @property
    def in_flight(self) -> int:
        """Commands submitted that no pump has taken yet."""
        with self._send_lock:
            return self._in_flight

    def _pump(self, _dt: float = 0.0) -> bool:
        with self._send_lock:
            taken = self._in_flight
        if taken:
            collect_after_drawn()  # a card's (a tap's) frame before a collection its work would start
        result = self.service.pump()
        with self._send_lock:
            self._in_flight -= taken
        self.counters.pumps += 1
        if result:
            self.counters.events += len(result.events)
            if result.events and not result.refusals:
                self._clear_reasons()  # the table moved on: a reason given before no longer applies
            for refusal in result.refusals:
                self.counters.add_refusal(refusal.code)
                if isinstance(getattr(refusal, "command", None), cmd.EnterResult):
                    self._reopen_result_entry(refusal.command)  # what was typed stays, to be corrected
                if refusal.key == "ramsch_later_trick":  # Texas-Skat's tie: a question, not an error
                    self.screen("ramsch").ask_later_trick(refusal.command, refusal.values)
                    continue
                self.hint(i18n.refusal_text(refusal), level="error")
            for event in result.events:
                self._announce(event)
            for listener in list(self.listeners):
                listener(result)
            self._refresh_trigger()
        elif self._fetched is not None and self.service.snapshot() is not self._fetched:
            self._refresh_trigger()  # no event, but the sync (acked, laptop) or the reader changed
        return True

    def _announce(self, event: Any) -> None:
        """Say in the banner what would otherwise pass unnoticed."""
        kind = getattr(event, "type", "")
        if kind == "list_opened":
            self._setup_forced = False
            if self.snapshot is not None and self.snapshot.list is not None:  # (the one shown until now)
                Clock.schedule_once(lambda _dt: self._let_go_of_old_list(), 0)  # after the refresh
        elif kind == "card_played" and self.manager.current == "list":
            self.manager.current = PHASE_SCREENS[Phase.PLAYING]  # the game goes on: show its trick
        if kind == "passed_in":
            self.hint(tr("passed_in_game", n=getattr(event.body, "entry", "")), level="info")
        elif kind in ("game_recorded", "ramsch_recorded"):
            self.hint(tr("entered_game", n=getattr(event.body, "entry", "")), level="info")
        elif kind == "correction_applied":
            self.hint(tr("corrected_game", n=getattr(event.body, "entry", "")), level="info")

    def _let_go_of_old_list(self) -> None:
        """A new list is open: the screens not on view let go of what they showed of the old
        one (the list's rows, the end's ranking), the texts drawn for it are dropped, and, once
        the table is idle, a full collection frees what the old list left (:func:`collect_all`).
        An evening's lists one after the other take no more memory than its longest one."""
        for screen in self.manager.screens:
            if screen.name != self.manager.current:
                screen.forget()
        forget_drawn_texts()
        self._old_list_left = True
        self._prebuild_later()

    def refresh(self, *_args: Any) -> None:
        """Show the service's current snapshot on the screen in view (main thread only)."""
        snap = self._fetched = self.service.snapshot()
        self.snapshot = snap  # (an equal snapshot leaves the property's old one: compare with _fetched)
        self._show_flags(snap)
        self.counters.refreshes += 1
        self._update_status(snap)
        self._update_panel()
        wanted = PHASE_SCREENS.get(snap.phase, "setup")
        if self.store_problem:  # the stored lists are damaged: nothing else until it is repaired
            self._switch("store", snap)
            return
        current = self.manager.current
        self.can_leave_setup = snap.phase != Phase.SETUP
        if not (current in OVERLAY_SCREENS or (current == "setup" and self._setup_forced)):
            current = wanted  # an opened list or settings screen stays until it is closed
        if current != self.manager.current:
            collect_after_drawn()  # a screen change: its frame before a collection
        # Only the screen on view is rebuilt; the others are shown the snapshot when they come up.
        self._switch(current, snap)
        self._update_picker(snap)
        if self._started_up and spare_buttons_wanted():
            self._prebuild_later()  # the buttons made ahead were used: more when idle again

    def _show_flags(self, snap: Any) -> None:
        """The snapshot's flags the kv rules read (a property only dispatches when it changes)."""
        declaration, result = snap.declaration, snap.result
        self.may_undo = bool(snap.may_undo)
        self.may_end_series = bool(snap.may_end_series)
        self.bock_enabled = bool(snap.bock_enabled)
        self.may_pick_skat = declaration is not None and bool(declaration.skat_taken or declaration.may_turn)
        self.may_add_skat = result is not None and bool(result.may_add_skat)

    def _switch(self, name: str, snap: Any = None) -> None:
        screen = self.screen(name)
        screen.show(snap if snap is not None else self.snapshot)
        if self.manager.current != name:
            self.manager.current = name
            self._last_input_at = time.perf_counter()  # someone is busy with the new screen
            if self.hint_banner.level != "info":
                self._clear_hint()  # a reason given on the last screen does not belong to this one

    def attach_panel(self, panel: Any) -> None:
        """The GPIO panel (or its fake): LEDs and buzzer follow the table from now on."""
        from device.table.feedback import PanelFeedback

        if self.feedback is not None:
            self.feedback.close()
        self.panel = panel
        self.feedback = PanelFeedback(self.service, panel)

    def _update_panel(self) -> None:
        if self.feedback is not None:
            self.feedback.refresh()  # the reader's state changes the LEDs without an event

    # -- the status bar ------------------------------------------------------------------

    def _update_status(self, snap: Any) -> None:
        bar = self.status_bar
        bar.table_text = self.table_name or tr("table_n", number=self.table_number)
        config = self.table_config
        status = status_of(snap, simulate=self.simulate,
                           reader_fitted=config is None or bool(config.reader.enabled),
                           deck_problem=bool(self.deck_problem), panel_problem=bool(self.panel_problem))
        colours = {"ok": theme.OK, "wait": theme.WARN, "bad": theme.BAD, "none": theme.TEXT_DIM}
        bar.reader_text, bar.reader_color = status.reader, colours[status.reader_level]
        bar.sync_text, bar.sync_color = status.sync, colours[status.sync_level]
        bar.panel_text = status.panel

    def missing_parts_words(self) -> list[str]:
        """What the table started without and what to do, for the banner at the start (the
        status bar keeps the short word). A missing reader or laptop is said in the status bar
        alone: both come back by themselves when plugged in or reachable."""
        return [tr("panel_missing_help")] if self.panel_problem else []

    def _tick_clock(self, *_args: Any) -> None:
        self.status_bar.clock_text = time.strftime("%H:%M")

    # -- hints -----------------------------------------------------------------------------

    def hint(self, text: str, level: str = "hint", seconds: float | None = None) -> None:
        """Show why something is not possible (or what happened) in the banner (for
        ``seconds``, default: long enough to read)."""
        if level == "info" and self.hint_banner.text and self.hint_banner.level != "info":
            return  # a reason or an error stays readable; the news can wait
        popup = self._top_popup()
        if popup is not None and level != "info":  # the popup covers the banner: say it there
            popup.hint_level = level
            popup.hint_text = text or tr("why_greyed")
        else:
            self.hint_banner.level = level
            self.hint_banner.text = text or tr("why_greyed")
        self._hint_clear.cancel()
        self._hint_clear.timeout = seconds or (INFO_SECONDS if level == "info" else HINT_SECONDS)
        self._hint_clear()

    def _clear_hint(self, *_args: Any) -> None:
        self.hint_banner.text = ""
        popup = self._top_popup()
        if popup is not None:
            popup.hint_text = ""

    def _clear_reasons(self) -> None:
        """Clear why-nots and refusals (in the banner and the open popup), not the news."""
        if self.hint_banner.level != "info":
            self.hint_banner.text = ""
        popup = self._top_popup()
        if popup is not None:
            popup.hint_text = ""

    @staticmethod
    def _top_popup() -> Any:
        """The popup on top (the last one opened), if one with a hint line is open."""
        from ui.table.popups import TablePopup

        return next((w for w in Window.children if isinstance(w, TablePopup)), None)

    # -- helpers for kv ------------------------------------------------------------------

    def rank_label(self, rank: str) -> str:
        table = theme.RANK_LABEL_DE if self.language == "de" else theme.RANK_LABEL_EN
        return table.get(rank, rank)

    def tr(self, key: str, **values: Any) -> str:
        return tr(key, **values)

    def set_language(self, lang: str) -> None:
        i18n.set_language(lang)
        self.language = lang
        for screen in self.manager.screens:
            screen.retranslate()
        self.refresh()
        self._switch(self.manager.current)

    # -- navigation ------------------------------------------------------------------------

    def show_list(self) -> None:
        """The list, one tap from anywhere."""
        if not self._list_opened:  # its first open builds the rows in view (and the screen, if not ahead)
            self._list_opened = True
            collect_after_drawn(freeze=True)
        self._open_overlay("list")

    def show_settings(self) -> None:
        """The settings, behind the club PIN (if the config sets one)."""
        if self._settings_unlocked:
            self._open_overlay("settings")
            return
        self.ask_pin(self._unlock_settings)

    def _unlock_settings(self) -> None:
        self._settings_unlocked = True
        self._open_overlay("settings")

    def ask_pin(self, then: Callable[[], None]) -> None:
        """``then()`` once the club PIN is typed right (at once when there is none); wrong PINs
        count against the same limit wherever they are typed (:class:`device.pin.PinGuard`)."""
        if not self.pin_guard.locked:
            then()
            return
        from ui.table.popups import PinPopup

        PinPopup(lambda pin: self._check_pin(pin, then)).open()

    def _check_pin(self, pin: str, then: Callable[[], None]) -> None:
        from device.pin import PinResult

        attempt = self.pin_guard.attempt(pin)
        if attempt.kind is PinResult.OK:
            self._clear_hint()
            then()
        elif attempt.kind is PinResult.WRONG:
            self.hint(tr("pin_wrong"), level="error")
        else:
            self.hint(tr("pin_wait", seconds=math.ceil(attempt.wait_seconds)), level="error")

    def lock_settings(self) -> None:
        self._settings_unlocked = not self.pin_guard.locked

    def _open_overlay(self, name: str) -> None:
        self._switch(name)
        self.screen(name).opened()

    def new_list(self) -> None:
        """After a closed list: set up the next one."""
        self._setup_forced = True
        self._switch("setup")

    def leave_setup(self) -> None:
        if self._setup_forced:
            self._setup_forced = False
            self.close_overlay()

    def close_overlay(self) -> None:
        """Back from the list or the settings to the game."""
        if self.manager.current == "settings":
            self.lock_settings()
        snap = self.snapshot
        wanted = PHASE_SCREENS.get(snap.phase, "setup") if snap is not None else "setup"
        self._switch(wanted)

    @property
    def current_screen(self) -> str:
        return str(self.manager.current)

    # -- the card picker (simulation) and the hardware's commands --------------------------

    def open_picker(self) -> None:
        """The 32 cards on screen instead of the reader (``--simulate``)."""
        from ui.table.popups import CardPicker

        if self._picker is None:
            self._picker = CardPicker(self.pick_card)
            self._picker.bind(on_dismiss=lambda *_: setattr(self, "_picker", None))
            self._picker.open()
            declaration = self.snapshot.declaration if self.snapshot is not None else None
            self._picker_turned = declaration.turned if declaration is not None else None
        if self.snapshot is not None:
            self._picker.show_state(self.snapshot)

    @property
    def picker_open(self) -> bool:
        return self._picker is not None

    def _update_picker(self, snap: Any) -> None:
        if self._picker is None:
            return
        declaration = snap.declaration
        # Tournée-Skat: opened to turn a skat card up, it has done its work once that card is turned
        turned_up = declaration is not None and not declaration.skat_taken and declaration.turned != self._picker_turned
        wanted = snap.play is not None or declaration is not None or (
            snap.result is not None and snap.result.may_add_skat)
        if wanted and not turned_up:
            self._picker.show_state(snap)
        else:
            self._picker.dismiss()

    def reader_submit(self, command: object) -> None:
        """What the reader sends (any thread): to the service, or to the deck teach-in."""
        capture = self._reader_capture
        if capture is not None:
            Clock.schedule_once(lambda _dt: capture(command), 0)
        else:
            self.submit(command, "reader")

    def panel_submit(self, command: object) -> None:
        """What the panel sends (any thread): to the service, or to the button test; a long
        press (MENU) asks to shut the table down, and a second one does it."""
        capture = self._panel_capture
        if capture is not None:
            Clock.schedule_once(lambda _dt: capture(command), 0)
        elif isinstance(command, ButtonPressed) and command.button is Button.MENU:
            with self._send_lock:
                self.counters.add_sent(Sent("panel", command))
            Clock.schedule_once(lambda _dt: self.menu_pressed(), 0)
        else:
            self.submit(command, "panel")

    def menu_pressed(self) -> None:
        """The panel's long press (main thread): the shutdown question, or, while it is open,
        the shutdown itself (the settings screen's "Ausschalten" without the PIN: whoever
        holds the button stands at the table)."""
        if self._shutdown_asked is not None:
            self._shutdown_asked.dismiss()
            self._shutdown_asked = None
            self.shutdown()
            return
        from ui.table.popups import ChoicePopup, Option

        popup = ChoicePopup(tr("shutdown_title"), [
            Option(tr("shutdown_yes"), "shutdown_yes", self.shutdown, kind="danger"),
        ], text=tr("menu_shutdown_text"))
        popup.bind(on_dismiss=lambda *_: setattr(self, "_shutdown_asked", None))
        self._shutdown_asked = popup
        popup.open()

    def use_deck(self, deck: Any) -> None:
        """A deck taught in on the settings screen: the reader names the cards with it now."""
        if self.reader is not None and hasattr(self.reader, "deck"):
            self.reader.deck = deck
        self.deck_problem = ""
        self.refresh()

    def capture_reader(self, capture: Callable[[Any], None] | None) -> None:
        self._reader_capture = capture

    def capture_panel(self, capture: Callable[[Any], None] | None) -> None:
        self._panel_capture = capture

    def force_panel_update(self) -> None:
        if self.feedback is not None:
            self.feedback.refresh(force=True)

    # -- intents: the table ----------------------------------------------------------------

    def open_list(self, players: Sequence[str], *, draw: bool, series_length: int | None,
                  scoring: str, profile: str, stake: str) -> None:
        self.submit(cmd.OpenList(tuple(players), draw=draw, series_length=series_length, scoring=scoring,
                                 profile=profile, stake=stake))

    def open_next_series(self) -> None:
        """Open the list the laptop released for this table (its players and seats)."""
        self.submit(cmd.OpenNextSeries())

    def bid(self, value: int) -> None:
        bidding = self._bidding()
        if bidding is not None:
            self.submit(cmd.Bid(bidding.speaker, value))

    def hold(self) -> None:
        bidding = self._bidding()
        if bidding is not None:
            self.submit(cmd.Hold(bidding.speaker))

    def pass_(self) -> None:
        bidding = self._bidding()
        if bidding is not None:
            self.submit(cmd.Pass(bidding.speaker))

    def enter_bidding(self, position: int, value: int) -> None:
        """The bidding's outcome at once: ``position`` plays, gereizt bis ``value``."""
        if self._bidding() is not None:
            self.submit(cmd.EnterBidding(position, value))

    def _bidding(self) -> Any:
        return None if self.snapshot is None else self.snapshot.bidding

    def take_skat(self) -> None:
        self.submit(cmd.TakeSkat())

    def declare(self, key: str) -> None:
        self.submit(cmd.Declare.parse(key))

    def kontra(self, position: int) -> None:
        self.submit(cmd.Kontra(position))

    def re(self, position: int) -> None:
        self.submit(cmd.Re(position))

    def offer_gift(self, position: int) -> None:
        self.submit(cmd.OfferGift(position))

    def decline_gift(self, position: int) -> None:
        self.submit(cmd.DeclineGift(position))

    def accept_gift(self, position: int) -> None:
        self.submit(cmd.AcceptGift(position))

    def play_on(self, position: int) -> None:
        self.submit(cmd.PlayOn(position))

    def automatic_gift(self) -> None:
        self.submit(cmd.AutomaticGift())

    def announce_spitze(self, count: int) -> None:
        self.submit(cmd.AnnounceSpitze(count))

    def enter_spitze_made(self, made: bool) -> None:
        self.submit(cmd.EnterSpitzeMade(made))

    def pick_card(self, code: str) -> None:
        """A card from the on-screen picker: it stands in for the reader, so it goes the
        reader's way (the service decides whether it is a trick card or a skat card)."""
        self.submit(CardScanned(Card.parse(code), raw=code, source="picker"), source="picker")

    def undo(self) -> None:
        self.submit(cmd.Undo())

    def end_game(self, how: str) -> None:
        self.submit(cmd.EndGame(cmd.EndHow(how)))

    def enter_result(self, tricks: int | None, points: int | None, matadors: int | None = None) -> None:
        self.submit(cmd.EnterResult(tricks, points, matadors))

    def _reopen_result_entry(self, refused: cmd.EnterResult) -> None:
        """A refused "Ergebnis direkt" opens again with what was typed (the reason on top)."""
        if self.current_screen == "play" and self._top_popup() is None:
            self.screen("play").enter_result(refused)

    def enter_matadors(self, matadors: int) -> None:
        self.submit(cmd.EnterMatadors(matadors))

    def enter_ramsch(self, points: tuple[int, int, int], tricks: tuple[int, int, int], skat_points: int,
                     last_trick: int, pushes: int = 0) -> None:
        """A Ramsch's counts, per position (Vorhand, Mittelhand, Hinterhand)."""
        self.submit(cmd.EnterRamsch(points, tricks, skat_points, last_trick, pushes))

    def answer_question(self, accept: bool) -> None:
        self.submit(cmd.AcceptFalseFollowing() if accept else cmd.RejectCard())

    def confirm_seat(self, seat: int) -> None:
        """A player confirms the shown result (the declarer and one defender must)."""
        self.submit(cmd.Confirm(seat))

    def add_bock(self) -> None:
        self.submit(cmd.AddBock())

    def end_series(self) -> None:
        self.submit(cmd.EndSeries())

    def confirm_list(self, seat: int) -> None:
        self.submit(cmd.ConfirmList(seat))

    def consent_correction(self, seat: int) -> None:
        self.submit(cmd.ConsentCorrection(seat))

    def propose_correction(self, entry: int, by_seat: int, *, declarer_tricks: int | None = None,
                           declarer_points: int | None = None, matadors: int | None = None,
                           passed_in: bool = False) -> None:
        """Propose a correction of list entry ``entry`` (ISkO 5.5.3): the entry's game with the
        counts entered again (the counted form), or eingepasst; every player then consents.

        The corrected record starts from the entry's stored game record (``service.state``:
        the snapshot holds no records), keeping its declaration, bid, Kontra/Re/Bock and how
        it ended (:func:`ui.table.viewmodels.corrected_record`); the service checks it."""
        if passed_in:
            self.submit(cmd.ProposeCorrection(entry, None, None, by_seat))
            return
        from ui.table.viewmodels import corrected_record

        rows = self.service.state.rows
        row = rows[entry - 1] if 1 <= entry <= len(rows) else None
        if row is None or row.record is None:
            self.hint(tr("correct_only_games"))
            return
        record = corrected_record(row.record, declarer_tricks=declarer_tricks, declarer_points=declarer_points,
                                  matadors=matadors)
        self.submit(cmd.ProposeCorrection(entry, record, row.declarer_seat, by_seat))

    def withdraw_correction(self) -> None:
        self.submit(cmd.WithdrawCorrection())

    def press(self, button: str) -> None:
        """A panel button: through the panel if there is one (the fake's ``press``)."""
        if self.panel is not None and hasattr(self.panel, "press"):
            self.panel.press(button)  # the fake panel submits through panel_submit
        else:
            self.panel_submit(ButtonPressed(Button(button), source="screen"))

    def shutdown(self) -> None:
        hook = self.hooks.get("shutdown")
        if hook is not None:
            hook(self)
        else:
            self.stop()

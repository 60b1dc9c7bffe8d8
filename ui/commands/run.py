"""``skattisch run``: start the table — the composition root.

It reads the config, opens the event store, builds the table service, the card reader and
the GPIO panel (the real ones, or with ``--simulate`` the fakes: a card picker on screen and
on-screen panel buttons, and a store in memory unless ``--config`` names one), and runs the
Kivy touch UI. Hardware is touched only here, when the adapters are built.

``--script FILE`` feeds steps through the real UI (see ``docs/ui.md`` for the format),
``--screenshots DIR`` saves a PNG after each step, ``--exit-when-done`` ends the program after
the script with exit code 0 (every step passed) or 1 (the failing step and why are printed).
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import random
import sys
from pathlib import Path
from typing import Any

SIZES = ("800x480", "1280x720")
# Kivy's providers the table uses, set before Kivy is imported: SDL2's clipboard, not xclip or
# xsel (which may be missing); SDL2's images alone (Kivy's theme, PNG), not also Pillow's and
# the others Kivy would import at start-up for pictures the table never shows (10-20 ms of the cold start)
KIVY_PROVIDERS = {"KIVY_CLIPBOARD": "sdl2", "KIVY_IMAGE": "sdl2"}


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a size is WIDTHxHEIGHT, e.g. 800x480, not {text!r}") from None
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise argparse.ArgumentTypeError(f"{text}: between 320x240 and 7680x4320")
    return width, height


def _step_wait(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds, e.g. 5 or 60, not {text!r}") from None
    if not 0 < seconds <= 3600:
        raise argparse.ArgumentTypeError(f"{text}: more than 0 and at most 3600 seconds")
    return seconds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--simulate", action="store_true",
                        help="no hardware: a card picker on screen, on-screen panel buttons, lists in memory "
                             "(unless --config names a store)")
    parser.add_argument("--config", metavar="FILE", help="the config file (default: $SKATTISCH_CONFIG, "
                        "/etc/skattisch/skattisch.toml, ~/.config/skattisch/skattisch.toml)")
    parser.add_argument("--script", metavar="FILE", help="feed these steps through the UI (docs/ui.md)")
    parser.add_argument("--screenshots", metavar="DIR", help="save a PNG of the screen after each script step")
    parser.add_argument("--shots", choices=("all", "named"), default="all",
                        help="with --screenshots: after every step (all) or only at 'screenshot NAME' steps")
    parser.add_argument("--report", metavar="FILE", help="write one JSON line per script step (what it sent)")
    parser.add_argument("--step-wait", type=_step_wait, metavar="SECONDS",
                        help="how long a script step waits for the table (default 5; more on a slow "
                             "machine, e.g. an emulated Pi)")
    parser.add_argument("--exit-when-done", action="store_true",
                        help="end after the script; exit code 1 if a step failed")
    parser.add_argument("--size", type=_size, metavar="WxH",
                        help="window size, e.g. 800x480 or 1280x720 (a window, not full screen)")
    parser.add_argument("--lang", choices=("de", "en"), help="language of the screen (default: the config's)")
    parser.add_argument("--keyboard", choices=("screen", "system"),
                        help="names typed on the table's own big keyboard (screen; the default without "
                             "--simulate) or on the computer's keyboard (system; the default with --simulate)")
    parser.add_argument("--seed", type=int, help="random seed for Auslosen (reproducible demos and tests)")
    parser.add_argument("--players", metavar="NAMES",
                        help="open a list at once with these comma-separated players (demos, tests)")


class _QuietKivy(logging.Filter):
    """Kivy probes optional parts at start-up and logs each one missing with a traceback
    (the multitouch library libmtdev, the X cut buffer tools xclip and xsel): the table needs
    none of them, and three tracebacks at every start look like a crash. Those are dropped;
    every other warning and error still shows."""

    HARMLESS = ("Input: MTDev is not supported", "Cutbuffer: Unable to find", "xclip - ", "xsel - ",
                "Config: Older configuration version", "Config: Upgrading configuration")

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.HARMLESS)


def _kivy_environment(args: argparse.Namespace, config: Any) -> tuple[int, int, bool]:
    """Settle Kivy's options before Kivy is imported (it reads them at import)."""
    kivy_log = logging.getLogger("kivy")
    kivy_log.addFilter(_QuietKivy())
    kivy_log.setLevel(getattr(logging, os.environ.get("SKATTISCH_KIVY_LOG", "warning").upper(), logging.WARNING))
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    for name, provider in KIVY_PROVIDERS.items():
        os.environ.setdefault(name, provider)
    size = args.size
    fullscreen = size is None and not args.simulate and config.ui.fullscreen
    width, height = size if size is not None else (config.ui.width, config.ui.height)
    from kivy.config import Config as KivyConfig

    KivyConfig.set("graphics", "width", str(width))
    KivyConfig.set("graphics", "height", str(height))
    KivyConfig.set("graphics", "resizable", "0" if size is not None else "1")
    KivyConfig.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    KivyConfig.set("graphics", "show_cursor", "1" if args.simulate or size is not None else "0")
    KivyConfig.set("graphics", "vsync", "0")  # never wait for a vertical blank before the next tap's frame
    KivyConfig.set("graphics", "multisamples", "0")  # no MSAA: flat shapes need none, and the Pi draws faster
    KivyConfig.set("kivy", "exit_on_escape", "0")
    KivyConfig.set("kivy", "log_level", os.environ.get("SKATTISCH_KIVY_LOG", "warning"))
    KivyConfig.set("kivy", "keyboard_mode", "")  # never Kivy's stock keyboard: ours (ui/table/keyboard.py)
    KivyConfig.set("kivy", "keyboard_layout", "de" if (args.lang or config.table.language) == "de" else "qwerty")
    if fullscreen:
        # The table's touchscreen comes through the kernel (probesysfs/hidinput); SDL also
        # turns each touch into a mouse click, which would make one tap count twice.
        if KivyConfig.has_option("input", "mouse"):
            KivyConfig.remove_option("input", "mouse")
    else:
        # a mouse is a finger here: no red multitouch dots on right-click
        KivyConfig.set("input", "mouse", "mouse,multitouch_on_demand")
    return width, height, fullscreen


STORE_NOTICES = {  # kind: (English, German) — what the store repaired on opening, for the status bar
    "torn": ("Store repaired: a line torn by a power cut was moved aside; every whole entry is kept (details in"
             " the log).", "Speicher repariert: eine beim Stromausfall abgerissene Zeile wurde beiseitegelegt, alle"
             " ganzen Einträge sind da (Einzelheiten im Log)."),
    "old_copy": ("An old, damaged list was taken from its last good copy (details in the log).",
                 "Eine alte, beschädigte Liste wurde aus ihrer letzten guten Kopie übernommen (Einzelheiten im Log)."),
    "converted": ("The store was converted to the journal; the old files are kept in before-journal.",
                  "Der Speicher wurde auf das Journal umgestellt; die alten Dateien liegen in before-journal."),
}


def run(args: argparse.Namespace) -> int:
    # No garbage collection during start-up (imports, the store's replay, the first frame):
    # it all lives as long as the table; the App turns it on after its first frame.
    gc.disable()
    from ui import codecache

    codecache.install("run")  # before the imports: device's dataclasses, the table's kv files
    try:
        return _start(args)
    finally:
        gc.enable()


def _start(args: argparse.Namespace) -> int:
    from drivers.config import ConfigError, load_config
    from ui.table.script import ScriptError, load_script

    try:
        config = load_config(args.config)
        steps = load_script(args.script) if args.script else []
    except (ConfigError, ScriptError) as exc:
        print(f"skattisch run: {exc}", file=sys.stderr)
        return 2
    _kivy_environment(args, config)
    from drivers.deck import DeckError
    from drivers.panel import PanelError
    from drivers.store import StoreError

    parts = _Parts()
    try:
        return _run(args, config, steps, parts)
    except StoreError as exc:
        # Never overwrite a damaged list: say which file, what is wrong and what to do about it,
        # on the console and on the screen (where the repair is offered behind the club PIN).
        print(f"skattisch run: the store cannot be used: {exc}\n{exc.hint}", file=sys.stderr)
        parts.close()  # let go of the store, so that the screen's repair may open it
        if args.exit_when_done and not steps:
            return 2
        damaged = _Parts()
        try:
            code = _run(args, config, steps, damaged, store_problem=str(exc))
        finally:
            damaged.close()
        return code
    except (PanelError, DeckError) as exc:
        print(f"skattisch run: {exc}", file=sys.stderr)
        return 2
    finally:
        parts.close()


class _Parts:
    """What was built, closed in reverse order however the run ends."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    def add(self, item: Any) -> Any:
        self.items.append(item)
        return item

    def close(self) -> None:
        for item in reversed(self.items):
            try:
                item.close()
            except Exception as exc:  # closing must go on for the rest
                print(f"skattisch run: closing {item!r}: {exc}", file=sys.stderr)


def _run(args: argparse.Namespace, config: Any, steps: list[Any], parts: _Parts, *,
         store_problem: str | None = None) -> int:
    from device.table import OpenList, TableService
    from ui.i18n import refusal_text
    from drivers.adapters import DeckLoad, build_panel, build_reader, build_store, load_deck
    from ui.table.app import TableApp
    from ui.table.runner import ScriptRunner
    from ui.table.script import WAIT_SECONDS as SCRIPT_STEP_WAIT

    # --simulate keeps the lists in memory unless a config names a store; a damaged store is
    # not opened again: the table shows the store screen over an empty memory store.
    store = parts.add(build_store(config, simulate=(args.simulate and args.config is None) or bool(store_problem)))
    rng = random.Random(args.seed) if args.seed is not None else None
    service = TableService(store, device_id=store.device_id, rng=rng, roster=config.table.roster)
    _kept_roster(store, service)
    if args.players:
        names = tuple(n.strip() for n in args.players.split(",") if n.strip())
        result = service.handle(OpenList(names, series_length=None if len(names) > 4 else {3: 36, 4: 48}[len(names)]))
        if result.refusals:
            print(f"skattisch run: --players: {refusal_text(result.refusals[0], 'en')}", file=sys.stderr)
            return 2
    runner: ScriptRunner | None = None
    report = parts.add(open(args.report, "w", encoding="utf-8")) if args.report else None

    def started(app: TableApp) -> None:
        kinds = {getattr(notice, "kind", "") for notice in getattr(store, "notices", [])}
        said = [STORE_NOTICES[kind][app.language == "de"] for kind in ("torn", "old_copy", "converted") if kind in kinds]
        if said:  # said once on the screen; the log has the details (file, bytes, where they went)
            app.hint(" ".join(said), level="error")
        first_boot = _first_boot_problems(app.language)
        if first_boot:  # skattisch-settings.txt on the SD card could not be applied in full
            print(f"skattisch run: {first_boot}", file=sys.stderr)
            app.hint(first_boot, level="error", seconds=FIRST_BOOT_SECONDS)
        if runner is not None:
            runner.start(app)

    deck = DeckLoad(None) if args.simulate else load_deck(config.reader)
    if deck.problem:  # the table still starts: results are typed in until a deck is taught in
        print(f"skattisch run: warning: {deck.problem}", file=sys.stderr)
    app = TableApp(
        service, simulate=args.simulate, table_number=config.table.number, table_name=config.table.name,
        pin_hash=config.table.club_pin_hash, language=args.lang or config.table.language, config=config,
        hooks={"shutdown": _shutdown_hook(args)}, on_started=started, deck_problem=deck.problem)
    app.onscreen_keyboard = (args.keyboard or ("system" if args.simulate else "screen")) == "screen"
    app.sync_client = _start_sync(config, store, service, parts)
    if store_problem:
        from ui.commands.store import repair_store

        app.store_problem = store_problem
        app.store_repair = lambda: repair_store(config.store.path)
    app.attach_panel(parts.add(build_panel(config, app.panel_submit, simulate=args.simulate)))
    reader = build_reader(config.reader, simulate=args.simulate, deck=deck.deck)
    if reader is not None:
        parts.add(reader)
        app.reader = reader
        reader.start(app.reader_submit)
    if steps:
        shots_dir = Path(args.screenshots) if args.screenshots else None
        runner = ScriptRunner(app, steps, shots_dir=shots_dir, shots=args.shots, report=report,
                              exit_when_done=args.exit_when_done,
                              wait_seconds=args.step_wait or SCRIPT_STEP_WAIT,
                              reader=reader if args.simulate else None)
    elif args.exit_when_done:
        from kivy.clock import Clock

        app._on_started = lambda a: Clock.schedule_once(lambda _dt: a.stop(), 0.2)
    app.run()
    return runner.exit_code if runner is not None else 0


FIRST_BOOT_SECONDS = 300.0  # the first-boot problems stay in the banner until a tap changes the screen


def _first_boot_problems(language: str) -> str:
    """What the image's first-boot unit could not apply from the SD card's settings file (its
    problems file, ``$SKATTISCH_FIRST_BOOT_PROBLEMS`` or /var/lib/skattisch/...), in one text."""
    from drivers.firstboot import PROBLEMS_FILE, load_problems

    path = Path(os.environ.get("SKATTISCH_FIRST_BOOT_PROBLEMS") or PROBLEMS_FILE)
    return " ".join(problem.text(language) for problem in load_problems(path))


def answer_handler(service: Any, directory: Any, *, wake: Any) -> Any:
    """What the table does with each answer of the laptop (the sync client's ``on_answer``):
    the club's roster (kept beside the store), whether a card is being assigned, the next
    series released for this table; after a card reported for "Karte zuordnen", ask again
    at once (the roster with the new card comes with that ack)."""
    from device.table import CardWanted, NextSeriesOffered, RosterReceived, SeatedElsewhere
    from drivers.roster_cache import RosterKeeper

    keeper = RosterKeeper(directory)

    def on_answer(answer: dict[str, Any]) -> None:
        if "card_answer" in answer:
            wake()
            return
        keeper.keep(answer.get("roster"))  # kept beside the store: cards seat members offline too
        service.submit(CardWanted(answer.get("card_wanted") is True))
        service.submit(SeatedElsewhere.from_ack(answer.get("seated")))
        for command in (RosterReceived.from_ack(answer.get("roster")), NextSeriesOffered.from_ack(answer.get("next_series"))):
            if command is not None:
                service.submit(command)

    return on_answer


def _kept_roster(store: Any, service: Any) -> None:
    """The roster the laptop sent last (kept beside the store), before any ack arrives."""
    directory = getattr(store, "directory", None)
    if directory is None:
        return
    from device.table import RosterReceived
    from drivers.roster_cache import load_roster

    received = RosterReceived.from_ack(load_roster(directory))
    if received is not None:
        service.handle(received)


def _start_sync(config: Any, store: Any, service: Any, parts: _Parts) -> Any:
    """The sync client in its own thread, for a table whose store is on disk (None in memory).

    Its state (laptop, secret, acknowledged seq) lives in ``sync.json`` beside the store; the
    laptop is found by mDNS, else ``sync.url`` from the config."""
    directory = getattr(store, "directory", None)
    if directory is None:
        return None
    from drivers.club.mdns import find_laptop
    from drivers.sync import make_client

    def discover() -> str | None:
        try:
            return find_laptop(timeout=2.0)
        except OSError:  # no network at all: the configured address, if any
            return None

    on_answer = answer_handler(service, directory, wake=lambda: client.wake())
    client = make_client(store, directory, service.device_id, service.submit, discover=discover,
                         fallback_url=config.sync.url, idle_poll=float(config.sync.interval_seconds),
                         on_answer=on_answer)
    service.subscribe(lambda result: client.wake() if result.events else None)
    service.report_cards_to(client.send_card)
    client.start()
    return parts.add(client)


def _shutdown_hook(args: argparse.Namespace) -> Any:
    def shutdown(app: Any) -> None:
        if args.simulate:
            print("skattisch run: shutting down (simulated: the window closes)", flush=True)
            app.stop()
            return
        import subprocess

        try:
            subprocess.run(["systemctl", "poweroff"], check=True, timeout=20)
        except (OSError, subprocess.SubprocessError) as exc:
            app.hint(f"Ausschalten ging nicht: {exc}", level="error")

    return shutdown

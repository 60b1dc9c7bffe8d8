"""Running the real table under Xvfb: one ``skattisch run --simulate`` process per scenario.

Kivy runs one App per process, so each scenario is its own process: the table starts, the
script's steps go through the real UI (touches on real widgets, cards through the on-screen
picker or the simulated reader), and the process ends. What it did comes back as the
runner's JSON report, one line per step (which commands reached the service), and as
screenshots under ``tests/artifacts/screens/<size>/``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The start of a child program that runs the real App at 800×480 (``run_app_child``): Kivy
#: configured before its window, Clock and the in-memory store imported; the program fills
#: ``seen`` and writes it with ``json.dump(seen, open(sys.argv[1], "w"))``; ``after_next_frame(then)``
#: calls ``then()`` once the next frame is on screen; ``rendered_texts()`` collects the texts rendered from then on.
APP_CHILD_HEADER = r"""
import gc, json, os, sys, time
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
from kivy.config import Config
Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("kivy", "log_level", "error")
from kivy.clock import Clock
from device.table.service import TableService
from drivers.store import MemoryDisk, MemoryEventStore
from ui.table.app import TableApp
from kivy.core.window import Window

def after_next_frame(then):  # then() on the clock tick after the next frame is swapped
    def flipped(*_args):
        Window.unbind(on_flip=flipped)
        Clock.schedule_once(lambda _dt: then(), 0)
    Window.bind(on_flip=flipped)

def when(done, then, within, every=0):  # then() once done() holds, or after `within` seconds
    deadline = time.perf_counter() + within
    def check(_dt):
        if done() or time.perf_counter() > deadline:
            then()
        else:
            Clock.schedule_once(check, every)
    Clock.schedule_once(check, every)

def rendered_texts():  # a list of what Kivy's core labels render from now on: (text, width of its box)
    from kivy.core.text import LabelBase
    texts = []
    refresh = LabelBase.refresh
    def counted(self):
        texts.append((self.text, round(self.text_size[0]) if self.text_size and self.text_size[0] else None))
        return refresh(self)
    LabelBase.refresh = counted
    return texts

seen = {}

def for_each_case(app, cases, set_up, shown, delay=0):  # set_up(case), shown(case) once laid out and drawn; then stop
    steps = iter(cases)
    def next_case():
        case = next(steps, None)
        if case is None:
            app.stop()
            return
        set_up(case)
        def done():
            shown(case)
            next_case()
        # laid out and rendered by the clock's next ticks (a frame is drawn only when something changed)
        Clock.schedule_once(lambda _dt: Clock.schedule_once(lambda _dt: done(), 0), delay)
    next_case()

def run_app(started):  # the App on a store in memory, simulated, until it stops; then `seen` to the test
    store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
    TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=started).run()
    json.dump(seen, open(sys.argv[1], "w"))
"""
ARTIFACTS = ROOT / "tests" / "artifacts" / "screens"
SIZES = ("800x480", "1280x720")


@dataclass
class Run:
    """A finished table process: exit code, output and the report of its steps."""

    returncode: int
    stdout: str
    stderr: str
    report: list[dict[str, object]]

    def check(self) -> Run:
        assert self.returncode == 0, f"the table failed:\n{self.stdout[-3000:]}\n{self.stderr[-3000:]}"
        return self

    def step(self, text: str, occurrence: int = 1) -> dict[str, object]:
        """The report line of the ``occurrence``-th step written ``text`` (e.g. 'tap bid_18')."""
        found = [line for line in self.report if line["step"] == text]
        assert len(found) >= occurrence, f"no step {text!r} (#{occurrence}) in the report"
        return found[occurrence - 1]

    def sent(self, text: str, occurrence: int = 1) -> list[str]:
        sent = self.step(text, occurrence)["sent"]
        assert isinstance(sent, list)
        return [str(s["command"]) for s in sent]


def start_xvfb() -> tuple[subprocess.Popen[bytes], str] | None:
    """A private X server for the tests (``Xvfb``), or None if there is none installed."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        return None
    read, write = os.pipe()
    process = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", "1280x720x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    number = b""
    with os.fdopen(read, "rb") as pipe:
        while not number.endswith(b"\n"):
            chunk = pipe.read(1)
            if not chunk:
                process.kill()
                return None
            number += chunk
    return process, f":{number.decode().strip()}"


@contextmanager
def xvfb_display(who: str) -> Iterator[str]:
    """A private X server's display for a script (not a test) named ``who``, stopped after;
    SystemExit saying so if Xvfb is not installed."""
    started = start_xvfb()
    if started is None:
        raise SystemExit(f"{who}: Xvfb is not installed (./dev.sh test installs it)")
    process, display = started
    try:
        yield display
    finally:
        process.terminate()
        process.wait(timeout=10)


def run_table(display: str, steps: Sequence[str], *, size: str = "800x480", lang: str | None = None,
              seed: int = 1, args: Sequence[str] = (), config: str | None = None, timeout: float = 150,
              module: str = "ui.cli", simulate: bool = True, shots_dir: Path | None = None) -> Run:
    """Run ``skattisch run --simulate`` with ``steps`` as its script; named screenshots go to
    ``tests/artifacts/screens/<size>/``. ``config``: the text of a config file to run with
    (``{tmp}`` in it is the run's temporary folder); its store is then a real TinyDB store.
    ``module``: the program to run (``python -m``), e.g. one that arranges a failure first.
    ``simulate=False``: the reader and the panel the config names (a pty, gpiozero's mock).
    ``shots_dir``: where the named screenshots go instead (e.g. the guides' pictures)."""
    shots = shots_dir if shots_dir is not None else ARTIFACTS / size
    shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="skattisch-ui-") as tmp:
        script = Path(tmp) / "script.txt"
        script.write_text("\n".join(steps) + "\n", encoding="utf-8")
        report = Path(tmp) / "report.jsonl"
        if config is not None:
            config_file = Path(tmp) / "skattisch.toml"
            config_file.write_text(config.replace("{tmp}", tmp), encoding="utf-8")
            args = [*args, "--config", str(config_file)]
        command = [sys.executable, "-m", module, "run", *(["--simulate"] if simulate else []), "--size", size,
                   "--script", str(script),
                   "--screenshots", str(shots), "--shots", "named", "--report", str(report),
                   "--exit-when-done", "--seed", str(seed), *(("--lang", lang) if lang else ()), *args]
        env = {**os.environ, "DISPLAY": display, "KIVY_NO_ARGS": "1", "KIVY_HOME": str(Path(tmp) / "kivy"),
               "XDG_DATA_HOME": str(Path(tmp) / "data"), "XDG_CONFIG_HOME": str(Path(tmp) / "config"),
               "XDG_CACHE_HOME": str(Path(tmp) / "cache"), "SKATTISCH_CONFIG": ""}  # (ui/codecache.py's file)
        env.pop("SKATTISCH_CONFIG")
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()] if report.exists() else []
    return Run(done.returncode, done.stdout, done.stderr, lines)


def run_app_child(program: str, display: str, tmp_path: Path, header: str = APP_CHILD_HEADER,
                  args: Sequence[str] = ()) -> dict[str, object]:
    """Run ``header + program`` on the test's Xvfb display (``sys.argv[2:]``: ``args``); what
    it wrote to ``seen``."""
    out = tmp_path / "seen.json"
    env = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(tmp_path / "kivy")}
    subprocess.run([sys.executable, "-c", header + program, str(out), *args], cwd=ROOT, env=env, check=True,
                   timeout=120, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text())  # type: ignore[no-any-return]

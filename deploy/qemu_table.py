#!/usr/bin/env python3
"""The table on its own system in qemu: a screen, a touchscreen, a card reader, a QMP socket.

Used by ``deploy/test-image.sh --screen``; standard library only (it runs on the host, beside
qemu). It boots a prepared copy of the SD-card image (settings filled in, the image's kernel and
initrd taken from its boot partition) in qemu-system-aarch64 with:

- ``virtio-gpu-pci`` (800x480): the table's unit draws on it through SDL2's kmsdrm, as on a Pi;
- ``virtio-multitouch-pci``: a protocol-B multitouch device, read by Kivy's ``probesysfs`` and
  ``mtdev``, the path of the Pi's touchscreen; taps are QMP ``input-send-event`` multitouch events;
- ``usb-serial`` (QEMU's FTDI FT232R) on a socket chardev whose host end listens before qemu
  starts (the guest sees the chip only once that end is connected); the host writes RDM6300
  frames to it, each card's tag twice as a tag lying on the reader repeats it: the deck is
  taught in at the table first (Einstellungen → Kartensatz anlernen, by taps and 32 tags);
- a QMP socket for ``screendump`` (PNG) and the taps; the serial console gets the journal
  (``systemd.journald.forward_to_console``), so the table's and Kivy's lines are read live.

Nothing here goes into the image: the devices, the QMP socket and the kernel's command line
are qemu's.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ABS_MAX = 0x7FFF  # QEMU's absolute axes run 0..32767 (INPUT_EVENT_ABS_MAX)
TIMES: dict[str, list[float]] = {"card": [], "tap": []}  # seconds to the first changed frame (the figures)


class Qmp:
    """A QMP client on a unix socket: one command at a time, events skipped."""

    def __init__(self, path: Path, within: float = 60) -> None:
        deadline = time.monotonic() + within
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        self.file = self.sock.makefile("rwb")
        json.loads(self.file.readline())  # the greeting
        self.command("qmp_capabilities")

    def command(self, name: str, **arguments: object) -> object:
        message: dict[str, object] = {"execute": name}
        if arguments:
            message["arguments"] = arguments
        self.file.write(json.dumps(message).encode() + b"\n")
        self.file.flush()
        while True:
            line = self.file.readline()
            if not line:
                raise ConnectionError("qemu closed its QMP socket")
            answer = json.loads(line)
            if "event" in answer:
                continue
            if "error" in answer:
                raise RuntimeError(f"QMP {name}: {answer['error']}")
            return answer.get("return")

    def close(self) -> None:
        self.sock.close()


class Touch:
    """Taps on ``virtio-multitouch-pci`` through QMP: protocol B, one contact in slot 0.

    QEMU turns a multitouch ``begin`` into ABS_MT_SLOT and ABS_MT_TRACKING_ID, a ``data``
    event into ABS_MT_POSITION_X/Y, and each ``input-send-event`` ends with a SYN_REPORT.
    A contact ends with tracking id -1, as the kernel's protocol B says.

    No ``device`` in ``input-send-event``: it names a display, not an input device, and QEMU 10
    aborts looking it up ("Property 'qemu-fixed-text-console.device' not found"). Without it the
    events go to the one handler that takes multitouch events, the virtio-multitouch device."""

    def __init__(self, qmp: Qmp, width: int, height: int) -> None:
        self.qmp, self.width, self.height = qmp, width, height
        self.tracking_id = 0

    def _mtt(self, kind: str, axis: str = "x", value: int = 0, tracking_id: int = 0) -> dict[str, object]:
        return {"type": "mtt", "data": {"type": kind, "slot": 0, "tracking-id": tracking_id,
                                        "axis": axis, "value": value}}

    def tap(self, x: float, y: float, hold: float = 0.15) -> None:
        """A finger down at screen pixel (x, y), from the top left, and up again."""
        ax = round(x * ABS_MAX / (self.width - 1))
        ay = round(y * ABS_MAX / (self.height - 1))
        self.tracking_id = (self.tracking_id + 1) % 10  # the device's tracking ids run 0..9
        down = [self._mtt("begin", tracking_id=self.tracking_id),
                self._mtt("data", "x", ax, self.tracking_id), self._mtt("data", "y", ay, self.tracking_id),
                {"type": "btn", "data": {"down": True, "button": "touch"}}]
        self.qmp.command("input-send-event", events=down)
        time.sleep(hold)
        up = [self._mtt("end", tracking_id=-1), {"type": "btn", "data": {"down": False, "button": "touch"}}]
        self.qmp.command("input-send-event", events=up)


class ReaderLine:
    """The host's end of the guest's USB-serial chip: listens before qemu starts, takes qemu's
    connection, writes what a reader would send."""

    def __init__(self, path: Path) -> None:
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(str(path))
        self.server.listen(1)
        self.conn: socket.socket | None = None

    def accept(self, within: float = 30) -> None:
        self.server.settimeout(within)
        self.conn, _ = self.server.accept()

    def send(self, data: bytes) -> None:
        assert self.conn is not None
        self.conn.sendall(data)


def rdm6300_frame(payload: str) -> bytes:
    """STX, 10 hex digits, the XOR of their 5 bytes as 2 hex digits, ETX."""
    data = bytes.fromhex(payload)
    checksum = 0
    for byte in data:
        checksum ^= byte
    return b"\x02" + payload.upper().encode() + b"%02X\x03" % checksum


class HoldingProxy:
    """A TCP proxy on this machine between the guest (10.0.2.2) and the laptop. While ``hold``
    is set, the laptop's answers wait here: a batch the guest sent then stays in flight (the
    laptop may have stored it, the table has no ack yet)."""

    def __init__(self, listen_port: int, laptop_port: int) -> None:
        self.laptop_port = laptop_port
        self.hold = threading.Event()
        self.sent_while_held = threading.Event()
        self.first_line = b""
        self.server = socket.create_server(("127.0.0.1", listen_port))
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            client, _ = self.server.accept()
            try:
                laptop = socket.create_connection(("127.0.0.1", self.laptop_port), timeout=10)
            except OSError:
                client.close()
                continue
            laptop.settimeout(None)
            threading.Thread(target=self._pump, args=(client, laptop, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(laptop, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket, from_guest: bool) -> None:
        try:
            while data := source.recv(65536):
                if from_guest and self.hold.is_set() and data.startswith(b"POST /api/v1/events"):
                    self.first_line = data.split(b"\r\n", 1)[0][:80]
                    self.sent_while_held.set()
                while not from_guest and self.hold.is_set():
                    time.sleep(0.1)  # the laptop's answer waits: the guest's batch is in flight
                target.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, target):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


class Guest:
    """One boot of the copy: qemu, its console, QMP, the touch device and the reader."""

    def __init__(self, work: Path, disk: Path, kernel: Path, initrd: Path, root: str, cpu: str,
                 name: str) -> None:
        self.work, self.name = work, name
        self.console = work / f"{name}.console"
        self.qmp_path = work / f"{name}.qmp"
        self.reader_path = work / f"{name}.reader"
        for path in (self.qmp_path, self.reader_path):
            path.unlink(missing_ok=True)
        self.reader = ReaderLine(self.reader_path)
        append = (f"root={root} rw console=ttyAMA0 systemd.show_status=1 "
                  "systemd.journald.forward_to_console=1 loglevel=4")
        self.argv = [
            "qemu-system-aarch64", "-M", "virt", "-cpu", cpu, "-smp", "2", "-m", "1536", "-no-reboot",
            "-kernel", str(kernel), "-initrd", str(initrd), "-append", append,
            "-drive", f"file={disk},format=raw,if=none,id=disk,cache=writethrough",
            "-device", "virtio-blk-pci,drive=disk",
            "-netdev", "user,id=net", "-device", "virtio-net-pci,netdev=net,romfile=",
            "-device", "virtio-gpu-pci,xres=800,yres=480",
            "-device", "virtio-multitouch-pci,id=touch",
            "-device", "qemu-xhci,id=xhci",
            "-chardev", f"socket,id=reader,path={self.reader_path}",
            "-device", "usb-serial,chardev=reader,bus=xhci.0",
            "-display", "none", "-monitor", "none",
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
            "-serial", f"file:{self.console}",
        ]
        self.started = time.monotonic()
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL,
                                     stdout=open(work / f"{name}.qemu.log", "wb"), stderr=subprocess.STDOUT)
        self.reader.accept()
        self.qmp = Qmp(self.qmp_path)
        self.touch = Touch(self.qmp, 800, 480)
        self.shots = 0

    def seconds(self) -> float:
        return time.monotonic() - self.started

    def console_text(self) -> str:
        return self.console.read_text(errors="replace") if self.console.exists() else ""

    def wait_console(self, pattern: str, within: float) -> re.Match[str] | None:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            found = re.search(pattern, self.console_text())
            if found:
                return found
            if self.proc.poll() is not None:
                return None
            time.sleep(2)
        return None

    def screendump(self, label: str) -> Path:
        self.shots += 1
        path = self.work / "shots" / f"{self.name}-{self.shots:03d}-{label}.png"
        path.parent.mkdir(exist_ok=True)
        self.qmp.command("screendump", filename=str(path), format="png")
        return path

    def kill(self) -> None:
        """A pulled plug: SIGKILL, no flush, no orderly stop."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.qmp.close()


# --- where to tap: the same steps run first on this machine, in a window of the guest's size ------

PLAYERS = ("Anna", "Bernd", "Carla", "Dieter")
# game 1 is read card by card (a Grand Hand of Bernd's, lost); games 2 to 4 are entered directly
READ_HANDS = ("CJ D7 D8 D9 H7 H8 H9 S7 S8 S9", "SJ HJ CA CT CK CQ C9 C8 C7 DA", "DJ SA ST SK SQ HA HT HK HQ DT")
GAMES = [("hearts", 3, 40, 1), ("spades", 6, 75, 2), ("diamonds", 4, 50, 1)]
CUT_MID_TRICK_AFTER_CARDS = 17  # trick 6: two of its cards read


def tag_of(code: str) -> str:
    """The RDM6300 tag (10 hex digits) stuck to a card of the test's deck."""
    from drivers.deck import TEACH_ORDER
    return f"0A5C00{[card.code for card in TEACH_ORDER].index(code):04X}"


def teach_in_steps(pin: str) -> list[str]:
    """Einstellungen behind the PIN, Kartensatz anlernen: the 32 cards' tags in the order the
    table asks for them, then back to the game."""
    from drivers.deck import TEACH_ORDER
    return ["wait_screen game", "tap settings", *[f"tap digit_{digit}" for digit in pin], "tap pin_ok",
            "wait_screen settings", "tap deck_teach", *[f"scan {card.code}" for card in TEACH_ORDER],
            "tap teach_done", "wait_screen settings", "tap close_settings", "wait_screen game"]


def read_game() -> list[str]:
    """Game 1 (Anna deals and sits out): Bernd (Vorhand) holds 18 and declares Grand Hand; the
    30 cards are read by the reader, trick by trick; Bernd and Carla confirm."""
    from tests.ui.scenarios import cards_steps, play_order
    return ["wait_screen game", "tap bid_18", "tap hold", "tap pass", "tap pass", "wait_screen declare",
            "tap choose_hand", "tap game_grand", "tap declare", "wait_screen play",
            *cards_steps(play_order("grand", READ_HANDS), via="scan"),
            "wait_screen result", "tap confirm_1", "tap confirm_2"]


def evening_steps(pin: str) -> list[str]:
    """Four players typed on the table's own keyboard, the rules, the deck taught in, game 1
    read card by card (``scan``: a tag written to the guest's reader), three games entered
    directly, the list: taps and cards only (the script's ``type`` becomes taps on the
    keyboard's keys)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # the keyboard's module imports Kivy: not its options, not its log
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from tests.ui.scenarios import direct_game, setup_steps
    from ui.table.keyboard import key_name
    # the table takes its first touch after the start for nothing (seen in its hardware mode, on
    # this machine as in the guest): the first tap goes to "zurück", disabled on the first page
    steps: list[str] = ["wait_screen setup", "tap setup_back"]
    for step in setup_steps(PLAYERS, length="length_open", stake="stake_1"):
        if step.startswith("type "):
            name = step[len('type "'):-1]
            steps += [f"tap {key_name(char.lower())}" for char in name] + ["tap key_ok"]
        else:
            steps.append(step)
    steps += teach_in_steps(pin) + read_game()
    for number, (game, tricks, points, matadors) in enumerate(GAMES, start=1):
        steps += direct_game(number, len(PLAYERS), game, tricks, points, matadors)
    return steps + ["tap list", "wait_screen list"]


def layout_run(work: Path, skattisch: str, steps: list[str], pin: str) -> list[dict[str, object]]:
    """Run ``steps`` through the table on this machine (Xvfb, 800x480, its hardware mode as in
    the guest: the table's keyboard, no panel, its RDM6300 reader on a pseudo-terminal, no deck
    yet, the settings behind ``pin``) and return the report: each tap's place on the screen
    ("at", from the top left). A ``scan`` step becomes a pause in the script while its card's
    tag is written to the reader's line, as in the guest."""
    from device.pin import hash_pin
    from drivers.config import config_with_line
    script, report = work / "layout-steps.txt", work / "layout-report.jsonl"
    cards = {index: step.split()[1] for index, step in enumerate(steps) if step.startswith("scan ")}
    script.write_text("\n".join("sleep 1.5" if index in cards else step for index, step in enumerate(steps)) + "\n",
                      encoding="utf-8")
    master, slave = os.openpty()
    config = work / "layout.toml"
    example = (Path(__file__).parent / "skattisch.example.toml").read_text(encoding="utf-8")
    text = (example.replace('path = "/var/lib/skattisch/lists"', f'path = "{work}/layout-lists"')
            .replace('port = "/dev/skattisch-reader"', f'port = "{os.ttyname(slave)}"')
            .replace('deck = "/var/lib/skattisch/deck.json"', f'deck = "{work}/layout-deck.json"'))
    text = config_with_line(text, "reader", "mode", '"rdm6300"')
    config.write_text(config_with_line(text, "table", "club_pin_hash", json.dumps(hash_pin(pin))), encoding="utf-8")
    display = ":77"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "800x480x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finished = threading.Event()
    feeder = threading.Thread(target=feed_cards, args=(report, master, cards, finished), daemon=True)
    try:
        time.sleep(2)
        env = {**os.environ, "DISPLAY": display, "KIVY_NO_ARGS": "1", "KIVY_HOME": str(work / "layout-kivy"),
               "PYTHONPATH": str(Path(__file__).parent.parent)}
        feeder.start()
        done = subprocess.run([skattisch, "run", "--config", str(config), "--size", "800x480", "--script", str(script),
                               "--report", str(report), "--exit-when-done", "--step-wait", "60"],
                              env=env, capture_output=True, text=True, timeout=900)
    finally:
        finished.set()
        xvfb.terminate()
        xvfb.wait()
        os.close(master)
        os.close(slave)
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()] if report.exists() else []
    if done.returncode != 0:
        raise SystemExit(f"the layout run failed: {done.stdout[-2000:]} {done.stderr[-2000:]}")
    for index, line in enumerate(lines):
        if index in cards:
            line["step"] = f"scan {cards[index]}"
    return lines


def feed_cards(report: Path, master: int, cards: dict[int, str], finished: threading.Event) -> None:
    """Write each card's tag (two frames) to the reader's line once the step before it is in
    the report."""
    fed: set[int] = set()
    while not finished.is_set() and len(fed) < len(cards):
        reported = len(report.read_text(encoding="utf-8").splitlines()) if report.exists() else 0
        if reported in cards and reported not in fed:
            fed.add(reported)
            os.write(master, rdm6300_frame(tag_of(cards[reported])) * 2)
        time.sleep(0.05)


def ppm_mean(path: Path) -> float:
    """The mean brightness of a PPM screendump (0 black .. 255 white): to tell a drawn frame
    from the black screen before the window opens."""
    data = path.read_bytes()
    fields = data.split(maxsplit=4)  # P6, width, height, maxval, the pixels
    pixels = fields[4] if len(fields) == 5 else b""
    sample = pixels[::101]
    return sum(sample) / max(1, len(sample))


def first_change(guest: Guest, before: bytes, sent: float, within: float = 20) -> float | None:
    """Seconds from ``sent`` to the first screendump that differs from ``before`` (a PNG's
    bytes), polled every 0.1 s; None if none within ``within``. A dump takes some 10-30 ms."""
    probe = guest.work / "change-probe.png"
    while time.monotonic() - sent < within:
        guest.qmp.command("screendump", filename=str(probe), format="png")
        if probe.read_bytes() != before:
            return time.monotonic() - sent
        time.sleep(0.1)
    return None


def settle(guest: Guest, before: bytes | None, label: str, within: float = 40) -> tuple[Path, bool]:
    """Screendumps a second apart until three in a row are the same; whether it changed from
    ``before`` (the PNG's bytes) on the way. Three, not two: under TCG a button's pressed
    look can stand for more than a second before the popup or screen it opens is drawn."""
    deadline = time.monotonic() + within
    time.sleep(1.0)
    last = guest.screendump(label)
    changed = before is not None and last.read_bytes() != before
    same = 0
    while time.monotonic() < deadline:
        time.sleep(1.0)
        shot = guest.screendump(label)
        same = same + 1 if shot.read_bytes() == last.read_bytes() else 0
        changed = changed or (before is not None and shot.read_bytes() != before)
        last.unlink()
        last = shot
        if same >= 2 and (changed or before is None):
            break
    return last, changed


def first_frame(guest: Guest, within: float) -> Path:
    """Until the table's window shows: the first screendump that is not black, then settled."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        probe = guest.work / "probe.ppm"
        guest.qmp.command("screendump", filename=str(probe))
        bright = ppm_mean(probe)
        probe.unlink()
        if bright > 8:
            break
        if guest.proc.poll() is not None:
            raise SystemExit(f"qemu ended: {guest.console_text()[-3000:]}")
        time.sleep(2)
    else:
        raise SystemExit(f"no frame within {within:.0f} s; the console's end: {guest.console_text()[-3000:]}")
    return settle(guest, None, "first-frame")[0]


def replay(guest: Guest, lines: list[dict[str, object]], start: int = 0, stop_after: int | None = None) -> tuple[int, Path]:
    """The layout run's steps from ``start`` up to ``stop_after``: taps at their places, cards
    (``scan``) as their tags' RDM6300 frames on the reader, each once the screen has settled; a tap that changes nothing within 25 s is sent again once (the frames
    come slowly under TCG). Returns the index reached and the last settled screendump."""
    last = settle(guest, None, "before")[0]
    index = start
    for line in lines[start:stop_after]:
        index += 1
        at = line.get("at")
        step = str(line["step"])
        slug = re.sub(r"[^A-Za-z0-9_-]+", "-", step)[:40]
        before = last.read_bytes()
        if step.startswith("scan "):
            sent = time.monotonic()
            guest.reader.send(rdm6300_frame(tag_of(step.split()[1])) * 2)
            shown = first_change(guest, before, sent)
            shot, changed = settle(guest, before, slug, within=25)
            if shown is not None:
                TIMES["card"].append(shown)
            print(f"    {guest.seconds():5.0f} s  {step:24s} shown after {shown or 0:4.1f} s  "
                  f"{'changed' if changed else 'SAME'}  {shot.name}", flush=True)
            last = shot
            continue
        if not isinstance(at, list):
            continue
        sent = time.monotonic()
        guest.touch.tap(float(at[0]), float(at[1]))
        shown = first_change(guest, before, sent) if step != "tap setup_back" else None
        shot, changed = settle(guest, before, slug, within=25)
        if shown is not None:
            TIMES["tap"].append(shown)
        if not changed and step != "tap setup_back":
            print(f"    {step}: no change on the screen in 25 s, tapped again", flush=True)
            guest.touch.tap(float(at[0]), float(at[1]))
            shot, changed = settle(guest, before, slug, within=40)
        print(f"    {guest.seconds():5.0f} s  {step:24s} at {at[0]:5.0f},{at[1]:4.0f}  {'changed' if changed else 'SAME'}  {shot.name}",
              flush=True)
        last = shot
    return index, last


def game_scans(lines: list[dict[str, object]]) -> list[int]:
    """The indexes of the cards played (the reads after a declaration; not the teach-in's)."""
    declared = next(i for i, line in enumerate(lines) if line["step"] == "tap declare")
    return [i for i, line in enumerate(lines) if i > declared and str(line["step"]).startswith("scan ")]


def plugs(lines: list[dict[str, object]]) -> list[tuple[int, str]]:
    """Where the plug is pulled: after which step, and what is cut. In the middle of a trick
    (game 1, trick 6: two of its cards read), right after game 2 is confirmed, and while the
    batch with game 3's confirmation is in flight (the laptop's answer held back)."""
    scans = game_scans(lines)
    confirms = [i for i, line in enumerate(lines) if str(line["step"]).startswith("tap confirm_")]
    return [(scans[CUT_MID_TRICK_AFTER_CARDS - 1] + 1, "mid-trick"), (confirms[3] + 1, "confirmed"),
            (confirms[5] + 1, "in-flight")]


# --- after a pulled plug: the disk as the next boot finds it, and the screen it comes back to -----

STATUS_BAR = 44  # pixel rows of the status bar (its clock and sync word may differ after a boot)
BANNER_SECONDS = 8  # a hint or news banner is gone after this (the app's HINT_SECONDS is 6)


class Checks:
    """PASS/FAIL lines as the shell's checks print them; the run goes on after a failure."""

    def __init__(self) -> None:
        self.failed = 0

    def __call__(self, ok: bool, what: str, detail: str = "") -> None:
        print(f"{'PASS' if ok else 'FAIL'}  {what}", flush=True)
        if not ok:
            self.failed += 1
            for line in detail.splitlines()[-20:]:
                print(f"      {line}", flush=True)


def expected_after(lines: list[dict[str, object]], done: int) -> tuple[int, int, int]:
    """What the journal must hold after step ``done``: games confirmed (two confirmations
    each), cards played in all, cards played in the open game."""
    steps = [str(line["step"]) for line in lines[:done]]
    confirms = [i for i, step in enumerate(steps) if step.startswith("tap confirm_")]
    scans = [i for i in game_scans(lines) if i < done]
    since = confirms[-1] if confirms else -1
    return len(confirms) // 2, len(scans), sum(i > since for i in scans)


def journal_counts(lists: Path) -> tuple[list[str], int, int, int]:
    """The journal files, games recorded, cards played in all, cards in the open game."""
    files = sorted((lists / "journal").glob("*.jsonl"))
    games = cards = open_cards = 0
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            kind = json.loads(line)["event"]["type"]
            if kind == "game_recorded":
                games, open_cards = games + 1, 0
            elif kind == "card_played":
                cards, open_cards = cards + 1, open_cards + 1
            elif kind == "card_withdrawn":
                cards, open_cards = cards - 1, open_cards - 1
    return [path.name for path in files], games, cards, open_cards


def lists_on_disk(disk: Path, root_offset: int, into: Path) -> Path:
    """The table's lists folder as its next boot finds it: on a copy of the disk, e2fsck
    replays the ext4 journal (the newest writes may be only there), then debugfs reads it."""
    copy = into.with_suffix(".img")
    subprocess.run(["cp", "--sparse=always", str(disk), str(copy)], check=True)
    loop = subprocess.run(["losetup", "-o", str(root_offset), "--find", "--show", str(copy)],
                          check=True, capture_output=True, text=True).stdout.strip()
    try:
        fsck = subprocess.run(["e2fsck", "-fy", loop], capture_output=True, text=True)
        (into.parent / f"{into.name}.e2fsck.log").write_text(fsck.stdout + fsck.stderr, encoding="utf-8")
        into.mkdir(parents=True, exist_ok=True)
        subprocess.run(["debugfs", "-R", f"rdump /var/lib/skattisch/lists {into}", loop],
                       check=True, capture_output=True)
    finally:
        subprocess.run(["losetup", "-d", loop], check=False)
        copy.unlink()
    subprocess.run(["chown", "-R", f"{os.getuid()}:{os.getgid()}", str(into)], check=True)  # a copy: checked as this user
    return into / "lists"


def check_disk_after_plug(args: argparse.Namespace, lines: list[dict[str, object]], done: int, what: str,
                          check: Checks, lists_before: list[str]) -> list[str]:
    """``skattisch store check`` on the journal the next boot will find, and every confirmed
    game and every card shown before the cut in it; the same list as before."""
    lists = lists_on_disk(args.disk, args.root_offset, args.work / f"after-{what}")
    store = subprocess.run([args.skattisch, "store", "check", "--path", str(lists)], capture_output=True, text=True)
    check(store.returncode == 0, f"after the plug ({what}): skattisch store check passes on the disk's journal",
          store.stdout + store.stderr)
    files, games, cards, open_cards = journal_counts(lists)
    want = expected_after(lines, done)
    check((games, cards, open_cards) == want,
          f"after the plug ({what}): {want[0]} game(s) confirmed, {want[1]} card(s) played, {want[2]} in the open game "
          "are on the disk", f"the journal holds {games} game(s), {cards} card(s), {open_cards} in the open game")
    check(len(files) == 1 and files == (lists_before or files),
          f"after the plug ({what}): the same list ({', '.join(files)})", f"before: {lists_before}")
    return files


START_BANNER_AT = (60, 128)  # a pixel of the start's banner ("Tastenfeld fehlt – …") with no text on it


def pixel(ppm: Path, x: int, y: int) -> tuple[int, int, int]:
    data = ppm.read_bytes()
    _magic, width, _height, _maxval, pixels = data.split(maxsplit=4)
    at = (y * int(width) + x) * 3
    return pixels[at], pixels[at + 1], pixels[at + 2]


def quiet_screen(guest: Guest, label: str) -> Path:
    """The settled screen without banners (a PPM dump, for comparing pixels): a hint goes by
    itself; the start's banner stays until a tap, so it is tapped away as a player would (a
    tap on a banner closes it and goes no further)."""
    time.sleep(BANNER_SECONDS)
    shot = settle(guest, None, label)[0]
    ppm = shot.with_suffix(".ppm")
    guest.qmp.command("screendump", filename=str(ppm))
    red, green, _blue = pixel(ppm, *START_BANNER_AT)
    if red > 200 and green < 140:
        guest.touch.tap(*START_BANNER_AT)
        print(f"    the start's banner tapped away", flush=True)
        shot = settle(guest, shot.read_bytes(), f"{label}-no-banner")[0]
        guest.qmp.command("screendump", filename=str(ppm))
    return ppm


def below_status_bar(ppm: Path) -> bytes:
    data = ppm.read_bytes()
    magic, width, height, maxval, pixels = data.split(maxsplit=4)
    return pixels[int(width) * 3 * STATUS_BAR:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--disk", required=True, type=Path)
    parser.add_argument("--root-offset", type=int, default=0, help="the root partition's byte offset in --disk")
    parser.add_argument("--kernel", required=True, type=Path)
    parser.add_argument("--initrd", required=True, type=Path)
    parser.add_argument("--root", required=True)
    parser.add_argument("--cpu", default="cortex-a72")
    parser.add_argument("--pin", default="4826", help="the settings PIN written on the card")
    parser.add_argument("--skattisch", required=True, help="this machine's skattisch (layout run, store check)")
    parser.add_argument("--frame-timeout", type=float, default=900)
    parser.add_argument("--taps", default="", help="x,y;x,y;... screen pixels from the top left (instead of the evening)")
    parser.add_argument("--plugs", default="yes", choices=("yes", "no"),
                        help="pull the plug mid-trick, after a confirmed game and with a batch in flight")
    parser.add_argument("--proxy-port", type=int, default=0, help="this machine's port the guest's laptop address names")
    parser.add_argument("--laptop-port", type=int, default=0, help="the laptop's (skattisch club's) port")
    args = parser.parse_args()
    t0 = time.monotonic()
    check = Checks()
    proxy = HoldingProxy(args.proxy_port, args.laptop_port) if args.proxy_port else None
    lines: list[dict[str, object]] = []
    if not args.taps:
        lines = layout_run(args.work, args.skattisch, evening_steps(args.pin), args.pin)
        print(f"layout run on this machine: {len(lines)} steps, {sum('at' in line for line in lines)} taps, "
              f"{sum(str(line['step']).startswith('scan ') for line in lines)} cards", flush=True)
    boot = 1
    guest = Guest(args.work, args.disk, args.kernel, args.initrd, args.root, args.cpu, f"boot{boot}")
    try:
        print(f"qemu started; the reader's line connected at {guest.seconds():.0f} s", flush=True)
        shot = first_frame(guest, args.frame_timeout)
        print(f"first frame at {guest.seconds():.0f} s after qemu's start (emulated, TCG): {shot}", flush=True)
        if args.taps:
            for index, pair in enumerate(p for p in args.taps.split(";") if p):
                x, y = (float(v) for v in pair.split(","))
                before = guest.screendump(f"before-tap{index + 1}").read_bytes()
                guest.touch.tap(x, y)
                print(f"tap {index + 1} at {x:.0f},{y:.0f}: {settle(guest, before, f'tap{index + 1}')}", flush=True)
            return 0
        done = 0
        lists: list[str] = []
        for cut, what in (plugs(lines) if args.plugs == "yes" else []):
            if what != "in-flight":
                done, last = replay(guest, lines, done, cut)
            else:  # the laptop's answers held from before the confirmation that ends the game
                if proxy is None:
                    raise SystemExit("a batch in flight needs --proxy-port and --laptop-port")
                done, last = replay(guest, lines, done, cut - 1)
                proxy.hold.set()
                done, last = replay(guest, lines, done, cut)
                in_flight = proxy.sent_while_held.wait(60)
                check(in_flight, "a sync batch was in flight at the cut (the laptop's answer held)",
                      "the guest sent nothing in 60 s")
                print(f"    the guest sent {proxy.first_line!r}", flush=True)
            before = quiet_screen(guest, f"before-cut-{what}")
            guest.kill()
            print(f"pulled the plug (SIGKILL) after step {done} ({what}: {lines[done - 1]['step']}); "
                  f"the screen before: {before.name}", flush=True)
            if args.root_offset:
                lists = check_disk_after_plug(args, lines, done, what, check, lists)
            if proxy is not None:
                proxy.hold.clear()
            boot += 1
            guest = Guest(args.work, args.disk, args.kernel, args.initrd, args.root, args.cpu, f"boot{boot}")
            shot = first_frame(guest, args.frame_timeout)
            print(f"boot {boot}: first frame at {guest.seconds():.0f} s: {shot}", flush=True)
            after = quiet_screen(guest, f"after-cut-{what}")
            check(below_status_bar(after) == below_status_bar(before),
                  f"after the plug ({what}): the table comes back to the same screen (below the status bar)",
                  f"before: {before}, after: {after}")
        replay(guest, lines, done)
        print(f"the evening's end: {guest.screendump('end')}", flush=True)
        guest.kill()  # the last power-off, at the list: its disk read as after each plug
        if args.root_offset:
            check_disk_after_plug(args, lines, len(lines), "end", check, lists)
    finally:
        guest.kill()
        for kind, seconds in TIMES.items():
            if seconds:
                ordered = sorted(seconds)
                print(f"{kind} to its frame (emulated, TCG; the first changed screendump, polled every 0.1 s): "
                      f"median {ordered[len(ordered) // 2]:.2f} s, 90th percentile {ordered[len(ordered) * 9 // 10]:.2f} s, "
                      f"max {ordered[-1]:.2f} s over {len(ordered)}", flush=True)
        print(f"whole run: {time.monotonic() - t0:.0f} s", flush=True)
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())

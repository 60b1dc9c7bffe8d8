#!/usr/bin/env python3
"""The table on its own system in qemu: a screen, a touchscreen, a card reader, a QMP socket.

Used by ``deploy/test-image.sh --screen``; standard library only (it runs on the host, beside
qemu). It boots a prepared copy of the SD-card image (settings filled in, the image's kernel and
initrd taken from its boot partition) in qemu-system-aarch64 with:

- ``virtio-gpu-pci`` (800x480): the table's unit draws on it through SDL2's kmsdrm, as on a Pi;
- ``virtio-multitouch-pci``: a protocol-B multitouch device, read by Kivy's ``probesysfs`` and
  ``mtdev``, the path of the Pi's touchscreen; taps are QMP ``input-send-event`` multitouch events;
- ``usb-serial`` (QEMU's FTDI FT232R) on a socket chardev whose host end listens before qemu
  starts (the guest sees the chip only once that end is connected);
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
import time
from pathlib import Path

ABS_MAX = 0x7FFF  # QEMU's absolute axes run 0..32767 (INPUT_EVENT_ABS_MAX)


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
    A contact ends with tracking id -1, as the kernel's protocol B says."""

    def __init__(self, qmp: Qmp, device: str, width: int, height: int) -> None:
        self.qmp, self.device, self.width, self.height = qmp, device, width, height
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
        self.qmp.command("input-send-event", device=self.device, events=down)
        time.sleep(hold)
        up = [self._mtt("end", tracking_id=-1), {"type": "btn", "data": {"down": False, "button": "touch"}}]
        self.qmp.command("input-send-event", device=self.device, events=up)


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
        self.touch = Touch(self.qmp, "touch", 800, 480)
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


def png_size_and_mean(path: Path) -> float:
    """The mean brightness of a screendump (0 black .. 255 white), by zlib; to see a frame."""
    import struct
    import zlib
    data = path.read_bytes()
    pos, chunks = 8, b""
    width = height = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            chunks += body
        pos += 12 + length
    raw = zlib.decompress(chunks)
    # the filter bytes shift the mean a little: enough to tell black from a drawn screen
    return sum(raw[:: 97]) / max(1, len(raw[:: 97]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--disk", required=True, type=Path)
    parser.add_argument("--kernel", required=True, type=Path)
    parser.add_argument("--initrd", required=True, type=Path)
    parser.add_argument("--root", required=True)
    parser.add_argument("--cpu", default="cortex-a72")
    parser.add_argument("--frame-timeout", type=float, default=900)
    parser.add_argument("--taps", default="", help="x,y;x,y;... screen pixels from the top left")
    args = parser.parse_args()
    guest = Guest(args.work, args.disk, args.kernel, args.initrd, args.root, args.cpu, "screen")
    try:
        print(f"qemu started; reader connected at {guest.seconds():.0f} s", flush=True)
        start = guest.wait_console(r"table \d+ starts", args.frame_timeout)
        print(f"the table's start line at {guest.seconds():.0f} s: {bool(start)}", flush=True)
        deadline = time.monotonic() + args.frame_timeout
        shot = None
        while time.monotonic() < deadline:
            shot = guest.screendump("wait")
            if png_size_and_mean(shot) > 8:
                break
            shot.unlink()
            time.sleep(3)
        print(f"first frame at {guest.seconds():.0f} s: {shot}", flush=True)
        time.sleep(20)
        print(guest.screendump("setup"))
        for index, pair in enumerate(p for p in args.taps.split(";") if p):
            x, y = (float(v) for v in pair.split(","))
            guest.touch.tap(x, y)
            time.sleep(15)
            print(f"tap {index + 1} at {x:.0f},{y:.0f}: {guest.screendump(f'tap{index + 1}')}", flush=True)
    finally:
        guest.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())

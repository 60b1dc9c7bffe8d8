"""The guides' pictures script (``python -m tests.docs_pictures``) still takes every picture:
the table's through its scripted run at 800×480, the laptop's in headless chromium. Run into a
temporary folder, so the committed pictures stay as they are."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs_pictures import PICTURES

pytestmark = pytest.mark.ui
ROOT = Path(__file__).resolve().parents[2]


def size_of(png: Path) -> tuple[int, int]:
    header = png.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR", png
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def take(part: str, out: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "tests.docs_pictures", "--only", part, "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=400)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def test_the_table_s_pictures_are_taken_at_800x480(tmp_path: Path) -> None:
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (./dev.sh test installs it)")
    take("tisch", tmp_path)
    names = sorted(n for n in PICTURES if n.startswith("tisch-"))
    assert sorted(p.name for p in tmp_path.glob("*.png")) == names
    for name in names:
        assert size_of(tmp_path / name) == (800, 480), name


def test_the_laptop_s_pictures_are_taken(tmp_path: Path) -> None:
    if shutil.which("chromedriver") is None or shutil.which("chromium") is None:
        pytest.skip("chromium and chromedriver are not installed (./dev.sh test installs them)")
    take("laptop", tmp_path)
    names = sorted(n for n in PICTURES if n.startswith("laptop-"))
    assert sorted(p.name for p in tmp_path.glob("*.png")) == names
    for name in names:
        width, height = size_of(tmp_path / name)
        assert width == 1280 and height >= 400, (name, width, height)

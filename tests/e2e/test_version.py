"""`skattisch --version` says the installed version, which is pyproject.toml's: a real process
of the console script pip installed."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def pyproject_version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"])


def test_version_is_pyprojects() -> None:
    script = Path(sys.executable).with_name("skattisch")  # the console script beside this interpreter
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout, result.stderr) == (0, f"skattisch {pyproject_version()}\n", "")


def test_version_is_listed_in_help() -> None:
    result = subprocess.run([sys.executable, "-m", "ui.cli", "--help"], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert "--version" in result.stdout

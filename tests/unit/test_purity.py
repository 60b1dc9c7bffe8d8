"""device/ stays pure: it imports nothing from ui/, drivers/ or the hardware/storage libraries."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import device

FORBIDDEN = ("ui", "drivers", "kivy", "serial", "gpiozero", "tinydb", "zeroconf", "requests", "httpx", "aiohttp", "lgpio")
ROOT = Path(__file__).resolve().parents[2]


def _device_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(device.__path__, prefix="device."))


def test_every_device_module_imports_with_the_forbidden_packages_blocked() -> None:
    """Import every device module in a fresh interpreter where the forbidden packages cannot load."""
    blocker = (
        "import sys, importlib.abc\n"
        f"FORBIDDEN = {FORBIDDEN!r}\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name.split('.')[0] in FORBIDDEN:\n"
        "            raise ImportError(f'device must not import {name}')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import importlib\n"
        f"for m in {_device_modules()!r}:\n"
        "    importlib.import_module(m)\n"
        "leaked = sorted(n for n in sys.modules if n.split('.')[0] in FORBIDDEN)\n"
        "assert not leaked, leaked\n"
    )
    result = subprocess.run([sys.executable, "-c", blocker], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_no_forbidden_import_statement_anywhere_in_device() -> None:
    """Also catches imports hidden inside functions, which the import test would not run."""
    offenders = []
    for path in sorted((ROOT / "device").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_drivers_never_import_ui_or_kivy() -> None:
    offenders = []
    for path in sorted((ROOT / "drivers").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] in ("ui", "kivy"):
                    offenders.append(f"{path.name}:{node.lineno}")
            elif isinstance(node, ast.Import):
                offenders += [f"{path.name}:{node.lineno}" for a in node.names if a.name.split(".")[0] in ("ui", "kivy")]
    assert offenders == []


def test_importing_drivers_touches_no_hardware() -> None:
    """Importing every driver module must not open ports or pins (they are built later, by name)."""
    code = (
        "import importlib, pkgutil, drivers, sys\n"
        "for m in pkgutil.walk_packages(drivers.__path__, prefix='drivers.'):\n"
        "    importlib.import_module(m.name)\n"
        "from gpiozero import Device\n"
        "assert Device.pin_factory is None, Device.pin_factory\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr

"""`skattisch run` settles Kivy's providers before Kivy is imported (Kivy's image
providers besides SDL2's, Pillow among them, cost the start 10-20 ms for pictures the table
never shows). In a fresh interpreter, as the table starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import argparse, sys
from drivers.config import load_config
from ui.commands.run import _kivy_environment
_kivy_environment(argparse.Namespace(size=(800, 480), simulate=True, lang=None), load_config(None))
import kivy.core.image as image
print(image.libs_loaded, "PIL" in sys.modules)
"""


def test_the_table_loads_sdl2s_image_provider_alone_and_no_pillow(tmp_path: Path) -> None:
    env = {name: value for name, value in os.environ.items() if not name.startswith("KIVY_")}
    env.update(KIVY_HOME=str(tmp_path / "kivy"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    env.pop("SKATTISCH_CONFIG", None)
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "['img_sdl2'] False", done.stdout

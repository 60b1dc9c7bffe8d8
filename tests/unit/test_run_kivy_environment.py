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


# What Kivy does with [input] when the table's window opens (kivy/base.py, runTouchApp): one
# provider per line; a probesysfs line attaches a reader to each device it selects. Here the
# devices are a sysfs tree as the kernel writes it (/sys/class/input/eventN/device/name and
# capabilities/abs, a hex word of 64 bits on a 64-bit kernel), read by Kivy's own probe.
TOUCH_PROGRAM = """
import argparse, json, os, sys
from drivers.config import load_config
from ui.commands.run import _kivy_environment
_kivy_environment(argparse.Namespace(size=None, simulate=False, lang=None), load_config(None))
from kivy.config import Config
import kivy.input.providers
from kivy.input.providers import probesysfs
from kivy.input.factory import MotionEventFactory
from kivy.base import EventLoop
sysfs = sys.argv[1]
probesysfs._cache_input = [probesysfs.Input(os.path.join(sysfs, name)) for name in sorted(os.listdir(sysfs))]
probesysfs._cache_xinput = []
for key, value in Config.items("input"):
    provider_id, _, args = str(value).partition(",")
    provider = MotionEventFactory.get(provider_id)
    made = provider(key, args)
    if made:
        EventLoop.add_input_provider(made, True)
readers = {}
for provider in EventLoop.input_providers:
    path = getattr(provider, "input_fn", None) or getattr(provider, "_device", None) or str(provider.device)
    if os.path.basename(str(path)).startswith("event"):  # not the SDL window's own (mouse, keyboard)
        readers.setdefault(os.path.basename(str(path)), []).append(type(provider).__name__)
print(json.dumps({"input": Config.items("input"), "readers": readers}))
"""

# ABS_X 0, ABS_Y 1, ABS_MT_SLOT 0x2f, ABS_MT_POSITION_X 0x35, ABS_MT_POSITION_Y 0x36, ABS_MT_TRACKING_ID 0x39
MULTITOUCH = f"{(1 << 0x39) | (1 << 0x36) | (1 << 0x35) | (1 << 0x2f) | 0b11:x}"
DEVICES = {
    "event0": ("raspberrypi-ts", MULTITOUCH),  # the official 7" display's FT5406 (multitouch, protocol B)
    "event1": ("QEMU Virtio MultiTouch", MULTITOUCH),
    "event2": ("QEMU QEMU USB Tablet", "3"),  # one absolute pointer: ABS_X and ABS_Y only
    "event3": ("Logitech USB Keyboard", "0"),
}
OLD_IMAGE_INI = "[input]\nmouse = mouse\nmtdev_%(name)s = probesysfs,provider=mtdev\nhid_%(name)s = probesysfs,provider=hidinput\n"


def install_sh_ini() -> str:
    text = (ROOT / "deploy" / "install.sh").read_text(encoding="utf-8")
    start = text.index("[input]\n", text.index('cat >"$ROOT$ini"'))
    return text[start:text.index("\nEOF\n", start) + 1]


def readers_for(tmp_path: Path, ini: str) -> dict[str, object]:
    import json

    sysfs = tmp_path / "sys-class-input"
    for event, (name, abs_bits) in DEVICES.items():
        device = sysfs / event / "device"
        (device / "capabilities").mkdir(parents=True)
        (device / "name").write_text(name + "\n")
        (device / "capabilities" / "abs").write_text(abs_bits + "\n")
    (tmp_path / "kivy").mkdir()
    (tmp_path / "kivy" / "config.ini").write_text(ini)
    env = {name: value for name, value in os.environ.items() if not name.startswith("KIVY_")}
    env.update(KIVY_HOME=str(tmp_path / "kivy"), XDG_CONFIG_HOME=str(tmp_path / "config"), KIVY_NO_ARGS="1")
    env.pop("SKATTISCH_CONFIG", None)
    done = subprocess.run([sys.executable, "-c", TOUCH_PROGRAM, str(sysfs)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_the_images_kivy_config_gives_each_touchscreen_one_reader(tmp_path: Path) -> None:
    assert install_sh_ini() == "[input]\nmouse = mouse\n%(name)s = probesysfs,provider=mtdev\n"
    found = readers_for(tmp_path, install_sh_ini())
    # Kivy's own upgrade of the file adds no second probe; on the console the mouse is not read
    assert found["input"] == [["%(name)s", "probesysfs,provider=mtdev"]]
    assert found["readers"] == {"event0": ["MTDMotionEventProvider"], "event1": ["MTDMotionEventProvider"]}


def test_an_older_images_two_probes_and_kivys_third_become_one(tmp_path: Path) -> None:
    found = readers_for(tmp_path, OLD_IMAGE_INI)
    assert found["input"] == [["mtdev_%(name)s", "probesysfs,provider=mtdev"]]
    assert found["readers"] == {"event0": ["MTDMotionEventProvider"], "event1": ["MTDMotionEventProvider"]}


def test_a_line_for_a_named_device_stays(tmp_path: Path) -> None:
    # what an emulator's overlay may add for its single absolute pointer (never the image)
    tablet = "tablet_%(name)s = probesysfs,provider=hidinput,select_all=1,match=Tablet\n"
    found = readers_for(tmp_path, OLD_IMAGE_INI + tablet)
    assert ["tablet_%(name)s", "probesysfs,provider=hidinput,select_all=1,match=Tablet"] in found["input"]
    assert found["readers"] == {"event0": ["MTDMotionEventProvider"], "event1": ["MTDMotionEventProvider"],
                                "event2": ["HIDInputMotionEventProvider"]}

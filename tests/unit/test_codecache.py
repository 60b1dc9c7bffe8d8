"""ui.codecache: dataclasses' and kv rules' code compiled once and kept between starts, the same
code as compiled at every start (the table's cold start). Each case runs fresh interpreters, as
the table starts, under each Python the images ship: 3.11 (Debian 12, the Pi 4's image) and 3.13
(Debian 13, the Pi 5's). The one this suite runs on, and the other if found: ``python3.X`` on the
PATH or ``SKATTISCH_PYTHON_3_13`` (``SKATTISCH_PYTHON_3_11``) naming one; the kv cases need Kivy
in it. A Python not found is skipped, saying so."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHONS = ("3.11", "3.13")  # what the images ship


@dataclass(frozen=True)
class Python:
    path: str
    version: tuple[int, int]
    cache_tag: str
    has_kivy: bool

    @property
    def texts(self) -> int:
        """How many texts dataclasses compiles for CLASSES at the least: one per method (six and
        more for each class) up to Python 3.12, one per class from 3.13."""
        return 12 if self.version < (3, 13) else 2

    def need_kivy(self) -> None:
        if not self.has_kivy:
            pytest.skip(f"no Kivy in {self.path}")


@pytest.fixture(scope="module", params=PYTHONS)
def python(request: pytest.FixtureRequest) -> Python:
    wanted = str(request.param)
    variable = f"SKATTISCH_PYTHON_{wanted.replace('.', '_')}"
    here = f"{sys.version_info.major}.{sys.version_info.minor}" == wanted
    path = sys.executable if here else os.environ.get(variable) or shutil.which(f"python{wanted}")
    if not path:
        pytest.skip(f"no Python {wanted} here: set {variable} to one (with Kivy for the kv cases)")
    probe = subprocess.run([path, "-c", "import sys, importlib.util; print(sys.version_info[0], sys.version_info[1], "
                                        "sys.implementation.cache_tag, importlib.util.find_spec('kivy') is not None)"],
                           capture_output=True, text=True, timeout=60)
    found = probe.stdout.split()
    if probe.returncode != 0 or len(found) != 4 or found[:2] != wanted.split("."):
        pytest.skip(f"{path} is not a working Python {wanted} ({probe.stderr.strip()[-200:]}): set {variable} to one")
    return Python(path, (int(found[0]), int(found[1])), found[2], found[3] == "True")

CLASSES = '''
import dataclasses, inspect, pickle
from dataclasses import dataclass, field

@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default_factory=tuple)

@dataclass(frozen=True)
class Line:
    start: Point
    end: Point
    name: str = field(default="", compare=False)
'''

# the same classes made with dataclasses' own exec, then compared method by method
CHECK = CLASSES + '''
cached = {"Point": Point, "Line": Line}
del dataclasses.exec  # dataclasses' exec is the builtin again
exec(compile(CLASSES, "<classes>", "exec", dont_inherit=True), plain := {})
for name, cls in cached.items():
    for method in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        mine, theirs = (inspect.unwrap(getattr(c, method)).__code__ for c in (cls, plain[name]))  # __repr__ is wrapped
        assert mine == theirs and mine.co_filename == theirs.co_filename == "<string>", (name, method)
p = Point(1, tags=("a",))
assert p == Point(1, 0, ("a",)) and hash(p) == hash(Point(1, 0, ("a",))) and p != Point(2)
assert repr(p) == "Point(x=1, y=0, tags=('a',))", repr(p)
try:
    p.x = 3
except dataclasses.FrozenInstanceError as exc:
    assert str(exc) == "cannot assign to field 'x'", exc
else:
    raise AssertionError("Point is not frozen")
assert pickle.loads(pickle.dumps(p)) == p and dataclasses.replace(p, y=5) == Point(1, 5, ("a",))
names = [{k: getattr(v, "__name__", v) for k, v in cls.__init__.__annotations__.items()} for cls in (Line, plain["Line"])]
assert Line(p, p, "a") == Line(p, p, "b") and names[0] == names[1] == {"start": "Point", "end": "Point", "name": "str",
                                                                       "return": None}, names
'''


def _run(python: Python, tmp_path: Path, body: str, *, write: bool = True) -> list[str]:
    script = (f"import sys\nCLASSES = {CLASSES!r}\nfrom ui import codecache\ncache = codecache.install('test')\n"
              f"{body}\ncodecache.save()\nprint(cache.hits, cache.compiled)\n")
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(tmp_path / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("SKATTISCH_CODECACHE", None)  # on, whatever this shell says
    result = subprocess.run([python.path, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def _cache_file(python: Python, tmp_path: Path) -> Path:
    return tmp_path / "pycache" / "skattisch" / f"test.{python.cache_tag}.codes"


def test_the_second_start_compiles_nothing_and_gets_the_same_classes(python: Python, tmp_path: Path) -> None:
    hits, compiled = _run(python, tmp_path, CLASSES)
    assert int(compiled) >= python.texts and _cache_file(python, tmp_path).exists()  # six methods and more for each class
    hits, compiled = _run(python, tmp_path, CHECK)
    assert (int(hits), int(compiled)) >= (python.texts, 0) and compiled == "0"


def test_nothing_is_written_where_bytecode_is_not(python: Python, tmp_path: Path) -> None:
    _run(python, tmp_path, CLASSES, write=False)
    assert not _cache_file(python, tmp_path).exists()


def test_a_damaged_cache_is_compiled_again_and_replaced(python: Python, tmp_path: Path) -> None:
    import importlib.util

    path = _cache_file(python, tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(importlib.util.MAGIC_NUMBER + b"\xff not marshal")
    _hits, compiled = _run(python, tmp_path, CHECK)
    assert int(compiled) >= python.texts
    assert _run(python, tmp_path, CHECK)[1] == "0"


KIVY_ENV = '''
import os
os.environ.update(KIVY_NO_ARGS="1", KIVY_HOME={home!r}, KIVY_LOG_MODE="PYTHON")
import kivy.lang.parser as parser
import kivy.lang  # its Builder loads Kivy's own rules at import: through the cache too
'''


def test_kv_rules_compile_through_the_cache_to_the_same_code(python: Python, tmp_path: Path) -> None:
    kv = "<Widget>:\n    x: self.width * 2 + 1\n    opacity: 0.5\n    on_touch_down: print(args)\n"
    python.need_kivy()
    body = KIVY_ENV.format(home=str(tmp_path / "kivy")) + f'''
assert parser.compile == cache.compile
# the first start compiles style.kv's some 760 expressions through the cache; later ones take its rules whole
print("style.kv", "parsed" if cache.parsed and len(cache.used) > 500 else "taken" if cache.hits else "?")
def codes():
    rule = parser.Parser(content={kv!r}).rules[0][1]
    return [(name, prop.co_value) for name, prop in sorted(rule.properties.items())] + [
        (h.name, h.co_value) for h in rule.handlers]
mine = codes()
del parser.compile
parser.Parser.parse = parser.Parser.parse.__wrapped__  # Kivy's own parse, compiling with the builtin
assert mine == codes(), (mine, codes())
'''
    assert _run(python, tmp_path, body)[:2] == ["style.kv", "parsed"]
    style, taken, hits, compiled = _run(python, tmp_path, body)
    assert taken == "taken" and compiled == "0"


# a kv text with what Kivy's parser makes: rules (a class selector, several names, a dynamic
# class, previous rules cleared), a root, canvas, handlers, ids, directives, a template
KV = """#:kivy 2.0
#:import math math
#:set gap 7
<Cell@Label>:
    text: "a 'quoted' #text"
    font_size: gap * 2
<-Plain,.tagged>:
    canvas.before:
        Color:
            rgba: 1, 0, 0, 1
    on_touch_down: print(args)
[Entry@Widget]:
    x: ctx.x
BoxLayout:
    spacing: math.floor(gap / 2)
    Cell:
        id: first
        width: self.height * 2 + root.spacing
"""

# (Kivy's parser collects the watched keys in a set: their order is the process's string hashing's)
DESCRIBE = '''
from kivy.lang.parser import global_idmap
def describe(p):
    def rule(r):
        props = [(n, q.value, q.watched_keys and sorted(q.watched_keys), q.mode, q.line, q.ignore_prev, q.ctx is p,
                  q.co_value if not hasattr(q.co_value, "co_code") else q.co_value.co_code)
                 for n, q in r.properties.items()]
        return (r.name, r.line, r.id, r.level, r.avoid_previous_rules, r.ctx is p, props,
                [(h.name, h.value, h.co_value.co_code) for h in r.handlers],
                [rule(c) if c else None for c in (r.canvas_before, r.canvas_root, r.canvas_after)],
                [rule(c) for c in r.children])
    return ([(type(s).__name__, s.key, rule(r)) for s, r in p.rules], [(a, b, rule(c)) for a, b, c in p.templates],
            rule(p.root), p.directives, p.dynamic_classes, p.sourcecode, p.filename)
'''


def test_a_kv_texts_rules_are_taken_from_the_cache_as_parsed(python: Python, tmp_path: Path) -> None:
    """The second start parses no kv text; what it takes is what Kivy's parser makes of the
    text, directives run (their imports and values), and the Builder builds the same widgets."""
    python.need_kivy()
    body = KIVY_ENV.format(home=str(tmp_path / "kivy")) + DESCRIBE + f'''
import logging; logging.getLogger("kivy").setLevel(logging.ERROR)  # the template's deprecation
global_idmap.pop("gap", None)
mine = parser.Parser(content={KV!r}, filename="test.kv")
assert global_idmap["gap"] == 7 and global_idmap["math"].__name__ == "math"
parsed = cache.parsed
kivy_parse, parser.Parser.parse = parser.Parser.parse, parser.Parser.parse.__wrapped__
assert describe(mine) == describe(parser.Parser(content={KV!r}, filename="test.kv"))
parser.Parser.parse = kivy_parse
from kivy.lang import Builder
root = Builder.load_string({KV!r}, filename="test.kv")
cell = root.ids.first
assert (root.spacing, cell.font_size, cell.text, cell.width) == (3, 14, "a 'quoted' #text", cell.height * 2 + 3)
try:
    parser.Parser(content="<Widget>:\\n    x\\n", filename="bad.kv")  # a property without a value
except parser.ParserException as exc:
    assert "bad.kv" in str(exc)
else:
    raise AssertionError("a broken text was taken")
print("parsed", parsed)
'''
    first = _run(python, tmp_path, body)
    assert first[:2] == ["parsed", "2"]  # style.kv and the text
    again = _run(python, tmp_path, body)
    assert again[:2] == ["parsed", "0"] and again[3] == "0"  # nothing parsed, nothing compiled


def test_damaged_kept_kv_rules_are_parsed_again(python: Python, tmp_path: Path) -> None:
    import marshal

    python.need_kivy()
    body = KIVY_ENV.format(home=str(tmp_path / "kivy")) + "print('parsed', cache.parsed)\n"
    assert _run(python, tmp_path, body)[:2] == ["parsed", "1"]
    path = _cache_file(python, tmp_path)
    blobs = marshal.loads(path.read_bytes()[4:])
    kept = [key for key, blob in blobs.items() if blob[:1] == b"\x80"]  # the pickles (marshalled codes start otherwise)
    assert len(kept) == 1
    blobs[kept[0]] = blobs[kept[0]][:200]
    path.write_bytes(path.read_bytes()[:4] + marshal.dumps(blobs))
    assert _run(python, tmp_path, body)[:2] == ["parsed", "1"]
    assert _run(python, tmp_path, body)[:2] == ["parsed", "0"]


def test_texts_no_longer_compiled_leave_the_cache(python: Python, tmp_path: Path) -> None:
    """After an update (other classes), the file holds what the new version uses, not the old
    version's texts besides."""
    import marshal

    _run(python, tmp_path, CLASSES)
    old = set(marshal.loads(_cache_file(python, tmp_path).read_bytes()[4:]))
    _run(python, tmp_path, CLASSES.replace("y: int = 0", "z: int = 0"))  # Point's methods name another field
    new = set(marshal.loads(_cache_file(python, tmp_path).read_bytes()[4:]))
    assert len(new) == len(old) and 0 < len(old - new) < len(old)


def test_codes_let_go_of_after_start_up_are_written_again(python: Python, tmp_path: Path) -> None:
    """After start-up the cache lets go of the codes it used; a later save (something new
    compiled) still writes them all, read again from the file."""
    import marshal

    _run(python, tmp_path, CLASSES)
    before = set(marshal.loads(_cache_file(python, tmp_path).read_bytes()[4:]))
    hits, compiled = _run(python, tmp_path, CLASSES + "codecache.let_go_of_used()\n@dataclass(frozen=True)\nclass Later:\n"
                          "    a: int\n")
    after = set(marshal.loads(_cache_file(python, tmp_path).read_bytes()[4:]))
    later = python.texts // 3  # Later's texts: its four methods and more, or the one of the class
    assert int(compiled) >= later and before < after and len(after) >= len(before) + later
    written = _cache_file(python, tmp_path).read_bytes()
    hits, compiled = _run(python, tmp_path, CLASSES + "codecache.let_go_of_used()\n" + CLASSES)  # the classes again
    assert int(compiled) >= python.texts and _cache_file(python, tmp_path).read_bytes() == written  # compiled, nothing new to write


def test_the_first_start_writes_start_ups_codes_let_go_of_or_not(python: Python, tmp_path: Path) -> None:
    """With no file yet (the first start, or after an update), the codes compiled before the
    first frame are written although start-up then lets go of the codes it used."""
    import marshal

    _run(python, tmp_path, CLASSES + "codecache.let_go_of_used()\n")
    assert len(marshal.loads(_cache_file(python, tmp_path).read_bytes()[4:])) >= python.texts
    assert _run(python, tmp_path, CHECK)[1] == "0"


def test_the_switch_turns_the_cache_off(python: Python, tmp_path: Path) -> None:
    """``SKATTISCH_CODECACHE=off``: nothing patched (dataclasses' exec is the builtin, no finder
    waits for Kivy's parser), the classes made as without the cache, no file written."""
    script = (f"import dataclasses, sys\nCLASSES = {CLASSES!r}\nfrom ui import codecache\nassert codecache.install('test') is None\n"
              "assert 'exec' not in vars(dataclasses) and not any(type(f).__name__ == '_KvParserFinder' "
              "for f in sys.meta_path)\n" + CHECK.replace("del dataclasses.exec", "") + "codecache.save()\nprint('off')\n")
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(tmp_path / "pycache"), "SKATTISCH_CODECACHE": "off"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    result = subprocess.run([python.path, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout, result.stderr) == (0, "off\n", "")
    assert not _cache_file(python, tmp_path).exists()

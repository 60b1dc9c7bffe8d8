"""ui.codecache: dataclasses' and kv rules' code compiled once and kept between starts, the same
code as compiled at every start (issue 20's cold start). Each case runs fresh interpreters, as
the table starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

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


def _run(tmp_path: Path, body: str, *, write: bool = True) -> list[str]:
    script = (f"import sys\nCLASSES = {CLASSES!r}\nfrom ui import codecache\ncache = codecache.install('test')\n"
              f"{body}\ncodecache.save()\nprint(cache.hits, cache.compiled)\n")
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(tmp_path / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def _cache_file(tmp_path: Path) -> Path:
    return tmp_path / "pycache" / "skattisch" / f"test.{sys.implementation.cache_tag}.codes"


def test_the_second_start_compiles_nothing_and_gets_the_same_classes(tmp_path: Path) -> None:
    hits, compiled = _run(tmp_path, CLASSES)
    assert int(compiled) >= 12 and _cache_file(tmp_path).exists()  # six methods and more for each class
    hits, compiled = _run(tmp_path, CHECK)
    assert (int(hits), int(compiled)) >= (12, 0) and compiled == "0"


def test_nothing_is_written_where_bytecode_is_not(tmp_path: Path) -> None:
    _run(tmp_path, CLASSES, write=False)
    assert not _cache_file(tmp_path).exists()


def test_a_damaged_cache_is_compiled_again_and_replaced(tmp_path: Path) -> None:
    import importlib.util

    path = _cache_file(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(importlib.util.MAGIC_NUMBER + b"\xff not marshal")
    _hits, compiled = _run(tmp_path, CHECK)
    assert int(compiled) >= 12
    assert _run(tmp_path, CHECK)[1] == "0"


def test_kv_rules_compile_through_the_cache_to_the_same_code(tmp_path: Path) -> None:
    kv = "<Widget>:\n    x: self.width * 2 + 1\n    opacity: 0.5\n    on_touch_down: print(args)\n"
    body = f'''
import os
os.environ.update(KIVY_NO_ARGS="1", KIVY_HOME={str(tmp_path / "kivy")!r}, KIVY_LOG_MODE="PYTHON")
import kivy.lang.parser as parser
import kivy.lang  # its Builder loads Kivy's own rules at import: through the cache too
assert parser.compile == cache.compile and len(cache.used) > 500  # style.kv's some 760 expressions
def codes():
    rule = parser.Parser(content={kv!r}).rules[0][1]
    return [(name, prop.co_value) for name, prop in sorted(rule.properties.items())] + [
        (h.name, h.co_value) for h in rule.handlers]
mine = codes()
del parser.compile
assert mine == codes(), (mine, codes())
'''
    _run(tmp_path, body)
    assert _run(tmp_path, body)[1] == "0"


def test_texts_no_longer_compiled_leave_the_cache(tmp_path: Path) -> None:
    """After an update (other classes), the file holds what the new version uses, not the old
    version's texts besides."""
    import marshal

    _run(tmp_path, CLASSES)
    old = set(marshal.loads(_cache_file(tmp_path).read_bytes()[4:]))
    _run(tmp_path, CLASSES.replace("y: int = 0", "z: int = 0"))  # Point's methods name another field
    new = set(marshal.loads(_cache_file(tmp_path).read_bytes()[4:]))
    assert len(new) == len(old) and 0 < len(old - new) < len(old)


def test_codes_let_go_of_after_start_up_are_written_again(tmp_path: Path) -> None:
    """After start-up the cache lets go of the codes it used; a later save (something new
    compiled) still writes them all, read again from the file."""
    import marshal

    _run(tmp_path, CLASSES)
    before = set(marshal.loads(_cache_file(tmp_path).read_bytes()[4:]))
    hits, compiled = _run(tmp_path, CLASSES + "codecache.let_go_of_used()\n@dataclass(frozen=True)\nclass Later:\n"
                          "    a: int\n")
    after = set(marshal.loads(_cache_file(tmp_path).read_bytes()[4:]))
    assert int(compiled) >= 4 and before < after and len(after) >= len(before) + 4
    written = _cache_file(tmp_path).read_bytes()
    hits, compiled = _run(tmp_path, CLASSES + "codecache.let_go_of_used()\n" + CLASSES)  # the classes again
    assert int(compiled) >= 12 and _cache_file(tmp_path).read_bytes() == written  # compiled, nothing new to write


def test_the_first_start_writes_start_ups_codes_let_go_of_or_not(tmp_path: Path) -> None:
    """With no file yet (the first start, or after an update), the codes compiled before the
    first frame are written although start-up then lets go of the codes it used."""
    import marshal

    _run(tmp_path, CLASSES + "codecache.let_go_of_used()\n")
    assert len(marshal.loads(_cache_file(tmp_path).read_bytes()[4:])) >= 12
    assert _run(tmp_path, CHECK)[1] == "0"

"""Code that Python compiles at every start from generated text, kept compiled between starts.

The table's cold start compiled some thousand small functions from source text at
every start, besides its modules (those come compiled, as ``.pyc``):

- ``dataclasses`` writes the methods of every dataclass (``__init__``, ``__repr__``,
  ``__eq__``, ``__hash__``, and for a frozen one ``__setattr__`` and ``__delattr__``) as text
  and compiles each with ``exec``: about 960 for ``device``'s ~160 frozen dataclasses, most of
  the time ``device`` took to import;
- Kivy's kv parser compiles every expression of a kv file with ``compile``: Kivy's own
  ``style.kv`` (about 760, while Kivy's ``Builder`` is imported), ``widgets.kv``, ``app.kv``
  and the first screen's.

:func:`install` makes both take the code from a cache when the same text was compiled before:
the same text compiled the same way (file name, mode, no inherited ``__future__`` flags, the
interpreter's optimisation level) gives the same code object, so the classes, their methods and
the kv rules are what they were, only not compiled again. Text not in the cache is compiled as
before and kept; :func:`save` writes what was new (after the first frame, when nobody waits) with
:mod:`marshal`, as Python writes its ``.pyc`` files, and like them only when bytecode may be
written (not under ``PYTHONDONTWRITEBYTECODE``). The file sits under ``sys.pycache_prefix``
when one is set, else in the user's cache directory (``$XDG_CACHE_HOME`` or ``~/.cache``),
named by the interpreter (``cpython-311``) and checked against its bytecode magic number, so
an interpreter update starts a new cache. A cache that cannot be read or written is left
alone: the code is compiled as without it.

Compiling was not all: Kivy's parser took some 50–70 ms (full speed, four times that on a Pi)
to read ``style.kv`` into its rules even with every expression's code cached, most of it a
regular expression run over each expression with as many newlines before it as the expression's
line number. So a kv text's parsed rules are kept too (:func:`_keeps_parsed`), pickled with
their code marshalled, found by the text, its file name and Kivy's version; a start takes them
(``style.kv``: 5 ms) and runs the text's directives (``#:import``, ``#:set``) as a parse would.
The cache file is as trusted as the ``.pyc`` files are: it holds code the table runs.

It leans on how ``dataclasses`` (it calls ``exec`` by its module's global name: one text per
method up to Python 3.12, one per class from 3.13) and Kivy's parser (its ``compile``, its
``Parser``'s fields) work inside, so a Python or Kivy update may break it: one switch turns it
off, ``SKATTISCH_CODECACHE=off`` in the environment (:func:`enabled`), and the table starts
without it. Pi-class it keeps the cold start within 1.5x the bare Kivy app's (four runs: 1.2-1.5x
with it, 1.8-2.0x without; ``tests/bench/bench_ui.py --pi-class --uncached``). Its tests run
under each Python the images ship (3.11: Debian 12, the Pi 4's; 3.13: Debian 13, the Pi 5's).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.machinery
import importlib.util
import io
import logging
import marshal
import mmap
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

log = logging.getLogger(__name__)


def cache_path(name: str) -> Path:
    """Where the cache called ``name`` is kept for this interpreter."""
    file = f"{name}.{sys.implementation.cache_tag}.codes"
    if sys.pycache_prefix:
        return Path(sys.pycache_prefix) / "skattisch" / file
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "skattisch" / "codes" / file


class CodeCache:
    """Compiled code by a digest of its source text, file name and mode; loaded from ``path``.

    Kept in memory as the file holds it, each code marshalled (about 1 MiB for the table's
    start): a code is made from its bytes when asked for, and belongs to whoever asked (the
    function or the kv rule), as compiled code would. (The codes themselves, with their texts
    as keys, were 4.8 MiB: a few percent of the table's resident memory.)"""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.blobs: dict[bytes, bytes] = self._load()  # digest -> marshalled code
        self.written = set(self.blobs)  # what the file holds
        self.used: set[bytes] = set()
        self.hits = 0
        self.compiled = 0
        self.parsed = 0  # kv texts parsed (not taken from the cache)

    def _load(self) -> dict[bytes, bytes]:
        """The file's codes, read through ``mmap``: a read into one large buffer would raise the
        C library's threshold for giving freed memory back (glibc's dynamic mmap threshold),
        and buffers of a few hundred kB freed later (the texts' textures) would stay resident."""
        magic = importlib.util.MAGIC_NUMBER
        try:
            with open(self.path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
                if data[:len(magic)] != magic:
                    return {}
                with memoryview(data) as view, view[len(magic):] as body:
                    blobs = marshal.loads(body)
        except (OSError, ValueError, EOFError, TypeError) as exc:  # no file, an empty one, or damaged
            if not isinstance(exc, FileNotFoundError):
                log.warning("%s cannot be read (%s): compiled again", self.path, exc)
            return {}
        if not isinstance(blobs, dict):
            return {}
        return {key: blob for key, blob in blobs.items() if isinstance(key, bytes) and isinstance(blob, bytes)}

    def compile(self, source: Any, filename: str, mode: str) -> CodeType:
        """``compile(source, filename, mode)`` as called from a module without ``__future__``
        imports (dataclasses', Kivy's parser), from the cache when compiled before."""
        if not isinstance(source, str):
            return compile(source, filename, mode, dont_inherit=True)
        key = _digest(source, filename, mode)
        blob = self.blobs.get(key)
        code = None
        if blob is not None:
            try:
                code = marshal.loads(blob)
            except (EOFError, ValueError, TypeError):
                code = None
        if isinstance(code, CodeType):
            self.hits += 1
        else:
            code = compile(source, filename, mode, dont_inherit=True)
            if blob is not None:
                self.written.discard(key)  # a damaged entry: written again
            self.blobs[key] = marshal.dumps(code)
            self.compiled += 1
        self.used.add(key)
        return code

    def exec(self, source: Any, globals: dict[str, Any] | None = None, locals: Any = None) -> None:
        """``exec`` of a text (as dataclasses runs the methods it writes), compiled through the
        cache; its code named ``<string>`` as ``exec`` names the text it compiles."""
        if isinstance(source, str):
            source = self.compile(source, "<string>", "exec")
        exec(source, globals, locals)

    def take_parsed(self, key: bytes, parser: Any) -> bool:
        """Give ``parser`` (a Kivy ``Parser``) the rules kept under ``key``; False if there are none
        (or they cannot be read: whatever unpickling a damaged or outdated entry raised, the text
        is parsed again and the entry replaced)."""
        blob = self.blobs.get(key)
        if blob is None:
            return False
        try:
            values = _kv_picklers()[1](io.BytesIO(blob), parser).load()
            fields = dict(zip(KV_FIELDS, values, strict=True))
        except Exception as exc:  # noqa: BLE001  # any damage: parsed as without the cache
            log.info("kept kv rules cannot be read (%r): parsed again", exc)
            del self.blobs[key]
            self.written.discard(key)
            return False
        for name, value in fields.items():
            setattr(parser, name, value)
        self.hits += 1
        self.used.add(key)
        return True

    def keep_parsed(self, key: bytes, parser: Any) -> None:
        """Keep what ``parser`` made of a kv text under ``key`` (right after parsing, before the
        ``Builder`` applies a rule: a rule notes which classes it was applied to)."""
        buffer = io.BytesIO()
        try:
            _kv_picklers()[0](buffer, parser).dump(tuple(getattr(parser, name) for name in KV_FIELDS))
        except Exception as exc:  # noqa: BLE001  # a value pickle cannot write: parsed at every start
            log.info("kv rules of %s not kept (%r)", parser.filename, exc)
            return
        self.blobs[key] = buffer.getvalue()
        self.used.add(key)

    def save(self) -> None:
        """Write the codes this process used if it used one the file does not hold (atomically:
        a start reading it meanwhile finds the old file or the new one). Called at start-up's end
        and again when the screens built ahead are done: after an update the first call writes
        start-up's codes, the second adds the screens' (a start finds them all; nothing is
        written while the file holds what is used)."""
        if not (self.used - self.written) or sys.dont_write_bytecode:
            return
        keep = set(self.used)  # what this process used so far: texts of older versions are left out
        if not keep <= self.blobs.keys():  # let go of after start-up (:meth:`let_go_of_used`): read again
            self.blobs = {**self._load(), **self.blobs}
        blobs = {key: self.blobs[key] for key in keep if key in self.blobs}
        import tempfile  # here: its imports (random, shutil) cost the start a few ms

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            with tempfile.NamedTemporaryFile(dir=self.path.parent, prefix=self.path.name, delete=False) as file:
                file.write(importlib.util.MAGIC_NUMBER + marshal.dumps(blobs))
            os.replace(file.name, self.path)
        except OSError as exc:
            log.info("%s not written (%s): compiled again at the next start", self.path, exc)
            return
        self.written = set(blobs)

    def let_go_of_used(self) -> None:
        """Let go of the codes used so far that the file holds (start-up's: its classes and kv
        rules are made; a text seldom comes twice after it): their bytes are memory the screens
        may use. A text let go of and asked for again is compiled; :meth:`save` reads them from
        the file. (Codes compiled here and not written yet are kept for :meth:`save`.)"""
        for key in self.used & self.written:
            self.blobs.pop(key, None)


def _digest(source: str, filename: str, mode: str) -> bytes:
    """What a code is found by: 16 bytes of BLAKE2b over its text, file name, mode and the
    interpreter's optimisation level (``-O`` drops asserts): a text the cache did not compile
    is never taken for one it did."""
    return hashlib.blake2b(f"{sys.flags.optimize}\0{mode}\0{filename}\0{source}".encode("utf-8", "surrogatepass"),
                           digest_size=16).digest()


_installed: CodeCache | None = None


SWITCH = "SKATTISCH_CODECACHE"
"""The environment variable that turns the cache off: ``off`` (or ``0``, ``no``, ``false``)."""


def enabled() -> bool:
    """Whether the cache is used: unless :data:`SWITCH` says ``off``."""
    return os.environ.get(SWITCH, "").strip().lower() not in ("off", "0", "no", "false")


def install(name: str) -> CodeCache | None:
    """Let ``dataclasses`` (from now on) and Kivy's kv parser (once imported: :func:`cover_kv`)
    take compiled code from the cache called ``name`` (one per command: the table's start and
    the laptop's load different classes). Call it before the modules with dataclasses are
    imported. Nothing is patched, and ``None`` returned, when the switch turns it off
    (:func:`enabled`)."""
    global _installed
    if not enabled():
        return None
    import dataclasses

    if _installed is None or _installed.path != cache_path(name):
        _installed = CodeCache(cache_path(name))
    dataclasses.exec = _installed.exec  # type: ignore[attr-defined]  # found before the builtin
    if "kivy.lang.parser" in sys.modules:
        cover_kv()
    elif not any(isinstance(finder, _KvParserFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _KvParserFinder())
    return _installed


def cover_kv() -> None:
    """Kivy's kv parser compiles through the installed cache too, and takes a text's rules from
    it when it parsed the same text before (if a cache is installed, and Kivy's parser is
    imported: importing it here would load Kivy before its options are set)."""
    parser = sys.modules.get("kivy.lang.parser")
    if _installed is not None and parser is not None:
        parser.compile = _installed.compile  # type: ignore[attr-defined]
        if not hasattr(parser.Parser.parse, "takes_kept"):
            parser.Parser.parse = _keeps_parsed(parser.Parser.parse)


# what Kivy's Parser makes of a text, besides ``sourcecode`` (the text's lines, for error messages)
KV_FIELDS = ("rules", "templates", "root", "directives", "dynamic_classes")


def _keeps_parsed(parse: Callable[[Any, str], None]) -> Callable[[Any, str], None]:
    """Kivy's ``Parser.parse`` (which fills the parser from a kv text), taking the rules from the
    installed cache when the same text (same file name, same Kivy) was parsed before."""

    @functools.wraps(parse)
    def parse_or_take(parser: Any, content: str) -> None:
        cache = _installed
        if cache is None:
            parse(parser, content)
            return
        key = _digest(content, parser.filename or "", f"kv rules, Kivy {sys.modules['kivy'].__version__}")
        if cache.take_parsed(key, parser):
            parser.sourcecode = list(enumerate(content.splitlines()))
            parser.execute_directives()  # imports and values the rules' expressions use
            return
        parse(parser, content)
        cache.parsed += 1
        cache.keep_parsed(key, parser)

    parse_or_take.takes_kept = True  # type: ignore[attr-defined]
    return parse_or_take


@functools.cache
def _kv_picklers() -> tuple[Any, Any]:
    """The pickler and unpickler of kept kv rules (``pickle``, 2 ms of imports, when a kv text is
    read, not when this module is)."""
    import pickle

    class KvPickler(pickle.Pickler):
        """Pickles a parser's rules: their code marshalled, the parser itself (each rule's
        ``ctx``) by reference: the parser they are given to takes its place."""

        def __init__(self, file: Any, parser: Any) -> None:
            super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
            self.parser = parser

        def persistent_id(self, obj: Any) -> str | None:
            return "parser" if obj is self.parser else None

        def reducer_override(self, obj: Any) -> Any:
            return (marshal.loads, (marshal.dumps(obj),)) if type(obj) is CodeType else NotImplemented

    class KvUnpickler(pickle.Unpickler):
        def __init__(self, file: Any, parser: Any) -> None:
            super().__init__(file)
            self.parser = parser

        def persistent_load(self, pid: Any) -> Any:
            if pid != "parser":
                raise pickle.UnpicklingError(f"unknown reference {pid!r}")
            return self.parser

    return KvPickler, KvUnpickler


class _KvParserFinder:
    """A meta path finder (not derived from ``importlib.abc``'s: that import cost 2 ms of the
    start) that finds nothing of its own: when Kivy's kv parser is imported, it is covered by the
    cache as soon as it is loaded (:func:`cover_kv`), before Kivy's ``Builder`` loads Kivy's own rules
    (``style.kv``, some 760 expressions) while it is imported."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> Any:
        if name != "kivy.lang.parser":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        loader = spec.loader if spec is not None else None
        if loader is not None and hasattr(loader, "exec_module"):
            exec_module = loader.exec_module

            def exec_and_cover(module: ModuleType) -> None:
                exec_module(module)
                cover_kv()

            loader.exec_module = exec_and_cover  # type: ignore[method-assign]  # this spec's loader only
        return spec


def save() -> None:
    """Write the installed cache if this process compiled something new (else nothing)."""
    if _installed is not None:
        _installed.save()


def let_go_of_used() -> None:
    """Start-up is done: the installed cache lets go of the codes it used
    (:meth:`CodeCache.let_go_of_used`)."""
    if _installed is not None:
        _installed.let_go_of_used()

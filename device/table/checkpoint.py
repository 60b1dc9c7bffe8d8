"""Checkpoints: the folded table state of a list at a confirmed game, as bytes for the store.

Replaying a 48-game list card by card costs several times reading it; a checkpoint lets a
restart fold only the events after it. It is a cache, never the record: the store hands it
back only while the journal still holds the events it was made from (the chain hash at its
position), and :func:`decode` gives ``None`` for anything else — another version of the code
(a fingerprint of ``device/``'s sources), a damaged or foreign payload — so the caller
replays the journal instead.

The payload is a pickle of :class:`~device.table.state.TableState`, read back with an
unpickler that builds only ``device`` classes and plain builtins: a checkpoint file cannot
make the table run anything.

>>> from device.table.state import TableState
>>> decode(encode(TableState())) == TableState()
True
>>> decode(b"nonsense") is None
True
"""

from __future__ import annotations

import hashlib
import io
import pickle
import zlib
from functools import lru_cache
from pathlib import Path

from device.table.state import TableState

__all__ = ["EVERY_GAMES", "decode", "encode"]

EVERY_GAMES = 8
"""A checkpoint after every 8th entry: a restart folds at most 7 games' events, and the
bytes written stay small against the journal's (about 4 kB per checkpoint)."""

_SAFE_BUILTINS = frozenset({"frozenset", "set", "tuple", "list", "dict", "int", "str", "bool",
                            "float", "bytes", "NoneType", "getattr", "object"})
_SAFE_COPYREG = frozenset({"_reconstructor", "__newobj__", "__newobj_ex__"})


@lru_cache(maxsize=1)
def fingerprint() -> bytes:
    """A digest of ``device/``'s sources: a checkpoint from other code is never trusted."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[1]
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.digest()[:16]


class _DeviceUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> object:
        if (module == "device" or module.startswith("device.")
                or (module == "builtins" and name in _SAFE_BUILTINS)
                or (module == "copyreg" and name in _SAFE_COPYREG)
                or (module == "enum" and name == "Enum")):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a table state")


def encode(state: TableState) -> bytes:
    """The checkpoint bytes of ``state``."""
    return fingerprint() + zlib.compress(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), 6)


def decode(payload: bytes) -> TableState | None:
    """The state in ``payload``, or ``None`` if it was made by other code or is not a state."""
    mark = fingerprint()
    if not payload.startswith(mark):
        return None
    try:
        state = _DeviceUnpickler(io.BytesIO(zlib.decompress(payload[len(mark):]))).load()
    except Exception:  # any damage means: replay instead
        return None
    return state if isinstance(state, TableState) else None

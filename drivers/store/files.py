"""Files the store writes: its folder, atomic replacement, fsync, the process lock, names for
what is moved aside."""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat as stat_module
import tempfile
import uuid
from pathlib import Path

from drivers.store.errors import StoreError, StoreInUseError

JOURNAL_DIR = "journal"
JOURNAL_SUFFIX = ".jsonl"
TORN_SUFFIX = ".torn"
DAMAGED_SUFFIX = ".damaged"
CHECKPOINT_SUFFIX = ".checkpoint"
LEGACY_DIR = "before-journal"
DEVICE_ID_FILE = "device-id"
LOCK_FILE = ".lock"
PREV_SUFFIX = ".prev"
CORRUPT_SUFFIX = ".corrupt"
TAIL_CHUNK = 64 * 1024


def default_directory() -> Path:
    """The store directory: ``$XDG_DATA_HOME/skattisch``, else ``~/.local/share/skattisch``.

    >>> default_directory().name
    'skattisch'
    """
    xdg = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec says to ignore a relative value.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "skattisch"


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _make_dirs(directory: Path) -> None:
    """Create ``directory`` and its parents, fsyncing each parent so the entry survives."""
    missing: list[Path] = []
    for path in (directory, *directory.parents):
        if path.exists():
            break
        missing.append(path)
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):
            path.mkdir()
        _fsync_dir(path.parent)


def _temp_beside(path: Path) -> tuple[int, Path]:
    """A new temp file in ``path``'s directory (same filesystem, so ``os.replace`` is atomic)."""
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    return fd, Path(name)


def _write_temp(path: Path, data: bytes) -> tuple[Path, os.stat_result]:
    """Write ``data`` to a temp file beside ``path``, flushed and fsync'd."""
    fd, temp = _temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            stat = os.fstat(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    return temp, stat


def atomic_write(path: Path, data: bytes) -> os.stat_result:
    """Replace ``path`` by ``data`` so that a crash leaves the old or the new file, whole.

    Temp file in the same directory, flush + fsync, ``os.replace``, fsync the directory.
    Returns the new file's stat.
    """
    try:
        temp, stat = _write_temp(path, data)
        try:
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                temp.unlink()
            raise
        _fsync_dir(path.parent)
    except StoreError:
        raise
    except OSError as exc:
        raise StoreError(f"{path} could not be written: {exc.strerror or exc}", path=path) from exc
    return stat


def _keep_previous(path: Path) -> None:
    """Make ``<path>.prev`` the current ``path`` (a hard link: no copy, no extra fsync)."""
    prev = path.with_name(path.name + PREV_SUFFIX)
    link = prev.with_name(f".{prev.name}.{uuid.uuid4().hex}.tmp")
    try:
        os.link(path, link)
        os.replace(link, prev)
    except OSError:
        with contextlib.suppress(OSError):
            link.unlink()
        # A filesystem without hard links (FAT on a USB stick): copy instead.
        atomic_write(prev, path.read_bytes())


def _identity(stat: os.stat_result) -> tuple[int, int, int, int]:
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)


def _read_file(path: Path) -> tuple[bytes, os.stat_result] | None:
    """The bytes and stat of ``path`` (one open), ``None`` if it does not exist."""
    try:
        with open(path, "rb") as handle:
            stat = os.fstat(handle.fileno())
            return handle.read(), stat
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"{path} cannot be read: {exc.strerror or exc}", path=path) from exc


def _acquire_process_lock(directory: Path) -> int:
    path = directory / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", errors="replace").strip()
        os.close(fd)
        raise StoreInUseError(
            f"{directory} is in use by another open store (process {holder or '?'}); close it"
            " first",
            path=path,
            hint="Another skattisch program uses this store: on the table stop the service"
                 " first ('sudo systemctl stop skattisch'), or close the other window; then try"
                 " again. Nothing was changed.",
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    return fd


def _free_name(path: Path, suffix: str) -> Path:
    """``path`` + ``suffix``, or + ``suffix-2``, ``-3``… : a name nothing uses yet."""
    candidate = path.with_name(path.name + suffix)
    number = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}{suffix}-{number}")
        number += 1
    return candidate


def _first_line(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.readline(TAIL_CHUNK)


def _set_like(path: Path, like: os.stat_result) -> None:
    """Give ``path`` the owner and mode of a file it stands beside (recover, run as root)."""
    os.chmod(path, stat_module.S_IMODE(like.st_mode))
    if os.geteuid() == 0 and (like.st_uid, like.st_gid) != (0, 0):
        os.chown(path, like.st_uid, like.st_gid)

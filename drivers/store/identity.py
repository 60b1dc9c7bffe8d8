"""This table's stable id (``device-id`` beside the journals), restoring it from the journals,
and acting as the store's owner when a maintenance command runs as root."""

from __future__ import annotations

import contextlib
import os
import uuid
from pathlib import Path

from device.journal import ChainError, parse_line
from drivers.store.errors import StoreError
from drivers.store.files import (
    CORRUPT_SUFFIX, DEVICE_ID_FILE, JOURNAL_DIR, JOURNAL_SUFFIX, _first_line, _free_name,
    _fsync_dir, _make_dirs, _read_file, _set_like, _write_temp, atomic_write, default_directory,
)


def device_id(directory: str | os.PathLike[str] | None = None) -> str:
    """This table's stable id: a uuid created once in ``<directory>/device-id``.

    Created atomically (temp file, fsync, hard link that fails if another process won the
    race); a damaged id file is never replaced: :class:`StoreError` names it.
    """
    base = Path(directory) if directory is not None else default_directory()
    path = base / DEVICE_ID_FILE
    found = _read_file(path)
    if found is None:
        # A lost id file with journals present: the journals' own device field, never a new id
        # (a new one would make the table forget its list and restart its seq).
        known = _device_in_journals(base / JOURNAL_DIR)
        try:
            _make_dirs(base)
            temp, _ = _write_temp(path, f"{known or uuid.uuid4()}\n".encode("ascii"))
            try:
                os.link(temp, path)  # fails if the id exists: the first one stays
            except FileExistsError:
                pass
            finally:
                temp.unlink()
            _fsync_dir(base)
        except OSError as exc:
            if isinstance(exc, StoreError):
                raise
            raise StoreError(f"{path} could not be created: {exc.strerror or exc}",
                             path=path) from exc
        found = _read_file(path)
        assert found is not None  # it was just linked; nobody deletes it
    text = found[0].decode("ascii", errors="replace").strip()
    try:
        return str(uuid.UUID(text))
    except ValueError:
        known = _device_in_journals(base / JOURNAL_DIR)
        hint = (f": the journals say this table is {known} ('skattisch store recover' writes it)"
                if known else ": if this table never recorded a list, delete it and a new id is made")
        raise StoreError(f"{path} does not hold a device id (a uuid): {text[:40]!r}", path=path,
                         hint=f"Repair the file {path}{hint}. The table keeps its lists meanwhile.") from None


def repair_device_id(directory: str | os.PathLike[str]) -> str | None:
    """Restore a missing or damaged ``device-id`` from the journals; say what was done.

    A damaged file is moved aside (``device-id.corrupt``), never deleted. ``None``: nothing
    to do (the id is fine, or no journal names this table and a missing id is simply made).
    """
    base = Path(directory)
    path = base / DEVICE_ID_FILE
    missing = not path.exists()
    try:
        restored = device_id(base)
        if missing:
            known = _device_in_journals(base / JOURNAL_DIR)
            return (f"{path} was missing; restored the id {restored} from the journals" if known
                    else f"{path} was missing; made a new id {restored} (no journal names this table)")
        return None
    except StoreError as problem:
        known = _device_in_journals(base / JOURNAL_DIR)
        if known is None:
            raise StoreError(f"{problem}; no journal names this table, so it cannot be restored",
                             path=path, hint=problem.hint) from None
        like = os.stat(path)
        aside = _free_name(path, CORRUPT_SUFFIX)
        os.rename(path, aside)
        atomic_write(path, f"{known}\n".encode("ascii"))
        _set_like(path, like)
        return f"{problem}; restored the id {known} from the journals (the damaged file is kept as {aside.name})"


def act_as_store_owner(directory: str | os.PathLike[str], command: str = "skattisch store ...") -> str | None:
    """Run as root (sudo), become the owner of the store ``directory`` before touching a file.

    Sets the owner's groups, group and user for the rest of the process, so every file a
    maintenance command writes belongs to the table's user as the files beside it do. Returns
    the owner's name when it switched, ``None`` when not root or the store belongs to root.
    """
    if os.geteuid() != 0:
        return None
    owner = os.stat(directory)
    if owner.st_uid == 0:
        return None
    import pwd

    try:
        name = pwd.getpwuid(owner.st_uid).pw_name
        groups = os.getgrouplist(name, owner.st_gid)
    except KeyError:
        name, groups = str(owner.st_uid), [owner.st_gid]
    try:
        os.setgroups(groups)
        os.setgid(owner.st_gid)
        os.setuid(owner.st_uid)
    except OSError as exc:
        raise StoreError(f"cannot act as the store's owner {name}: {exc.strerror or exc}", path=directory,
                         hint=f"Run it as the store's owner: sudo -u {name} {command}") from exc
    return name


def _device_in_journals(journals: Path) -> str | None:
    """The device of the newest journal's first event (by its seq), if any journal has one."""
    best: tuple[int, str] | None = None
    for path in journals.glob(f"*{JOURNAL_SUFFIX}"):
        with contextlib.suppress(OSError, ChainError):
            event = parse_line(_first_line(path)).event
            seq, device = event.get("seq"), event.get("device")
            if isinstance(seq, int) and isinstance(device, str) and (best is None or seq > best[0]):
                best = (seq, device)
    return None if best is None else best[1]



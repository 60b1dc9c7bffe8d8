"""`skattisch store check|recover` and `skattisch run` on real journals with real damage, as a
volunteer meets them: each answer names the file and line and says what to do, no traceback."""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import tempfile
import subprocess
import sys
from pathlib import Path

import pytest

from device.journal import journal_line
from device.table import TableService
from drivers.store.legacy import LegacyTinyDBStore
from drivers.store import JournalEventStore
from tests.e2e.service_crash_writer import next_command

ROOT = Path(__file__).resolve().parents[2]


def store_cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "ui.cli", "store", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)


def record_table(directory: Path, games: int) -> tuple[str, list[dict[str, object]]]:
    """A real table's list: ``games`` games through the service into the journal store."""
    with JournalEventStore(directory) as store:
        service = TableService(store, device_id=store.device_id)
        done = 0
        while done < games:
            command = next_command(service, done + 1, card_by_card_every=3)
            for single in command if isinstance(command, list) else [command]:
                service.submit(single)
            done += sum(1 for e in service.pump().events if e.body.TYPE == "game_recorded")
        list_id = store.list_ids()[-1]
        return list_id, store.load(list_id)


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stdout + result.stderr, result.stderr[-2000:]


def test_a_damaged_journal_is_named_by_line_then_recovered_keeping_every_event_before(tmp_path: Path) -> None:
    list_id, events = record_table(tmp_path, 2)
    journal = tmp_path / "journal" / f"{list_id}.jsonl"
    lines = journal.read_bytes().splitlines(keepends=True)
    lines[10] = lines[10].replace(b'"seq":11', b'"seq":12')  # one changed character, mid-list
    journal.write_bytes(b"".join(lines))

    check = store_cli("check", "--path", str(tmp_path))
    no_traceback(check)
    assert check.returncode == 1
    assert f"{journal} line 11 is damaged: the line's checksum does not match" in check.stdout
    assert "skattisch store recover" in check.stdout

    recover = store_cli("recover", "--path", str(tmp_path))
    no_traceback(recover)
    assert recover.returncode == 0, recover.stdout
    assert "Kept the 10 events before it" in recover.stdout
    assert store_cli("check", "--path", str(tmp_path)).returncode == 0
    with JournalEventStore(tmp_path) as store:
        assert store.load(list_id) == events[:10]
    assert b"".join(lines[10:]) == next((tmp_path / "journal").glob("*.damaged")).read_bytes()


def test_check_replays_with_the_tables_code_so_ok_means_the_table_starts(tmp_path: Path) -> None:
    list_id, events = record_table(tmp_path, 1)
    journal = tmp_path / "journal" / f"{list_id}.jsonl"
    with JournalEventStore(tmp_path) as store:
        head = store.head(list_id)
    odd = dict(events[-1], type="no_such_event", seq=len(events) + 1)  # a whole, chained line
    with journal.open("ab") as handle:
        handle.write(journal_line(head, odd))
    check = store_cli("check", "--path", str(tmp_path))
    assert check.returncode == 1 and f"line {len(events) + 1}: the table cannot use this event" in check.stdout
    assert store_cli("recover", "--path", str(tmp_path)).returncode == 0
    assert store_cli("check", "--path", str(tmp_path)).returncode == 0


def test_deep_nesting_and_nan_in_the_store_are_reported_cleanly(tmp_path: Path) -> None:
    list_id, _ = record_table(tmp_path, 1)
    journal = tmp_path / "journal" / f"{list_id}.jsonl"
    whole = journal.read_bytes()
    for bad in (b"[" * 200_000 + b"\n", whole.splitlines()[-1].replace(b'"seq":', b'"x":NaN,"seq":') + b"\n"):
        journal.write_bytes(whole + bad)
        for action in ("check", "recover"):
            result = store_cli(action, "--path", str(tmp_path))
            no_traceback(result)
            assert "line" in result.stdout and "damaged" in result.stdout, result.stdout
    old = tmp_path / "old"
    with LegacyTinyDBStore(old) as legacy:
        legacy.append("a", [{"seq": 1}])
    (old / "lists" / "a.json").write_text('{"events": {"1": {"x": ' + "[" * 100_000 + "}}}")
    (old / "lists" / "a.json.prev").unlink(missing_ok=True)
    result = store_cli("check", "--path", str(old))
    no_traceback(result)
    assert result.returncode == 2 and "a.json is nested too deeply" in result.stderr


def test_a_missing_folder_is_not_created_and_a_file_is_not_a_store(tmp_path: Path) -> None:
    typo = tmp_path / "typo"
    for action in ("check", "recover"):
        result = store_cli(action, "--path", str(typo))
        assert result.returncode == 2 and "does not exist" in result.stderr
        assert not typo.exists()
    (tmp_path / "file").write_text("x")
    result = store_cli("check", "--path", str(tmp_path / "file"))
    assert result.returncode == 2 and "is a file" in result.stderr


def test_a_store_in_use_says_to_stop_the_other_program(tmp_path: Path) -> None:
    record_table(tmp_path, 1)
    store = JournalEventStore(tmp_path)
    try:
        result = store_cli("check", "--path", str(tmp_path))
        assert result.returncode == 2 and "systemctl stop skattisch" in result.stderr
    finally:
        store.close()


def run_table(tmp_path: Path, store_path: Path) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "table.toml"
    config.write_text(f'[store]\npath = "{store_path}"\n', encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "ui.cli", "run", "--simulate", "--config", str(config),
                           "--exit-when-done"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "KIVY_NO_ARGS": "1"})


def test_the_table_refuses_a_damaged_journal_and_says_what_to_do_about_each_error(tmp_path: Path) -> None:
    data = tmp_path / "data"
    list_id, _ = record_table(data, 1)
    journal = data / "journal" / f"{list_id}.jsonl"
    damaged = journal.read_bytes().replace(b'"seq":3', b'"seq":4', 1)
    journal.write_bytes(damaged)
    result = run_table(tmp_path, data)
    assert result.returncode == 2, result.stderr[-2000:]
    assert f"{journal.name} line 3 is damaged" in result.stderr and "skattisch store recover" in result.stderr
    assert journal.read_bytes() == damaged  # never overwritten

    (data / "device-id").write_text("kaputt\n")
    result = run_table(tmp_path, data)
    assert result.returncode == 2 and "does not hold a device id" in result.stderr
    assert "skattisch store recover" in result.stderr and "store check" not in result.stderr

    (tmp_path / "afile").write_text("x")
    result = run_table(tmp_path, tmp_path / "afile")
    assert result.returncode == 2 and "is a file" in result.stderr and "store.path" in result.stderr


def second_user() -> str:
    if os.geteuid() != 0:
        pytest.skip("needs root to create a second user and to play 'sudo skattisch store recover'")
    name = "skattischtest"
    try:
        pwd.getpwnam(name)
    except KeyError:
        made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
                              capture_output=True, text=True)
        if made.returncode != 0:
            pytest.skip(f"useradd failed: {made.stderr.strip()}")
    return name


def test_sudo_store_recover_acts_as_the_stores_owner(tmp_path: Path) -> None:
    user = second_user()
    owner = pwd.getpwnam(user)
    base = Path(tempfile.mkdtemp(prefix="skattisch-sudo-", dir="/tmp"))  # a folder the user can reach
    os.chmod(base, 0o755)
    data = base / "data"
    list_id, events = record_table(data, 2)
    journal = data / "journal" / f"{list_id}.jsonl"
    journal.write_bytes(journal.read_bytes().replace(b'"seq":7', b'"seq":8', 1))
    for path in [data, *data.rglob("*")]:
        os.chown(path, owner.pw_uid, owner.pw_gid)
    os.chmod(data, 0o750)

    result = store_cli("recover", "--path", str(data))  # as root, like 'sudo skattisch store recover'
    no_traceback(result)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"acting as the store's owner {user}" in result.stdout
    for path in [data, *data.rglob("*")]:
        info = path.stat()
        assert (info.st_uid, info.st_gid) == (owner.pw_uid, owner.pw_gid), f"{path} is not {user}'s"
    assert stat.S_IMODE(journal.stat().st_mode) == 0o600
    readable = subprocess.run(["setpriv", f"--reuid={owner.pw_uid}", f"--regid={owner.pw_gid}", "--clear-groups",
                               "cat", str(journal)], capture_output=True)
    assert readable.returncode == 0 and readable.stdout.count(b"\n") == 6, readable.stderr  # the table's user reads it
    with JournalEventStore(data) as store:
        assert store.load(list_id) == events[:6]
    shutil.rmtree(base)


def test_a_torn_last_line_is_kept_aside_and_said_on_the_status_bar(tmp_path: Path) -> None:
    data = tmp_path / "data"
    list_id, events = record_table(data, 1)
    journal = data / "journal" / f"{list_id}.jsonl"
    whole = journal.read_bytes()
    journal.write_bytes(whole + b'{"prev":"' + b"0" * 30)  # the power went mid-append
    script = tmp_path / "script.txt"
    script.write_text('expect_text "abgerissene Zeile"\nscreenshot store-repaired\n', encoding="utf-8")
    config = tmp_path / "table.toml"
    config.write_text(f'[store]\npath = "{data}"\n', encoding="utf-8")
    shots = Path(os.environ.get("SKATTISCH_SHOTS", tmp_path / "shots"))
    result = subprocess.run([sys.executable, "-m", "ui.cli", "run", "--simulate", "--config", str(config),
                             "--script", str(script), "--screenshots", str(shots), "--exit-when-done"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, "KIVY_NO_ARGS": "1"})
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "the last line was torn" in result.stderr  # and in the log, with the details
    assert (shots / "store-repaired.png").exists()
    assert journal.read_bytes() == whole
    assert next((data / "journal").glob("*.torn")).read_bytes() == b'{"prev":"' + b"0" * 30

"""``skattisch score``: score game records given as JSON lines.

Reads one game record per line (stdin or files), writes one JSON line per record: the result,
or ``{"line": n, "error": ..., "field": ..., "reason": ...}`` (also for a line that is not
UTF-8, not JSON, nested too deep or holds a number of more than 30 digits). Blank lines and
lines starting with ``#`` are skipped. Exit code 0 if every record scored, 1 if any line
failed, 2 if a file could not be read (missing, a folder, no permission: one line on stderr
naming it; the other files are still scored) or the profile is unknown.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from typing import IO, Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", help="files of JSON lines (default: standard input; '-' too)")
    parser.add_argument("--profile", default="isko", help="rule profile: isko (default), pre1999, texas (Texas Skat), tournee (Tournee Skat), danish (Danish Skat; danish_aarhus: the Aarhus club's rules), or a club profile such as kneipe (Kontra/Re, Bock)")
    parser.add_argument("--text", action="store_true", help="print the list entry in words instead of JSON")


def run(args: argparse.Namespace) -> int:
    from device.profile import ProfileError, find_profile

    try:
        profile = find_profile(args.profile)
    except ProfileError as exc:
        print(f"skattisch score: {exc}", file=sys.stderr)
        return 2
    failed = 0
    unreadable = 0
    for name in args.files or ["-"]:
        try:
            stream = _open(name)
        except OSError as exc:
            print(f"skattisch score: cannot read {name}: {_why(exc)}", file=sys.stderr)
            unreadable += 1
            continue
        with stream as handle:
            for line in score_lines(handle, profile_name=profile.name):
                if "error" in line:
                    failed += 1
                if args.text:
                    print(line.get("text") or f"Zeile {line['line']}: {line['error']}")
                else:
                    print(json.dumps(line, ensure_ascii=False))
    return 2 if unreadable else 1 if failed else 0


def score_lines(lines: Iterable[str | bytes], *, profile_name: str = "isko") -> Iterator[dict[str, Any]]:
    """Score each JSON line (text, or bytes to be read as UTF-8); yield the result or the error
    for each non-blank line."""
    from device.errors import RecordError
    from device.jsonin import JsonInputError, decode_utf8, parse_json
    from device.profile import find_profile
    from device.record import result_to_json, score_record

    profile = find_profile(profile_name)
    for number, line in enumerate(lines, start=1):
        try:
            text = (decode_utf8(line) if isinstance(line, bytes) else line).strip().removeprefix("\ufeff")
            if not text or text.startswith("#"):
                continue
            yield result_to_json(score_record(parse_json(text), profile=profile))
        except JsonInputError as exc:
            yield {"line": number, "error": str(exc), "field": exc.field, "reason": str(exc)}
        except RecordError as exc:
            yield {"line": number, "error": str(exc), "field": exc.field, "reason": exc.reason}


def _open(name: str) -> AbstractContextManager[IO[bytes]]:
    """A file of records, opened for reading bytes; '-' is standard input (not closed by us)."""
    if name == "-":
        return contextlib.nullcontext(sys.stdin.buffer)
    if os.path.isdir(name):
        raise IsADirectoryError(errno.EISDIR, "it is a folder, not a file", name)
    return open(name, "rb")


def _why(exc: OSError) -> str:
    return {errno.ENOENT: "no such file", errno.EACCES: "permission denied"}.get(exc.errno or 0, exc.strerror or str(exc))

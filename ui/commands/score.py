"""``skattisch score``: score game records given as JSON lines.

Reads one game record per line (stdin or files), writes one JSON line per record: the result,
or ``{"line": n, "error": ..., "field": ..., "reason": ...}``. Blank lines and lines starting
with ``#`` are skipped. Exit code 0 if every record scored, 1 if any line failed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", help="files of JSON lines (default: standard input; '-' too)")
    parser.add_argument("--profile", default="isko", help="rule profile: isko (default), pre1999, or a club profile such as kneipe (Kontra/Re, Bock)")
    parser.add_argument("--text", action="store_true", help="print the list entry in words instead of JSON")


def run(args: argparse.Namespace) -> int:
    from device.profile import ProfileError, find_profile

    try:
        profile = find_profile(args.profile)
    except ProfileError as exc:
        print(f"skattisch score: {exc}", file=sys.stderr)
        return 2
    failed = 0
    for line in score_lines(_lines(args.files), profile_name=profile.name):
        if "error" in line:
            failed += 1
        if args.text:
            print(line.get("text") or f"Zeile {line['line']}: {line['error']}")
        else:
            print(json.dumps(line, ensure_ascii=False))
    return 1 if failed else 0


def score_lines(lines: Iterable[str], *, profile_name: str = "isko") -> Iterator[dict[str, Any]]:
    """Score each JSON line; yield the result or the error for each non-blank line."""
    from device.errors import RecordError
    from device.profile import find_profile
    from device.record import result_to_json, score_record

    profile = find_profile(profile_name)
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            record = json.loads(text)
            yield result_to_json(score_record(record, profile=profile))
        except json.JSONDecodeError as exc:
            yield {"line": number, "error": f"not JSON: {exc.msg} at column {exc.colno}", "field": None, "reason": exc.msg}
        except RecordError as exc:
            yield {"line": number, "error": str(exc), "field": exc.field, "reason": exc.reason}


def _lines(files: list[str]) -> Iterator[str]:
    if not files:
        files = ["-"]
    for name in files:
        with contextlib.nullcontext(sys.stdin) if name == "-" else open(name, encoding="utf-8") as stream:
            yield from stream

"""docs/reference/signing.md against the code and a real server: its worked example parsed from
the page (secret, body, headers, signature) equals what ``device.sync`` signs, its Python and
shell snippets give the same signature, and the request exactly as the page shows it is taken
by the collector over real HTTP on 127.0.0.1 (its clock at the example's time), while the
signature keyed with the secret's text is refused."""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.sync import sign_request, signing_text
from drivers.club.app import create_app
from drivers.club.server import bind
from drivers.club.store import SqliteCollectorStore

DOC = Path(__file__).resolve().parents[2] / "docs" / "reference" / "signing.md"


def _blocks() -> dict[str, list[str]]:
    """The page's fenced blocks by their info string (the first of each kind)."""
    blocks: dict[str, list[str]] = {}
    for info, text in re.findall(r"^```(\w+)\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.S | re.M):
        blocks.setdefault(info, []).append(text[:-1] if text.endswith("\n") else text)
    return blocks


BLOCKS = _blocks()
EXAMPLE = dict(line.split(": ", 1) for line in BLOCKS["example"][0].splitlines())


def _http() -> tuple[str, str, dict[str, str], bytes]:
    head, body = BLOCKS["http"][0].split("\n\n", 1)
    request_line, *lines = head.splitlines()
    method, path, _ = request_line.split(" ")
    return method, path, dict(line.split(": ", 1) for line in lines), body.encode("utf-8")


def _wrong_signature() -> str:
    found = re.search(r"instead, the same text gives\s+`([0-9a-f]{64})`", DOC.read_text(encoding="utf-8"))
    assert found is not None, "the page shows the signature keyed with the secret's text"
    return found.group(1)


def test_the_worked_example_is_what_the_code_signs() -> None:
    body = EXAMPLE["body"].encode("utf-8")
    assert BLOCKS["sha256"][0] == hashlib.sha256(body).hexdigest()
    text = signing_text(EXAMPLE["method"], EXAMPLE["path"], EXAMPLE["time"], EXAMPLE["nonce"], body)
    assert BLOCKS["signed"][0].encode("utf-8") == text
    headers = sign_request(EXAMPLE["secret"], EXAMPLE["device"], EXAMPLE["method"], EXAMPLE["path"], body,
                           now=float(EXAMPLE["time"]), nonce=EXAMPLE["nonce"])
    method, path, shown, shown_body = _http()
    assert (method, path, shown_body) == (EXAMPLE["method"], EXAMPLE["path"], body)
    assert {k: v for k, v in shown.items() if k.startswith("X-Skattisch-")} == headers
    wrong = hmac.new(EXAMPLE["secret"].encode("ascii"), text, hashlib.sha256).hexdigest()
    assert _wrong_signature() == wrong != headers["X-Skattisch-Signature"]


def test_the_pages_snippets_give_the_same_signature() -> None:
    python = next(block for block in BLOCKS["python"] if "def signature" in block)
    space: dict[str, Any] = {}
    exec(python, space)  # the page's own function
    body = EXAMPLE["body"].encode("utf-8")
    want = _http()[2]["X-Skattisch-Signature"]
    assert space["signature"](EXAMPLE["secret"], "POST", EXAMPLE["path"], EXAMPLE["time"], EXAMPLE["nonce"], body) == want
    if shutil.which("openssl") is None:
        pytest.skip("openssl not installed: the shell snippet is not checked")
    done = subprocess.run(["sh", "-c", BLOCKS["sh"][0]], capture_output=True, text=True, timeout=30, check=True,
                          env={**os.environ, "BODY": EXAMPLE["body"], "SECRET": EXAMPLE["secret"]})
    assert done.stdout.strip() == want, done.stderr


@pytest.fixture
def collector(tmp_path: Path) -> Iterator[str]:
    """The collector on 127.0.0.1 over real HTTP, its clock at the example's time, the example's
    table paired with the example's secret."""
    import uvicorn

    at = float(EXAMPLE["time"])
    store = SqliteCollectorStore(tmp_path / "club.sqlite3")
    store.add_pairing_code("123456", at + 600)
    store.pair("123456", EXAMPLE["device"], "Beispieltisch", EXAMPLE["secret"], now=at)
    server = uvicorn.Server(uvicorn.Config(create_app(store, clock=lambda: at), log_level="warning", lifespan="off"))
    sock = bind("127.0.0.1", 0)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the collector did not start"
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()


def _send(address: str, headers: dict[str, str], body: bytes, path: str) -> tuple[int, dict[str, Any]]:
    connection = http.client.HTTPConnection(address, timeout=10)
    try:
        connection.request("POST", path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def test_the_request_on_the_page_is_taken_by_a_real_server(collector: str) -> None:
    method, path, headers, body = _http()
    status, answer = _send(collector, {**headers, "X-Skattisch-Signature": _wrong_signature()}, body, path)
    assert (status, answer["error"]) == (401, "bad_signature"), answer
    status, answer = _send(collector, headers, body, path)
    assert status == 200 and answer["acked"] == 0 and answer["device"] == EXAMPLE["device"], answer
    status, answer = _send(collector, headers, body, path)
    assert (status, answer["error"]) == (401, "replayed"), answer

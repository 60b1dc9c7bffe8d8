"""A table whose connection drops mid-request: the organiser's terminal gets one line, no traceback.

A real collector (``skattisch club serve``) and a client that sends its headers and half the
body it announced, then closes the socket (a table losing the WLAN while it sends).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.sync import API
from tests.e2e.sync_helpers import Collector


@pytest.fixture
def collector(tmp_path: Path) -> Iterator[Collector]:
    laptop = Collector(tmp_path / "club.sqlite3")
    yield laptop
    laptop.stop()


def send_half_and_close(port: int, path: str, content_type: str, body: bytes) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
                f"Content-Length: {2 * len(body)}\r\n\r\n")
        sock.sendall(head.encode() + body)
        time.sleep(0.3)  # the collector is waiting for the rest


@pytest.mark.parametrize(("path", "content_type", "body"), [
    (f"{API}/events", "application/json", b'{"v": 1, "device": "t1", "entries": [{"seq": 1, '),
    (f"{API}/pair", "application/json", b'{"v": 1, "code": "123'),
    ("/anmelden", "application/x-www-form-urlencoded", b"passwort=geheim&wieder"),
], ids=["events", "pair", "page form"])
def test_a_connection_dropped_mid_request_is_one_log_line(collector: Collector, path: str, content_type: str,
                                                          body: bytes) -> None:
    send_half_and_close(collector.port, path, content_type, body)
    time.sleep(0.5)
    collector.stop()
    assert collector.process is not None and collector.process.stderr is not None
    err = collector.process.stderr.read()
    assert "Traceback" not in err and "ClientDisconnect" not in err, err
    (line,) = err.strip().splitlines()
    assert "connection dropped" in line and path in line and "nothing taken" in line, line


def test_the_collector_goes_on_after_a_dropped_connection(collector: Collector) -> None:
    send_half_and_close(collector.port, f"{API}/events", "application/json", b'{"v": 1, ')
    with socket.create_connection(("127.0.0.1", collector.port), timeout=5) as sock:
        sock.sendall(f"GET {API}/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200") and b'"service":"skattisch-club"' in answer.replace(b" ", b"")

"""A small HTTP fault proxy on 127.0.0.1 for the sync tests (asyncio, its own thread).

Each request is read whole, then by a seeded roll: dropped (the connection closes, nothing
forwarded), held back long enough that the table gives up and a later request overtakes it
(reordered: it reaches the laptop after newer ones), forwarded twice (duplicated), delayed;
and the laptop's answer may be dropped (the laptop stored it, the table does not know) or
sent twice. ``down`` makes the laptop unreachable (every connection is closed at once).
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections import Counter
from dataclasses import dataclass


@dataclass
class Faults:
    drop_request: float = 0.08
    hold: float = 0.05  # reorder: forwarded after ``hold_seconds``, when the table has given up
    duplicate: float = 0.10
    delay: float = 0.2
    drop_response: float = 0.08
    duplicate_response: float = 0.05
    hold_seconds: float = 2.5
    max_delay: float = 0.15


class FaultProxy:
    def __init__(self, upstream_port: int, *, seed: int = 1, faults: Faults | None = None) -> None:
        self.upstream_port = upstream_port
        self.faults = faults
        self.down = False
        self.stats: Counter[str] = Counter()
        self.forwarded_batch = threading.Event()  # set when a batch with entries goes to the laptop
        self._rng = random.Random(seed)
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="fault-proxy")
        self.port = 0

    def start(self) -> int:
        self._thread.start()
        self._ready.wait(10)
        return self.port

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    def close(self) -> None:
        async def shut() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self._loop.stop()

        asyncio.run_coroutine_threadsafe(shut(), self._loop)
        self._thread.join(5)

    def _roll(self, chance: float) -> bool:
        return self.faults is not None and self._rng.random() < chance

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await _read_request(reader)
            if request is None:
                return
            self.stats["requests"] += 1
            if self.down:
                self.stats["refused_down"] += 1
                return
            faults = self.faults or Faults()
            if self._roll(faults.drop_request):
                self.stats["dropped_request"] += 1
                return
            if self._roll(faults.hold):
                self.stats["held_reordered"] += 1
                await asyncio.sleep(faults.hold_seconds)
            elif self._roll(faults.delay):
                self.stats["delayed"] += 1
                await asyncio.sleep(self._rng.uniform(0, faults.max_delay))
            copies = 2 if self._roll(faults.duplicate) else 1
            if copies == 2:
                self.stats["duplicated_request"] += 1
            if b'"entries":[{' in request:
                self.forwarded_batch.set()
            answers = await asyncio.gather(*(self._forward(request) for _ in range(copies)))
            answer = answers[-1]
            if answer is None:
                self.stats["upstream_down"] += 1
                return
            if self._roll(faults.drop_response):
                self.stats["dropped_response"] += 1
                return
            writer.write(answer)
            if self._roll(faults.duplicate_response):
                self.stats["duplicated_response"] += 1
                writer.write(answer)
            await writer.drain()
            self.stats["answered"] += 1
        except (ConnectionError, asyncio.IncompleteReadError):
            self.stats["broken"] += 1
        except asyncio.CancelledError:
            pass
        finally:
            writer.close()

    async def _forward(self, request: bytes) -> bytes | None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            return None
        try:
            up_writer.write(request)
            await up_writer.drain()
            return await asyncio.wait_for(up_reader.read(-1), 30) or None
        except (OSError, asyncio.TimeoutError):
            return None
        finally:
            up_writer.close()


async def _read_request(reader: asyncio.StreamReader) -> bytes | None:
    """One whole HTTP request (head and Content-Length body), forced to ``Connection: close``."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        return None
    length = 0
    lines = head.split(b"\r\n")
    kept = []
    for line in lines:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
        if name.strip().lower() == b"connection":
            continue
        kept.append(line)
    body = await reader.readexactly(length) if length else b""
    head = b"\r\n".join(kept[:-2]) + b"\r\nConnection: close\r\n\r\n"
    return head + body

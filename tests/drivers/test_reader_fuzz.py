"""Property tests of the framing: any bytes, any chunking, never a crash, never a card not sent.

The oracles are written independently of the framing code: a regular expression over the
whole stream for RDM6300 frames, a split on CR/LF for lines.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.reader import (
    BadFrame,
    BarcodeFraming,
    Fault,
    Frame,
    Framing,
    Payload,
    Rdm6300Framing,
    UidFraming,
    rdm6300_checksum,
    rdm6300_frame,
)

FRAMINGS = st.sampled_from([BarcodeFraming, UidFraming, Rdm6300Framing])
# Bytes that make framing interesting turn up often: STX, ETX, CR, LF, hex digits.
STREAM_BYTE = st.one_of(st.sampled_from(b"\x02\x03\r\n0123456789ABCDEFabcdef"), st.integers(0, 255))
STREAMS = st.lists(STREAM_BYTE, max_size=300).map(bytes)
TAGS = st.binary(min_size=5, max_size=5).map(lambda b: b.hex().upper())


def feed_in_chunks(cls: type[Framing], data: bytes, cuts: list[int]) -> list[Frame]:
    frames: list[Frame] = []
    framing = cls(frames.append)
    last = 0
    for cut in sorted({c % (len(data) + 1) for c in cuts}):
        framing.feed(data[last:cut])
        last = cut
    framing.feed(data[last:])
    return frames


def payloads(frames: list[Frame]) -> list[str]:
    return [f.raw for f in frames if isinstance(f, Payload)]


def rdm6300_oracle(data: bytes) -> list[str]:
    """Every well-formed frame with a good checksum in the stream, by regular expression."""
    found = []
    for match in re.finditer(rb"\x02([0-9A-Fa-f]{10})([0-9A-Fa-f]{2})\x03", data):
        body = bytes.fromhex(match.group(1).decode())
        if rdm6300_checksum(body) == int(match.group(2), 16):
            found.append(match.group(1).decode().upper())
    return found


def line_oracle(data: bytes, max_length: int) -> list[str]:
    """The printable, not too long, non-blank lines that ended in CR or LF."""
    *complete, _ = re.split(rb"[\r\n]", data)
    found = []
    for line in complete:
        text = line.strip()
        if text and len(line) <= max_length and all(0x20 <= b < 0x7F for b in text):
            found.append(text.decode())
    return found


@settings(max_examples=400, deadline=None)
@given(cls=FRAMINGS, data=STREAMS, cuts=st.lists(st.integers(0, 400), max_size=12))
def test_any_bytes_any_chunks_no_crash_and_chunking_does_not_matter(
    cls: type[Framing], data: bytes, cuts: list[int]
) -> None:
    whole = cls.decode(data)
    assert feed_in_chunks(cls, data, cuts) == whole
    assert all(isinstance(f, Payload | BadFrame) for f in whole)


@settings(max_examples=400, deadline=None)
@given(data=STREAMS, cuts=st.lists(st.integers(0, 400), max_size=12))
def test_rdm6300_decodes_exactly_the_good_frames_in_the_stream(data: bytes, cuts: list[int]) -> None:
    assert payloads(feed_in_chunks(Rdm6300Framing, data, cuts)) == rdm6300_oracle(data)


@settings(max_examples=400, deadline=None)
@given(data=STREAMS, cuts=st.lists(st.integers(0, 400), max_size=12))
def test_barcode_decodes_exactly_the_good_lines_in_the_stream(data: bytes, cuts: list[int]) -> None:
    assert payloads(feed_in_chunks(BarcodeFraming, data, cuts)) == line_oracle(data, BarcodeFraming.MAX_LENGTH)


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(st.one_of(TAGS.map(lambda t: ("tag", t)), STREAMS.map(lambda g: ("junk", g))), max_size=12),
    cuts=st.lists(st.integers(0, 2000), max_size=20),
)
def test_frames_mixed_with_garbage_all_come_through_and_nothing_else(
    pieces: list[tuple[str, object]], cuts: list[int]
) -> None:
    stream = b""
    sent = []
    for kind, value in pieces:
        if kind == "tag":
            assert isinstance(value, str)
            sent.append(value)
            stream += rdm6300_frame(value)
        else:
            assert isinstance(value, bytes)
            stream += value
    got = payloads(feed_in_chunks(Rdm6300Framing, stream, cuts))
    # Every frame sent comes through, in order (garbage before a frame cannot swallow it) ...
    it = iter(got)
    assert all(tag in it for tag in sent), (sent, got)
    # ... and anything else decoded was a good frame the garbage happened to contain.
    assert got == rdm6300_oracle(stream)


@settings(max_examples=200, deadline=None)
@given(junk=STREAMS.filter(lambda g: g.strip(b"\r\n") != b"" and b"\x02" not in g), tag=TAGS)
def test_garbage_is_counted_before_the_next_frame(junk: bytes, tag: str) -> None:
    frames = Rdm6300Framing.decode(junk + rdm6300_frame(tag))
    assert frames[-1] == Payload(tag)
    bad = [f for f in frames if isinstance(f, BadFrame)]
    assert bad and all(f.fault is Fault.GARBAGE for f in bad)


@settings(max_examples=300, deadline=None)
@given(tag=TAGS, position=st.integers(1, 12), bit=st.integers(0, 7))
def test_a_corrupted_character_never_reads_as_another_card(tag: str, position: int, bit: int) -> None:
    frame = bytearray(rdm6300_frame(tag))
    original = frame[position]
    frame[position] ^= 1 << bit
    results = Rdm6300Framing.decode(bytes(frame))
    if chr(original).isalpha() and bit == 5:  # A <-> a: the same hex digit, the same tag
        assert results == [Payload(tag)]
    else:  # not hex, a start/end byte, or a digit that upsets the XOR: dropped, and said so
        assert payloads(results) == []
        assert any(isinstance(r, BadFrame) for r in results)

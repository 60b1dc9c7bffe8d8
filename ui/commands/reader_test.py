"""``skattisch reader-test``: open the card reader and print what it decodes, one JSON line each.

Lines (``time`` is local time with milliseconds)::

    {"time": "...", "card": "CJ", "name": "Kreuz Bube", "raw": "0A00C4E1F2"}
    {"time": "...", "error": "checksum 1F does not match ...", "kind": "checksum", "raw": "..."}
    {"time": "...", "error": "Karte '0B...' nicht erkannt: ...", "kind": "unknown", "raw": "0B..."}
    {"time": "...", "reader": "connected", "port": "/dev/serial/by-id/...", "detail": "..."}

Runs until interrupted; Ctrl-C closes the reader, prints the counters to stderr and exits 0.
A port that cannot be opened for good (an unknown URL scheme such as ``foo://bar``) or a
deck file that cannot be used: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import datetime
from typing import Any

from drivers.barcode import Symbology
from drivers.config import STANDARD_BAUD_RATES

MODES = ("barcode", "rdm6300", "uid")


def add_reader_arguments(parser: argparse.ArgumentParser, *, port_required: bool = False) -> None:
    """The reader options shared with ``deck learn``."""
    parser.add_argument(
        "--port", required=port_required,
        help="serial device or pyserial URL, best /dev/serial/by-id/...; "
             "default: the only device under /dev/serial/by-id",
    )
    parser.add_argument("--baud", type=_baud_rate, default=9600, metavar="RATE",
                        help="baud rate, a standard one: " + ", ".join(map(str, STANDARD_BAUD_RATES))
                             + " (default 9600)")
    parser.add_argument("--mode", choices=MODES, default="barcode",
                        help="barcode: a line per card; rdm6300: 125 kHz frames; uid: an NFC UID per line")
    parser.add_argument("--debounce-ms", type=_at_least(0), default=1000, metavar="N",
                        help="count a card read again within N ms once (default 1000)")
    parser.add_argument("--confirm-ms", type=_at_least(0), default=None, metavar="N",
                        help="accept a tag only after two identical frames within N ms "
                             "(default: 200 for rdm6300, off for the others; 0: off)")
    parser.add_argument("--barcode", choices=[s.value for s in Symbology], default=None, metavar="SYMBOLOGY",
                        help="check each barcode's check digit: " + ", ".join(s.value for s in Symbology)
                             + " (default: the deck file's, else text: no check)")


def _at_least(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    parse.__name__ = "number"  # argparse names the type in its message: "invalid number value"
    return parse


def _baud_rate(text: str) -> int:
    """A rate a serial card reader uses (the configuration file's ``reader.baud`` accepts the same)."""
    rates = ", ".join(map(str, STANDARD_BAUD_RATES))
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number: use one of {rates}") from None
    if value not in STANDARD_BAUD_RATES:
        raise argparse.ArgumentTypeError(f"{value} is not a standard baud rate: use one of {rates}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_reader_arguments(parser)
    parser.add_argument("--deck", metavar="F", help="deck file mapping tags/barcodes to cards")


def resolve_port(args: argparse.Namespace) -> str | None:
    """The port from the flags, else the only device under /dev/serial/by-id; None with a message."""
    from drivers.reader import find_port

    port: str | None = args.port or find_port()
    if port is None:
        print("skattisch: kein Kartenleser angegeben (--port) und nicht genau einer unter "
              "/dev/serial/by-id gefunden", file=sys.stderr)
    return port


def run(args: argparse.Namespace) -> int:
    from device.inbox import Inbox
    from drivers.deck import Deck, DeckError

    port = resolve_port(args)
    if port is None:
        return 2
    try:
        deck = Deck.load(args.deck) if args.deck else None
    except DeckError as exc:
        print(f"skattisch: {exc}", file=sys.stderr)
        return 2
    inbox: Inbox[object] = Inbox()
    reader = build_reader(args, port, inbox, deck=deck, on_bad_frame=inbox.submit)
    if reader is None:
        return 2
    reader.start(inbox.submit)
    try:
        while reader.failure is None:
            item = inbox.get(timeout=0.5)
            if item is not None:
                print(json.dumps(describe(item), ensure_ascii=False), flush=True)
        for item in inbox.drain():
            print(json.dumps(describe(item), ensure_ascii=False), flush=True)
        print(f"skattisch: {reader.failure}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    finally:
        reader.close()
        c = reader.counters
        print(f"{c.cards} Karten, {c.unknown} unbekannt, {c.repeats} Wiederholungen, "
              f"{c.unconfirmed} unbestätigt, {c.disagreements} Abweichungen, {c.held} gehalten, "
              f"{c.checksum_errors} Prüfsummenfehler, {c.garbage} Müll, {c.disconnects} Trennungen",
              file=sys.stderr)


def build_reader(args: argparse.Namespace, port: str, inbox: Any, **options: Any) -> Any:
    """The reader the flags describe (not started), or None after saying why it cannot be."""
    from drivers.reader import PortError, SerialCardReader

    confirm = None if args.confirm_ms is None else args.confirm_ms / 1000
    symbology = Symbology(args.barcode) if args.barcode else None
    try:
        return SerialCardReader(port, mode=args.mode, baud=args.baud, debounce=args.debounce_ms / 1000,
                                confirm=confirm, symbology=symbology, **options)
    except PortError as exc:
        print(f"skattisch: {exc}", file=sys.stderr)
        return None


def describe(item: object) -> dict[str, Any]:
    """One reader command or bad frame as a JSON-ready dict."""
    from device.hardware import CardScanned, ReaderStatus, UnknownCardScanned
    from drivers.reader import BadFrame

    line: dict[str, Any] = {"time": datetime.now().astimezone().isoformat(timespec="milliseconds")}
    match item:
        case CardScanned(card=card, raw=raw):
            line |= {"card": card.code, "name": card.german, "raw": raw}
        case UnknownCardScanned(raw=raw, reason=reason):
            line |= {"error": reason, "kind": "unknown", "raw": raw}
        case BadFrame(fault=fault, data=data, detail=detail):
            line |= {"error": detail, "kind": fault.value, "raw": data.decode("ascii", "backslashreplace")}
        case ReaderStatus(connected=connected, port=port, detail=detail):
            line |= {"reader": "connected" if connected else "disconnected", "port": port, "detail": detail}
        case _:
            line |= {"error": f"unexpected {item!r}", "kind": "internal"}
    return line

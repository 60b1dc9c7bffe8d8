"""``skattisch deck``: make and inspect deck files (see :mod:`drivers.deck` for the format).

``skattisch deck learn --port P [--mode rdm6300] --out deck.json`` shows the 32 cards one by
one ("Bitte Kreuz Bube auflegen (1/32)"), reads each from the reader, refuses a tag already
used for another card, and writes the file (atomically) only once all 32 are read. Ctrl-C
aborts and writes nothing.

``skattisch deck show deck.json`` prints the mapping, one card a line, and the cards missing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ui.commands.reader_test import add_reader_arguments, build_reader, resolve_port


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="deck_command", metavar="ACTION", required=True)
    learn = sub.add_parser("learn", help="teach in a deck: lay the 32 cards on the reader one by one")
    add_reader_arguments(learn)
    learn.add_argument("--out", required=True, metavar="FILE", help="the deck file to write")
    show = sub.add_parser("show", help="print a deck file's mapping")
    show.add_argument("file", metavar="FILE")
    show.add_argument("--json", action="store_true", help="print the checked deck as JSON")


def run(args: argparse.Namespace) -> int:
    if args.deck_command == "show":
        return show(args.file, as_json=args.json)
    return learn(args)


def show(path: str, *, as_json: bool = False) -> int:
    from drivers.deck import Deck, DeckError

    try:
        deck = Deck.load(path)
    except DeckError as exc:
        print(f"skattisch: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(deck.to_json(), indent=2))
        return 0
    for payload, card in deck.items():
        print(f"{card.code}  {card.german:<12}  {payload}")
    missing = deck.missing()
    if missing:
        print(f"fehlen ({len(missing)}): {' '.join(c.code for c in missing)}")
    for a, b in deck.near_misses():
        print(f"Achtung: {a} ({deck.lookup(a).german}) und {b} ({deck.lookup(b).german}) unterscheiden sich "  # type: ignore[union-attr]
              "nur in einem Zeichen – ein Lesefehler kann die Karten verwechseln", file=sys.stderr)
    return 0


def learn(args: argparse.Namespace) -> int:
    from device.hardware import CardScanned, ReaderStatus, UnknownCardScanned
    from device.inbox import Inbox
    from drivers.barcode import Symbology
    from drivers.deck import DeckLearner

    folder = Path(args.out).resolve().parent
    if not folder.is_dir():  # say so now, not after the 32nd card
        print(f"skattisch: der Ordner {folder} für {args.out} existiert nicht", file=sys.stderr)
        return 2
    port = resolve_port(args)
    if port is None:
        return 2
    inbox: Inbox[object] = Inbox()
    learner = DeckLearner()
    # No deck while learning: every tag is "unknown", and its raw payload is what we keep.
    reader = build_reader(args, port, inbox)
    if reader is None:
        return 2
    reader.start(inbox.submit)
    try:
        print(learner.prompt(), flush=True)
        while not learner.done:
            if reader.failure is not None:
                print(f"skattisch: {reader.failure} – {args.out} nicht geschrieben", file=sys.stderr)
                return 2
            item = inbox.get(timeout=0.5)
            if isinstance(item, ReaderStatus):
                print(("Kartenleser bereit" if item.connected else f"Warte auf Kartenleser – {item.detail}"),
                      flush=True)
            elif isinstance(item, CardScanned | UnknownCardScanned):
                step = learner.offer(item.raw)
                print(("  ok " if step.accepted else "  ✗ ") + step.message, flush=True)
                if step.warning:
                    print("  ! " + step.warning, flush=True)
                if not learner.done:
                    print(learner.prompt(), flush=True)
    except KeyboardInterrupt:
        print(f"\nAbgebrochen – {args.out} nicht geschrieben", flush=True)
        return 130
    finally:
        reader.close()
    symbology = Symbology(args.barcode) if args.barcode else Symbology.TEXT
    learner.deck(source=args.out, barcode=symbology).save(args.out)
    print(f"Kartendatei {args.out} geschrieben (32 Karten)", flush=True)
    return 0

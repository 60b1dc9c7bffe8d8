"""Deck files (format, checks, atomic save), teach-in, and ``skattisch deck learn/show``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.cards import DECK, Card, parse_cards
from drivers.deck import TEACH_ORDER, Deck, DeckError, DeckLearner
from drivers.reader import rdm6300_frame
from tests.drivers.test_reader import Cli, PtyDevice
from ui.cli import main

# One RFID tag per card, in teach order; any two differ in four characters (so deck learn
# has no near misses to warn about).
TAGS = [f"0A{i:02X}{i:02X}{i:02X}{i:02X}" for i in range(32)]


def lay(device: PtyDevice, tag: str) -> None:
    """A tag laid on the reader: the RDM6300 sends its frame again and again (twice here)."""
    device.write(rdm6300_frame(tag) * 2)


def full_deck() -> Deck:
    return Deck(zip(TAGS, TEACH_ORDER))


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# -- format and lookup -----------------------------------------------------------------------


def test_teach_order_is_the_32_cards_jacks_first() -> None:
    assert sorted(c.code for c in TEACH_ORDER) == sorted(c.code for c in DECK)
    assert TEACH_ORDER[:5] == parse_cards("CJ SJ HJ DJ CA")
    assert TEACH_ORDER[-1] == Card.parse("D7")


def test_a_card_code_barcode_maps_to_itself_without_a_deck() -> None:
    empty = Deck()
    assert empty.lookup("CJ") == Card.parse("CJ")
    assert empty.lookup(" hT\r") == Card.parse("HT")
    assert empty.lookup("4006381333931") is None
    assert empty.lookup("") is None


def test_deck_entries_are_found_without_regard_to_case() -> None:
    entries: dict[str, Card | str] = {"0a00c4e1f2": "sa", "4006381333931": Card.parse("D7")}
    deck = Deck(entries)
    assert deck.lookup("0A00C4E1F2") == Card.parse("SA")
    assert deck.lookup("4006381333931") == Card.parse("D7")
    assert deck.lookup("CJ") == Card.parse("CJ")  # a code still names its card
    assert deck.lookup("0A00C4E1F3") is None
    assert deck.payload_of(Card.parse("SA")) == "0A00C4E1F2"
    assert deck.missing() == tuple(c for c in TEACH_ORDER if c.code not in ("SA", "D7"))


def test_save_writes_the_documented_format_and_load_reads_it_back(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    deck = full_deck()
    deck.save(path)
    doc = json.loads(path.read_text())
    assert doc["v"] == 1
    assert list(doc["cards"].items())[:2] == [(TAGS[0], "CJ"), (TAGS[1], "SJ")]
    assert len(doc["cards"]) == 32
    loaded = Deck.load(path)
    assert loaded == deck and loaded.is_complete and loaded.source == str(path)
    assert [p.name for p in tmp_path.iterdir()] == ["deck.json"]  # no temp file left behind


def test_save_replaces_an_old_file_whole(tmp_path: Path) -> None:
    path = write(tmp_path / "deck.json", '{"v": 1, "cards": {"OLD": "CJ"}}')
    Deck({"NEW": "SJ"}).save(path)
    assert Deck.load(path) == Deck({"NEW": "SJ"})


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"v": 1, "cards": {"0A00C4E1F2": "XJ"}}', ["entry '0A00C4E1F2'", "XJ"]),
        ('{"v": 1, "cards": {"0A00C4E1F2": 7}}', ["entry '0A00C4E1F2'", "card code"]),
        ('{"v": 1, "cards": {"0A": "CJ", "0B": "SA", "0C": "cj"}}', ["CJ (Kreuz Bube) appears twice", "'0A'", "'0C'"]),
        ('{"v": 1, "cards": {"0A": "CJ", "0A": "SA"}}', ["entry '0A' appears twice"]),
        ('{"v": 1, "cards": {"0a": "CJ", "0A": "SA"}}', ["payload '0A' appears twice"]),
        ('{"v": 1, "cards": {"SA": "CJ"}}', ["entry 'SA'", "card code SA"]),
        ('{"v": 1, "cards": {" ": "CJ"}}', ["payload is empty"]),
        ('{"v": 2, "cards": {}}', ["field 'v'", "2"]),
        ('{"cards": {}}', ["field 'v'"]),
        ('{"v": 1, "cards": ["CJ"]}', ["field 'cards'"]),
        ('["CJ"]', ["JSON object"]),
        ('{"v": 1, "cards": {', ["not JSON", "column 20"]),
            ('{"v": 1, "barcode": "qr", "cards": {}}', ["field 'barcode'", "qr", "ean13"]),
            ('{"v": 1, "barcode": "ean13", "cards": {"4006381333932": "CJ"}}', ["4006381333932", "check digit"]),
            ('{"v": 1, "cards": ' + '[' * 5000 + ']' * 5000 + '}', ["nested more than 64 deep"]),
    ],
)
def test_a_bad_deck_file_names_the_file_and_the_entry(tmp_path: Path, text: str, words: list[str]) -> None:
    path = write(tmp_path / "club-deck.json", text)
    with pytest.raises(DeckError) as caught:
        Deck.load(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    for word in words:
        assert word in message
    assert isinstance(caught.value, ValueError)


def test_a_missing_deck_file_is_a_deck_error(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="absent.json: cannot read"):
        Deck.load(tmp_path / "absent.json")


# -- teach-in --------------------------------------------------------------------------------


def test_learner_walks_the_32_cards_and_builds_a_complete_deck() -> None:
    learner = DeckLearner()
    for i, tag in enumerate(TAGS):
        assert learner.prompt() == f"Bitte {TEACH_ORDER[i].german} auflegen ({i + 1}/32)"
        step = learner.offer(tag.lower())
        assert step.accepted and step.card == TEACH_ORDER[i]
    assert learner.done and learner.expected is None
    assert learner.deck() == full_deck()
    with pytest.raises(RuntimeError):
        learner.offer("0B")


def test_learner_refuses_a_tag_already_used_and_says_for_which_card() -> None:
    learner = DeckLearner()
    learner.offer(TAGS[0])
    learner.offer(TAGS[1])
    step = learner.offer(TAGS[0].lower())
    assert not step.accepted
    assert step.message == "Dieser Chip ist schon Kreuz Bube – bitte Herz Bube auflegen"
    assert learner.expected == Card.parse("HJ")


def test_learner_refuses_the_barcode_of_another_card_but_takes_its_own() -> None:
    learner = DeckLearner()
    refused = learner.offer("SA")
    assert not refused.accepted and refused.message == "Dieser Code ist Pik Ass, nicht Kreuz Bube"
    assert learner.offer("cj").accepted
    assert learner.deck().lookup("CJ") == Card.parse("CJ")


# -- skattisch deck show ---------------------------------------------------------------------


def test_deck_show_prints_the_mapping_and_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deck.json"
    Deck({"0A00C4E1F2": "SJ", "0A00C4E1F3": "CJ"}).save(path)
    assert main(["deck", "show", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["CJ", "Kreuz", "Bube", "0A00C4E1F3"]
    assert lines[1].split() == ["SJ", "Pik", "Bube", "0A00C4E1F2"]
    assert lines[2].startswith("fehlen (30): HJ DJ CA")


def test_deck_show_json_and_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deck.json"
    full_deck().save(path)
    assert main(["deck", "show", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == full_deck().to_json()
    write(path, '{"v": 1, "cards": {"0A": "CJ", "0B": "CJ"}}')
    assert main(["deck", "show", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "CJ (Kreuz Bube) appears twice" in err


def test_deck_learn_refuses_an_output_folder_that_does_not_exist(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "nowhere" / "deck.json"
    assert main(["deck", "learn", "--port", str(tmp_path / "no-reader"), "--out", str(out)]) == 2
    assert "nowhere" in capsys.readouterr().err


# -- skattisch deck learn, driven over a pty -------------------------------------------------


@pytest.fixture
def device(tmp_path: Path) -> Iterator[PtyDevice]:
    dev = PtyDevice(tmp_path / "dev")
    yield dev
    dev.close()


@pytest.fixture
def learn(device: PtyDevice, tmp_path: Path) -> Iterator[tuple[Cli, Path]]:
    out = tmp_path / "out" / "deck.json"
    out.parent.mkdir()
    # Debounce off: each frame written is one offer (repeats are the reader tests' business).
    run = Cli("deck", "learn", "--port", device.path, "--mode", "rdm6300", "--out", str(out), "--debounce-ms", "0")
    assert run.line() == "Bitte Kreuz Bube auflegen (1/32)"
    assert run.line() == "Kartenleser bereit"  # only now is the port open to hear the tags
    yield run, out
    run.kill()


def test_deck_learn_reads_32_cards_refuses_a_used_tag_and_writes_the_deck(
    device: PtyDevice, learn: tuple[Cli, Path]
) -> None:
    run, out = learn
    for i, tag in enumerate(TAGS):
        if i == 2:
            lay(device, TAGS[0])  # Kreuz Bube's tag again
            assert run.line() == "  ✗ Dieser Chip ist schon Kreuz Bube – bitte Herz Bube auflegen"
            assert run.line() == "Bitte Herz Bube auflegen (3/32)"
        if i == 5:
            device.write(b"\x020A0000FFFF00\x03")  # a bad checksum: nothing to offer
        lay(device, tag)
        assert run.line() == f"  ok {TEACH_ORDER[i].german}: {tag}"
        if i < 31:
            assert run.line() == f"Bitte {TEACH_ORDER[i + 1].german} auflegen ({i + 2}/32)"
    assert run.line() == f"Kartendatei {out} geschrieben (32 Karten)"
    code, err = run.finish()
    assert code == 0, err
    assert Deck.load(out) == full_deck()


def test_deck_learn_aborted_with_ctrl_c_writes_nothing(device: PtyDevice, learn: tuple[Cli, Path]) -> None:
    run, out = learn
    for i in range(3):
        lay(device, TAGS[i])
        assert run.line().startswith("  ok ")
        assert run.line().startswith("Bitte ")
    code, _ = run.interrupt()
    assert code == 130
    assert list(out.parent.iterdir()) == []


def test_deck_learn_waits_across_an_unplug(device: PtyDevice, learn: tuple[Cli, Path]) -> None:
    run, _ = learn
    lay(device, TAGS[0])
    assert run.line().startswith("  ok Kreuz Bube")
    assert run.line().startswith("Bitte Pik Bube")
    device.unplug()
    assert run.line().startswith("Warte auf Kartenleser – ")
    device.plug()
    assert run.line() == "Kartenleser bereit"
    lay(device, TAGS[1])
    assert run.line() == f"  ok Pik Bube: {TAGS[1]}"

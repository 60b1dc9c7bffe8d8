"""The words for the facts the table's snapshot carries, German and English (the core
says what happened, the screen words it). A sibling of :mod:`ui.i18n` (the screen's own words)
and :mod:`ui.refusal_words` (the refusals); each function takes a snapshot view (or its facts)
and a language ("de" or "en"; default: the current one, :func:`ui.i18n.language`).

>>> game_text(5, 36, "de"), game_text(5, None, "en")
('Spiel 5 von 36', 'Game 5')
>>> bock_text(3, 2, 0, "de"), bock_text(1, 4, 0, "en"), bock_text(0, 1, 3, "de"), bock_text(0, 1, 0, "en")
('Bock (noch 3 Spiele)', 'Bock ×4 (1 game left)', 'Ramschrunde (noch 3 Spiele)', '')
>>> scoring_label("classic", "de"), scoring_label("classic", "en")
('klassisch', 'classic')
"""

from __future__ import annotations

from typing import Any

from device.table.rotation import POSITION_NAMES
from ui.i18n import ENGLISH, GERMAN, card_words, language
from ui.refusal_words import bidding_prompt as _bidding_prompt, bock_status

WORDS: dict[str, dict[str, str]] = {
    "de": {
        "game_of": "Spiel {n} von {total}",
        "game": "Spiel {n}",
        "declare_skat_or_hand": "{name} spielt ({bid}): Skat aufnehmen oder Hand ansagen",
        "declare_tournee": "{name} spielt ({bid}): Tournee (Skatkarte aufdecken), ohne Skat oder Guckser",
        "declare_turned": "{card} aufgedeckt: Skat aufnehmen oder die zweite Karte aufdecken",
        "declare_turned_second": "{card} als zweite Karte aufgedeckt: Skat aufnehmen",
        "declare_push": "{name}: die zwei gedrückten Karten scannen (oder am Ende) und das Spiel ansagen",
        "declare_now": "{name}: Spiel ansagen",
        "said_hold": "ja",
        "said_pass": "passe",
        "ramsch_prompt": "Ramsch: Augen und Stiche jedes Spielers, die Augen im Skat und wer den letzten Stich hatte",
        "matadors_missing": "Spitzen fehlen: bitte mit/ohne … eingeben",
        "spitze_missing": "Spitze gemacht? (den letzten Stich mit dem niedrigsten Trumpf)",
        "result_not_possible": "Ergebnis nicht möglich: {problem}",
        "to_confirm": "Es bestätigen noch: {who}",
        "to_confirm_and": " und ",
        "confirm_declarer": "Alleinspieler ({name})",
        "confirm_defender": "ein Gegenspieler",
        "confirm_two_players": "Es bestätigen zwei Spieler dieses Ramsch",
        "ending_null_lost": "Null verloren: Stich bekommen",
        "ending_declarer_gave_up": "Alleinspieler hat aufgegeben",
        "ending_defenders_gave_up": "Gegenspieler haben aufgegeben",
        "ending_gift": "Die Gegenspieler haben geschenkt, der Alleinspieler hat angenommen",
        "ending_declarer_violation": "Regelverstoß des Alleinspielers",
        "ending_defenders_violation": "Regelverstoß der Gegenspieler",
        "ending_null_overbid": "Null nicht mehr durchführbar: sofort verloren (ISkO 3.4.4)",
        "note_false_following": "Falsch bedient im {trick}. Stich: {position} gab {discarded} auf {led} und spielte "
                                "später {card}",
        "note_revoke": "Falsch bedient im {trick}. Stich ({card})",
        "note_overbid_null": "{game} ({value}) nach Reizwert {bid}: gewertet als das Farb- oder Grandspiel, das mit "
                             "seinen Spitzen den Reizwert am knappsten erreicht",
    },
    "en": {
        "game_of": "Game {n} of {total}",
        "game": "Game {n}",
        "declare_skat_or_hand": "{name} plays ({bid}): take the skat or declare Hand",
        "declare_tournee": "{name} plays ({bid}): Tournee (turn a skat card), without the skat or Guckser",
        "declare_turned": "{card} turned up: take the skat or turn the second card",
        "declare_turned_second": "{card} turned up as the second card: take the skat",
        "declare_push": "{name}: scan the two discarded cards (or at the end) and declare the game",
        "declare_now": "{name}: declare the game",
        "said_hold": "yes",
        "said_pass": "pass",
        "ramsch_prompt": "Ramsch: each player's points and tricks, the points in the skat and who took the last trick",
        "matadors_missing": "Matadors missing: please enter with/without …",
        "spitze_missing": "Spitze made? (the last trick with the lowest trump)",
        "result_not_possible": "Result not possible: {problem}",
        "to_confirm": "Still to confirm: {who}",
        "to_confirm_and": " and ",
        "confirm_declarer": "the declarer ({name})",
        "confirm_defender": "a defender",
        "confirm_two_players": "Two players confirm this Ramsch",
        "ending_null_lost": "Null lost: took a trick",
        "ending_declarer_gave_up": "The declarer gave up",
        "ending_defenders_gave_up": "The defenders gave up",
        "ending_gift": "The defenders gave the game, the declarer accepted",
        "ending_declarer_violation": "Rule violation by the declarer",
        "ending_defenders_violation": "Rule violation by the defenders",
        "ending_null_overbid": "Null below the bid: lost at once (ISkO 3.4.4)",
        "note_false_following": "False following in trick {trick}: {position} gave {discarded} on {led} and later "
                                "played {card}",
        "note_revoke": "False following in trick {trick} ({card})",
        "note_overbid_null": "{game} ({value}) after a bid of {bid}: scored as the suit or Grand game that reaches "
                             "the bid most narrowly with his matadors",
    },
}


def words(key: str, lang: str | None = None, **values: object) -> str:
    """The text for ``key`` in ``lang`` with its ``{placeholders}`` filled in."""
    return WORDS[lang or language()][key].format(**values)


def game_text(game_no: int, series_length: int | None, lang: str | None = None) -> str:
    """Game n of the series ("Spiel 5 von 36"; "Spiel 5" for an open series)."""
    if series_length:
        return words("game_of", lang, n=game_no, total=series_length)
    return words("game", lang, n=game_no)


def bock_text(bock_games: int, bock_factor: int, ramsch_games: int, lang: str | None = None) -> str:
    """The Bock status line (the snapshot's ``bock_games``, ``bock_factor``, ``ramsch_games``);
    worded in :func:`ui.refusal_words.bock_status` (a refusal carries it too)."""
    return bock_status(bock_games, bock_factor, ramsch_games, lang or language())


def scoring_label(system: str, lang: str | None = None) -> str:
    """A scoring system's name (``ListView.system``: "seeger_fabian", "classic", "bierlachs")."""
    return (ENGLISH if (lang or language()) == "en" else GERMAN)[f"scoring_{system}"]


def declaration_prompt(view: Any, lang: str | None = None) -> str:
    """What the declarer does now (the snapshot's ``DeclarationView``): take the skat or declare
    Hand, push the two cards, or declare."""
    turned = view.turned
    if not view.skat_taken and turned is not None:  # Tournée-Skat: the card turned up decides the trump
        return words("declare_turned_second" if view.turned_second else "declare_turned", lang,
                     card=card_words(turned, lang))
    if not view.skat_taken and view.form == "tournee":
        return words("declare_tournee", lang, name=view.declarer_name, bid=view.bid)
    if not view.skat_taken:
        return words("declare_skat_or_hand", lang, name=view.declarer_name, bid=view.bid)
    return words("declare_push" if len(view.skat) < 2 else "declare_now", lang, name=view.declarer_name)


def ramsch_prompt(lang: str | None = None) -> str:
    """What the table enters for a Ramsch."""
    return words("ramsch_prompt", lang)


def result_text(result: Any, lang: str | None = None) -> str:
    """The result (the snapshot's ``ResultView``) as the list entry, or why it cannot be scored yet."""
    if result.needs_matadors:
        return words("matadors_missing", lang)
    if result.needs_spitze:
        return words("spitze_missing", lang)
    if result.problem is not None and not result.text:
        german = (lang or language()) == "de" and result.problem_german
        return words("result_not_possible", lang, problem=german or result.problem)
    return str(result.text_en if (lang or language()) == "en" and result.text_en else result.text)


def ending_text(ending: str | None, lang: str | None = None) -> str:
    """How a game ended early (``ResultView.ending``: "null_lost", "declarer_gave_up", …); "" if
    played out. An ending without words shows as its code.

    >>> ending_text("defenders_gave_up", "de"), ending_text("defenders_gave_up", "en"), ending_text(None)
    ('Gegenspieler haben aufgegeben', 'The defenders gave up', '')
    """
    if ending is None:
        return ""
    return WORDS[lang or language()].get(f"ending_{ending}", ending)


def to_confirm_text(result: Any, lang: str | None = None) -> str:
    """Who still confirms the result (``ResultView.to_confirm``): "Es bestätigen noch:
    Alleinspieler (Carla) und ein Gegenspieler"; a Ramsch: two players; "" when nobody."""
    if result.to_confirm == ("two_players",):
        return words("confirm_two_players", lang)
    if result.declarer_name is None:
        return ""
    who = [words(f"confirm_{part}", lang, name=result.declarer_name) for part in result.to_confirm]
    return words("to_confirm", lang, who=words("to_confirm_and", lang).join(who))


def bidding_prompt(bidding: Any, positions: tuple[str, ...], lang: str | None = None) -> str:
    """Who speaks to whom (the snapshot's ``BiddingView``; ``positions``: the names of Vorhand,
    Mittelhand, Hinterhand): "Mittelhand (Carla) sagt 18 — Vorhand (Bernd): ja / passe"."""
    facts = {"speaker": bidding.speaker, "partner": bidding.partner, "role": bidding.role,
             "current": bidding.current, "may_bid": bool(bidding.values),
             "lowest": bidding.values[0] if bidding.values else None}  # Vorhand alone: 18, Tournée's 10
    return _bidding_prompt(facts, lang or language(), tuple(positions))


def bidding_history(bidding: Any, positions: tuple[str, ...], lang: str | None = None) -> tuple[str, ...]:
    """What was said so far, oldest first: "Mittelhand (Carla): 18", "Vorhand (Bernd): ja"."""
    return tuple(f"{POSITION_NAMES[said.position]} ({positions[said.position]}): "
                 + (str(said.value) if said.kind == "bid" else words(f"said_{said.kind}", lang))
                 for said in bidding.history)


#: The Null games by their value (ISkO 3.2.4), as players say them in either language.
NULL_GAMES = {23: "Null", 35: "Null Hand", 46: "Null ouvert", 59: "Null ouvert Hand"}


def note_text(result: Any, lang: str | None = None) -> str:
    """The result's note (the snapshot's ``ResultView``): the false following accepted, one the
    cards show, or an overbid Null (ISkO 3.4.4); "" if none."""
    if result.overbid_null is not None:
        value, bid = result.overbid_null
        return words("note_overbid_null", lang, game=NULL_GAMES.get(value, "Null"), value=value, bid=bid)
    question = result.false_following
    if question is not None:
        cards = {name: card_words(getattr(question, name), lang) for name in ("discarded", "led", "card")}
        return words("note_false_following", lang, trick=question.trick, position=POSITION_NAMES[question.position],
                     **cards)
    if result.revoke is not None:
        trick, card = result.revoke
        return words("note_revoke", lang, trick=trick, card=card)
    return ""

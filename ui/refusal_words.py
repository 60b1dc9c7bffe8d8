"""The words for the table service's refusals, German and English (the German is the screen's
default; the English is also what ``skattisch run`` prints).

A refusal (:class:`device.table.flow.Refusal`) says what happened: a ``key`` and its
``values``. Each key has a text per language with ``{placeholders}`` for the values;
``{name|way}`` words a value in the language's own way (a card code as "Kreuz Bube", a
position number as "Vorhand", …, see :data:`WAYS`).

>>> refusal_words("not_a_bid_value", {"value": 19}, "de")
'19 ist nach der ISkO kein Reizwert (18, 20, 22, 23, 24, 27, …)'
>>> refusal_words("not_a_bid_value", {"value": 23, "profile": "texas"}, "de")
'23 ist im Texas-Skat kein Reizwert (18, 20, 22, 24, 27, 30, …)'
>>> refusal_words("record_not_in_profile", {"problem_field": "bid", "shown": 23, "profile": "texas"}, "de")
'Im Texas-Skat nicht erlaubt — Reizwert 23'
>>> refusal_words("record_not_in_profile", {"problem_field": "hand", "shown": True, "profile": "danish", "game": "null"}, "de")
'Im Dänischen Skat nicht erlaubt — Nul Hand'
>>> refusal_words("declaration_not_in_profile", {"profile": "danish", "shown": "Nul Hand"}, "de")
'Im Dänischen Skat nicht erlaubt — Nul Hand'
>>> refusal_words("card_in_skat", {"card": "CJ"}, "de"), refusal_words("card_in_skat", {"card": "CJ"}, "en")
('Kreuz Bube liegt im Skat', 'CJ in the skat')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from device.bidding import LOWEST_BID
from device.cards import Card, Suit
from device.declaration import Declaration
from device.errors import SkatError
from device.games import GameType
from device.profile import PROFILES
from device.table.rules import bid_ladder
from device.table.rotation import POSITION_NAMES

REFUSALS_DE: dict[str, str] = {
    "already_agreed": "{seat|seat_name} hat schon zugestimmt",
    "already_confirmed": "{seat|seat_name} hat schon bestätigt",
    "already_confirmed_list": "{seat|seat_name} hat schon bestätigt",
    "announced_not_hand": "Schneider oder Schwarz ansagen geht nur im Handspiel (ISkO 5.2.5)",
    "answer_hold_or_pass": "{position|position} ({player}) antwortet auf {current} mit „ja“ oder „passe“",
    "bad_bierlachs_limit": "Die Bierlachs-Grenze ist eine Zahl von 1 bis {most} (z. B. 301)",
    "bad_bock": "Bock: mindestens ein Spiel",
    "bad_card": "Das ist keine Karte",
    "bad_end_how": "Unbekanntes Spielende",
    "bad_entry": "Spiel {entry} steht nicht auf der Liste",
    "bad_matadors": "Spitzen: mit 1 bis {most} oder ohne 1 bis {most}",
    "bad_name_characters": "Ein Name darf keine Steuerzeichen oder Schreibrichtungszeichen enthalten ({shown})",
    "bad_name_length": "Ein Name hat 1 bis {most} Zeichen",
    "bad_position": "Unbekannte Position: Vorhand, Mittelhand oder Hinterhand",
    "bad_profile": "Unbekanntes Regelprofil {profile!r}",
    "profile_not_at_table": "Das Regelprofil {profile!r} wird am Tisch nicht gespielt (nur {offered})",
    "declaration_not_in_profile": "{profile|profile_in_cap} nicht erlaubt — {shown}",
    "bad_scoring": "Unbekanntes Wertungssystem: Seeger-Fabian, klassisch oder Bierlachs",
    "bad_seat": "Diesen Platz gibt es nicht (Platz 1 bis {table_size})",
    "bad_series_length": "Spielzahl {length!r}: 1 bis {most} Spiele oder offen",
    "bad_stake": "Einsatz pro Punkt: eine Zahl wie 1, 1/4 oder 0,5 (Cent), höchstens {most}",
    "bad_table_size": "Am Tisch sitzen 3, 4 oder 5 Spieler, nicht {players}",
    "bid_only_pass": "{current} ist das höchste Gebot: {position|position} ({player}) kann nur passen",
    "bid_play_or_pass": "{position|position} ({player}) spielt für 18 oder passt (ISkO 3.3.6)",
    "bid_refused": "Nicht möglich: {error}",
    "bid_too_low": "{position|position} ({player}) muss mehr als {current} sagen: mindestens {min_value}",
    "bierlachs_five": "Bierlachs zu fünft: bitte eine Grenze vereinbaren (z. B. 501)",
    "bock_open": "Erst die offenen Bockrunden zu Ende spielen ({bock_deals|bock_status})",
    "button_does_nothing": "Diese Taste hat hier keine Funktion",
    "card_in_skat": "{card|card} liegt im Skat",
    "card_turned": "{card|card} ist schon aufgedeckt",
    "turn_not_in_profile": "Eine Skatkarte aufdecken gibt es nur im Tournee-Skat, nicht {profile|profile_in}",
    "turn_after_skat": "Der Skat ist schon aufgenommen: keine Karte mehr aufdecken",
    "turned_twice": "Die zweite Skatkarte ist schon aufgedeckt",
    "turn_card_first": "Tournee: erst eine Skatkarte aufdecken (scannen oder „Karte wählen“)",
    "turned_first": "Die erste Karte ist aufgedeckt: Tournee, nicht mit der zweiten Karte",
    "turned_second": "Die zweite Karte ist aufgedeckt: Tournee mit der zweiten Karte",
    "turned_card_decides": "{card|card} aufgedeckt: diese Karte bestimmt den Trumpf",
    "hand_after_turn": "Nach dem Aufdecken kein Spiel ohne Skat (Solo, Null, Grand ouvert)",
    "null_overbid_not_in_profile": "{shown} ist {profile|profile_in} nach diesem Reizwert nicht spielbar: überreizt",
    "card_played": "{card|card} wurde schon gespielt ({position|position}, {trick}. Stich)",
    "cards_played": "Es wurden schon Karten erfasst: zu Ende spielen, Spiel beenden oder Karten zurücknehmen",
    "cards_show_matadors": "Die Karten zeigen {known|matadors}",
    "correction_open": "Erst die offene Korrektur abschließen oder zurückziehen",
    "correction_undecided": "Erst über die Korrektur entscheiden",
    "declarer_not_at_game": "Alleinspieler muss einer der drei Spieler von Spiel {entry} sein",
    "declarer_not_in_record": "Alleinspieler im Spielbericht passt nicht zum gewählten Platz",
    "false_following": "{position|position} ({player}) hat im {trick}. Stich {follow|follow} nicht bedient ({discarded|card} auf {led|card}) und spielt jetzt {card|card}: falsch bedient (ISkO 4.2.4) oder falsch gescannt?",
    "game_running": "Erst das laufende Spiel beenden oder zurücknehmen",
    "automatic_gift_too_late": "Automatisch geschenkt wird vor der ersten Karte, ohne Schenken-Angebot",
    "not_an_automatic_gift": "Automatisch geschenkt nur Karo bei 18, Karo oder Herz bei 20 (Reizwert {bid}), ohne Kontra und ohne weitere Ansage",
    "no_automatic_gift_in_profile": "Automatisches Schenken gibt es {profile|profile_in} nicht",
    "gift_after_schwarz": "Weitergespielt auf Schwarz: jetzt wird nicht mehr geschenkt",
    "gift_already_offered": "{position|position} ({player}) hat schon „schenken“ gesagt: der Partner stimmt zu oder nicht",
    "gift_answer_by_declarer": "{position|position} ({player}) ist Gegenspieler: annehmen oder weiterspielen sagt der Alleinspieler",
    "gift_by_declarer": "{position|position} ({player}) ist Alleinspieler: schenken können nur die Gegenspieler",
    "gift_not_acceptable": "Das Geschenk geht nicht: {problem_german|or_error}",
    "gift_not_offered": "Erst schenken beide Gegenspieler, dann antwortet der Alleinspieler",
    "gift_nothing_to_decline": "Es gibt kein Angebot des Partners abzulehnen",
    "gift_null_no_play_on": "Null wird nur geschenkt: es gibt keinen Schneider zum Weiterspielen",
    "gift_pending": "Erst das Schenken beantworten (annehmen oder weiterspielen)",
    "gift_too_late": "Zu spät: geschenkt wird vor der ersten Karte ({position|position} ({player}))",
    "gift_waits_for_declarer": "Beide haben geschenkt: jetzt antwortet der Alleinspieler",
    "spitze_card_in_skat": "Spitze geht nicht: {card|card} liegt im Skat",
    "spitze_from_cards": "Ob die Spitze gemacht wurde, zeigen hier die Karten",
    "spitze_null": "Null hat keinen Trumpf: keine Spitze",
    "spitze_said": "Spitze ist schon angesagt ({count})",
    "spitze_too_late": "Spitze wird mit dem Spiel angesagt, vor der ersten Karte und vor dem Schenken",
    "bad_spitze_count": "Spitze: 1 bis {most} Karten, nicht {count}",
    "bad_spitze_made": "Spitze gemacht: ja oder nein",
    "needs_spitze": "Erst angeben, ob die Spitze gemacht wurde",
    "gift_with_spitze": "Mit Spitze wird nicht geschenkt: das Spiel wird gespielt",
    "no_spitze_in_profile": "Spitze gibt es {profile|profile_in} nicht",
    "hand_after_skat": "Nach der Skataufnahme kein Handspiel, kein Ouvert außer Null, keine Ansage (ISkO 3.4.4)",
    "has_passed": "{position|position} ({player}) hat gepasst und reizt nicht mehr mit (ISkO 3.3.8)",
    "hold_not_asked": "{position|position} ({player}) sagt einen Wert oder passt — „ja“ sagt, wer gefragt wird",
    "internal_error": "Interner Fehler, bitte melden: {error}",
    "kontra_after_passing_18": "{position|position} ({player}) hat bei 18 gepasst: kein Kontra",
    "kontra_by_declarer": "{position|position} ({player}) ist Alleinspieler: Kontra sagen die Gegenspieler",
    "kontra_said": "Kontra ist schon gesagt",
    "kontra_too_late": "Zu spät für Kontra ({position|position} ({player}))",
    "list_closed": "Die Liste ist abgeschlossen und kann nicht mehr geändert werden",
    "list_open": "Eine Liste ist noch offen: erst beenden und von allen bestätigen lassen",
    "matadors_differ": "Die Karten zeigen {known|matadors}, nicht {matadors|matadors}",
    "matadors_from_cards": "Die Spitzen ergeben sich hier aus den Karten",
    "matadors_missing": "Bitte die Spitzen angeben (mit/ohne …)",
    "name_at_table": "{name} sitzt schon am Tisch",
    "names_not_different": "Jeder Spieler braucht einen eigenen Namen",
    "needs_matadors": "Erst die Spitzen eingeben (mit/ohne …)",
    "needs_service": "Auslosen macht der Tisch-Dienst",
    "no_bock_in_profile": "Bockrunden gibt es nach diesem Regelprofil nicht",
    "no_card_expected": "Jetzt wird keine Karte erwartet ({phase|waiting})",
    "no_correction": "Es ist keine Korrektur vorgeschlagen",
    "no_declarer_trick": "Der Alleinspieler hat noch keinen Stich",
    "no_kontra_in_profile": "Kontra und Re werden {profile|profile_in} nicht gespielt",
    "no_schenken_in_profile": "Schenken gibt es {profile|profile_in} nicht{profile|schenken_rule}",
    "no_list": "Keine Liste offen: erst eine Liste anlegen",
    "no_next_series": "Der Laptop hat noch keine nächste Serie für diesen Tisch freigegeben",
    "no_question": "Es gibt keine offene Frage",
    "not_a_bid_value": "{value} ist {profile|profile_in} kein Reizwert ({profile|bid_examples})",
    "not_at_round_start": "Spieler kommen und gehen nur zu Beginn einer Runde (ISkO 3.1.2); diese Runde endet nach Spiel {round_ends}",
    "not_now": "Jetzt nicht möglich: {phase|phase_now}",
    "not_your_turn": "{position|position} ({player}) ist nicht an der Reihe — {speaker|bid_prompt}",
    "nothing_to_confirm": "Jetzt gibt es nichts zu bestätigen",
    "nothing_to_undo": "Nichts zurückzunehmen: eingetragene Spiele nur per Korrektur ändern",
    "null_announced": "Null hat kein Schneider oder Schwarz anzusagen",
    "null_no_matadors": "Null hat keine Spitzen",
    "null_only": "Nur ein Nullspiel ist mit einem Stich verloren",
    "other_correction_pending": "Eine andere Korrektur wartet noch auf Zustimmung",
    "ouvert_not_hand": "{game|game} ouvert ist immer ein Handspiel (ISkO 3.4.4, 5.2.6)",
    "points_missing": "Bitte die Augen des Alleinspielers angeben",
    "question_pending": "Erst die Frage entscheiden: falsch bedient oder falsch gescannt?",
    "ramsch_not_possible": "Dieses Ramsch-Ergebnis ist nicht möglich: {error}",
    "ramsch_later_trick": "Gleich wenige Augen: wer von {first_player} und {second_player} hatte den späteren Stich?",
    "re_by_defender": "Re sagt der Alleinspieler",
    "re_too_late": "Zu spät: Re gleich nach dem Kontra",
    "re_without_kontra": "Re gibt es nur als Antwort auf Kontra, einmal",
    "record_not_in_profile": "{profile|profile_in_cap} nicht erlaubt — {problem_field|record_field}",
    "record_not_possible": "Dieser Spielbericht ist nicht möglich: {problem_field|record_problem}",
    "result_impossible": "Das Ergebnis ist nicht möglich: {problem_german|or_problem}",
    "result_not_possible": "Dieses Ergebnis ist nicht möglich: {problem_field|record_problem}",
    "series_already_over": "Die Serie ist schon beendet",
    "series_over": "Die Serie ist beendet",
    "series_over_correct": "Die Serie ist beendet: Einträge nur noch per Korrektur ändern",
    "series_over_no_more_games": "Die Serie ist beendet: keine weiteren Spiele auf dieser Liste",
    "series_running": "Die Serie läuft noch",
    "skat_before_first_card": "Den Skat vor der ersten Karte (gedrückte Karten) oder am Ende eingeben",
    "skat_full": "Der Skat hat schon zwei Karten",
    "skat_known": "Der Skat steht fest: die zwei Karten, die niemand gespielt hat",
    "skat_not_taken": "Erst den Skat aufnehmen, dann die zwei gedrückten Karten",
    "skat_or_hand": "Erst den Skat aufnehmen — oder ein Handspiel ansagen",
    "skat_taken": "Der Skat ist schon aufgenommen",
    "store_failed": "Speichern fehlgeschlagen, nichts wurde eingetragen: {error}",
    "table_full": "Am Tisch sitzen höchstens fünf Spieler",
    "member_ids_count": "{given} Mitgliedskennungen für {players} Spieler",
    "member_id_twice": "Dieselbe Mitgliedskennung für zwei Spieler",
    "playing_card_at_setup": "Spielkarte erkannt: zum Hinsetzen die Mitgliedskarte auflegen",
    "member_card_in_play": "Mitgliedskarte von {member}: jetzt wird eine Spielkarte erwartet",
    "unknown_member_card": "Karte unbekannt: bitte am Laptop anmelden",
    "card_to_laptop": "Karte an den Laptop gemeldet: dort wird sie zugeordnet",
    "seated_elsewhere": "{member} sitzt laut Laptop an {table}: noch einmal auflegen, um hier Platz zu nehmen",
    "table_too_small": "Mindestens drei Spieler müssen bleiben",
    "unknown_card": "Unbekannte Karte ({raw}): {reader_reason}",
    "unknown_command": "Diesen Befehl kennt der Tisch nicht",
    "wrong_confirmer": "{seat|seat_name} spielt dieses Spiel nicht mit: bestätigen müssen der Alleinspieler und ein Gegenspieler (oder der Geber)",
}

REFUSALS_EN: dict[str, str] = {
    "already_agreed": "seat {seat} has already agreed",
    "already_confirmed": "seat {seat} has already confirmed",
    "already_confirmed_list": "seat {seat} has already confirmed",
    "announced_not_hand": "{error}",
    "answer_hold_or_pass": "{position|position} answers {current}: hold or pass",
    "bad_bierlachs_limit": "a Bierlachs limit is a number from 1 to {most}, not {given!r}",
    "bad_bock": "{games!r} Bock games: 1 or more",
    "bad_card": "{card!r} is not a card",
    "bad_end_how": "unknown way to end a game: {how!r}",
    "bad_entry": "entry {entry!r} is not on the list",
    "bad_matadors": "matadors {matadors!r}: 'mit' 1 to {most} or 'ohne' 1 to {most} (negative)",
    "bad_name_characters": "a player's name may not hold control or text-direction characters ({shown})",
    "bad_name_length": "a player's name is 1 to {most} characters, not {name!r}",
    "bad_position": "position {position!r} is not 0 (Vorhand), 1 (Mittelhand) or 2 (Hinterhand)",
    "bad_profile": "{error}",
    "profile_not_at_table": "the rule profile {profile!r} is not played at the table (only {offered})",
    "declaration_not_in_profile": "not allowed {profile|profile_in}: {shown}",
    "bad_scoring": "{error}",
    "bad_seat": "seat {seat!r} is not at this table (0 to {last_seat})",
    "bad_series_length": "series length {length!r}: 1 to {most} games or open-ended",
    "bad_stake": "{error}",
    "bad_table_size": "a table has 3, 4 or 5 players, not {players}",
    "bid_only_pass": "{value} is not allowed now (allowed: {min_value} to {max_value})",
    "bid_play_or_pass": "{value} is not allowed now (allowed: {min_value} to {max_value})",
    "bid_refused": "{error}",
    "bid_too_low": "{value} is not allowed now (allowed: {min_value} to {max_value})",
    "bierlachs_five": "{error}",
    "bock_open": "open Bock rounds are played out first ({bock_deals} deals)",
    "button_does_nothing": "the {button} button does nothing here",
    "card_in_skat": "{card} in the skat",
    "card_turned": "{card} is turned up already",
    "turn_not_in_profile": "turning a skat card is Tournee Skat's, not played {profile|profile_in}",
    "turn_after_skat": "the skat is taken up: no card to turn any more",
    "turned_twice": "the second skat card is turned up already",
    "turn_card_first": "Tournee: turn a skat card up first (scan it or 'pick card')",
    "turned_first": "the first card is turned up: Tournee, not with the second card",
    "turned_second": "the second card is turned up: Tournee with the second card",
    "turned_card_decides": "{card} turned up: that card decides the trump",
    "hand_after_turn": "no game without the skat after turning a card (Solo, Null, Grand ouvert)",
    "null_overbid_not_in_profile": "{shown} cannot be played after this bid {profile|profile_in}: overbid",
    "card_played": "{card} already played by {position|position} in trick {trick}",
    "cards_played": "cards were scanned: finish the play, end it, or undo the cards first",
    "cards_show_matadors": "the cards show {known:+d} matadors",
    "correction_open": "a correction is waiting for consent: finish or withdraw it first",
    "correction_undecided": "first decide the proposed correction",
    "declarer_not_at_game": "the declarer must be one of the seats at game {entry}: {seats}",
    "declarer_not_in_record": "the record's declarer {record_declarer!r} is not position {position} of seat {declarer_seat}",
    "false_following": "{position|position} did not follow {follow|follow} in trick {trick} ({discarded} on {led}) and now plays {card}: false following or a wrong scan?",
    "game_running": "finish or undo the game being played first",
    "automatic_gift_too_late": "a game is given automatically before the first card, without an offer",
    "not_an_automatic_gift": "given automatically only Karo at 18, Karo or Herz at 20 (bid {bid}), without Kontra or more announced",
    "no_automatic_gift_in_profile": "no automatic gift {profile|profile_in}",
    "gift_after_schwarz": "played on for Schwarz: no more gifts",
    "gift_already_offered": "{position|position} ({player}) has offered already: the partner agrees or not",
    "gift_answer_by_declarer": "{position|position} ({player}) is a defender: the declarer accepts or plays on",
    "gift_by_declarer": "{position|position} ({player}) is the declarer: only the defenders give a game",
    "gift_not_acceptable": "the gift cannot be accepted: {error}",
    "gift_not_offered": "both defenders offer first, then the declarer answers",
    "gift_nothing_to_decline": "there is no partner's offer to decline",
    "gift_null_no_play_on": "a Null is only given: there is no Schneider to play on for",
    "gift_pending": "answer the gift first (accept or play on)",
    "gift_too_late": "too late: a game is given before the first card ({position|position} ({player}))",
    "gift_waits_for_declarer": "both have offered: the declarer answers now",
    "spitze_card_in_skat": "no Spitze: {card} is in the skat",
    "spitze_from_cards": "the cards show whether the Spitze was made",
    "spitze_null": "Null has no trumps: no Spitze",
    "spitze_said": "a Spitze is announced already ({count})",
    "spitze_too_late": "a Spitze is announced with the game, before the first card and before a gift",
    "bad_spitze_count": "Spitze: 1 to {most} cards, not {count}",
    "bad_spitze_made": "Spitze made: yes or no",
    "needs_spitze": "say first whether the Spitze was made",
    "gift_with_spitze": "a game with a Spitze is not given: it is played",
    "no_spitze_in_profile": "no Spitze {profile|profile_in}",
    "hand_after_skat": "no hand game after taking up the skat (ISkO 3.4.4)",
    "has_passed": "{position|position} has passed (ISkO 3.3.8)",
    "hold_not_asked": "{position|position} says a value or passes",
    "internal_error": "internal error: {error_repr}",
    "kontra_after_passing_18": "{error}",
    "kontra_by_declarer": "only a defender says Kontra",
    "kontra_said": "Kontra was already said",
    "kontra_too_late": "{error}",
    "list_closed": "the list is closed and read-only",
    "list_open": "a list is open: finish and close it first",
    "matadors_differ": "the cards show {known:+d} matadors, not {matadors:+d}",
    "matadors_from_cards": "the matadors come from the cards here",
    "matadors_missing": "give the matadors",
    "name_at_table": "{name} is already at the table",
    "names_not_different": "every player needs a different name",
    "needs_matadors": "give the matadors first",
    "needs_service": "OpenList with draw is decided by the service (it holds the random generator)",
    "no_bock_in_profile": "this rule profile has no Bock rounds",
    "no_card_expected": "no card is expected now ({phase})",
    "no_correction": "no correction is proposed",
    "no_declarer_trick": "the declarer has not taken a trick yet",
    "no_kontra_in_profile": "no Kontra and Re {profile|profile_in}",
    "no_schenken_in_profile": "no Schenken (giving a game) {profile|profile_in}{profile|schenken_rule}",
    "no_list": "no list is open: set one up first",
    "no_next_series": "the laptop has sent no next series for this table",
    "no_question": "no card is in question",
    "not_a_bid_value": "{value!r} is not a bid value {profile|profile_in} ({profile|bid_examples})",
    "not_at_round_start": "players join or leave only at the start of a round (ISkO 3.1.2)",
    "not_now": "not possible now ({phase})",
    "not_your_turn": "it is not {position|position}'s turn: {speaker|bid_prompt}",
    "nothing_to_confirm": "nothing to confirm now",
    "nothing_to_undo": "nothing to take back in this game",
    "null_announced": "{error}",
    "null_no_matadors": "Null games have no matadors",
    "null_only": "only a Null game is lost by taking a trick",
    "other_correction_pending": "another correction waits for consent",
    "ouvert_not_hand": "{error}",
    "points_missing": "give the declarer's card points",
    "question_pending": "first decide the false-following question",
    "ramsch_not_possible": "{error}",
    "ramsch_later_trick": "{first_player} and {second_player} tie with the fewest points: who took the later trick?",
    "re_by_defender": "only the declarer says Re",
    "re_too_late": "{error}",
    "re_without_kontra": "Re answers a Kontra, once",
    "record_not_in_profile": "not allowed {profile|profile_in}: {problem_field} {shown!r}",
    "record_not_possible": "{error}",
    "result_impossible": "{problem|or_no_result}",
    "result_not_possible": "this result is not possible: {error}",
    "series_already_over": "the series is already over",
    "series_over": "the series is over",
    "series_over_correct": "the series is over: correct entries instead",
    "series_over_no_more_games": "the series is over: no more games on this list",
    "series_running": "the series is still being played",
    "skat_before_first_card": "the skat is entered before the first card (pushed cards) or at the end",
    "skat_full": "the skat has its two cards",
    "skat_known": "the skat is known: it is the two cards nobody played",
    "skat_not_taken": "take up the skat before pushing cards",
    "skat_or_hand": "take up the skat first, or declare a hand game",
    "skat_taken": "the skat is already taken up",
    "store_failed": "the events could not be stored: {error}",
    "table_full": "a table seats at most five players",
    "member_ids_count": "{given} member ids for {players} players",
    "member_id_twice": "one member id for two players",
    "playing_card_at_setup": "a playing card: to sit down, tap the member card",
    "member_card_in_play": "{member}'s member card: a playing card is expected now",
    "unknown_member_card": "unknown card: please register it at the laptop",
    "card_to_laptop": "card sent to the laptop, which assigns it",
    "seated_elsewhere": "{member} is on {table}'s list (says the laptop): tap again to sit here",
    "table_too_small": "at least three players must stay",
    "unknown_card": "unknown card {raw!r}: {reader_reason}",
    "unknown_command": "the table does not know the command {command_type}",
    "wrong_confirmer": "seat {seat} is not at this game: the declarer and a defender (or the dealer) confirm",
}

REFUSALS = {"de": REFUSALS_DE, "en": REFUSALS_EN}

_PHASE_NOW_DE = {
    "bidding": "es wird gereizt",
    "declaring": "das Spiel ist noch nicht angesagt",
    "playing": "das Spiel läuft",
    "ramsch": "das Ramsch-Ergebnis fehlt",
    "result": "das Ergebnis wartet auf Bestätigung",
}
_WAITING_DE = {
    "bidding": "es wird gereizt", "declaring": "erst Skat aufnehmen oder Hand ansagen",
    "result": "das Ergebnis wartet auf Bestätigung", "ramsch": "Ramsch-Ergebnis eingeben",
    "series_over": "die Serie ist beendet", "closed": "die Liste ist abgeschlossen",
    "setup": "keine Liste offen",
}
#: What a player did not follow (by the follow class's value: trumps or a suit).
_FOLLOW_EN = {"trump": "trumps", "C": "Clubs", "S": "Spades", "H": "Hearts", "D": "Diamonds"}
_RECORD_PROBLEM_DE = {
    "declarer_points": "Die Augen passen nicht zu den Stichen",
    "declarer_tricks": "Die Stiche passen nicht zu den Augen",
    "matadors": "Die Spitzen passen nicht zum Spiel",
    "bid": "Der Reizwert passt nicht zum Spiel",
}


#: "nach der ISkO", "im Texas-Skat": where a refusal says what a rule profile does not allow.
_PROFILE_IN = {
    "de": {"isko": "nach der ISkO", "pre1999": "nach der ISkO vor 1999", "kneipe": "nach den Kneipenregeln",
           "texas": "im Texas-Skat", "tournee": "im Tournee-Skat", "danish": "im Dänischen Skat",
           "danish_aarhus": "im Dänischen Skat nach Århus-Regeln"},
    "en": {"isko": "under the ISkO", "pre1999": "under the ISkO before 1999", "kneipe": "under the pub rules",
           "texas": "in Texas Skat", "tournee": "in Tournee Skat", "danish": "in Danish Skat",
           "danish_aarhus": "in Danish Skat (Århus rules)"},
}
_PROFILE_OTHER = {"de": "nach dem Regelprofil „{name}“", "en": "under the rule profile {name!r}"}
_FIELD_DE = {"bid": "Reizwert {shown}", "kontra": "Kontra", "re": "Re", "ouvert": "Ouvert", "hand": "Hand",
             "bock": "Bock {shown}", "schenken": "Schenken", "spitze": "Spitze {shown}",
             "tournee": "ein Spiel ohne Tournee, Solo oder Guckser", "solo": "Solo", "guckser": "Guckser",
             "turned_card": "aufgedeckte Karte {shown}"}


def _profile_in(name: Any, language: str) -> str:
    """Where a refusal says the profile's rules apply; a refusal without one: the ISkO's."""
    name = name or "isko"
    base = str(name).partition("+")[0]  # the club profile with options ("kneipe+spitze"): its rules
    return _PROFILE_IN[language].get(name) or _PROFILE_IN[language].get(base) or _PROFILE_OTHER[language].format(name=name)


def _schenken_rule(name: Any) -> str:
    """The rule that forbids Schenken, where it is the ISkO's: SkWO 9.5 "Es darf nicht geschenkt werden"."""
    return " (SkWO 9.5)" if (name or "isko") in ("isko", "pre1999") else ""


def _bid_examples(name: Any) -> str:
    """The profile's first bid values, as the screen's bid buttons start."""
    ladder = bid_ladder(PROFILES.get(name or "isko", PROFILES["isko"]))
    return ", ".join(str(v) for v in ladder[:6]) + ", …"


def _record_field_de(field: Any, values: Mapping[str, Any]) -> str:
    """A record's field as the table says it, with the value the profile does not allow."""
    shown = values.get("shown")
    if field == "announced" and isinstance(shown, str):
        return f"{shown.capitalize()} angesagt"
    if field == "game" and isinstance(shown, str):
        return GameType.parse(shown).german
    if field == "hand" and isinstance(values.get("game"), str):  # "Nul Hand" in Danish Skat's words
        return _hand_game_de(values["game"], values.get("profile"))
    return _FIELD_DE.get(field, f"{field} {shown}").format(shown=shown)


def _hand_game_de(game: str, profile: Any) -> str:
    """A game played Hand as players of the profile say it: "Kreuz Hand", Danish "Nul Hand"."""
    form = PROFILES.get(profile or "isko", PROFILES["isko"]).form
    try:
        return Declaration.make(GameType.parse(game), hand=True, form=form).describe_de()
    except SkatError:
        return f"{game} Hand"


def _record_problem_de(field: Any, values: Mapping[str, Any]) -> str:
    """The record check's own German, else which count does not fit (never the developer's
    English on the screen)."""
    return str(values.get("problem_german") or _RECORD_PROBLEM_DE.get(field, "Die Zahlen passen nicht zusammen"))


_BOCK_WORDS = {
    "de": ("{n} Spiel", "{n} Spiele", "{head} (noch {games})", "Ramschrunde (noch {games})"),
    "en": ("{n} game", "{n} games", "{head} ({games} left)", "Ramsch round ({games} left)"),
}


def bock_status(bock_games: int, bock_factor: int, ramsch_games: int, language: str) -> str:
    """The Bock status line (here since the ``bock_open`` refusal carries it too): "Bock (noch 3
    Spiele)", "Bock ×4 (…)" for concurrent rounds, "Ramschrunde (noch 3 Spiele)"; "" when none is open.

    >>> bock_status(3, 2, 0, "de"), bock_status(1, 4, 0, "en"), bock_status(0, 1, 3, "de")
    ('Bock (noch 3 Spiele)', 'Bock ×4 (1 game left)', 'Ramschrunde (noch 3 Spiele)')
    """
    one, many, bock, ramsch = _BOCK_WORDS[language]

    def games(n: int) -> str:
        return (one if n == 1 else many).format(n=n)

    if ramsch_games:
        return ramsch.format(games=games(ramsch_games))
    if not bock_games:
        return ""
    return bock.format(head="Bock" if bock_factor == 2 else f"Bock ×{bock_factor}", games=games(bock_games))


_BID_PROMPTS = {
    "de": {"deciding": "{name}: spielen ({lowest}) / passe", "answering": "{partner} sagt {current} — {name}: ja / passe",
           "nothing_left": "{name}: passe — {partner} hat {current}", "bidding": "{name} sagt … — an {partner}{so_far}",
           "so_far": " (bisher {current})"},
    "en": {"deciding": "{name}: play ({lowest}) / pass", "answering": "{partner} says {current} — {name}: yes / pass",
           "nothing_left": "{name}: pass — {partner} has {current}", "bidding": "{name} says … — to {partner}{so_far}",
           "so_far": " (so far {current})"},
}


def bidding_prompt(facts: Mapping[str, Any], language: str, names: tuple[str, ...] = ()) -> str:
    """Who speaks to whom in the bidding, the way players say it (here since the
    ``not_your_turn`` refusal carries it too): ``facts`` has the ``speaker`` and ``partner``
    positions, the ``role`` ("bidding", "answering", "deciding"), the ``current`` value and
    ``may_bid`` (False when 264 is on the table); ``names``: the players of the three
    positions, shown beside them ("Mittelhand (Carla)").

    >>> facts = {"speaker": 1, "partner": 0, "role": "bidding", "current": None, "may_bid": True}
    >>> bidding_prompt(facts, "de"), bidding_prompt({**facts, "current": 18}, "en", ("Bernd", "Carla", "Anna"))
    ('Mittelhand sagt … — an Vorhand', 'Mittelhand (Carla) says … — to Vorhand (Bernd) (so far 18)')
    >>> bidding_prompt({**facts, "role": "answering", "current": 18, "speaker": 0, "partner": 1}, "de")
    'Mittelhand sagt 18 — Vorhand: ja / passe'
    """
    words = _BID_PROMPTS[language]

    def who(position: int) -> str:
        return POSITION_NAMES[position] + (f" ({names[position]})" if names else "")

    name, current = who(facts["speaker"]), facts["current"]
    if facts["role"] == "deciding":
        return words["deciding"].format(name=name, lowest=facts.get("lowest") or LOWEST_BID)
    partner = who(facts["partner"])
    if facts["role"] == "answering":
        return words["answering"].format(partner=partner, current=current, name=name)
    if not facts["may_bid"]:
        return words["nothing_left"].format(name=name, partner=partner, current=current)
    so_far = words["so_far"].format(current=current) if current is not None else ""
    return words["bidding"].format(name=name, partner=partner, so_far=so_far)


Way = Callable[[Any, Mapping[str, Any]], str]

#: ``{name|way}``: how a value is worded, per language (a way missing in a language shows the value).
WAYS: dict[str, dict[str, Way]] = {
    "de": {
        "position": lambda v, _: POSITION_NAMES[v],
        "card": lambda v, _: Card.parse(v).german,
        "game": lambda v, _: GameType(v).german,
        "phase_now": lambda v, _: _PHASE_NOW_DE[v],
        "waiting": lambda v, _: str(_WAITING_DE.get(v, v)),
        "matadors": lambda v, _: f"{'mit' if v > 0 else 'ohne'} {abs(v)}",
        "seat_name": lambda v, values: f"Platz {v + 1} ({values['player']})",
        "follow": lambda v, _: "Trumpf" if v == "trump" else Suit(v).german,
        "record_problem": _record_problem_de,
        "bock_status": lambda v, values: bock_status(v, values["bock_factor"], values["ramsch_games"], "de"),
        "bid_prompt": lambda v, values: bidding_prompt(values, "de"),
        "profile_in": lambda v, _: _profile_in(v, "de"),
        "profile_in_cap": lambda v, _: _profile_in(v, "de")[:1].upper() + _profile_in(v, "de")[1:],
        "bid_examples": lambda v, _: _bid_examples(v),
        "record_field": _record_field_de,
        "schenken_rule": lambda v, _: _schenken_rule(v),
        "or_error": lambda v, values: str(v or values.get("error", "")),
        "or_problem": lambda v, values: str(v or values.get("problem", "")),
    },
    "en": {
        "position": lambda v, _: POSITION_NAMES[v],
        "follow": lambda v, _: _FOLLOW_EN[v],
        "or_no_result": lambda v, _: v or "no result",
        "bid_prompt": lambda v, values: bidding_prompt(values, "en"),
        "profile_in": lambda v, _: _profile_in(v, "en"),
        "bid_examples": lambda v, _: _bid_examples(v),
        "schenken_rule": lambda v, _: _schenken_rule(v),
    },
}

_WORDED = re.compile(r"\{(\w+)\|(\w+)\}")


def refusal_words(key: str, values: Mapping[str, Any], language: str) -> str:
    """A refusal in ``language``'s words; an unknown key comes back as itself with its values
    (a missing word shows on screen instead of crashing the table)."""
    template = REFUSALS[language].get(key)
    if template is None:
        return " ".join([key, *(f"{name}={value!r}" for name, value in values.items())])
    ways = WAYS[language]
    worded = dict(values)

    def word(match: re.Match[str]) -> str:
        name, way = match.groups()
        # a value the refusal does not carry (an older one) is worded as None: "nach der ISkO"
        shown = ways[way](values.get(name), values) if way in ways else str(values.get(name))
        worded[f"{name}__{way}"] = shown
        return "{" + f"{name}__{way}" + "}"

    return _WORDED.sub(word, template).format(**worded)

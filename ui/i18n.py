"""The table screen's words: German by default, English selectable.

(One module over 600 lines on purpose: the German and the English table side by side, so each
key's two texts are found and checked together; the refusals' words are in ui/refusal_words.py.)

Screens never hold a literal text: they ask :func:`tr` for a key. The German table is the
reference; the English one must have the same keys (a test checks it) and the same
``{placeholders}``. The Skat terms English players use as they are (Vorhand, Schneider,
Schwarz, Hand, Grand, Null, ouvert, Kontra, Bock, …) stay German in the English table too;
the suits are Clubs, Spades, Hearts, Diamonds, and an eingepasst deal is "passed in".

The texts the rules word themselves (the result as the list entry, the list's rows) come in the snapshot in German with an English counterpart
beside them (``text`` / ``text_en``): :func:`pick` chooses the one for the current language. A
refusal says what happened (a key and its values): :func:`refusal_text` words it; the other
facts of the snapshot (prompts, endings, notes, …) are worded in :mod:`ui.table_words`.

>>> set_language("de"); tr("pass")
'passe'
>>> tr("sync_upto", game=17)
'synchronisiert bis Spiel 17'
>>> set_language("en"); tr("sync_upto", game=17)
'synced up to game 17'
>>> set_language("de"); tr("no_such_key")
'no_such_key'
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

LANGUAGES = ("de", "en")

GERMAN: dict[str, str] = {
    # status bar
    "table_n": "Tisch {number}",
    "reader_ok": "Leser",
    "reader_off": "Leser fehlt",
    "reader_none": "ohne Leser",
    "reader_simulated": "Simulation",
    "passed_in_game": "Spiel {n}: eingepasst",
    "entered_game": "Spiel {n} steht in der Liste",
    "corrected_game": "Spiel {n} ist berichtigt",
    "sync_upto": "synchronisiert bis Spiel {game}",
    "sync_none": "nicht synchronisiert",
    "sync_off": "ohne Sync",
    "sync_no_laptop": "ohne Laptop",
    "sync_all": "synchronisiert",
    "sync_error": "Sync gestört",
    "panel_missing": "Tastenfeld fehlt",
    "panel_missing_help": "Tastenfeld fehlt – Kabel prüfen, dann den Tisch aus- und wieder einschalten. "
                          "Bis dahin läuft der Tisch ohne Tasten weiter: alles auf dem Bildschirm tippen.",
    "game_n_of": "Spiel {n}/{total}",
    "game_n": "Spiel {n}",
    "dealer_is": "Geber: {name}",
    "sits_out": "(sitzt aus)",
    "sit_out": "sitzt aus: {names}",
    # common buttons
    "list": "Liste",
    "back": "zurück",
    "next": "weiter",
    "confirm": "bestätigen",
    "close": "schließen",
    "cancel": "abbrechen",
    "ok": "OK",
    "settings": "Einstellungen",
    "version": "Skattisch {version}",
    "simulated": "Simulation",
    "panel_confirm": "Taste ✔",
    "panel_back": "Taste ↩",
    # setup
    "setup_title": "Neue Liste",
    "players": "Spieler",
    "player_n": "Platz {n}",
    "add_player": "Spieler +",
    "remove_player": "Spieler −",
    "new_name": "Name",
    "draw_seats": "Auslosen",
    "series_length": "Spiele",
    "scoring_system": "Wertung",
    "variants": "Varianten",
    "choose_profile": "Regeln wählen",
    "stake": "Einsatz",
    "stake_cents": "{cents} ct je Punkt",
    "start_list": "Liste beginnen",
    "start_next_series": "Diese Liste beginnen",
    "roster": "Vereinsliste",
    # game / bidding
    "forehand": "Vorhand",
    "middlehand": "Mittelhand",
    "rearhand": "Hinterhand",
    "pass": "passe",
    "hold": "ja",
    "more_values": "mehr …",
    "fewer_values": "… zurück",
    "passed_in": "eingepasst",
    "result_direct": "Ergebnis direkt",
    # declaration
    "declare_title": "{name} spielt, gereizt {bid}",
    "hand": "Hand",
    "schneider_announced": "Schneider angesagt",
    "schwarz_announced": "Schwarz angesagt",
    "ouvert": "Ouvert",
    "kontra": "Kontra",
    "re": "Re",
    "skat_taken": "Skat aufgenommen",
    "game_clubs": "Kreuz",
    "game_spades": "Pik",
    "game_hearts": "Herz",
    "game_diamonds": "Karo",
    "game_grand": "Grand",
    "game_null": "Null",
    # play
    "trick_n": "Stich {n}",
    "declarer": "Alleinspieler",
    "defenders": "Gegenspieler",
    "points": "Augen",
    "tricks": "Stiche",
    "pick_card": "Karte wählen",
    "shorten": "Spiel abkürzen",
    "undo_card": "letzte Karte zurück",
    "done": "fertig",
    "wins_trick": "→ {name}",
    # result
    "result_title": "Ergebnis",
    "won": "gewonnen",
    "lost": "verloren",
    # list
    "list_title": "Spielliste",
    "col_no": "Nr",
    "col_dealer": "Geber",
    "col_game": "Spiel",
    "standing": "Stand",
    "corrected": "berichtigt",
    "no_games_yet": "Noch kein Spiel in der Liste.",
    # end of series
    "end_title": "Ende der Serie",
    "ranking": "Platzierung",
    "settlement": "Abrechnung",
    "chart": "Verlauf",
    "pays": "{who} zahlt {amount} an {whom}",
    # settings
    "pin_prompt": "Vereins-PIN eingeben",
    "pair_laptop": "Laptop koppeln",
    "pair_prompt": "Code vom Laptop (6 Ziffern)",
    "paired_with": "Gekoppelt mit {laptop}",
    "pair_failed": "Koppeln ging nicht: {reason}",
    "pair_unavailable": "Koppeln braucht den Speicher des Tisches (nicht in der Simulation ohne --config)",
    "laptop": "Laptop",
    "pin_wrong": "Falsche PIN",
    "table_number": "Tischnummer",
    "reader_port": "Leser-Anschluss",
    "deck_teach": "Kartensatz anlernen",
    "gpio_test": "Tasten-Test",
    "sync_target": "Sync-Ziel",
    "language": "Sprache",
    "shutdown": "Ausschalten",
    # messages
    "why_greyed": "Nicht möglich",
    "internal_error": "Interner Fehler, bitte melden",
    "not_possible_now": "Jetzt nicht möglich",
    "choose_game_first": "Erst ein Spiel wählen",
    "word_not_in_game": "{word} gibt es bei {game} nicht",
    "card_unknown": "Unbekannte Karte: {reason}",
    "step_refused": "Nicht möglich: {reason}",
    # added for the screens
    "rules": "Regeln",
    "matadors_title": "Spitzen: mit oder ohne wie viele?",
    "party_line_one": "{party}:  {points} Augen · 1 Stich",
    "no_money": "ohne Geld",
    "n_games": "{n} Spiele",
    "open_ended": "offen",
    "scoring_seeger_fabian": "Seeger-Fabian",
    "scoring_classic": "klassisch",
    "scoring_bierlachs": "Bierlachs",
    "scoring_danish": "Dänische Turnierwertung",
    "min_players": "Mindestens drei Spieler",
    "max_players": "Höchstens fünf Spieler an einem Tisch",
    "already_seated": "{name} sitzt schon am Tisch",
    "all_seats_taken": "Alle Plätze sind besetzt: erst einen Platz leeren oder Spieler +",
    "card_seated": "{name}: Platz {n}",
    "card_stood_up": "{name} ist aufgestanden (Karte noch einmal auflegen zum Hinsetzen)",
    "names_missing": "Bitte für jeden Platz einen Namen eingeben",
    "names_twice": "Ein Name steht zweimal am Tisch",
    "no_list_yet": "Es gibt noch keine Liste, zu der es zurück geht",
    "bock": "Bock",
    "bock_left": "Bock: noch {n}",
    "nothing_to_undo": "Es gibt nichts zurückzunehmen",
    "settle_title": "{name} spielt, gereizt bis …",
    "key_space": "Leerzeichen",
    "key_ok": "OK",
    "declarer_tricks_optional": "Stiche: nur nötig für schwarz",
    "null_result": "Null gewonnen oder verloren?",
    "null_won": "gewonnen (kein Stich)",
    "null_lost_entry": "verloren",
    "null_won_or_lost": "Null: „gewonnen“ oder „verloren“ antippen",
    "all_tricks_title": "Alle Stiche?",
    "all_tricks_text": "{points} Augen: hat eine Partei alle zehn Stiche (schwarz)?",
    "all_tricks_yes_declarer": "ja: der Alleinspieler hat alle Stiche",
    "all_tricks_yes_defenders": "ja: die Gegenspieler haben alle Stiche",
    "all_tricks_no": "nein, nicht alle",
    "result_points": "{name}: {points} Augen",
    "settle_text": "Das Reizen in einem Schritt: bis zu welchem Wert wurde gereizt?",
    "settle_hint": "Schneller: den Alleinspieler antippen und den Reizwert wählen",
    "take_skat": "Skat aufnehmen",
    "take_skat_first": "Erst den Skat aufnehmen: dann die zwei gedrückten Karten wählen",
    "skat_already_taken": "Der Skat ist schon aufgenommen",
    "declare": "ansagen",
    "choose_game": "Spiel wählen",
    "plays": "{name} spielt {game}, gereizt {bid}",
    "takes_trick": "→ {name} ({points} Augen)",
    "holds_trick": "sticht: {name}",
    "to_play": "am Zug: {name}",
    "declarer_short": "Alleinspieler",
    "party_line": "{party}:  {points} Augen · {tricks} Stiche",
    "kontra_by": "Kontra ({name})",
    "re_by": "Re ({name})",
    "spitze": "Spitze",
    "spitze_n": "Spitze {n}",
    "spitze_lost": "Spitze verloren",
    "spitze_title": "Spitze ansagen ({name})",
    "spitze_text": "Der Alleinspieler gewinnt die letzten Stiche mit den niedrigsten Trümpfen, den letzten mit dem niedrigsten.",
    "spitze_count": "{n}: {cards}",
    "spitze_made": "Spitze gemacht",
    "spitze_not_made": "Spitze nicht gemacht",
    "pot_line": "Pot (drin: {content})",
    "pot_note": "Pot: {note}",
    "pot_paid_out": "Pot ({left} zurück in gleichen Teilen): {shares}",
    "club_options_title": "Kneipe: Optionen",
    "club_options_hint": "Kneipe: nochmals antippen für die Optionen ({chosen})",
    "club_options_none": "keine gewählt",
    "club_options_text": "Was die Regeln (Varianten) zur Wahl stellen; antippen schaltet ein oder aus.",
    "club_option_spitze": "Spitze (auch mehrere)",
    "club_option_ouvert_any": "Jedes Spiel ouvert (+1 Stufe)",
    "club_option_ouvert_doubles": "Ouvert verdoppelt",
    "club_option_pot": "Pot (Pinke)",
    "automatic_gift": "Geschenkt (automatisch)",
    "club_option_auto_gift": "Automatisch geschenkt (Karo 18, Herz 20)",
    "gift": "Schenken",
    "gift_title": "Schenken: wer sagt „schenken“?",
    "gift_text": "Beide Gegenspieler müssen schenken; dann nimmt der Alleinspieler an oder spielt weiter.",
    "gift_answer_partner": "Der Partner stimmt zu oder nicht (dann geht das Spiel weiter, als ob nichts passiert wäre).",
    "gift_answer_declarer": "Der Alleinspieler nimmt an oder spielt weiter (dann muss er die Gegner Schneider spielen).",
    "gift_offer_by": "{name} schenkt",
    "gift_agree_by": "Zustimmen: geschenkt ({name})",
    "gift_decline_by": "Nicht schenken ({name})",
    "gift_accept": "Geschenkt annehmen ({name})",
    "gift_accept_schneider": "Schneider annehmen ({name})",
    "gift_play_on": "Weiterspielen auf Schneider ({name})",
    "gift_play_on_schwarz": "Weiterspielen auf Schwarz ({name})",
    "gift_offered": "Schenken: {names}",
    "gift_answer_declarer_schwarz": "Der Alleinspieler nimmt den Schneider an oder spielt weiter auf Schwarz.",
    "schenken_weiterspielen": "auf Schneider",
    "schenken_weiterspielen_schwarz": "auf Schwarz",
    "look_at_discards": "Skat ansehen",
    "later_trick_title": "Texas-Ramsch: der spätere Stich",
    "discards_title": "Gedrückte Karten von {name}",
    "discards_text": "Bis zur ersten Karte des zweiten Stichs darf der Alleinspieler sie ansehen.",
    "question_title": "Falsch bedient?",
    "shorten_title": "Spiel abkürzen: wie endet es?",
    "end_null_lost": "Null verloren (Stich bekommen)",
    "end_declarer_gave_up": "Alleinspieler gibt auf",
    "end_defenders_gave_up": "Gegenspieler geben auf",
    "end_declarer_violation": "Regelverstoß des Alleinspielers",
    "end_defenders_violation": "Regelverstoß der Gegenspieler",
    "null_lost_only": "Nur im Null, wenn der Alleinspieler einen Stich bekommen hat",
    "result_direct_title": "Ergebnis direkt eingeben",
    "result_direct_only_before": "Nur bevor die erste Karte gespielt ist",
    "declarer_tricks": "Stiche des Alleinspielers",
    "declarer_points": "Augen des Alleinspielers (mit Skat)",
    "optional_in_null": " – beim Null nicht nötig",
    "enter": "eintragen",
    "tricks_missing": "Bitte die Stiche des Alleinspielers wählen",
    "points_missing": "Bitte die Augen des Alleinspielers eingeben",
    "card_seen": "Diese Karte ist schon gespielt oder im Skat",
    "push_skat_prompt": "Die zwei gedrückten Karten wählen",
    "turn_card_prompt": "Die Skatkarte wählen, die aufgedeckt wird",
    "turn_second_prompt": "Die zweite Skatkarte wählen, die aufgedeckt wird",
    "skat_at_end_prompt": "Die Karten des Skats wählen",
    "result_of_game": "Ergebnis · Spiel {n}",
    "confirmed_by": "bestätigt: {names}",
    "ramsch_no_score": "keine Wertung",
    "ramsch_title": "Spiel {n} · Ramsch: alle haben gepasst",
    "ramsch_help": "Ein Feld antippen, dann die Zahl tippen. Augen der Stiche, ohne Skat.",
    "ramsch_points": "Augen",
    "ramsch_tricks": "Stiche",
    "ramsch_skat": "Skat",
    "ramsch_skat_points": "Augen im Skat",
    "ramsch_pushes": "geschoben",
    "ramsch_last_trick": "letzter Stich",
    "ramsch_no_pushes": "Bei diesem Ramsch wird nicht geschoben",
    "ramsch_balance": "zusammen: {points} von 120 Augen · {tricks} von 10 Stichen",
    "ramsch_missing": "Bitte noch eingeben: {fields}",
    "ramsch_missing_last": "wer den letzten Stich hatte",
    "ramsch_result_title": "Ergebnis · Spiel {n} · Ramsch",
    "ramsch_line": "{name}: {points} Augen, {tricks} Stiche",
    "ramsch_with_skat": "mit Skat",
    "ramsch_bock": "Bock ×{n}",
    "row_hint": "Eintrag antippen: berichtigen",
    "correct_entry": "Eintrag korrigieren",
    "correct_to_passed_in": "Berichtigen: war eingepasst",
    "correct_only_games": "Hier lassen sich nur gespielte Spiele berichtigen (Augen, Stiche, Spitzen)",
    "correction_pending": "Erst über die offene Berichtigung entscheiden: alle zustimmen oder zurückziehen",
    "correction_title": "Spiel {n} berichtigen: {game}",
    "correction_keeps": "Es bleibt: {game}. Neu eingeben: Stiche, Augen und Spitzen des Alleinspielers.",
    "proposer_title": "Wer schlägt die Berichtigung vor?",
    "proposer_text": "Spiel {n}: {old} → neu eingegeben. Danach stimmt jeder Spieler zu (ISkO 5.5.3).",
    "proposer_text_passed_in": "Spiel {n}: {old} → eingepasst. Danach stimmt jeder Spieler zu (ISkO 5.5.3).",
    "consent_prompt": "Zustimmen:",
    "agreed_by": "zugestimmt: {names}",
    "result_incomplete": "Das Ergebnis ist noch nicht vollständig",
    "with_n": "mit {n}",
    "without_n": "ohne {n}",
    "skat_cards": "Skat wählen",
    "won_lost": "{won} gew. · {lost} verl.",
    "correction_line": "Berichtigung Spiel {entry} ({who}): {old} → {new}",
    "withdraw": "zurückziehen",
    "end_series": "Serie beenden",
    "end_series_not_now": "Die Serie kann nur zwischen zwei Spielen beendet werden",
    "end_series_title": "Serie jetzt beenden?",
    "end_series_yes": "Ja, Serie beenden",
    "end_series_text": "Nach {game} Spielen: danach werden keine Spiele mehr eingetragen.",
    "back_to_game": "zurück zum Spiel",
    "nobody_pays": "Niemand zahlt",
    "abreiz_head": "Abreizgeld dieser Serie: {tiers}",
    "abreiz_tier_first": "{amount} je verl. Spiel",
    "abreiz_tier": "ab dem {nth}. {amount}",
    "abreiz_fee": "; eingepasst {amount} je Spiel",
    "abreiz_player": "{name}: {lost} verl. {amount}",
    "abreiz_passed": " · {count}×\u00a0eingep.\u00a0{amount}",
    "abreiz_evening": "Abreizgeld über den Abend gezählt: die Kasse am Laptop rechnet es ab.",
    "abreiz_lost_only": "{name}: {lost} verl.",
    "list_closed": "Die Liste ist abgeschlossen",
    "new_list": "Neue Liste",
    "confirm_list_prompt": "Jeder Spieler bestätigt die Liste",
    "reader_connected": "verbunden",
    "reader_disconnected": "nicht verbunden",
    "no_sync_target": "kein Sync-Ziel eingestellt",
    "deck_saved": "Kartensatz gespeichert: {path} (gilt ab sofort)",
    "deck_missing": "Kartensatz fehlt: anlernen",
    "deck_not_saved": "Kartensatz nicht gespeichert ({reason}): er gilt bis zum Ausschalten",
    "pin_wait": "Zu viele falsche PINs: nächster Versuch in {seconds} s",
    "menu_shutdown_text": "Nochmal lange auf ✔ drücken (oder „Ja, ausschalten“ tippen): der Tisch schaltet aus. Alle Spiele sind gespeichert.",
    "press_a_button": "Bitte eine Taste drücken",
    "button_seen": "Taste {button} gedrückt",
    "button_confirm": "✔ Bestätigen",
    "button_back": "↩ Zurück",
    "button_menu": "Menü (lang gedrückt)",
    "led_n": "LED Platz {n}",
    "beep": "Ton",
    "shutdown_title": "Tisch ausschalten?",
    "shutdown_yes": "Ja, ausschalten",
    "shutdown_text": "Alle Spiele sind gespeichert. Erst nach dem Ausschalten den Strom trennen.",
    "col_player": "Spieler",
    "col_won_lost": "gew. / verl.",
    "col_game_points": "Spielpunkte",
    "col_scoring_danish": "Turnier",
    "choose_hand": "Hand (ohne Skat)",
    "choose_skat": "mit Skat: aufnehmen",
    "hand_or_skat": "Hand oder mit Skat?",
    "choose_tournee": "Tournee|Skatkarte aufdecken",
    "choose_solo": "ohne Skat|Solo, Null, Grand ouvert",
    "choose_guckser": "Guckser|Skat aufnehmen, Grand",
    "scan_turned_card": "Skatkarte aufdecken: scannen",
    "scan_second_card": "Die zweite Skatkarte scannen",
    "turn_second_card": "zweite Karte aufdecken",
    "turned_second_done": "Die zweite Karte ist schon aufgedeckt",
    "take_skat_after_turn": "Erst den Skat aufnehmen: die aufgedeckte Karte bestimmt den Trumpf",
    "tournee_trump": "{card} aufgedeckt",
    "tournee_or_solo": "Tournee, ohne Skat oder Guckser?",
    "declare_tournee_hand": "{name} spielt ohne Skat: ein Solo, Null, Null ouvert oder Grand ouvert ansagen",
    "hand_or_skat_first": "Erst wählen: Hand oder mit Skat",
    "result_counts": "{name}: {points} Augen · {tricks} Stiche",
    "result_counts_one": "{name}: {points} Augen · 1 Stich",
    "result_tricks": "{name}: {tricks} Stiche",
    "result_tricks_one": "{name}: 1 Stich",
    "bid_was": "gereizt {bid}",
    "correction_unchanged": "Das ist der Eintrag, wie er schon in der Liste steht: bitte ändern, was falsch war",
    "tops_with": "m",
    "tops_without": "o",
    "col_declarer": "Spieler",
    "col_base": "Gw",
    "col_tops": "Sp",
    "col_levels": "St",
    "col_value": "Wert",
    "list_legend": "Gw Grundwert · Sp Spitzen · St Gewinnstufen",
    "choose_matadors": "Bitte mit oder ohne wählen: das trägt das Ergebnis ein",
    "store_damaged_title": "Die gespeicherten Listen sind beschädigt",
    "store_damaged_what": "Eine Datei auf der Speicherkarte ist unvollständig (etwa nach einem Stromausfall). Es geht nichts verloren: „Reparieren“ (Vereins-PIN) behält die beschädigte Datei und stellt die letzte gute Kopie wieder her; höchstens das zuletzt Gespeicherte fehlt. Danach startet der Tisch neu.",
    "repair_store": "Reparieren",
    "restart_table": "Tisch neu starten",
    "store_repaired": "Repariert: bitte den Tisch neu starten",
    "store_not_repaired": "Nicht repariert: bitte „skattisch store check“ am Laptop oder den Betreuer fragen",
    "undo_confirmation_title": "Bestätigung zurücknehmen?",
    "undo_confirmation_yes": "Ja, zurück",
    "undo_confirmation_text": "Bestätigt hat schon: {names}. Mit „zurück“ ist das Ergebnis wieder offen.",
    # --- the result screen's dealer who sits out (SkWO 7.2.2, 9.6) ---
    "dealer_short": "Geber",
    "dealer_may_confirm": "Für die Gegenspieler darf auch der Geber ({name}) bestätigen.",
    # --- end house-edges ---
}

ENGLISH: dict[str, str] = {
    "table_n": "Table {number}",
    "reader_ok": "Reader",
    "reader_off": "Reader missing",
    "reader_none": "no reader",
    "reader_simulated": "simulation",
    "passed_in_game": "Game {n}: passed in",
    "entered_game": "Game {n} is on the list",
    "corrected_game": "Game {n} is corrected",
    "sync_upto": "synced up to game {game}",
    "sync_none": "not synced",
    "sync_off": "no sync",
    "sync_no_laptop": "no laptop",
    "sync_all": "synced",
    "sync_error": "sync failing",
    "panel_missing": "Button panel missing",
    "panel_missing_help": "Button panel missing – check its cable, then switch the table off and on again. "
                          "Until then the table runs without the buttons: tap everything on the screen.",
    "game_n_of": "Game {n}/{total}",
    "game_n": "Game {n}",
    "dealer_is": "Dealer: {name}",
    "sits_out": "(sits out)",
    "sit_out": "sitting out: {names}",
    "list": "List",
    "back": "back",
    "next": "next",
    "confirm": "confirm",
    "close": "close",
    "cancel": "cancel",
    "ok": "OK",
    "settings": "Settings",
    "version": "Skattisch {version}",
    "simulated": "Simulation",
    "panel_confirm": "Button ✔",
    "panel_back": "Button ↩",
    "setup_title": "New list",
    "players": "Players",
    "player_n": "Seat {n}",
    "add_player": "Player +",
    "remove_player": "Player −",
    "new_name": "Name",
    "draw_seats": "Draw seats",
    "series_length": "Games",
    "scoring_system": "Scoring",
    "variants": "Variants",
    "choose_profile": "Choose the rules",
    "stake": "Stake",
    "stake_cents": "{cents} ct a point",
    "start_list": "Start the list",
    "start_next_series": "Start this list",
    "roster": "Club roster",
    "forehand": "Vorhand",
    "middlehand": "Mittelhand",
    "rearhand": "Hinterhand",
    "pass": "pass",
    "hold": "yes",
    "more_values": "more …",
    "fewer_values": "… back",
    "passed_in": "passed in",
    "result_direct": "Enter result",
    "declare_title": "{name} plays, bid {bid}",
    "hand": "Hand",
    "schneider_announced": "Schneider announced",
    "schwarz_announced": "Schwarz announced",
    "ouvert": "Ouvert",
    "kontra": "Kontra",
    "re": "Re",
    "skat_taken": "Skat taken",
    "game_clubs": "Clubs",
    "game_spades": "Spades",
    "game_hearts": "Hearts",
    "game_diamonds": "Diamonds",
    "game_grand": "Grand",
    "game_null": "Null",
    "trick_n": "Trick {n}",
    "declarer": "Declarer",
    "defenders": "Defenders",
    "points": "Points",
    "tricks": "Tricks",
    "pick_card": "Pick card",
    "shorten": "Shorten game",
    "undo_card": "undo last card",
    "done": "done",
    "wins_trick": "→ {name}",
    "result_title": "Result",
    "won": "won",
    "lost": "lost",
    "list_title": "Score list",
    "col_no": "No",
    "col_dealer": "Dealer",
    "col_game": "Game",
    "standing": "Total",
    "corrected": "corrected",
    "no_games_yet": "No game in the list yet.",
    "end_title": "End of the series",
    "ranking": "Ranking",
    "settlement": "Settlement",
    "chart": "Over the evening",
    "pays": "{who} pays {amount} to {whom}",
    "pin_prompt": "Enter the club PIN",
    "pair_laptop": "Pair laptop",
    "pair_prompt": "The laptop's code (6 digits)",
    "paired_with": "Paired with {laptop}",
    "pair_failed": "Pairing failed: {reason}",
    "pair_unavailable": "Pairing needs the table's store (not in the simulation without --config)",
    "laptop": "Laptop",
    "pin_wrong": "Wrong PIN",
    "table_number": "Table number",
    "reader_port": "Reader port",
    "deck_teach": "Teach in a deck",
    "gpio_test": "Button test",
    "sync_target": "Sync target",
    "language": "Language",
    "shutdown": "Shut down",
    "why_greyed": "Not possible",
    "internal_error": "Internal error, please report",
    "not_possible_now": "Not possible now",
    "choose_game_first": "Choose a game first",
    "word_not_in_game": "{game} has no {word}",
    "card_unknown": "Unknown card: {reason}",
    "step_refused": "Not possible: {reason}",
    "rules": "Rules",
    "matadors_title": "Matadors: with or without how many?",
    "party_line_one": "{party}:  {points} points · 1 trick",
    "no_money": "no money",
    "n_games": "{n} games",
    "open_ended": "open",
    "scoring_seeger_fabian": "Seeger-Fabian",
    "scoring_classic": "classic",
    "scoring_bierlachs": "Bierlachs",
    "scoring_danish": "Danish tournament scoring",
    "min_players": "At least three players",
    "max_players": "At most five players at a table",
    "already_seated": "{name} is already at the table",
    "all_seats_taken": "Every seat is taken: clear one first, or Player +",
    "card_seated": "{name}: seat {n}",
    "card_stood_up": "{name} stood up (tap the card again to sit down)",
    "names_missing": "Please enter a name for every seat",
    "names_twice": "A name is at the table twice",
    "no_list_yet": "There is no list yet to go back to",
    "bock": "Bock",
    "bock_left": "Bock: {n} left",
    "nothing_to_undo": "Nothing to take back",
    "settle_title": "{name} plays, bid up to …",
    "key_space": "space",
    "key_ok": "OK",
    "declarer_tricks_optional": "Tricks: only needed for Schwarz",
    "null_result": "Null won or lost?",
    "null_won": "won (no trick)",
    "null_lost_entry": "lost",
    "null_won_or_lost": "Null: tap \u201cwon\u201d or \u201clost\u201d",
    "all_tricks_title": "All tricks?",
    "all_tricks_text": "{points} points: did one party take all ten tricks (Schwarz)?",
    "all_tricks_yes_declarer": "yes: the declarer has all tricks",
    "all_tricks_yes_defenders": "yes: the defenders have all tricks",
    "all_tricks_no": "no, not all",
    "result_points": "{name}: {points} points",
    "settle_text": "The bidding in one step: up to which value was it bid?",
    "settle_hint": "Quicker: tap the declarer and choose the value bid",
    "take_skat": "Take the skat",
    "take_skat_first": "Take the skat first: then choose the two discarded cards",
    "skat_already_taken": "The skat is taken already",
    "declare": "declare",
    "choose_game": "Choose the game",
    "plays": "{name} plays {game}, bid {bid}",
    "takes_trick": "→ {name} ({points} points)",
    "holds_trick": "winning: {name}",
    "to_play": "to play: {name}",
    "declarer_short": "declarer",
    "party_line": "{party}:  {points} points · {tricks} tricks",
    "kontra_by": "Kontra ({name})",
    "re_by": "Re ({name})",
    "spitze": "Spitze",
    "spitze_n": "Spitze {n}",
    "spitze_lost": "Spitze lost",
    "spitze_title": "Announce a Spitze ({name})",
    "spitze_text": "The declarer takes the last tricks with the lowest trumps, the very last with the lowest.",
    "spitze_count": "{n}: {cards}",
    "spitze_made": "Spitze made",
    "spitze_not_made": "Spitze not made",
    "pot_line": "Pot (in it: {content})",
    "pot_note": "Pot: {note}",
    "pot_paid_out": "Pot ({left} back in equal shares): {shares}",
    "club_options_title": "Pub: options",
    "club_options_hint": "Pub: tap again for the options ({chosen})",
    "club_options_none": "none chosen",
    "club_options_text": "What the rules (variants) leave to choose; a tap switches on or off.",
    "club_option_spitze": "Spitze (one or more)",
    "club_option_ouvert_any": "Any game ouvert (+1 level)",
    "club_option_ouvert_doubles": "Ouvert doubles",
    "club_option_pot": "Pot",
    "automatic_gift": "Given (automatic)",
    "club_option_auto_gift": "Given automatically (Karo 18, Herz 20)",
    "gift": "Schenken",
    "gift_title": "Schenken: who gives the game?",
    "gift_text": "Both defenders must give; then the declarer accepts or plays on.",
    "gift_answer_partner": "The partner agrees or not (then the game goes on as if nothing happened).",
    "gift_answer_declarer": "The declarer accepts or plays on (then he must make Schneider).",
    "gift_offer_by": "{name} gives",
    "gift_agree_by": "Agree: given ({name})",
    "gift_decline_by": "Do not give ({name})",
    "gift_accept": "Accept the gift ({name})",
    "gift_accept_schneider": "Accept Schneider ({name})",
    "gift_play_on": "Play on for Schneider ({name})",
    "gift_play_on_schwarz": "Play on for Schwarz ({name})",
    "gift_offered": "Schenken: {names}",
    "gift_answer_declarer_schwarz": "The declarer accepts Schneider or plays on for Schwarz.",
    "schenken_weiterspielen": "for Schneider",
    "schenken_weiterspielen_schwarz": "for Schwarz",
    "look_at_discards": "Look at the skat",
    "later_trick_title": "Texas Ramsch: the later trick",
    "discards_title": "{name}'s discards",
    "discards_text": "The declarer may look at them until the first card of the second trick.",
    "question_title": "False following?",
    "shorten_title": "Shorten the game: how does it end?",
    "end_null_lost": "Null lost (took a trick)",
    "end_declarer_gave_up": "Declarer gives up",
    "end_defenders_gave_up": "Defenders give up",
    "end_declarer_violation": "Rule violation by the declarer",
    "end_defenders_violation": "Rule violation by the defenders",
    "null_lost_only": "Only in Null, when the declarer took a trick",
    "result_direct_title": "Enter the result",
    "result_direct_only_before": "Only before the first card is played",
    "declarer_tricks": "Declarer's tricks",
    "declarer_points": "Declarer's card points (with skat)",
    "optional_in_null": " – not needed in Null",
    "enter": "enter",
    "tricks_missing": "Please choose the declarer's tricks",
    "points_missing": "Please enter the declarer's card points",
    "card_seen": "This card was played already or is in the skat",
    "push_skat_prompt": "Choose the two discarded cards",
    "turn_card_prompt": "Choose the skat card turned up",
    "turn_second_prompt": "Choose the second skat card turned up",
    "skat_at_end_prompt": "Choose the cards of the skat",
    "result_of_game": "Result · game {n}",
    "confirmed_by": "confirmed: {names}",
    "ramsch_no_score": "no score",
    "ramsch_title": "Game {n} · Ramsch: everybody passed",
    "ramsch_help": "Tap a box, then type the number. Points in the tricks, without the skat.",
    "ramsch_points": "points",
    "ramsch_tricks": "tricks",
    "ramsch_skat": "Skat",
    "ramsch_skat_points": "points in the skat",
    "ramsch_pushes": "pushed",
    "ramsch_last_trick": "last trick",
    "ramsch_no_pushes": "Nobody pushes in this Ramsch",
    "ramsch_balance": "together: {points} of 120 points · {tricks} of 10 tricks",
    "ramsch_missing": "Please enter: {fields}",
    "ramsch_missing_last": "who took the last trick",
    "ramsch_result_title": "Result · game {n} · Ramsch",
    "ramsch_line": "{name}: {points} points, {tricks} tricks",
    "ramsch_with_skat": "with the skat",
    "ramsch_bock": "Bock ×{n}",
    "row_hint": "Tap an entry to correct it",
    "correct_entry": "Correct the entry",
    "correct_to_passed_in": "Correct: it was passed in",
    "correct_only_games": "Only games played can be corrected here (points, tricks, matadors)",
    "correction_pending": "First decide the open correction: everybody agrees, or withdraw it",
    "correction_title": "Correct game {n}: {game}",
    "correction_keeps": "Kept: {game}. Enter again: the declarer's tricks, points and matadors.",
    "proposer_title": "Who proposes the correction?",
    "proposer_text": "Game {n}: {old} → entered again. Then every player agrees (ISkO 5.5.3).",
    "proposer_text_passed_in": "Game {n}: {old} → passed in. Then every player agrees (ISkO 5.5.3).",
    "consent_prompt": "Agree:",
    "agreed_by": "agreed: {names}",
    "result_incomplete": "The result is not complete yet",
    "with_n": "with {n}",
    "without_n": "without {n}",
    "skat_cards": "Skat cards",
    "won_lost": "{won} won · {lost} lost",
    "correction_line": "Correction of game {entry} ({who}): {old} → {new}",
    "withdraw": "withdraw",
    "end_series": "End the series",
    "end_series_not_now": "The series can only end between two games",
    "end_series_title": "End the series now?",
    "end_series_yes": "Yes, end the series",
    "end_series_text": "After {game} games: no more games are entered afterwards.",
    "back_to_game": "back to the game",
    "nobody_pays": "Nobody pays",
    "abreiz_head": "Lost-game fee this series: {tiers}",
    "abreiz_tier_first": "{amount} per lost game",
    "abreiz_tier": "from the {nth}th {amount}",
    "abreiz_fee": "; passed in {amount} a deal",
    "abreiz_player": "{name}: {lost} lost {amount}",
    "abreiz_passed": " · {count}×\u00a0passed\u00a0{amount}",
    "abreiz_evening": "Lost-game fee counted over the evening: the laptop's Kasse settles it.",
    "abreiz_lost_only": "{name}: {lost} lost",
    "list_closed": "The list is closed",
    "new_list": "New list",
    "confirm_list_prompt": "Every player confirms the list",
    "reader_connected": "connected",
    "reader_disconnected": "not connected",
    "no_sync_target": "no sync target set",
    "deck_saved": "Deck saved: {path} (in use now)",
    "deck_missing": "Deck missing: teach it in",
    "deck_not_saved": "Deck not saved ({reason}): it is used until the table is shut down",
    "pin_wait": "Too many wrong PINs: next try in {seconds} s",
    "menu_shutdown_text": "Hold ✔ once more (or tap \u201cYes, shut down\u201d): the table shuts down. Every game is saved.",
    "press_a_button": "Please press a button",
    "button_seen": "Button {button} pressed",
    "button_confirm": "✔ Confirm",
    "button_back": "↩ Back",
    "button_menu": "Menu (held)",
    "led_n": "LED seat {n}",
    "beep": "Beep",
    "shutdown_title": "Shut the table down?",
    "shutdown_yes": "Yes, shut down",
    "shutdown_text": "Every game is saved. Unplug only after it has shut down.",
    "col_player": "Player",
    "col_won_lost": "won / lost",
    "col_game_points": "Game points",
    "col_scoring_danish": "Tournament",
    "choose_hand": "Hand (no skat)",
    "choose_skat": "with the skat: take it up",
    "hand_or_skat": "Hand or with the skat?",
    "choose_tournee": "Tournee|turn a skat card",
    "choose_solo": "without the skat|Solo, Null, Grand ouvert",
    "choose_guckser": "Guckser|take the skat, Grand",
    "scan_turned_card": "Turn a skat card up: scan it",
    "scan_second_card": "Scan the second skat card",
    "turn_second_card": "turn the second card",
    "turned_second_done": "The second card is turned up already",
    "take_skat_after_turn": "Take the skat first: the card turned up decides the trump",
    "tournee_trump": "{card} turned up",
    "tournee_or_solo": "Tournee, without the skat or Guckser?",
    "declare_tournee_hand": "{name} plays without the skat: declare a Solo, Null, Null ouvert or Grand ouvert",
    "hand_or_skat_first": "First choose: Hand or with the skat",
    "result_counts": "{name}: {points} points · {tricks} tricks",
    "result_counts_one": "{name}: {points} points · 1 trick",
    "result_tricks": "{name}: {tricks} tricks",
    "result_tricks_one": "{name}: 1 trick",
    "bid_was": "bid {bid}",
    "correction_unchanged": "That is the entry as the list has it already: change what was wrong",
    "tops_with": "w",
    "tops_without": "wo",
    "col_declarer": "Declarer",
    "col_base": "Base",
    "col_tops": "Tops",
    "col_levels": "Lv",
    "col_value": "Value",
    "list_legend": "Base value · tops · levels",
    "choose_matadors": "Choose with or without: that enters the result",
    "store_damaged_title": "The stored lists are damaged",
    "store_damaged_what": "A file on the memory card is incomplete (after a power cut, say). Nothing is thrown away: “Repair” (club PIN) keeps the damaged file and restores the last good copy; at most the last thing saved is missing. Then the table starts again.",
    "repair_store": "Repair",
    "restart_table": "Restart the table",
    "store_repaired": "Repaired: please restart the table",
    "store_not_repaired": "Not repaired: run “skattisch store check” or ask the club’s volunteer",
    "undo_confirmation_title": "Take back the confirmation?",
    "undo_confirmation_yes": "Yes, take it back",
    "undo_confirmation_text": "Already confirmed by: {names}. Going back opens the result again.",
    # --- the result screen's dealer who sits out (SkWO 7.2.2, 9.6) ---
    "dealer_short": "dealer",
    "dealer_may_confirm": "The dealer ({name}) may confirm for the defenders.",
    # --- end house-edges ---
}

_TABLES = {"de": GERMAN, "en": ENGLISH}
_current = "de"


def set_language(lang: str) -> None:
    """Switch every later :func:`tr` to ``lang`` ("de" or "en")."""
    global _current
    if lang not in _TABLES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    _current = lang


def language() -> str:
    return _current


def tr(key: str, **values: object) -> str:
    """The text for ``key`` in the current language, with ``{placeholders}`` filled in.

    An unknown key comes back as itself, so a missing word shows up on screen (and in the
    screenshots) instead of crashing the table in the middle of an evening.
    """
    text = _TABLES[_current].get(key) or GERMAN.get(key) or key
    return text.format(**values) if values else text


def pick(german: T, english: T | None) -> T:
    """A text of the table service in the current language: ``english`` (its ``*_en``
    counterpart, or a refusal's English ``reason``) when the table speaks English and the
    service gave one, else ``german``. Works for tuples of texts too (a row's earlier texts).

    >>> set_language("en"); pick("gewonnen", "won"), pick("eingepasst", ""), pick(("ja",), ("yes",))
    ('won', 'eingepasst', ('yes',))
    >>> set_language("de"); pick("gewonnen", "won")
    'gewonnen'
    """
    return english if _current == "en" and english else german


# --- the service's refusals are worded here, from their key and values ---


def refusal_text(refusal: Any, lang: str | None = None) -> str:
    """A refusal (:class:`device.table.flow.Refusal` or the snapshot's ``RefusalView``) in the
    words of ``lang`` (default: the current language); the texts are in :mod:`ui.refusal_words`.

    >>> from device.table.flow import Refusal
    >>> refusal_text(Refusal("bad_bid", "not_a_bid_value", {"value": 19}), "en")
    '19 is not a bid value under the ISkO (18, 20, 22, 23, 24, 27, …)'
    """
    from ui.refusal_words import refusal_words

    return refusal_words(refusal.key, refusal.values, lang or _current)


GERMAN.update({
    "transfer_pays": "{payer} zahlt {payee} {amount}",
    "question_text": "{position} ({player}) hat im {trick}. Stich nicht bedient ({discarded} auf {led}) und spielt "
                     "jetzt {card}. Falsch bedient (ISkO 4.2.4)?",
    "question_accept": "Ja, falsch bedient: Spiel endet",
    "question_reject": "Nein, falsch gescannt: Karte verwerfen",
    "null_lost_at_once": "{value} < {bid}: sofort verloren",
})
ENGLISH.update({
    "transfer_pays": "{payer} pays {payee} {amount}",
    "question_text": "{position} ({player}) did not follow in trick {trick} ({discarded} on {led}) and now plays "
                     "{card}. False following (ISkO 4.2.4)?",
    "question_accept": "Yes, false following: the game ends",
    "question_reject": "No, a wrong scan: drop the card",
    "null_lost_at_once": "{value} < {bid}: lost at once",
})

_SUITS_EN = {"C": "Clubs", "S": "Spades", "H": "Hearts", "D": "Diamonds"}
_RANKS_EN = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}


def money(cents: int, lang: str | None = None) -> str:
    """An amount in cents as players read it.

    >>> money(134, "de"), money(-5, "de"), money(0, "de")
    ('1,34 €', '-0,05 €', '0,00 €')
    >>> money(134, "en"), money(-5, "en"), money(0, "en")
    ('€1.34', '-€0.05', '€0.00')
    """
    sign = "-" if cents < 0 else ""
    if (lang or _current) == "en":
        return f"{sign}€{abs(cents) // 100}.{abs(cents) % 100:02d}"
    return f"{sign}{abs(cents) // 100},{abs(cents) % 100:02d} €"


def card_words(code: str, lang: str | None = None) -> str:
    """A card (its code) as players say it.

    >>> card_words("CJ", "de"), card_words("CJ", "en"), card_words("HT", "en")
    ('Kreuz Bube', 'Jack of Clubs', '10 of Hearts')
    """
    if (lang or _current) == "en":
        return f"{_RANKS_EN[code[1]]} of {_SUITS_EN[code[0]]}"
    from device.cards import Card

    return Card.parse(code).german


def transfer_text(transfer: Any, lang: str | None = None) -> str:
    """One payment of the settlement (the snapshot's ``TransferView``): who pays whom how much."""
    return _in(lang, "transfer_pays", payer=transfer.payer, payee=transfer.payee,
               amount=money(transfer.amount, lang))


def question_text(question: Any, lang: str | None = None) -> str:
    """The false-following question (the snapshot's ``QuestionView``) in words."""
    from device.table.rotation import POSITION_NAMES

    cards = {name: card_words(getattr(question, name), lang) for name in ("discarded", "led", "card")}
    return _in(lang, "question_text", position=POSITION_NAMES[question.position], player=question.player,
               trick=question.trick, **cards)


def option_reason(option: Any, lang: str | None = None) -> str:
    """Why a declaration option (the snapshot's ``DeclarationOption``) is greyed; "" if allowed."""
    from ui.refusal_words import refusal_words

    return "" if option.refused is None else refusal_words(option.refused, dict(option.refused_values), lang or _current)


def sync_text(sync: Any, lang: str | None = None) -> str:
    """How far the sync got (the snapshot's ``SyncView``): no laptop, up to game n, or before
    the first game everything sent (the status bar and the settings say the same)."""
    if not sync.laptop:
        return _in(lang, "sync_no_laptop")
    if sync.synced_games:
        return _in(lang, "sync_upto", game=sync.synced_games)
    return _in(lang, "sync_all") if sync.all_sent else _in(lang, "sync_none")


def _in(lang: str | None, key: str, **values: object) -> str:
    """:func:`tr` in ``lang`` (default: the current language)."""
    return _TABLES[lang or _current][key].format(**values)


# --- end of house-core's block -------------------------------------------------------------

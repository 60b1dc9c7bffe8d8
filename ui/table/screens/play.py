"""Screen 4, play: the current trick at the three seats (cards appear as they are scanned or
picked), the trick's winner, each party's running points and tricks; undo the last card,
shorten the game, or enter the result directly. Kontra/Re when the profile allows it, and
the table's question when a card looks like false following."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from device.games import GameType
from device.variants import spitze_cards
from ui.i18n import card_words, pick, question_text, tr
from ui.table import theme
from ui.table.popups import ChoicePopup, Option, ResultPopup
from ui.table.screens import TableScreen
from ui.table.viewmodels import game_suit, is_null
from ui.table.paint import Fill
from ui.table.widgets import app_scale, framed, make_button

END_HOWS = ("null_lost", "declarer_gave_up", "defenders_gave_up", "declarer_violation", "defenders_violation")


def party_line(party: str, points: int, tricks: int) -> str:
    """"Alleinspieler (Carla):  58 Augen · 4 Stiche" (one Stich, several Stiche)."""
    key = "party_line_one" if tricks == 1 else "party_line"
    return tr(key, party=party, points=points, tricks=tricks)


class SeatPlace(BoxLayout):
    """One of the three places of the trick: position, name and the card played there."""

    position_text = StringProperty("")
    name_text = StringProperty("")
    code = StringProperty("")
    to_play = BooleanProperty(False)
    winner = BooleanProperty(False)
    faded = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._panel = Fill(self.canvas.before)  # before the frame
        self.fbind("pos", self._update_panel)
        self.fbind("size", self._update_panel)
        self._update_panel()
        self._frame = framed(self, self._update_frame, "to_play", "winner")
        self._update_frame()

    def _update_panel(self, *_args: Any) -> None:
        self._panel.show(self, theme.PANEL, self.x, self.y, self.width, self.height, app_scale() * 10)

    def _update_frame(self, *_args: Any) -> None:
        s = app_scale()
        colour = theme.HINT if self.to_play else (theme.OK if self.winner else None)
        self._frame.show(colour, (self.x + 1, self.y + 1, self.width - 2, self.height - 2, s * 10), s * 2.5)


def gift_marks(snap: Any, play: Any) -> list[str]:
    """Where a Spitze and a Schenken stand, for the title: "Spitze 3", "Spitze verloren",
    "Schenken: Bernd", "auf Schneider"."""
    marks = []
    if play.spitze:
        marks.append(tr("spitze_lost" if play.spitze_lost else "spitze_n" if play.spitze > 1 else "spitze",
                        n=play.spitze))
    if play.schenken:
        marks.append(tr(f"schenken_{play.schenken}"))
    if play.gift_offers:
        marks.append(tr("gift_offered", names=" + ".join(snap.positions[p] for p in play.gift_offers)))
    return marks


def spitze_cards_of(play: Any, count: int) -> tuple[str, ...]:
    """The ``count`` lowest trumps of the declared game, the lowest first (as device.variants.spitze_cards)."""
    return tuple(c.code for c in spitze_cards(GameType(play.game), count))


def gift_options(snap: Any, play: Any, app: Any) -> list[Option]:
    """Schenken's taps (001), only those the service takes now: a defender's "schenken" (the
    partner's agrees), the partner's "nein", the declarer's accepting or playing on."""
    options = []
    if play.may_automatic_gift and not play.gift_offers:  # the club option: Karo 18, Karo or Herz 20
        options.append(Option(tr("automatic_gift"), "automatic_gift", app.automatic_gift, kind="confirm"))
    for position in play.may_offer_gift:
        word = "gift_agree_by" if play.gift_offers else "gift_offer_by"
        options.append(Option(tr(word, name=snap.positions[position]), f"gift_offer_{position}",
                              partial(app.offer_gift, position)))
    for position in play.may_decline_gift:
        options.append(Option(tr("gift_decline_by", name=snap.positions[position]), f"gift_decline_{position}",
                              partial(app.decline_gift, position)))
    again = play.schenken is not None
    if play.may_accept_gift:
        options.append(Option(tr("gift_accept_schneider" if again else "gift_accept", name=play.declarer_name),
                              "gift_accept", partial(app.accept_gift, play.declarer), kind="confirm"))
    if play.may_play_on:
        options.append(Option(tr("gift_play_on_schwarz" if again else "gift_play_on", name=play.declarer_name),
                              "gift_play_on", partial(app.play_on, play.declarer)))
    return options


class PlayScreen(TableScreen):
    title_text = StringProperty("")
    title_suit = StringProperty("")
    trick_text = StringProperty("")
    winner_text = StringProperty("")
    declarer_text = StringProperty("")
    defenders_text = StringProperty("")
    may_enter_result = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._snap: Any = None
        self._question: ChoicePopup | None = None
        self._gift: ChoicePopup | None = None
        self._gift_key: tuple[Any, ...] = ()
        self._extra_shown: tuple[Any, ...] = ()  # what the Kontra/Re/Null-verloren buttons were built for

    def show(self, snap: Any) -> None:
        self._snap = snap
        play = snap.play
        if play is None:
            self._close_question()
            self._close_gift()
            return
        marks = [m for m, on in (("Kontra", play.kontra), ("Re", play.re)) if on] + gift_marks(snap, play)
        self.title_suit = game_suit(play.game)  # first: the chip's width is laid out before the text is drawn
        self.title_text = (tr("game_n", n=snap.game_no) + " · " +
                           tr("plays", name=play.declarer_name, game=pick(play.declaration, play.declaration_en),
                              bid=play.bid) +
                           ("" if not marks else " · " + " ".join(marks)))
        showing_last = not play.trick.cards and play.last_trick is not None
        trick = play.last_trick if showing_last else play.trick
        self.trick_text = tr("trick_n", n=trick.number)
        if trick.winner_name and (showing_last or len(trick.cards) == 3):
            self.winner_text = tr("takes_trick", name=trick.winner_name, points=trick.points)
        elif trick.winner_name and trick.cards:
            self.winner_text = tr("holds_trick", name=trick.winner_name)
        else:
            self.winner_text = ""
        by_position = {c.position: c.card for c in trick.cards}
        words = (tr("forehand"), tr("middlehand"), tr("rearhand"))
        for position, place in enumerate((self.ids.seat0, self.ids.seat1, self.ids.seat2)):
            place.position_text = words[position] + (" · " + tr("declarer_short") if position == play.declarer else "")
            place.name_text = snap.positions[position] if position < len(snap.positions) else ""
            place.code = by_position.get(position, "")
            place.to_play = play.to_play == position
            place.winner = trick.winner == position and bool(trick.cards)
            place.faded = showing_last
        self.declarer_text = party_line(tr("declarer") + f" ({play.declarer_name})", play.declarer_points,
                                        play.declarer_tricks)
        self.defenders_text = party_line(tr("defenders"), play.defender_points, play.defender_tricks)
        self.may_enter_result = play.may_enter_result
        self._build_extra(snap, play)
        self._show_question(play)
        self._show_gift_answer(snap, play)

    def retranslate(self) -> None:
        if self._snap is not None:
            self.show(self._snap)

    def _build_extra(self, snap: Any, play: Any) -> None:
        """Kontra/Re and "Null verloren", only when the service offers them."""
        key = (tuple(play.may_kontra), play.may_re, play.null_lost, snap.positions, play.declarer_name,
               play.declarer, self.app.language, play.discards, play.gift_offers, play.schenken,
               play.may_offer_gift, play.may_decline_gift, play.may_accept_gift, play.may_play_on,
               play.spitze_choices, play.may_automatic_gift)
        if key == self._extra_shown:
            return  # the same buttons (a card was played): keep them
        self._extra_shown = key
        box = self.ids.extra
        box.clear_widgets()
        for position in play.may_kontra:
            name = snap.positions[position]
            box.add_widget(make_button(tr("kontra_by", name=name), f"kontra_{position}",
                                       lambda p=position: self.app.kontra(p)))
        if play.may_re:
            box.add_widget(make_button(tr("re_by", name=play.declarer_name), "re",
                                       lambda: self.app.re(play.declarer)))
        if play.spitze_choices:  # Spitze: with the declaration, before the first card
            box.add_widget(make_button(tr("spitze"), "spitze", lambda: self.show_spitze(play)))
        if (play.may_offer_gift and not play.gift_offers) or play.may_automatic_gift:  # Schenken: in a window
            box.add_widget(make_button(tr("gift"), "gift", lambda: self.show_gift(snap, play)))
        if play.null_lost:
            box.add_widget(make_button(tr("end_null_lost"), "null_lost", lambda: self.app.end_game("null_lost"),
                                       kind="confirm"))
        if play.discards:  # Texas-Skat: until the second trick's first card
            box.add_widget(make_button(tr("look_at_discards"), "look_at_discards",
                                       lambda: self.show_discards(play)))
        crowded = len(box.children) >= 3  # Kontra, Kontra, Spitze, Schenken: smaller words, a little more room
        box.size_hint_x = min(1.45, 1.0 + 0.15 * len(box.children)) if crowded else 1.0
        for button in box.children:
            button.font_size = self.app.scale * theme.FONT * (0.78 if crowded else 1.0)

    def show_discards(self, play: Any) -> None:
        """The declarer's two discards, for him alone: it sends nothing (looking changes no game)."""
        ChoicePopup(tr("discards_title", name=play.declarer_name),
                    [Option(card_words(code), f"discard_{code}", lambda: None) for code in play.discards],
                    text=tr("discards_text"), cols=2).open()

    # -- Spitze and Schenken --

    def show_spitze(self, play: Any) -> None:
        """How many lowest trumps the declarer's Spitze takes the last tricks with (001)."""
        options = [Option(tr("spitze_count", n=n, cards=", ".join(card_words(c) for c in spitze_cards_of(play, n))),
                          f"spitze_{n}", partial(self.app.announce_spitze, n)) for n in play.spitze_choices]
        ChoicePopup(tr("spitze_title", name=play.declarer_name), options, text=tr("spitze_text")).open()

    def show_gift(self, snap: Any, play: Any) -> None:
        """Which defender says "schenken" (the first of the two taps of an offer)."""
        ChoicePopup(tr("gift_title"), gift_options(snap, play, self.app), text=tr("gift_text")).open()

    def _show_gift_answer(self, snap: Any, play: Any) -> None:
        """An offer waits for its answer (the partner's, then the declarer's): asked in a window
        that stays until it is answered (a scanned card is refused meanwhile)."""
        key = (play.gift_offers, play.schenken, self.app.language)
        if not play.gift_offers:
            self._close_gift()
            return
        if self._gift is not None and self._gift_key == key:
            return
        self._close_gift()
        names = " + ".join(snap.positions[p] for p in play.gift_offers)
        word = ("gift_answer_partner" if len(play.gift_offers) < 2 else
                "gift_answer_declarer_schwarz" if play.schenken else "gift_answer_declarer")
        text = tr(word, names=names)
        self._gift, self._gift_key = ChoicePopup(tr("gift_offered", names=names), gift_options(snap, play, self.app),
                                                 text=text, cancel=False), key
        self._gift.bind(on_dismiss=lambda *_: setattr(self, "_gift", None))
        self._gift.open()

    def _close_gift(self) -> None:
        if self._gift is not None:
            popup, self._gift = self._gift, None
            popup.dismiss()

    # -- the false-following question --

    def _show_question(self, play: Any) -> None:
        question = play.question
        if question is None:
            self._close_question()
            return
        if self._question is not None:
            return
        self._question = ChoicePopup(
            tr("question_title"), [
                Option(tr("question_accept"), "accept_false_following",
                       lambda: self.app.answer_question(True)),
                Option(tr("question_reject"), "reject_card",
                       lambda: self.app.answer_question(False)),
            ], text=question_text(question), cancel=False)
        self._question.bind(on_dismiss=lambda *_: setattr(self, "_question", None))
        self._question.open()

    def _close_question(self) -> None:
        if self._question is not None:
            popup, self._question = self._question, None
            popup.dismiss()

    # -- shorten, result directly --

    def shorten(self) -> None:
        play = self._snap.play if self._snap is not None else None
        if play is None:
            return
        options = []
        for how in END_HOWS:
            greyed = how == "null_lost" and not play.null_lost
            options.append(Option(tr(f"end_{how}"), f"end_{how}", partial(self.app.end_game, how),
                                  greyed=greyed, reason=tr("null_lost_only")))
        ChoicePopup(tr("shorten_title"), options).open()

    def enter_result(self, typed: Any = None) -> None:
        """"Ergebnis direkt"; ``typed``: a refused EnterResult, whose counts it starts with."""
        play = self._snap.play if self._snap is not None else None
        if play is None:
            return
        # Null: no matadors asked; otherwise only those the declared game can have
        ResultPopup(self.app.enter_result, null_game=is_null(play.game), matador_choices=play.matador_choices,
                    tricks=getattr(typed, "declarer_tricks", None), points=getattr(typed, "declarer_points", None),
                    matadors=getattr(typed, "matadors", None)).open()

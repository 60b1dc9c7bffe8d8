"""Screen 3, the declaration: the game types with their suit symbols, Grand and Null; Hand,
Schneider angesagt, Schwarz angesagt, Ouvert; "Skat aufnehmen". What is not possible is
greyed out (the service lists every declaration and says why one is not possible) and a tap
on it says why."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kivy.properties import BooleanProperty, StringProperty

from device.table.views import DeclarationView
from ui.i18n import card_words, option_reason, pick, tr
from ui.table_words import declaration_prompt
from ui.table import theme
from ui.table.screens import TableScreen
from ui.table.viewmodels import GAME_SUITS, Choice, game_choices, word_choices
from ui.table.widgets import ButtonSpec, CardChip, show_buttons


#: A declaration's start as far as its screen's first question shows it (no option, skat not taken).
FIRST_QUESTION = DeclarationView(declarer=0, declarer_name="", bid=18, skat_taken=False, may_take_skat=True,
                                 options=(), skat=())


def game_button_text(choice: Choice, scale: float) -> str:
    """A game button's text: the suit symbol large in its colour, then the name."""
    if not choice.suit:
        return f"[b]{choice.label}[/b]"
    colour = "".join(f"{round(c * 255):02x}" for c in theme.SUIT_COLOUR[choice.suit][:3])
    return (f"[color=#{colour}][size={int(scale * theme.FONT_HUGE)}]{theme.SUIT_SYMBOL[choice.suit]}[/size][/color]"
            f" [b]{choice.label}[/b]")


def two_lines(text: str, scale: float) -> str:
    """A big choice's "name|what it means" as the name in bold over the meaning in small."""
    name, _, about = text.partition("|")
    return f"[b]{name}[/b]\n[size={int(scale * theme.FONT_SMALL)}]{about}[/size]" if about else name


class DeclareScreen(TableScreen):
    title_text = StringProperty("")
    prompt_text = StringProperty("")
    summary_text = StringProperty("")
    summary_suit = StringProperty("")
    selected = StringProperty("")
    may_take_skat = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._snap: Any = None
        self._deal_key: Any = None
        self.hand_chosen = False
        self.turning = False  # Tournée-Skat: "Tournee" tapped, the skat card to be turned up

    def show(self, snap: Any) -> None:
        self._snap = snap
        view = snap.declaration
        if view is None:
            self._deal_key = None
            return
        deal_key = (snap.game_no, view.declarer, view.skat_taken)
        if deal_key != self._deal_key:  # a new declaration (or the skat was taken): start afresh
            self._deal_key = deal_key
            self.selected = ""
            self.hand_chosen = False
            self.turning = False
        self.title_text = tr("declare_title", name=view.declarer_name, bid=view.bid)
        self.prompt_text = self._prompt(view)
        self.may_take_skat = view.may_take_skat
        self._build(view)

    def lay_out_ahead(self, snap: Any) -> None:
        """A declaration's first question drawn ahead (Hand or mit Skat?: the six game buttons
        greyed, its two answers, its summary, "ansagen" greyed): the first declaration after a
        bidding takes them as they are (ten of the thirteen texts its first frame drew)."""
        if snap.declaration is None:
            self._build(FIRST_QUESTION)

    def _prompt(self, view: Any) -> str:
        """What the declarer does now; Tournée-Skat without the skat: Solo, Null, Grand ouvert."""
        if view.form == "tournee" and self.hand_chosen and not view.skat_taken:
            return tr("declare_tournee_hand", name=view.declarer_name)
        return declaration_prompt(view)

    def on_leave(self, *_args: Any) -> None:
        self._deal_key = None  # back here later (after "zurück"): Hand or mit Skat is asked again

    def retranslate(self) -> None:
        if self._snap is not None:
            self.show(self._snap)

    def _must_choose_hand_or_skat(self, view: Any) -> bool:
        """Hand or mit Skat comes first, and is never a default: at the real table the
        declarer has often picked the skat up already, and a forgotten "Skat aufnehmen"
        would score a Hand game (Kreuz mit 2: 48 instead of 36)."""
        if view.form == "tournee":  # Tournee (a card turned up), without the skat, or Guckser
            return not view.skat_taken and view.turned is None and not self.hand_chosen and not self.turning
        return not view.skat_taken and view.may_take_skat and not self.hand_chosen

    def _tournee_turning(self, view: Any) -> bool:
        """Tournée-Skat: a skat card is being turned up, or was: the skat is taken up next."""
        return view.form == "tournee" and not view.skat_taken and (self.turning or view.turned is not None)

    def choose_turn(self) -> None:
        self.turning = True
        self._build(self._snap.declaration)

    def cancel_turn(self) -> None:
        self.turning = False
        self._build(self._snap.declaration)

    def choose_hand(self) -> None:
        self.hand_chosen = True
        self.prompt_text = self._prompt(self._snap.declaration)
        self._build(self._snap.declaration)

    def _build(self, view: Any) -> None:
        scale = self.app.scale
        options = view.options
        if self.selected and not any(o.key == self.selected for o in options):
            self.selected = ""
        first = self._must_choose_hand_or_skat(view)
        turning = self._tournee_turning(view)
        games = []
        for choice in game_choices(options, self.selected or None):
            if first:
                choice = replace(choice, greyed=True, reason=tr("hand_or_skat_first"), on=False)
            elif turning:  # the turned card decides the trump once the skat is taken up
                choice = replace(choice, greyed=True, reason=tr("take_skat_after_turn"), on=False)
            tick = "✔ " if choice.on and not choice.suit else ""  # a suit chip shows its frame instead
            games.append(ButtonSpec(tick + game_button_text(choice, scale), choice.name,
                                    (lambda k=choice.key: self.select(k)),
                                    kind="card" if choice.suit else ("selected" if choice.on else "normal"),
                                    greyed=choice.greyed, reason=choice.reason,
                                    extra=(("marked", choice.on), ("height", scale * 72))))
        show_buttons(self.ids.games, games)
        words = self.ids.words
        words.cols = (3 if view.form == "tournee" else 2) if first or turning else 4
        if first and view.form == "tournee":  # 001 "Tournee-Skat": its three ways to begin
            show_buttons(words, [ButtonSpec(two_lines(tr(key), scale), name, action) for key, name, action in (
                ("choose_tournee", "choose_tournee", self.choose_turn), ("choose_solo", "choose_hand", self.choose_hand),
                ("choose_guckser", "choose_skat", self.app.take_skat))])
        elif first:  # two big buttons, the first choice of the declaration
            show_buttons(words, [ButtonSpec(tr("choose_hand"), "choose_hand", self.choose_hand),
                                 ButtonSpec(tr("choose_skat"), "choose_skat", self.app.take_skat)])
        elif turning:
            show_buttons(words, self._turn_buttons(view))
        else:
            show_buttons(words, [ButtonSpec(("✔ " if choice.on else "") + choice.label, choice.name,
                                            (lambda k=choice.key: self.select(k)),
                                            kind="selected" if choice.on else "normal",
                                            greyed=choice.greyed, reason=choice.reason)
                                 for choice in word_choices(options, self.selected or None)])
        option = next((o for o in options if o.key == self.selected), None)
        # the suit first: the chip's width is laid out before the text is drawn
        self.summary_suit = GAME_SUITS.get(option.game, "") if option is not None else ""
        self.summary_text = ((tr("tournee_or_solo") if view.form == "tournee" else tr("hand_or_skat")) if first else
                             tr("scan_turned_card") if turning and view.turned is None else
                             tr("tournee_trump", card=card_words(view.turned)) if turning else
                             pick(option.label, option.label_en) if option is not None else tr("choose_game"))
        if not first and option is not None and option.lost_at_once:  # allowed, but lost at once (overbid Null)
            self.summary_text += " — " + tr("null_lost_at_once", value=option.lost_at_once[0], bid=option.lost_at_once[1])
        confirm = self.ids.declare
        confirm.greyed = first or turning or option is None or not option.allowed
        confirm.reason = (tr("hand_or_skat_first") if first else tr("take_skat_after_turn") if turning else
                          tr("choose_game_first") if option is None else option_reason(option))
        skat = self.ids.skat  # face down: the pushed skat is the declarer's secret until the end
        # Tournée: the card turned up shows face up until the skat is taken up
        shown = [(code, True) for code in view.skat] or ([(view.turned, False)] if view.turned is not None else [])
        chips = [(chip.code, chip.hidden, chip.width) for chip in reversed(skat.children)]
        if chips != [(code, hidden, scale * 40) for code, hidden in shown]:
            skat.clear_widgets()
            for code, hidden in shown:
                skat.add_widget(CardChip(code=code, hidden=hidden, size_hint_x=None, width=scale * 40))

    def _turn_buttons(self, view: Any) -> list[ButtonSpec]:
        """Tournée-Skat, a card to turn or turned: the second card, taking up the skat, back."""
        if view.turned is None:
            return [ButtonSpec(tr("back"), "cancel_turn", self.cancel_turn),
                    ButtonSpec(tr("pick_card"), "turn_pick", self.app.open_picker,
                               greyed=not self.app.simulate, reason=tr("scan_turned_card"))]
        return [ButtonSpec(tr("turn_second_card"), "turn_second", self.app.open_picker,
                           greyed=view.turned_second or not self.app.simulate,
                           reason=tr("turned_second_done") if view.turned_second else tr("scan_second_card")),
                ButtonSpec(tr("take_skat"), "choose_skat", self.app.take_skat, kind="confirm")]

    def select(self, key: str | None) -> None:
        if key is None:
            return
        self.selected = key
        self._build(self._snap.declaration)

    def declare(self) -> None:
        if self.selected:
            self.app.declare(self.selected)

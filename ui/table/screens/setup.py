"""Screen 1, setting up a list: the players (club roster, last evening's, or new names) in
seat order, Auslosen, the series length, the scoring system, the club's rule variant and the
stake. Two pages, so that each fits the 7" panel with big targets: players, then rules."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.app import App
from kivy.uix.textinput import TextInput

from device.profile import CLUB_OPTIONS, CLUB_PROFILE, club_profile_name
from ui.i18n import tr
from ui.table import theme
from ui.table.popups import ChoicePopup, Option
from ui.table.screens import TableScreen
from ui.table.viewmodels import escape
from ui.table.widgets import TLabel, make_button

MIN_PLAYERS, MAX_PLAYERS = 3, 5
ROSTER_SHOWN = 5  # roster buttons beside the seats at 800×480 (two to a row, under the three controls)
STAKES = ("0", "1/10", "1/4", "1/2", "1", "2")
#: Each rule profile the setup offers: a short name and one line of what sets it apart (the
#: choice is a popup of big buttons: seven profiles do not fit one row at 800×480).
PROFILE_LABELS = {
    "isko": ("ISkO", "Internationale Skatordnung"), "kneipe": ("Kneipe", "Kontra, Bock, Ramsch"),
    "pre1999": ("ISkO vor 1999", "Verlorene Handspiele einfach"),
    "texas": ("Texas-Skat", "Grand 16, Null 20–60, Ansagen"),
    "tournee": ("Tournee-Skat", "Tournee, Solo, Guckser"),
    "danish": ("Dänischer Skat", "Grand 20, Nul, Dækker, ouvert"),
    "danish_aarhus": ("Dänisch (Århus)", "dazu Nul Hand und Musik"),
}
PROFILE_LABELS_EN = {
    "isko": ("ISkO", "International Skat Order"), "kneipe": ("Pub", "Kontra, Bock, Ramsch"),
    "pre1999": ("ISkO before 1999", "Lost hand games single"),
    "texas": ("Texas Skat", "Grand 16, Null 20–60, announcing"),
    "tournee": ("Tournee Skat", "Tournee, Solo, Guckser"),
    "danish": ("Danish Skat", "Grand 20, Nul, Dækker, ouvert"),
    "danish_aarhus": ("Danish (Århus)", "plus Nul Hand and Musik"),
}
#: The scoring system a profile's list is kept in unless another is chosen (001 "Dänischer
#: Skat": the Danish tournament scoring), and the profiles that offer it.
PROFILE_SCORING = {"danish": "danish", "danish_aarhus": "danish"}


def stake_label(stake: str) -> str:
    """How a stake reads on its button: "kein Geld", "¼ ct", "1 ct"."""
    if stake == "0":
        return tr("no_money")
    nice = {"1/10": "0,1", "1/4": "¼", "1/2": "½"}.get(stake, stake)
    return tr("stake_cents", cents=nice)


def _top_column(body: Any, width: float, *, cols: int, spacing: float) -> GridLayout:
    """A column in ``body`` whose rows stack from the top."""
    anchor = AnchorLayout(anchor_y="top", size_hint_x=width)
    grid = GridLayout(cols=cols, spacing=spacing, size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    anchor.add_widget(grid)
    body.add_widget(anchor)
    return grid


class NameField(TextInput):
    """A player's name; ``name`` for scripts (``tap name_0`` then ``type "Anna"``). With the
    table's own keyboard (``app.onscreen_keyboard``) a tap opens :class:`NameKeyboard`."""

    name = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if getattr(App.get_running_app(), "onscreen_keyboard", False):
            self.keyboard_mode = "managed"  # no system keyboard: ours opens instead

    def on_focus(self, _instance: Any, focused: bool) -> None:
        app = App.get_running_app()
        if focused and getattr(app, "onscreen_keyboard", False) and self.name.startswith("name_"):
            from ui.table.keyboard import NameKeyboard

            NameKeyboard(self, tr("player_n", n=int(self.name.split("_")[1]) + 1)).open()


class CardSeat(TLabel):
    """A seat taken by a member card: the short name large on a chip, for the players across
    the table (``seat_card_N`` for scripts). Tapping the card again frees the seat."""

    name = StringProperty("")


class SetupScreen(TableScreen):
    page = NumericProperty(0)
    draw = BooleanProperty(False)
    count = NumericProperty(4)
    series_length = NumericProperty(-1)  # -1: the tournament length; 0: open-ended
    scoring = StringProperty("")
    profile = StringProperty("isko")
    stake = StringProperty("0")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._names: list[str] = ["", "", "", ""]
        self._prefilled = False
        self._prefill: list[str] = []  # last evening's players as first shown (a card read clears them)
        self._card_seats: tuple[str, ...] = ()  # the members seated by card, as last shown
        self._snap: Any = None
        self._built_for: Any = None  # what the page on view was built from (_shown_parts)
        self._club_options: frozenset[str] = frozenset()  # the club profile's options (CLUB_OPTIONS)

    # -- state --

    def show(self, snap: Any) -> None:
        self._snap = snap
        if not self._prefilled and snap.setup.last_players:
            self._names = list(snap.setup.last_players)[:MAX_PLAYERS]
            self._prefill = list(self._names)
            self.count = max(MIN_PLAYERS, len(self._names))
            self._prefilled = True
        if not self.scoring and snap.setup.scoring:
            self.scoring = snap.setup.scoring[0]
        if snap.setup.card_seats != self._card_seats:
            self._seat_by_cards(snap.setup.card_seats)
        if self._shown_parts() != self._built_for:  # (news of the sync or the reader: the page stays, a
            self._build()                            # name being typed keeps its field and focus)

    def _shown_parts(self) -> tuple[Any, ...]:
        """What of the snapshot and the App the page is built from."""
        snap = self._snap
        return snap.setup, snap.next_series, self.page, self.app.language, self.app.scale

    def _seat_by_cards(self, seated: tuple[str, ...]) -> None:
        """Members who tapped their cards take the next free seat; a second tap frees it."""
        self._collect()
        if self._prefill and self._names[:len(self._prefill)] == self._prefill and not self._card_seats:
            self._names = ["" for _ in self._names]  # the first card: last evening's names make room
        self._prefill = []
        said = ""
        for name in self._card_seats:
            if name not in seated and name in self._names:
                self._names[self._names.index(name)] = ""
                said = tr("card_stood_up", name=name)
        for name in seated:
            if name in self._names[: self.count]:
                continue
            free = next((i for i in range(self.count) if i >= len(self._names) or not self._names[i]), None)
            if free is None and self.count < MAX_PLAYERS:
                free, self.count = self.count, self.count + 1
            if free is None:
                self.app.hint(tr("all_seats_taken"))
                continue
            while len(self._names) <= free:
                self._names.append("")
            self._names[free] = name
            said = tr("card_seated", name=name, n=free + 1)
        self._card_seats = seated
        if said:  # the card was taken: an earlier refusal no longer applies
            self.app._clear_reasons()
            self.app.hint(said, level="info")
        for field in self._fields():  # _build reads the fields back: the names go in there too
            index = int(field.name.split("_")[1])
            field.text = self._names[index] if index < len(self._names) else ""

    def retranslate(self) -> None:
        if self._snap is not None:
            self._build()

    def _collect(self) -> None:
        for field in self._fields():
            index = int(field.name.split("_")[1])
            while len(self._names) <= index:
                self._names.append("")
            self._names[index] = field.text.strip()

    def _fields(self) -> list[NameField]:
        return [w for w in self.ids.body.walk(restrict=True) if isinstance(w, NameField)]

    def players(self) -> list[str]:
        self._collect()
        return [n for n in self._names[: self.count]]

    def tournament_length(self) -> int | None:
        lengths = dict(self._snap.setup.tournament_lengths) if self._snap is not None else {}
        return lengths.get(self.count)

    def chosen_length(self) -> int | None:
        if self.series_length == 0:
            return None
        if self.series_length < 0:
            return self.tournament_length()
        return int(self.series_length)

    # -- building --

    def _build(self) -> None:
        self._collect()
        self._built_for = self._shown_parts()
        self.ids.body.clear_widgets()
        if self.page == 0:
            self._build_players()
        else:
            self._build_rules()

    def _name_field(self, index: int, name: str) -> NameField:
        """Seat ``index``'s name field; the table's keyboard, if open on that seat, types on into it."""
        from ui.table.keyboard import NameKeyboard

        field = NameField(name=f"name_{index}", text=name)
        keyboard = NameKeyboard.current
        if keyboard is not None and getattr(keyboard.field, "name", "") == field.name:
            keyboard.retarget(field)
        return field

    def _build_players(self) -> None:
        scale = self.app.scale
        seats = _top_column(self.ids.body, 0.58, cols=1, spacing=scale * 6)
        if self._snap.next_series:  # the organiser released the next series: one tap, no names typed
            seats.add_widget(TLabel(text=self._snap.next_series, bold=True, size_hint_y=None, height=scale * 60))
            seats.add_widget(make_button(tr("start_next_series"), "open_next_series", self.app.open_next_series,
                                         kind="confirm", size_hint_y=None, height=scale * theme.BUTTON_HEIGHT))
        for index in range(self.count):
            row = BoxLayout(size_hint_y=None, height=scale * 54, spacing=scale * 8)
            row.add_widget(TLabel(text=tr("player_n", n=index + 1), size_hint_x=None, width=scale * 90))
            name = self._names[index] if index < len(self._names) else ""
            if name and name in self._card_seats:
                row.add_widget(CardSeat(name=f"seat_card_{index}", text=escape(name)))
            else:
                row.add_widget(self._name_field(index, name))
            seats.add_widget(row)
        known = []
        for name in (*self._snap.setup.roster, *self._snap.setup.last_players):
            if name not in known:
                known.append(name)
        roster = _top_column(self.ids.body, 0.42, cols=2, spacing=scale * 6)
        roster.add_widget(make_button(tr("remove_player"), "remove_player", self.remove_player,
                                      greyed=self.count <= MIN_PLAYERS, reason=tr("min_players")))
        roster.add_widget(make_button(tr("add_player"), "add_player", self.add_player,
                                      greyed=self.count >= MAX_PLAYERS, reason=tr("max_players")))
        roster.add_widget(make_button(("✔ " if self.draw else "") + tr("draw_seats"), "draw", self.toggle_draw,
                                      kind="selected" if self.draw else "normal"))
        seated = self.players()
        # the names not seated yet, as many as fit beside the seats (a tapped name makes room)
        for name in [n for n in known if n not in seated][:ROSTER_SHOWN]:
            roster.add_widget(make_button(escape(name), f"roster_{name}", lambda n=name: self.add_name(n)))

    def _build_rules(self) -> None:
        scale = self.app.scale
        box = _top_column(self.ids.body, 1.0, cols=1, spacing=scale * 8)
        en = self.app.language == "en"

        def line(label: str, buttons: list[Any]) -> None:
            row = BoxLayout(size_hint_y=None, height=scale * theme.BUTTON_HEIGHT, spacing=scale * 6)
            row.add_widget(TLabel(text=label, bold=True, size_hint_x=None, width=scale * 120))
            for button in buttons:
                row.add_widget(button)
            box.add_widget(row)

        tournament = self.tournament_length()
        lengths = []
        if tournament:
            lengths.append(make_button(tr("n_games", n=tournament), "length_tournament",
                                       lambda: self.set_length(-1), kind=self._sel(self.series_length < 0)))
        for n in (12, 24):
            if n != tournament:
                lengths.append(make_button(tr("n_games", n=n), f"length_{n}", lambda n=n: self.set_length(n),
                                           kind=self._sel(self.series_length == n)))
        lengths.append(make_button(tr("open_ended"), "length_open", lambda: self.set_length(0),
                                   kind=self._sel(self.series_length == 0 or (self.series_length < 0 and not tournament))))
        line(tr("series_length"), lengths)
        line(tr("scoring_system"), [
            make_button(tr(f"scoring_{value}"), f"scoring_{value}",
                        lambda v=value: self.set_value("scoring", v), kind=self._sel(self.scoring == value))
            for value in self._snap.setup.scoring
            if value not in PROFILE_SCORING.values() or PROFILE_SCORING.get(self.profile) == value])
        name, about = (PROFILE_LABELS_EN if en else PROFILE_LABELS).get(self.profile, (self.profile, ""))
        line(tr("variants"), [make_button(f"[b]{name}[/b]" + (f" · {about}" if about else "") + " …", "choose_profile",
                                          self.choose_profile)])
        line(tr("stake"), [
            make_button(stake_label(s), f"stake_{s.replace('/', '_')}", lambda s=s: self.set_value("stake", s),
                        kind=self._sel(self.stake == s)) for s in STAKES])

    @staticmethod
    def _sel(on: bool) -> str:
        return "selected" if on else "normal"

    # -- taps --

    def add_player(self) -> None:
        self._collect()
        self.count = min(MAX_PLAYERS, self.count + 1)
        self._build()

    def remove_player(self) -> None:
        self._collect()
        self.count = max(MIN_PLAYERS, self.count - 1)
        self._build()

    def add_name(self, name: str) -> None:
        self._collect()
        for index in range(self.count):
            if not self._names[index]:
                self._names[index] = name
                for field in self._fields():  # _build reads the fields back: the name goes in there
                    if field.name == f"name_{index}":
                        field.text = name
                break
        else:
            self.app.hint(tr("all_seats_taken"))
        self._build()

    def toggle_draw(self) -> None:
        self._collect()
        self.draw = not self.draw
        self._build()

    def set_length(self, value: int) -> None:
        self.series_length = value
        self._build()

    def set_value(self, field: str, value: str) -> None:
        again = field == "profile" and value == CLUB_PROFILE and self.profile == value
        setattr(self, field, value)
        self._build()
        if again:  # the club profile tapped again: its options (001 "Spitze", "Ouvert-Spiele", Pot)
            self.show_club_options()
        elif field == "profile" and value == CLUB_PROFILE:
            self.app.hint(tr("club_options_hint", chosen=self._chosen_words()), "info")

    def _chosen_words(self) -> str:
        return ", ".join(tr(f"club_option_{n}") for n in CLUB_OPTIONS if n in self._club_options) or tr("club_options_none")

    def show_club_options(self) -> None:
        """The choices the rule text offers the club profile (001 "Spitze", "Ouvert-Spiele",
        "Spiel um einen Pot"): each a toggle; the window stays until "fertig"."""
        options = [Option(("✔ " if name in self._club_options else "") + tr(f"club_option_{name}"), f"option_{name}",
                          lambda n=name: self._toggle_club_option(n), kind="selected" if name in self._club_options else "normal")
                   for name in CLUB_OPTIONS]
        options.append(Option(tr("done"), "options_done", lambda: None, kind="confirm"))
        ChoicePopup(tr("club_options_title"), options, text=tr("club_options_text"), cancel=False).open()

    def _toggle_club_option(self, name: str) -> None:
        chosen = set(self._club_options) ^ {name}
        if "ouvert_any" in chosen and "ouvert_doubles" in chosen:  # 001 offers one or the other
            chosen -= {"ouvert_doubles" if name == "ouvert_any" else "ouvert_any"}
        self._club_options = frozenset(chosen)
        self.show_club_options()

    def chosen_profile(self) -> str:
        """The profile name the list opens with: the club profile names its options ("kneipe+spitze+pot")."""
        return club_profile_name(self._club_options) if self.profile == CLUB_PROFILE else self.profile

    def choose_profile(self) -> None:
        """The rule profiles as big buttons, two to a row: the name and what sets it apart."""
        labels = PROFILE_LABELS_EN if self.app.language == "en" else PROFILE_LABELS
        small = int(self.app.scale * theme.FONT_SMALL)
        ChoicePopup(tr("choose_profile"), [
            Option(f"[b]{labels.get(p, (p, ''))[0]}[/b]\n[size={small}]{labels.get(p, (p, ''))[1]}[/size]",
                   f"profile_{p}", lambda p=p: self.set_profile(p), kind=self._sel(self.profile == p))
            for p in self._snap.setup.profiles], cols=2).open()

    def set_profile(self, profile: str) -> None:
        """The profile, and the scoring its lists are kept in (the Danish tournament scoring)."""
        if PROFILE_SCORING.get(profile):
            self.scoring = PROFILE_SCORING[profile]
        elif self.scoring in PROFILE_SCORING.values() and self._snap is not None:
            self.scoring = self._snap.setup.scoring[0]
        self.set_value("profile", profile)

    def go_next(self) -> None:
        """"weiter" on the players page, "Liste beginnen" on the rules page."""
        if self.page == 0:
            names = self.players()
            if any(not n for n in names):
                self.app.hint(tr("names_missing"))
                return
            if len(set(n.casefold() for n in names)) != len(names):
                self.app.hint(tr("names_twice"))
                return
            self.page = 1
            self._build()
            return
        self.app.open_list(self.players(), draw=self.draw, series_length=self.chosen_length(),
                           scoring=self.scoring, profile=self.chosen_profile(), stake=self.stake)

    def go_back(self) -> None:
        if self.page == 1:
            self.page = 0
            self._build()
        else:
            self.app.leave_setup()

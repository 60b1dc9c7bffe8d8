"""Game value and outcome by the ISkO (section 5), including shortened games (4.1–4.3).

(One module over 600 lines on purpose: the game value of ISkO section 5 in one place, read beside
the rule text: declarations, matadors, levels, overbid, shortened games.)

:func:`score_game` turns a declaration, the bid and the counted result of play into the
list entry. Suit and Grand games multiply the base value by the sum of matadors and levels
(Summe der Fälle, 5.3.2); Null games have fixed values (5.1.2); a lost game counts double
(5.3.4); an overbid game is lost at the smallest multiple of the base value that reaches the
bid (5.4.1, 5.4.2), and no game is worth more than 264 (so never below -528). A result the
cards cannot give (Augen no set of cards adds up to, a Schwarz "ohne") is refused, and a level
the matadors rule out is never awarded for the defenders' fault (5.4.3).

Kreuz Hand mit 2, won simple: (2 + Spiel + Hand) x 12 = 48.

>>> decl = Declaration.make(GameType.CLUBS, hand=True)
>>> result = score_game(decl, 18, Play(declarer_points=75, declarer_tricks=6, matadors=2))
>>> result.won, result.value, result.score, result.levels
(True, 48, 48, ('mit 2', 'Spiel', 'Hand'))

ISkO 5.4.2: Herz Hand ohne 3 bid to 36, Kreuz-Bube in the skat (so only "mit 1"): the game
is won on points but overbid, and lost at 4 x 10:

>>> r = score_game(Declaration.make(GameType.HEARTS, hand=True), 36, Play(80, 7, matadors=1))
>>> r.won, r.overbid, r.value, r.score
(False, True, 40, -80)

ISkO 5.4.3: Pik Hand ohne 1 bid to 55 needs Schwarz, which no deal allows "ohne": the
defenders' concession does not win it.

>>> gave_up = Ending(EndedBy.DEFENDERS_GAVE_UP, defender_points=0, defender_tricks=0)
>>> r = score_game(Declaration.make(GameType.SPADES, hand=True), 55, Play(0, 0, matadors=-1), ending=gave_up)
>>> r.won, r.value, r.score
(False, 55, -110)
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Collection
from dataclasses import dataclass, replace

from device.bidding import BID_VALUES, LOWEST_BID, max_factor
from device.cards import DECK, Card
from device import tournee
from device.declaration import Declaration, Level, form_words
from device.errors import BidError, DeclarationError, PlayError
from device.games import GameType
from device.profile import ISKO, RuleProfile
from device.skatform import SkatForm
from device.tricks import trump_order

MAX_VALUE = 264  # the highest game value (Grand ouvert mit 4); ISkO court ruling on 5.4.2
SCHNEIDER_LINE = 30  # a party with 30 Augen or fewer is Schneider (5.2.3)
MAX_SUIT_FACTOR = 18  # 11 matadors + 7 levels (ISkO 5.3.2)
MAX_MATADORS = {GameType.GRAND: 4}  # suit games: 11


def _totals_by_count() -> tuple[frozenset[int], ...]:
    """For n = 0..32: every total of Augen that some n cards of the deck hold (1 never: no card
    is worth 1; two cards never make 9)."""
    # Each count's totals as the bits of one int (bit t set: some n cards hold t Augen), so a
    # card adds its Augen to all of them in one shift (a set per step took 7 ms at import).
    bits = [1] + [0 for _ in DECK]
    for card in DECK:
        points = card.points
        for n in range(len(DECK) - 1, -1, -1):
            bits[n + 1] |= bits[n] << points
    return tuple(frozenset(t for t in range(bits[n].bit_length()) if bits[n] >> t & 1) for n in range(len(bits)))


_TOTALS = _totals_by_count()
_MOST = tuple(max(t) for t in _TOTALS)  # the most Augen n cards can hold


def uncounted_tricks(points: int) -> int:
    """A number of tricks for ``points`` Augen when the tricks were not counted: neither party
    took all of them, so any count from 1 to 9 that can hold the Augen gives the same value
    (tricks decide only Schwarz). Counts that fit nothing give 5, refused with the Augen.

    >>> uncounted_tricks(75), uncounted_tricks(0), uncounted_tricks(120), uncounted_tricks(118)
    (2, 1, 6, 6)
    """
    for tricks in range(1, 10):
        cards = 3 * tricks + 2
        if points in _TOTALS[cards] and 120 - points in _TOTALS[32 - cards]:
            return tricks
    return 5


class InvalidResultError(PlayError):
    """A counted result that no Skat game can have; ``field`` names the culprit, ``german``
    (where given) says it in the table's words for the screen."""

    def __init__(self, field: str, reason: str, german: str = "") -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
        self.german = german


class InvalidBidError(InvalidResultError, BidError):
    """A bid that is not a bid value (ISkO 3.3.1); ``field`` is ``"bid"``."""


class EndedBy(enum.Enum):
    """How a game ended: played to the end, or shortened (ISkO 4.1–4.3)."""

    PLAYED = "played"
    DECLARER_GAVE_UP = "declarer_gave_up"  # 4.3.1, 4.3.2
    DEFENDERS_GAVE_UP = "defenders_gave_up"  # 4.3.3
    DECLARER_VIOLATION = "declarer_violation"  # 4.1.3-4.1.6, 4.2.3/4.2.4 by the declarer
    DEFENDERS_VIOLATION = "defenders_violation"  # ... by a defender
    NULL_OVERBID = "null_overbid"  # a Null announced above its value ends at once, lost (3.4.4)

    @property
    def by_defenders(self) -> bool:
        return self in (EndedBy.DEFENDERS_GAVE_UP, EndedBy.DEFENDERS_VIOLATION)

    @property
    def by_declarer(self) -> bool:
        return self in (EndedBy.DECLARER_GAVE_UP, EndedBy.DECLARER_VIOLATION, EndedBy.NULL_OVERBID)


@dataclass(frozen=True, slots=True)
class Play:
    """The counted result of play: the declarer's card points (skat included) and tricks.

    In a shortened game these are the counts when it ended. ``matadors`` is signed
    (+2 "mit 2", -3 "ohne 3"); 0 for Null.
    """

    declarer_points: int
    declarer_tricks: int
    matadors: int = 0


@dataclass(frozen=True, slots=True)
class Ending:
    """How the game ended, with what a shortened game needs to be decided.

    ``defender_points``/``defender_tricks``: the defenders' counts when the game ended
    (needed when the defenders ended it: has the declarer's required level already been
    prevented? 4.1.5). ``level_possible``: False when the level the declarer needed was
    theoretically out of reach before the first trick (5.4.3). ``proven_level``: a higher
    level the innocent party is proven to have been sure to reach (4.1.4, second sentence).
    ``reachable``: the highest level the cards leave theoretically reachable (see
    :func:`reachable_level`) when the declarer's cards are known; None decides 5.4.3 from the
    matadors alone (:func:`level_reachable`), as the counted form must.
    """

    by: EndedBy = EndedBy.PLAYED
    defender_points: int | None = None
    defender_tricks: int | None = None
    level_possible: bool = True
    proven_level: Level = Level.SIMPLE
    reachable: Level | None = None


PLAYED_OUT = Ending()

#: A Schenken's outcome by its record name: the German and the English words of the list entry.
SCHENKEN_WORDS: dict[str, tuple[str, str]] = {
    "geschenkt": ("geschenkt", "given"),
    "weiterspielen": ("weitergespielt auf Schneider", "played on for Schneider"),
    "schneider_geschenkt": ("Schneider geschenkt", "Schneider given"),
    "weiterspielen_schwarz": ("weitergespielt auf Schwarz", "played on for Schwarz"),
}


@dataclass(frozen=True, slots=True)
class GameResult:
    """A scored game: what the list records (ISkO 5.5.2) and the signed list entry."""

    declaration: Declaration
    bid: int
    won: bool
    value: int
    score: int
    overbid: bool
    matadors: int
    multiplier: int
    base_value: int
    factor: int  # Summe der Fälle; 0 for Null
    levels: tuple[str, ...]
    schneider: bool
    schwarz: bool
    declarer_points: int
    declarer_tricks: int
    ended_by: EndedBy
    #: The Null that was announced when the bid was above its value (ISkO 3.4.4): the game
    #: then ended at once, and ``declaration`` is the suit or Grand game it is lost as.
    null_announced: Declaration | None = None
    #: That Null's value under the profile (ISkO 5.1.2: 23 for Null; Texas-Skat: 20).
    null_announced_value: int = 0
    #: Where a Schenken ended (001 "Schenken"; the record's name, a key of :data:`SCHENKEN_WORDS`), or "".
    schenken: str = ""

    def describe_de(self) -> str:
        """The list entry in words, e.g. 'Kreuz Hand mit 2, Spiel 3, Hand 4 = 48, gewonnen +48'."""
        if self.null_announced is not None:
            null = self.null_announced
            return (f"{null.describe_de()} ({self.null_announced_value}) bei Reizwert {self.bid} nicht durchführbar "
                    f"(ISkO 3.4.4): verloren als {replace(self, null_announced=None).describe_de()}")
        head = self.declaration.describe_de()
        if self.declaration.game.is_null:
            body = f"{head} = {self.value}"
        else:
            body = f"{head} {', '.join(_numbered(self.levels, self.levels, self.matadors))} = {self.value}"
            if self.overbid:
                body = f"{head} {self.levels[0]}, überreizt = {self.value}"
        if self.schenken:
            body = f"{body}, {SCHENKEN_WORDS[self.schenken][0]}"
        outcome = "gewonnen" if self.won else "verloren"
        return f"{body}, {outcome} {self.score:+d}"

    def describe_en(self) -> str:
        """The list entry in English words, the Skat terms kept as players say them.

        >>> r = score_game(Declaration.make(GameType.CLUBS, hand=True), 18, Play(75, 6, matadors=2))
        >>> r.describe_de()
        'Kreuz Hand mit 2, Spiel 3, Hand 4 = 48, gewonnen +48'
        >>> r.describe_en()
        'Clubs Hand with 2, game 3, Hand 4 = 48, won +48'
        >>> score_game(Declaration.make(GameType.HEARTS, hand=True), 36, Play(80, 7, matadors=1)).describe_en()
        'Hearts Hand with 1, overbid = 40, lost -80'
        >>> score_game(Declaration.make(GameType.NULL, ouvert=True), 23, Play(0, 1)).describe_en()
        'Null ouvert = 46, lost -92'
        """
        if self.null_announced is not None:
            null = self.null_announced
            return (f"{describe_declaration_en(null)} ({self.null_announced_value}) cannot reach the bid {self.bid} "
                    f"(ISkO 3.4.4): lost as {replace(self, null_announced=None).describe_en()}")
        head = describe_declaration_en(self.declaration)
        if self.declaration.game.is_null:
            body = f"{head} = {self.value}"
        else:
            words = [level_en(word) for word in self.levels]
            body = f"{head} {', '.join(_numbered(self.levels, words, self.matadors))} = {self.value}"
            if self.overbid:
                body = f"{head} {words[0]}, overbid = {self.value}"
        if self.schenken:
            body = f"{body}, {SCHENKEN_WORDS[self.schenken][1]}"
        outcome = "won" if self.won else "lost"
        return f"{body}, {outcome} {self.score:+d}"


#: The step of a profile where ouvert doubles the value instead of adding a level (001 "Texas-Skat").
OUVERT_DOUBLED = "ouvert doppelt"


def _numbered(levels: tuple[str, ...], words: list[str] | tuple[str, ...], matadors: int) -> list[str]:
    """The steps as players count them: 'mit 2', 'Spiel 3', 'Hand 4'; a doubling ouvert doubles
    the count ("Schwarz angesagt 9, offen (Ouvert) 18", 001 "Texas-Skat")."""
    out, count = [words[0]], abs(matadors)
    for level, word in zip(levels[1:], words[1:]):
        count = count * 2 if level == OUVERT_DOUBLED else count + 1
        out.append(f"{word} {count}")
    return out


#: The games as English play names them: the suits in English, Grand and Null as they are.
GAME_NAMES_EN = {
    GameType.CLUBS: "Clubs", GameType.SPADES: "Spades", GameType.HEARTS: "Hearts",
    GameType.DIAMONDS: "Diamonds", GameType.GRAND: "Grand", GameType.NULL: "Null",
}
_LEVELS_EN = {"Spiel": "game", "Schneider angesagt": "Schneider announced", "Schwarz angesagt": "Schwarz announced",
              OUVERT_DOUBLED: "ouvert doubled"}


def level_en(word: str) -> str:
    """One step of :attr:`GameResult.levels` in English; Hand, Schneider, Schwarz and ouvert stay.

    >>> [level_en(w) for w in ("mit 2", "ohne 3", "Spiel", "Hand", "Schneider angesagt", "ouvert")]
    ['with 2', 'without 3', 'game', 'Hand', 'Schneider announced', 'ouvert']
    """
    if word.startswith("mit "):
        return "with " + word[4:]
    if word.startswith("ohne "):
        return "without " + word[5:]
    return _LEVELS_EN.get(word, word)


def describe_declaration_en(declaration: Declaration) -> str:
    """A declaration in English, as :meth:`Declaration.describe_de` says it in German.

    >>> describe_declaration_en(Declaration.make(GameType.SPADES, hand=True, announced=Level.SCHNEIDER))
    'Spades Hand Schneider announced'
    >>> describe_declaration_en(Declaration.make(GameType.GRAND, hand=True, ouvert=True))
    'Grand ouvert'
    >>> describe_declaration_en(Declaration.make(GameType.NULL, hand=True, ouvert=True))
    'Null ouvert Hand'
    """
    name = GAME_NAMES_EN[declaration.game]
    if declaration.form is not SkatForm.GERMAN and (declaration.tournee is not None or declaration.game.is_null
                                                    or declaration.ouvert_any):
        return form_words(declaration, GAME_NAMES_EN, english=True)  # Tournee, Solo, Guckser; Nul, Dækker
    if declaration.ouvert and not declaration.game.is_null and not declaration.hand:  # Texas-Skat
        return f"{name} ouvert after the skat"
    if declaration.ouvert:  # suit and Grand ouvert are always hand and announced Schwarz (ISkO)
        return f"{name} ouvert" + (" Hand" if declaration.game.is_null and declaration.hand else "")
    words = [name] + (["Hand"] if declaration.hand else [])
    if declaration.announced is not Level.SIMPLE:
        words.append(f"{declaration.announced.german} announced")  # Schneider, Schwarz: the Skat words
    return " ".join(words)


def score_game(
    declaration: Declaration,
    bid: int,
    play: Play,
    *,
    ending: Ending = PLAYED_OUT,
    multiplier: int = 1,
    profile: RuleProfile = ISKO,
) -> GameResult:
    """Score one declarer game. ``multiplier`` is Kontra/Re/Bock (1, 2, 4, ...)."""
    check_declaration(declaration, profile)
    _check_bid(declaration, bid, profile)
    _check_play(declaration, play, ending)
    if multiplier < 1:
        raise InvalidResultError("multiplier", f"{multiplier} is not a multiplier: 1 or more")
    if declaration.game.is_null:
        won = _null_won(play, ending)
        return _result(declaration, bid, play, ending, won, null_value(declaration, profile), 0, (), False, False,
                       False, multiplier, profile)
    won, schneider, schwarz = _decide(declaration, bid, play, ending, profile)
    base = _base_value(declaration, profile)
    factor, levels = _factor(declaration, play.matadors, schneider, schwarz, profile)
    value, overbid = base * factor, False
    if value < bid:
        # 5.4.1/5.4.2: the smallest multiple of the base value reaching the bid, but never
        # more than the highest game (court ruling on 5.4.2: at most 264, so -528).
        won, overbid = False, True
        value = min(_highest_value(profile), -(-bid // base) * base)
    return _result(declaration, bid, play, ending, won, value, factor, levels, overbid, schneider, schwarz,
                   multiplier, profile)


def _result(
    decl: Declaration, bid: int, play: Play, ending: Ending, won: bool, value: int, factor: int,
    levels: tuple[str, ...], overbid: bool, schneider: bool, schwarz: bool, multiplier: int, profile: RuleProfile,
) -> GameResult:
    score = (value if won else -_lost_factor(decl, profile) * value) * multiplier
    return GameResult(
        declaration=decl, bid=bid, won=won, value=value, score=score, overbid=overbid,
        matadors=play.matadors, multiplier=multiplier, base_value=_base_value(decl, profile), factor=factor,
        levels=levels, schneider=schneider, schwarz=schwarz, declarer_points=play.declarer_points,
        declarer_tricks=play.declarer_tricks, ended_by=ending.by,
    )


def _lost_factor(decl: Declaration, profile: RuleProfile) -> int:
    """ISkO 5.3.4: a lost game counts double; before 1999 a lost hand game single; Tournée-Skat
    by its game (device.tournee.lost_factor)."""
    if tournee.is_tournee(profile):
        return tournee.lost_factor(decl)
    return 1 if (decl.hand and not profile.lost_hand_doubled) else 2


def _base_value(decl: Declaration, profile: RuleProfile) -> int:
    if tournee.is_tournee(profile):
        return tournee.base_value(decl, profile)
    if decl.game is GameType.GRAND and decl.ouvert:
        return profile.grand_ouvert_base
    return base_value(decl.game, profile)


def base_value(game: GameType, profile: RuleProfile = ISKO) -> int:
    """A game's base value under the profile: Grand 24 by the ISkO, 16 in Texas-Skat (001).

    >>> from device.profile import find_profile
    >>> base_value(GameType.GRAND), base_value(GameType.GRAND, find_profile("texas")), base_value(GameType.CLUBS)
    (24, 16, 12)
    """
    return profile.grand_base if game is GameType.GRAND else game.base_value


def null_value(decl: Declaration, profile: RuleProfile = ISKO) -> int:
    """The fixed value of a Null game under the profile (ISkO 5.1.2; 001 "Texas-Skat": "Das
    Nullspiel ist 20 Punkte wert, Null-Hand 30, Null Ouvert 40 und Null Ouvert-Hand 60"); 0 for
    other games.

    >>> from device.profile import find_profile
    >>> null_value(Declaration.make(GameType.NULL, hand=True, ouvert=True), find_profile("texas"))
    60
    """
    if not decl.game.is_null:
        return 0
    return profile.null_values[2 * decl.ouvert + decl.hand]  # 0: not played (Danish Null Hand)


def check_declaration(decl: Declaration, profile: RuleProfile) -> None:
    """Refuse (DeclarationError) a declaration the profile does not play: a Danish Null Hand,
    a Tournee game elsewhere, an ouvert after the skat by the ISkO.

    >>> from device.profile import DANISH
    >>> check_declaration(Declaration.make(GameType.NULL, hand=True, form=DANISH.form), DANISH)
    Traceback (most recent call last):
    ...
    device.errors.DeclarationError: Nul Hand is not played under the rule profile 'danish'
    """
    if tournee.is_tournee(profile):
        tournee.check_declaration(decl, profile)
        return
    if decl.tournee is not None:
        raise DeclarationError(f"{decl.describe_de()}: a game of Tournee-Skat, not played under the rule profile "
                               f"{profile.name!r} (--profile tournee)")
    if decl.game.is_null and not null_value(decl, profile):
        raise DeclarationError(f"{decl.describe_de()} is not played under the rule profile {profile.name!r}")
    if decl.ouvert and decl.ouvert_any != profile.ouvert_any and not decl.game.is_null:
        raise DeclarationError(f"{decl.describe_de()}: ouvert is {'a level of any game' if decl.ouvert_any else 'Schwarz announced'}"
                               f", not so under the rule profile {profile.name!r} (001 \"Dänischer Skat\" 4)")
    late_ouvert = decl.ouvert and not profile.ouvert_any
    late = not decl.hand and not decl.game.is_null and (late_ouvert or decl.announced is not Level.SIMPLE)
    if late and not profile.announce_after_skat:
        raise DeclarationError(f"{decl.describe_de()}: announcements after taking up the skat are not played under "
                               f"the rule profile {profile.name!r} (ISkO 3.4.4; Texas-Skat allows them: --profile texas)")


def bid_values(profile: RuleProfile = ISKO) -> frozenset[int]:
    """Every bid value under the profile: the values games can have (ISkO 3.3.1), 18 and up.

    001 "Texas-Skat" gives Grand 16 and Null 20/30/40/60, so 32 (Grand mit 1) is a Texas bid
    and 23 (the ISkO's Null) is not; a doubling ouvert doubles every factor.

    >>> from device.profile import find_profile
    >>> texas = bid_values(find_profile("texas"))
    >>> 32 in texas, 23 in texas, 23 in bid_values(), 32 in bid_values()
    (True, False, True, False)
    """
    if tournee.is_tournee(profile):
        return tournee.bid_values(profile)
    if profile.grand_base == ISKO.grand_base and profile.null_values == ISKO.null_values and not profile.ouvert_doubles:
        return _ISKO_BIDS
    return _profile_bid_values(profile.grand_base, profile.grand_ouvert_base, profile.null_values, profile.ouvert_doubles)


_ISKO_BIDS = frozenset(BID_VALUES)


@functools.cache
def _profile_bid_values(grand: int, grand_ouvert: int, nulls: tuple[int, ...], doubles: bool) -> frozenset[int]:
    values = set(nulls)
    for game in GameType:
        if game.is_null:
            continue
        base = grand if game is GameType.GRAND else game.base_value
        top = max_factor(game) - doubles  # a doubling ouvert is no level of its own
        values |= {base * f for f in range(2, top + 1)}
        if doubles:  # at least mit 1, Spiel, Schneider, angesagt, Schwarz, angesagt: 6, doubled
            ouvert_base = grand_ouvert if game is GameType.GRAND else base
            values |= {ouvert_base * 2 * f for f in range(6, top + 1)}
    return frozenset(v for v in values if v >= LOWEST_BID)


def _counts_ouvert(decl: Declaration, profile: RuleProfile) -> bool:
    """Ouvert is a level of its own (5.2.6); before 1999 not in Grand ouvert, which had its own
    base value 36 instead (file 001, Varianten): Grand ouvert mit 4 was 10 x 36 = 360."""
    return decl.ouvert and (decl.game is not GameType.GRAND or profile.grand_ouvert_counts_ouvert)


def _highest_value(profile: RuleProfile) -> int:
    """The value of the highest game: Grand ouvert mit 4, 264 by the ISkO (360 before 1999).

    Where ouvert doubles (Texas-Skat) Kreuz ouvert Hand mit 11 is higher: (11 + 6) x 2 x 12 = 408
    against Grand ouvert Hand mit 4, (4 + 6) x 2 x 16 = 320. The text names no highest value;
    the court's cap (the highest game there is) is read as the highest of all games.
    """
    if tournee.is_tournee(profile):
        return tournee.highest_value(profile)
    grand_ouvert = Declaration.make(GameType.GRAND, hand=True, ouvert=True)
    clubs_ouvert = Declaration.make(GameType.CLUBS, hand=True, ouvert=True)
    return max(_value(grand_ouvert, 4, True, True, profile), _value(clubs_ouvert, 11, True, True, profile))


def _factor(
    decl: Declaration, matadors: int, schneider: bool, schwarz: bool, profile: RuleProfile
) -> tuple[int, tuple[str, ...]]:
    """Summe der Fälle (5.3.2) and the words of each step, e.g. ('mit 2', 'Spiel', 'Hand')."""
    steps = [
        (True, "Spiel"),
        (decl.hand and profile.form is not SkatForm.TOURNEE, "Hand"),  # Tournee-Skat: "keinen Handmultiplikator"
        (schneider, "Schneider"),
        (decl.announced >= Level.SCHNEIDER, "Schneider angesagt"),
        (schwarz, "Schwarz"),
        (decl.announced is Level.SCHWARZ, "Schwarz angesagt"),
        (_counts_ouvert(decl, profile) and not profile.ouvert_doubles, "ouvert"),
    ]
    words = tuple(word for counted, word in steps if counted)
    with_word = "mit" if matadors > 0 else "ohne"
    factor = abs(matadors) + len(words)
    if decl.ouvert and profile.ouvert_doubles:
        # 001 "Texas-Skat": "Die Ansage von Ouvert verdoppelt den Wert des Spiels anstatt einen
        # Multiplikator hinzuzufügen"; its example doubles the count: "Schwarz angesagt 9, offen
        # (Ouvert) 18; 18-mal 16 ergibt 288 Punkte".
        return 2 * factor, (f"{with_word} {abs(matadors)}", *words, OUVERT_DOUBLED)
    return factor, (f"{with_word} {abs(matadors)}", *words)


def _decide(decl: Declaration, bid: int, play: Play, ending: Ending, profile: RuleProfile) -> tuple[bool, bool, bool]:
    """Won? and which of the levels Schneider and Schwarz count (suit and Grand games)."""
    if ending.by is EndedBy.PLAYED:
        return _decide_played(decl, play, profile)
    if ending.by is EndedBy.DECLARER_VIOLATION:
        won, schneider, schwarz = _decide_played(decl, play, profile)
        if won and _value(decl, play.matadors, schneider, schwarz, profile) >= bid and decl.announced < Level.SCHWARZ:
            # Already decided for him (4.1.3), but the guilty party proves no higher level
            # (court ruling on 4.1.3/4.1.4): only the level the bid and his announcement need.
            needed = level_needed(decl, play.matadors, bid, profile) or Level.SIMPLE
            return True, needed >= Level.SCHNEIDER, needed is Level.SCHWARZ
    if ending.by.by_declarer:
        return _lost_simple(decl, ending)
    return _decide_defenders_ended(decl, bid, play, ending, profile)


def _decide_played(decl: Declaration, play: Play, profile: RuleProfile) -> tuple[bool, bool, bool]:
    made_schneider = play.declarer_points >= profile.schneider_at
    made_schwarz = play.declarer_tricks == 10
    announced = decl.announced
    won = (
        play.declarer_points >= 61
        and (announced < Level.SCHNEIDER or made_schneider)
        and (announced < Level.SCHWARZ or made_schwarz)
    )
    if won:
        return True, made_schneider, made_schwarz
    # Lost: his own Schneider/Schwarz counts, the announced level at least, never twice (5.2.5).
    schneider = play.declarer_points <= 30 or announced >= Level.SCHNEIDER or made_schneider
    schwarz = play.declarer_tricks == 0 or announced is Level.SCHWARZ
    return False, schneider, schwarz


def _lost_simple(decl: Declaration, ending: Ending) -> tuple[bool, bool, bool]:
    """Lost 'einfach' (4.1.4, 4.3.1), at least at the announced level (5.2.5)."""
    level = max(decl.announced, ending.proven_level)
    return False, level >= Level.SCHNEIDER, level is Level.SCHWARZ


def _decide_defenders_ended(
    decl: Declaration, bid: int, play: Play, ending: Ending, profile: RuleProfile
) -> tuple[bool, bool, bool]:
    """The defenders gave up or broke a rule: the declarer wins, with the level he needed
    awarded (4.1.5) unless it was already out of his reach or theoretically impossible (5.4.3).

    5.4.3 covers the levels he needs by the bid and those he announced: the older wording
    (rules/000) says "Ein überreiztes Spiel", the court's (rules/002) "Ein Spiel, bei dem das
    Erreichen einer erforderlichen höheren Gewinnstufe ..."; Skattisch follows 002."""
    defender_points = ending.defender_points or 0
    defender_tricks = ending.defender_tricks or 0
    needed = level_needed(decl, play.matadors, bid, profile)
    if needed is None or defender_points >= 60:
        return _lost_simple(decl, ending)
    # 5.4.3: the cards decide where they are known (they never leave more than the matadors do)
    possible = (ending.level_possible and level_reachable(decl.game, play.matadors, needed, profile)
                and (ending.reachable is None or needed <= ending.reachable))
    if needed >= Level.SCHNEIDER and (defender_points > _defenders_schneider_line(profile) or not possible):
        return _lost_simple(decl, ending)
    if needed is Level.SCHWARZ and defender_tricks > 0:
        return _lost_simple(decl, ending)
    level = max(needed, ending.proven_level, Level.SCHNEIDER if play.declarer_points >= profile.schneider_at else Level.SIMPLE)
    return True, level >= Level.SCHNEIDER, level is Level.SCHWARZ


def level_needed(decl: Declaration, matadors: int, bid: int, profile: RuleProfile = ISKO) -> Level | None:
    """The lowest level that wins this declaration at this bid; None if none does.

    >>> level_needed(Declaration.make(GameType.CLUBS, hand=True), 1, 48)
    <Level.SCHNEIDER: 1>
    """
    for level in Level:
        if level < decl.announced:
            continue
        if _value(decl, matadors, level >= Level.SCHNEIDER, level is Level.SCHWARZ, profile) >= bid:
            return level
    return None


def _value(decl: Declaration, matadors: int, schneider: bool, schwarz: bool, profile: RuleProfile) -> int:
    return _base_value(decl, profile) * _factor(decl, matadors, schneider, schwarz, profile)[0]


def missing_top_points(game: GameType, matadors: int) -> int:
    """Card points of the top trumps a declarer "ohne" lacks; 0 "mit".

    Those trumps sit with the defenders (matadors count the skat too) and win every trick
    they fall in, so the defenders are sure of these Augen.

    >>> missing_top_points(GameType.HEARTS, -6), missing_top_points(GameType.HEARTS, -7)
    (29, 33)
    >>> missing_top_points(GameType.GRAND, -4), missing_top_points(GameType.CLUBS, 3)
    (8, 0)
    """
    return sum(card.points for card in trump_order(game)[: max(0, -matadors)])


def level_reachable(game: GameType, matadors: int, level: Level, profile: RuleProfile = ISKO) -> bool:
    """Whether the matadors alone leave a level theoretically reachable (ISkO 5.4.3).

    "Ohne" the defenders hold the Kreuz Bube, which takes a trick: no Schwarz (the example
    of 5.4.3). Schneider is out of reach when the missing top trumps alone carry more than
    30 Augen (ohne 7 and more in a suit game: the four jacks, ace, ten and king are 33).

    >>> level_reachable(GameType.SPADES, -1, Level.SCHWARZ), level_reachable(GameType.SPADES, 1, Level.SCHWARZ)
    (False, True)
    >>> level_reachable(GameType.SPADES, -6, Level.SCHNEIDER), level_reachable(GameType.SPADES, -7, Level.SCHNEIDER)
    (True, False)
    """
    if level is Level.SCHWARZ:
        return matadors > 0
    if level is Level.SCHNEIDER:
        return missing_top_points(game, matadors) <= _defenders_schneider_line(profile)
    return True


def _defenders_schneider_line(profile: RuleProfile) -> int:
    """The most Augen with which the defenders are still Schneider: 30 by the ISkO (5.2.3), 29 in
    Texas-Skat ("Mit 30 Augenpunkten sind die Gegner aus dem Schneider", 001)."""
    return 120 - profile.schneider_at


def reachable_level(
    game: GameType, declarer_cards: Collection[Card], defender_cards: Collection[Card], profile: RuleProfile = ISKO
) -> Level:
    """The highest level the declarer's cards leave theoretically reachable (ISkO 5.4.3).

    The court's reading (rules/002 on 5.4.3) is the authority: how the defenders' cards
    actually lie between them and how they played does not matter; a level is out of reach
    only if not even the best split of their cards with the worst defence gives it to the
    declarer. So the defenders' trumps decide, not the matadors: whoever holds the trumps, each
    one falls in some trick, and the declarer takes that trick only with a higher trump of his
    own, one trump of his for at most two of theirs (a trick has one card of his, two of
    theirs).

    - Schwarz: every trump of the defenders must be covered so: sorted from the top, their
      n-th trump needs at least (n + 1) // 2 of his trumps above it. At the least, no defender
      may hold a trump above all of his. In a Grand this is the court's "Kreuz-Bube with any
      other jack". The court's table of minimum holdings for suit games asks for more in a few
      holdings (e.g. 8 trumps with Kreuz and Karo Bube, where Pik and Herz Bube can still fall
      together on the Kreuz Bube); Skattisch follows the principle the court states above the
      table and lets only what no deal allows take a level away.
    - Schneider: the defenders' trumps above all of his win their tricks whatever happens;
      if they alone carry more than 30 Augen, Schneider is out of reach.

    ``declarer_cards`` are the cards he plays (his ten after pushing, or every card he may
    hold when only part is known); ``defender_cards`` the defenders' cards (or those known to
    be theirs): both only ever widen his chances when cards are unknown, so a level is taken
    away only when the known cards prove it out of reach. The skat lies where it lies: its two
    cards are neither side's, also in a hand game (Skattisch's choice where the texts leave it
    open: 5.4.3's own example, "Schwarz ohne 1 Spitze", counts the Spitzen with the skat as it
    lies, and the court's note on 3.3.10 keeps the skat out of 5.4.3 only while it is still
    hidden; "the actual distribution does not matter" is read as the split of the defenders'
    cards, which nobody knows before the first trick).

    The worked example: Kreuz Bube in the skat of a hand game, the defenders hold Pik,
    Herz and Karo Bube over all of his trumps (Kreuz 10, 9, 8, 7): no Schwarz, although he is
    "mit 1"; Schneider stays possible (their jacks and the Kreuz Ass above them are 17 Augen).

    >>> from device.cards import parse_cards
    >>> mine = parse_cards("HQ C7 C9 SA C8 S9 CT DK S7 SQ")
    >>> theirs = [c for c in DECK if c not in mine and c not in parse_cards("H8 CJ")]
    >>> reachable_level(GameType.CLUBS, mine, theirs)
    <Level.SCHNEIDER: 1>
    >>> reachable_level(GameType.GRAND, parse_cards("CJ DJ"), parse_cards("SJ HJ"))
    <Level.SCHWARZ: 2>
    >>> reachable_level(GameType.GRAND, parse_cards("CJ"), parse_cards("SJ HJ DJ"))
    <Level.SCHNEIDER: 1>
    """
    order = trump_order(game)
    if not order:
        return Level.SCHWARZ
    rank = {card: i for i, card in enumerate(order)}  # 0 is the highest trump
    mine = sorted(rank[c] for c in declarer_cards if c in rank)
    theirs = sorted(rank[c] for c in defender_cards if c in rank)
    covered = all(sum(1 for m in mine if m < t) >= n // 2 + 1 for n, t in enumerate(theirs))
    if covered:
        return Level.SCHWARZ
    top = mine[0] if mine else len(order)
    sure_augen = sum(order[t].points for t in theirs if t < top)
    return Level.SIMPLE if sure_augen > _defenders_schneider_line(profile) else Level.SCHNEIDER


def is_overbid_null(declaration: Declaration, bid: int, profile: RuleProfile = ISKO) -> bool:
    """A Null announced after a bid above its value: "nicht mehr durchführbar" (ISkO 3.4.4; the
    court: "nicht mehr durchführbar = überreizt").

    >>> is_overbid_null(Declaration.make(GameType.NULL), 24), is_overbid_null(Declaration.make(GameType.NULL), 23)
    (True, False)
    """
    return declaration.game.is_null and bid > null_value(declaration, profile)


#: The games an overbid Null may be lost as, cheapest first (ISkO 3.4.4: "Farb- oder Grandspiel").
_LOST_AS_ORDER = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND)


def overbid_null_game(bid: int, matadors: int, profile: RuleProfile = ISKO) -> GameType:
    """The suit or Grand game an overbid Null is lost as (ISkO 3.4.4).

    The rule names no game, only "the last bid and the number of Spitzen he has or lacks".
    Skattisch takes the game of least value that reaches the bid with his matadors and the
    single level "Spiel" (no Hand: the rule counts only bid and Spitzen): like any game it
    must be worth the bid (5.4.1), and the rule charges no more than that, just as 3.4.3 lets
    a declarer who cannot win any more choose the cheapest game that meets the bid. If none
    reaches the bid, the smallest multiple of a base value does (5.4.1). Equal values: the
    game that reaches the bid without multiplying first, then the lower base value. Grand
    only while the matadors fit it (4 at most).

    Null (23) after 24: "mit 1" Kreuz 2 x 12 = 24; "ohne 2" Karo 3 x 9 = 27; "mit 1" after 30:
    no game reaches 30 with factor 2, so Herz 3 x 10 = 30 (5.4.1).

    >>> overbid_null_game(24, 1), overbid_null_game(24, -2), overbid_null_game(30, 1)
    (<GameType.CLUBS: 'clubs'>, <GameType.DIAMONDS: 'diamonds'>, <GameType.HEARTS: 'hearts'>)
    """
    _check_matadors(GameType.CLUBS, matadors)
    factor = abs(matadors) + 1

    def cost(game: GameType) -> tuple[int, bool, int]:
        base = base_value(game, profile)
        value = base * factor if base * factor >= bid else min(_highest_value(profile), -(-bid // base) * base)
        return value, base * factor < bid, base

    games = [g for g in _LOST_AS_ORDER if abs(matadors) <= MAX_MATADORS.get(g, 11)]
    return min(games, key=cost)


def score_overbid_null(
    null: Declaration,
    bid: int,
    matadors: int,
    *,
    lost_as: GameType | None = None,
    multiplier: int = 1,
    profile: RuleProfile = ISKO,
) -> GameResult:
    """An overbid Null (ISkO 3.4.4): the announcement stands (3.4.1, 3.4.7) and ends the game at
    once, lost as a suit or Grand game "unter Berücksichtigung der letzten Reizhöhe und der
    Anzahl der vorhandenen oder fehlenden Spitzen": by default the one
    :func:`overbid_null_game` picks, or ``lost_as`` when the list names it; lost einfach, and
    at the bid at least (5.4.1). ``matadors`` count in that game.

    Null (23) after 24, mit 1: Kreuz mit 1, Spiel 2 = 24, lost -48.

    >>> r = score_overbid_null(Declaration.make(GameType.NULL), 24, 1)
    >>> r.declaration.game, r.won, r.value, r.score
    (<GameType.CLUBS: 'clubs'>, False, 24, -48)
    >>> r.describe_de()
    'Null (23) bei Reizwert 24 nicht durchführbar (ISkO 3.4.4): verloren als Kreuz mit 1, Spiel 2 = 24, verloren -48'
    """
    if tournee.is_tournee(profile):
        raise InvalidResultError("bid", f"{null.describe_de()} is worth {null_value(null, profile)}: it cannot be played "
                                        f"after bidding {bid} under the rule profile {profile.name!r} (001 Tournee-Skat "
                                        "gives no rule for an overbid Null)")
    if not is_overbid_null(null, bid, profile):
        raise InvalidResultError("bid", f"{null.describe_de()} is worth {null_value(null, profile)}: it can be played at {bid}")
    _check_bid(Declaration.make(GameType.GRAND), bid, profile)
    game = overbid_null_game(bid, matadors, profile) if lost_as is None else lost_as
    if game.is_null:
        raise InvalidResultError("lost_as", "an overbid Null is lost as a suit or Grand game (ISkO 3.4.4)")
    _check_matadors(game, matadors)
    ended = Ending(EndedBy.NULL_OVERBID)
    result = score_game(Declaration.make(game), bid, Play(0, 0, matadors), ending=ended, multiplier=multiplier,
                        profile=profile)
    return replace(result, null_announced=null, null_announced_value=null_value(null, profile))


def _null_won(play: Play, ending: Ending) -> bool:
    if ending.by.by_declarer:
        return False
    # Played out or ended by the defenders: won unless he has already taken a trick (5.2.7).
    return play.declarer_tricks == 0


def _check_bid(decl: Declaration, bid: int, profile: RuleProfile = ISKO) -> None:
    values = bid_values(profile)
    if bid not in values:
        lowest = ", ".join(str(v) for v in sorted(values)[:7])
        under = "" if values == _ISKO_BIDS else f" under the rule profile {profile.name!r}"
        raise InvalidBidError("bid", f"{bid} is not a bid value{under} ({lowest}, ...)")
    if decl.game.is_null and bid > null_value(decl, profile):
        raise DeclarationError(
            f"bid: {decl.describe_de()} is worth {null_value(decl, profile)} and cannot be played after bidding {bid} "
            "(ISkO 3.4.4): such a game is lost as a suit or Grand game (score_overbid_null)"
        )


def _check_play(decl: Declaration, play: Play, ending: Ending) -> None:
    points, tricks = play.declarer_points, play.declarer_tricks
    if not 0 <= tricks <= 10:
        raise InvalidResultError("declarer_tricks", f"{tricks} is not a number of tricks: 0 to 10",
                                 f"{tricks} Stiche gibt es nicht: 0 bis 10")
    if not 0 <= points <= 120:
        raise InvalidResultError("declarer_points", f"{points} is not a number of card points: 0 to 120",
                                 f"{points} Augen gibt es nicht: 0 bis 120")
    _check_matadors(decl.game, play.matadors)
    if decl.game.is_null:
        return  # a Null game counts tricks only; its card points are no part of the result (5.2.7)
    cards = 3 * tricks + 2
    if points > _MOST[cards]:
        raise InvalidResultError("declarer_points", f"{points} points cannot be in {tricks} tricks and the skat",
                                 f"{points} Augen passen nicht in {_tricks_de(tricks)} und den Skat (höchstens {_MOST[cards]})")
    if ending.by is EndedBy.PLAYED and 120 - points > _MOST[32 - cards]:
        raise InvalidResultError(
            "declarer_points", f"{points} points with {tricks} tricks leaves the defenders more than {10 - tricks} tricks can hold",
            f"Bei {points} Augen in {_tricks_de(tricks)} blieben den Gegenspielern mehr Augen, als in {_tricks_de(10 - tricks)} "
            "passen",
        )
    if points not in _TOTALS[cards]:
        raise InvalidResultError(
            "declarer_points", f"{points} points cannot be in {tricks} tricks and the skat: no {cards} cards add up to that",
            f"{points} Augen kann man mit {_tricks_de(tricks)} und dem Skat nicht zusammenbekommen",
        )
    if ending.by is EndedBy.PLAYED:
        _check_played_out(decl.game, play)
    if ending.by.by_defenders:
        _check_defender_counts(play, ending)


def _tricks_de(tricks: int) -> str:
    return "einen Stich" if tricks == 1 else f"{tricks} Stiche"


def _check_played_out(game: GameType, play: Play) -> None:
    """A game played to the end: the top trumps the declarer is without won their tricks for the
    defenders (see level_reachable)."""
    points, tricks, matadors = play.declarer_points, play.declarer_tricks, play.matadors
    if matadors > 0:
        return
    if tricks == 10:
        raise InvalidResultError(
            "declarer_tricks", f"10 tricks 'ohne {-matadors}': the defenders hold the Kreuz Bube and win a trick with it",
            f"Alle Stiche „ohne {-matadors}“ geht nicht: die Gegenspieler haben den Kreuz-Buben und machen damit einen Stich",
        )
    if points > 120 - missing_top_points(game, matadors):
        raise InvalidResultError(
            "declarer_points",
            f"{points} points 'ohne {-matadors}': the missing top trumps give the defenders at least "
            f"{missing_top_points(game, matadors)} of the 120",
            f"{points} Augen „ohne {-matadors}“ geht nicht: die fehlenden Spitzen bringen den Gegenspielern "
            f"mindestens {missing_top_points(game, matadors)} Augen",
        )


def _check_defender_counts(play: Play, ending: Ending) -> None:
    if ending.defender_points is None or ending.defender_tricks is None:
        raise InvalidResultError(
            "ending", "when the defenders ended the game, give their card points and tricks so far (defender_points, defender_tricks)"
        )
    if not 0 <= ending.defender_tricks <= 10 - play.declarer_tricks:
        raise InvalidResultError("ending.defender_tricks", f"{ending.defender_tricks} tricks do not fit beside the declarer's {play.declarer_tricks}")
    if ending.defender_points > 120 - play.declarer_points:
        raise InvalidResultError(
            "ending.defender_points", f"{ending.defender_points} points and the declarer's {play.declarer_points} are more than 120"
        )
    if ending.defender_points not in _TOTALS[3 * ending.defender_tricks]:
        raise InvalidResultError("ending.defender_points", f"{ending.defender_points} points cannot be in {ending.defender_tricks} tricks")


def _check_matadors(game: GameType, matadors: int) -> None:
    if game.is_null:
        if matadors != 0:
            raise InvalidResultError("matadors", "Null games have no matadors (give 0 or leave it out)")
        return
    most = MAX_MATADORS.get(game, 11)
    if matadors == 0 or abs(matadors) > most:
        raise InvalidResultError(
            "matadors", f"{matadors} is not possible in {game.german}: 'mit' 1 to {most} (positive) or 'ohne' 1 to {most} (negative)",
            f"Spitzen im {game.german}: mit 1 bis {most} oder ohne 1 bis {most}",
        )

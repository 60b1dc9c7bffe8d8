"""Rule profiles: the official ISkO by default, club variants switched on by name.

(One module over 600 lines on purpose: every switch of a rule profile, each beside the rule text it follows,
and the checked JSON reading of them all in one module.)

A :class:`RuleProfile` is data: one frozen value holding every switch in which a table's rules
differ from the Internationale Skatordnung. The ISkO itself allows none of the private
variants (SkWO 9.4: "Es wird kein Ramsch gespielt", SkWO 9.5: "Es darf nicht geschenkt
werden", ISkG on 4.5.1: "Bock" and "Ramsch" are not allowed under the ISkO), so :data:`ISKO`
has them all off. The switches and their option groups follow the rule text file 001
("Varianten": Kontra und Re, Ramsch, Bockrunden und Ramschrunden, Schenken, Spitze, and the
pre-1999 official rules).

>>> find_profile("isko").name, find_profile("pre1999").grand_ouvert_base
('isko', 36)
>>> kneipe = find_profile("kneipe")
>>> kneipe.kontra, kneipe.ramsch, kneipe.ramsch_rules.schieben, kneipe.bock
(True, True, True, True)
>>> RuleProfile.from_json(kneipe.to_json()) == kneipe
True
>>> ISKO.variants_de()
()
>>> PRE_1999.variants_de()
('Verlorene Handspiele einfach', 'Grand ouvert Grundwert 36')
>>> find_profile("texas").variants_de()
('Grand Grundwert 16', 'Null 20/30/40/60', 'Schneider ab 91', 'Ansagen nach Skataufnahme', 'Ouvert verdoppelt', 'Gedrückte Karten bis zum 2. Stich einsehbar', 'Texas-Ramsch')
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any

from device.errors import SkatError
from device.skatform import FORM_PROFILES_JSON, SkatForm, form_variants_de

PROFILE_VERSION = 1


class ProfileError(SkatError, KeyError):
    """An unknown rule profile name."""

    def __str__(self) -> str:
        return str(self.args[0])


class InvalidProfileError(SkatError, ValueError):
    """A rule profile (or its JSON) with a wrong or unknown field; ``field`` names it."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidProfileError(name, f"{value!r}: a whole number from {low} to {high}")


# --------------------------------------------------------------------------- Kontra and Re


class KontraTiming(enum.Enum):
    """Until when a defender may say Kontra (001, "Kontra und Re")."""

    #: "Jeder der beiden Gegner des Alleinspielers kann jederzeit, bevor er eine Karte auf den
    #: ersten Stich spielt, Kontra sagen."
    BEFORE_OWN_CARD = "before_own_card"
    #: "In einer Variante kann Kontra nur vor dem Ausspielen der ersten Karte angesagt werden,
    #: und ein Alleinspieler, der in Vorhand ist, muss mit dem Ausspielen warten."
    BEFORE_LEAD = "before_lead"


@dataclass(frozen=True, slots=True)
class KontraRules:
    """The options of Kontra/Re (used when :attr:`RuleProfile.kontra` is on).

    001: a defender says Kontra (the score of the game doubles, won or lost); the declarer
    may answer at once with Re (doubles again): x2, x4. "Der Punktwert wird verdoppelt, nicht
    der Wert des Spiels": the bid and the game value (overbid!) stay as they are.
    """

    #: When Kontra may be said (see :class:`KontraTiming`).
    timing: KontraTiming = KontraTiming.BEFORE_OWN_CARD
    #: 001: "dass Sie kein Kontra ansagen dürfen, wenn Sie bei der Möglichkeit, 18 zu reizen,
    #: gepasst haben oder nicht 'ja' zu einem Reiz mit 18 gesagt haben".
    no_kontra_after_passing_18: bool = False


# --------------------------------------------------------------------------- Bock rounds


class BockTrigger(enum.Enum):
    """An event that brings Bock rounds (001, "Bockrunden und Ramschrunden").

    The first six are the list in 001; the last three are common pub triggers that 001 does
    not list (kept apart so a club can pick them knowingly).
    """

    #: "Ein Spiel, in dem sowohl der Alleinspieler als auch dessen Gegner jeweils 60 Punkte haben"
    SIXTY_SIXTY = "sixty_sixty"
    #: "Ein erfolgreiches Kontra, d. h. die Gegner sagen Kontra, und der Alleinspieler verliert"
    KONTRA_WON = "kontra_won"
    #: "Ein erfolgreiches Grand-Handspiel" (Grand ouvert is a hand game too)
    GRAND_HAND_WON = "grand_hand_won"
    #: "Jedes angesagte Re"
    RE = "re"
    #: "Die Gesamtpunktzahl eines Spielers ist ... ein Mehrfaches von 100"
    HUNDRED = "hundred"
    #: "... oder eine Zahl, in der 3 oder mehr Ziffern identisch sind, wie z. B. 222" (read as a
    #: Schnapszahl: at least three digits, all the same: 111, 222, 1111; the sign is ignored)
    SCHNAPSZAHL = "schnapszahl"
    #: Not in 001: one party took all 120 card points (a played-out suit or Grand game).
    ALL_POINTS = "all_points"
    #: Not in 001: the declarer overbid.
    OVERBID = "overbid"
    #: Not in 001: a game value of 100 or more.
    VALUE_100 = "value_100"

    @property
    def german(self) -> str:
        """The trigger's name for the table screen."""
        return _TRIGGER_GERMAN[self]

    @property
    def in_001(self) -> bool:
        """Whether rule text 001 lists this trigger."""
        return self not in (BockTrigger.ALL_POINTS, BockTrigger.OVERBID, BockTrigger.VALUE_100)


_TRIGGER_GERMAN = {
    BockTrigger.SIXTY_SIXTY: "60 zu 60",
    BockTrigger.KONTRA_WON: "Kontra gewonnen",
    BockTrigger.GRAND_HAND_WON: "Grand Hand gewonnen",
    BockTrigger.RE: "Re angesagt",
    BockTrigger.HUNDRED: "Hunderter erreicht",
    BockTrigger.SCHNAPSZAHL: "Schnapszahl",
    BockTrigger.ALL_POINTS: "120 zu 0",
    BockTrigger.OVERBID: "Überreizt",
    BockTrigger.VALUE_100: "Spielwert 100 oder mehr",
}

#: The game events 001 lists (the total-score triggers are off unless chosen).
DEFAULT_BOCK_TRIGGERS = frozenset(
    {BockTrigger.SIXTY_SIXTY, BockTrigger.KONTRA_WON, BockTrigger.GRAND_HAND_WON, BockTrigger.RE}
)


class BockStacking(enum.Enum):
    """What happens when a trigger fires while Bock rounds are still open (001)."""

    #: "Sie können die Bockrunden nacheinander spielen": a queue, the score doubles once.
    SEQUENTIAL = "sequential"
    #: "oder gleichzeitig (beispielsweise multiplizieren 3 gleichzeitige Bockrunden den Einsatz
    #: um das 8-Fache)": every open round doubles, and they all count down together.
    CONCURRENT = "concurrent"


@dataclass(frozen=True, slots=True)
class BockRules:
    """The options of Bock rounds (used when :attr:`RuleProfile.bock` is on).

    001: "Eine Bockrunde ist eine Runde (d. h. 3-mal aufeinander folgendes Geben bei 3
    Spielern; 4-mal ... bei 4 Spielern), bei dem für den doppelten Einsatz (d. h. die doppelten
    Punkte) gespielt wird. ... Die Reize und die Spielwerte sind hiervon unberührt." One round
    is one deal per player at the table; every deal counts (an eingepasst one too). The
    multiplier is 2 per open round (see :class:`BockStacking`).
    """

    #: Which events bring Bock rounds (each selectable on its own).
    triggers: frozenset[BockTrigger] = field(default=DEFAULT_BOCK_TRIGGERS, metadata={"items": BockTrigger})
    #: How many Bock rounds one trigger brings.
    rounds_per_trigger: int = 1
    #: 001 asks what happens "wenn mehrere Ereignisse gleichzeitig eintreten": True, each
    #: trigger of one game brings its rounds; False, a game brings rounds once however many fire.
    each_trigger_counts: bool = True
    #: Rounds one after another, or at the same time (see :class:`BockStacking`).
    stacking: BockStacking = BockStacking.SEQUENTIAL
    #: 001: "Was passiert mit unvollständigen Bockrunden, wenn Sie die Spielrunde beenden
    #: möchten?" True: open Bock (and Ramsch) rounds are played out before the list closes.
    finish_open_rounds: bool = True
    #: 001: "Einige Spieler spielen nach jeder Bockrunde oder nach jeder dritten Bockrunde eine
    #: obligatorische Ramschrunde" (as many Ramsch deals as players, Schieberamsch with
    #: Grand Hand allowed). 0: none; 1: after every Bock round; 3: after every third.
    ramsch_round_every: int = 0

    def __post_init__(self) -> None:
        _check_int("rounds_per_trigger", self.rounds_per_trigger, 1, 10)
        _check_int("ramsch_round_every", self.ramsch_round_every, 0, 10)
        if not all(isinstance(t, BockTrigger) for t in self.triggers):
            raise InvalidProfileError("triggers", "each trigger is a BockTrigger")


# --------------------------------------------------------------------------- Ramsch


class SkatTo(enum.Enum):
    """Who gets the skat's card points in a Ramsch (001: "Es gibt drei Optionen")."""

    #: "1. Der Gewinner des letzten Stichs erhält die Skatkarten."
    LAST_TRICK = "last_trick"
    #: "2. Der Spieler mit den meisten Punkten ohne die Skatkarten erhält die Skatkarten, sodass
    #: dessen Verlust gesteigert wird" (when two tie for the most, nobody gets it: both lose).
    MOST_POINTS = "most_points"
    #: "3. Keiner der Spieler erhält die Punkte der Skatkarten."
    NOBODY = "nobody"


class RamschValue(enum.Enum):
    """How much the Ramsch loser loses (001: "Wie viel verliert der Verlierer?")."""

    #: "Augenramsch, in der der verlorene Betrag der Anzahl der gewonnenen Augen entspricht."
    POINTS = "points"
    #: "Im einfachen Ramsch verliert der Verlierer einen festen Betrag, z. B. 10 Punkte."
    FIXED = "fixed"
    #: 001 "Texas-Skat", Ramsch: the fewest Augen win 10, 20 without a trick; the taker of every
    #: trick loses 30 (the amounts are :attr:`RamschRules.fixed_values`; see device.ramsch).
    TEXAS = "texas"


class RamschTie(enum.Enum):
    """Two players tie for the most points (001): "verlieren beide Spieler"."""

    #: "In einer Variante verlieren beide Spieler den vollen Betrag"
    BOTH_LOSE_FULL = "both_lose_full"
    #: "in einer anderen teilen sie sich den Verlust und verlieren jeweils die Hälfte" (a half
    #: point is rounded up: 45 shared is -23 each)
    SHARE = "share"


@dataclass(frozen=True, slots=True)
class RamschRules:
    """The options of Ramsch (used when :attr:`RuleProfile.ramsch` is on, and for the Ramsch
    rounds after Bock).

    001: "Wenn die Mittelhand und die Hinterhand passen, und auch die Vorhand kein Spiel spielen
    möchte, ... wird Ramsch gespielt. ... Der Rang und der Wert der Karten entsprechen dem
    Grand" (jacks are the only trumps). "Der Spieler mit den meisten Augen am Ende verliert das
    Spiel." "Bei Gleichstand zwischen allen drei Spielern gibt es keine Punktwertung."
    """

    #: Who gets the skat's points (see :class:`SkatTo`).
    skat_to: SkatTo = SkatTo.LAST_TRICK
    #: Augenramsch (the loser's points) or einfacher Ramsch (a fixed amount).
    value: RamschValue = RamschValue.POINTS
    #: Einfacher Ramsch: the loss with no, one and two Jungfrauen: "10 Punkte", "verliert der
    #: Verlierer 15 und nicht 10 Punkte", "Im einfachen Ramsch verliert der Verlierer 20 Punkte".
    #: Texas Ramsch: the win of the fewest Augen, the win of a player without a trick, the loss
    #: of the player who took every trick (10, 20, 30).
    fixed_values: tuple[int, int, int] = (10, 15, 20)
    #: 001: "Ein Spieler, der keine Stiche gewinnt, wird Jungfrau ... genannt. Im Augenramsch
    #: führt dies zur Verdoppelung des Betrags, den der Verlierer verliert." (Doubled per
    #: Jungfrau; "ein Stich, der keine Augen zählt reicht aus".)
    jungfrau: bool = True
    #: 001: one player takes every trick. True (Durchmarsch, "Meistens ... dass ein Spieler,
    #: der alle Stiche im Augenramsch gewinnt, 120 Punkte erhält"; in einfacher Ramsch he wins
    #: the two-Jungfrau amount, 20); False: he is the loser with two Jungfrauen ("das Vierfache
    #: der gewonnenen Augen (d. h. 480)"; in einfacher Ramsch 20).
    durchmarsch: bool = True
    #: Two tie for the most points (see :class:`RamschTie`).
    tie: RamschTie = RamschTie.BOTH_LOSE_FULL
    #: Schieberamsch (001): Vorhand, Mittelhand, Hinterhand in turn may take up the skat and
    #: lay two cards away for the next; "Ein Spieler, der ... ohne Austauschen der Karten ...
    #: diese weitergeben [kann], ohne sie anzusehen. Diese Aktion verdoppelt den Punktwert."
    schieben: bool = False
    #: "Einige Spieler lassen nicht zu, dass Buben weitergegeben werden. Andere Spieler lassen
    #: die Weitergabe aller Karten zu." True: jacks may be passed on.
    push_jacks: bool = True
    #: 001 (Ramschrunden): "einschließlich der Möglichkeit, ein Grand-Hand zu spielen": a player
    #: may declare Grand Hand in his turn instead of taking the skat (scored as a normal game).
    grand_hand: bool = False

    def __post_init__(self) -> None:
        values = self.fixed_values
        if len(values) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values):
            raise InvalidProfileError("fixed_values", f"{values!r}: three whole amounts above 0 (no, one, two Jungfrauen)")
        if not values[0] <= values[1] <= values[2]:
            raise InvalidProfileError("fixed_values", f"{values!r}: a Jungfrau never makes the loss smaller")


# --------------------------------------------------------------------------- Schenken, Spitze


@dataclass(frozen=True, slots=True)
class SchenkenRules:
    """The options of Schenken (used when :attr:`RuleProfile.schenken` is on).

    001: the defenders may concede at the start ("schenken"; both must agree). Accepted, the
    declarer gets the simple value "so, als ob er das Spiel gewonnen hätte (d. h. mit 61-89
    Augen)". He may play on instead; then he must make Schneider, scored "wie für einen
    angesagten Schneider (jedoch ohne den Hand-Multiplikator, wenn es sich nicht um ein
    Handspiel handelt)". They may concede again (Schneider), or he plays on for Schwarz.
    """

    #: 001: "Wenn der Reiz 18 und das Spiel Karo ist bzw. der Reiz 20 und das Spiel Karo oder
    #: Herz ist, wird das Spiel automatisch von den Gegnern aufgegeben und vom Alleinspieler
    #: gewonnen, es sei denn die Gegner sagen Kontra oder der Alleinspieler macht eine
    #: zusätzliche Ansage (z. B. Ouvert oder Spitze)."
    automatic: bool = False


@dataclass(frozen=True, slots=True)
class SpitzeRules:
    """The options of Spitze (used when :attr:`RuleProfile.spitze` is on).

    001: "die Ansage, dass der Alleinspieler den letzten Stich mit dem niedrigsten Trumpf
    gewinnen wird. Dies ist bei einem Farbspiel die 7 oder in einem Grand-Spiel der Karo-Bube.
    ... Spitze steigert den Wert des Spiels um einen Multiplikator. Um zu gewinnen, müssen Sie
    den letzten Stich mit dem niedrigsten Trumpf gewinnen und außerdem 61 oder mehr Augen."
    """

    #: 001: "Sie können mehr als eine einzige Spitze ansagen ... eine nicht unterbrochene
    #: Sequenz von Trümpfen, einschließlich des niedrigsten Trumpfes" taking the last tricks
    #: ("die letzten 3 Stiche mit der Trumpf 9-8-7"). 1 allows only the single Spitze.
    max_cards: int = 1
    #: Levels per announced card: 1 ("einen zusätzlichen Multiplikator pro Karte"); the Århus
    #: "Musik" of 001's Danish section is "zwei zusätzliche Multiplikatoren" (2).
    levels_per_card: int = 1

    def __post_init__(self) -> None:
        _check_int("max_cards", self.max_cards, 1, 11)
        _check_int("levels_per_card", self.levels_per_card, 1, 4)


@dataclass(frozen=True, slots=True)
class PotRules:
    """The pot (001 "Spiel um einen Pot (Skat mit Pinke)"), used when :attr:`RuleProfile.pot` is on.

    "Häufig trägt jeder Spieler zu Beginn des Spiels, oder wenn dieser leer ist, einen kleinen
    Betrag zum Pot bei. Ein Alleinspieler, der ein Spiel (oder Ramsch) verliert, zahlt in den
    Pot ein sowie an die anderen Spieler. Der Inhalt des Pots wird von dem Spieler gewonnen, der
    ein Grand-Handspiel gewinnt. Wenn Sie ein Grand-Hand spielen und verlieren, müssen Sie den
    Pot verdoppeln." The amounts are points of the list, settled at the list's stake like its
    game points (the text names no sums: "einen kleinen Betrag").
    """

    #: What each player puts in at the start and whenever the pot is empty.
    ante: int = 10
    #: What the loser of a game (the declarer) or of a Ramsch pays in.
    lost_game: int = 10

    def __post_init__(self) -> None:
        _check_int("ante", self.ante, 1, 1000)
        _check_int("lost_game", self.lost_game, 0, 1000)


# --------------------------------------------------------------------------- the profile


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """Switches for everything that differs from the ISkO. All off by default.

    Each variant has an on/off switch (``kontra``, ``bock``, ``ramsch``, ``schenken``,
    ``spitze``) and an option group (``kontra_rules``, ...) that only matters when it is on.
    """

    name: str = "isko"
    #: ISkO 5.3.4: every lost game counts double. 001 ("Punktwertungs- und Spielvarianten" 1):
    #: "Bis Ende 1998 wurde der Betrag ... für den Verlust eines Hand-Spiels ... nicht verdoppelt."
    lost_hand_doubled: bool = True
    #: ISkO 5.1.1: Grand ouvert's base value is 24. 001 (2): "Bis Ende 1998 hatte der Grand
    #: Ouvert einen eigenen Grundwert von 36."
    grand_ouvert_base: int = 24
    #: 001 (2), continued: "Der Ouvert-Multiplikator wurde nicht gezählt, wenn Grand Ouvert
    #: gespielt wurde." True by the ISkO; False before 1999. (Needs device.value to read it.)
    grand_ouvert_counts_ouvert: bool = True
    #: Grand's base value (ISkO 5.1.1: 24; 001 "Texas-Skat": "Der Grundwert des Grands ist 16").
    grand_base: int = 24
    #: Null, Null Hand, Null ouvert, Null ouvert Hand (ISkO 5.1.2; 001 "Texas-Skat": "Das
    #: Nullspiel ist 20 Punkte wert, Null-Hand 30, Null Ouvert 40 und Null Ouvert-Hand 60").
    null_values: tuple[int, int, int, int] = (23, 35, 46, 59)
    #: The declarer's Augen that make the defenders Schneider (ISkO 5.2.3: 90). 001 "Texas-Skat":
    #: 91, "Mit 30 Augenpunkten sind die Gegner aus dem Schneider"; the declarer's own Schneider
    #: stays at 30 or fewer ("benötigt jedoch 31 Punkte ... wie in Deutschland").
    schneider_at: int = 90
    #: 001 "Texas-Skat": "Sie können Schneider, Schwarz und Ouvert ansagen, auch wenn Sie sich den
    #: Skat angesehen haben" (the ISkO, 3.4.4 and 5.2.5/5.2.6, only in a hand game).
    announce_after_skat: bool = False
    #: 001 "Texas-Skat": "Die Ansage von Ouvert verdoppelt den Wert des Spiels" (not Null).
    ouvert_doubles: bool = False
    #: 001 "Texas-Skat": the declarer may look at his discards until the second trick's first
    #: card (ISkO 3.4.8: never after the declaration); see declaration.may_look_at_discards.
    look_at_discards: bool = False
    #: German, Tournée or Danish Skat (device.skatform); 001 "Dänischer Skat" 4: any game ouvert, after the skat too.
    form: SkatForm = SkatForm.GERMAN
    ouvert_any: bool = False
    #: Kontra (x2) and Re (x4) may be said (001, "Kontra und Re"); options in ``kontra_rules``.
    kontra: bool = False
    kontra_rules: KontraRules = KontraRules()
    #: Bock rounds multiply the score (001, "Bockrunden und Ramschrunden"); see ``bock_rules``.
    bock: bool = False
    bock_rules: BockRules = BockRules()
    #: Ramsch instead of eingepasst (001, "Ramsch"; SkWO 9.4 forbids it); see ``ramsch_rules``.
    ramsch: bool = False
    ramsch_rules: RamschRules = RamschRules()
    #: The defenders may concede before play (001, "Schenken"; SkWO 9.5 forbids it).
    schenken: bool = False
    schenken_rules: SchenkenRules = SchenkenRules()
    #: The declarer may announce Spitze (001, "Spitze"); see ``spitze_rules``.
    spitze: bool = False
    spitze_rules: SpitzeRules = SpitzeRules()
    #: Played for a pot (001, "Spiel um einen Pot (Skat mit Pinke)"); amounts in ``pot_rules``.
    pot: bool = False
    pot_rules: PotRules = PotRules()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidProfileError("name", f"{self.name!r}: a profile needs a name")
        _check_int("grand_ouvert_base", self.grand_ouvert_base, 1, 100)
        _check_int("grand_base", self.grand_base, 1, 100)
        _check_int("schneider_at", self.schneider_at, 61, 119)
        nulls = self.null_values
        if len(nulls) != 4 or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 264 for v in nulls):
            raise InvalidProfileError("null_values", f"{nulls!r}: four values from 0 (not played) to 264 (Null, Hand, ouvert, ouvert Hand)")
        for name, kind in _GROUPS.items():
            if not isinstance(getattr(self, name), kind):
                raise InvalidProfileError(name, f"a {kind.__name__}, not {type(getattr(self, name)).__name__}")

    def with_(self, **changes: object) -> RuleProfile:
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def has_ramsch(self) -> bool:
        """Whether any Ramsch can happen: instead of eingepasst, or in Ramsch rounds after Bock."""
        return self.ramsch or (self.bock and self.bock_rules.ramsch_round_every > 0)

    def variants_de(self) -> tuple[str, ...]:
        """The variants in force, in German for the screen; () for the plain ISkO.

        >>> ISKO.with_(kontra=True, spitze=True).variants_de()
        ('Kontra/Re', 'Spitze')
        """
        out: list[str] = []
        if not self.lost_hand_doubled and self.form is SkatForm.GERMAN:  # Tournee: in its own words
            out.append("Verlorene Handspiele einfach")
        if self.grand_base != ISKO.grand_base:
            out.append(f"Grand Grundwert {self.grand_base}")
        if self.grand_ouvert_base not in (ISKO.grand_ouvert_base, self.grand_base):
            out.append(f"Grand ouvert Grundwert {self.grand_ouvert_base}")
        out += form_variants_de(self.form, self.ouvert_any)
        if self.null_values != ISKO.null_values and self.form is SkatForm.GERMAN:
            out.append("Null " + "/".join(str(v) for v in self.null_values))
        if self.schneider_at != ISKO.schneider_at:
            out.append(f"Schneider ab {self.schneider_at}")
        out += [word for on, word in ((self.announce_after_skat, "Ansagen nach Skataufnahme"),
                                      (self.ouvert_doubles, "Ouvert verdoppelt"),
                                      (self.look_at_discards, "Gedrückte Karten bis zum 2. Stich einsehbar")) if on]
        if self.kontra:
            out.append("Kontra/Re")
        if self.bock:
            names = ", ".join(t.german for t in BockTrigger if t in self.bock_rules.triggers)
            out.append(f"Bock ({names})" if names else "Bock")
        if self.ramsch:
            out.append(_ramsch_de(self.ramsch_rules))
        if self.schenken:
            out.append("Schenken")
        if self.spitze:
            out.append("Spitze")
        if self.pot:
            out.append("Pot")
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        """The profile as a JSON object (``"v": 1``), as the list document stores it.

        >>> ISKO.to_json()["kontra_rules"]
        {'timing': 'before_own_card', 'no_kontra_after_passing_18': False}
        """
        out: dict[str, Any] = {"v": PROFILE_VERSION}
        out.update(_dump(self))
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RuleProfile:
        """Read :meth:`to_json`'s object back. Missing fields take the ISkO default; an unknown
        field, a wrong type or value raises :class:`InvalidProfileError` naming the field.

        >>> RuleProfile.from_json({"v": 1, "name": "club", "kontra": True}).kontra
        True
        >>> RuleProfile.from_json({"v": 1, "kontra": True, "contra": True})
        Traceback (most recent call last):
        ...
        device.profile.InvalidProfileError: contra: unknown field of a rule profile (known: announce_after_skat, bock, bock_rules, form, grand_base, grand_ouvert_base, grand_ouvert_counts_ouvert, kontra, kontra_rules, look_at_discards, lost_hand_doubled, name, null_values, ouvert_any, ouvert_doubles, pot, pot_rules, ramsch, ramsch_rules, schenken, schenken_rules, schneider_at, spitze, spitze_rules, v)
        """
        if not isinstance(data, Mapping):
            raise InvalidProfileError("profile", "a rule profile is a JSON object")
        version = data.get("v", PROFILE_VERSION)
        if version != PROFILE_VERSION or isinstance(version, bool):
            raise InvalidProfileError("v", f"version {version!r} is not supported: this is version {PROFILE_VERSION}")
        body = {k: v for k, v in data.items() if k != "v"}
        profile = _load(cls, body, "", extra_known=("v",))
        assert isinstance(profile, RuleProfile)
        return profile


_GROUPS: dict[str, type] = {
    "kontra_rules": KontraRules, "bock_rules": BockRules, "ramsch_rules": RamschRules,
    "schenken_rules": SchenkenRules, "spitze_rules": SpitzeRules, "pot_rules": PotRules,
}


def _ramsch_de(rules: RamschRules) -> str:
    extras = [word for on, word in ((rules.schieben, "Schieben"), (rules.jungfrau, "Jungfrau"),
                                    (rules.durchmarsch, "Durchmarsch")) if on]
    head = {RamschValue.POINTS: "Ramsch", RamschValue.FIXED: "Einfacher Ramsch", RamschValue.TEXAS: "Texas-Ramsch"}[rules.value]
    return f"{head} ({', '.join(extras)})" if extras else head


# --------------------------------------------------------------------------- JSON


def _dump(value: object) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(item.value for item in value)
    if isinstance(value, tuple):
        return list(value)
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _dump(getattr(value, f.name)) for f in fields(value)}
    return value


def _load(cls: type, data: Mapping[str, Any], path: str, extra_known: tuple[str, ...] = ()) -> object:
    """Build dataclass ``cls`` from ``data``, each field read like its default value."""
    if not isinstance(data, Mapping):
        raise InvalidProfileError(path.rstrip("."), f"an object of {cls.__name__} fields")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        names = ", ".join(sorted([*known, *extra_known]))
        raise InvalidProfileError(f"{path}{unknown[0]}", f"unknown field of a rule profile (known: {names})")
    template = cls()
    values: dict[str, object] = {}
    for name, raw in data.items():
        spec = known[name]
        values[name] = _load_value(raw, getattr(template, name), spec.metadata.get("items"), f"{path}{name}")
    try:
        return cls(**values)
    except InvalidProfileError as exc:
        if exc.field.startswith(path):
            raise
        raise InvalidProfileError(f"{path}{exc.field}", exc.reason) from None


def _load_value(raw: object, default: object, items: type[enum.Enum] | None, path: str) -> object:
    if is_dataclass(default) and not isinstance(default, type):
        if not isinstance(raw, Mapping):
            raise InvalidProfileError(path, f"an object of {type(default).__name__} fields, not {raw!r}")
        return _load(type(default), raw, f"{path}.")
    if isinstance(default, enum.Enum):
        kind = type(default)
        try:
            return kind(raw)
        except ValueError:
            raise InvalidProfileError(path, f"{raw!r}: one of {', '.join(repr(m.value) for m in kind)}") from None
    if isinstance(default, frozenset):
        assert items is not None  # every set field names its item enum in metadata
        if not isinstance(raw, list):
            raise InvalidProfileError(path, f"a list of names, not {raw!r}")
        out = set()
        for item in raw:
            try:
                out.add(items(item))
            except ValueError:
                raise InvalidProfileError(path, f"{item!r}: one of {', '.join(repr(m.value) for m in items)}") from None
        return frozenset(out)
    if isinstance(default, tuple):
        if not isinstance(raw, list) or len(raw) != len(default):
            raise InvalidProfileError(path, f"a list of {len(default)} numbers, not {raw!r}")
        return tuple(raw)
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise InvalidProfileError(path, f"true or false, not {raw!r}")
        return raw
    if isinstance(default, int):
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise InvalidProfileError(path, f"a whole number, not {raw!r}")
        return raw
    if not isinstance(raw, type(default)):
        raise InvalidProfileError(path, f"a {type(default).__name__}, not {raw!r}")
    return raw


# --------------------------------------------------------------------------- registry


ISKO = RuleProfile()
#: The official rules until the end of 1998 (001, "Punktwertungs- und Spielvarianten").
PRE_1999 = RuleProfile(name="pre1999", lost_hand_doubled=False, grand_ouvert_base=36,
                       grand_ouvert_counts_ouvert=False)
#: A typical pub table: Kontra/Re, Augen-Schieberamsch with Jungfrau and Durchmarsch instead
#: of eingepasst, Bock rounds after the events 001 lists (one after another), Schenken.
KNEIPE = RuleProfile(
    name="kneipe",
    kontra=True,
    bock=True,
    ramsch=True,
    ramsch_rules=RamschRules(schieben=True),
    schenken=True,
)

#: Texas-Skat (001, "Texas-Skat"), each difference the text lists; Grand ouvert's base is 16 too
#: (the text's example: "18-mal 16 ergibt 288 Punkte"); its Ramsch is RamschValue.TEXAS.
TEXAS = RuleProfile(
    name="texas",
    grand_base=16,
    grand_ouvert_base=16,
    null_values=(20, 30, 40, 60),
    schneider_at=91,
    announce_after_skat=True,
    ouvert_doubles=True,
    look_at_discards=True,
    ramsch=True,
    ramsch_rules=RamschRules(skat_to=SkatTo.LAST_TRICK, value=RamschValue.TEXAS, fixed_values=(10, 20, 30),
                             jungfrau=False, durchmarsch=False),
)

TOURNEE, DANISH, DANISH_AARHUS = (RuleProfile.from_json(data) for data in FORM_PROFILES_JSON)  # device.skatform
PROFILES: dict[str, RuleProfile] = {p.name: p for p in (ISKO, PRE_1999, KNEIPE, TEXAS, TOURNEE, DANISH, DANISH_AARHUS)}
#: The profiles the table's setup offers (played end to end; what the flow reads from a profile:
#: device/table/rules.py).
TABLE_PROFILES: tuple[str, ...] = ("isko", "kneipe", "pre1999", "texas", "tournee", "danish", "danish_aarhus")


#: The choices the rule text offers the club profile, as options of the table's setup: the
#: automatic gift (001 "Schenken": Karo at 18, Karo or Herz at 20), Spitze (001 "Spitze": one
#: or more lowest trumps), any game ouvert for one level more or ouvert
#: doubling the value (001 "Ouvert-Spiele"), and the pot (001 "Spiel um einen Pot").
CLUB_OPTIONS: dict[str, dict[str, object]] = {
    "auto_gift": {"schenken_rules": SchenkenRules(automatic=True)},
    "spitze": {"spitze": True, "spitze_rules": SpitzeRules(max_cards=11)},
    "ouvert_any": {"ouvert_any": True},
    "ouvert_doubles": {"ouvert_doubles": True},
    "pot": {"pot": True},
}
#: The profile the options belong to (the club's: Kontra, Bock, Ramsch, Schenken).
CLUB_PROFILE = "kneipe"


def find_profile(name: str) -> RuleProfile:
    """The registered profile of that name (like python-chess's ``find_variant``); the club
    profile with options is named with them: "kneipe+spitze+pot" (:data:`CLUB_OPTIONS`, in that
    order).

    >>> p = find_profile("kneipe+spitze+pot")
    >>> p.name, p.spitze, p.pot, p.kontra, p.variants_de()[-2:]
    ('kneipe+spitze+pot', True, True, True, ('Spitze', 'Pot'))
    >>> find_profile("isko+pot")
    Traceback (most recent call last):
    ...
    device.profile.ProfileError: 'isko+pot': options (auto_gift, spitze, ouvert_any, ouvert_doubles, pot) belong to the club profile 'kneipe'
    """
    found = PROFILES.get(name)
    if found is not None:
        return found
    return _with_options(name)


@functools.cache
def _with_options(name: str) -> RuleProfile:
    """The club profile with the options its name lists (checked; built once per name)."""
    base, _, rest = name.partition("+") if isinstance(name, str) else (name, "", "")
    if base not in PROFILES:
        raise ProfileError(f"unknown rule profile {name!r}: one of {', '.join(sorted(PROFILES))}")
    chosen = rest.split("+")
    if base != CLUB_PROFILE or not rest:
        raise ProfileError(f"{name!r}: options ({', '.join(CLUB_OPTIONS)}) belong to the club profile {CLUB_PROFILE!r}")
    unknown = [option for option in chosen if option not in CLUB_OPTIONS]
    if unknown:
        raise ProfileError(f"{name!r}: unknown option {unknown[0]!r}: one of {', '.join(CLUB_OPTIONS)}")
    if club_profile_name(chosen) != name:
        raise ProfileError(f"{name!r}: each option once, in the order {', '.join(CLUB_OPTIONS)}: "
                           f"{club_profile_name(chosen)!r}")
    if "ouvert_any" in chosen and "ouvert_doubles" in chosen:
        raise ProfileError(f"{name!r}: ouvert is one level more (ouvert_any) or doubles (ouvert_doubles), not both")
    changes: dict[str, object] = {"name": name}
    for option in chosen:
        changes.update(CLUB_OPTIONS[option])
    return PROFILES[CLUB_PROFILE].with_(**changes)


def base_name(name: str) -> str:
    """The registered profile a name stands for: "kneipe" for "kneipe+spitze+pot" (for a check
    such as "does the table offer it": the options are the club profile's own).

    >>> base_name("kneipe+pot"), base_name("texas")
    ('kneipe', 'texas')
    """
    return name.partition("+")[0]


def club_profile_name(options: list[str] | tuple[str, ...] | frozenset[str]) -> str:
    """The club profile's name with ``options`` ("kneipe", "kneipe+spitze+pot").

    >>> club_profile_name({"pot", "spitze"})
    'kneipe+spitze+pot'
    """
    return "+".join([CLUB_PROFILE, *(option for option in CLUB_OPTIONS if option in options)])


def spitze_profile(profile: RuleProfile) -> str:
    """The profile to name when ``profile`` does not play a Spitze: the club profile with its
    options and Spitze (001 "Spitze"), or for the Danish form the Århus rules' "Musik".

    >>> spitze_profile(KNEIPE), spitze_profile(find_profile("kneipe+pot")), spitze_profile(ISKO)
    ('kneipe+spitze', 'kneipe+spitze+pot', 'kneipe+spitze')
    >>> spitze_profile(DANISH)
    'danish_aarhus'
    """
    if profile.form is SkatForm.DANISH:
        return DANISH_AARHUS.name
    options = profile.name.split("+")[1:] if base_name(profile.name) == CLUB_PROFILE else []
    return club_profile_name([*options, "spitze"])

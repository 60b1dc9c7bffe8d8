"""Rule profiles: the official ISkO by default, club variants switched on by name.

>>> find_profile("isko").name, find_profile("pre1999").grand_ouvert_base
('isko', 36)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from device.errors import SkatError


class ProfileError(SkatError, KeyError):
    """An unknown rule profile name."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """Switches for everything that differs from the ISkO. All off by default."""

    name: str = "isko"
    #: ISkO 5.3.4: every lost game counts double. Before 1999 lost hand games counted single.
    lost_hand_doubled: bool = True
    #: ISkO 5.1.1: Grand ouvert's base value is 24; before 1999 it was 36.
    grand_ouvert_base: int = 24
    #: Kontra (x2) and Re (x4) may be said (private variant).
    kontra: bool = False
    #: Bock rounds multiply the score (private variant).
    bock: bool = False

    def with_(self, **changes: object) -> RuleProfile:
        return replace(self, **changes)  # type: ignore[arg-type]


ISKO = RuleProfile()
PRE_1999 = RuleProfile(name="pre1999", lost_hand_doubled=False, grand_ouvert_base=36)

PROFILES: dict[str, RuleProfile] = {p.name: p for p in (ISKO, PRE_1999)}


def find_profile(name: str) -> RuleProfile:
    """The registered profile of that name (like python-chess's ``find_variant``)."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ProfileError(f"unknown rule profile {name!r}: one of {', '.join(sorted(PROFILES))}") from None

"""The table screen's look: a dark, high-contrast theme, one font, the four-colour deck.

Plain values only (no Kivy import), so the view-models and their tests can use them.
Sizes are given for the 800×480 panel and scaled with the window height (``scale``), so the
1280×720 display shows the same layout 1.5 times larger.

Suit colours are those of the four-colour tournament deck, always shown together with the
symbol (colour alone fails colour-blind players): ♣ Kreuz black, ♠ Pik green, ♥ Herz red,
♦ Karo orange. Black does not show on a dark background, so a card is drawn as a light chip
(:data:`CARD_FACE`) with the symbol in its suit colour on it.

>>> scale_for(480), scale_for(720)
(1.0, 1.5)
>>> SUIT_SYMBOL["C"], SUIT_NAME_DE["D"]
('♣', 'Karo')
"""

from __future__ import annotations

from pathlib import Path

RGBA = tuple[float, float, float, float]

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"  # has ♣ ♠ ♥ ♦; Kivy's own Roboto lacks them
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
FONT_CONDENSED = FONT_DIR / "DejaVuSansCondensed.ttf"  # the list's narrow columns (fonts-dejavu-extra)
FONT_CONDENSED_BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"
LIST_FONT = "TableCondensed"  # the name it is registered under

BASE_HEIGHT = 480  # the 7" panel; everything below is in pixels at this height


def scale_for(window_height: int) -> float:
    """How much larger than at 480 px high everything is drawn."""
    return round(max(window_height, 240) / BASE_HEIGHT, 3)


def hex_rgba(code: str, alpha: float = 1.0) -> RGBA:
    """``"#1e88e5"`` as Kivy's RGBA floats.

    >>> hex_rgba("#ff8000")
    (1.0, 0.502, 0.0, 1.0)
    """
    code = code.lstrip("#")
    r, g, b = (round(int(code[i:i + 2], 16) / 255, 3) for i in (0, 2, 4))
    return (r, g, b, alpha)


# -- colours: dark background, light text, one accent for "the next step" ------------------
BACKGROUND = hex_rgba("#101418")
PANEL = hex_rgba("#1c232b")  # the status and bottom bars, table rows
PANEL_ALT = hex_rgba("#242d37")  # every other list row
TEXT = hex_rgba("#f2f2f2")
TEXT_DIM = hex_rgba("#a9b4bf")  # still ≥ 7:1 on BACKGROUND
BUTTON = hex_rgba("#34414f")
BUTTON_PRESSED = hex_rgba("#52667a")
BUTTON_SELECTED = hex_rgba("#1f6fbf")  # a chosen option (Hand, a game type)
CONFIRM = hex_rgba("#1e8f3e")  # the one next step, always bottom right
DANGER = hex_rgba("#b3261e")
GREYED = hex_rgba("#262c33")  # an option that is not possible now (tap: says why)
GREYED_TEXT = hex_rgba("#6d7782")
OK = hex_rgba("#3ccf6a")  # status dots
WARN = hex_rgba("#ffb300")
BAD = hex_rgba("#ff5252")
HINT = hex_rgba("#ffe082")  # the banner that says why something is not possible
PLUS = hex_rgba("#7ee08f")  # won entries in the list
MINUS = hex_rgba("#ff8a80")  # lost entries
STRUCK = hex_rgba("#7d8790")

# -- the four-colour deck ------------------------------------------------------------------
CARD_FACE = hex_rgba("#f5f1e6")  # a light chip: black clubs stay visible on the dark screen
SUIT_COLOUR: dict[str, RGBA] = {
    "C": hex_rgba("#000000"),  # Kreuz black
    "S": hex_rgba("#1b7a2f"),  # Pik green
    "H": hex_rgba("#d01c1c"),  # Herz red
    "D": hex_rgba("#e07b00"),  # Karo orange
}
SUIT_SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
SUIT_NAME_DE = {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"}
SUIT_NAME_EN = {"C": "Clubs", "S": "Spades", "H": "Hearts", "D": "Diamonds"}
RANK_LABEL_DE = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "B", "Q": "D", "K": "K", "A": "A"}
RANK_LABEL_EN = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
GAME_SUIT = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}

# Player colours for the chart of running totals: distinct on dark, and by line style too.
PLAYER_COLOURS: tuple[RGBA, ...] = (
    hex_rgba("#4fc3f7"), hex_rgba("#ffb74d"), hex_rgba("#ba68c8"), hex_rgba("#aed581"), hex_rgba("#f06292"),
)

# …and a mark each, drawn on every point of its chart line and in front of the name, so the
# lines differ by shape as well as by colour (colour alone fails colour-blind players).
PLAYER_MARKS = ("●", "■", "▲", "◆", "✚")


def rgb_hex(colour: RGBA) -> str:
    """A colour for Kivy markup: ``(1.0, 0.502, 0.0, 1.0)`` → ``"ff8000"``.

    >>> rgb_hex(hex_rgba("#ff8000"))
    'ff8000'
    """
    return "".join(f"{round(c * 255):02x}" for c in colour[:3])


# -- sizes at 800×480 (multiplied by scale) ------------------------------------------------
BUTTON_HEIGHT = 64  # ≥ 60 px ≈ 10 mm on the 7" panel
BAR_HEIGHT = 40  # status bar
BOTTOM_BAR_HEIGHT = 76
FONT = 20  # body text; never below FONT_MIN
FONT_SMALL = 18
FONT_MIN = 18  # nothing a player must read is smaller at arm's length on the 7" panel
FONT_LARGE = 26
FONT_HUGE = 34
FONT_SEAT_NAME = 40  # a name seated by member card at setup: read from across the table
SPACING = 8
PADDING = 10

"""The table's screens: the first frame builds only the screen it shows; once the table has
been idle (no command, no screen change) the game's screens are built ahead, one per frame, then
buttons for their button rows, so the first declaration or result at a real table does not wait
for its screen or its buttons.

The real App in a child process on the test's Xvfb display, on a memory store.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.harness import run_app_child

pytestmark = pytest.mark.ui

CHILD = r"""
from device.games import GameType
from device.table.outcome import matador_choices
from ui.table import app as app_module
from ui.table import widgets

def built(app):
    return sorted(screen.name for screen in app.manager.screens)

def started(app):
    seen["first_frame"] = built(app)
    seen["current"] = app.manager.current
    seen["spares_first_frame"] = widgets.spare_buttons()

    def idle():
        seen["idle"] = built(app)
        seen["spares_idle"] = widgets.spare_buttons()
        # the first result asking for a suit game's matadors: its buttons' texts drawn already
        result = app.manager.get_screen("result")
        seen["put_away"] = [b.text for b in getattr(result.ids.matadors, widgets.PUT_AWAY, [])]
        rendered = rendered_texts()
        result._matadors(matador_choices(GameType.CLUBS))

        def shown():
            seen["rendered"] = rendered
            seen["matadors"] = [b.text for b in reversed(result.ids.matadors.children)]
            app.stop()
        after_next_frame(shown)

    when(lambda: all(app.manager.has_screen(n) for n in app_module.PREBUILT_SCREENS)
         and not widgets.spare_buttons_wanted(), idle, within=20, every=0.1)

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=started).run()
json.dump({**seen, "prebuilt": list(app_module.PREBUILT_SCREENS), "spares": widgets.SPARE_BUTTONS},
          open(sys.argv[1], "w"))
"""


def test_first_frame_builds_one_screen_and_idle_builds_the_games_screens(display: str, tmp_path: Path) -> None:
    """(The matador buttons: their 22 texts were half the first result's frame.)"""
    seen = run_app_child(CHILD, display, tmp_path)
    # the first frame: the setup screen alone (a new table), none of the game's
    assert seen["current"] == "setup"
    assert seen["first_frame"] == ["setup"]
    # idle: every screen a game needs is built, the setup screen kept
    assert set(seen["prebuilt"]) <= set(seen["idle"]), seen["idle"]
    assert "setup" in seen["idle"]
    # then buttons ahead for the screens' buttons (widgets.show_buttons), none before
    assert seen["spares_first_frame"] == 0
    assert seen["spares_idle"] == seen["spares"]
    # and a suit game's matador buttons, drawn and put away for the first result that asks
    assert len(seen["put_away"]) == 22 and seen["matadors"] == seen["put_away"], seen["put_away"]
    assert seen["rendered"] == []


RESTART_CHILD = r"""
from device.table.commands import Pass
from drivers.store import JournalEventStore
from ui.table import drawn_text
from ui.table.screens import listing

renders, row_widths = [], set()
render = drawn_text._render
def counted(*args):
    renders.append(args[0])
    return render(*args)
drawn_text._render = counted
draw = listing.ListRow.draw
def measured(self):
    row_widths.add(round(self.width, 3))
    draw(self)
listing.ListRow.draw = measured

def rows(app):
    return list(app.manager.get_screen("list").ids.rows.children)

def started(app):
    after_next_frame(lambda: first_frame(app))

def first_frame(app):
    seen["built"] = sorted(screen.name for screen in app.manager.screens)
    seen["current"] = app.manager.current
    if "list" not in seen["built"]:
        app.stop()
        return
    seen["row_widths"] = sorted(row_widths)
    seen["list_width"] = round(app.manager.get_screen("list").ids.scroll.width, 3)
    seen["rows"] = sorted(row.name for row in rows(app))
    seen["texts"] = {row.name: row.drawn_texts() for row in rows(app)}
    if sys.argv[3:] == ["more"]:  # another game (passed in) before the list is opened
        for seat in (1, 2, 0):
            app.submit(Pass(seat))
        when(lambda: app.snapshot.list is not None and len(app.snapshot.list.rows) == 15, lambda: open_list(app),
             within=10, every=0.05)
    else:
        open_list(app)

def open_list(app):
    before, widgets = len(renders), {id(row) for row in rows(app)}
    app.show_list()

    def opened():
        seen["opened"] = app.manager.current
        seen["rendered_at_open"] = renders[before:]
        seen["same_row_widgets"] = {id(row) for row in rows(app)} == widgets
        seen["rows_opened"] = sorted(row.name for row in rows(app))

        view = app.manager.get_screen("list").ids.scroll
        effect = view.effect_y
        seen["at_open"] = [round(view.scroll_y, 3), effect.velocity, effect.overscroll]

        def scroll_up():  # a player scrolls to the top (once the view's scroll effect is at rest)
            view.scroll_y = 1
            Clock.schedule_once(lambda _dt: after_next_frame(scrolled), 0.2)

        def scrolled():
            seen["scrolled_to"] = sorted(row.name for row in rows(app))
            app.stop()
        when(lambda: view.effect_y.velocity == 0 and view.effect_y.overscroll == 0, scroll_up, within=10, every=0.1)
    after_next_frame(opened)

store = JournalEventStore(sys.argv[2])
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=started).run()
store.close()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_a_restart_on_a_list_with_games_lays_the_list_out_with_the_first_frame(display: str, tmp_path: Path) -> None:
    """After a restart players look at the list first: it is laid out with the first frame (its
    rows in view made and drawn at their width only), so its first open renders no text and
    makes no row; and a player scrolls up to the first game."""
    from tests.bench.bench_ui import prepare_store

    store = tmp_path / "store"
    prepare_store(store, 14)
    seen = run_app_child(RESTART_CHILD, display, tmp_path, args=[str(store)])
    assert seen["current"] == "game"  # the game is on view; the list is built beside it
    assert "list" in seen["built"]
    assert "row_14" in seen["rows"] and len(seen["rows"]) >= 10, seen["rows"]
    assert seen["texts"]["row_14"][0] == "14", seen["texts"]["row_14"]
    assert seen["row_widths"] == [seen["list_width"]]  # never at a width on the way
    assert seen["opened"] == "list"
    assert seen["rendered_at_open"] == []
    assert seen["same_row_widgets"]
    # at its latest row, standing (no spring-back from the rows' first heights to override a scroll)
    assert seen["at_open"] == [0, 0, 0], seen["at_open"]
    assert "row_1" in seen["scrolled_to"] and "row_14" not in seen["scrolled_to"], seen["scrolled_to"]


def test_a_list_laid_out_at_a_restart_shows_a_game_entered_after_it_and_scrolls(display: str, tmp_path: Path) -> None:
    """A game entered after the restart, before the list is first opened: the list opens
    at it, and a player scrolls up to the first game."""
    from tests.bench.bench_ui import prepare_store

    store = tmp_path / "store"
    prepare_store(store, 14)
    seen = run_app_child(RESTART_CHILD, display, tmp_path, args=[str(store), "more"])
    assert "row_15" in seen["rows_opened"], seen["rows_opened"]
    assert "row_1" in seen["scrolled_to"] and "row_15" not in seen["scrolled_to"], seen["scrolled_to"]


def test_a_short_list_laid_out_at_a_restart_stands_at_its_top(display: str, tmp_path: Path) -> None:
    """Two games, fewer rows than the view holds: the list opens with them at its top, standing
    (it used to slide there from the middle after it was shown: its scroll effect sprang back
    from an overscroll left by the rows' first heights)."""
    from tests.bench.bench_ui import prepare_store

    store = tmp_path / "store"
    prepare_store(store, 2)
    seen = run_app_child(RESTART_CHILD, display, tmp_path, args=[str(store)])
    assert seen["opened"] == "list" and seen["rows_opened"] == ["row_1", "row_2"], seen["rows_opened"]
    assert seen["at_open"] == [1, 0, 0], seen["at_open"]


RENDER_ONCE_CHILD = r"""
from ui.table import app as app_module
from ui.table import widgets

def started(app):
    when(lambda: all(app.manager.has_screen(n) for n in app_module.PREBUILT_SCREENS)
         and not widgets.spare_buttons_wanted(), lambda: show(app), within=20, every=0.1)

def show(app):
    app.manager.current = "result"  # laid out at the window's size, its buttons shown below
    after_next_frame(lambda: buttons(app))

def buttons(app):
    drawn = rendered_texts()  # (text, width it was drawn at)
    container = app.manager.get_screen("result").ids.confirms
    widgets.show_buttons(container, [widgets.ButtonSpec(f"Neu {n}", f"new_{n}", None) for n in range(3)])

    def shown():
        # (a markup label's text in its colour: "[color=…]Neu 0[/color]")
        seen["drawn"] = sorted((text.split("]")[1].split("[")[0], width) for text, width in drawn if "Neu" in text)
        seen["widths"] = sorted((b.text, round(b.text_size[0])) for b in container.children)
        app.stop()
    after_next_frame(shown)

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=started).run()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_buttons_shown_have_their_texts_drawn_once_at_their_width(display: str, tmp_path: Path) -> None:
    """New buttons in a row: each text drawn once, at the width the row gives it (it was drawn
    at a new button's 100 px first, then again: six of the declaration's first frame's texts)."""
    seen = run_app_child(RENDER_ONCE_CHILD, display, tmp_path)
    assert len(seen["widths"]) == 3 and all(width > 100 for _text, width in seen["widths"]), seen["widths"]
    # (spare buttons made ahead: as the first result or declaration of a session takes them)
    assert seen["drawn"] == seen["widths"], seen["drawn"]


DECLARE_CHILD = r"""
from device.table import commands as cmd
from ui.table import app as app_module
from ui.table import widgets

def started(app):
    when(lambda: all(app.manager.has_screen(n) for n in app_module.PREBUILT_SCREENS)
         and not widgets.spare_buttons_wanted(), lambda: bidding(app), within=20, every=0.1)

def bidding(app):
    games = app.manager.get_screen("declare").ids.games.children
    seen["ahead"] = sorted((b.name, b.greyed) for b in games)
    app.submit(cmd.OpenList(("Anna", "Bernd", "Carla"), series_length=None, stake="1/4"))
    for command in (cmd.Bid(1, 18), cmd.Hold(0), cmd.Bid(1, 20), cmd.Pass(0)):
        app.submit(command)
    when(lambda: app.snapshot.bidding is not None and app.snapshot.bidding.speaker == 2 and app.in_flight == 0,
         lambda: last_pass(app), within=10, every=0.05)

def last_pass(app):
    rendered = rendered_texts()
    app.submit(cmd.Pass(2))

    def shown():
        seen["current"] = app.manager.current
        seen["rendered"] = [text for text, _width in rendered]
        app.stop()
    when(lambda: app.manager.current == "declare", lambda: after_next_frame(shown), within=10, every=0.02)

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=started).run()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_the_declarations_first_question_is_drawn_ahead(display: str, tmp_path: Path) -> None:
    """Built in idle time, the declaration screen shows its first question (Hand or mit Skat?)
    already: the first declaration after the bidding draws its title, prompt and "Skat
    aufnehmen" only, not the six game buttons, the two answers, the summary and "ansagen"."""
    seen = run_app_child(DECLARE_CHILD, display, tmp_path)
    assert seen["ahead"] == [[f"game_{g}", True] for g in sorted(("clubs", "spades", "hearts", "diamonds",
                                                                   "grand", "null"))], seen["ahead"]
    assert seen["current"] == "declare"
    # the title and the prompt (the declarer's name), "Skat aufnehmen" (now possible)
    assert len(seen["rendered"]) == 3, seen["rendered"]
    assert all("Carla" in text or "Skat aufnehmen" in text for text in seen["rendered"]), seen["rendered"]

"""A name typed on the table's own keyboard survives the setup screen being refreshed while the
keyboard is open (a card read, the laptop's status changing): seen in qemu, where the names came
back empty after OK."""

from __future__ import annotations

from tests.ui.harness import run_table


def test_a_name_typed_while_the_screen_refreshes_is_kept_after_ok(display: str) -> None:
    steps = ["wait_screen setup", "tap name_0", "tap key_a", "tap key_n",
             "scan CJ",  # a card read while typing: the setup screen shows its hint and is refreshed
             "tap key_n", "tap key_a", "tap key_ok",
             "tap name_0", 'expect_text "Platz 1:  Anna"']  # the keyboard again shows what the field holds
    run_table(display, steps, args=["--keyboard", "screen"]).check()

"""The next series the laptop releases: offered with the sync's ack, opened with one tap."""

from __future__ import annotations

from device.table import ConfirmList, EndSeries, NextSeriesOffered, OpenNextSeries
from tests.table_helpers import Table, german

OFFER = {"v": 1, "series": 2, "table": 3, "players": ["Dora", "Anna", "Carla", "Bernd"],
         "text": "Serie 2 · Tisch 3: Dora (Platz 1), Anna, Carla, Bernd"}


def test_the_offer_is_shown_and_one_tap_opens_the_list_with_the_settings_carried_over() -> None:
    table = Table("Anna", "Bernd", "Carla", series_length=36, scoring="classic", stake="1/4")
    table.ok(NextSeriesOffered.from_ack(OFFER))
    assert table.snap.next_series == OFFER["text"] and table.snap.next_series_players == tuple(OFFER["players"])
    refusal = table.refused(OpenNextSeries(), "list_open")  # the running list is signed first
    assert "offen" in german(refusal)
    table.ok(EndSeries())
    table.ok(*(ConfirmList(seat) for seat in range(3)))
    result = table.ok(OpenNextSeries())
    opened = result.events[0]
    assert opened.type == "list_opened" and opened.body.players == tuple(OFFER["players"])
    assert (opened.body.scoring, opened.body.stake, opened.body.series_length) == ("classic", "1/4", 36)
    snap = table.snap
    assert snap.players == tuple(OFFER["players"]) and snap.next_series == ""
    # the laptop repeats the offer with every ack: once opened it is not offered again
    table.ok(NextSeriesOffered.from_ack(OFFER))
    assert table.snap.next_series == ""
    table.ok(NextSeriesOffered.from_ack({**OFFER, "series": 3}))
    assert table.snap.next_series == OFFER["text"]


def test_without_an_offer_the_tap_is_refused_in_words() -> None:
    table = Table(open=False)
    refusal = table.refused(OpenNextSeries(), "no_next_series")
    assert "nächste Serie" in german(refusal)
    table.ok(NextSeriesOffered.from_ack(OFFER))
    opened = table.ok(OpenNextSeries()).events[0]
    assert opened.body.players == tuple(OFFER["players"]) and opened.body.series_length == 48


def test_a_list_the_store_could_not_keep_leaves_the_offer_standing() -> None:
    table = Table(open=False)
    table.ok(NextSeriesOffered.from_ack(OFFER))
    table.store.fail_next = True
    result = table.do(OpenNextSeries())
    assert [r.code for r in result.refusals] == ["store_failed"] and table.snap.phase == "setup"
    assert table.snap.next_series == OFFER["text"]
    assert table.ok(OpenNextSeries()).events[0].body.players == tuple(OFFER["players"])


def test_the_laptops_roster_is_offered_at_setup_ahead_of_the_configs_and_records_nothing() -> None:
    from device.table import RosterReceived, TableService
    from tests.table_helpers import ListStore

    service = TableService(ListStore(), device_id="t1", roster=("Dieter", "Anna"))
    result = service.handle(RosterReceived.from_ack([{"name": "Anna", "short": "An"}, {"name": "Bernd"}]))
    assert not result.events  # the roster is no part of the list
    assert service.snapshot().setup.roster == ("Anna", "Bernd", "Dieter")

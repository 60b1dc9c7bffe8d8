"""The Preisskat's categories and teams from the club's member list, over real HTTP to a real
collector process: the member list (with Kategorie and Mannschaft columns) imported through the
Spieler page, conditions that leave the Jugend's fee, the teams and the Damen ranking to it, then
the Kasse (the worked evening's amounts, tests/money_evening.py) and the public Preise, which
name no member in a category who has not allowed publication."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.club_helpers import club_serving
from tests.money_evening import TABLES, conditions, device_entries
from ui.club.money_form import form_from_conditions
from ui.club.money_view import WITHHELD

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "vereinsabend"
MEMBERS = ("Mitgliedsnummer;Name;Vorname;Kurzname;Veröffentlichen;Kategorie;Mannschaft\r\n"
           "1;Adler;Anna;Anna;ja;;Kreuz-Buben\r\n2;Brandt;Bernd;Bernd;ja;;Kreuz-Buben\r\n"
           "3;Claus;Carla;Carla;ja;Damen;Herz-Damen\r\n4;Dorn;Dieter;Dieter;ja;Senioren;Herz-Damen\r\n"
           "5;Ernst;Erik;Erik;ja;;Kreuz-Buben\r\n6;Fink;Frida;Frida;ja;;Kreuz-Buben\r\n"
           "7;Gerber;Gert;Gert;ja;;Herz-Damen\r\n8;Hahn;Hanna;Hanna;nein;Damen;Herz-Damen\r\n"
           "11;Krause;Kurt;Kurt;nein;Jugend;\r\n12;Zorn;Zora;Zora;ja;Jugend;\r\n")


@pytest.fixture(scope="module")
def laptop() -> Iterator[str]:
    from drivers.club.store import SqliteCollectorStore
    from ui.club import auth

    directory = Path(tempfile.mkdtemp(prefix="skattisch-money-members-"))
    db = directory / "club.sqlite3"
    store = SqliteCollectorStore(db)
    for device, name in TABLES.items():
        store.ensure_device(device, name, now=time.time())
        store.store_batch(device, device_entries(device), now=time.time())
    store.set_document("evening", {"id": "2026-12-05", "title": "Preisskat im Advent"})
    store.set_document("organiser", auth.new_secret(PASSWORD))
    store.close()
    try:
        with club_serving(db) as (url, _):
            yield url
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _organiser(url: str) -> urllib.request.OpenerDirector:
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    opener.open(urllib.request.Request(url + "/anmelden", data=f"passwort={PASSWORD}".encode(), method="POST"),
                timeout=10)
    return opener


def _get(opener: Any, url: str) -> str:
    with opener.open(url, timeout=20) as answer:
        return str(answer.read().decode("utf-8"))


def _post(opener: Any, url: str, fields: dict[str, str]) -> str:
    """A form sent as the browser sends it; the 303's page (its notice) is the answer."""
    with opener.open(urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode(), method="POST"),
                     timeout=20) as answer:
        return str(answer.read().decode("utf-8"))


def _upload(opener: Any, url: str, data: bytes) -> str:
    boundary = "skattischgrenze"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"aktion\"\r\n\r\nimport\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"datei\"; filename=\"mitglieder.csv\"\r\n"
            "Content-Type: text/csv\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(url + "/spieler", data=body, method="POST",
                                     headers={"content-type": f"multipart/form-data; boundary={boundary}"})
    with opener.open(request, timeout=20) as answer:
        return str(answer.read().decode("utf-8"))


def test_categories_and_teams_come_from_the_member_list(laptop: str) -> None:
    organiser = _organiser(laptop)
    page = _upload(organiser, laptop, MEMBERS.encode("utf-8"))
    assert "10 Mitglieder übernommen" in page and "Herz-Damen" in page  # the Spieler page shows the columns
    exported = _get(organiser, laptop + "/spieler.csv").lstrip("\ufeff")
    assert exported.splitlines()[0].endswith("Kategorie,Mannschaft") and ",Damen,Herz-Damen" in exported
    page = _upload(organiser, laptop, exported.encode("utf-8"))  # its own export: nothing changes
    assert "10 Mitglieder übernommen (0 neu, 10 aktualisiert)" in page
    assert _get(organiser, laptop + "/spieler.csv").lstrip("\ufeff") == exported

    fields = form_from_conditions(conditions())
    fields["kategorien"] = "Jugend: 0,00"  # Kurt by the member list (Zora is not here tonight)
    team, tandem = fields["zusatz"].split("\n\n")
    fields["zusatz"] = "\n\n".join([team.splitlines()[0], tandem, "Damen; kategorie; 2,00; 100"])
    page = _post(organiser, laptop + "/bedingungen/bearbeiten", fields)
    assert '<p class="notice" id="hinweis">Bedingungen gespeichert</p>' in page

    # the worked evening's Kasse (tests/unit/club/test_money.py), plus 2 € Damen for Carla and Hanna
    kasse = {x["player"]: x for x in json.loads(_get(organiser, laptop + "/kasse.json"))["lines"]}
    assert {name: x["due"] for name, x in kasse.items()} == {
        "Anna Adler": 2150, "Bernd Brandt": 1350, "Carla Claus": 2300, "Dieter Dorn": 1250, "Erik Ernst": 1250,
        "Frida Fink": 1500, "Gert Gerber": 1250, "Hanna Hahn": 1450, "Ingo": 1450, "Jana": 1500,
        "Kurt Krause": 350, "Lena": 1300}
    assert (kasse["Kurt Krause"]["category"], kasse["Kurt Krause"]["startgeld"]) == ("Jugend", 0)
    assert kasse["Anna Adler"]["extras"][0] == {"ranking": "Mannschaft", "fee": 800, "paid": False}

    _post(organiser, laptop + "/preise", {"aktion": "frei"})
    mine = {r["name"]: r for r in json.loads(_get(organiser, laptop + "/preise.json"))["rankings"]}
    assert [(x["player"], x["leistung"]) for x in mine["Mannschaft"]["lines"]] == [("Herz-Damen", 416),
                                                                                  ("Kreuz-Buben", -184)]
    assert {x["player"] for x in mine["Damen"]["lines"]} == {"Carla Claus", "Hanna"}  # the organiser's: short name

    public = urllib.request.build_opener()
    shown = {r["name"]: r for r in json.loads(_get(public, laptop + "/preise.json"))["rankings"]}
    assert {x["player"] for x in shown["Damen"]["lines"]} == {"Carla Claus", WITHHELD}
    everything = _get(public, laptop + "/preise") + _get(public, laptop + "/preise.csv") + json.dumps(shown)
    assert "Kategorie" not in everything and "Jugend" not in everything  # nobody's category but the ranking's
    damen = everything.split("Damen", 1)[1]
    assert "Hanna" not in json.dumps(shown["Damen"]) and WITHHELD in damen
    conditions_json = _get(public, laptop + "/bedingungen.json")
    assert "Krause" not in conditions_json and "Hanna" not in conditions_json  # (the tandem "Kurt & Lena": a name)


def test_a_team_changed_on_the_spieler_page_is_named_when_it_is_not_four(laptop: str) -> None:
    organiser = _organiser(laptop)
    _upload(organiser, laptop, MEMBERS.encode("utf-8"))
    fields = form_from_conditions(conditions())
    fields["zusatz"] = fields["zusatz"].split("\n\n")[0].splitlines()[0]  # the teams from the member list
    _post(organiser, laptop + "/bedingungen/bearbeiten", fields)
    page = _post(organiser, laptop + "/spieler", {"aktion": "speichern", "was": "Anna Adler", "name": "Anna Adler",
                                                  "kurz": "Anna", "mitglied": "1", "veroeffentlichen": "ja",
                                                  "kategorie": "Damen", "mannschaft": "Pik-Asse"})
    assert "Anna Adler gespeichert" in page and '<td class="mannschaft">Pik-Asse</td>' in page
    kasse = _get(organiser, laptop + "/kasse")
    assert "Mannschaft: Kreuz-Buben: hat 3 Spieler, nicht 4" in kasse  # said, and the Kasse still shown
    assert "Anna Adler" in kasse and "Abreizgeld" in kasse
    _post(organiser, laptop + "/spieler", {"aktion": "speichern", "was": "Anna Adler", "name": "Anna Adler",
                                          "kurz": "Anna", "mitglied": "1", "veroeffentlichen": "ja",
                                          "mannschaft": "Kreuz-Buben"})
    lines = json.loads(_get(organiser, laptop + "/preise.json"))["rankings"]
    assert [(x["player"], x["leistung"]) for x in next(r for r in lines if r["name"] == "Mannschaft")["lines"]] == [
        ("Herz-Damen", 416), ("Kreuz-Buben", -184)]

"""The Preisskat's pages over a real store (SQLite, then PostgreSQL): the worked evening of
tests/money_evening.py synced as the tables send it, the conditions entered through the form,
then every amount of the Kasse, Preise and Abrechnung pages checked against the hand
computation and against their JSON, CSV and PDF."""

from __future__ import annotations

import csv
import io
import re
import subprocess
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import pytest

from device.club.money import Conditions, euro
from drivers.club.app import create_app
from drivers.club.store import open_store
from tests.money_evening import TABLES, conditions, device_entries
from ui.club import auth
from ui.club.money_form import form_from_conditions
from ui.club.pages import club_routes

TestClient = pytest.importorskip("starlette.testclient").TestClient
AMOUNT = re.compile(r"-?\d[\d.]*,\d\d(?= ?(?:€|EUR))")
FIRST_LIST = 6  # Tisch 1's first list: opened, four entries, ended; then the correction


@pytest.fixture()
def client(store_target: str) -> Iterator[Any]:
    """The laptop with tonight's lists, but Anna's Grand not yet corrected at Tisch 1."""
    store = open_store(store_target)
    for device, name in TABLES.items():
        store.ensure_device(device, name, now=time.time())
        entries = device_entries(device)
        store.store_batch(device, entries[:FIRST_LIST] if device == "pi-1" else entries, now=time.time())
    doc = auth.new_secret("vereinsabend")
    store.set_document("organiser", doc)
    store.set_document("evening", {"id": "2026-12-05", "title": "Preisskat im Advent"})
    with TestClient(create_app(store, routes=club_routes(store))) as test_client:
        test_client.store = store
        test_client.cookies.set(auth.COOKIE, auth.session_token(doc))
        yield test_client
    store.close()


def _correct_and_finish(client: Any) -> None:
    client.store.store_batch("pi-1", device_entries("pi-1")[FIRST_LIST:], now=time.time())


def _enter_conditions(client: Any) -> None:
    answer = client.post("/bedingungen/bearbeiten", data=form_from_conditions(conditions()), follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/bedingungen"


def amounts(text: str) -> list[str]:
    return AMOUNT.findall(text)


def cells(html: str) -> list[str]:
    """The table cells of a page (not the Kasse's buttons)."""
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r'<td(?! class="rowactions")[^>]*>(.*?)</td>', html, re.S)]


def csv_cells(text: str) -> list[str]:
    """The cells of the CSV's tables (not the one-cell rows: headings and notes)."""
    return [cell for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))) if len(row) > 1 for cell in row]


def pdf_text(pdf: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(pdf)
        handle.flush()
        return subprocess.run(["pdftotext", "-layout", handle.name, "-"], capture_output=True, text=True,
                              check=True).stdout


def same_amounts(html: str, text: str) -> None:
    """Every amount in the page's tables is the CSV's, in the same order."""
    in_page = [a for cell in cells(html) for a in amounts(cell)]
    assert in_page and in_page == [a for cell in csv_cells(text) for a in amounts(cell)]


def test_the_conditions_are_kept_with_the_evening_and_announced(client: Any) -> None:
    _enter_conditions(client)
    assert Conditions.from_json(client.store.money("2026-12-05", "conditions")) == conditions()
    client.cookies.clear()  # the announcement is public
    page = client.get("/bedingungen").text
    assert "10,00 €" in page and "Startgeld Jugend" in page and "0,50 € je verlorenes Spiel, ab dem 4. 1,00 €" in page
    public = client.get("/bedingungen.json").json()
    assert public["startgeld"] == 1000 and public["categories"][0]["players"] == []  # who is Jugend: not public
    assert all(not players for extra in public["extras"] for _, players in extra["groups"])
    assert "Kurt" not in page and "Kreuz-Buben" not in page
    assert client.get("/bedingungen/bearbeiten", follow_redirects=False).status_code == 303  # the form: login first


def test_a_bad_plan_is_refused_naming_the_field_and_nothing_changes(client: Any) -> None:
    _enter_conditions(client)
    bad = {**form_from_conditions(conditions()), "betraege": "50; 30; 30", "startgeld": "12,00"}
    answer = client.post("/bedingungen/bearbeiten", data=bad)
    assert answer.status_code == 400 and "Preisplan: die Anteile ergeben 110 %" in answer.text
    assert 'value="12,00"' in answer.text  # the form as typed
    too_much = {**form_from_conditions(conditions()), "art": "fest", "betraege": "100,00; 50,00"}
    answer = client.post("/bedingungen/bearbeiten", data=too_much)
    assert answer.status_code == 400 and "Preisplan: Beträge" in answer.text and "übersteigen den Topf" in answer.text
    assert Conditions.from_json(client.store.money("2026-12-05", "conditions")) == conditions()


def test_the_kasse_is_live_and_equals_its_json_and_csv(client: Any) -> None:
    _enter_conditions(client)
    before = {x["player"]: x for x in client.get("/kasse.json").json()["lines"]}
    assert before["Anna"]["abreizgeld"] == 0  # series 1 only, the Grand still counted as won
    _correct_and_finish(client)
    lines = {x["player"]: x for x in client.get("/kasse.json").json()["lines"]}
    assert lines["Anna"]["abreizgeld"] == 100 and [s["lost"] for s in lines["Anna"]["series"]] == [1, 1]
    assert {p: x["due"] for p, x in lines.items()} == {
        "Anna": 2150, "Bernd": 1350, "Carla": 2100, "Dieter": 1250, "Erik": 1250, "Frida": 1500, "Gert": 1250,
        "Hanna": 1250, "Ingo": 1450, "Jana": 1500, "Kurt": 350, "Lena": 1300}
    for data in ({"aktion": "startgeld", "spieler": "Anna"}, {"aktion": "zusatz", "spieler": "Anna", "wertung": "Mannschaft"},
                 {"aktion": "rest", "spieler": "Anna"}, {"aktion": "nachmelden", "name": "Zora"}):
        answer = client.post("/kasse", data=data, follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"] == "/kasse"
    lines = {x["player"]: x for x in client.get("/kasse.json").json()["lines"]}
    assert (lines["Anna"]["paid"], lines["Anna"]["open"]) == (2150, 0)
    assert (lines["Zora"]["due"], lines["Zora"]["series"]) == (1000, [])  # entered late: her Startgeld as entered
    page = client.get("/kasse").text
    same_amounts(page, client.get("/kasse.csv").text)
    row = next(c for c in page.split("<tr>") if "<td>Frida</td>" in c)
    assert amounts(" ".join(cells(row))) == ["10,00", "2,00", "2,50", "0,50", "15,00", "0,00", "15,00"]
    foot = page.split('class="sum"')[1]
    assert "177,00 €" in foot  # 167 € of the evening + Zora's 10 €


def test_the_prizes_are_public_once_released(client: Any) -> None:
    _enter_conditions(client)
    _correct_and_finish(client)
    organiser = client.cookies.get(auth.COOKIE)
    client.cookies.clear()
    assert client.get("/preise").status_code == 403 and client.get("/preise.json").status_code == 403
    client.cookies.set(auth.COOKIE, organiser)
    answer = client.post("/preise", data={"aktion": "frei"}, follow_redirects=False)
    assert answer.status_code == 303
    client.cookies.clear()
    data = client.get("/preise.json").json()
    prizes = {r["name"]: [(p["winner"], p["cents"], p["material"]) for p in r["prizes"]] for r in data["rankings"]}
    assert sorted(prizes["Einzel"]) == [("Dieter", 3600, ""), ("Gert", 1700, ""), ("Ingo", 3600, ""),
                                        ("Kurt", 0, "Präsentkorb")]
    assert prizes["Serie 1"] == [("Hanna", 500, "")] and prizes["Serie 2"] == [("Lena", 500, "")]
    assert prizes["Mannschaft"] == [("Herz-Damen", 1600, "")] and prizes["Tandem"] == [("Kurt & Lena", 800, "")]
    page = client.get("/preise").text
    same_amounts(page, client.get("/preise.csv").text)
    assert "je 36,00 €" in page and "Präsentkorb" in page
    for ranking in data["rankings"]:
        for prize in ranking["prizes"]:
            assert prize["material"] or euro(prize["cents"]) in page


def test_the_account_adds_up_on_the_page_in_csv_json_and_pdf(client: Any) -> None:
    _enter_conditions(client)
    _correct_and_finish(client)
    books = client.get("/abrechnung.json").json()
    assert (books["income_total"], books["payout_total"], books["remains"]) == (16700, 12300, 4400)
    assert sum(x["cents"] for x in books["kept"]) == books["remains"]
    page, table = client.get("/abrechnung").text, client.get("/abrechnung.csv").text
    same_amounts(page, table)
    pdf = client.get("/abrechnung.pdf")
    assert pdf.headers["content-type"] == "application/pdf"
    text = pdf_text(pdf.content)
    for total in ("167,00", "123,00", "44,00", "11,00", "22,00", "6,50", "4,50"):
        assert f"{total} €" in page and f"{total} EUR" in text
    in_csv = [a for cell in csv_cells(table) for a in amounts(cell)]
    assert in_csv == amounts(text)[:len(in_csv)]  # the PDF: the account's rows in the same order, then the prizes
    assert "Unterschrift" in text
    client.cookies.clear()
    assert client.get("/abrechnung", follow_redirects=False).status_code == 303  # the organiser's only
    assert client.get("/kasse.csv", follow_redirects=False).status_code == 303


def test_the_tables_get_the_evenings_tiers_with_the_sync_answer(client: Any) -> None:
    from drivers.club.app import evening_terms

    assert evening_terms(client.store) is None  # no conditions yet: the tables show no amounts
    _enter_conditions(client)
    assert evening_terms(client.store) == {"tiers": [[1, 50], [4, 100]], "per_evening": False, "passed_in_fee": 50,
                                           "passed_in_payer": "spieler"}


def test_the_lists_print_shows_each_players_abreizgeld(client: Any) -> None:
    _correct_and_finish(client)
    assert "Abreizgeld" not in client.get("/liste/pi-1/S1/druck").text  # no conditions: no money row
    _enter_conditions(client)
    page = client.get("/liste/pi-1/S1/druck").text
    abreiz, passed = (row.split("</tr>")[0] for row in page.split('<tr class="money">')[1:])
    # Tisch 1, series 1 (Anna, Bernd, Carla, Dieter): Anna's corrected Grand and Carla's Karo
    # lost, 0,50 € each; the eingepasst game 3 (Dieter dealt at four: Dieter, Anna, Bernd in it)
    assert "Abreizgeld" in abreiz and cells(abreiz) == ["0,50 €", "0,00 €", "0,50 €", "0,00 €"]
    assert "eingepasste Spiele" in passed and cells(passed) == ["0,50 €", "0,50 €", "0,00 €", "0,50 €"]
    assert "Gebühr eingepasste Spiele" in client.get("/liste/pi-1/S1/csv").text
    text = pdf_text(client.get("/liste/pi-1/S1/pdf").content)
    assert re.search(r"Abreizgeld +0,50 EUR +0,00 EUR +0,50 EUR +0,00 EUR", text)
    assert re.search(r"Gebühr eingepasste Spiele +0,50 EUR +0,50 EUR +0,00 EUR +0,50 EUR", text)

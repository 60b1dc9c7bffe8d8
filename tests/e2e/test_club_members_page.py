"""The Spieler page in the real browser (headless chromium) against a real collector process:
import the club's member list (Windows-1252, semicolons), a bad file refused naming its line
with nothing taken, merge a guest typed at a table into a member, edit, export.
Screenshots go to tests/artifacts/club/."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("selenium")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from device.club.members_csv import parse_members  # noqa: E402
from tests.e2e.test_club_pages import SIZES, _login, _shot, _submit, browser  # noqa: E402,F401
from tests.e2e.test_club_privacy import Laptop, laptop  # noqa: E402,F401

MEMBERS = ("Mitgliedsnummer;Name;Vorname;Kurzname;Karte\r\n"
           "201;Bauer;Bernd;;04A1B2C3\r\n"          # already in the roster by name: gets number and card
           "202;Meier;Jürgen;;\r\n"
           "203;Adler;Anna;;0012345678\r\n"
           "204;Fuchs-Berg;Frida;;\r\n")
DUPLICATE = MEMBERS + "203;Alt;Anton;;\r\n"


def _upload(browser: Any, path: Path) -> None:
    browser.find_element(By.ID, "datei").send_keys(str(path))
    _submit(browser, browser.find_element(By.ID, "importieren"))


def _rows(browser: Any) -> list[str]:
    return [row.text for row in browser.find_elements(By.CSS_SELECTOR, "#roster tbody tr")]


def test_import_merge_edit_and_export_in_the_browser(laptop: tuple[Laptop, dict[str, Any]], browser: Any,
                                                     tmp_path: Path) -> None:
    server, _ = laptop
    _login(browser, server)  # type: ignore[arg-type]
    browser.set_window_rect(width=1920, height=1080)
    browser.get(server.url + "/spieler")
    before = _rows(browser)
    good, bad = tmp_path / "mitglieder.csv", tmp_path / "doppelt.csv"
    good.write_bytes(MEMBERS.encode("cp1252"))
    bad.write_bytes(b"\xef\xbb\xbf" + DUPLICATE.encode("utf-8"))

    _upload(browser, bad)
    assert "Zeile 6: die Mitgliedsnummer 203 steht schon in Zeile 4" in browser.find_element(By.ID, "fehler").text
    assert _rows(browser) == before  # nothing half imported
    _shot(browser, "spieler-fehler", (1280, 720))

    _upload(browser, good)
    assert "4 Mitglieder übernommen (3 neu, 1 aktualisiert)" in browser.find_element(By.ID, "hinweis").text
    rows = _rows(browser)
    assert len(rows) == len(before) + 3
    bernd = next(r for r in rows if "Bernd Bauer" in r)
    assert "201" in bernd and "04A1B2C3" in bernd and "Jürgen Meier" in " ".join(rows)
    for size in SIZES:
        _shot(browser, "spieler-import", size)

    # "Frida Fuchs" was typed at table 2: a guest; she is the member Frida Fuchs-Berg
    Select(browser.find_element(By.ID, "behalten")).select_by_visible_text("Frida Fuchs-Berg")
    Select(browser.find_element(By.ID, "mit")).select_by_visible_text("Frida Fuchs")
    _submit(browser, browser.find_element(By.ID, "zusammenfuehren"))
    assert "eine Person" in browser.find_element(By.ID, "hinweis").text
    frida = next(r for r in _rows(browser) if "Frida Fuchs-Berg" in r)
    assert "Frida Fuchs" in frida.replace("Frida Fuchs-Berg", "")  # the guest's spelling kept as an alias
    _shot(browser, "spieler-zusammengefuehrt", (1920, 1080))
    total = [line["player"] for line in json.loads(server.text("/wertung.json"))["total"]]
    assert "Frida" in total and "Frida Fuchs" not in total  # imported: not published until said so

    browser.get(server.url + "/spieler?bearbeiten=Frida+Fuchs-Berg")
    box = browser.find_element(By.CSS_SELECTOR, "#edit-form input[name=veroeffentlichen]")
    assert browser.find_element(By.ID, "name").get_attribute("value") == "Frida Fuchs-Berg" and not box.is_selected()
    box.click()
    _submit(browser, browser.find_element(By.ID, "speichern"))
    total = [line["player"] for line in json.loads(server.text("/wertung.json"))["total"]]
    assert "Frida Fuchs-Berg" in total

    cookie = browser.get_cookie("skattisch_organiser")
    request = urllib.request.Request(server.url + "/spieler.csv", headers={"cookie": f"{cookie['name']}={cookie['value']}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        exported = parse_members(response.read())
    assert {(r.member, r.first, r.last, r.card) for r in exported} >= {
        ("201", "Bernd", "Bauer", "04A1B2C3"), ("204", "Frida", "Fuchs-Berg", ""), ("203", "Anna", "Adler", "0012345678")}

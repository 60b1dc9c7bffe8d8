"""Post/Redirect/Get on the laptop's and the league's forms: every form that was taken answers
303 to its page with its notice carried in a cookie, shown there once; a refused form answers
its page with the error (400). Real processes over real HTTP (``skattisch club serve``,
``skattisch league serve``), one test per family of routes, and one in chromium: a reload after
a form does not send it again. The member list's round trip (export, import again) is one of
the forms: nothing of a name changes."""

from __future__ import annotations

import secrets
import time
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("selenium")
from selenium.webdriver.common.by import By  # noqa: E402

from device.club.members_csv import parse_members  # noqa: E402
from tests.e2e.league_helpers import League, set_password  # noqa: E402
from tests.e2e.test_club_pages import _login, _shot, _submit, browser  # noqa: E402,F401
from tests.e2e.test_club_privacy import Laptop, laptop  # noqa: E402,F401
from ui.club import flash  # noqa: E402

FORMULAS = ("Mitgliedsnummer;Name;Vorname;Kurzname\r\n"
            "301;Formel;=Max;=Max\r\n"
            "302;+Plus;Paula;\r\n"
            "303;Minus;-Dirk;\r\n"
            "304;O'Neill;@Liam;\r\n")


def _form(**fields: str) -> str:
    return urllib.parse.urlencode(fields)


def _multipart(fields: dict[str, str], name: str, data: bytes) -> tuple[str, bytes]:
    boundary = secrets.token_hex(12)
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="liste.csv"\r\n'
                 "Content-Type: text/csv\r\n\r\n".encode() + data + b"\r\n")
    return f"multipart/form-data; boundary={boundary}", b"".join(parts) + f"--{boundary}--\r\n".encode()


def _post(server: Laptop, path: str, cookie: str, body: str | bytes, content_type: str = "") -> tuple[int, dict[str, str], bytes]:
    import http.client

    connection = http.client.HTTPConnection(server.host, server.port, timeout=20)
    headers = {"content-type": content_type or "application/x-www-form-urlencoded", "cookie": cookie}
    connection.request("POST", path, body=body, headers=headers)
    answer = connection.getresponse()
    data = answer.read()
    connection.close()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}, data


def _carried(headers: dict[str, str]) -> str:
    """The notice cookie a redirect set (``name=value``)."""
    cookie = headers.get("set-cookie", "")
    assert cookie.startswith(flash.COOKIE + "="), headers
    return cookie.split(";")[0]


def _redirected(answer: tuple[int, dict[str, str], bytes], page: str) -> str:
    status, headers, body = answer
    assert status == 303, (status, body[:300])
    assert headers["location"] == page, headers
    return _carried(headers)


def _shown_once(server: Laptop, page: str, login: str, carried: str, words: str) -> None:
    status, headers, body = server.request("GET", page, cookie=f"{login}; {carried}")
    assert status == 200 and words in body.decode(), body[:500]
    assert f'{flash.COOKIE}=""' in headers.get("set-cookie", "") or "max-age=0" in headers.get("set-cookie", "").lower()
    status, _, again = server.request("GET", page, cookie=login)  # the reload: the notice is gone
    assert status == 200 and words not in again.decode()


def test_the_members_forms_redirect_and_the_member_list_round_trips(laptop: tuple[Laptop, dict[str, Any]]) -> None:
    server, _ = laptop
    login = server.login()
    carried = _redirected(_post(server, "/spieler", login, _form(aktion="speichern", name="Gina Gast", kurz="Gina")),
                          "/spieler")
    _shown_once(server, "/spieler", login, carried, "Gina Gast gespeichert")
    carried = _redirected(_post(server, "/spieler", login, _form(aktion="karte_zuordnen", name="Gina Gast")), "/spieler")
    _shown_once(server, "/spieler", login, carried, "Minuten lang)")
    status, headers, body = _post(server, "/spieler", login, _form(aktion="speichern", name=""))
    assert status == 400 and "Der Name fehlt" in body.decode() and "location" not in headers  # refused: the page

    kind, upload = _multipart({"aktion": "import"}, "datei", FORMULAS.encode("utf-8"))
    carried = _redirected(_post(server, "/spieler", login, upload, kind), "/spieler")
    _shown_once(server, "/spieler", login, carried, "4 Mitglieder übernommen (4 neu")
    status, _, exported = server.request("GET", "/spieler.csv", cookie=login)
    assert status == 200 and b"'=Max" in exported  # protected for a spreadsheet
    before = {r.member: (r.first, r.last, r.short) for r in parse_members(exported) if r.member.startswith("30")}
    assert before == {"301": ("=Max", "Formel", "=Max"), "302": ("Paula", "+Plus", "Paula"),
                      "303": ("-Dirk", "Minus", "-Dirk"), "304": ("@Liam", "O'Neill", "@Liam")}
    kind, upload = _multipart({"aktion": "import"}, "datei", exported)
    carried = _redirected(_post(server, "/spieler", login, upload, kind), "/spieler")
    _shown_once(server, "/spieler", login, carried, "0 neu")
    status, _, again = server.request("GET", "/spieler.csv", cookie=login)
    assert again == exported  # the round trip changed nothing


def test_the_evenings_forms_redirect(laptop: tuple[Laptop, dict[str, Any]]) -> None:
    server, _ = laptop
    login = server.login()
    status, headers, _ = _post(server, "/serie", login, _form(aktion="auslosen", spieler="A\nB\nC\nD", seed="3"))
    assert status == 303 and headers["location"] == "/serie"
    status, headers, body = _post(server, "/serie", login, _form(aktion="unbekannt"))
    assert status == 400 and "location" not in headers and "unbekannte Aktion" in body.decode()  # refused: the page
    status, headers, _ = _post(server, "/einstellungen", login, _form(mindestserien="0", streichwerte="0"))
    assert status == 303 and headers["location"] == "/saison"
    status, headers, _ = _post(server, "/abmelden", login, "")
    assert status == 303 and headers["location"] == "/abend"


def test_the_money_forms_redirect_and_say_what_they_saved(laptop: tuple[Laptop, dict[str, Any]]) -> None:
    server, _ = laptop
    login = server.login()
    carried = _redirected(_post(server, "/bedingungen/bearbeiten", login,
                                _form(startgeld="10,00", abreiz="1: 0,50; 4: 1,00", preise="1", betraege="100")),
                          "/bedingungen")
    _shown_once(server, "/bedingungen", login, carried, "Bedingungen gespeichert")
    status, headers, body = _post(server, "/bedingungen/bearbeiten", login, _form(startgeld="-1", preise="1", betraege="100"))
    assert status == 400 and "location" not in headers and "Startgeld: darf nicht negativ sein" in body.decode()
    carried = _redirected(_post(server, "/kasse", login, _form(aktion="nachmelden", name="Nora Nachzügler")), "/kasse")
    _shown_once(server, "/kasse", login, carried, "Nora Nachzügler nachgemeldet")
    carried = _redirected(_post(server, "/kasse", login, _form(aktion="startgeld", spieler="Nora Nachzügler")), "/kasse")
    _shown_once(server, "/kasse", login, carried, "Nora Nachzügler: Startgeld bezahlt")
    carried = _redirected(_post(server, "/kasse", login, _form(aktion="betrag", spieler="Nora Nachzügler",
                                                               betrag="2,50")), "/kasse")
    _shown_once(server, "/kasse", login, carried, "Nora Nachzügler: sonst bezahlt 2,50 €")
    carried = _redirected(_post(server, "/preise", login, _form(aktion="frei")), "/preise")
    _shown_once(server, "/preise", login, carried, "Preise öffentlich freigegeben")
    carried = _redirected(_post(server, "/preise", login, _form(aktion="zurueck")), "/preise")
    _shown_once(server, "/preise", login, carried, "Freigabe zurückgenommen")


def test_the_league_forms_redirect_on_both_sides(laptop: tuple[Laptop, dict[str, Any]], tmp_path: Path) -> None:
    server, _ = laptop
    league = League(tmp_path / "league.sqlite3")
    try:
        set_password("league", league.db, "liga-geheim")  # on the server's console, as a first password is
        status, headers, _ = _post(_at(league.url), "/anmelden?weiter=/verwaltung", "", _form(passwort="liga-geheim"))
        assert status == 303
        organiser = headers["set-cookie"].split(";")[0]
        carried = _redirected(_post(_at(league.url), "/verwaltung", organiser, _form(aktion="code", verein="Pik As")),
                              "/verwaltung")
        _shown_once(_at(league.url), "/verwaltung", organiser, carried, "Kopplungscode für Pik As")
        status, headers, body = _post(_at(league.url), "/verwaltung", organiser, _form(aktion="entkoppeln", verein="x"))
        assert status == 400 and "location" not in headers and "nicht gekoppelt" in body.decode()

        login = server.login()
        status, headers, body = _post(server, "/liga", login, _form(url=league.url, code="000000"))
        assert status == 400 and "location" not in headers and "the league refused" in body.decode()
        carried = _redirected(_post(server, "/liga", login, _form(url=league.url, code=league.code("Herz Dame"))),
                              "/liga")
        _shown_once(server, "/liga", login, carried, "Mit der Liga Bezirksliga Test gekoppelt")
    finally:
        league.stop()


def _at(url: str) -> Laptop:
    return Laptop(url, Path("unused"))


def test_a_reload_after_a_form_in_chromium_does_not_send_it_again(laptop: tuple[Laptop, dict[str, Any]],
                                                                  browser: Any, tmp_path: Path) -> None:
    server, _ = laptop
    _login(browser, server)  # type: ignore[arg-type]
    browser.get(server.url + "/spieler")
    members = tmp_path / "mitglieder.csv"
    members.write_bytes("Mitgliedsnummer;Name;Vorname\r\n401;Reload;Rita\r\n402;Reload;Rolf\r\n".encode("utf-8"))
    browser.find_element(By.ID, "datei").send_keys(str(members))
    _submit(browser, browser.find_element(By.ID, "importieren"))
    assert browser.current_url == server.url + "/spieler"
    assert "2 Mitglieder übernommen (2 neu, 0 aktualisiert)" in browser.find_element(By.ID, "hinweis").text
    kind = browser.execute_script("return performance.getEntriesByType('navigation')[0].type")
    assert kind == "navigate"  # the redirect's GET, not the POST's answer
    _shot(browser, "spieler-hinweis-nach-weiterleitung", (1280, 720))
    old = browser.find_element(By.TAG_NAME, "html")
    browser.refresh()
    deadline = time.monotonic() + 10
    while browser.find_elements(By.TAG_NAME, "html") and browser.find_element(By.TAG_NAME, "html") == old:
        assert time.monotonic() < deadline, "the reload did not happen"
        time.sleep(0.05)
    assert browser.execute_script("return performance.getEntriesByType('navigation')[0].type") == "reload"
    assert not browser.find_elements(By.ID, "hinweis")  # no second import said "(0 neu, 2 aktualisiert)"
    assert not browser.find_elements(By.ID, "fehler")
    assert "Rita Reload" in browser.find_element(By.ID, "roster").text

"""The Preisskat's pages in a real browser (Debian's chromium, headless) over a real collector
process: the organiser enters the conditions through the form, the Kasse follows a correction
sent by a paired table over HTTP and a tick made in another browser live, the Preise page
follows their release at another laptop, the Abrechnung's PDF is drawn (pdftoppm); the bar
fits one line at 1280 px.

Screenshots go to tests/artifacts/club/money-*.png; with ``SKATTISCH_DOCS_IMG=1`` the same
pictures are written to docs/img/preisskat/ for docs/preisskat.md:

    SKATTISCH_DOCS_IMG=1 ./dev.sh test tests/e2e/test_club_money_look.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.club_helpers import club_serving
from tests.money_evening import TABLES, conditions, device_entries
from ui.club.money_form import form_from_conditions

selenium = pytest.importorskip("selenium")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from tests.e2e.test_club_pages import browser, body_once  # noqa: E402,F401  (the fixture: one chromium)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts" / "club"
DOCS = ROOT / "docs" / "img" / "preisskat"
FIRST_LIST = 6  # Tisch 1's first list before its correction
PASSWORD = "vereinsabend"


class Laptop:
    def __init__(self, url: str, db: Path) -> None:
        self.url = url
        self.db = db

    def sync(self, device: str) -> None:
        """What a paired table does: pairs with a code as ``club pair`` makes it, then sends its
        journal over HTTP by the sync protocol (the laptop keeps what it held, takes the rest)."""
        from drivers.club.app import new_pairing_code
        from drivers.club.store import SqliteCollectorStore
        from drivers.sync import STATE_FILE, SyncClient, SyncStateFile, pair_with_laptop

        store = SqliteCollectorStore(self.db)
        try:
            code = new_pairing_code(store, now=time.time())
        finally:
            store.close()
        state_file = SyncStateFile(self.db.parent / f"{device}-{STATE_FILE}")
        state_file.save(pair_with_laptop(self.url, code, device, name=TABLES[device]))
        client = SyncClient(Journal(device), state_file, device=device)
        for _ in range(20):  # a few batches at most
            if not client.sync_once():
                return
        raise AssertionError(f"{device} did not finish sending")


class Journal:
    """A table's journal (the worked evening's entries) as the sync client reads it."""

    def __init__(self, device: str) -> None:
        self.entries = device_entries(device)

    def entries_after(self, seq: int, limit: int | None = None) -> list[Any]:
        after = [e for e in self.entries if e.event["seq"] > seq]
        return after[:limit] if limit is not None else after


@pytest.fixture(scope="module")
def laptop() -> Iterator[Laptop]:
    from drivers.club.store import SqliteCollectorStore
    from ui.club import auth

    directory = Path(tempfile.mkdtemp(prefix="skattisch-money-"))
    db = directory / "club.sqlite3"
    store = SqliteCollectorStore(db)
    for device, name in TABLES.items():
        store.ensure_device(device, name, now=time.time())
        entries = device_entries(device)
        store.store_batch(device, entries[:FIRST_LIST] if device == "pi-1" else entries, now=time.time())
    store.set_document("evening", {"id": "2026-12-05", "title": "Preisskat im Advent"})
    store.set_document("organiser", auth.new_secret(PASSWORD))
    store.set_document("roster", [{"name": "Hanna Hahn", "short": "Hanna", "publish": False}])
    store.close()
    try:
        with club_serving(db) as (url, _):
            yield Laptop(url, db)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def shot(browser: Any, name: str, width: int = 1280, height: int = 720, *, whole: bool = False) -> Path:
    """A screenshot at ``width``×``height`` (``whole``: as tall as the page, for the docs)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.set_window_rect(width=width, height=height)
    if whole:
        tall = int(browser.execute_script("return document.documentElement.scrollHeight"))
        browser.set_window_rect(width=width, height=min(max(tall + 160, height), 2600))
    browser.execute_script("window.scrollTo(0, 0)")
    path = ARTIFACTS / f"money-{name}-{width}x{height}{'-ganz' if whole else ''}.png"
    browser.save_screenshot(str(path))
    if os.environ.get("SKATTISCH_DOCS_IMG") == "1" and whole:
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOCS / f"{name}.png")
    return path


def _login(browser: Any, laptop: Laptop, target: str) -> None:
    browser.get(f"{laptop.url}/anmelden?weiter={target}")
    browser.find_element(By.ID, "passwort").send_keys(PASSWORD)
    browser.find_element(By.ID, "anmelden").click()
    WebDriverWait(browser, 10).until(lambda d: d.current_url == laptop.url + target)


def _other_browser(laptop: Laptop) -> urllib.request.OpenerDirector:
    """The organiser logged in elsewhere (a second laptop at the door), over real HTTP."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    opener.open(urllib.request.Request(laptop.url + "/anmelden", data=f"passwort={PASSWORD}".encode(), method="POST"),
                timeout=10)
    return opener


def _bar_spread(browser: Any) -> int:
    """How far apart (px) the tops of the bar's brand, links and login are: a few px on one line."""
    tops = browser.execute_script(
        "return Array.from(document.querySelectorAll('header.bar .brand, header.bar nav a, header.bar .who'))"
        ".filter(e => e.offsetParent !== null).map(e => Math.round(e.getBoundingClientRect().top))")
    return max(tops) - min(tops)


def test_the_bar_fits_one_line_at_1280_when_logged_in_and_stays_usable_narrow(laptop: Laptop, browser: Any) -> None:
    _login(browser, laptop, "/kasse")
    body_once(browser, "Kasse")
    browser.set_window_rect(width=1280, height=720)
    inner = int(browser.execute_script("return window.innerWidth"))
    shot(browser, "leiste")
    assert _bar_spread(browser) < 16, f"the bar wraps at {inner} px"
    browser.set_window_rect(width=600, height=720)
    links = browser.find_elements(By.CSS_SELECTOR, "header.bar nav a")
    assert all(link.is_displayed() for link in links)
    right = browser.execute_script("return Math.max(...Array.from(document.querySelectorAll('header.bar nav a'))"
                                   ".map(e => e.getBoundingClientRect().right))")
    assert right <= int(browser.execute_script("return window.innerWidth"))  # every link on the screen, no scrolling
    shot(browser, "leiste", 600, 720)


def _cell(browser: Any, player: str, column: int) -> str:
    for row in browser.find_elements(By.CSS_SELECTOR, "#live table.geld tbody tr"):
        tds = row.find_elements(By.TAG_NAME, "td")
        if tds and tds[0].text == player:
            return str(tds[column].text)
    return ""


def test_an_organiser_runs_the_preisskat_in_the_browser(laptop: Laptop, browser: Any) -> None:
    _login(browser, laptop, "/bedingungen/bearbeiten")
    body_once(browser, "Bedingungen des Preisskats")
    for name, value in form_from_conditions(conditions()).items():
        field = browser.find_element(By.NAME, name)
        if field.get_attribute("type") == "checkbox":
            if bool(value) != field.is_selected():
                field.click()
        elif field.tag_name == "select":
            browser.execute_script("arguments[0].value = arguments[1]", field, value)
        else:
            browser.execute_script("arguments[0].value = arguments[1]", field, value)
    note = ("Veranstalter: Skatclub Herz Dame 1962 e. V. Die Startgelder gehen nach dem Preisplan als Preise "
            "zurück; Tischgeld, Abreizgeld und Gebühren decken Saal und Karten.")
    browser.execute_script("arguments[0].value = arguments[1]", browser.find_element(By.NAME, "hinweis"), note)
    shot(browser, "bedingungen-formular", whole=True)
    browser.find_element(By.CSS_SELECTOR, "form.conditions button.primary").click()
    text = body_once(browser, "Einsätze und Gebühren")
    assert browser.current_url.endswith("/bedingungen") and "0,50 € je verlorenes Spiel, ab dem 4. 1,00 €" in text
    assert "Skatclub Herz Dame" in text
    shot(browser, "bedingungen")
    shot(browser, "bedingungen", whole=True)

    browser.get(laptop.url + "/kasse")
    body_once(browser, "Kasse")
    assert _cell(browser, "Anna", 6) == "0,00 €"  # Tisch 1 has sent only its first list, the Grand won
    updates = int(browser.execute_script("return window.skattischUpdates"))
    laptop.sync("pi-1")  # the correction at Tisch 1 (and its second list) arrives over HTTP
    WebDriverWait(browser, 15, ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: int(d.execute_script("return window.skattischUpdates")) > updates
                                     and _cell(d, "Anna", 6) == "1,00 €")
    assert _cell(browser, "Frida", 8) == "15,00 €" and _cell(browser, "Hanna Hahn", 8) == "12,50 €"
    for player in ("Anna", "Carla", "Dieter"):
        button = next(b for b in browser.find_elements(By.CSS_SELECTOR, "td.rowactions button")
                      if b.text == "Startgeld" and b.find_element(By.XPATH, "../../..").find_element(
                          By.TAG_NAME, "td").text == player)
        button.click()
        WebDriverWait(browser, 10, ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda d, p=player: _cell(d, p, 2).startswith(("10,00 € ✓", "0,00 € ✓")))
    updates = int(browser.execute_script("return window.skattischUpdates"))
    _other_browser(laptop).open(urllib.request.Request(  # the Startgeld taken at the door, in another browser
        laptop.url + "/kasse", data=b"aktion=startgeld&spieler=Bernd", method="POST"), timeout=10)
    WebDriverWait(browser, 15, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: int(d.execute_script("return window.skattischUpdates")) > updates
        and _cell(d, "Bernd", 2).startswith("10,00 € ✓"))
    shot(browser, "kasse")
    shot(browser, "kasse", whole=True)

    browser.get(laptop.url + "/liste/pi-2/S1/druck")  # Tisch 2, series 1: Frida's four lost games
    text = body_once(browser, "Gebühr eingepasste Spiele")
    assert "2,50 €" in text
    shot(browser, "liste-druck", whole=True)

    browser.get(laptop.url + "/preise")
    body_once(browser, "Noch nicht freigegeben")
    updates = int(browser.execute_script("return window.skattischUpdates"))
    _other_browser(laptop).open(urllib.request.Request(  # released at the other laptop: this page follows
        laptop.url + "/preise", data=b"aktion=frei", method="POST"), timeout=10)
    WebDriverWait(browser, 15, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: int(d.execute_script("return window.skattischUpdates")) > updates
        and "Freigabe zurücknehmen" in d.find_element(By.ID, "live").text)
    text = body_once(browser, "Freigabe zurücknehmen")
    assert "Noch nicht freigegeben" not in text
    assert "je 36,00 €" in text and "Präsentkorb" in text
    shot(browser, "preise")
    shot(browser, "preise", whole=True)

    browser.get(laptop.url + "/abrechnung")
    text = body_once(browser, "Verbleibt beim Veranstalter")
    assert "167,00 €" in text and "123,00 €" in text and "44,00 €" in text
    shot(browser, "abrechnung")
    shot(browser, "abrechnung", whole=True)

    browser.delete_all_cookies()  # the public: the released prizes with the names members allow
    browser.get(laptop.url + "/preise")
    text = body_once(browser, "Einzel")
    assert "Hanna Hahn" not in text and "Hanna" in text and "Freigabe" not in text
    shot(browser, "preise-oeffentlich")


def test_the_abrechnung_pdf_is_drawn(laptop: Laptop) -> None:
    import urllib.request

    from ui.club import auth

    request = urllib.request.Request(laptop.url + "/anmelden", data=f"passwort={PASSWORD}".encode(), method="POST")
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    opener.open(request, timeout=10)
    with opener.open(laptop.url + "/abrechnung.pdf", timeout=20) as answer:
        pdf = answer.read()
    assert pdf.startswith(b"%PDF") and auth.COOKIE
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "money-abrechnung.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "80", "-singlefile", str(ARTIFACTS / "money-abrechnung.pdf"),
                    str(ARTIFACTS / "money-abrechnung-pdf")], check=True, timeout=60)
    png = ARTIFACTS / "money-abrechnung-pdf.png"
    assert png.stat().st_size > 10_000
    if os.environ.get("SKATTISCH_DOCS_IMG") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(png, DOCS / "abrechnung-pdf.png")


def test_kategorie_and_mannschaft_are_edited_on_the_spieler_page(laptop: Laptop, browser: Any) -> None:
    _login(browser, laptop, "/spieler?bearbeiten=Hanna%20Hahn")
    body_once(browser, "Spieler bearbeiten")
    for name, value in (("kategorie", "Damen, Senioren"), ("mannschaft", "Herz-Damen")):
        field = browser.find_element(By.ID, name)
        field.clear()
        field.send_keys(value)
    browser.find_element(By.ID, "speichern").click()
    text = body_once(browser, "Hanna Hahn gespeichert")
    assert browser.current_url == laptop.url + "/spieler"
    row = next(r for r in browser.find_elements(By.CSS_SELECTOR, "#roster tbody tr") if "Hanna Hahn" in r.text)
    assert (row.find_element(By.CSS_SELECTOR, "td.kategorie").text,
            row.find_element(By.CSS_SELECTOR, "td.mannschaft").text) == ("Damen, Senioren", "Herz-Damen")
    assert "Kategorie" in text and "Mannschaft" in text
    shot(browser, "spieler")
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")  # no sideways
    shot(browser, "spieler", whole=True)

"""Post/Redirect/Get for the organiser's forms: a form that was taken answers ``303 See Other``
to its page, and what the page has to tell ("4 Mitglieder übernommen …") goes with the redirect
in a short-lived cookie that the next page shows once and clears. A reload of that page is a
plain GET: the form is not sent again. (A refused form answers its page with the error and
status 400 instead, the organiser's input kept in the fields.)
"""

from __future__ import annotations

from typing import TypeVar
from urllib.parse import quote, unquote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

COOKIE = "skattisch_hinweis"
SECONDS = 120  # a notice not shown by then is dropped
LONGEST = 600  # characters of a notice carried (a cookie holds 4 kB)
Page = TypeVar("Page", bound=Response)


def redirect(path: str, notice: str = "") -> RedirectResponse:
    """``303`` to ``path``; ``notice`` shown there once."""
    response = RedirectResponse(path, status_code=303)
    if notice:
        response.set_cookie(COOKIE, quote(notice[:LONGEST], safe=""), max_age=SECONDS, httponly=True,
                            samesite="lax", path="/")
    return response


def notice(request: Request) -> str:
    """The notice a redirect carried to this request ("" for none)."""
    return unquote(request.cookies.get(COOKIE, ""))[:LONGEST]


def shown(request: Request, response: Page) -> Page:
    """``response`` having shown the carried notice: cleared, so a reload does not show it again."""
    if COOKIE in request.cookies:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response

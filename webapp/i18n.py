"""Spanish and English for the page (Flask-Babel), chosen by the browser's language or the switch.

The catalogue is webapp/translations/es/LC_MESSAGES/messages.po (English is the source text);
`pybabel extract -F babel.cfg` finds every string of the templates, the page's modules and the
rules engine's message codes (webapp/wording.py), and tests/test_page_words.py fails when one is
missing from it. The switch keeps the choice in a cookie, so a page in Spanish stays Spanish.
"""

from __future__ import annotations

from flask import Flask, has_request_context, request
from flask_babel import Babel, get_locale

#: The languages of the page, in the words of each.
LANGUAGES = {"en": "English", "es": "Español"}
COOKIE = "spinner-lang"
#: A year: the choice of language is a preference, not a session.
COOKIE_AGE = 365 * 24 * 3600


#: The languages pages were asked in since this process started: the live board is drawn in these
#: only (English always), so a table nobody reads in Spanish costs one drawing per change, not two.
IN_USE: set[str] = {"en"}


def choose() -> str:
    """The switch's choice if there is one, else the best of the browser's languages, else English
    (English outside a request: a background task's words)."""
    if not has_request_context():
        return "en"
    chosen = request.cookies.get(COOKIE)
    if chosen not in LANGUAGES:
        chosen = request.accept_languages.best_match(list(LANGUAGES)) or "en"
    if chosen not in IN_USE:
        IN_USE.add(chosen)
    return chosen


def in_use() -> tuple[str, ...]:
    return tuple(sorted(IN_USE))


def lang() -> str:
    return str(get_locale() or "en")


def init_app(app: Flask) -> None:
    if "babel" in app.extensions:
        return
    Babel(app, locale_selector=choose)
    app.jinja_env.globals.update(lang=lang, languages=LANGUAGES)

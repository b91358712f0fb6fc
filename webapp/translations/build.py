"""Rebuild the catalogue: extract the page's words, fill in Spanish from es.py, compile.

    python -m webapp.translations.build          (needs Babel; run after changing a word)

The compiled messages.mo ships with the package; tests/test_page_words.py checks that every
string extracted has its Spanish, so a new word without one fails the tests, not the table.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
POT = HERE / "messages.pot"
PO = HERE / "es" / "LC_MESSAGES" / "messages.po"


def extract() -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "-q",
            "extract",
            "-F",
            str(ROOT / "babel.cfg"),
            "-k",
            "L",
            "-o",
            str(POT),
            "--no-location",
            "--sort-output",
            "--omit-header",
            "webapp",
        ],
        check=True,
        cwd=ROOT,
    )


def fill() -> list[str]:
    """Spanish for every message of the template; the messages es.py lacks."""
    from .es import ES

    with POT.open("rb") as f:
        catalog = read_po(f, locale="es")
    catalog.fuzzy = False
    catalog.project, catalog.version = "Spinner", "0.1"
    catalog.copyright_holder = "the Spinner authors"
    missing = []
    for message in catalog:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]  # a plural's id: (one, many)
        said = ES.get(key)
        if said is None:
            missing.append(key)
            continue
        message.string = said  # a plural's pair fills both of its forms
    PO.parent.mkdir(parents=True, exist_ok=True)
    with PO.open("wb") as f:
        write_po(f, catalog, omit_header=False, no_location=True, sort_output=True)
    with (PO.parent / "messages.mo").open("wb") as f:
        write_mo(f, catalog)
    return missing


if __name__ == "__main__":
    extract()
    lacking = fill()
    for key in lacking:
        print(f"no Spanish for: {key!r}", file=sys.stderr)
    sys.exit(1 if lacking else 0)

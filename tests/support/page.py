"""What the player-page browser tests share: the system Chromium and its arguments, the three screens,
where a failing test's screenshots go, and small steps (start a match, tap, wait for the board) that
wait for events, never for the clock. Their fixtures (`chromium`, `open_page`) are in tests/conftest.py."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SMALL = {"viewport": {"width": 320, "height": 568}, "has_touch": True, "is_mobile": True}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
SCREENS = {"320x568": SMALL, "390x844": PHONE, "1366x768": LAPTOP}
#: Where a failing test leaves its screenshots (a CI job can keep the folder).
SHOTS = Path(os.environ.get("SPINNER_SHOTS", Path(__file__).resolve().parent.parent / "screenshots"))
AXE = Path(__file__).resolve().parent.parent / "vendor" / "axe.min.js"
#: how long a wait for an event may last before the test fails (ms): waits end on their event, so
#: this only bounds a broken page; a loaded two-core machine took over 15 s for one step
WAIT = int(os.environ.get("SPINNER_WAIT_MS", "60000"))


def start_match(
    page,
    url: str,
    players: list[str],
    variant: str | None = None,
    options: dict[str, str] | None = None,
    title: str = "",
) -> str:
    """The new-match form, as a player fills it; returns the match id."""
    page.goto(url + "/")
    if variant:
        page.select_option("#variant", variant)
    for seat, name in enumerate(players):
        page.fill(f'.player[data-seat="{seat}"] input', name)
    if options:
        page.click("details.options summary")
        for name, label in options.items():
            page.select_option(f'select[name="{name}"]', label=label)
    if title:
        page.fill('input[name="title"]', title)
    page.click("#new-match button[type=submit]")
    # pad.js has drawn its first board: the server's first hint ("Tap the tile played") is replaced
    page.wait_for_selector("#pad[data-ready]")
    return page.locator("#board").get_attribute("data-game")


def import_record(page, url: str, record: dict[str, Any]) -> str:
    """A match from a record (GAME_RECORD.md), through the page's import form; returns its id."""
    page.goto(url + "/")
    page.set_input_files(
        'input[name="record"]',
        files=[{"name": "match.json", "mimeType": "application/json", "buffer": json.dumps(record).encode()}],
    )
    page.click("form[enctype] button[type=submit]")
    page.wait_for_selector("#board")
    return page.locator("#board").get_attribute("data-game")


def meant_taps(page) -> None:
    """Every tap on Pass/Draw is meant, however soon after the last: the pad holds back a second tap
    within its guard window (a double tap), which a test tapping at machine speed is not; and a tap
    however soon after another phone's change is aimed at the board it shows (`settle_taps`)."""
    page.evaluate("document.getElementById('pad').dataset.guardMs = '0'")
    settle_taps(page, 0)


def settle_taps(page, ms: int) -> None:
    """How long after another phone's change (or the camera's) a tap on the pad is taken as aimed at
    the board before it, and so refused: long, to make a test's tap come "at once" on a loaded machine."""
    page.evaluate(f"document.getElementById('pad').dataset.settleMs = '{ms}'")


def version(page) -> int:
    return page.evaluate("window.spinnerBoard.version")


def wait_version(page, at_least: int) -> None:
    """Until the page shows `at_least` and its pad is done sending (a tap while busy is ignored)."""
    page.wait_for_function(
        f"window.spinnerBoard && window.spinnerBoard.version >= {at_least} && !document.querySelector('#pad.busy')"
    )


def tap_and_wait(page, selector: str) -> None:
    """Tap something that records one event, and wait for the board that shows it."""
    before = version(page)
    page.click(selector)
    wait_version(page, before + 1)


def record_of(page, game_id: str) -> dict[str, Any]:
    return page.evaluate(f"fetch('/api/games/{game_id}/record').then(r => r.json())")


def answer_of(page, game_id: str) -> dict[str, Any]:
    return page.evaluate(f"fetch('/api/games/{game_id}/score').then(r => r.json())")


def api(page, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A change through the API as the pad makes it (session, CSRF token, the version shown)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const csrf = document.querySelector('meta[name="csrf-token"]').content;
            const r = await fetch(document.getElementById('board').dataset.api + path, {
                method, credentials: 'same-origin', body: body ? JSON.stringify(body) : undefined,
                headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf}});
            return {status: r.status, body: await r.json()};
        }""",
        [method, path, body],
    )


def axe_findings(page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """axe-core's violations of the given impacts on the page as it stands (rule: the first nodes)."""
    if not page.evaluate("Boolean(window.axe)"):
        page.add_script_tag(content=AXE.read_text())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): "
        + "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"]) for n in v["nodes"][:3])
        for v in result["violations"]
        if v["impact"] in impacts
    ]

"""The companion's pages in headless Chromium (Playwright): a phone's screen, starting a match on
the page, and waiting for the board to show a version. Every wait is on the page's own state,
with a time limit that is only there to fail a test that would otherwise hang."""

from __future__ import annotations

from typing import Any

#: A phone's screen and touch.
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
#: The longest any one wait on a page may take before the test fails (ms): generous, for a loaded
#: machine; a page that is right is waited for only as long as it takes.
PATIENCE_MS = 60_000


class without_csp:
    """A Playwright browser whose contexts ignore the pages' Content-Security-Policy: Playwright's
    `wait_for_function` evaluates its predicate with eval, which the policy forbids (as it should
    for anything else). tests/test_webapp_security.py drives the pad with the policy in force."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        return self._browser.new_context(**{"bypass_csp": True, **options})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


def launch(sync_playwright: Any, path: str, *args: str) -> Any:
    """Chromium from the system (never a downloaded build), without its sandbox (containers)."""
    return sync_playwright.chromium.launch(executable_path=path, args=["--no-sandbox", *args])


def wait_version(page, version: int, timeout: float = PATIENCE_MS) -> None:
    """Until the page shows `version` and its pad (if any) is done sending: a tap while busy is ignored."""
    page.wait_for_function(
        f"window.spinnerBoard && window.spinnerBoard.version >= {version} && !document.querySelector('#pad.busy')",
        timeout=timeout,
    )


def totals(page) -> list[str]:
    return [t.strip() for t in page.locator("#board .total").all_inner_texts()]


def start_match(page, url: str, players: list[str], variant: str | None = None) -> None:
    page.goto(url + "/")
    if variant:
        page.select_option("#variant", variant)
    for seat, name in enumerate(players):
        page.fill(f'.player[data-seat="{seat}"] input', name)
    page.click("text=Start the match")
    page.wait_for_function("window.spinnerBoard !== undefined", timeout=PATIENCE_MS)
    # pad.js has drawn its first board: the server's first hint ("Tap the tile played") is replaced
    page.wait_for_selector("#pad[data-ready]", timeout=PATIENCE_MS)


def score_of(page) -> dict[str, Any]:
    """The match's score as the API answers it, fetched by the page (with its session)."""
    return page.evaluate(
        "fetch(`/api/games/${document.getElementById('board').dataset.game}/score`).then(r => r.json())"
    )


def new_page(browser, **context: Any):
    """A page in a fresh context (its own cookies: another phone), waiting up to PATIENCE_MS by default."""
    made = browser.new_context(**(context or PHONE))
    made.set_default_timeout(PATIENCE_MS)
    return made.new_page()


def expect(target: Any) -> Any:
    """Playwright's `expect` (it waits until the page agrees, or PATIENCE_MS passes and the test fails)."""
    from playwright.sync_api import expect as playwright_expect

    playwright_expect.set_options(timeout=PATIENCE_MS)
    return playwright_expect(target)

"""The page under its own strict Content-Security-Policy (no inline script, no eval): a match is
started and played on the pad with the policy enforced, and the browser reports no violation.
(The other browser tests bypass the policy only because Playwright's own waits use eval.)"""

from __future__ import annotations

import pytest

from tests.support.page import PHONE, start_match

pytestmark = pytest.mark.slow


def test_the_page_plays_a_hand_with_its_csp_enforced(live_server, open_page):
    page = open_page(PHONE, bypass_csp=False)
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text)
            if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text
            else None
        ),
    )
    page.on("pageerror", lambda error: violations.append(str(error)))
    start_match(page, live_server.url, ["Eve", "Finn"], variant="all-fives")
    page.click('.seat[data-seat="0"]')
    page.click('[data-tile="5-5"]')
    page.locator(".plays li.ev").first.wait_for()  # the board shows the play once it is recorded
    page.click('[data-tile="0-5"]')
    page.locator(".plays li.ev").nth(1).wait_for()
    assert violations == []

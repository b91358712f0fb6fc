"""A viewer's board stays on the live stream however long the match sits idle.

Each stream lives `SSE_LIFETIME` seconds and the browser opens it again; an idle match sends no
board on the new stream (the browser says which version it has), so the page must count a stream
that opened again as a stream that works, not only one that brought a board.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import expect, new_page, start_match
from tests.support.servers import Running, start

pytestmark = pytest.mark.slow

#: streams opened again before the check: more than the failures the page bears before it polls
REOPENED = 6

#: every EventSource the page makes counts the streams it opened (its own `onopen` stays the page's)
COUNT_OPENS = """
(() => {
  const Real = window.EventSource;
  window.streamsOpened = 0;
  function Counted(url, options) {
    const source = new Real(url, options);
    source.addEventListener("open", () => { window.streamsOpened += 1; });
    return source;
  }
  Counted.prototype = Real.prototype;
  Counted.CONNECTING = Real.CONNECTING;
  Counted.OPEN = Real.OPEN;
  Counted.CLOSED = Real.CLOSED;
  window.EventSource = Counted;
})();
"""


@pytest.fixture
def short_streams(tmp_path) -> Iterator[Running]:
    """A live server whose streams end after a fraction of a second."""
    server, running = start(tmp_path, SSE_HEARTBEAT=0.1, SSE_LIFETIME=0.3)
    yield running
    server.stop()


def scorer_and_viewer(server: Running, browser: Any, init_script: str | None = None) -> tuple[Any, Any]:
    """A new match's scorer page, and a second phone on its viewer link, live."""
    scorer = new_page(browser)
    start_match(scorer, server.url, ["Ana", "Ben", "Cruz", "Dee"])
    viewer = new_page(browser)
    if init_script:
        viewer.add_init_script(init_script)
    viewer.goto(scorer.locator(".share .link a").first.get_attribute("href"))
    expect(viewer.locator("#live")).to_have_text("live")
    return scorer, viewer


def test_an_idle_viewer_stays_live_as_its_stream_is_opened_again(short_streams, browser):
    _, viewer = scorer_and_viewer(short_streams, browser, COUNT_OPENS)
    # nothing changes: each stream ends, the browser opens it again, and no board comes on it
    viewer.wait_for_function(
        f"window.streamsOpened >= {REOPENED} || document.getElementById('live').dataset.state === 'polling'"
    )
    assert viewer.get_attribute("#live", "data-state") != "polling"
    assert viewer.evaluate("window.streamsOpened") >= REOPENED


def test_a_viewer_is_told_when_the_match_is_deleted(short_streams, browser):
    scorer, viewer = scorer_and_viewer(short_streams, browser)

    # the scorer deletes the match from the list of matches
    scorer.goto(short_streams.url + "/")
    match = scorer.locator(".games li.game").first
    match.locator("summary").click()
    match.locator('input[name="sure"]').check()
    match.locator("button", has_text="Delete").click()
    scorer.wait_for_function("document.querySelectorAll('.games li.game').length === 0")

    # the viewer's stream ends and cannot open again: the page says why and stops asking
    viewer.wait_for_function("document.getElementById('live').dataset.state === 'gone'")
    assert viewer.inner_text("#live") == "this match was deleted: the board is as it last was"
    assert viewer.locator("#board").count() == 1  # the board as it last was, not an error page

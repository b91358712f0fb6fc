"""Issue 36, defect 7: on a phone every target is at least 44 px (links, summaries, checkboxes,
the chart's labels legible) and the end-of-hand row stays inside the pad."""

from __future__ import annotations

import pytest

from tests.support.page import PHONE, SMALL, import_record
from tests.support.records import SIX_BLOCK_PLAYS, hand, pass_, record

pytestmark = pytest.mark.slow

#: Every visible thing a finger aims at: its box (for a checkbox, its label's) at least 44 px each
#: way; the 28 tiles' triangle keeps seven columns, so on a 320 px phone a tile is 44 px tall and at
#: least 36 px wide (past WCAG 2.5.8's 24 px, and each tile stands apart from its neighbours).
SMALL_TARGETS = """
() => {
  const out = [];
  const seen = (el) => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden';
  document.querySelectorAll('a[href], button, summary, select, input:not([type=hidden]), textarea').forEach((el) => {
    if (!seen(el) || el.closest('dialog:not([open])') || el.closest('.qr')) return;
    const target = el.type === 'checkbox' || el.type === 'radio' ? el.closest('label') || el : el;
    const r = target.getBoundingClientRect();
    const narrowest = el.classList.contains('tilebtn') ? 36 : 44;
    if (r.height < 44 || r.width < narrowest) out.push(`${el.tagName} ${el.id || el.className || ''} "${(el.textContent || el.name || '').trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  });
  return out;
}"""


@pytest.mark.parametrize("screen", [SMALL, PHONE], ids=["320x568", "390x844"])
def test_every_target_is_44_px_and_nothing_runs_off_the_phone(live_server, open_page, screen):
    page = open_page(screen)
    rec = record("partners", hand(*SIX_BLOCK_PLAYS, pass_(2), pass_(3), pass_(0), pass_(1)))
    import_record(page, live_server.url, rec)  # blocked: the end-of-hand row is open, the chart is drawn
    assert page.locator("#end-hand").evaluate("d => d.open")
    assert page.evaluate(SMALL_TARGETS) == []
    width = screen["viewport"]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    pad = page.locator("#pad").bounding_box()
    for selector in ("#reveal", "#pips", "#send-pips"):
        box = page.locator(selector).bounding_box()
        assert box["x"] >= pad["x"] and box["x"] + box["width"] <= pad["x"] + pad["width"], selector
    # The chart's labels, as drawn: at least 12 px.
    sizes = page.eval_on_selector_all(".chart text", "ts => ts.map(t => t.getBoundingClientRect().height)")
    assert sizes and min(sizes) >= 12

    page.goto(page.url.split("/g/")[0] + "/")
    page.click("details.options summary")
    assert page.evaluate(SMALL_TARGETS) == []
    page.click(".games li.game summary")  # the scorer's rename and delete
    assert page.evaluate(SMALL_TARGETS) == []

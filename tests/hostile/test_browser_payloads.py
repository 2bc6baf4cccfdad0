"""Markdown and HTML payloads in a real Chromium: on every page, with the payload competition
and a link full of payloads, no link, image, script or frame from them reaches the DOM."""

from __future__ import annotations

import urllib.parse

import pytest

from lab import families
from scoring import registry
from tests.browser import TABLE, assert_no_exception, launch_browser, serve, wait_idle
from tests.hostile import payloads

pytestmark = pytest.mark.browser

FIND = """(evil) => {
  const found = [];
  for (const el of document.querySelectorAll('a, img, image, iframe, script, link, object, embed, video, audio')) {
    for (const attr of el.getAttributeNames()) {
      const v = el.getAttribute(attr) || '';
      if (v.includes(evil)) found.push(el.tagName + ' ' + attr + '=' + v.slice(0, 80));
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def browser():
    yield from launch_browser()


def test_no_payload_becomes_markup_on_any_page(browser, tmp_path_factory):
    folder = payloads.write(tmp_path_factory.mktemp("payloads") / "comp")
    pages = [p.url_path for fam in registry.families() for p in families.ui(fam).pages] + ["data"]
    query = urllib.parse.urlencode(payloads.LINK)
    with serve(str(folder)) as base:
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.set_default_timeout(60_000)
        seen = []
        try:
            for path in pages:
                page.goto(f"{base}/{path}?{query}")
                wait_idle(page)
                page.wait_for_timeout(500)  # charts draw after the run
                assert_no_exception(page, f"page {path!r}")
                found = page.evaluate(FIND, payloads.EVIL)
                assert found == [], (path, found)
                seen.append(path)
                text = page.locator('[data-testid="stMain"]').inner_text()
                assert "Traceback" not in text
            # and the payloads are there, as text: the team names in the leaderboard's grid
            page.goto(f"{base}/leaderboard")
            wait_idle(page)
            page.wait_for_selector(TABLE, state="attached")
            grid = page.locator(TABLE).first.inner_text()
            assert "HYPERLINK" in grid
        finally:
            page.close()
    assert len(seen) == len(pages)

"""Real-browser test of the Custom pages: `streamlit run app.py` on a fresh server, Debian's
Chromium through Playwright (``tests/browser.py``). A deep link to the Custom Leaderboard with
the Borda rule shows HELM Lite's stage table; both pages open from the navigation without an
exception (screenshots in ``artifacts/screenshots/custom_*.png``)."""

from __future__ import annotations

import pytest

from tests.browser import (
    SHOTS,
    TABLE,
    assert_no_exception,
    full_screenshot,
    go,
    serve,
    wait_idle,
)

pytestmark = pytest.mark.browser

PAGES = [("custom_leaderboard", "Leaderboard"), ("custom_recipe", "Recipe")]


def test_custom_pages_open_in_a_browser(browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with serve() as base:
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        page.set_default_timeout(60_000)
        try:
            page.goto(base + "/custom_leaderboard?across=borda")
            wait_idle(page)
            page.wait_for_selector('[data-testid="stMain"] h1:has-text("Leaderboard")')
            page.wait_for_selector(TABLE, state="attached")
            main = page.locator('[data-testid="stMain"]').inner_text()
            assert "across: Borda count" in main and "Traceback" not in main
            for stem, title in PAGES:
                go(page, stem, title)
                assert_no_exception(page, f"the Custom page {title!r}")
                shot = SHOTS / f"{stem}.png"
                full_screenshot(page, shot)
                assert shot.stat().st_size > 10_000
        finally:
            page.close()

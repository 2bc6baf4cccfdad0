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
    first_control,
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


def test_the_guided_import_in_a_browser(browser):
    """A published table uploaded as it is (MTEB, .tsv) on the Data page: what was read is shown
    (the roles table, the guesses, the published aggregate's make-up), and it loads; the Custom
    sidebar's first control is the across rule."""
    from pathlib import Path

    mteb = Path(__file__).resolve().parents[1] / "data" / "leaderboards" / "mteb.tsv"
    with serve() as base:
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        page.set_default_timeout(60_000)
        try:
            page.goto(base + "/custom_leaderboard")
            wait_idle(page)
            first = first_control(page)
            assert first["first"] == "stSelectbox"
            label = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first.inner_text()
            assert "Across groups / units" in label
            go(page, "data", "Data")
            page.locator('[data-testid="stFileUploader"]').first.locator("input[type=file]").set_input_files(str(mteb))
            page.wait_for_selector('h3:has-text("Guided import")')
            wait_idle(page)
            main = page.locator('[data-testid="stMain"]').inner_text()
            assert "83 rows, team column Model" in main and "guesses to check" in main
            assert "a weighted mean of 7 column(s)" in main
            page.get_by_role("button", name="Check and load these files").click()
            page.wait_for_selector('[data-testid="stMain"] :text("Every Custom: your own leaderboard page now scores")')
            assert_no_exception(page, "the Data page after the guided import")
            shot = SHOTS / "custom_guided_import.png"
            SHOTS.mkdir(parents=True, exist_ok=True)
            full_screenshot(page, shot)
        finally:
            page.close()

"""Real-browser test of the QA pages: `streamlit run app.py` on a fresh server, Debian's
Chromium through Playwright (``tests/browser.py``).

The first request is a deep link to the QA Leaderboard, so the sample must show there on first
start; then every QA page is opened from the navigation (no exception, its title, a screenshot
at 1440 px in ``artifacts/screenshots/qa_*.png``), a question is opened from a link, and two
theme weight sliders are moved with the keyboard.
"""

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

PAGES = [("qa_leaderboard", "Leaderboard"), ("qa_hidden_weights", "Hidden weights"),
         ("qa_speed", "Speed penalty"), ("qa_questions", "Questions")]
SIDEBAR = '[data-testid="stSidebar"]'


def _opening(page) -> str:
    """The page's takeaway: the header's callout (lab.view.current.header)."""
    callout = '[data-testid="stMain"] [data-testid="stAlert"] [data-testid="stMarkdownContainer"]'
    return page.locator(callout).first.inner_text().strip()


def test_every_qa_page_opens_and_a_weight_slider_moves(browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with serve() as base:  # a fresh server: the deep link is its first request
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        page.set_default_timeout(60_000)
        try:
            page.goto(base + "/qa_leaderboard")
            wait_idle(page)
            page.wait_for_selector('[data-testid="stMain"] h1:has-text("Leaderboard")')
            assert "QA: retrieval, answers and speed parameters" in page.locator(SIDEBAR).inner_text()
            page.wait_for_selector(TABLE, state="attached")
            # the sample's story (docs/qa.md §8): loud-caps first under the organisers' weights
            assert _opening(page).startswith("steady-state wins with equal weights; under the file's weights "
                                             "loud-caps is first")

            for stem, title in PAGES:
                go(page, stem, title)
                assert_no_exception(page, f"the QA page {title!r}")
                assert "Traceback" not in page.locator('[data-testid="stMain"]').inner_text()
                if stem == "qa_hidden_weights":
                    page.wait_for_selector(".js-plotly-plot g.ternary", state="attached")
                shot = SHOTS / f"{stem}.png"
                full_screenshot(page, shot)
                assert shot.stat().st_size > 10_000, f"the screenshot of {title!r} is suspiciously small"

            page.goto(base + "/qa_questions?question=ast-1-2")  # a shared link to one question
            wait_idle(page)
            assert_no_exception(page, "the linked question")
            # sample_data/qa/ground_truth.csv, question ast-1-2
            assert "In which year was the Karsk Ridge Observatory founded?" in page.locator(
                '[data-testid="stMain"]').inner_text()

            go(page, "qa_leaderboard", "Leaderboard")
            before = page.locator(TABLE).first.inner_text()
            for theme in ("lighthouses", "rivers"):  # loud-caps' strong themes (docs/qa.md §8) down to 0
                slider = page.locator(f'{SIDEBAR} input[type="range"][aria-label="Theme weights: {theme}"]')
                assert slider.count() == 1
                slider.focus()
                page.keyboard.press("Home")
                # the rerun may start after the key press returns: wait for its mark in the link
                page.wait_for_function(f"() => document.location.search.includes('weights={theme}%3A0&')")
                wait_idle(page)
                assert slider.get_attribute("aria-valuetext") == "0.00"
            assert_no_exception(page, "the Leaderboard after moving the weights")
            assert page.locator(TABLE).first.inner_text() != before
            assert "weights=lighthouses%3A0&" in page.url and "weights=rivers%3A0&" in page.url
            # left with its weak themes, loud-caps loses the lead to the steady all-rounder
            assert _opening(page).startswith("steady-state is first both with equal weights and under the "
                                             "current weights")
            assert "rivers 0 %" in page.locator(SIDEBAR).inner_text()
        finally:
            page.close()

"""Real-browser test of the spotGEO pages: `streamlit run app.py` on the sample, driven by
Playwright and Debian's Chromium (``tests/browser.py``).

On first start the spotGEO section shows the sample (the Shovel-Ready sample is never
loaded: the first visit is a spotGEO link); every spotGEO page opens with no
exception (a screenshot of each goes to ``artifacts/screenshots/spotgeo_*.png``); moving the τ
slider rescores the leaderboard (the sample's story: near-enough drops to 5th at τ = 8); a link
to the Frames page reproduces the team, sequence and frame, and the step buttons move it.
Without Chromium or Playwright it skips locally and fails when ``CI=true``.
"""

from __future__ import annotations

import pytest

from tests.browser import (
    NAV,
    SHOTS,
    TABLE,
    assert_no_exception,
    full_screenshot,
    go,
    serve,
    wait_idle,
)

pytestmark = pytest.mark.browser

PAGES = [("spotgeo_leaderboard", "spotGEO leaderboard"), ("spotgeo_frames", "Frames"),
         ("spotgeo_errors", "Errors"), ("spotgeo_rules", "Rules")]
TAU = '[data-testid="stSidebar"] input[type="range"][aria-label="Border radius τ (px)"]'


@pytest.fixture(scope="module")
def sample_app():
    with serve() as base:
        yield base


def _new_page(browser, url: str):
    page = browser.new_page(viewport={"width": 1440, "height": 1000})
    page.set_default_timeout(60_000)
    page.goto(url)
    wait_idle(page)
    return page


def _rows(page) -> list[list[str]]:
    """The main table's body rows, cell texts (the first table on the page)."""
    page.wait_for_selector(TABLE, state="attached")
    return page.evaluate(
        """sel => Array.from(document.querySelector(sel).querySelectorAll('tbody tr'))
            .map(tr => Array.from(tr.children).map(td => td.innerText.trim()))""", TABLE)


def _team_at_rank(page, rank: int) -> str:
    return next(r[1] for r in _rows(page) if r[0] == str(rank))


def test_every_spotgeo_page_opens_from_its_section_and_tau_moves(browser, sample_app):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = _new_page(browser, sample_app + "/spotgeo_leaderboard")  # the first visit of a fresh server
    try:
        nav = page.locator(NAV).inner_text()
        assert "spotGEO" in nav, "no spotGEO section in the navigation"
        for n, (stem, title) in enumerate(PAGES):
            if n:
                go(page, stem)
            page.wait_for_selector(f'[data-testid="stMain"] h1:has-text("{title}")')
            wait_idle(page)
            assert_no_exception(page, f"page {title!r}")
            assert "Traceback" not in page.locator('[data-testid="stMain"]').inner_text()
            if stem == "spotgeo_leaderboard":  # the sample, on first start
                assert [_team_at_rank(page, r) for r in (1, 2, 3)] == ["sharp-eye", "four-off", "near-enough"]
            full_screenshot(page, SHOTS / f"{stem}.png")
            assert (SHOTS / f"{stem}.png").stat().st_size > 10_000

        go(page, "spotgeo_leaderboard")
        tau = page.locator(TAU)
        assert tau.get_attribute("aria-valuetext") == "10.00"
        assert _team_at_rank(page, 5) == "steady"
        tau.focus()
        for _ in range(4):  # 10 → 8 in steps of 0.5
            page.keyboard.press("ArrowLeft")
            wait_idle(page)
        assert tau.get_attribute("aria-valuetext") == "8.00"
        page.wait_for_function(
            """sel => Array.from(document.querySelector(sel).querySelectorAll('tbody tr'))
                .some(tr => tr.children[0].innerText.trim() === '5' && tr.children[1].innerText.trim() === 'near-enough')""",
            arg=TABLE, timeout=30_000)
        assert_no_exception(page, "the spotGEO leaderboard after moving τ")
        assert "tau=8" in page.url
    finally:
        page.close()


def test_a_frames_link_reproduces_the_view_and_steps(browser, sample_app):
    page = _new_page(browser, sample_app + "/spotgeo_frames?team=near-enough&seq=2&frame=3")
    try:
        page.wait_for_selector('[data-testid="stMain"] h1:has-text("Frames")')
        assert_no_exception(page, "the linked Frames page")
        main = page.locator('[data-testid="stMain"]')
        assert "In sequence 2, frame 3, near-enough finds" in main.inner_text()
        main.get_by_role("button", name="Next frame").click()
        page.wait_for_function("() => location.search.includes('frame=4')", timeout=30_000)
        wait_idle(page)
        assert "In sequence 2, frame 4, near-enough" in main.inner_text()
        assert "seq=2" in page.url and "team=near-enough" in page.url
        assert page.locator('[data-testid="stMain"] .js-plotly-plot').count() >= 1  # the frame is drawn
        assert_no_exception(page, "the Frames page after a step")
    finally:
        page.close()

"""Real-browser test: `streamlit run app.py` driven by Playwright and Debian's Chromium.

Visits every Shovel-Ready page and the Data page at 1440 × 900 from the navigation, checks that none
shows an exception, saves a screenshot of each into ``artifacts/screenshots/`` (the pictures in
``docs/screenshots/`` come from ``python -m tests.screenshots``), moves a sidebar slider and
measures the time until the leaderboard table shows new numbers.

The same is measured on the 20-submission benchmark competition (generated once into a temp
folder; ``LAB_BENCH_DIR`` overrides it). The timings are printed and written to
``artifacts/browser_timings.json``; the asserted bounds only catch a slider that recomputes
everything (speed targets are reported, not asserted). Without Chromium or Playwright the tests skip locally and fail when ``CI=true``.
"""

from __future__ import annotations

import os
import time

import pytest

from tests.browser import (
    SHOTS,
    TABLE,
    assert_no_exception,
    full_screenshot,
    go,
    open_page,
    record_timing,
    serve,
    wait_idle,
)

pytestmark = pytest.mark.browser


# (title in the navigation, file stem for the screenshot)
PAGES = [
    ("Leaderboard", "leaderboard"),
    ("Demographics", "demographics"),
    ("Efficiency", "efficiency"),
    ("Segments", "segments"),
    ("Worked examples", "worked_examples"),
    ("Data", "data"),
]


@pytest.fixture(scope="module")
def sample_app():
    with serve() as base:
        yield base


def _table_text(page) -> str:
    return page.locator(TABLE).first.inner_text()


def _measure_slider(page, label: str, moves: int) -> list[float]:
    """Press the arrow keys on a sidebar slider; seconds from each key press to a changed table."""
    page.wait_for_selector(TABLE, state="attached")
    slider = page.locator(f'[data-testid="stSidebar"] input[type="range"][aria-label="{label}"]')
    assert slider.count() == 1, f"no sidebar slider labelled {label!r}"
    times = []
    for i in range(moves):
        before = _table_text(page)
        value_before = slider.get_attribute("aria-valuetext")
        slider.focus()
        t0 = time.perf_counter()
        page.keyboard.press("ArrowRight" if i % 2 == 0 else "ArrowLeft")
        page.wait_for_function(
            """([sel, before]) => {
                const t = document.querySelector(sel);
                return t !== null && t.innerText !== before;
            }""",
            arg=[TABLE, before],
            polling="raf",
            timeout=30_000,
        )
        times.append(time.perf_counter() - t0)
        assert slider.get_attribute("aria-valuetext") != value_before
        wait_idle(page)
        assert_no_exception(page, f"the leaderboard after moving {label!r}")
    return times


def _record(name: str, times: list[float]) -> dict:
    return record_timing(name, times, "slider move -> table update")


def test_every_page_renders_without_exception(browser, sample_app):
    """Every page at 1440 × 900, opened from the navigation; a full-page screenshot of each into
    ``artifacts/screenshots/``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.set_default_timeout(60_000)
    page.goto(sample_app + "/")
    wait_idle(page)
    try:
        for title, stem in PAGES:
            go(page, stem, title)
            page.wait_for_timeout(800)  # charts draw after the run
            assert_no_exception(page, f"page {title!r}")
            main_text = page.locator('[data-testid="stMain"]').inner_text()
            assert "Traceback" not in main_text, f"page {title!r} prints a traceback"
            shot = SHOTS / f"{stem}.png"
            full_screenshot(page, shot)
            assert shot.stat().st_size > 10_000, f"screenshot of {title!r} is suspiciously small"
    finally:
        page.close()


def test_slider_updates_leaderboard_on_sample(browser, sample_app):
    page = open_page(browser, sample_app)
    try:
        page.wait_for_selector('[data-testid="stMain"] h1:has-text("Leaderboard")')
        stats = _record("sample", _measure_slider(page, "Segmentation weight w", moves=6))
        # the 1 s target is reported (artifacts/browser_timings.json, README); this only guards
        # against a slider move that recomputes everything
        assert stats["median_s"] < 10.0, f"slider → table update takes {stats['median_s']:.2f} s on the sample"
    finally:
        page.close()


def test_slider_updates_leaderboard_on_benchmark(browser):
    """The 20-submission benchmark competition (generated once into a temp folder, shared with
    ``python -m benchmarks``), or ``LAB_BENCH_DIR``."""
    from benchmarks.shovel_ready import ensure_data

    bench = os.environ.get("LAB_BENCH_DIR") or str(ensure_data(None))
    with serve(bench, timeout=300) as base:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(300_000)
        try:
            page.goto(base + "/")
            wait_idle(page, timeout=300_000)
            assert_no_exception(page, "the leaderboard on the benchmark")
            stats = _record("benchmark", _measure_slider(page, "Segmentation weight w", moves=6))
            assert stats["median_s"] < 20.0, f"slider → table update takes {stats['median_s']:.2f} s on the benchmark"
        finally:
            page.close()


def test_deep_link_on_a_fresh_server_goes_through_the_app(browser):
    """A shared link is often the first request a freshly started server sees. Streamlit's legacy
    ``pages/`` mode would run that page alone (no sidebar, no parameters); the app must serve
    it through ``app.py`` with the link's parameters applied."""
    with serve() as base:  # a fresh server: nobody has visited "/" yet
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)
        try:
            page.goto(base + "/demographics?w=0.3&alpha=80&attributes=gender")
            wait_idle(page)
            page.wait_for_selector('[data-testid="stMain"] h1:has-text("Demographics")')
            assert_no_exception(page, "the deep-linked Demographics page")
            sidebar = page.locator('[data-testid="stSidebar"]')
            assert "Shovel-Ready metric parameters" in sidebar.inner_text(), "the page ran without app.py's sidebar"
            w = sidebar.locator('input[type="range"][aria-label="Segmentation weight w"]')
            assert w.get_attribute("aria-valuetext") == "0.30"
            alpha = sidebar.locator('input[type="range"][aria-label="Softmin temperature α"]')
            assert alpha.get_attribute("aria-valuetext") == "80.00"
            chips = sidebar.locator('[data-testid="stMultiSelect"]').inner_text()
            assert "gender" in chips and "ell_status" not in chips  # the link's attribute, not the default
            assert "w=0.3" in page.url and "alpha=80" in page.url
        finally:
            page.close()

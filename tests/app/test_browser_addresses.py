"""Issue 23 in a real Chromium: the parameters on the first screen, every page at its address,
one run per rerun (``tests/browser.py``: skipped locally without Chromium, failing under ``CI=true``).

* The sidebar's first parameter control is wholly on the first screen of every family's first
  page at 1440 × 900 and 1024 × 768 — a slider on the landing page (the first slider used to
  start about 1,060 px down, below the navigation's 21 links).
* Every page's address opens that page, with no "Page not found" dialog (``/leaderboard``, the
  default page's own address, used to open one).
* A fresh server's first request — a deep link, which Streamlit's legacy ``pages/`` mode runs
  alone — is one script run; so are a slider move and a page change after it (each run starts
  with a ``new_session`` message on the page's websocket: ``tests.browser.RunCounter``).
"""

from __future__ import annotations

import pytest

from lab.families import ROBUSTNESS_PAGES, SHARED_PAGES, ui
from lab.view import nav
from scoring import registry
from tests.browser import (
    NAV,
    RunCounter,
    assert_no_exception,
    first_control,
    go,
    serve,
    wait_idle,
)

pytestmark = pytest.mark.browser

SIZES = [(1440, 900), (1024, 768)]
#: every page's address
ADDRESSES = [p.url_path for fam in registry.families() for p in ui(fam).pages] + \
    [p.url_path for p in (*ROBUSTNESS_PAGES, *SHARED_PAGES)]
#: each family's first page (where its section opens)
FIRST_PAGES = [ui(fam).pages[0].url_path for fam in registry.families() if ui(fam).pages]


def _open(browser, url: str, size: tuple[int, int] = (1440, 900), counter: bool = False):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.set_default_timeout(90_000)
    runs = RunCounter(page) if counter else None
    page.goto(url)
    wait_idle(page, timeout=90_000)
    return page, runs


def _dialog(page) -> str:
    dialogs = page.locator('[role="dialog"]')
    return dialogs.first.inner_text() if dialogs.count() else ""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_parameters_are_on_the_first_screen(browser, app_url, size):
    page, _ = _open(browser, app_url + "/", size)
    try:
        slider = first_control(page, "stSlider")
        assert slider["inView"], f"the landing page's first slider is not on the first screen at {size}: {slider}"
        assert "Leaderboard Lab" in page.locator('[data-testid="stMain"]').inner_text()  # it says what it is
        sidebar = page.locator('[data-testid="stSidebar"]')
        assert sidebar.locator('a', has_text="About these numbers").count() == 1
        assert page.locator(NAV).is_visible() and sidebar.is_visible()
    finally:
        page.close()
    for stem in FIRST_PAGES[1:]:
        page, _ = _open(browser, f"{app_url}/{stem}", size)
        try:
            assert_no_exception(page, stem)
            control = first_control(page)
            assert control["controls"] and control["inView"], f"{stem} at {size}: {control}"
        finally:
            page.close()


def test_every_page_answers_at_its_address_without_a_dialog(browser, app_url):
    for stem in ADDRESSES:
        page, _ = _open(browser, f"{app_url}/{stem}")
        try:
            page.wait_for_selector('[data-testid="stMain"] h1')
            assert _dialog(page) == "", f"/{stem} opens a dialog: {_dialog(page)!r}"
            assert_no_exception(page, f"/{stem}")
            main = page.locator('[data-testid="stMain"]').inner_text()
            assert "There is no page" not in main, f"/{stem} is taken for an unknown page"
            if stem == nav.default_path():
                assert page.url.split("?")[0].endswith("/leaderboard")  # the address stays as given
        finally:
            page.close()


def test_a_fresh_servers_first_request_and_every_move_after_it_are_one_run_each(browser):
    with serve() as base:  # fresh: Streamlit's legacy pages/ mode is still on
        page, runs = _open(browser, base + "/demographics?alpha=80", counter=True)
        try:
            assert page.locator('[data-testid="stMain"] h1').count() == 1
            assert runs.take() == 1, "the first request of a fresh server ran the script more than once"
            alpha = page.locator('[data-testid="stSidebar"] input[type="range"][aria-label="Softmin temperature α"]')
            assert alpha.get_attribute("aria-valuetext") == "80.00"  # the link's value, through app.py
            alpha.focus()
            page.keyboard.press("ArrowRight")
            page.wait_for_function("() => document.location.search.includes('alpha=81')")
            wait_idle(page)
            page.wait_for_timeout(500)
            assert runs.take() == 1, "a slider move ran the script more than once"
            go(page, "efficiency", "Efficiency")
            page.wait_for_timeout(500)
            assert runs.take() == 1, "a page change ran the script more than once"
            assert page.locator('[data-testid="stMain"] h1').count() == 1
        finally:
            page.close()

"""Real-browser test: `streamlit run app.py` driven by Playwright and Debian's Chromium.

Visits every page, checks that none shows an exception, saves a screenshot of each into
``artifacts/screenshots/`` (``LAB_UPDATE_SCREENSHOT=1`` also refreshes ``docs/screenshot.png``), moves a
sidebar slider and measures the time until the leaderboard table shows new numbers.

The same is measured on the 20-submission benchmark competition (generated once into a temp
folder; ``LAB_BENCH_DIR`` overrides it). The timings are printed and written to
``artifacts/browser_timings.json``; the asserted bounds only catch a slider that recomputes
everything (speed targets are reported, not asserted). Without Chromium or Playwright the tests skip locally and fail when ``CI=true``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("LAB_CHROMIUM", "/usr/bin/chromium")
SHOTS = ROOT / "artifacts" / "screenshots"
TIMINGS = ROOT / "artifacts" / "browser_timings.json"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# (title in the navigation, file stem for the screenshot)
PAGES = [
    ("Leaderboard", "leaderboard"),
    ("Demographics", "demographics"),
    ("Efficiency", "efficiency"),
    ("Segments", "segments"),
    ("Worked examples", "worked_examples"),
    ("Data", "data"),
]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
TABLE = '[data-testid="stMain"] [data-testid="stDataFrame"] table'


def _cannot_run(reason: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser test cannot run in CI: {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(data_dir: str | None = None, timeout: float = 90.0):
    """Start `streamlit run app.py` on a free port; yield its base URL; stop it afterwards."""
    port = _free_port()
    env = dict(os.environ)
    env.pop("LAB_DATA_DIR", None)
    if data_dir:
        env["LAB_DATA_DIR"] = data_dir
    (ROOT / "artifacts").mkdir(exist_ok=True)
    log = open(ROOT / "artifacts" / f"streamlit-{port}.log", "wb")
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "streamlit", "run", "app.py",
            "--server.headless", "true",
            "--server.port", str(port),
            "--server.address", "127.0.0.1",
            "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none",
        ],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with {proc.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not become healthy in {timeout:.0f} s")
            time.sleep(0.25)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _cannot_run("playwright is not installed")
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        _cannot_run(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)")
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    except Exception as err:  # a broken Chromium install
        pw.stop()
        _cannot_run(f"Chromium does not start: {err}")
    yield b
    b.close()
    pw.stop()


@pytest.fixture(scope="module")
def sample_app():
    with serve() as base:
        yield base


def _open(browser, base: str):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    page.goto(base + "/")
    _wait_idle(page)
    return page


def _wait_idle(page, timeout: float = 60_000) -> None:
    """Wait until the script has finished its run (and the page has had a frame to draw)."""
    page.wait_for_selector(IDLE, timeout=timeout)
    page.wait_for_selector('[data-testid="stMain"] h1', timeout=timeout)
    page.wait_for_timeout(300)
    page.wait_for_selector(IDLE, timeout=timeout)


def _assert_no_exception(page, where: str) -> None:
    errors = page.locator('[data-testid="stException"]')
    assert errors.count() == 0, f"{where} shows an exception: {errors.first.inner_text()[:800]}"


def _full_screenshot(page, path: Path) -> None:
    """Screenshot of the whole page: Streamlit scrolls inside its main block, not the window,
    so the viewport is stretched to the content's height for the picture."""
    size = page.viewport_size
    height = page.evaluate(
        """() => Math.max(...['[data-testid="stMain"]', '[data-testid="stMainBlockContainer"]']
            .map(s => document.querySelector(s)).filter(Boolean).map(e => e.scrollHeight))"""
    )
    page.set_viewport_size({"width": size["width"], "height": int(min(max(height + 80, size["height"]), 12_000))})
    page.wait_for_timeout(600)
    page.screenshot(path=str(path))
    page.set_viewport_size(size)


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
        _wait_idle(page)
        _assert_no_exception(page, f"the leaderboard after moving {label!r}")
    return times


def _record(name: str, times: list[float]) -> dict:
    stats = {"moves": len(times), "median_s": statistics.median(times), "max_s": max(times), "all_s": times}
    data = {}
    if TIMINGS.is_file():
        with contextlib.suppress(ValueError):
            data = json.loads(TIMINGS.read_text())
    data[name] = stats
    TIMINGS.parent.mkdir(parents=True, exist_ok=True)
    TIMINGS.write_text(json.dumps(data, indent=2))
    print(f"\n[browser] {name}: slider move -> table update: median {stats['median_s']:.3f} s, "
          f"max {stats['max_s']:.3f} s over {len(times)} moves")  # fmt: skip
    return stats


def test_every_page_renders_without_exception(browser, sample_app):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = _open(browser, sample_app)
    try:
        for title, stem in PAGES:
            page.locator('[data-testid="stSidebarNav"] a', has_text=title).first.click()
            page.wait_for_selector(f'[data-testid="stMain"] h1:has-text("{title}")')
            _wait_idle(page)
            _assert_no_exception(page, f"page {title!r}")
            main_text = page.locator('[data-testid="stMain"]').inner_text()
            assert "Traceback" not in main_text, f"page {title!r} prints a traceback"
            if stem == "leaderboard":  # the README's picture (the first screenful), on request
                page.screenshot(path=str(SHOTS / "leaderboard_top.png"))
                if os.environ.get("LAB_UPDATE_SCREENSHOT"):
                    shutil.copyfile(SHOTS / "leaderboard_top.png", ROOT / "docs" / "screenshot.png")
            shot = SHOTS / f"{stem}.png"
            _full_screenshot(page, shot)
            assert shot.stat().st_size > 10_000, f"screenshot of {title!r} is suspiciously small"
    finally:
        page.close()


def test_slider_updates_leaderboard_on_sample(browser, sample_app):
    page = _open(browser, sample_app)
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
            _wait_idle(page, timeout=300_000)
            _assert_no_exception(page, "the leaderboard on the benchmark")
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
            _wait_idle(page)
            page.wait_for_selector('[data-testid="stMain"] h1:has-text("Demographics")')
            _assert_no_exception(page, "the deep-linked Demographics page")
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

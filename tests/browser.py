"""Real-browser plumbing shared by the browser tests: start ``streamlit run app.py`` on a free
port, drive Debian's Chromium through Playwright, wait for a run to finish.

Without Chromium or Playwright a browser test skips locally and fails when ``CI=true``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks._load_server import free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[1]
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
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
#: the navigation, at the top of the page (``lab/view/nav.py``): a section per family, each a menu
NAV = '[data-testid="stTopNav"]'
TABLE = '[data-testid="stMain"] [data-testid="stDataFrame"] table'


def cannot_run(reason: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser test cannot run in CI: {reason}")
    pytest.skip(reason)


@contextlib.contextmanager
def serve(data_dir: str | None = None, timeout: float = 90.0, env_extra: dict | None = None):
    """Start `streamlit run app.py` on a free port; yield its base URL; stop it afterwards."""
    port = free_port()
    env = dict(os.environ)
    env.pop("LAB_DATA_DIR", None)
    if data_dir:
        env["LAB_DATA_DIR"] = data_dir
    env.update(env_extra or {})
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
        wait_healthy(proc, base, timeout, log.name)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def launch_browser():
    """Yield a headless Chromium (a generator for a fixture)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        cannot_run("playwright is not installed")
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        cannot_run(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)")
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    except Exception as err:  # a broken Chromium install
        pw.stop()
        cannot_run(f"Chromium does not start: {err}")
    yield b
    b.close()
    pw.stop()


def open_page(browser, base: str):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)
    page.goto(base + "/")
    wait_idle(page)
    return page


def wait_idle(page, timeout: float = 60_000) -> None:
    """Wait until the script has finished its run (and the page has had a frame to draw)."""
    page.wait_for_selector(IDLE, timeout=timeout)
    page.wait_for_selector('[data-testid="stMain"] h1', timeout=timeout)
    page.wait_for_timeout(300)
    page.wait_for_selector(IDLE, timeout=timeout)


def nav_section(stem: str) -> str | None:
    """The top navigation's section that lists the page at address ``stem`` (None: a link of its
    own, the Data page)."""
    from lab.families import ROBUSTNESS_PAGES, ui
    from lab.view import nav
    from scoring import registry

    for fam in registry.families():
        if any(p.url_path == stem for p in ui(fam).pages):
            return nav.section_label(fam)
    if any(p.url_path == stem for p in ROBUSTNESS_PAGES):
        return nav.ROBUSTNESS_SECTION
    return None


def go(page, stem: str, title: str | None = None) -> None:
    """Open the page at address ``stem`` (``"leaderboard"``, ``"qa_speed"``, ``"data"``) from the
    navigation at the top, in the same session, as a visitor does — its section's menu, then the
    page — and wait for its run (and for its title, when given). The one place the browser tests
    know how the navigation is drawn."""
    from lab.view import nav

    href = "/" if stem == nav.default_path() else f"/{stem}"
    section = nav_section(stem)
    if section is None:
        link = page.locator(f'{NAV} a[href$="{href}"]')
    else:
        page.locator(f'{NAV} [data-testid="stTopNavSection"]', has_text=section).first.click()
        link = page.locator(f'[data-testid="stTopNavDropdownLink"][href$="{href}"]')
    link.first.click()
    if title:
        page.wait_for_selector(f'[data-testid="stMain"] h1:has-text("{title}")')
    wait_idle(page)


class RunCounter:
    """Counts the script runs the server starts for a browser page: each run begins with a
    ``new_session`` message on the page's websocket. Create it before the page's first ``goto``."""

    def __init__(self, page):
        self.runs = 0
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        if isinstance(payload, (bytes, bytearray)):
            msg = ForwardMsg()
            msg.ParseFromString(bytes(payload))
            if msg.WhichOneof("type") == "new_session":
                self.runs += 1

    def take(self) -> int:
        """The runs since the last call."""
        n, self.runs = self.runs, 0
        return n


_FIRST_CONTROL = """(only) => {
    const kinds = only || ['stSlider', 'stSelectbox', 'stMultiSelect', 'stCheckbox', 'stNumberInput', 'stTextInput'];
    const sel = kinds.map(k => `[data-testid="stSidebar"] [data-testid="${k}"]`).join(', ');
    const all = [...document.querySelectorAll(sel)];
    if (!all.length) return {controls: 0, first: null, inView: false};
    const r = all[0].getBoundingClientRect();
    return {controls: all.length, first: all[0].getAttribute('data-testid'), top: Math.round(r.top),
            inView: r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth};
}"""


def first_control(page, kind: str | None = None) -> dict:
    """The sidebar's first control (of ``kind``, e.g. ``"stSlider"``; default any: slider, select
    box, multiselect, toggle, number or text box): ``{"controls": how many, "first": its kind,
    "top": its top in px, "inView": wholly inside the window}``. Waits up to 30 s for one to be drawn."""
    arg = [kind] if kind else None
    try:
        page.wait_for_function(f"(only) => ({_FIRST_CONTROL})(only).controls > 0", arg=arg, timeout=30_000)
    except Exception:  # none drawn: the answer says so
        pass
    return page.evaluate(_FIRST_CONTROL, arg)


def assert_no_exception(page, where: str) -> None:
    errors = page.locator('[data-testid="stException"]')
    assert errors.count() == 0, f"{where} shows an exception: {errors.first.inner_text()[:800]}"


def full_screenshot(page, path: Path) -> None:
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


def record_timing(name: str, times: list[float], what: str) -> dict:
    """Add ``name``'s timings (seconds) to ``artifacts/browser_timings.json`` and print them."""
    import contextlib
    import json
    import statistics

    stats = {"what": what, "runs": len(times), "median_s": statistics.median(times), "max_s": max(times),
             "all_s": times}
    data = {}
    if TIMINGS.is_file():
        with contextlib.suppress(ValueError):
            data = json.loads(TIMINGS.read_text())
    data[name] = stats
    TIMINGS.parent.mkdir(parents=True, exist_ok=True)
    TIMINGS.write_text(json.dumps(data, indent=2))
    print(f"\n[browser] {name}: {what}: median {stats['median_s']:.3f} s, max {stats['max_s']:.3f} s "
          f"over {len(times)} runs")
    return stats


#: every table's columns as the browser draws them: the grid (virtualised) lists only the columns in
#: view, so a column listed, and not the last of a grid that has more, is wholly in view
_COLUMNS = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]')].map(g => {
    const t = g.querySelector('table');
    const heads = t ? [...t.querySelectorAll('thead th, [role=columnheader]')].map(x => x.textContent.trim()) : [];
    return {total: t ? Number(t.getAttribute('aria-colcount')) : 0, heads}; })"""

#: labels cut with an ellipsis: metric labels and buttons whose text is wider than their box
_CUT = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stMetricLabel"] p, '
    + '[data-testid="stMain"] button p')].filter(p => p.offsetParent && p.scrollWidth > p.clientWidth + 1)
    .map(p => p.innerText.trim())"""


def columns_in_view(page) -> list[str]:
    """The columns of every table on the page that are wholly in view (each table scrolled into
    view first: a grid draws its columns once it is near the window)."""
    grids = page.locator('[data-testid="stMain"] [data-testid="stDataFrame"]')
    for i in range(grids.count()):
        grids.nth(i).scroll_into_view_if_needed()
        page.wait_for_timeout(700)
    seen = []
    for g in page.evaluate(_COLUMNS):
        heads = g["heads"]
        whole = heads if len(heads) >= g["total"] else heads[:-1]  # the last one listed may be cut
        seen += whole
    page.evaluate("""() => { window.scrollTo(0, 0);
        const m = document.querySelector('[data-testid="stMain"]'); if (m) m.scrollTo(0, 0); }""")
    return seen


def cut_labels(page) -> list[str]:
    """Metric and button labels shown cut (with an ellipsis) on the page."""
    return page.evaluate(_CUT)

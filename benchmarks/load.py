"""Many people in one demo — measured: ``python -m benchmarks load [--sessions N] [--seconds T]``.

Starts the app (``streamlit run app.py`` of ``--root``, default this checkout) on a free
loopback port, then drives N headless Chromium sessions at once (Playwright, ``/usr/bin/chromium``
or ``LAB_CHROMIUM``; one browser context each, i.e. N new visitors) for T seconds: each opens the
first page, then goes round the families' leaderboards (Shovel-Ready, spotGEO, QA, difficulty)
by the navigation's links, moving each family's slider a few steps (a seeded random walk, so
the values differ between sessions and the same run can be repeated on another checkout).
Prints the move latency (key press -> the table's text changed; a move that changes no cell
counts until its run ends), median and p90, each session's first-page time (navigation start ->
first table), and the server's memory (its process tree's RSS) over time.

``--targets`` adds the timings of issue 23, one session at a time: slider -> updated table per
family, every page done after a click in the navigation (the run finished), and a new visitor's
first table against a bare one-table Streamlit page, timed alternately in the same run.

Nothing leaves the machine: both servers listen on 127.0.0.1 only; N and T are bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path

from ._load_server import Server

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("LAB_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
TABLE = '[data-testid="stMain"] [data-testid="stDataFrame"] table'
MAX_SESSIONS, MAX_SECONDS = 20, 600
#: (family, page address, slider label, steps of one move): each family's leaderboard and a slider
#: that changes its table
FAMILIES = (
    ("shovel-ready", "", "Segmentation weight w"),
    ("spotgeo", "spotgeo_leaderboard", "Border radius τ (px)"),
    ("qa", "qa_leaderboard", "Time threshold (ms)"),
    ("difficulty", "difficulty_leaderboard", "Reward d"),
)
MOVES_PER_PAGE = 3
#: counts the runs that ended (the app's script state leaving "running": every record, so a run that starts
#: and ends between two callbacks of the observer is counted too), for moves that change no cell
RUN_COUNTER = """
window.__runs = 0;
new MutationObserver((records) => {
  for (const r of records) { if (r.oldValue === 'running') window.__runs += 1; }
}).observe(document, {subtree: true, attributes: true, attributeOldValue: true,
                      attributeFilter: ['data-test-script-state']});
"""
BARE_APP = """import pandas as pd
import streamlit as st
st.title("One table")
st.dataframe(pd.DataFrame({"team": list("abcdefghi"), "score": [i / 10 for i in range(9)]}))
"""


# ---- one session --------------------------------------------------------------------------------------
async def wait_idle(page, timeout: float = 120_000) -> None:
    await page.wait_for_selector(IDLE, timeout=timeout)
    await page.wait_for_selector('[data-testid="stMain"] h1', timeout=timeout)


async def table_text(page) -> str:
    return await page.evaluate(f"() => {{ const t = document.querySelector('{TABLE}'); return t ? t.innerText : ''; }}")


def nav_pages() -> list[tuple[str, str | None]]:
    """Every page of the app's navigation as (address, its section at the top or None for a
    link of its own), in the navigation's order (the default page's address is "")."""
    from lab.families import ROBUSTNESS_PAGES, SHARED_PAGES, ui
    from lab.view import nav
    from scoring import registry

    default = nav.default_path()
    out: list[tuple[str, str | None]] = [(p.url_path, None) for p in SHARED_PAGES]
    for fam in registry.families():
        out += [("" if p.url_path == default else p.url_path, nav.section_label(fam)) for p in ui(fam).pages]
    out += [(p.url_path, nav.ROBUSTNESS_SECTION) for p in ROBUSTNESS_PAGES]
    return out


def section_of(path: str) -> str | None:
    return dict(nav_pages()).get(path)


async def go(page, base: str, path: str) -> tuple[bool, float]:
    """To ``path`` by the navigation at the top (its section's menu, then the page's link; the
    same session), else by the address (a new session); returns once the page's run has ended (a
    link that reloads the whole page is followed too: the run counter then starts again in the
    new document), with the time of the click on the page's link (``time.perf_counter``). False
    when no run's end was seen within 5 s of the click (a long run, or a run whose end the counter
    missed): then it returns once the address is the page's and the app is idle."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    section = section_of(path)
    if section is None:
        link = page.locator(f'[data-testid="stTopNav"] a[href="{base}/{path}"]').first
    else:
        menu = page.locator('[data-testid="stTopNav"] [data-testid="stTopNavSection"]', has_text=section).first
        if await menu.count():
            await menu.click()
        link = page.locator(f'[data-testid="stTopNavDropdownLink"][href="{base}/{path}"]').first
    runs, title = await page.evaluate("""() => { window.__before_click = true;
        const h = document.querySelector('[data-testid="stMain"] h1');
        return [window.__runs, h ? h.innerText : null]; }""")
    seen = True
    if await link.count() and await link.is_visible():
        t0 = time.perf_counter()
        await link.click()
        try:
            # a run's end counted, or (a quick run whose "running" state the browser never drew) the page's
            # address, another title than the previous page's, and the app idle
            await page.wait_for_function(
                """([n, title, path, idle]) => {
                     if (window.__before_click === undefined ? window.__runs >= 1 : window.__runs > n) return true;
                     const h = document.querySelector('[data-testid="stMain"] h1');
                     return location.pathname.replace(/^\\//, '') === path && h !== null && h.innerText !== title
                            && document.querySelector(idle) !== null; }""",
                arg=[runs, title, path, IDLE], timeout=5_000)
        except PlaywrightTimeout:
            seen = False
            await page.wait_for_function("(p) => location.pathname.replace(/^\\//, '') === p", arg=path)
    else:
        t0 = time.perf_counter()
        await page.goto(f"{base}/{path}")
    await wait_idle(page)
    return seen, t0


async def move(page, label: str, rng: random.Random) -> float | None:
    """One arrow-key step of the slider ``label`` (a random direction, turned back at its ends);
    seconds until the table changed or, if it did not, until the run ended. None: no such slider."""
    slider = page.locator(f'input[type="range"][aria-label="{label}"]').first
    if not await slider.count():
        return None
    now, low, high = [float(await slider.get_attribute(a) or 0) for a in
                      ("aria-valuenow", "aria-valuemin", "aria-valuemax")]
    key = "ArrowRight" if (rng.random() < 0.5 or now <= low) and now < high else "ArrowLeft"
    before = await table_text(page)
    runs = await page.evaluate("() => window.__runs")
    await slider.focus()
    t0 = time.perf_counter()
    await page.keyboard.press(key)
    await page.wait_for_function(
        """([sel, before, runs]) => { const t = document.querySelector(sel);
             return (t !== null && t.innerText !== before) || window.__runs > runs; }""",
        arg=[TABLE, before, runs], polling="raf", timeout=120_000)
    took = time.perf_counter() - t0
    await wait_idle(page)
    return took


async def session(browser, base: str, index: int, until: float, out: dict) -> None:
    ctx = await browser.new_context(viewport={"width": 1440, "height": 900})
    page = await ctx.new_page()
    page.set_default_timeout(120_000)
    await page.add_init_script(RUN_COUNTER)
    rng = random.Random(index)
    try:
        t0 = time.perf_counter()
        await page.goto(base + "/")
        await page.wait_for_selector(TABLE, state="attached", timeout=180_000)
        out["first"].append(time.perf_counter() - t0)
        out["first_dom"].append(await page.evaluate(
            "() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd / 1000"))
        await wait_idle(page)
        k = index % len(FAMILIES)  # sessions start on different families
        while time.monotonic() < until:
            _, path, label = FAMILIES[k % len(FAMILIES)]
            if k != index % len(FAMILIES) or path:
                await go(page, base, path)
            for _ in range(MOVES_PER_PAGE):
                if time.monotonic() >= until:
                    break
                took = await move(page, label, rng)
                if took is not None:
                    out["moves"].append(took)
            k += 1
    except Exception as err:  # noqa: BLE001 - a session's failure is counted and named, the others go on
        where = [f"{f.name}:{f.lineno}" for f in traceback.extract_tb(err.__traceback__) if f.filename == __file__]
        out["errors"].append(f"session {index} ({' > '.join(where)}): {type(err).__name__}: "
                             f"{str(err).splitlines()[0][:160]}")
    finally:
        await ctx.close()


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and its children (the
    server's own workers, if any)."""
    import psutil

    total = 0.0
    root = psutil.Process(pid)
    for p in [root, *root.children(recursive=True)]:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


def q(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p * (len(s) - 1))))] if s else float("nan")


async def run_load(base: str, sessions: int, seconds: float, probe=lambda: None) -> dict:
    from playwright.async_api import async_playwright

    out: dict = {"first": [], "first_dom": [], "moves": [], "errors": []}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        # the server's first visitor loads each family's default data (once per server): not timed as a session
        ctx = await browser.new_context()
        page = await ctx.new_page()
        page.set_default_timeout(300_000)
        await page.add_init_script(RUN_COUNTER)
        t0 = time.perf_counter()
        await page.goto(base + "/")
        await page.wait_for_selector(TABLE, state="attached", timeout=300_000)
        out["cold"] = time.perf_counter() - t0
        await wait_idle(page, timeout=300_000)
        for _, path, _ in FAMILIES[1:]:
            await go(page, base, path)
        await ctx.close()
        out["since"], out["cpu0"] = time.time(), probe()
        until, out["t_open"] = time.monotonic() + seconds, time.time()
        await asyncio.gather(*(session(browser, base, i, until, out) for i in range(sessions)))
        await browser.close()
    return out


# ---- issue 23's timings, one session ------------------------------------------------------------------
async def first_table(browser, server: Server) -> tuple[float, float, float, float]:
    """A new visitor (a new browser context) on ``server``'s first page: seconds from navigation
    start to the first table, to DOMContentLoaded (the page's HTML and scripts), to the start of
    the server's script run, and that run's length."""
    c = await browser.new_context(viewport={"width": 1440, "height": 900})
    p = await c.new_page()
    wall, t0 = time.time(), time.perf_counter()
    await p.goto(server.base + "/")
    await p.wait_for_selector(TABLE, state="attached", timeout=120_000)
    took = time.perf_counter() - t0
    dom = await p.evaluate("() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd / 1000")
    await p.wait_for_selector(IDLE, timeout=120_000)
    await c.close()
    runs = sorted(r for r in server.runs() if r[1] >= wall)
    start, length = (runs[0][1] - wall, runs[0][2] - runs[0][1]) if runs else (float("nan"), float("nan"))
    return took, dom, start, length


async def run_targets(server: Server, bare_server: Server, repeats: int) -> None:
    base = server.base
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        ctx = await browser.new_context(viewport={"width": 1440, "height": 900})
        page = await ctx.new_page()
        page.set_default_timeout(120_000)
        await page.add_init_script(RUN_COUNTER)
        await page.goto(base + "/")
        await wait_idle(page)
        rng = random.Random(0)
        print("slider -> updated table, one session (target: median <= 0.4 s for every family):")
        for fam, path, label in FAMILIES:
            await go(page, base, path)
            times = [t for t in [await move(page, label, rng) for _ in range(repeats)] if t is not None]
            if times:
                print(f"  {fam:<13} median {statistics.median(times):.2f} s  max {max(times):.2f} s  "
                      f"({len(times)} moves)  {'ok' if statistics.median(times) <= 0.4 else 'MISSED'}")
        print("page done after a click in the navigation (target: <= 2 s):")
        print("  (then: the server's script runs that started after the click, their summed length, and the server's CPU "
              "seconds meanwhile — the figures least moved by a busy machine)")
        for path, _section in nav_pages():
            wall, cpu = time.time(), cpu_seconds(server.proc.pid)
            seen, t0 = await go(page, base, path)
            took = time.perf_counter() - t0
            cpu = cpu_seconds(server.proc.pid) - cpu
            runs = [end - start for _, start, end in server.runs() if start >= wall]
            print(f"  /{path:<24} {took:5.2f} s  {'ok    ' if took <= 2 else 'MISSED'}  server: {len(runs)} run(s) "
                  f"{sum(runs):.2f} s, CPU {cpu:.2f} s"
                  + ("" if seen else "  (its run lasted over 5 s, or its end was not seen: timed to the app idle)"))
        await ctx.close()
        print("a new visitor's first table on a warm server, alternately with a bare one-table page "
              "(target: <= 1.35x the bare page + 0.3 s):")
        got: dict[str, list] = {"app": [], "bare": []}
        for _ in range(repeats):
            for name, srv in (("app", server), ("bare", bare_server)):
                got[name].append(await first_table(browser, srv))
        mo, mb = (statistics.median(t[0] for t in got[k]) for k in ("app", "bare"))
        for name, rows in got.items():
            print(f"  {name:<4} median {statistics.median(t[0] for t in rows):.2f} s (runs "
                  f"{', '.join(f'{t[0]:.2f}' for t in rows)}); of which, medians: page and scripts loaded "
                  f"(DOMContentLoaded) {statistics.median(t[1] for t in rows):.2f} s, server run started at "
                  f"{statistics.median(t[2] for t in rows):.2f} s and took {statistics.median(t[3] for t in rows):.2f} s")
        print(f"  allowed {1.35 * mb + 0.3:.2f} s  {'ok' if mo <= 1.35 * mb + 0.3 else 'MISSED'}")
        await browser.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks load", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=10, help=f"browser sessions at once (1-{MAX_SESSIONS})")
    ap.add_argument("--seconds", type=float, default=60.0, help=f"how long they move sliders (1-{MAX_SECONDS})")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose app.py is served (default: this one)")
    ap.add_argument("--targets", action="store_true", help="also time issue 23's targets, one session at a time")
    ap.add_argument("--repeats", type=int, default=5, help="moves per family and first-table pairs for --targets")
    a = ap.parse_args(argv)
    if not (1 <= a.sessions <= MAX_SESSIONS and 1 <= a.seconds <= MAX_SECONDS and 1 <= a.repeats <= 50):
        ap.error(f"--sessions 1-{MAX_SESSIONS}, --seconds 1-{MAX_SECONDS}, --repeats 1-50")
    if not Path(CHROMIUM).exists():
        print(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium, or LAB_CHROMIUM)", file=sys.stderr)
        return 2
    server = Server(a.root.resolve(), log=Path(tempfile.gettempdir()) / f"load-bench-{os.getpid()}.log")
    bare = None
    try:
        t0 = time.monotonic()
        server.wait_healthy()
        print(f"server {server.base} ({a.root.resolve()}), healthy after {time.monotonic() - t0:.1f} s; "
              f"load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores")
        def probe() -> tuple[float, float]:
            return cpu_seconds(server.proc.pid), time.monotonic()

        out = asyncio.run(run_load(server.base, a.sessions, a.seconds, probe))
        cpu0 = out["cpu0"]
        cpu1 = probe()
        moves, first = out["moves"], out["first"]
        print(f"{a.sessions} sessions x {a.seconds:.0f} s: {len(moves)} moves, {len(out['errors'])} errors")
        for e in out["errors"][:10]:
            print("  " + e)
        if moves:
            print(f"  move latency: median {statistics.median(moves):.2f} s (target <= 1.0), "
                  f"p90 {q(moves, 0.9):.2f} s (<= 2.5), max {max(moves):.2f} s")
        print(f"  (the server's first visitor, before the sessions: first table after {out['cold']:.1f} s; it then "
              "opened every family's leaderboard, so the sessions find each family's data loaded)")
        if first:
            print(f"  first page per session: {', '.join(f'{t:.1f}' for t in sorted(first))} s (target <= 6); "
                  f"the page's HTML and scripts loaded (DOMContentLoaded) after "
                  f"{', '.join(f'{t:.1f}' for t in sorted(out['first_dom']))} s")
        runs = server.runs()
        lengths = [end - start for _, start, end in runs if start >= out["since"]]
        seen_before = {sid for sid, start, _ in runs if start < out["since"]}
        firsts: dict[str, tuple[float, float]] = {}
        for sid, start, end in sorted(runs, key=lambda r: r[1]):
            if sid not in seen_before and sid not in firsts:
                firsts[sid] = (start - out["t_open"], end - out["t_open"])
        if firsts:
            print("  each new session's first script run on the server, from the moment the sessions opened: "
                  + ", ".join(f"{a:.1f}-{b:.1f} s" for a, b in sorted(firsts.values())))
        if lengths:
            print(f"  server script runs: {len(lengths)}, median {statistics.median(lengths):.2f} s, "
                  f"p90 {q(lengths, 0.9):.2f} s (a run's own length on the server, queueing behind others included)")
        wall = cpu1[1] - cpu0[1]
        server_cpu = cpu1[0] - cpu0[0]
        print(f"  server CPU while the sessions ran ({wall:.0f} s wall): {server_cpu:.1f} s"
              + (f" ({server_cpu / len(lengths):.2f} s per script run, the figure least moved by a busy machine)"
                 if lengths else ""))
        rss = server.rss
        if rss:
            step = max(1, len(rss) // 12)
            print("  server RSS (process tree), MiB over time: "
                  + ", ".join(f"{t:.0f}s {m:.0f}" for t, m in rss[::step]) + f"; last {rss[-1][1]:.0f}")
        if a.targets:
            with tempfile.TemporaryDirectory() as tmp:
                (Path(tmp) / "bare.py").write_text(BARE_APP)
                bare = Server(Path(tmp), "bare.py")
                bare.wait_healthy()
                asyncio.run(run_targets(server, bare, a.repeats))
        print(f"load average at the end {os.getloadavg()[0]:.1f}")
    finally:
        server.stop()
        if bare is not None:
            bare.stop()
    return 0

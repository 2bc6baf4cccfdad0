"""How long a leaderboard page takes to render in a real browser — Custom against Shovel-Ready,
measured in one run: ``python -m benchmarks page-render [--repeats N] [--custom PATH]``.

Starts the app (``streamlit run app.py`` of ``--root``) on a free loopback port and opens, in a
new browser context each time (a new visitor on a warm server), the Shovel-Ready leaderboard
(``/``) and the Custom leaderboard (``/custom_leaderboard``) alternately, ``--repeats`` times each.
A page counts as rendered when the script's run has ended and every element of the main area is
drawn: no skeleton left, every data frame's grid drawn, every Vega-Lite chart's canvas or SVG and
every Plotly chart's SVG in place. Prints each page's median and every run, the time at which
each kind of element was first complete (where the browser's time goes), the server's script run
(start and length), and the ratio Custom / Shovel-Ready (target: <= 1.5).

Nothing leaves the machine: the server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from ._load_server import Server

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("LAB_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
TARGET = 1.5
#: the page's state, polled: which kinds of element are complete, and whether everything is
STATE = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main) return {done: false};
  const idle = !!document.querySelector('[data-testid="stApp"][data-test-script-state="notRunning"]');
  const all = (sel, ok) => { const els = [...main.querySelectorAll(sel)]; return [els.length, els.every(ok)]; };
  const grid = e => !!e.querySelector('canvas') && !!e.querySelector('table');
  const [nt, tables] = all('[data-testid="stDataFrame"]', grid);
  const table1 = nt > 0 && grid(main.querySelector('[data-testid="stDataFrame"]'));
  const [nv, vega] = all('[data-testid="stVegaLiteChart"]', e => !!e.querySelector('canvas, svg.marks'));
  const [np, plotly] = all('[data-testid="stPlotlyChart"]', e => !!e.querySelector('.main-svg'));
  const skeletons = main.querySelectorAll('[data-testid="stSkeleton"]').length;
  const title = !!main.querySelector('h1');
  return {title, idle, nt, table1, tables: nt > 0 && tables, nv, vega: nv > 0 && vega, np, plotly: np > 0 && plotly,
          skeletons, done: title && idle && nt > 0 && tables && (nv === 0 || vega) && (np === 0 || plotly)
                           && skeletons === 0};
}"""
MARKS = ("title", "idle", "table1", "tables", "vega", "plotly")


async def one(browser, server: Server, path: str) -> dict:
    """A new visitor opens ``path``: seconds to each kind of element complete and to the whole page."""
    ctx = await browser.new_context(viewport={"width": 1440, "height": 900})
    page = await ctx.new_page()
    wall, t0 = time.time(), time.perf_counter()
    await page.goto(server.base + path)
    seen: dict[str, float] = {}
    while True:
        s = await page.evaluate(STATE)
        now = time.perf_counter() - t0
        for k in MARKS:
            if s.get(k) and k not in seen:
                seen[k] = now
        if s.get("done"):
            # settled: still done a moment later (a rerun may start after the first idle)
            await page.wait_for_timeout(250)
            if (await page.evaluate(STATE)).get("done"):
                seen["done"] = now
                seen["elements"] = f"{s['nt']} tables, {s['nv']} Vega-Lite, {s['np']} Plotly"
                break
        if now > 180:
            seen["done"] = float("nan")
            break
        await page.wait_for_timeout(50)
    await ctx.close()
    runs = sorted(r for r in server.runs() if r[1] >= wall)
    seen["run_start"] = runs[0][1] - wall if runs else float("nan")
    seen["run_length"] = sum(r[2] - r[1] for r in runs) if runs else float("nan")
    return seen


async def measure(server: Server, pages: list[tuple[str, str]], repeats: int) -> dict[str, list[dict]]:
    from playwright.async_api import async_playwright

    got: dict[str, list[dict]] = {name: [] for name, _ in pages}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        for _name, path in pages:  # warm: each page once before timing (the server's first computation)
            await one(browser, server, path)
        for _ in range(repeats):
            for name, path in pages:
                got[name].append(await one(browser, server, path))
        await browser.close()
    return got


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks page-render", description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5, help="page openings per page (1-30)")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose app.py is served")
    ap.add_argument("--custom", default="/custom_leaderboard", help="the Custom page's address (with a query)")
    a = ap.parse_args(argv)
    if not 1 <= a.repeats <= 30:
        ap.error("--repeats 1-30")
    if not Path(CHROMIUM).exists():
        print(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium, or LAB_CHROMIUM)", file=sys.stderr)
        return 2
    server = Server(a.root.resolve(), log=Path(tempfile.gettempdir()) / f"page-render-{os.getpid()}.log")
    try:
        server.wait_healthy()
        print(f"load average {os.getloadavg()[0]:.2f} at the start")
        pages = [("shovel-ready", "/leaderboard"), ("custom", a.custom)]  # "/" is the start page
        got = asyncio.run(measure(server, pages, a.repeats))
    finally:
        server.stop()
    medians = {}
    for name, rows in got.items():
        done = [r["done"] for r in rows]
        medians[name] = statistics.median(done)
        print(f"{name:<13} rendered: median {medians[name]:.2f} s (runs {', '.join(f'{x:.2f}' for x in done)}); "
              f"{rows[0].get('elements', '')}")
        for k in MARKS:
            vals = [r[k] for r in rows if k in r]
            if vals:
                print(f"    {k:<7} complete at median {statistics.median(vals):.2f} s")
        print(f"    server run started at median {statistics.median(r['run_start'] for r in rows):.2f} s and took "
              f"{statistics.median(r['run_length'] for r in rows):.2f} s")
    ratio = medians["custom"] / medians["shovel-ready"]
    print(f"custom / shovel-ready = {ratio:.2f} (target <= {TARGET}) {'ok' if ratio <= TARGET else 'MISSED'}; "
          f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0

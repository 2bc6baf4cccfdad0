"""Screenshots of every page at 1440 × 900 and 1024 × 768: ``python -m tests.screenshots``.

Starts ``streamlit run app.py`` on the sample data (``tests/browser.py``), opens every page at its
address in Debian's Chromium — a new visitor each time, so each picture is the page's first
load — and saves what is on the first screen, ``docs/screenshots/<W>x<H>/<address>.png``
(``--full`` adds the whole page, ``…/full/<address>.jpg``), and the README's picture,
``docs/screenshot.png`` (the leaderboard at 1440 × 900). For each picture it prints the page's
title, the first control of the sidebar and whether it is in view, and any exception or dialog.

    python -m tests.screenshots                       # every page, both sizes, into docs/screenshots/
    python -m tests.screenshots --pages leaderboard,data --sizes 1024x768 --out /tmp/shots --full

For the pages whose table is what they are about (``KEY_COLUMNS``) it also checks that those columns
are wholly in view, and on every page that no metric or button label is cut short.

Exit status 1 when a page showed an exception or a dialog, its sidebar's first control was not
wholly on the first screen, a key column was out of view, or a label was cut.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from tests.browser import (
    ROOT,
    assert_no_exception,
    columns_in_view,
    cut_labels,
    first_control,
    launch_browser,
    serve,
    wait_idle,
)

SIZES = ((1440, 900), (1024, 768))
#: per page, the columns its table is about (issue 38: at 1024 pixels they were out of view, with no
#: cue): each must be wholly in view at both sizes; a pattern ending in "*" matches a prefix
KEY_COLUMNS = {
    "robustness_intervals": ("Could have won", "Letters"),
    "robustness_compare": ("Places gained", "First stage that moved"),
    "robustness_shakeup": ("P(first, private)", "P(first, public)"),
    "custom_leaderboard": ("Published *",),
}
#: the address a page is shot at, when its first load shows no table (Compare needs a pinned A)
QUERY = {"robustness_compare": "?pin=%7B%22alpha%22%3A%2020%7D"}


def missing_columns(path: str, seen: list[str]) -> list[str]:
    """The key columns of page ``path`` that are not wholly in view (``seen``: the columns that are)."""
    out = []
    for want in KEY_COLUMNS.get(path or "leaderboard", ()):
        ok = any(c.startswith(want[:-1]) for c in seen) if want.endswith("*") else want in seen
        if not ok:
            out.append(want)
    return out
def addresses() -> list[str]:
    """Every page's address, in the navigation's order (the default page's is ``""``)."""
    from lab.families import ROBUSTNESS_PAGES, SHARED_PAGES, ui
    from lab.view import nav
    from scoring import registry

    paths = [p.url_path for fam in registry.families() for p in ui(fam).pages]
    paths += [p.url_path for p in (*ROBUSTNESS_PAGES, *SHARED_PAGES)]
    return ["" if p == nav.default_path() else p for p in paths]


def first_screen(page) -> dict:
    """What a visitor sees once the page is loaded: its title, its first sidebar control (in view?), an exception or a dialog."""
    title = page.locator('[data-testid="stMain"] h1').first.inner_text()
    seen = first_control(page)
    dialog = page.locator('[role="dialog"]')
    try:
        assert_no_exception(page, title)
        exception = ""
    except AssertionError as err:
        exception = str(err)[:200]
    return {"title": title, **seen, "dialog": dialog.inner_text()[:120] if dialog.count() else "",
            "exception": exception}


def shoot(base: str, browser, size: tuple[int, int], path: str, out: Path, full: bool) -> dict:
    width, height = size
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(120_000)
    try:
        page.goto(f"{base}/{path}{QUERY.get(path, '')}")
        wait_idle(page, timeout=120_000)
        page.wait_for_timeout(1200)  # charts draw after the run
        seen = first_screen(page)
        name = path or "leaderboard"
        folder = out / f"{width}x{height}"
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"))
        if full:
            from tests.browser import full_screenshot

            (folder / "full").mkdir(exist_ok=True)
            full_screenshot(page, folder / "full" / f"{name}.jpg")
        in_view = columns_in_view(page) if KEY_COLUMNS.get(name) else []
        return {"page": name, "size": f"{width}x{height}", **seen, "missing": missing_columns(name, in_view),
                "cut": cut_labels(page)}
    finally:
        page.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.screenshots", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="folder (default docs/screenshots)")
    ap.add_argument("--pages", default="", help="addresses, comma-separated (default: every page)")
    ap.add_argument("--sizes", default=",".join(f"{w}x{h}" for w, h in SIZES), help="e.g. 1440x900,1024x768")
    ap.add_argument("--full", action="store_true", help="also the whole page, as JPEG, in <size>/full/")
    args = ap.parse_args(argv)
    paths = addresses()
    if args.pages:
        wanted = [p.strip().strip("/") for p in args.pages.split(",")]
        from lab.view import nav

        paths = ["" if p == nav.default_path() else p for p in wanted]
    sizes = [tuple(int(n) for n in s.lower().split("x")) for s in args.sizes.split(",")]
    gen = launch_browser()
    browser = next(gen)
    rows = []
    try:
        with serve(timeout=180) as base:
            for size in sizes:
                for path in paths:
                    row = shoot(base, browser, size, path, args.out, args.full)
                    rows.append(row)
                    print(f"{row['size']:>9} {row['page']:<22} {row['title'][:24]:<24} "
                          f"first control: {row['first']} at y = {row.get('top')} "
                          f"{'in view' if row['inView'] else 'NOT IN VIEW' if row['controls'] else ''}"
                          + (f"  KEY COLUMNS NOT IN VIEW: {row['missing']}" if row["missing"] else "")
                          + (f"  CUT LABELS: {row['cut']}" if row["cut"] else "")
                          + (f"  DIALOG: {row['dialog']}" if row["dialog"] else "")
                          + (f"  EXCEPTION: {row['exception']}" if row["exception"] else ""), flush=True)
    finally:
        next(gen, None)  # closes the browser
    readme = args.out / "1440x900" / "leaderboard.png"
    if args.out == ROOT / "docs" / "screenshots" and readme.is_file():
        shutil.copyfile(readme, ROOT / "docs" / "screenshot.png")
    bad = [r for r in rows if r["dialog"] or r["exception"] or (r["controls"] and not r["inView"]) or r["missing"]
           or r["cut"]]
    for r in bad:
        print(f"problem: {r}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

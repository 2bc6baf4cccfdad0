"""Issue 12 in a real Chromium (Playwright, Debian's Chromium; skipped locally without them,
failing under ``CI=true``): an upload survives a reload and travels by link, a link to data
this server lacks says so, the final result is in view at 1440 × 900, a 2-essay group is
named and can be left out, a new visitor's first table on a warm server, every problem of a
bad bundle at once, uploaded essay texts on the Segments page, an unknown page named, and
nothing fetched from outside the server.

Timings are measured, printed and written to ``artifacts/browser_timings.json``; the asserted
bounds only catch a regression by a wide margin (the targets are reported, not asserted).
"""

from __future__ import annotations

import re
import statistics
import time
import urllib.parse
from pathlib import Path

import pytest

from tests.browser import (
    IDLE,
    TABLE,
    assert_no_exception,
    go,
    record_timing,
    wait_idle,
)
from tests.shovel_ready import smallgroup
from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_ESSAYS, TINY_GT

pytestmark = pytest.mark.browser

VIEW = {"width": 1440, "height": 900}
FIRST_TABLE_TARGET_S = 2.0  # the target, reported beside the measurement


@pytest.fixture(scope="module")
def small_files(tmp_path_factory) -> dict[str, list[Path]]:
    d = tmp_path_factory.mktemp("smallgroup")
    out: dict[str, list[Path]] = {}
    for rel, text in smallgroup.files().items():
        p = d / Path(rel).name
        p.write_text(text)
        role = "submissions" if rel.startswith("submissions/") else Path(rel).stem
        out.setdefault(role, []).append(p)
    return out


def _page(browser, base: str, path: str = "/", context=None):
    page = context.new_page() if context is not None else browser.new_page(viewport=VIEW)
    page.set_default_timeout(60_000)
    page.goto(base + path)
    wait_idle(page)
    return page


def _grid_rows(page) -> list[list[str]]:
    """The leaderboard grid's rows as Glide renders them for screen readers: only the cells in
    view (it is virtualised), header first."""
    page.wait_for_selector(TABLE, state="attached")
    return page.evaluate("""(sel) => [...document.querySelector(sel).querySelectorAll('tr')].map(
        tr => [...tr.children].map(td => [td.getAttribute('aria-colindex'), td.innerText]))""", TABLE)


def _teams(page) -> list[str]:
    return [row[0][1] for row in _grid_rows(page)[1:]]


def _upload(page, base: str, files: dict[str, list[Path]]) -> None:
    """The Data page's form: one set_input_files per uploader (found by its label), then load."""
    page.goto(base + "/data")
    wait_idle(page)
    labels = {"ground_truth": "Ground truth", "submissions": "Submissions", "demographics": "Demographics",
              "runtimes": "Runtimes", "essays": "Essay texts"}
    for role, paths in files.items():
        box = page.locator('[data-testid="stFileUploader"]', has_text=labels[role]).first
        box.locator('input[type="file"]').set_input_files([str(p) for p in paths])
        page.wait_for_timeout(300)
        wait_idle(page)
    page.get_by_role("button", name="Check and load these files").click()
    page.wait_for_timeout(300)
    wait_idle(page)


def test_an_upload_survives_a_reload_and_a_shared_link_and_a_foreign_link_says_so(browser, server, small_files):
    page = _page(browser, server, "/data")
    try:
        _upload(page, server, small_files)
        assert "Loaded 4 files" in page.locator('[data-testid="stMain"]').inner_text()
        go(page, "leaderboard", "Leaderboard")
        assert sorted(_teams(page)) == ["gambler", "steady"]
        link = page.url
        assert re.search(r"[?&]data=sr-[0-9a-f]{64}", link), link
        page.reload()
        wait_idle(page)
        assert sorted(_teams(page)) == ["gambler", "steady"], "a reload dropped the upload"
    finally:
        page.close()
    ctx = browser.new_context(viewport=VIEW)  # someone else, with the link: same server, same data
    try:
        other = _page(browser, "", link, context=ctx)
        assert sorted(_teams(other)) == ["gambler", "steady"]
        other.goto(server + "/?data=sr-" + "0" * 64)  # a link to data this server does not have
        wait_idle(other)
        text = other.locator('[data-testid="stMain"]').inner_text()
        assert "names data this server does not have" in text
        assert "quick-silver" in _teams(other)  # the sample, and it says so
    finally:
        ctx.close()


def test_the_final_result_of_the_top_team_is_in_view_at_1440_by_900(browser, server):
    page = _page(browser, server)
    try:
        rows = _grid_rows(page)
        header, top = dict(rows[0]), dict(rows[1])
        # columns 2-5: the final result's rank, score, boost and eligibility (1 is the team); the grid
        # lists only the columns in view, and one more column after them is in view too
        assert [header[str(i)] for i in range(2, 6)] == ["Rank", "Score", "Boost", "Eligible"]
        assert max(int(k) for k in header) > 5
        assert top["1"] == "quick-silver" and top["2"].startswith("1") and top["5"] == "yes"
        assert float(top["4"]) == pytest.approx(5.0) and float(top["3"]) == pytest.approx(0.7437, abs=1e-4)
        box = page.locator('[data-testid="stMain"] [data-testid="stDataFrame"]').first.bounding_box()
        # two header rows and the first data row (35 px each) end above the fold
        assert box["x"] + box["width"] <= VIEW["width"] and box["y"] + 3 * 35 <= VIEW["height"], box
        # the band moves what is in view: at 0 % only the best bias-aware score (deep-ensemble) is
        # eligible, so it is the fastest eligible team, boosted, and first
        band = page.locator('[data-testid="stSidebar"] input[type="range"][aria-label="Eligibility band (%)"]')
        band.focus()
        page.keyboard.press("Home")
        page.wait_for_function("(sel) => { const t = document.querySelector(sel); "
                               "return t !== null && t.querySelectorAll('tr')[1].innerText.includes('deep-ensemble'); }",
                               arg=TABLE)
        wait_idle(page)
        top = dict(_grid_rows(page)[1])
        assert top["1"] == "deep-ensemble" and top["5"] == "yes" and float(top["4"]) == pytest.approx(5.0)
        assert_no_exception(page, "the leaderboard at band 0")
    finally:
        page.close()


def test_a_two_essay_group_is_named_and_leaving_it_out_changes_the_winner(browser, server, small_files):
    page = _page(browser, server, "/data")
    try:
        _upload(page, server, small_files)
        go(page, "leaderboard", "Leaderboard")
        main = page.locator('[data-testid="stMain"]')
        assert "ell_status=(missing) has only 2 essays" in main.inner_text()
        assert _teams(page) == ["steady", "gambler"]
        page.locator('[data-testid="stSidebar"] label', has_text="Leave out essays with missing demographics").click()
        page.wait_for_function("(sel) => { const t = document.querySelector(sel); return t !== null && "
                               "t.innerText.indexOf('gambler') < t.innerText.indexOf('steady'); }", arg=TABLE)
        wait_idle(page)
        assert _teams(page) == ["gambler", "steady"]
        assert "has only 2 essays" not in main.inner_text()
        assert "exclude_missing=true" in page.url
    finally:
        page.close()


def test_a_second_visitor_sees_the_first_table_fast_on_a_warm_server(browser, server):
    warm = _page(browser, server)  # the first visitor: the server loads and prepares the default data
    warm.close()
    times = []
    for _ in range(5):
        ctx = browser.new_context(viewport=VIEW)  # a new visitor: no cache, no session
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        t0 = time.perf_counter()
        page.goto(server + "/")
        page.wait_for_selector(TABLE, state="attached")
        times.append(time.perf_counter() - t0)
        page.wait_for_selector(IDLE)
        assert_no_exception(page, "a second visitor's leaderboard")
        ctx.close()
    stats = record_timing("first_table_warm_server", times, "navigation start -> first table, new browser context")
    print(f"[browser] first table on a warm server: median {statistics.median(times):.2f} s "
          f"(target {FIRST_TABLE_TARGET_S:.0f} s), from navigation start, new browser context each time")
    assert stats["median_s"] < 15.0  # only a server that loads the data again per visitor fails this


def test_every_problem_of_a_bad_bundle_at_once(browser, server, tmp_path):
    gt = tmp_path / "gt.csv"
    gt.write_text(TINY_GT.replace("e2,Claim,0 1 2 3 4 5,Effective", "e2,Claim,0 1 2 3 4 x5,Effective"))
    alpha, beta = tmp_path / "Alpha.csv", tmp_path / "Beta.csv"
    alpha.write_text(TINY_ALPHA.replace("e1,Claim,4 5 6 7 8 9,0.3,0.7", "e1,Claim,4 5 6 7 8 9,1.5,0.7"))
    beta.write_text(TINY_BETA.replace("e1,Lead,0 1 2 3 4 5,1.0,0.0", "e1,Lead,0 1 2 3 4 5,one,0.0"))
    page = _page(browser, server, "/data")
    try:
        _upload(page, server, {"ground_truth": [gt], "submissions": [alpha, beta]})
        text = page.locator('[data-testid="stMain"]').inner_text()
        assert "The files have 3 problems" in text
        for where in ("gt.csv", "Alpha.csv", "Beta.csv"):
            assert f"File: {where}" in text
        code = page.locator('[data-testid="stMain"] [data-testid="stCode"]').all_inner_texts()
        assert {"0 1 2 3 4 x5", "1.5", "one"} <= {c.strip() for c in code}
    finally:
        page.close()


def test_the_upload_boxes_state_the_limit_the_page_states(browser, server):
    page = _page(browser, server, "/data")
    try:
        drop = page.locator('[data-testid="stFileUploaderDropzoneInstructions"]')
        drop.first.wait_for(state="visible")  # the boxes draw after the page's first element
        boxes = drop.all_inner_texts()
        assert boxes and all("500MB per file" in b for b in boxes), boxes  # not Streamlit's rounding of 512 to "1GB"
        page.get_by_text("What the files must look like, and the limits").click()
        page.wait_for_timeout(300)
        assert "one file at most 500 MiB" in page.locator('[data-testid="stMain"]').inner_text()
    finally:
        page.close()


def test_uploaded_essay_texts_show_words_on_the_segments_page(browser, server, tmp_path):
    files = {"ground_truth": TINY_GT, "submissions": None, "essays": TINY_ESSAYS}
    paths: dict[str, list[Path]] = {}
    for role, text in files.items():
        if text is not None:
            (tmp_path / f"{role}.csv").write_text(text)
            paths[role] = [tmp_path / f"{role}.csv"]
    (tmp_path / "Alpha.csv").write_text(TINY_ALPHA)
    paths["submissions"] = [tmp_path / "Alpha.csv"]
    page = _page(browser, server, "/data")
    try:
        _upload(page, server, paths)
        go(page, "segments", "Segments")
        page.wait_for_timeout(1000)  # the chart draws after the run
        chart = page.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"]').first.text_content()
        assert "Schools" in chart and "teenagers" in chart  # e1's words, not numbered boxes
        assert "numbered boxes" not in page.locator('[data-testid="stMain"]').inner_text()
    finally:
        page.close()


def test_an_unknown_page_is_named_and_nothing_is_fetched_from_outside(browser, server):
    page = browser.new_page(viewport=VIEW)
    page.set_default_timeout(60_000)
    outside: list[str] = []
    host = urllib.parse.urlsplit(server).netloc
    page.on("request", lambda r: outside.append(r.url) if urllib.parse.urlsplit(r.url).netloc not in (host, "")
            and not r.url.startswith(("data:", "blob:")) else None)
    try:
        page.goto(server + "/leaderbord")
        wait_idle(page)
        assert "There is no page “leaderbord”" in page.locator('[data-testid="stMain"]').inner_text()
        page.keyboard.press("Escape")  # Streamlit's own "Page not found" dialog, over the page
        page.wait_for_timeout(300)
        for stem, title in (("demographics", "Demographics"), ("efficiency", "Efficiency"), ("segments", "Segments"),
                            ("worked_examples", "Worked examples"), ("data", "Data")):
            go(page, stem, title)
            page.wait_for_timeout(500)
        assert outside == [], f"the app fetched from outside the server (it must work offline): {outside[:5]}"
    finally:
        page.close()

"""The HTML report in a real Chromium, opened from disk with the network blocked: it renders,
its charts draw, it makes no request, its numbers equal the command line's JSON for the same
inputs, and hostile team names stay text (no script runs, no dialog opens)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring import get
from tests.app.helpers import SUB_A, SUB_B, SUB_C, write_competition
from tests.cli import run_cli, run_report

pytestmark = pytest.mark.browser

FAMILIES = ["shovel-ready", "spotgeo", "qa", "difficulty"]
IMG = "<img src=x onerror=alert(1)>"
MD = "[x](javascript:alert(1))"


def _sample_args(name: str) -> list[str]:
    fam = get(name)
    args = []
    for inp in fam.inputs:
        path = Path(fam.sample_dir) / inp.path
        if path.exists():
            args += [inp.flag, str(path)]
    return args + {"shovel-ready": ["--attributes", "ell_status"], "difficulty": ["--metric", "wmprob"]}.get(name, [])


def _open_offline(browser, path: Path):
    """``path`` opened as file://: every request but the file's own counted (a network one
    aborted), and every dialog and script error."""
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.set_default_timeout(60_000)
    seen = {"requests": [], "dialogs": [], "errors": []}

    me = path.as_uri()

    def count(url: str) -> None:  # any request but the report's own file, once
        if url != me and url not in seen["requests"]:
            seen["requests"].append(url)

    def route(r):
        count(r.request.url)
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            r.abort()

    page.route("**/*", route)
    page.on("request", lambda req: count(req.url))
    page.on("dialog", lambda d: (seen["dialogs"].append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    charts = page.locator("div.chart").count()
    page.wait_for_function(f"() => document.querySelectorAll('div.chart .main-svg').length >= {charts}")
    page.wait_for_timeout(500)
    return page, seen


def _stage_cells(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('table.stages tbody tr')].flatMap(tr =>
        [...tr.querySelectorAll('td[data-key]')].map(td => ({team: tr.dataset.team, key: td.dataset.key,
                                                               value: td.dataset.value, text: td.innerText})))""")


@pytest.mark.parametrize("family", FAMILIES)
def test_the_report_opens_offline_draws_and_shows_the_clis_numbers(family, browser, tmp_path):
    out = tmp_path / "report.html"
    args = _sample_args(family)
    res = run_report(family, "--out", out, *args)
    assert res.returncode == 0, res.stderr
    doc = json.loads(run_cli(family, "leaderboard", *args, "--format", "json").stdout)
    page, seen = _open_offline(browser, out)
    try:
        assert seen == {"requests": [], "dialogs": [], "errors": []}
        # every chart drew: each chart's div holds Plotly's SVG
        charts = page.locator("div.chart")
        assert charts.count() >= 2
        for i in range(charts.count()):
            assert charts.nth(i).locator(".main-svg").count() >= 1, i
        assert page.locator("h1").inner_text().startswith("Leaderboard Lab report")
        # the stage table's numbers are the command line's JSON: exact values, and the shown text
        cells = _stage_cells(page)
        rows = {r["submission"]: r for r in doc["leaderboard"]}
        assert {c["team"] for c in cells} == set(rows)
        fam = get(family)
        compared = 0
        for c in cells:
            row = rows[c["team"]]
            if c["key"] not in row or c["key"] == "submission":
                continue
            want = row[c["key"]]
            assert float(c["value"]) == float(want), c
            if c["key"] in {s.rank for s in fam.stages}:
                assert c["text"].split()[0] == str(int(want)), c
            else:
                assert c["text"] == f"{float(want):.4f}", c
            compared += 1
        assert compared >= len(rows) * 2  # at least the final score and rank of every team
        # the order of the rows is the JSON's
        assert page.evaluate("() => [...document.querySelectorAll('table.stages tbody tr')].map(r => r.dataset.team)"
                             ) == [r["submission"] for r in doc["leaderboard"]]
    finally:
        page.close()


def test_hostile_team_names_stay_text_in_the_browser(browser, tmp_path):
    d = write_competition(tmp_path / "c", runtimes=False,
                          subs={IMG: SUB_A, MD: SUB_B, "C": SUB_C})
    out = tmp_path / "hostile.html"
    res = run_report("shovel-ready", "--out", out, "--ground-truth", d / "ground_truth.csv", "--submissions",
                     d / "submissions", "--demographics", d / "demographics.csv", "--attributes", "ell_status")
    assert res.returncode == 0, res.stderr
    page, seen = _open_offline(browser, out)
    try:
        assert seen == {"requests": [], "dialogs": [], "errors": []}  # no image fetched, no alert
        text = page.locator("body").inner_text()
        assert IMG in text and MD in text
        assert page.locator("img").count() == 0
        hrefs = page.evaluate("() => [...document.querySelectorAll('a')].map(a => a.getAttribute('href'))")
        assert len(hrefs) == 1 and hrefs[0].startswith("http://localhost:8501/leaderboard?")  # the app's link only
        # the counter is live: a request the page did make would have been seen (and aborted)
        page.evaluate("() => fetch('http://127.0.0.1:9/probe').catch(() => 0)")
        page.wait_for_timeout(300)
        assert seen["requests"] == ["http://127.0.0.1:9/probe"]
    finally:
        page.close()



def test_the_apps_download_report_button_gives_the_same_offline_report(browser, tmp_path):
    """Click *Download report* on the running app's leaderboard: the file (built on the click, in
    Streamlit's download thread) opens offline and shows the page's parameters and numbers."""
    from tests.browser import serve, wait_idle

    with serve() as base:
        page = browser.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        page.set_default_timeout(90_000)
        try:
            page.goto(base + "/leaderboard?alpha=7")
            wait_idle(page)
            with page.expect_download() as dl:
                page.get_by_role("button", name="Download report").click()
            path = tmp_path / "app-report.html"
            dl.value.save_as(path)
            assert dl.value.suggested_filename == "shovel-ready-report.html"
        finally:
            page.close()
    html = path.read_text(encoding="utf-8")
    assert 'data-param="alpha"><td>Softmin temperature α</td><td>alpha</td><td>7</td>' in html
    assert f"{base}/leaderboard?" in html and "alpha=7" in html
    offline, seen = _open_offline(browser, path)
    try:
        assert seen == {"requests": [], "dialogs": [], "errors": []}
        assert offline.locator("div.chart .main-svg").count() >= offline.locator("div.chart").count() >= 4
        teams = offline.evaluate("() => [...document.querySelectorAll('table.stages tbody tr')].map(r => r.dataset.team)")
        assert len(teams) == 9  # the sample's nine teams
    finally:
        offline.close()

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


#: every chart's labels as drawn: tick labels and titles outside the chart's own picture (cut at its
#: edge), an axis title over its axis's tick labels, and the tick labels of every axis titled "…rank…"
_LABELS = """() => {
    const out = {clipped: [], over: [], ranks: []};
    const inside = (r, b) => r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
    const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    document.querySelectorAll('div.chart .js-plotly-plot').forEach((plot, i) => {
        const box = plot.querySelector('.main-svg').getBoundingClientRect();
        const texts = [...plot.querySelectorAll('g[class$="tick"] > text, text[class$="title"]')];
        for (const t of texts) {
            const r = t.getBoundingClientRect();
            if (r.width > 0 && !inside(r, box)) out.clipped.push([i, t.getAttribute('class'), t.textContent]);
        }
        for (const title of plot.querySelectorAll('text[class$="title"]')) {
            const m = /^([xy]\\d*)title$/.exec(title.getAttribute('class') || '');
            if (!m) continue;
            const ticks = [...plot.querySelectorAll(`g.${m[1]}tick > text`)];
            const r = title.getBoundingClientRect();
            for (const t of ticks) if (hit(r, t.getBoundingClientRect())) out.over.push([i, title.textContent, t.textContent]);
            if (/rank/i.test(title.textContent)) out.ranks.push([i, title.textContent, ticks.map(t => t.textContent)]);
        }
    });
    return out;
}"""


def _chart_labels(page, teams: int) -> None:
    seen = page.evaluate(_LABELS)
    assert seen["clipped"] == [], seen["clipped"][:8]
    assert seen["over"] == [], seen["over"][:8]
    assert seen["ranks"], "no rank axis drawn"
    for i, title, ticks in seen["ranks"]:  # whole ranks only, within 1..n, 1 among them
        assert ticks and all(t.isdigit() for t in ticks), (i, title, ticks)
        values = [int(t) for t in ticks]
        assert min(values) == 1 and max(values) <= teams, (i, title, ticks)


@pytest.mark.parametrize("family", [*FAMILIES, "custom"])
def test_the_reports_charts_keep_their_labels_at_1024_and_in_print(family, browser, tmp_path):
    """At a 1024-pixel window and at a printed page's width (print styles on): no tick label or
    axis title cut at a chart's edge, no axis title over its labels, rank axes in whole ranks 1..n
    (the sample's Custom table has 91 teams: a round step)."""
    out = tmp_path / "report.html"
    args = _sample_args(family)
    assert run_report(family, "--out", out, *args).returncode == 0
    doc = json.loads(run_cli(family, "leaderboard", *args, "--format", "json").stdout)
    page, seen = _open_offline(browser, out)
    try:
        page.set_viewport_size({"width": 1024, "height": 768})
        page.wait_for_timeout(800)  # the charts follow the window (responsive)
        _chart_labels(page, len(doc["leaderboard"]))
        page.emulate_media(media="print")
        page.set_viewport_size({"width": 700, "height": 1000})  # an A4 page's printable width, about
        page.wait_for_timeout(800)
        _chart_labels(page, len(doc["leaderboard"]))
        assert seen["errors"] == []
    finally:
        page.close()


def _download(page, tmp_path, name: str) -> str:
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download report").click()
    path = tmp_path / name
    dl.value.save_as(path)
    return path.read_text(encoding="utf-8")


def _report_link(html: str) -> str:
    from tests.lab.report.test_report import Page

    links = Page(html).links
    assert len(links) == 1, links
    return links[0]


@pytest.mark.parametrize("stem", ["qa_leaderboard", "leaderboard", "custom_leaderboard"])
def test_the_reports_link_is_the_pages_address_from_both_entry_routes(stem, browser, app_url, tmp_path):
    """Opened by its own address, or reached through the menu: the report's link is the page's
    registered address with the view's parameters (opening ``/qa_leaderboard`` directly gave
    ``/qa_/qa_leaderboard``: Streamlit trims a page's address from the browser's), and opening
    it in a fresh browser shows the same page with the same parameters."""
    from tests.browser import go, wait_idle

    links = []
    for route in ("address", "menu"):
        page = browser.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        page.set_default_timeout(90_000)
        try:
            if route == "address":
                page.goto(f"{app_url}/{stem}")
                wait_idle(page)
            else:
                page.goto(f"{app_url}/data")
                wait_idle(page)
                go(page, stem)
            links.append(_report_link(_download(page, tmp_path, f"{stem}-{route}.html")))
        finally:
            page.close()
    for link in links:
        assert link.split("?")[0] == f"{app_url}/{stem}", links
    assert links[0] == links[1] or links[0].split("?")[0] == links[1].split("?")[0]
    fresh = browser.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    fresh.set_default_timeout(90_000)
    try:
        fresh.goto(links[0])
        wait_idle(fresh)
        assert fresh.url.split("?")[0] == f"{app_url}/{stem}"
        again = _report_link(_download(fresh, tmp_path, f"{stem}-again.html"))
        assert again == links[0]  # the same view: every parameter as the link had it
    finally:
        fresh.close()

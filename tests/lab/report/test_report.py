"""The stakeholder report (``lab.report``) on the hand-worked competition of the app tests
(``tests/app/helpers.py``: its numbers are worked out there by hand), with hostile team names."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from lab import report
from lab.report.html import markdown_text
from scoring import get
from tests.app.helpers import SEG_A, SEG_B, SEG_C, write_competition

ROOT = Path(__file__).resolve().parents[3]
SCRIPT, LINK = "<script>alert(1)</script>", "[x](http://e)"


class Page(HTMLParser):
    """What a browser would see: text, the script elements, the links, and every table cell with
    its attributes (row: the ``data-team`` of its ``<tr>``)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.scripts: list[dict] = []
        self.links: list[str] = []
        self.cells: list[dict] = []
        self.rows: list[dict] = []
        self._tr: dict = {}
        self._td: dict | None = None
        self._script: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            self._script = {**a, "body": ""}
            self.scripts.append(self._script)
        elif tag == "a":
            self.links.append(a.get("href", ""))
        elif tag == "tr":
            self._tr = a
            self.rows.append(a)
        elif tag == "td":
            self._td = {**a, "team": self._tr.get("data-team"), "param": self._tr.get("data-param"), "text": ""}
            self.cells.append(self._td)

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None
        elif tag == "td":
            self._td = None

    def handle_data(self, data):
        if self._script is not None:
            self._script["body"] += data
            return
        self.text.append(data)
        if self._td is not None:
            self._td["text"] += data

    @property
    def plain(self) -> str:
        return "".join(self.text)

    def row(self, **match) -> list[dict]:
        return [c for c in self.cells if all(c.get(k) == v for k, v in match.items())]


@pytest.fixture(scope="module")
def comp_dir(tmp_path_factory) -> Path:
    d = write_competition(tmp_path_factory.mktemp("report") / "c", runtimes=False)
    (d / "runtimes.csv").write_text(f"submission,runtime\n\"{SCRIPT}\",100\n\"{LINK}\",10\nC,110\n")
    return d


@pytest.fixture(scope="module")
def setup(comp_dir):
    fam = get("shovel-ready")
    sources = {"ground_truth": comp_dir / "ground_truth.csv",
               "submissions": [(SCRIPT, comp_dir / "submissions" / "A.csv"), (LINK, comp_dir / "submissions" / "B.csv"),
                               ("C", comp_dir / "submissions" / "C.csv")],
               "demographics": comp_dir / "demographics.csv", "runtimes": comp_dir / "runtimes.csv"}
    comp = fam.load(**sources)
    scorer = fam.scorer(comp)
    params = fam.params.validate({"attributes": ["ell_status"], "alpha": 5}, context=fam.context(comp))
    return fam, sources, comp, scorer, params


def _build(setup, **kw) -> str:
    fam, sources, comp, scorer, params = setup
    roots = [sources["ground_truth"].parent]  # the data's folder: files named from there, never its path
    return report.build_report(fam, comp, scorer, params, data=report.file_digests(fam, sources, roots=roots),
                               command=report.command_line(fam, sources, params, roots=roots), link=report.link(fam, params),
                               now=datetime(2026, 11, 25, 12, 0, tzinfo=UTC), **kw)


def test_hostile_team_names_are_text(setup):
    html = _build(setup)
    page = Page(html)
    # the names read as they are written ...
    assert SCRIPT in page.plain and LINK in page.plain
    assert page.row(team=SCRIPT) and page.row(team=LINK)  # every stage-table row keyed by the raw name
    # ... and never become markup: the only scripts are Plotly's and one per chart, the only link is ours
    figures = html.count('class="chart"')
    assert figures == 4  # the bump chart, the group heat map, the β heat map, the efficiency chart
    assert len(page.scripts) == 1 + figures + 1  # Plotly, each chart, the redraw at the paper's width
    assert SCRIPT not in html and "<a href=\"http://e\"" not in html
    assert page.links == [report.link(setup[0], setup[4])]
    # the takeaway names the winner C and the hostile runner-up as text, in bold
    assert "C" in html.split('class="takeaway">')[1].split("</p>")[0]


def test_markdown_sentences_become_escaped_html():
    from lab.words.story import names

    assert markdown_text(names([SCRIPT, LINK])) == \
        "<strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong> and <strong>[x](http://e)</strong>"
    assert markdown_text("**unclosed") == "<strong>unclosed</strong>"
    assert markdown_text("a & b `c`") == "a &amp; b <code>c</code>"


def test_every_parameter_is_listed_with_value_and_default(setup):
    fam = setup[0]
    page = Page(_build(setup))
    listed = [r["data-param"] for r in page.rows if r.get("data-param")]
    assert listed == fam.params.names
    cells = {p: [c["text"] for c in page.row(param=p)] for p in listed}
    # Parameter, name, value, default, option
    assert cells["alpha"] == ["Softmin temperature α", "alpha", "5", "50", "--alpha"]
    assert cells["w"][2:] == ["0.5", "0.5", "--w"]
    assert cells["quality"][2:] == ["iou (IoU)", "iou (IoU)", "--quality"]
    assert cells["attributes"][2:] == ["ell_status", "none", "--attributes"]
    assert cells["overlap_removal"][2:4] == ["true", "true"]
    # a value off its default is marked
    assert 'class="changed" data-param="alpha"' in _build(setup)


def test_data_digests_equal_hashlibs(setup, comp_dir):
    html = _build(setup)
    page = Page(html)
    rows = [r for r in page.cells if r.get("data-key") == "sha256"]
    names = [r["text"] for r in page.cells if r.get("data-key") == "name"]
    files = [comp_dir / "ground_truth.csv", *(comp_dir / "submissions" / f"{x}.csv" for x in "ABC"),
             comp_dir / "demographics.csv", comp_dir / "runtimes.csv"]
    assert names == [f.relative_to(comp_dir).as_posix() for f in files]  # named from the data's folder ...
    assert str(comp_dir.parent) not in html  # ... which the report never names: it leaves this machine
    assert [r["text"] for r in rows] == [hashlib.sha256(f.read_bytes()).hexdigest() for f in files]
    sizes = [int(c["data-value"]) for c in page.cells if c.get("data-key") == "size"]
    assert sizes == [f.stat().st_size for f in files]


def test_stage_table_numbers_equal_the_leaderboard_and_the_hand_computation(setup):
    fam, _, _, scorer, params = setup
    lb = scorer.leaderboard(**params).set_index("submission")
    page = Page(_build(setup))
    stage = [c for c in page.cells if c.get("team") is not None and c.get("data-key") not in (None, "submission")]
    seen = set()
    for c in stage:
        if c["team"] not in lb.index or c["data-key"] not in lb.columns:
            continue
        seen.add((c["team"], c["data-key"]))
        exact = lb.loc[c["team"], c["data-key"]]
        assert float(c["data-value"]) == float(exact), (c["team"], c["data-key"])
    keys = {s.id for s in fam.stages} | {s.rank for s in fam.stages}
    assert seen >= {(t, k) for t in lb.index for k in keys}
    value = {(c["team"], c["data-key"]): float(c["data-value"]) for c in stage if "data-value" in c}
    # by hand (tests/app/helpers.py): segment scores 8/9, 0.9/1.45, 1; FP1 1, 0.5, 0.8 (C's copy an FP)
    assert value[(SCRIPT, "segment_score")] == pytest.approx(SEG_A, abs=1e-12)
    assert value[(LINK, "segment_score")] == pytest.approx(SEG_B, abs=1e-12)
    assert value[("C", "segment_score")] == pytest.approx(SEG_C, abs=1e-12)
    assert (value[(SCRIPT, "fp1")], value[(LINK, "fp1")], value[("C", "fp1")]) == pytest.approx((1.0, 0.5, 0.8))
    assert value[("C", "overlap_removed")] == pytest.approx(1.0)
    # ranks shown with their moves: C is 2nd on FP1 (0.8 < 1) and, at 1.0 after overlap removal, ties
    # the first place ("1224" ranks): "1 ▲1"
    shown = {(c["team"], c["data-key"]): c["text"] for c in stage}
    assert shown[("C", "fp1_rank")] == "2" and shown[("C", "overlap_removed_rank")] == "1 ▲1"
    assert shown[("C", "segment_score")] == "1.0000"


def test_rank_sets_lead_with_who_could_have_won(setup):
    # bootstrap's frame, made by hand: C and the script team cannot be told apart (both could
    # have won: rank_low_all 1); the link team is third for sure; top 2 = the first two
    iv = pd.DataFrame({"score": [1.0, 0.8, 0.5], "rank": [1, 2, 3], "score_low": [0.9, 0.7, 0.4],
                       "score_high": [1.1, 0.9, 0.6], "rank_low": [1, 1, 3], "rank_high": [2, 2, 3],
                       "letters": ["a", "a", "b"], "could_win": [True, True, False],
                       "rank_low_all": [1, 1, 2], "rank_high_all": [2, 3, 3]},
                      index=pd.Index(["C", SCRIPT, LINK], name="submission"))
    info = {"replicates": 200, "seed": 0, "confidence": 0.95, "unit": "essay", "top_k": 2,
            "columns": ["score_low", "score_high", "rank_low", "rank_high", "letters", "could_win"]}
    page = Page(_build(setup, intervals=iv, interval_info=info))
    assert "Rank confidence sets" in page.plain and "Bootstrap over the essays: 200 resamples" in page.plain
    assert f"Who could have won? 2 teams could have won: C, {SCRIPT} — no team is established better than any of " \
           "them. This list is built to hold the true winner (the best on all possible essays) with probability at " \
           "least 95%." in page.plain  # the Rank intervals page's sentence (scoring.claims.intervals)
    assert f"Could be in the top 2: C, {SCRIPT}, {LINK} (3 teams)" in page.plain  # rank_low_all <= 2
    assert [c["text"] for c in page.row(team=SCRIPT) if c.get("data-key") in ("letters", "rank_low")] == ["1", "a"]
    # the simultaneous columns were not asked for; every column shown is explained
    assert "rank_low_all" not in _build(setup, intervals=iv, interval_info=info).split("Rank confidence sets")[1] \
        .split("</table>")[0]
    assert "marginal rank set" in page.plain and "not told apart" in page.plain
    assert "tier" not in page.plain.lower().split("rank confidence sets")[1]


def test_a_second_configuration_shows_what_moved(setup):
    fam, _, _, scorer, params = setup
    b = {**params, "overlap_removal": False}
    page = Page(_build(setup, params_b=b))
    text = page.plain
    assert "B differs from A in: Overlap removal: true → false." in text
    # without overlap removal C's duplicate is a false positive: 0.8 < A's 8/9, so C falls to 2nd
    # (tests/app/helpers.py) at the unified segment stage
    c = {x["data-key"]: x for x in page.row(team="C") if x.get("data-key") in ("rank_a", "rank_b", "moved_at")}
    assert (c["rank_a"]["data-value"], c["rank_b"]["data-value"]) == ("1", "2")
    assert c["moved_at"]["text"] == "Unified segment score"


def test_self_contained_plotly_once_no_network_reference(setup):
    html = _build(setup)
    from plotly.offline import get_plotlyjs

    js = get_plotlyjs()
    assert html.count(js) == 1 and len(js) > 1_000_000
    low = html.replace(js, "").lower()
    for needle in ("<link", "@import", "src=\"http", "src='http", "url(http", "cdn.plot.ly", "fonts.googleapis"):
        assert needle not in low, needle
    assert "@media print" in html and "break-before: page" in html
    # every figure is drawn by the inline script: no figure asks for Plotly from elsewhere
    assert 'include_plotlyjs' not in html and "require(" not in low


def test_command_line_and_link_reproduce_the_parameters(setup):
    fam, sources, comp, scorer, params = setup
    cmd = report.command_line(fam, sources, params)
    assert cmd.startswith("python -m scoring shovel-ready leaderboard --ground-truth ")
    assert "--alpha 5 " in cmd and "--attributes ell_status" in cmd and "--overlap-removal" not in cmd
    off = report.command_line(fam, sources, {**params, "overlap_removal": False})
    assert "--no-overlap-removal" in off or fam.params["overlap_removal"].cli_negative in off
    url = report.link(fam, params, data="sr-" + "0" * 64)
    assert url.startswith("http://localhost:8501/leaderboard?w=0.5&") and "alpha=5" in url
    assert url.endswith("data=sr-" + "0" * 64)


def test_building_the_report_does_not_import_streamlit(comp_dir, tmp_path):
    """The command in a fresh interpreter: exit 0, the file written, and Streamlit never imported."""
    out = tmp_path / "r.html"
    code = ("import sys; from lab.report.__main__ import main; rc = main(sys.argv[1:]); "
            "print(json.dumps({'rc': rc, 'streamlit': 'streamlit' in sys.modules}))")
    args = ["shovel-ready", "--out", str(out), "--ground-truth", str(comp_dir / "ground_truth.csv"),
            "--submissions", str(comp_dir / "submissions"), "--demographics", str(comp_dir / "demographics.csv"),
            "--attributes", "ell_status", "--bootstrap", "20", "--compare", '{"alpha": 0}']
    res = subprocess.run([sys.executable, "-c", "import json; " + code, *args], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert json.loads(res.stdout.strip().splitlines()[-1]) == {"rc": 0, "streamlit": False}, res.stderr
    assert out.stat().st_size > 1_000_000 and "Rank confidence sets" in out.read_text(encoding="utf-8")

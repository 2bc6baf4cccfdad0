"""The *Download report* button on every family's leaderboard page and on Compare settings, and
the report it builds (the callable given to ``st.download_button``, called as Streamlit's
download thread would: after the run, outside it)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from lab.view import report_button
from tests.app.helpers import SEG_A, SEG_B, SEG_C, app
from tests.lab.report.test_report import Page

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"pages/leaderboard.py": "lb_report", "pages/spotgeo_leaderboard.py": "sg_lb_report",
         "pages/qa_leaderboard.py": "qa_lb_report", "pages/difficulty_leaderboard.py": "df_lb_report",
         "pages/custom_leaderboard.py": "cu_lb_report"}


@pytest.fixture
def built(monkeypatch):
    """Every report builder a page makes, with its arguments."""
    made = []
    real = report_button.builder

    def spy(fam, page, **kw):
        fn = real(fam, page, **kw)
        made.append((fam.name, page, kw, fn))
        return fn

    monkeypatch.setattr(report_button, "builder", spy)
    return made


def _button(at, key):
    found = [b for b in at.get("download_button") if b.proto.id.endswith(key) or key in b.proto.id]
    assert len(found) == 1, [b.proto.id for b in at.get("download_button")]
    return found[0].proto


@pytest.mark.parametrize("page", list(PAGES))
def test_every_leaderboard_page_has_the_button(page, sample, built):
    at = app(page)
    proto = _button(at, PAGES[page])
    assert proto.label == "Download report"
    # the report is not built by the run: only its builder is made (one per run of the page)
    fam, path, _, fn = built[-1]
    assert path == page.removeprefix("pages/").removesuffix(".py")
    html = fn()
    assert html.startswith("<!DOCTYPE html>") and f"family <code>{fam}</code>" in html
    # a report leaves the server: file names and digests, never the server's folders
    from scoring import get

    for folder in (ROOT, Path(get(fam).sample_dir).resolve(), Path.home()):
        assert str(folder) not in html, folder
    data = [c["text"] for c in Page(html).cells if c.get("data-key") == "name"]
    assert data and all(not n.startswith("/") and ":\\" not in n for n in data), data
    # the link: the page's registered address (no browser here: the default base)
    assert Page(html).links[0].startswith(f"http://localhost:8501/{path}?")


def test_the_apps_report_is_the_pages_view(core_dir, built):
    at = app("pages/leaderboard.py", {"alpha": "5", "attributes": "ell_status"})
    _button(at, "lb_report")
    html = built[-1][3]()
    # the data shown: the LAB_DATA_DIR folder's files, each with its SHA-256
    for f in sorted(core_dir.rglob("*.csv")):
        assert hashlib.sha256(f.read_bytes()).hexdigest() in html, f
    # the parameters of the sidebar and the link that holds them
    assert 'data-param="alpha"><td>Softmin temperature α</td><td>alpha</td><td>5</td>' in html
    assert "/leaderboard?" in html and "alpha=5" in html
    # the stage table's numbers (tests/app/helpers.py: by hand)
    seg = {c["team"]: float(c["data-value"]) for c in Page(html).row(**{"data-key": "segment_score"})}
    assert seg == {"A": pytest.approx(SEG_A, abs=1e-12), "B": pytest.approx(SEG_B, abs=1e-12),
                   "C": pytest.approx(SEG_C, abs=1e-12)}


def test_a_data_folder_outside_the_app_is_never_named(core_dir, built):
    """LAB_DATA_DIR elsewhere on the server: the files are named from that folder, whose own path
    (and its parents') the report never shows; the command line says where to run it."""
    app("pages/leaderboard.py")
    html = built[-1][3]()
    assert str(core_dir) not in html and str(core_dir.parent) not in html
    names = [c["text"] for c in Page(html).cells if c.get("data-key") == "name"]
    assert names == ["ground_truth.csv", "submissions/A.csv", "submissions/B.csv", "submissions/C.csv",
                     "demographics.csv", "runtimes.csv"]
    assert "Command line (in the data&#x27;s folder):" in html
    assert "--ground-truth ground_truth.csv --submissions submissions/A.csv submissions/B.csv" in html


def test_compare_settings_has_the_button_with_both_configurations(core_dir, built):
    pin = json.dumps({"overlap_removal": True, "attributes": []})
    at = app("pages/robustness_compare.py", {"pin": pin, "overlap_removal": "false", "attributes": ""})
    proto = _button(at, "rob_cmp_report")
    assert proto.label == "Download report"
    fam, page, kw, fn = built[-1]
    assert (fam, page) == ("shovel-ready", "robustness_compare")
    assert kw["params"]["overlap_removal"] is True and kw["params_b"]["overlap_removal"] is False
    html = fn()
    assert "<h2>Two configurations: A (pinned) and B (current)</h2>" in html
    assert "B (current) differs from A (pinned) in: Overlap removal: true → false." in html
    assert "pin=" in html  # the link keeps the pinned configuration


def test_an_uploads_report_names_its_files_and_digests_and_the_link_keeps_it(core_dir, built, monkeypatch):
    from tests.app.helpers import DEMO, GT, SUB_A, SUB_B, SUB_C, rerun

    monkeypatch.setenv("LAB_UPLOAD_DIR", str(core_dir.parent / "uploads"))
    files = {"truth.csv": GT, "A.csv": SUB_A, "B.csv": SUB_B, "C.csv": SUB_C, "demo.csv": DEMO}
    at = app("pages/data.py")
    at.file_uploader(key="data_sr_ground_truth").set_value(("truth.csv", GT.encode(), "text/csv"))
    at.file_uploader(key="data_sr_submissions").set_value(
        [(n, files[n].encode(), "text/csv") for n in ("A.csv", "B.csv", "C.csv")])
    at.file_uploader(key="data_sr_demographics").set_value(("demo.csv", DEMO.encode(), "text/csv"))
    rerun(at)
    at.button(key="data_sr_load").click()
    rerun(at)
    data = at.query_params["data"]
    at.switch_page("pages/leaderboard.py")
    rerun(at)
    html = built[-1][3]()
    page = Page(html)
    names = [c["text"] for c in page.cells if c.get("data-key") == "name"]
    digests = [c["text"] for c in page.cells if c.get("data-key") == "sha256"]
    assert names == ["truth.csv", "A.csv", "B.csv", "C.csv", "demo.csv"]
    assert digests == [hashlib.sha256(files[n].encode()).hexdigest() for n in names]
    # the report names the upload's files and digests but never carries the key that opens them
    assert data and f"data={data}" not in html and "data=" not in html.split("Link (")[1].split("</p>")[0]

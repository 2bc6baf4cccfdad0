"""The hand-worked three-team competition of the app tests, and small AppTest helpers.

Its numbers are worked out by hand in the comments (SPEC §2–§6).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from lab.charts import tables

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 120
SR = "pages/"
PAGES = [SR + p for p in ("leaderboard.py", "demographics.py", "efficiency.py", "segments.py",
                          "worked_examples.py")] + ["pages/data.py"]

# --------------------------------------------------------------------------------------
# The hand-worked competition.
#
# Ground truth: one Claim per essay, words 0-9; e1 is Effective, e2 Ineffective.
# Demographics: e1 ell_status=Yes, e2 ell_status=No (one essay per group).
#
# A: both claims exact, but only 0.6 on the right label.  TP_P = w·1 + (1-w)·0.6 = 0.8 at
#    w = 0.5, so per class TP 1.6, FN 0.4 -> F1 = 1.6 / 1.8 = 8/9 on every essay set.
#    FP1 = 1 (two exact matches); after overlap removal also 1.
# B: e1 words 0-7 only (o_P = 1, o_G = 0.8, IoU 0.8) with d = 1; nothing for e2.
#    Unified (IoU): TP_P = 0.5·0.8 + 0.5·1 = 0.9; TP 0.9, FN 0.1 + 1 -> F1 = 0.9/1.45 = 0.620690.
#    Per group: Yes 0.9/0.95 = 0.947368, No 0.  FP1: TP 1, FN 1, FP 0 + 1 (the quirk: a
#    ground truth in an essay without a prediction of its class) -> 1/2 = 0.5.
# C: the e1 claim twice (an overlap hedge), e2 exact, all with d = 1.
#    FP1 raw: TP 2, FP 1 -> 2/2.5 = 0.8; after overlap removal the copy is discarded -> 1.0.
#    Unified with removal: 1.0; without removal the copy is an FP -> 2/2.5 = 0.8.
# Runtimes: A 100 s, B 10 s, C 110 s.
# --------------------------------------------------------------------------------------
GT = """id,discourse_type,predictionstring,discourse_effectiveness
e1,Claim,0 1 2 3 4 5 6 7 8 9,Effective
e2,Claim,0 1 2 3 4 5 6 7 8 9,Ineffective
"""
SUB_A = """id,class,predictionstring,Effective,Ineffective
e1,Claim,0 1 2 3 4 5 6 7 8 9,0.6,0.4
e2,Claim,0 1 2 3 4 5 6 7 8 9,0.4,0.6
"""
SUB_B = """id,class,predictionstring,Effective,Ineffective
e1,Claim,0 1 2 3 4 5 6 7,1.0,0.0
"""
SUB_C = """id,class,predictionstring,Effective,Ineffective
e1,Claim,0 1 2 3 4 5 6 7 8 9,1.0,0.0
e1,Claim,0 1 2 3 4 5 6 7 8 9,1.0,0.0
e2,Claim,0 1 2 3 4 5 6 7 8 9,0.0,1.0
"""
DEMO = """id,ell_status
e1,Yes
e2,No
"""
RUNTIMES = """submission,runtime
A,100
B,10
C,110
"""
SEG_A, SEG_B, SEG_C = 8 / 9, 0.9 / 1.45, 1.0
GROUP_B_YES = 0.9 / 0.95


def write_competition(folder: Path, *, demographics: bool = True, runtimes: bool = True,
                      subs: dict[str, str] | None = None) -> Path:
    (folder / "submissions").mkdir(parents=True)
    (folder / "ground_truth.csv").write_text(GT)
    for name, text in (subs or {"A": SUB_A, "B": SUB_B, "C": SUB_C}).items():
        (folder / "submissions" / f"{name}.csv").write_text(text)
    if demographics:
        (folder / "demographics.csv").write_text(DEMO)
    if runtimes:
        (folder / "runtimes.csv").write_text(RUNTIMES)
    return folder


def app(page: str | None = None, query: dict | None = None) -> AppTest:
    """The app at ``page`` (default: ``/``), opened with the link ``query`` — at the page's own
    address, as a visitor opens a link: a link's keys belong to its page (another page's first run
    takes them out of the address, ``lab.view.links.clean``)."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    if page and query:
        at.switch_page(page).run()
    else:
        at.run()
        if page:
            at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    """The first st.dataframe showing ``column`` (plain dataframes expose no key)."""
    for df in at.dataframe:
        value = df.value
        if column in value.columns:
            return value
    raise AssertionError(f"no table with a column {column!r}")


def stage_table(at: AppTest) -> pd.DataFrame:
    """The leaderboard's grouped table with one-level names (``lab.charts.tables.flat_columns``):
    ``"FP1 (original)"`` (a stage's score), ``"FP1 (original) · rank"``, ``"Final result"``
    (the final score), ``"Final result · rank"``, ``"Final result · Boost"``, indexed by team."""
    for df in at.dataframe:
        value = df.value
        if isinstance(value.columns, pd.MultiIndex) and ("FP1 (original)", "Score") in value.columns:
            return tables.flat_columns(value).set_index("Team")
    raise AssertionError("no grouped stage table")


def figure(at: AppTest, key: str) -> dict:
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        if chart.proto.id and key in chart.proto.id:
            return spec
    raise AssertionError(f"no plotly chart with key {key}")


def vega(at: AppTest, title: str) -> tuple[dict, list[pd.DataFrame]]:
    """The Vega-Lite chart (``st.altair_chart``) whose title contains ``title``: its spec and its
    data sets as DataFrames (Streamlit sends them beside the spec, as Arrow)."""
    import pyarrow as pa

    for el in at.get("vega_lite_chart"):
        spec = json.loads(el.proto.spec)
        t = spec.get("title")
        text = t.get("text") if isinstance(t, dict) else t
        if text and title in str(text):
            frames = [pa.ipc.open_stream(d.data.data).read_all().to_pandas() for d in el.proto.datasets]
            return spec, frames
    raise AssertionError(f"no Vega-Lite chart titled {title!r}")


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


# ---- the Segments, Worked examples and Data pages on the tiny competition ---------------
SEGMENTS, EXAMPLES, DATA = SR + "segments.py", SR + "worked_examples.py", "pages/data.py"


def open_page(page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture
def tiny(tiny_dir, monkeypatch):
    """Make the tiny competition the default data (as LAB_DATA_DIR does for `streamlit run`)."""
    monkeypatch.setenv("LAB_DATA_DIR", str(tiny_dir))
    return tiny_dir


@pytest.fixture
def sample(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    frames = [d.value for d in at.dataframe if column in d.value.columns]
    assert frames, f"no table with a column {column!r}"
    return frames[0]


def error_report(at: AppTest) -> pd.DataFrame:
    """The Data page's validation errors (one ``st.error`` each: file, row, column when there is
    one, problem on their own lines) as a table with columns File, Row, Column, Problem."""
    rows = []
    for e in at.error:
        found = re.match(r"\*\*File:\*\* (.*?)  \n\*\*Row:\*\* (.*?)(?:  \n\*\*Column:\*\* (.*?))?  \n"
                         r"\*\*Problem:\*\* (.*)\Z", e.value, re.S)
        if found:
            rows.append([re.sub(r"\\(.)", r"\1", g or "") for g in found.groups()])
    assert rows, "no validation error shown"
    return pd.DataFrame(rows, columns=["File", "Row", "Column", "Problem"])


def matches(at: AppTest) -> pd.DataFrame:
    return frame_with(at, "Fractional TP").set_index("Discourse type")


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def figures(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def hover_texts(fig: dict) -> list[str]:
    out = []
    for trace in fig["data"]:
        h = trace.get("hovertext")
        if isinstance(h, list):
            out.extend(str(x) for x in h)
    return out

CSV = "text/csv"


def upload(at: AppTest, gt: str, subs: dict[str, str], demo: str | None = None, rt: str | None = None) -> None:
    at.file_uploader(key="data_sr_ground_truth").set_value(("truth.csv", gt.encode(), CSV))
    at.file_uploader(key="data_sr_submissions").set_value([(f"{n}.csv", s.encode(), CSV) for n, s in subs.items()])
    if demo is not None:
        at.file_uploader(key="data_sr_demographics").set_value(("demo.csv", demo.encode(), CSV))
    if rt is not None:
        at.file_uploader(key="data_sr_runtimes").set_value(("rt.csv", rt.encode(), CSV))
    at.run()
    at.button(key="data_sr_load").click().run()
    assert not at.exception, [e.value for e in at.exception]


def plain(text: str) -> str:
    """Markdown text with its backslash escapes removed (what the reader sees)."""
    return re.sub(r"\\(.)", r"\1", text)

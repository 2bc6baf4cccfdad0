"""The QA pages (Leaderboard, Hidden weights, Speed penalty, Questions) in AppTest, on the
sample (its designed story, docs/qa.md §8) and on a three-question competition worked out by
hand below.

The hand-worked competition: themes alpha, beta, gamma, one question each, threshold 200 ms.

* a1 (alpha): paragraph pa, answer "Blue whale" (tokens blue, whale).
* b1 (beta): paragraph pb, answers "Mount Everest" and "Everest".
* g1 (gamma): no paragraph, no answer (unanswerable).

====  ===========================  ===========================  ======================  =====
team  a1                           b1                           g1                      AIT
====  ===========================  ===========================  ======================  =====
ace   pa ✓ "THE BLUE WHALE!" F1 1  pb ✓ "K2" F1 0               none ✓, "" F1 1         100
bee   pb ✗ "whale" F1 2/3, 400 ms  pb ✓ "Everest" F1 max(2/3,1)  pa ✗ "none" F1 0        100
cat   pa ✓ "whale" F1 2/3          pb ✓ "mount" F1 max(2/3, 0)   none ✓, "" F1 1         50
====  ===========================  ===========================  ======================  =====

Theme scores (accuracy + F1, × T/AIT over T): ace 2, 1, 2; bee (0 + 2/3)·200/400 = 1/3, 2, 0;
cat 5/3, 5/3, 2. Equal weights: cat 16/9, ace 15/9, bee 7/9.

The weights file says alpha 3, beta 1, gamma 1: above the sliders' 0–1, so the sliders start at
the shares 0.6, 0.2, 0.2 (÷ 5): ace 1.2 + 0.2 + 0.4 = 1.8, cat 1 + 1/3 + 0.4 = 26/15, bee
0.2 + 0.4 = 0.6 — ace first, cat second (first with equal weights).

Where each team is first (w = (alpha, beta, gamma) on the simplex): ace beats cat iff
w_a/3 > 2·w_b/3, i.e. w_a > 2·w_b, and then beats bee too — the triangle (1,0,0), (2/3,1/3,0),
(0,0,1), share 1/3. bee beats cat iff w_b > 4·w_a + 6·w_g — the triangle (0,1,0), (1/5,4/5,0),
(0,6/7,1/7), share |det| = 1/35. cat: the rest, 1 − 1/3 − 1/35 = 67/105. bee beats ace iff
w_b > 5/3·w_a + 2·w_g (share 1/8), so ace's worst rank is 3; cat is never last (ace above cat
and bee above cat exclude each other): worst rank 2, median 1 (first in 67/105 > 1/2).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, TIMEOUT, plain, rerun

LB, HW, SP, QS, DATA = (f"pages/{p}.py" for p in ("qa_leaderboard", "qa_hidden_weights", "qa_speed",
                                                    "qa_questions", "data"))

GT = '''question_id,theme,paragraph_ids,answers,question
a1,alpha,"[""pa""]","[""Blue whale""]",Which animal is the largest?
b1,beta,"[""pb""]","[""Mount Everest"", ""Everest""]",Which mountain is the highest?
g1,gamma,[],[],What colour is the number seven?
'''
SUBS = {
    "ace": "question_id,paragraph_id,answer,inference_ms\na1,pa,THE BLUE WHALE!,100\nb1,pb,K2,100\ng1,,,100\n",
    "bee": "question_id,paragraph_id,answer,inference_ms\na1,pb,whale,400\nb1,pb,Everest,100\ng1,pa,none,100\n",
    "cat": "question_id,paragraph_id,answer,inference_ms\na1,pa,whale,50\nb1,pb,mount,50\ng1,,,50\n",
}
WEIGHTS = "theme,weight\nalpha,3\nbeta,1\ngamma,1\n"
PARAGRAPHS = ("paragraph_id,theme,text\npa,alpha,The blue whale is the largest animal.\n"
              "pb,beta,Mount Everest is the highest mountain.\n")


def write_qa(folder: Path, subs: dict[str, str] = SUBS, gt: str = GT, weights: str | None = WEIGHTS) -> Path:
    (folder / "submissions").mkdir(parents=True)
    (folder / "ground_truth.csv").write_text(gt)
    for name, text in subs.items():
        (folder / "submissions" / f"{name}.csv").write_text(text)
    if weights is not None:
        (folder / "theme_weights.csv").write_text(weights)
    (folder / "paragraphs.csv").write_text(PARAGRAPHS)
    return folder


@pytest.fixture
def hand(tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_DATA_DIR_QA", str(write_qa(tmp_path / "qa")))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))


@pytest.fixture
def sample(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR_QA", raising=False)


def qa_app(page: str, query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.switch_page(page)
    return rerun(at)


#: a column only that table has (st.dataframe exposes no key to AppTest)
TABLES = {"qa_lb_table": "Rank with equal weights", "qa_lb_weights": "In the weights file",
          "qa_hw_table": "First in", "qa_hw_regions": "Share of the map where first",
          "qa_sp_table": "Gain per 10 ms saved", "qa_q_answers": "Accepted answer", "qa_q_teams": "Right paragraph"}


def frame(at: AppTest, key: str):
    for df in at.dataframe:
        if TABLES[key] in df.value.columns:
            return df.value
    raise AssertionError(f"no table {key}")


def figure(at: AppTest, key: str) -> dict:
    for chart in at.get("plotly_chart"):
        if chart.proto.id and key in chart.proto.id:
            return json.loads(chart.proto.spec)
    raise AssertionError(f"no plotly chart with key {key}")


def takeaway(at: AppTest) -> str:
    """The page's takeaway (the header's callout), as the reader sees it (names in bold)."""
    return plain(at.info[0].value).replace("**", "")


# ---- the sample: its designed story ------------------------------------------------------------
def test_sample_shows_on_first_start_in_the_qa_section(sample):
    at = qa_app(LB)
    assert at.title[0].value == "Leaderboard"
    # the weights file's weights on the sliders (sample_data/qa/theme_weights.csv), their shares noted
    w = {t: at.slider(key=f"qa_weights.{t}").value for t in ("astronomy", "cooking", "lighthouses", "music", "rivers")}
    assert w == pytest.approx({"astronomy": 0.1, "cooking": 0.1, "lighthouses": 0.35, "music": 0.15, "rivers": 0.3})
    assert any("lighthouses 35 %" in plain(c.value) for c in at.sidebar.caption)
    t = frame(at, "qa_lb_table").set_index("Team")
    assert len(t) == 7
    # docs/qa.md §8: loud-caps first under the organisers' weights, steady-state first with equal weights
    assert t.loc["loud-caps", "Rank"] == "1 ▲1" and t.loc["steady-state", "Rank"] == "2 ▼1"
    assert t.loc["quick-skip", "Rank"] == "4" and t.loc["deep-reader", "Rank"] == "6"
    assert t.loc["first-paragraph", "Rank"] == "7"
    assert t.loc["deep-reader", "music · AIT (ms)"] > 600 and t.loc["deep-reader", "music · multiplier"] < 1
    text = takeaway(at)
    assert text.startswith("steady-state wins with equal weights; under the file's weights loud-caps is first")
    assert "although first in only 34 % of random weightings" in text and "steady-state: 59 %" in text
    bump = figure(at, "qa_lb_bump")
    assert {tr["name"]: tr["y"] for tr in bump["data"]}["loud-caps"] == [2, 1]


def test_sample_hidden_weights_story_map_and_its_link(sample):
    at = qa_app(HW)
    text = takeaway(at)
    assert "steady-state (59 %), loud-caps (34 %) and star-gazer (6 %)" in text and "4 of 7 teams are never first" in text
    t = frame(at, "qa_hw_table").set_index("Team")
    assert t.loc["steady-state", "First in"] == pytest.approx(59, abs=1)
    assert t.loc["quick-skip", "Best rank"] == t.loc["quick-skip", "Worst rank"] == 4
    # the first pick: the themes on which the three possible winners differ most (the
    # astronomy specialist's theme, and loud-caps' lighthouses and rivers)
    assert at.multiselect(key="qa_map_themes").value == ["astronomy", "lighthouses", "rivers"]
    fig = figure(at, "qa_hw_map")
    star = next(tr for tr in fig["data"] if tr.get("name") == "Current weights")
    # the current weights of the three themes (0.1, 0.35, 0.3) as shares of 0.75
    assert [star["a"][0], star["b"][0], star["c"][0]] == pytest.approx([0.1 / 0.75, 0.35 / 0.75, 0.3 / 0.75])
    at.multiselect(key="qa_map_themes").set_value(["cooking", "music", "rivers"])
    rerun(at)
    assert at.query_params["themes"] == ["cooking", "music", "rivers"]
    linked = qa_app(HW, {"themes": ["astronomy", "music"]})
    assert linked.multiselect(key="qa_map_themes").value == ["astronomy", "music"]
    assert figure(linked, "qa_hw_map")["data"][0]["type"] == "scatter"  # two themes: a segment


def test_sample_speed_penalty_story(sample):
    at = qa_app(SP)
    text = takeaway(at)
    # docs/qa.md §8: loud-caps is slow on music only; deep-reader (~640 ms) on every theme
    assert "loud-caps on music; deep-reader on every theme" in text
    assert "the most to gain from 10 ms saved is loud-caps's on music" in text
    t = frame(at, "qa_sp_table")
    over = t[t["Over T by (ms)"] > 0]
    assert sorted(set(over["Team"])) == ["deep-reader", "loud-caps"] and len(over) == 6
    at.slider(key="qa_time_threshold").set_value(700.0)  # deep-reader's AIT is about 640 ms
    rerun(at)
    assert "no team is slowed down" in takeaway(at)
    at.switch_page(LB).run()
    assert frame(at, "qa_lb_table").set_index("Team").loc["deep-reader", "Rank"].startswith("1")  # 1st at ≥ 600 ms


# ---- the hand-worked competition -----------------------------------------------------------------
def test_weights_above_the_sliders_start_at_their_shares_and_are_used_as_given(hand):
    at = qa_app(LB)
    assert [at.slider(key=f"qa_weights.{t}").value for t in ("alpha", "beta", "gamma")] == pytest.approx([0.6, 0.2, 0.2])
    assert any("÷ 5" in plain(i.value) for i in at.info)
    t = frame(at, "qa_lb_table").set_index("Team")
    assert list(t.index) == ["ace", "cat", "bee"]
    assert t["Final score"].tolist() == pytest.approx([1.8, 26 / 15, 0.6])
    assert t.loc["ace", "Rank"] == "1 ▲1" and t.loc["cat", "Rank"] == "2 ▼1" and t.loc["bee", "Rank"] == "3"
    assert t.loc["bee", "alpha · accuracy"] == 0 and t.loc["bee", "alpha · F1"] == pytest.approx(2 / 3)
    assert t.loc["bee", "alpha · AIT (ms)"] == 400 and t.loc["bee", "alpha · multiplier"] == 0.5
    assert t.loc["bee", "alpha · score"] == pytest.approx(1 / 3)
    assert "cat wins with equal weights; under the file's weights ace is first" in takeaway(at)

    at.slider(key="qa_weights.beta").set_value(1.0)  # 0.6, 1, 0.2, used as given
    rerun(at)
    t = frame(at, "qa_lb_table").set_index("Team")
    assert t.loc["cat", "Final score"] == pytest.approx(0.6 * 5 / 3 + 5 / 3 + 0.4)
    assert t.loc["ace", "Final score"] == pytest.approx(1.2 + 1 + 0.4)
    assert t.loc["bee", "Final score"] == pytest.approx(0.2 + 2)
    assert t.loc["cat", "Rank"] == "1"
    w = frame(at, "qa_lb_weights").set_index("Theme")
    assert w.loc["beta", "Weight"] == 1.0 and w.loc["beta", "Share"] == pytest.approx(100 / 1.8)
    assert "cat is first both with equal weights and under the current weights" in takeaway(at)
    assert "weights=beta:1" in "&".join(f"weights={v}" for v in at.query_params["weights"])

    for theme in ("alpha", "beta", "gamma"):  # nothing to score: a notice, not an error
        at.slider(key=f"qa_weights.{theme}").set_value(0.0)
    rerun(at)
    assert at.title[0].value == "Leaderboard" and not at.dataframe
    assert any("every theme weight is 0" in plain(e.value) for e in at.error)


def test_link_weights_reset_and_a_visit_to_another_family(hand):
    at = qa_app(LB, {"weights": ["alpha:0.1", "beta:0.5", "gamma:0.4"], "question": "b1"})
    assert [at.slider(key=f"qa_weights.{t}").value for t in ("alpha", "beta", "gamma")] == pytest.approx([0.1, 0.5, 0.4])
    at.slider(key="qa_time_threshold").set_value(500.0)
    rerun(at)
    at.switch_page("pages/efficiency.py").run()  # Streamlit drops the QA widgets' values here
    at.switch_page(HW).run()
    assert at.slider(key="qa_weights.beta").value == pytest.approx(0.5)
    assert at.slider(key="qa_time_threshold").value == 500.0
    at.button(key="qa_reset").click()
    rerun(at)
    assert [at.slider(key=f"qa_weights.{t}").value for t in ("alpha", "beta", "gamma")] == pytest.approx([0.6, 0.2, 0.2])
    assert at.slider(key="qa_time_threshold").value == 200.0 and "question" not in at.query_params


def test_hidden_weights_chances_ranks_and_exact_map(hand):
    at = qa_app(HW)
    t = frame(at, "qa_hw_table").set_index("Team")
    assert t["First in"].to_dict() == pytest.approx({"ace": 100 / 3, "bee": 100 / 35, "cat": 6700 / 105}, abs=2)
    assert t.loc["ace", "Worst rank"] == 3 and t.loc["cat", "Worst rank"] == 2 and t.loc["cat", "Median rank"] == 1
    assert t.loc["bee", "Best rank"] == 1 and t.loc["ace", "Median rank"] == 2
    assert t.loc["ace", "Rank under the current weights"] == 1
    regions = frame(at, "qa_hw_regions").set_index("Team")["Share of the map where first"]
    assert list(regions.index) == ["cat", "ace", "bee"]
    assert regions.to_dict() == pytest.approx({"ace": 100 / 3, "bee": 100 / 35, "cat": 6700 / 105})
    fig = figure(at, "qa_hw_map")
    ace = next(tr for tr in fig["data"] if tr.get("fill") == "toself" and tr["name"].startswith("ace"))
    corners = {(round(a, 9), round(b, 9), round(c, 9)) for a, b, c in zip(ace["a"], ace["b"], ace["c"], strict=True)}
    assert corners == {(1, 0, 0), (round(2 / 3, 9), round(1 / 3, 9), 0), (0, 0, 1)}
    star = next(tr for tr in fig["data"] if tr.get("name") == "Current weights")
    assert [star["a"][0], star["b"][0], star["c"][0]] == pytest.approx([0.6, 0.2, 0.2])
    assert fig["layout"]["ternary"]["aaxis"]["title"]["text"] == "alpha"


def test_speed_penalty_gain_by_hand(hand):
    at = qa_app(SP)
    t = frame(at, "qa_sp_table").set_index(["Team", "Theme"])
    # bee's alpha: w 0.6 × (0 + 2/3) × (200/390 − 200/400) = 0.4 / 78
    assert t.loc[("bee", "alpha"), "Gain per 10 ms saved"] == pytest.approx(0.4 / 78)
    assert t.loc[("bee", "alpha"), "Over T by (ms)"] == 200 and t.loc[("bee", "alpha"), "Multiplier"] == 0.5
    assert t["Gain per 10 ms saved"].drop(("bee", "alpha")).abs().max() == 0
    assert "1 team–theme average is over the threshold (bee on alpha)" in takeaway(at)
    assert "+0.0051 final score" in takeaway(at)
    fig = figure(at, "qa_sp_ait")
    assert any(a["text"] == "threshold T = 200 ms" for a in fig["layout"]["annotations"])
    at.slider(key="qa_time_threshold").set_value(400.0)  # AIT = T: multiplier 1 (docs/qa.md §7.9)
    rerun(at)
    assert "no team is slowed down" in takeaway(at)


def test_questions_page_tokens_f1_paragraphs_and_link(hand):
    at = qa_app(QS)
    assert at.selectbox(key="qa_question").value == "a1"
    assert takeaway(at) == ("On this question 2 of 3 teams name a right paragraph; 1 of 3 answers score F1 = 1, "
                            "only after normalisation.")  # ace's "THE BLUE WHALE!"
    assert any("The blue whale is the largest animal." in plain(m.value) for m in at.markdown)
    acc = frame(at, "qa_q_answers")
    assert list(acc["Tokens after normalisation"].iloc[0]) == ["blue", "whale"]
    t = frame(at, "qa_q_teams").set_index("Team")
    assert list(t.loc["ace", "Tokens after normalisation"]) == ["blue", "whale"] and t.loc["ace", "F1"] == 1
    assert t.loc["bee", "F1"] == pytest.approx(2 / 3) and t.loc["bee", "Right paragraph"] == "no"

    at.selectbox(key="qa_question").set_value("g1")
    rerun(at)
    assert at.query_params["question"] == "g1"
    assert takeaway(at).startswith("On this question no paragraph answers it, and 2 of 3 teams say so")

    linked = qa_app(QS, {"question": "b1"})
    t = frame(linked, "qa_q_teams").set_index("Team")
    assert t.loc["bee", "F1 vs answer 1"] == pytest.approx(2 / 3) and t.loc["bee", "F1 vs answer 2"] == 1
    assert t.loc["cat", "F1"] == pytest.approx(2 / 3)
    unknown = qa_app(QS, {"question": "nope"})
    assert unknown.selectbox(key="qa_question").value == "a1" and "question" not in unknown.query_params


def test_upload_on_the_data_page_with_paragraph_texts(hand):
    at = qa_app(LB)
    at.switch_page(DATA).run()
    assert at.selectbox(key="data_family").value == "qa"
    up = [("truth.csv", GT), ("paragraphs.csv", PARAGRAPHS.replace("largest animal", "largest animal alive"))]
    at.file_uploader(key="data_qa_ground_truth").set_value((up[0][0], up[0][1].encode(), "text/csv"))
    at.file_uploader(key="data_qa_paragraphs").set_value((up[1][0], up[1][1].encode(), "text/csv"))
    at.file_uploader(key="data_qa_submissions").set_value(
        [(f"{n}.csv", s.encode(), "text/csv") for n, s in SUBS.items() if n != "bee"])
    rerun(at)
    at.button(key="data_qa_load").click()
    rerun(at)
    assert any("Loaded 4 files" in plain(s.value) for s in at.success)  # truth, paragraphs, 2 teams
    at.switch_page(QS).run()
    assert any("largest animal alive" in plain(m.value) for m in at.markdown)  # the uploaded text
    assert list(frame(at, "qa_q_teams")["Team"]) == ["ace", "cat"]
    at.switch_page(LB).run()  # no weights file: equal weights, cat first
    assert [at.slider(key=f"qa_weights.{t}").value for t in ("alpha", "beta", "gamma")] == pytest.approx([1 / 3] * 3)
    assert takeaway(at).startswith("cat is first with equal weights")


def test_user_strings_reach_the_pages_as_text(tmp_path, monkeypatch):
    evil_team, evil_theme = "[win](evil.example)", "<b>beta</b>"  # a team name is a file name: no slash
    subs = {evil_team if n == "bee" else n: s for n, s in SUBS.items()}
    folder = write_qa(tmp_path / "qa", subs, GT.replace(",beta,", f",{evil_theme},"),
                      WEIGHTS.replace("beta", evil_theme))
    monkeypatch.setenv("LAB_DATA_DIR_QA", str(folder))
    at = qa_app(SP)
    raw = at.info[0].value
    assert "\\[win\\]\\(evil\\.example\\)" in raw and "](evil" not in raw  # escaped: no link
    ait = figure(at, "qa_sp_ait")
    assert "&lt;b&gt;beta&lt;/b&gt;" in [tr["name"] for tr in ait["data"]]
    assert all("<b>beta" not in str(tr.get("name")) for tr in ait["data"])
    at.switch_page(HW).run()
    fig = figure(at, "qa_hw_map")
    assert fig["layout"]["ternary"]["aaxis"]["title"]["text"] == "&lt;b&gt;beta&lt;/b&gt;"  # "<" sorts first
    assert not re.search(r"<b>beta", json.dumps(fig))


def test_the_speed_charts_log_axis_labels_its_ticks_in_full():
    """Times 20 ms to 3 s (a log axis): ticks at 1, 2 and 5 of each decade, labelled "200",
    not plotly's bare minor digit "2" — the threshold T = 200 ms must read as 200."""
    import pandas as pd

    from lab.charts import qa as qa_charts

    sp = pd.DataFrame({"submission": ["a", "a", "b", "b"], "theme": ["x", "y", "x", "y"],
                       "ait_ms": [20.0, 250.0, 900.0, 3000.0], "over_ms": [0.0, 50.0, 700.0, 2800.0],
                       "multiplier": [1.0, 0.9, 0.5, 0.2]})
    fig = qa_charts.ait_chart(sp, ["a", "b"], {"x": "#111111", "y": "#222222"}, 200.0)
    ax = fig.layout.xaxis
    assert ax.type == "log"
    ticks = dict(zip(ax.tickvals, ax.ticktext, strict=True))
    assert ticks[200.0] == "200" and ticks[1000.0] == "1,000" and ticks[20.0] == "20"
    assert min(ticks) >= 20 / 1.2 and max(ticks) <= 3000 * 1.2

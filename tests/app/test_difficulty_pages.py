"""The difficulty-weighted pages (Leaderboard, Splits, Samples, Weights) in AppTest: on the real
SST-2 and IMDb data (the spec's §4 figures, and counts taken straight from the CSV files with
pandas), and on a six-sample competition worked out by hand below.

The hand-worked competition: samples s1 … s6 with bias E = 0.9, 0.8, 0.6, 0.4, 0.2, 0.0 (labels
1, 0, 1, 0, 1, 0). Two equal splits: split 1 = s1–s3, split 2 = s4–s6, weights b = 1, 2;
case 1 (d = 1, e = −1); the denominator Σ d·W = 3·1 + 3·2 = 9.

=====================  ================  ========  ==================================  =======
model                  wrong on          accuracy  Σ K·W                               score
=====================  ================  ========  ==================================  =======
good                   s1                5/6       −1 + 1 + 1 + 2 + 2 + 2 = 7           77.778
[win](evil.example)    s5, s6            4/6       1 + 1 + 1 + 2 − 2 − 2 = 1            11.111
<b>hard</b>            s1, s2, s3        3/6       −1 − 1 − 1 + 2 + 2 + 2 = 3           33.333
=====================  ================  ========  ==================================  =======

Split-wise: good 100·1/3 = 33.333 and 100; win 100 and 100·(2 − 4)/6 = −33.333; hard −100 and 100.
So accuracy ranks good, win, hard; the score ranks good, hard, win: hard gains a place, win loses
one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, TIMEOUT, plain, rerun

LB, SP, SM, WT, DATA = (f"pages/{p}.py" for p in ("difficulty_leaderboard", "difficulty_splits",
                                                    "difficulty_samples", "difficulty_weights", "data"))
INTERVALS, COMPARE = "pages/robustness_intervals.py", "pages/robustness_compare.py"
ROOT = Path(__file__).resolve().parents[2] / "sample_data" / "difficulty"
#: the paper's Table 8, ascending (spec §4)
TABLE_8 = ["glove-sum", "bow-sum", "word2vec-sum", "word2vec-lstm", "glove-cnn", "word2vec-cnn", "glove-lstm",
           "roberta-large", "bert-large", "bert-base"]
WIN, HARD = "[win](evil.example)", "<b>hard</b>"
SAMPLES = """sample_id,label,text,bias
s1,1,"<b>bold</b> and [a link](http://evil.example)",0.9
s2,0,plain words,0.8
s3,1,line<br />break,0.6
s4,0,four,0.4
s5,1,five,0.2
s6,0,six,0.0
"""
GOLD = {"s1": "1", "s2": "0", "s3": "1", "s4": "0", "s5": "1", "s6": "0"}
WRONG = {"good": {"s1"}, WIN: {"s5", "s6"}, HARD: {"s1", "s2", "s3"}}


def predictions() -> str:
    rows = ["model,sample_id,p0,p1,predicted"]
    for model, wrong in WRONG.items():
        for s, g in GOLD.items():
            pred = g if s not in wrong else str(1 - int(g))
            p1 = 0.8 if pred == "1" else 0.3
            rows.append(f'"{model}",{s},{1 - p1:.1f},{p1:.1f},{pred}')
    return "\n".join(rows) + "\n"


@pytest.fixture
def hand(tmp_path, monkeypatch):
    folder = tmp_path / "hand"
    folder.mkdir()
    (folder / "samples.csv").write_text(SAMPLES)
    (folder / "predictions.csv").write_text(predictions())
    monkeypatch.setenv("LAB_DATA_DIR_DIFFICULTY", str(folder))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))
    return folder


@pytest.fixture
def sample(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR_DIFFICULTY", raising=False)


def open_page(page: str, query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.switch_page(page)
    return rerun(at)


def go(at: AppTest, page: str) -> AppTest:
    at.switch_page(page)
    return rerun(at)


def table(at: AppTest, column: str) -> pd.DataFrame:
    """The first table with ``column`` (st.dataframe exposes no key to AppTest)."""
    for d in at.dataframe:
        if column in d.value.columns:
            return d.value
    raise AssertionError(f"no table with a column {column!r}")


def figure(at: AppTest, key: str) -> dict:
    for chart in at.get("plotly_chart"):
        if chart.proto.id and key in chart.proto.id:
            return json.loads(chart.proto.spec)
    raise AssertionError(f"no plotly chart with key {key}")


def takeaway(at: AppTest) -> str:
    """The page's takeaway: the header's callout (lab.view.current.header); on a page whose settings
    cannot be scored, the header's sentence that says why."""
    return plain((at.info or at.markdown)[0].value).replace("**", "")


def real_accuracy(dataset: str) -> pd.Series:
    """Each model's accuracy straight from the CSV files (a 'predicted' that is not a label is wrong)."""
    s = pd.read_csv(ROOT / dataset / "samples.csv", dtype=str)
    p = pd.read_csv(ROOT / dataset / "predictions.csv", dtype=str)
    p = p.merge(s[["sample_id", "label"]], on="sample_id")
    return (p["predicted"] == p["label"]).groupby(p["model"]).mean()


def missed_by_all(dataset: str) -> int:
    s = pd.read_csv(ROOT / dataset / "samples.csv", dtype=str)
    p = pd.read_csv(ROOT / dataset / "predictions.csv", dtype=str).merge(s[["sample_id", "label"]], on="sample_id")
    return int((~(p["predicted"] == p["label"]).groupby(p["sample_id"]).any()).sum())


# ---- the real data ------------------------------------------------------------------------------
def test_sst2_on_first_start_spec_figures_and_the_split_count(sample):
    at = open_page(LB)
    assert at.title[0].value == "Leaderboard"
    assert at.selectbox(key="df_dataset").value == "sst-2"
    t = table(at, "Accuracy rank").set_index("Model")
    # spec §4: WMProb, 7 equal splits, linear, case 1: bert-base 68.868, Table 8's order
    assert t.loc["bert-base", "Score"] == pytest.approx(68.868, abs=5e-4)
    assert t.sort_values("Score").index.tolist() == TABLE_8
    acc = real_accuracy("sst-2")
    assert t["Accuracy"].to_dict() == pytest.approx((acc * 100).to_dict())
    assert acc["bert-base"] == pytest.approx(0.8933, abs=5e-5)
    # who moves: the accuracy order (from the CSV) against Table 8's
    by_acc = acc.sort_values(ascending=False).index.tolist()
    new = TABLE_8[::-1]
    moved = {m: by_acc.index(m) - new.index(m) for m in new if by_acc.index(m) != new.index(m)}
    assert moved == {"bow-sum": 1, "glove-sum": -1}
    assert takeaway(at) == ("bert-base stays first; bow-sum gains 1 place over plain accuracy and glove-sum loses 1 "
                            "place (2 of 10 models move).")
    assert t.loc["bow-sum", "Rank"] == "9 ▲1" and t.loc["glove-sum", "Rank"] == "10 ▼1"
    mlc = figure(at, "df_lb_mlc")
    red = [tr for tr in mlc["data"] if tr["name"] == "rank changed"]
    assert sorted(tr["y"][0] for tr in red) == pytest.approx(sorted(t.loc[["bow-sum", "glove-sum"], "Score"]))
    assert any("WMProb" in plain(i.value) and "reverse" in i.value for i in at.info)  # its direction, said

    for n, score in ((5, 70.149), (2, 73.089)):  # spec §4
        at.slider(key="df_splits").set_value(n)
        rerun(at)
        t = table(at, "Accuracy rank").set_index("Model")
        assert t.loc["bert-base", "Score"] == pytest.approx(score, abs=5e-4)
        assert t.sort_values("Score").index.tolist() == TABLE_8
        assert [c for c in t.columns if c.startswith("Split")] == [f"Split {i}" for i in range(1, n + 1)]
        assert at.query_params["splits"] == str(n)


def test_table_1_cases_set_reward_and_penalty(sample):
    # case 1 scores S = 100·(R − W)/T with R, W the weight of right and wrong samples, T = R + W.
    # Case 3 (0, −1) divides −W by |e|·T: (S − 100)/2; case 2 (1, 0): R/T = (S + 100)/2.
    at = open_page(LB)
    assert "Active: case 1 (reward = penalty: d = 1, e = −1)." in [plain(m.value) for m in at.markdown]
    at.selectbox(key="df_case").set_value("3")
    rerun(at)
    assert at.slider(key="df_reward").value == 0.0 and at.slider(key="df_penalty").value == -1.0
    assert "Active: case 3 (penalty only: d = 0, e = −1)." in [plain(m.value) for m in at.markdown]
    t = table(at, "Accuracy rank").set_index("Model")
    assert t.loc["bert-base", "Score"] == pytest.approx((68.868 - 100) / 2, abs=5e-4)
    at.selectbox(key="df_case").set_value("2")
    rerun(at)
    assert table(at, "Accuracy rank").set_index("Model").loc["bert-base", "Score"] == pytest.approx(
        (68.868 + 100) / 2, abs=5e-4)
    at.slider(key="df_reward").set_value(0.8)
    rerun(at)
    assert at.selectbox(key="df_case").value == "custom"
    assert any("a custom setting" in plain(m.value) for m in at.markdown)

    go(at, WT)  # every case side by side, whatever the sliders say
    side = table(at, "Case 1 · rank").set_index("Model")
    assert side.loc["bert-base", ["Case 1", "Case 2", "Case 3"]].tolist() == pytest.approx(
        [68.868, (68.868 + 100) / 2, (68.868 - 100) / 2], abs=5e-4)

    go(at, LB)
    at.selectbox(key="df_case").set_value("6/7")  # continuous weights: no splits anywhere
    rerun(at)
    assert at.selectbox(key="df_split_mode").value == "continuous"
    assert at.slider(key="df_splits").disabled and at.selectbox(key="df_weights").disabled
    assert "Active: case 7 (continuous weights W = E: d = 1, e = −1)." in [plain(m.value) for m in at.markdown]
    assert not [c for c in table(at, "Accuracy rank").columns if c.startswith("Split")]
    for page in (SP, SM, WT):
        go(at, page)
    assert any("no split weights" in plain(i.value) for i in at.info)


def test_imdb_from_the_sidebar_and_from_a_link(sample):
    at = open_page(LB)
    # the default is named as the dataset it is, as IMDb is (not a bare "sample data")
    assert any("Data: SST-2 sample data" in plain(c.value) for c in at.sidebar.caption)
    at.selectbox(key="df_dataset").set_value("imdb")
    rerun(at)
    acc = real_accuracy("imdb")
    t = table(at, "Accuracy rank").set_index("Model")
    assert t["Accuracy"].to_dict() == pytest.approx((acc * 100).to_dict())
    assert t.index[0] == acc.idxmax() == "roberta-large"
    assert at.query_params["dataset"] == "imdb" and "data" not in at.query_params
    entry = at.session_state["_df_data"]  # store.use_folder: the shipped folder, not an upload
    assert entry.folder.name == "imdb" and entry.is_default and entry.label == "IMDb sample data"
    assert any("IMDb sample data" in plain(c.value) for c in at.sidebar.caption)
    strip = [plain(m.value) for m in at.markdown][0:6]  # the settings strip, under the takeaway (a callout)
    assert strip[:2] == [":gray[Data]  \n**IMDb**", ":gray[Metric]  \n**WMProb**"]
    go(at, SM)  # IMDb's texts hold <br /> tags: text in the hover, never markup
    hover = [h for tr in figure(at, "df_sm_swarm")["data"] for h in tr.get("hovertext") or []]
    assert any("&lt;br /&gt;" in h for h in hover) and not any("<br />" in h for h in hover)
    assert takeaway(at).startswith(f"{missed_by_all('imdb')} of 872 samples are missed by every model")

    linked = open_page(LB, {"dataset": "imdb", "splits": "3"})  # a shared link: IMDb on the first visit
    assert linked.selectbox(key="df_dataset").value == "imdb" and linked.slider(key="df_splits").value == 3
    assert linked.session_state["_df_data"] is entry  # loaded once, shared by every session that picks it
    assert table(linked, "Accuracy rank")["Accuracy"].max() == pytest.approx(acc.max() * 100)
    linked.selectbox(key="df_dataset").set_value("sst-2")
    rerun(linked)
    assert table(linked, "Accuracy rank").set_index("Model").loc["bert-base", "Accuracy"] == pytest.approx(
        real_accuracy("sst-2")["bert-base"] * 100)
    assert linked.query_params["dataset"] == "sst-2"


def test_splits_samples_and_weights_on_sst2(sample):
    at = open_page(SP)
    lines = {tr["name"]: tr for tr in figure(at, "df_sp_lines")["data"]}
    assert sorted(lines) == sorted(TABLE_8)
    assert lines["bert-base"]["x"] == [f"Split {i}" for i in range(1, 8)] + ["Score"]
    assert lines["bert-base"]["y"][-1] == pytest.approx(68.868, abs=5e-4)  # spec §4: its score, the last point
    # the parallel coordinates (WebGL) only once their expander is opened, with the same numbers
    assert not [c for c in at.get("plotly_chart") if "df_sp_parcoords" in c.proto.id]
    at.session_state["df_sp_brush"] = True
    rerun(at)
    pc = figure(at, "df_sp_parcoords")["data"][0]
    assert [d["label"] for d in pc["dimensions"]] == ["Model"] + [f"Split {i}" for i in range(1, 8)] + ["Score"]
    row = pc["dimensions"][0]["ticktext"].index("bert-base")
    assert [d["values"][row] for d in pc["dimensions"][1:]] == pytest.approx(lines["bert-base"]["y"])
    # one sunburst at first, the leader's (bert-base); every model's only once the expander is opened
    assert at.selectbox(key="df_sp_model").value == "bert-base"
    assert [tr["name"] for tr in figure(at, "df_sp_one_sunburst")["data"]] == ["bert-base"]
    assert not [c for c in at.get("plotly_chart") if "df_sp_sunbursts" in c.proto.id]
    at.session_state["df_sp_all"] = True  # what opening the expander does (on_change="rerun")
    rerun(at)
    sb = figure(at, "df_sp_sunbursts")["data"]
    assert sorted(tr["name"] for tr in sb) == sorted(TABLE_8)
    bert = next(tr for tr in sb if tr["name"] == "bert-base")
    alone = figure(at, "df_sp_one_sunburst")["data"][0]
    for ring in ("ids", "parents", "values", "hovertext"):  # the same rings, picked or side by side
        assert bert[ring] == alone[ring]
    inner = [v for v, parent in zip(bert["values"], bert["parents"], strict=True) if parent == ""]
    right = [v for v, i in zip(bert["values"], bert["ids"], strict=True) if i.endswith("/r")]
    assert inner == [125] * 4 + [124] * 3  # 872 = 7·124 + 4: the four larger splits first
    assert sum(right) == round(real_accuracy("sst-2")["bert-base"] * 872) == 779
    at.selectbox(key="df_sp_model").set_value("glove-sum")  # the picker draws another model's alone
    rerun(at)
    glove = figure(at, "df_sp_one_sunburst")["data"]
    assert [tr["name"] for tr in glove] == ["glove-sum"]
    right = [v for v, i in zip(glove[0]["values"], glove[0]["ids"], strict=True) if i.endswith("/r")]
    assert sum(right) == round(real_accuracy("sst-2")["glove-sum"] * 872)

    go(at, SM)
    swarm = figure(at, "df_sm_swarm")["data"]
    assert sum(len(tr["x"]) for tr in swarm if tr["x"] != [None]) == 1000  # 1,000 dots: 100 samples × 10 models
    assert any("Showing 100 of 872 samples" in plain(c.value) for c in at.caption)
    at.select_slider(key="df_sm_points").set_value(3_000)  # more dots on demand
    rerun(at)
    swarm = figure(at, "df_sm_swarm")["data"]
    assert sum(len(tr["x"]) for tr in swarm if tr["x"] != [None]) == 3000  # 300 samples × 10 models
    assert any("Showing 300 of 872 samples" in plain(c.value) for c in at.caption)
    all_missed = missed_by_all("sst-2")
    assert takeaway(at).startswith(f"{all_missed} of 872 samples are missed by every model")
    hard = table(at, "Missed by")
    assert (hard["Missed by"].head(all_missed) == "10 of 10").all() and hard["Missed by"].iloc[all_missed] != "10 of 10"
    first = hard["Sample"].iloc[0]
    assert at.selectbox(key="df_sample").value == first
    at.selectbox(key="df_sample").set_value("1")
    rerun(at)
    assert at.query_params["sample"] == "1"
    assert any("unflinchingly bleak and desperate" in plain(m.value) for m in at.markdown)  # samples.csv, id 1

    go(at, WT)
    w = table(at, "Share of the attainable score")
    # linear weights 1..7 over 125, 125, 125, 125, 124, 124, 124 samples: split 7 holds 7·124 / 3482
    assert w["Weight"].tolist() == [1, 2, 3, 4, 5, 6, 7]
    assert w["Share of the attainable score"].iloc[-1] == f"{7 * 124 / 3482:.1%}"
    assert "holds 25% of the attainable score" in takeaway(at)


# ---- the hand-worked competition --------------------------------------------------------------------
def test_hand_scores_takeaway_and_user_strings_as_text(hand):
    at = open_page(LB, {"metric": "wsbias", "ease_column": "bias", "splits": "2"})
    assert at.selectbox(key="df_dataset").value == "default"
    t = table(at, "Accuracy rank").set_index("Model")
    assert t["Score"].to_dict() == pytest.approx({"good": 700 / 9, WIN: 100 / 9, HARD: 300 / 9})
    assert t.loc[WIN, "Split 2"] == pytest.approx(-100 / 3) and t.loc[HARD, "Split 1"] == pytest.approx(-100)
    assert t.loc[HARD, "Rank"] == "2 ▲1" and t.loc[WIN, "Rank"] == "3 ▼1"
    assert takeaway(at) == (f"good stays first; {HARD} gains 1 place over plain accuracy and {WIN} loses 1 place "
                            "(2 of 3 models move).")
    raw = at.info[0].value
    assert "\\[win\\]\\(evil\\.example\\)" in raw and "](evil" not in raw and "<b>" not in raw
    assert all(tr["name"] != HARD for tr in figure(at, "df_lb_mlc")["data"])
    assert any(tr["name"] == "&lt;b&gt;hard&lt;/b&gt;" for tr in figure(at, "df_lb_mlc")["data"])

    go(at, SP)
    lines = figure(at, "df_sp_lines")["data"]
    assert [tr["name"] for tr in lines] == ["good", "&lt;b&gt;hard&lt;/b&gt;", "[win](evil.example)"]
    # the docstring's split-wise scores, then the score
    for tr, ys in zip(lines, ([100 / 3, 100, 700 / 9], [-100, 100, 300 / 9], [100, -100 / 3, 100 / 9]), strict=True):
        assert tr["y"] == pytest.approx(ys)
    at.session_state["df_sp_brush"] = True
    rerun(at)
    pc = figure(at, "df_sp_parcoords")["data"][0]
    assert pc["dimensions"][0]["ticktext"] == ["good", "&lt;b&gt;hard&lt;/b&gt;", "[win](evil.example)"]
    assert pc["dimensions"][1]["values"] == pytest.approx([100 / 3, -100, 100])
    go(at, SM)
    hover = "".join(h for tr in figure(at, "df_sm_swarm")["data"] for h in tr.get("hovertext") or [])
    assert "&lt;b&gt;bold&lt;/b&gt;" in hover and "<b>bold" not in hover and "line&lt;br /&gt;break" in hover
    # s1 (label 1): good and hard say 0, win says 1
    assert f"Right: {WIN}; the other 2 are wrong, all saying 0." in hover
    # the sample most models miss (s1: 2 of 3) opens in full, as text
    one = next(m.value for m in at.markdown if m.value.startswith("**Label"))
    assert "\\<b\\>bold" in one and "\\[a link\\]" in one and "[a link](http" not in one
    assert "<b>bold</b> and [a link](http://evil.example)" in plain(one).replace("\u2060", "")


def test_hand_continuous_and_thresholds(hand):
    # continuous (case 6): each sample weighs 1/max(E, 0.01) = 10/9, 5/4, 5/3, 5/2, 5, 100; good misses s1
    w = [10 / 9, 5 / 4, 5 / 3, 5 / 2, 5, 100]
    at = open_page(LB, {"metric": "wsbias", "ease_column": "bias", "split_mode": "continuous"})
    t = table(at, "Accuracy rank").set_index("Model")
    assert t.loc["good", "Score"] == pytest.approx(100 * (sum(w) - 2 * w[0]) / sum(w))
    assert t.loc[WIN, "Score"] == pytest.approx(100 * (sum(w) - 2 * (w[4] + w[5])) / sum(w))
    assert "Active: case 6 (continuous weights W = 1/max(E, 0.01): d = 1, e = −1)." in [plain(m.value) for m in at.markdown]
    at.selectbox(key="df_split_mode").set_value("threshold")
    rerun(at)
    assert any("Thresholds i/n now: 0.143, 0.286" in plain(c.value) for c in at.sidebar.caption)
    at.text_input(key="df_thresholds").set_value("0.5")  # split 1: E > 0.5 (s1–s3), split 2: E ≤ 0.5
    rerun(at)
    assert at.slider(key="df_splits").disabled
    t = table(at, "Accuracy rank").set_index("Model")
    assert t["Score"].to_dict() == pytest.approx({"good": 700 / 9, WIN: 100 / 9, HARD: 300 / 9})
    assert at.query_params["thresholds"] == "0.5"
    # above every E: split 1 is empty and split 2 holds all six samples (b = 2 each), so a score is
    # 100·(right − wrong)/6: good 4/6, win 2/6, hard 0
    at.text_input(key="df_thresholds").set_value("0.95")
    rerun(at)
    assert table(at, "Accuracy rank")["Score"].tolist() == pytest.approx([200 / 3, 100 / 3, 0])
    go(at, SP)
    assert takeaway(at) == ("good scores 66.7 on split 2, the easiest with samples and 66.7 on the hardest split; "
                            "the models differ most on split 2 (from 0.0 to 66.7).")
    assert figure(at, "df_sp_lines")["data"][0]["x"] == ["Split 2", "Score"]
    at.session_state["df_sp_brush"] = True
    rerun(at)
    assert [d["label"] for d in figure(at, "df_sp_parcoords")["data"][0]["dimensions"]] == ["Model", "Split 2", "Score"]
    go(at, LB)
    at.text_input(key="df_thresholds").set_value("0.5,0.2")  # not increasing: said, not raised
    rerun(at)
    error = plain(at.main.error[0].value)  # the page's own error, styled, naming the field
    assert "cannot be scored" in error and "increasing" in error and "Change **Thresholds** in the sidebar" in error
    assert not at.dataframe
    at.text_input(key="df_thresholds").set_value("")
    at.slider(key="df_reward").set_value(0.0)
    at.slider(key="df_penalty").set_value(0.0)  # nothing earned or lost: no score, said
    rerun(at)
    assert "reward 0 and penalty 0" in plain(at.main.error[0].value) and not at.dataframe


def test_upload_on_the_data_page_then_back_to_a_shipped_dataset(hand):
    at = open_page(LB)
    go(at, DATA)
    assert at.selectbox(key="data_family").value == "difficulty"
    at.file_uploader(key="data_df_samples").set_value(("s.csv", SAMPLES.encode(), "text/csv"))
    at.file_uploader(key="data_df_predictions").set_value(
        ("p.csv", predictions().replace(f'"{WIN}"', "plain").encode(), "text/csv"))
    rerun(at)
    at.button(key="data_df_load").click()
    rerun(at)
    assert any("Loaded 2 files: 3 models, 6 samples" in plain(s.value) for s in at.success)
    go(at, LB)
    assert at.selectbox(key="df_dataset").value is None  # an upload: none of the shipped datasets
    assert "dataset" not in at.query_params and at.query_params["data"].startswith("df-")
    t = table(at, "Accuracy rank").set_index("Model")
    assert t["Accuracy"].to_dict() == pytest.approx({"good": 500 / 6, "plain": 400 / 6, HARD: 300 / 6})
    at.selectbox(key="df_dataset").set_value("sst-2")
    rerun(at)
    assert "data" not in at.query_params and len(table(at, "Accuracy rank")) == 10


def test_robustness_pages_score_what_the_pages_score(hand):
    # continuous weights: the sidebar still holds 7 splits and linear weights, which the engine
    # refuses in that mode; the family's repair leaves them out for every page
    at = open_page(LB, {"metric": "wsbias", "ease_column": "bias", "split_mode": "continuous"})
    go(at, INTERVALS)
    ranks = table(at, "Letters").set_index("Team")["Rank"]
    assert ranks.to_dict() == {"good": 1, WIN: 3, HARD: 2}  # 100·(Σw − 2·Σw wrong)/Σw: good 98.0, hard 92.8, win −88.3
    go(at, COMPARE)
    at.button(key="rob_cmp_pin").click()
    rerun(at)
    at.slider(key="df_penalty").set_value(0.0)  # B: reward only
    rerun(at)
    at.button(key="rob_cmp_back").click()  # A again, in the sidebar: no split count to put there
    rerun(at)
    assert at.slider(key="df_penalty").value == -1.0 and at.slider(key="df_splits").value == 7
    assert at.selectbox(key="df_split_mode").value == "continuous"


def test_the_parallel_chart_has_one_label_per_tick_and_a_rounded_score_axis():
    import pandas as pd

    from lab.charts import difficulty as dcharts

    lb = pd.DataFrame({"submission": ["a", "b"], "split_1": [-17.7, 55.0], "split_2": [100.0, 40.0],
                       "score": [68.868, 38.311]})
    fig = dcharts.parallel(lb, ["split_1", "split_2"], {"a": "#111111", "b": "#222222"})
    for dim in fig.data[0].dimensions[1:3]:
        assert list(dim.range) == [-20.0, 100.0]  # the data's range, out to tens
        assert dim.tickvals[0] == -20.0 and dim.tickvals[-1] == 100.0
        assert len(set(dim.ticktext)) == len(dim.ticktext) == len(dim.tickvals)  # no end label twice
    assert fig.data[0].dimensions[-1].tickformat == ".1f"



def test_an_ease_column_with_no_value_is_said_on_every_page(tmp_path, monkeypatch):
    """Issue 31: an ease column empty in every row gave NaN scores all ranked 1 (the engine now
    refuses it; the pages say so in words, no exception)."""
    lines = SAMPLES.strip().splitlines()
    folder = tmp_path / "blank"
    folder.mkdir()
    (folder / "samples.csv").write_text("\n".join([lines[0] + ",blank", *(line + "," for line in lines[1:])]) + "\n")
    (folder / "predictions.csv").write_text(predictions())
    monkeypatch.setenv("LAB_DATA_DIR_DIFFICULTY", str(folder))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))
    at = open_page(LB, {"metric": "wsbias", "ease_column": "blank"})
    assert at.selectbox(key="df_ease_column").value == "blank"
    for page in (LB, SP, SM, WT):
        go(at, page)
        assert not at.exception
        text = plain(at.main.error[0].value)
        assert "cannot be scored" in text and "'blank' is empty in every row" in text, (page, text)
        assert not at.dataframe

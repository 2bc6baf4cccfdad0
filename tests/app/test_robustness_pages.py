"""The "How sure is the ranking?" pages on the hand-worked competition (tests/app/helpers.py)."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, TIMEOUT, figure, plain, rerun, table_with

INTERVALS, STABILITY, COMPARE = "pages/robustness_intervals.py", "pages/robustness_stability.py", \
    "pages/robustness_compare.py"


def _open(page: str, query: dict | None = None) -> AppTest:
    """A link to ``page`` opened at its address (a link's keys are its page's: another page's
    first run would take them out of the address)."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.switch_page(page)
    return rerun(at)


def test_intervals_who_could_have_won_sets_letters_and_warnings(core_dir):
    at = _open(INTERVALS)
    t = table_with(at, "Letters").set_index("Team")
    assert set(t.index) == {"A", "B", "C"}
    for team, row in t.iterrows():
        assert row["Best possible rank"] <= row["Rank"] <= row["Worst possible rank"], team
        # one essay per group: every replicate is the data itself, so the interval is the score
        assert row["Low"] == pytest.approx(row["Final score"]) and row["High"] == pytest.approx(row["Final score"]), team
    # the lead: who could have won, then the top k, before the table
    text = [plain(m.value).replace("**", "") for m in at.markdown]
    lead = next(i for i, m in enumerate(text) if "could have won" in m)
    assert any("Could be in the top 3" in m for m in text[lead:])
    won = [str(x) for x in t.index[t["Could have won"]]]
    assert won and all(w in text[lead] for w in won)
    # two essays, one per group at α = 50: every group is tiny -> the small-group warning names them
    assert any("fewer than 30 essays" in plain(w.value) or "has only 1 essay" in plain(w.value) for w in at.warning)
    # ... and beside the table, what the simulation measured for score intervals with a group that small, and the
    # words for the interval (the range of the softmin over the groups' joint band)
    assert any(plain(w.value).startswith("The smallest group has 1 essay: in a simulation with a 20-essay group")
               for w in at.warning)
    assert any("lowest to the highest bias-aware score" in plain(m.value) for m in at.markdown)
    fig = figure(at, "rob_iv_chart")
    drawn = next(tr for tr in fig["data"] if tr.get("name") == "letters")
    assert dict(zip(drawn["y"], drawn["text"], strict=True)) == t["Letters"].to_dict()  # each team's, on its row
    # a few traces (per colour), not five per team; rows in rank order; every team's interval drawn on its row
    assert len(fig["data"]) <= 2 * len(t) + 3
    order = t.sort_values(["Rank", "Final score"], ascending=[True, False]).index.tolist()
    assert fig["layout"]["yaxis"]["categoryarray"] == order
    bars = [tr for tr in fig["data"] if tr.get("name") == "interval"]
    ends = {y: x for tr in bars for x, y in zip(zip(tr["x"][::3], tr["x"][1::3], strict=True),
                                                              tr["y"][::3], strict=True)}
    assert ends == {team: (row["Low"], row["High"]) for team, row in t.iterrows()}
    shaded = [s for s in fig["layout"].get("shapes", []) if s["type"] == "rect"]
    assert len(shaded) == int(t["Could have won"].sum())
    at.toggle(key="rob_simultaneous").set_value(True)
    rerun(at)
    wide = table_with(at, "Letters").set_index("Team")
    assert (wide["Best possible rank"] <= t.loc[wide.index, "Best possible rank"]).all()
    assert (wide["Worst possible rank"] >= t.loc[wide.index, "Worst possible rank"]).all()
    at.select_slider(key="rob_b").set_value(200)
    at.number_input(key="rob_seed").set_value(3)
    rerun(at)
    assert not at.exception


def test_compare_from_a_link_holding_both_settings(core_dir):
    # A: overlap removal on (C, A, B); B (the sidebar): off -> C's duplicate becomes a false positive
    # (segment score 0.8 < A's 8/9): C falls at the segment stage (tests/app/helpers.py)
    at = _open(COMPARE, {"pin": json.dumps({"overlap_removal": True, "attributes": []}), "overlap_removal": "false",
                         "attributes": ""})
    t = table_with(at, "Rank under A").set_index("Team")
    assert t.loc["C", "Rank under A"] == 1 and t.loc["C", "Rank under B"] == 2
    assert t.loc["C", "Places gained"] == -1 and t.loc["C", "First stage that moved"] == "Unified segment score"
    assert t.loc["B", "First stage that moved"] == ""
    text = " ".join(plain(m.value) for m in at.markdown)
    assert "Overlap removal: true → false" in text
    assert "winner changes from" in text and "C" in text and "A" in text
    assert figure(at, "rob_cmp_slope")["data"]
    # beyond the noise? (no groups: both essays in one cell, so the resamples differ)
    at.toggle(key="rob_cmp_noise").set_value(True)
    rerun(at)
    text = [plain(m.value).replace("**", "") for m in at.markdown]
    could = next(m for m in text if m.startswith("Could have won under A:"))
    under_a, under_b = could.removeprefix("Could have won under A: ").split(" (")[0].split("; under B: ")
    assert "C" in under_a.split(", ") and "A" in under_b.split(", ")  # each setting's own winner could have won
    note = next(m for m in text if m.startswith("under A, "))
    # the notes agree with the lists: a team established worse than A's winner could not have won under A
    assert ("C is established better than A" in note) == ("A" not in under_a.split(", "))


def test_compare_pin_and_unpin(core_dir):
    at = _open(COMPARE)
    assert any("Nothing is pinned yet" in i.value for i in at.info)
    at.button(key="rob_cmp_pin").click()
    rerun(at)
    assert "pin" in at.query_params and any("same settings" in m.value for m in at.markdown)
    at.slider(key="sr_w").set_value(1.0)
    rerun(at)
    assert any("Segmentation weight w: 0.5 → 1" in plain(m.value) for m in at.markdown)
    at.button(key="rob_cmp_unpin").click()
    rerun(at)
    assert "pin" not in at.query_params


def test_stability_map_cells_and_current_point(core_dir):
    at = _open(STABILITY)
    at.select_slider(key="rob_map_n").set_value(5)
    rerun(at)
    fig = figure(at, "rob_map_chart")
    cells = fig["data"][0]
    assert len(cells["x"]) == 25  # alpha × w, 5 × 5, all valid
    assert min(cells["marker"]["color"]) >= -1 and max(cells["marker"]["color"]) == 1.0
    star = next(tr for tr in fig["data"] if tr.get("name") == "current settings")
    # α = 50 is the 2nd of 0, 50, 100, 150, 200; w = 0.5 the 3rd of 0, 0.25, 0.5, 0.75, 1
    assert star["x"] == [1] and star["y"] == [2]
    at.toggle(key="rob_map_noise").set_value(True)
    rerun(at)
    assert any("could have won (the list is built to hold the true winner" in plain(m.value) for m in at.markdown)
    assert not at.exception


def test_a_shared_pages_address_names_its_family_and_a_copied_link_opens_it(sample):
    """Opened with no family in the address, a shared page writes the one it shows; a new
    visitor with ``family=difficulty&dataset=imdb`` gets the difficulty family on the IMDb data
    (the dataset choice is in the sidebar there too), and picking another family rewrites it."""
    at = _open(INTERVALS)
    assert at.query_params["family"] == "shovel-ready"
    assert at.selectbox(key="rob_iv_family").value == "shovel-ready"

    at = _open(INTERVALS, {"family": "difficulty", "dataset": "imdb"})
    assert at.selectbox(key="rob_iv_family").value == "difficulty"
    assert at.query_params["family"] == "difficulty" and at.query_params["dataset"] == "imdb"
    assert "splits" in at.query_params  # the difficulty family's own parameters follow in the address
    assert any("IMDb" in plain(c.value) for c in at.sidebar.caption)
    assert set(table_with(at, "Letters")["Team"]) >= {"bert-base", "bert-large"}

    at.selectbox(key="rob_iv_family").set_value("qa")
    rerun(at)
    assert at.query_params["family"] == "qa" and at.selectbox(key="rob_iv_family").value == "qa"


def test_a_compare_link_of_another_family_reads_its_pin(sample):
    # the pin holds difficulty parameters: read as difficulty's (not as Shovel-Ready's, which failed)
    pin = json.dumps({"splits": 3})
    at = _open(COMPARE, {"family": "difficulty", "pin": pin, "splits": "7"})
    assert not any("could not be read" in plain(w.value) for w in at.warning)
    assert at.selectbox(key="rob_cmp_family").value == "difficulty"
    t = table_with(at, "Rank under A").set_index("Team")
    assert "bert-base" in t.index
    assert "Number of splits: 3 → 7" in " ".join(plain(m.value) for m in at.markdown)


def test_the_slope_charts_tied_teams_share_one_label():
    import pandas as pd

    from lab.charts.robustness import slope_figure

    diff = pd.DataFrame({"submission": ["a", "b", "c", "d"], "rank_a": [1, 2, 3, 3], "rank_b": [1, 2, 2, 4],
                         "delta": [0, 0, 1, -1]})
    fig = slope_figure(diff, {})
    texts = {tr.name: list(tr.text) for tr in fig.data}
    assert texts["a"] == ["a", "a"]
    # c and d tie at 3 under A: one label; b and c tie at 2 under B: one label, c's move kept
    assert texts["c"][0] == "c, d" and texts["d"][0] == ""
    assert texts["b"][1] == "b, c (+1)" and texts["c"][1] == "" and texts["d"][1] == "d (-1)"


def test_intervals_shows_the_familys_warnings_on_letters(core_dir, monkeypatch):
    from scoring.shovel_ready.scorer import Scorer

    at = _open(INTERVALS)  # one essay per group: every replicate is the data, no pair is a close call
    assert not any("share a letter although" in plain(w.value) for w in at.warning)
    assert any("the warnings above name the pairs far apart on the segment score" in plain(m.value)
               for m in at.markdown)  # the notes say so
    seen = []

    def fake(self, iv, p=None, /, **params):
        seen.append(sorted(iv.index))
        return ["these pairs share a letter on the bias-aware score although the first is 5 or more paired standard "
                "errors ahead on the segment score: A over B (6.4 SE)"]

    monkeypatch.setattr(Scorer, "letter_warnings", fake)
    at = _open(INTERVALS)
    assert any(plain(w.value).startswith("These pairs share a letter on the bias-aware score") and "A over B (6.4 SE)"
               in plain(w.value) for w in at.warning)
    assert seen and seen[-1] == ["A", "B", "C"]  # given the page's own intervals

"""The "How sure is the ranking?" pages on the hand-worked competition (tests/app/helpers.py)."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, TIMEOUT, figure, plain, rerun, table_with

INTERVALS, STABILITY, COMPARE = "pages/robustness_intervals.py", "pages/robustness_stability.py", \
    "pages/robustness_compare.py"


def _open(page: str, query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.run()
    at.switch_page(page)
    return rerun(at)


def test_intervals_table_tiers_and_warnings(core_dir):
    at = _open(INTERVALS)
    t = table_with(at, "Tier").set_index("Team")
    assert set(t.index) == {"A", "B", "C"}
    for team, row in t.iterrows():
        assert row["Best rank"] <= row["Rank"] <= row["Worst rank"], team
        assert row["Low"] <= row["Final score"] + 1e-9 and row["Final score"] <= row["High"] + 1e-9 or team
    # two essays, one per group at α = 50: every group is tiny -> the small-group warning names them
    assert any("fewer than 30 essays" in plain(w.value) or "has only 1 essay" in plain(w.value) for w in at.warning)
    fig = figure(at, "rob_iv_chart")
    assert any(tr.get("text") == ["tier 1"] for tr in fig["data"])
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

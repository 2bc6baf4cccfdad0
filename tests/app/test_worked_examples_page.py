"""The Worked examples page: every memo number, computed live."""

from __future__ import annotations

import math

import pytest

from tests.app.helpers import EXAMPLES, frame_with, open_page


def test_worked_examples_agree_with_the_memo(tiny):
    at = open_page(EXAMPLES)
    overlap = frame_with(at, "Engine: after removal").set_index("Segment")
    # memo §1: B' 10-29, C' 30-44, F' 45-69, E' 80-94, D' 95-99, A discarded
    assert overlap["Engine: after removal"].to_dict() == {
        "A": "discarded", "B": "10–29", "C": "30–44", "D": "95–99", "E": "80–94", "F": "45–69",
    }  # fmt: skip
    table1 = frame_with(at, "IoU: engine").set_index("Example")
    memo_max = {"a": 0.85, "b": 0.65, "c": 0.75, "d": 0.0, "e": 1.0}  # memo Table 1
    memo_iou = {"a": 0.809, "b": 0.609, "c": 0.669, "d": 0.0, "e": 0.8}
    for ex in memo_max:
        assert table1.loc[ex, "Max: engine"] == pytest.approx(memo_max[ex], abs=5e-4)
        assert table1.loc[ex, "IoU: engine"] == pytest.approx(memo_iou[ex], abs=5e-4)
    tables = [d.value for d in at.dataframe if "Agrees" in d.value.columns]
    assert len(tables) == 5  # overlap removal, Table 1, softmin, Tables 2 and 3
    for t in tables:
        assert set(t["Agrees"]) == {"✓"}, t
    table2 = frame_with(at, "Boosted score: engine").set_index("Model")
    # memo Table 2: Yellow 0.58 * 1.05 = 0.609; Blue 0.595 * (1 + 0.05 - 0.25 * 0.125) = 0.60615625
    assert table2.loc["Yellow", "Boosted score: engine"] == pytest.approx(0.609)
    assert table2.loc["Blue", "Boosted score: engine"] == pytest.approx(0.60615625)
    captions = " ".join(c.value for c in at.caption)
    assert "engine: Yellow, Blue, Red, Green" in captions
    assert "engine: Red, Green, Blue, Yellow" in captions


def test_worked_examples_w_slider_recomputes_table_1(tiny):
    at = open_page(EXAMPLES)
    at.slider(key="ex_w").set_value(0.3).run()
    assert not at.exception
    table1 = frame_with(at, "IoU: engine").set_index("Example")
    # (a): 0.3 * 0.9 + 0.7 * 0.8 = 0.83 (max); 0.3 * 9/11 + 0.7 * 0.8 = 0.805454... (IoU)
    assert table1.loc["a", "Max: engine"] == pytest.approx(0.83)
    assert table1.loc["a", "IoU: engine"] == pytest.approx(0.3 * 9 / 11 + 0.56)
    # (e): 0.3 * 0.6 + 0.7 * 1 = 0.88 (IoU); (d) is still no match
    assert table1.loc["e", "IoU: engine"] == pytest.approx(0.88)
    assert table1.loc["d", "IoU: engine"] == 0.0
    # the memo column follows the memo's formula for w != 0.5, and still agrees
    assert table1.loc["a", "IoU: memo says"] == pytest.approx(0.3 * 9 / 11 + 0.56)
    assert set(table1["Agrees"]) == {"✓"}


def test_worked_examples_alpha_slider_moves_the_softmin(tiny):
    at = open_page(EXAMPLES)
    at.slider(key="ex_alpha").set_value(0.0).run()
    soft = frame_with(at, "α = 0: engine").set_index("Model")
    assert soft.loc["n", "α = 0: engine"] == pytest.approx(0.7)  # (0.6 + 0.8) / 2
    at.slider(key="ex_alpha").set_value(10.0).run()
    soft = frame_with(at, "α = 10: engine").set_index("Model")
    # beta_1 = e^-6 / (e^-6 + e^-8) = 1 / (1 + e^-2); nu = 0.6 beta_1 + 0.8 (1 - beta_1)
    b1 = 1 / (1 + math.exp(-2))
    assert soft.loc["n", "α = 10: engine"] == pytest.approx(0.6 * b1 + 0.8 * (1 - b1))
    assert soft.loc["m", "α = 10: engine"] == pytest.approx(0.7)

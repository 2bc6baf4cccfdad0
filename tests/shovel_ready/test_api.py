"""Python API details the dashboard relies on (docs/api.md)."""

from __future__ import annotations

import io

import pandas as pd
import pytest

import scoring
from tests.shovel_ready.frames import gt_frame, sub_frame

GT = gt_frame([("e1", "Claim", "0 1 2 3 4 5"), ("e2", "Claim", "0 1 2 3"), ("e3", "Lead", "10 11 12")])
# e1: two overlapping predictions (the second is trimmed); e2: a prediction inside another
# (discarded); e3: untouched
SUB = sub_frame([("e1", "Claim", "0 1 2 3"), ("e1", "Claim", "2 3 4 5"), ("e2", "Claim", "0 1 2 3"),
                 ("e2", "Lead", "1 2"), ("e3", "Lead", "10 11 12")])


def test_removal_changed_essays():
    comp = scoring.load_competition(ground_truth=GT, submissions={"s": SUB, "clean": sub_frame([("e3", "Lead", "10 11")])})
    assert comp.removal_changed_essays("s") == ["e1", "e2"]
    assert comp.removal_changed_essays("clean") == []


def test_a_file_handle_can_be_read_again():
    data = SUB.to_csv(index=False).encode()
    handle = io.BytesIO(data)
    handle.name = "s.csv"
    comp = scoring.load_competition(ground_truth=GT, submissions=[handle])
    assert comp.submission_names == ["s"]
    again = comp.read_submission("s")  # the handle was consumed by the load
    assert again["predictionstring"].tolist() == ["0 1 2 3", "2 3 4 5", "0 1 2 3", "1 2", "10 11 12"]
    assert again["row"].tolist() == [2, 3, 4, 5, 6]


def test_groups_are_value_tuples_not_label_text():
    # ("1 & y=2", "3") and ("1", "2 & y=3") spell the same label text but are different groups
    gt = gt_frame([("a", "Claim", "0 1"), ("b", "Claim", "0 1")])
    demo = pd.DataFrame({"id": ["a", "b"], "x": ["1 & y=2", "1"], "y": ["3", "2 & y=3"]})
    comp = scoring.load_competition(ground_truth=gt, submissions={"s": sub_frame([("a", "Claim", "0 1")])},
                                    demographics=demo)
    gs = scoring.Scorer(comp).group_scores(attributes=["x", "y"])
    assert len(gs.labels) == 2 and len(set(gs.labels)) == 2
    assert gs.sizes.tolist() == [1, 1]
    # essay a is found (F1 = 1), essay b is missed (F1 = 0): two groups keep them apart
    assert sorted(gs.scores.loc["s"].tolist()) == [0.0, 1.0]


@pytest.mark.parametrize("kw, name", [({"w": 3}, "w"), ({"w": "x"}, "w"), ({"threshold": 7}, "threshold"),
                                      ({"threshold": 0}, "threshold"), ({"quality": "dice"}, "quality")])
def test_every_entry_point_checks_its_parameters(kw, name):
    comp = scoring.load_competition(ground_truth=GT, submissions={"s": SUB})
    with pytest.raises(scoring.InputError, match=name):
        scoring.explain_essay(comp, "s", "e1", **kw)
    with pytest.raises(scoring.InputError, match=name):
        scoring.fractional_tp([1, 2], [1, 2], d=1.0, **kw)
    with pytest.raises(scoring.InputError, match=name):
        scoring.Scorer(comp).group_scores(**kw)


def test_cache_levels_count_misses():
    comp = scoring.load_competition(ground_truth=GT, submissions={"s": SUB})
    scorer = scoring.Scorer(comp)
    scorer.leaderboard(w=0.5)
    scorer.leaderboard(w=0.7)  # same matching and sums: only the last step reruns
    scorer.leaderboard(threshold=0.8)  # a new matching
    info = scorer.cache_info()
    assert info["match"]["misses"] == 2 and info["sums"]["misses"] == 2
    assert info["sums"]["hits"] >= 1

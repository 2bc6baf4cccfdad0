"""The Python API the pages will use, on the hand-computed competition (``hand.py``):
per-unit statistics, per-theme tables, rank changes, the speed view, one question explained,
and that parameter changes only re-aggregate."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import scoring.qa.competition as competition_module
import scoring.qa.normalize as normalize_module
from scoring.core import InputError, UnitStats
from scoring.qa import Scorer, explain_question, load_competition
from tests.qa import hand, randomcomp


@pytest.fixture
def scorer(tmp_path):
    return Scorer(load_competition(**hand.write(tmp_path)))


PARAM_SETS = [{}, {"time_threshold": 50.0}, {"time_threshold": 400.0, "weights": {"alpha": 3, "beta": 0}},
              {"time_threshold": 1234.5, "weights": {"alpha": 0.2, "beta": 7}}]


@pytest.mark.parametrize("params", PARAM_SETS)
def test_unit_stats_give_the_leaderboard(scorer, params):
    us = scorer.unit_stats(**params)
    assert isinstance(us, UnitStats)
    assert list(us.units) == ["q1", "q2", "q3"] and us.cell.tolist() == [0, 0, 1] and us.n_cells == 2
    lb = scorer.leaderboard(**params).set_index("submission")
    got = dict(zip(us.names, us.scores()["final_score"], strict=True))
    for name in scorer.names:
        assert got[name] == pytest.approx(lb.loc[name, "final_score"], abs=1e-12)
        assert us.scores()["alpha:score"][scorer.names.index(name)] == pytest.approx(lb.loc[name, "alpha:score"])


@pytest.mark.parametrize("seed", range(0, 40, 4))
def test_unit_stats_match_the_leaderboard_on_random_competitions(seed):
    comp = randomcomp.random_competition(seed)
    scorer = Scorer(load_competition(ground_truth=comp.ground_truth, submissions=comp.submissions,
                                     theme_weights=comp.theme_weights))
    for p in (dict(time_threshold=200.0), dict(time_threshold=75.0), dict(time_threshold=400.0)):
        lb = scorer.leaderboard(**p, weight_draws=5).set_index("submission")
        final = scorer.unit_stats(**p).scores()["final_score"]
        assert np.allclose(final, lb.loc[scorer.names, "final_score"].to_numpy(), atol=1e-12)


def test_a_weighted_replicate_by_hand(scorer):
    # q1 counted twice (a bootstrap draw): A's alpha is q1, q1, q2 -> accuracy 2/3, F1 (0.8 + 0.8 + 0.4)/3
    # = 2/3, AIT 1100/3 -> multiplier 200/(1100/3) = 6/11, score (6/11)(4/3) = 8/11; beta 2.
    # Final (equal weights) 4/11 + 1 = 15/11.
    us = scorer.unit_stats()
    final = us.scores(np.array([[2.0, 1.0, 1.0], [1.0, 1.0, 1.0]]))["final_score"]
    assert final.shape == (2, 2)
    assert final[0, scorer.names.index("A")] == pytest.approx(15 / 11)
    assert final[1, scorer.names.index("A")] == pytest.approx(hand.EQUAL["A"])


def test_a_theme_left_out_of_a_subset_scores_zero(scorer):
    final = scorer.unit_stats().scores(np.array([[1.0, 1.0, 0.0]]))["final_score"]
    assert final[0].tolist() == pytest.approx([0.5 * 0.55, 0.5 * 1.5])


def test_parameter_changes_only_reaggregate(scorer, monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("per-question scores recomputed")
    for mod, name in ((normalize_module, "f1_matrix"), (normalize_module, "encode"),
                      (competition_module, "paragraph_correct"), (normalize_module, "tokens")):
        monkeypatch.setattr(mod, name, boom)
    for p in PARAM_SETS:
        scorer.leaderboard(**p)
        scorer.theme_table(**p)
        scorer.speed_table(**p)


def test_theme_table(scorer):
    t = scorer.theme_table(weights={"alpha": 3, "beta": 1}).set_index(["submission", "theme"])
    row = t.loc[("A", "alpha")]
    assert (row["accuracy"], row["f1"], row["ait_ms"], row["multiplier"]) == pytest.approx((0.5, 0.6, 400, 0.5))
    assert row["metric"] == pytest.approx(1.1) and row["score"] == pytest.approx(0.55)
    assert row["weight"] == 3 and row["weight_share"] == 0.75 and row["contribution"] == pytest.approx(1.65)
    assert t.loc[("B", "beta"), "weight_share"] == 0.25


def test_rank_changes_against_equal_weights(scorer):
    rc = scorer.rank_changes(weights={"alpha": 3, "beta": 0}).set_index("submission")
    assert rc.loc["B", "rank"] == 1 and rc.loc["B", "equal_rank"] == 2 and rc.loc["B", "rank_change"] == 1
    assert rc.loc["A", "rank"] == 2 and rc.loc["A", "equal_rank"] == 1 and rc.loc["A", "rank_change"] == -1
    assert rc.loc["A", "equal_final_score"] == pytest.approx(hand.EQUAL["A"])


def test_speed_table(scorer):
    s = scorer.speed_table().set_index(["submission", "theme"])
    # A's alpha: AIT 400 -> 390 ms: multiplier 200/390 instead of 1/2, i.e. 10/780 = 1/78 more, times
    # weight 1/2 and F1 + accuracy 1.1
    assert s.loc[("A", "alpha"), "gain"] == pytest.approx(0.5 * 1.1 / 78)
    assert s.loc[("A", "alpha"), "over_ms"] == 200.0 and s.loc[("A", "alpha"), "threshold"] == 200.0
    assert s.loc[("A", "beta"), "gain"] == 0.0  # 100 ms is under the threshold already
    assert s.loc[("A", "beta"), "gain_all"] == pytest.approx(0.5 * 1.1 / 78)
    assert (s.loc["B", "gain"] == 0).all()
    # a saving that crosses the threshold is capped at multiplier 1: 400 -> 100 ms gains 1/2 · 1.1 · 1/2
    s300 = scorer.speed_table(step_ms=300).set_index(["submission", "theme"])
    assert s300.loc[("A", "alpha"), "gain"] == pytest.approx(0.5 * 1.1 * 0.5)


def test_explain_question(scorer):
    ex = explain_question(scorer.comp, "q1")
    assert ex["theme"] == "alpha" and ex["paragraph_ids"] == ["p1"]
    assert ex["answer_tokens"] == [["random", "token", "word"], ["token", "word", "problem"],
                                   ["word", "problem", "pushed"]]
    teams = ex["teams"].set_index("submission")
    assert teams.loc["A", "tokens"] == ["problem", "pushed"]
    assert teams.loc["A", "f1_per_answer"] == pytest.approx([0.0, 0.4, 0.8])
    assert teams.loc["A", "best_answer"] == 2 and teams.loc["A", "f1"] == pytest.approx(0.8)
    assert teams.loc["A", "row"] == 3 and teams.loc["A", "inference_ms"] == 300.0
    assert teams.loc["B", "answer"] == "WORD problem, pushed!" and teams.loc["B", "tokens"] == ["word", "problem",
                                                                                                   "pushed"]
    assert teams.loc["B", "f1"] == 1.0 and bool(teams.loc["B", "paragraph_correct"])
    q3 = explain_question(scorer.comp, "q3")
    assert q3["answers"] == [] and q3["answer_tokens"] == [[]]
    t3 = q3["teams"].set_index("submission")
    assert t3.loc["A", "tokens"] == [] and t3.loc["A", "f1"] == 1.0 and bool(t3.loc["A", "paragraph_correct"])
    with pytest.raises(KeyError):
        explain_question(scorer.comp, "nope")


def test_sources_dataframes_bytes_and_dicts(tmp_path):
    files = hand.write(tmp_path)
    a = load_competition(**files)
    b = load_competition(ground_truth=hand.GT.encode(), submissions={"A": hand.A.encode(), "B": hand.B.encode()})
    c = load_competition(ground_truth=pd.read_csv(files["ground_truth"], dtype=str, keep_default_na=False),
                         submissions={"A": pd.read_csv(tmp_path / "subs" / "A.csv", dtype=str, keep_default_na=False),
                                      "B": pd.read_csv(tmp_path / "subs" / "B.csv", dtype=str, keep_default_na=False)})
    for other in (b, c):
        assert other.submission_names == a.submission_names
        assert np.array_equal(other.f1, a.f1) and np.array_equal(other.correct, a.correct)
        assert np.array_equal(other.ms, a.ms)


def test_winner_regions_need_two_or_three_themes(tmp_path):
    gt = "question_id,theme,paragraph_ids,answers\nq1,only,[],[]\n"
    sub = "question_id,paragraph_id,answer,inference_ms\nq1,,,1\n"
    scorer = Scorer(load_competition(ground_truth=gt.encode(), submissions={"A": sub.encode()}))
    with pytest.raises(InputError, match="expected 2 or 3 distinct themes"):
        scorer.winner_regions()
    lb = scorer.leaderboard()
    assert lb["final_score"].tolist() == [2.0] and lb["p_first"].tolist() == [1.0]

"""The spec's reference figures (§5) and the hand-computed competition of ``hand.py``,
through the whole engine (files -> load -> leaderboard)."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.qa import Scorer, load_competition, theme_scores
from tests.qa import hand


@pytest.fixture
def scorer(tmp_path):
    return Scorer(load_competition(**hand.write(tmp_path)))


def test_seed_example_is_question_f1_0_8(scorer):
    comp = scorer.comp
    a = comp.submission_names.index("A")
    assert comp.f1[a, comp.questions.index("q1")] == pytest.approx(0.8, abs=1e-15)


def test_theme_score_0_55(scorer):
    assert theme_scores(np.array([0.5]), np.array([0.6]), np.array([400.0]), 200.0)[1][0] == pytest.approx(0.55)
    lb = scorer.leaderboard().set_index("submission")
    assert lb.loc["A", "alpha:accuracy"] == 0.5
    assert lb.loc["A", "alpha:f1"] == pytest.approx(0.6, abs=1e-15)
    assert lb.loc["A", "alpha:ait_ms"] == 400.0
    assert lb.loc["A", "alpha:multiplier"] == 0.5
    assert lb.loc["A", "alpha:score"] == pytest.approx(0.55, abs=1e-15)


def test_hand_competition_at_the_defaults(scorer):
    lb = scorer.leaderboard()
    assert list(lb["submission"]) == ["A", "B"]
    got = lb.set_index("submission")
    for team in ("A", "B"):
        assert got.loc[team, "final_score"] == pytest.approx(hand.EQUAL[team], abs=1e-12)
    assert got.loc["A", "beta:accuracy"] == 1.0 and got.loc["A", "beta:f1"] == 1.0  # TN, empty vs empty
    assert got.loc["B", "alpha:f1"] == 0.5 and got.loc["B", "beta:score"] == 0.0
    assert got["rank"].tolist() == [1, 2]


@pytest.mark.parametrize(("threshold", "expected"), [(400.0, hand.T400), (50.0, hand.T50), (200.0, hand.EQUAL)])
def test_the_threshold_only_reaggregates(scorer, threshold, expected):
    lb = scorer.leaderboard(time_threshold=threshold).set_index("submission")
    for team in ("A", "B"):
        assert lb.loc[team, "final_score"] == pytest.approx(expected[team], abs=1e-12)


def test_weights_are_used_as_given(scorer):
    lb = scorer.leaderboard(weights={"alpha": 3, "beta": 0}).set_index("submission")
    assert lb.loc["A", "final_score"] == pytest.approx(hand.FILE_WEIGHTS["A"])
    assert lb.loc["B", "final_score"] == pytest.approx(hand.FILE_WEIGHTS["B"])
    assert lb.loc["B", "rank"] == 1 and lb.loc["A", "rank"] == 2
    # not normalised: doubling every weight doubles the scores
    lb2 = scorer.leaderboard(weights={"alpha": 6, "beta": 0}).set_index("submission")
    assert lb2.loc["A", "final_score"] == pytest.approx(2 * hand.FILE_WEIGHTS["A"])


def test_weights_file_gives_the_default_weights(tmp_path):
    scorer = Scorer(load_competition(**hand.write(tmp_path, weights=True)))
    lb = scorer.leaderboard()
    assert lb.attrs["weights"] == {"alpha": 3.0, "beta": 0.0}
    got = lb.set_index("submission")["final_score"]
    assert got["A"] == pytest.approx(hand.FILE_WEIGHTS["A"]) and got["B"] == pytest.approx(hand.FILE_WEIGHTS["B"])
    # explicit weights still win over the file's
    assert scorer.leaderboard(weights={"alpha": 1, "beta": 1}).set_index("submission").loc["A", "final_score"] \
        == pytest.approx(2 * hand.EQUAL["A"])


def test_rank_under_unknown_weights(scorer):
    lb = scorer.leaderboard(weight_draws=200_000, seed=1).set_index("submission")
    # with two themes a Dirichlet(1, 1) draw is (λ, 1 − λ) with λ uniform: P(A first) = 40/59
    sd = np.sqrt(hand.A_SHARE * (1 - hand.A_SHARE) / 200_000)
    assert abs(lb.loc["A", "p_first"] - hand.A_SHARE) < 4 * sd
    assert lb.loc["A", "p_first"] + lb.loc["B", "p_first"] == pytest.approx(1.0)  # no ties here
    assert (lb.loc["A", "best_rank"], lb.loc["A", "worst_rank"], lb.loc["A", "median_rank"]) == (1, 2, 1.0)
    assert (lb.loc["B", "best_rank"], lb.loc["B", "worst_rank"], lb.loc["B", "median_rank"]) == (1, 2, 2.0)
    regions = scorer.winner_regions()
    assert regions["regions"][scorer.names.index("A")]["share"] == pytest.approx(hand.A_SHARE)
    assert regions["current"] == [0.5, 0.5]


def test_same_seed_same_draws(scorer):
    a = scorer.leaderboard(weight_draws=500, seed=3)
    b = Scorer(scorer.comp).leaderboard(weight_draws=500, seed=3)
    assert a.equals(b)
    c = scorer.leaderboard(weight_draws=500, seed=4)
    assert not np.array_equal(a["p_first"], c["p_first"])

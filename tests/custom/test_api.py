"""The Custom family in the registry, its per-unit statistics and the robustness tools on it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import scoring
from scoring.core.robustness import bootstrap
from scoring.custom import FAMILY, Scorer, load_competition
from scoring.custom.params import ACROSS_RULES

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "custom"


@pytest.fixture(scope="module")
def lite():
    return Scorer(load_competition(results=SAMPLE / "results.tsv", recipe=SAMPLE / "recipe.json",
                                   units=SAMPLE / "units.csv"))


@pytest.fixture(scope="module")
def classic():
    d = SAMPLE / "helm_classic"
    return Scorer(load_competition(results=d / "results.tsv", teams=d / "teams.tsv", recipe=d / "recipe.json"))


def test_registered():
    fam = scoring.get("custom")
    assert fam is FAMILY and fam.final.id == "final_score"
    assert [i.role for i in fam.inputs] == ["results", "recipe", "units", "teams"]


CASES = [{"across": a} for a in ACROSS_RULES] + [
    {"across": a, "group_by": "category"} for a in ("mean", "winrate", "softmin", "borda", "kemeny")] + [
    {"across": "mean", "normalise": "zscore", "missing": "worst"},
    {"across": "weighted", "group_by": "category", "weights": {"math": 3.0, "translation": 0.0}},
]


@pytest.mark.parametrize("params", CASES, ids=lambda p: "-".join(map(str, p.values())))
def test_unit_stats_sum_to_the_leaderboard(lite, params):
    lb = lite.leaderboard(**params).set_index("submission")
    us = lite.unit_stats(**params)
    scores = us.scores()
    for stage in ("normalised", "grouped", "aggregate", "final_score"):
        got = dict(zip(us.names, scores[stage], strict=True))
        want = lb[stage].to_dict()
        assert all(np.isclose(got[t], want[t], equal_nan=True, rtol=1e-12, atol=1e-12) for t in want), stage


def test_unit_stats_with_the_boost_and_a_field_without_some_teams(classic):
    p = dict(classic.comp.param_defaults)
    lb = classic.leaderboard(**p).set_index("submission")
    us = classic.unit_stats(**p)
    s = us.scores()
    assert np.allclose(s["final_score"], lb.loc[us.names, "final_score"], equal_nan=True)
    # without the best team, the band is measured from the next best: some other team may gain
    keep = [i for i, t in enumerate(us.names) if t != lb.index[0]]
    sub = us.scores(teams=keep)
    assert sub["final_score"].shape == (len(keep),)


def test_bootstrap_a_rank_rule_resamples_units_as_voters(lite):
    us = lite.unit_stats(across="borda")
    w = np.zeros((1, us.n_units))
    w[0, 0] = 10  # one unit drawn every time: Borda is that unit's ranking alone, times 10
    s = us.scores(w)["aggregate"][0]
    col = lite.x[:, 0]
    want = 10 * np.array([(np.sum(col[~np.isnan(col)] < v) + 0.5 * (np.sum(col == v) - 1)) if not np.isnan(v) else 0
                          for v in col])
    assert np.allclose(s, want)
    iv = bootstrap(us, b=30, seed=1)
    assert (iv["rank_low"] <= iv["rank_high"]).all()


def test_stage_notes_state_every_choice(classic):
    lb = classic.leaderboard(**classic.comp.param_defaults)
    notes = " | ".join(lb.attrs["notes"])
    for words in ("skipped", "rank per unit", "softmin α with α = 10", "boost (band 0.1", "runtime"):
        assert words in notes, words

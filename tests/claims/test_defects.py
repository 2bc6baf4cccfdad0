"""One test per sentence the issue found false (issue 35), each written against the functions
that exist before the fix too, so that it fails on the old code for the reason named: the
advice's fractions, the winner's curse "exact", the published Rank column and the rounding
claim, the Custom stage words and numbers, the Kemeny–Young tie rule, the validation count."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from scoring.core.shakeup import Shakeup
from scoring.core.shakeup_selection import selection
from scoring.core.shakeup_sweep import advice_from


def two_team_shakeup(fraction: float, splits: int, hits: int, units: int, exact: bool = False) -> Shakeup:
    """A shake-up whose public leader (team 0) wins privately in exactly ``hits`` splits."""
    pub = np.tile([1, 2], (splits, 1))
    priv = np.array([[1, 2]] * hits + [[2, 1]] * (splits - hits)).reshape(splits, 2)
    return Shakeup(fraction=fraction, seed=0, exact=exact, names=["a", "b"], rank=np.array([1, 2]),
                   public_score=np.zeros((splits, 2)), private_score=np.zeros((splits, 2)), public_rank=pub,
                   private_rank=priv, n_public=1.0, n_units=units, unit="question")


def test_advice_never_writes_a_gap_in_the_fractions_as_a_range():
    # the case: 70 % misses the target (p = 0.49 < 0.5) between fractions that meet it
    ps = {0.3: 0.52, 0.35: 0.55, 0.4: 0.6, 0.45: 0.6, 0.5: 0.61, 0.55: 0.58, 0.6: 0.57, 0.65: 0.55, 0.7: 0.49,
          0.75: 0.51}
    runs = [(1.0, [two_team_shakeup(f, 200, round(p * 200), 300) for f, p in ps.items()])]
    grid, rec = advice_from(runs, target="winner", p=0.5, unit="question")
    assert 0.7 not in rec["fractions"] and 0.75 in rec["fractions"]
    assert "at a public fraction of 30% to 65% and 75%;" in rec["sentence"], rec["sentence"]


def test_advice_never_rounds_a_probability_onto_the_target():
    # 0.4975 misses a 50 % target: printed as 50% it would read as met
    runs = [(1.0, [two_team_shakeup(0.3, 400, 199, 300)])]
    _, rec = advice_from(runs, target="winner", p=0.5, unit="question")
    assert rec["size"] is None and "the best is 49.8%" in rec["sentence"], rec["sentence"]


def test_the_winners_curse_at_one_submission_per_team_is_exact_when_every_split_is():
    # three submissions in two teams on four units, half public: the six splits are enumerated, so the
    # public leader's overstatement (each team holding one of its submissions, with equal chance) is a number,
    # not a draw — the engine used to pick one submission per team at random, and said "exact" beside it
    vals = np.array([[0.9, 0.7, 0.4, 0.2], [0.5, 0.5, 0.6, 0.4], [0.3, 0.8, 0.6, 0.6]])
    splits = list(itertools.combinations(range(4), 2))
    pub = np.array([[v[list(s)].mean() for v in vals] for s in splits])
    priv = np.array([[np.delete(v, list(s)).mean() for v in vals] for s in splits])
    ranks = lambda x: (x[:, None, :] > x[:, :, None]).sum(axis=2) + 1  # noqa: E731
    sh = Shakeup(fraction=0.5, seed=0, exact=True, names=["a_1", "a_2", "b_1"], rank=np.array([1, 2, 3]),
                 public_score=pub, private_score=priv, public_rank=ranks(pub), private_rank=ranks(priv), n_public=2.0,
                 n_units=4)
    # by hand: team a holds a_1 or a_2 (each ½), team b holds b_1; the leader's public − private, averaged
    want = np.mean([np.mean([(pub[s, i] - priv[s, i]) if pub[s, i] > pub[s, 2] else
                             (pub[s, 2] - priv[s, 2]) if pub[s, i] < pub[s, 2] else
                             ((pub[s, i] - priv[s, i]) + (pub[s, 2] - priv[s, 2])) / 2 for i in (0, 1)])
                    for s in range(6)])
    got = [selection(sh, ["a", "a", "b"], seed=seed).iloc[0] for seed in (0, 1, 2)]
    assert [g["leader_overstatement"] for g in got] == pytest.approx([want] * 3, abs=1e-12)
    assert all(g["exact"] for g in got)



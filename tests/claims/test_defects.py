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




# ---- Custom: a published Rank column, and the rounding claim ---------------------------------------
# an MTEB-like table: the published Rank (1 = best) first, then the model, an Average that is not
# this recipe's mean (it averaged other columns), and three units shown to 2 decimals
MTEB = ("Rank\tModel\tAverage\tu1\tu2\tu3\n"
        "1\tbest\t82.99\t90.10\t80.20\t85.30\n"
        "2\tsecond\t80.10\t88.00\t79.00\t84.00\n"
        "3\tthird\t75.00\t70.50\t81.00\t60.25\n"
        "4\tfourth\t60.00\t50.00\t55.00\t65.00\n")


def _mteb(tmp_path):
    d = tmp_path / "mteb"
    d.mkdir()
    (d / "results.tsv").write_text(MTEB)
    (d / "recipe.json").write_text('{"title": "MTEB-like", "stages": {"across": "mean", "normalise": "none"}}')
    return d


def test_a_published_rank_column_is_read_as_a_rank(tmp_path):
    from lab.families import custom as cu
    from scoring.custom import Scorer, load_competition

    d = _mteb(tmp_path)
    comp = load_competition(results=d / "results.tsv", recipe=d / "recipe.json")
    lb = Scorer(comp).leaderboard(**comp.param_defaults)
    pub = cu.published_comparison(lb).set_index("Team")
    # the model published at Rank 1 holds rank 1 of the published column (it was shown at rank 4)
    assert pub.loc["best", "Published Rank · rank"] == 1 and pub.loc["fourth", "Published Rank · rank"] == 4


def test_the_custom_page_says_rounding_only_within_the_computed_bound(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from tests.app.helpers import APP, TIMEOUT, rerun

    monkeypatch.setenv("LAB_DATA_DIR_CUSTOM", str(_mteb(tmp_path)))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.switch_page("pages/custom_leaderboard.py")
    at = rerun(at)
    assert not at.exception, at.exception
    words = " ".join(str(c.value) for c in at.caption).replace("\\", "")
    assert "Beside" in " ".join(str(s.value) for s in at.subheader)
    # the Average is off by far more than 2-decimal cells allow (0.005 + 0.005): no word of rounding as the cause
    assert "cells are rounded" not in words and "agree up to rounding" not in words, words
    assert "more than rounding to the digits shown allows" in words, words
    assert "published Rank is a rank (1 = best)" in words and "published Rank is 8" not in words, words


# ---- Custom: stage words that follow the recipe, Borda points as points -----------------------------
# Borda over six units, no normalisation: w is best on five units and far worst but one on the sixth.
# Plain means: a 0.8, b 0.7, c 0.6, w (5·0.9 − 5)/6 = −0.083, d (5·0.5 − 6)/6 = −0.583: w is 4th.
# Borda (teams beaten per unit): w 4·5 + 1 = 21, a 3·5 + 4 = 19: w wins by 2 points.
BORDA = ("model\tu1\tu2\tu3\tu4\tu5\tu6\n"
         "w\t0.9\t0.9\t0.9\t0.9\t0.9\t-5\n"
         "a\t0.8\t0.8\t0.8\t0.8\t0.8\t0.8\n"
         "b\t0.7\t0.7\t0.7\t0.7\t0.7\t0.7\n"
         "c\t0.6\t0.6\t0.6\t0.6\t0.6\t0.6\n"
         "d\t0.5\t0.5\t0.5\t0.5\t0.5\t-6\n")


def test_the_custom_takeaway_names_raw_means_as_such_and_borda_points_without_decimals(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from tests.app.helpers import APP, TIMEOUT, rerun

    d = tmp_path / "borda"
    d.mkdir()
    (d / "results.tsv").write_text(BORDA)
    (d / "recipe.json").write_text('{"stages": {"across": "borda", "normalise": "none"}}')
    monkeypatch.setenv("LAB_DATA_DIR_CUSTOM", str(d))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.switch_page("pages/custom_leaderboard.py")
    at = rerun(at)
    assert not at.exception, at.exception
    takeaway = " ".join(i.value for i in at.info).replace("\\", "")
    assert "**w** wins: 4th on " in takeaway, takeaway
    assert "normalised mean" not in takeaway and "4th on the mean of the raw values" in takeaway, takeaway
    assert "past **a** by 2." in takeaway and "2.000" not in takeaway, takeaway


# ---- Kemeny–Young: the tie rule as the code follows it ----------------------------------------------
def bottom_up(p: np.ndarray) -> list[int]:
    """The stated rule, by brute force: among the optimal orders, the last place to the
    latest-listed team that ends one of them, then the same among those orders, upward."""
    n = len(p)
    score = {o: sum(p[o[i], o[j]] for i in range(n) for j in range(i + 1, n)) for o in itertools.permutations(range(n))}
    best = max(score.values())
    left = [o for o, s in score.items() if abs(s - best) <= 1e-9]
    out = []
    for k in range(n - 1, -1, -1):
        pick = max(o[k] for o in left)
        left = [o for o in left if o[k] == pick]
        out.append(pick)
    return out[::-1]


def test_kemeny_ties_follow_the_rule_the_docs_state():
    from pathlib import Path

    from scoring.custom import rules

    # the example: A = (2, 0, 1), B = (2, 1, 0), C = (1, 1, 2); optimal B>C>A, C>A>B, C>B>A
    p = rules.pairwise(np.array([[2.0, 0, 1], [2, 1, 0], [1, 1, 2]]), np.ones(3))
    assert rules.kemeny_exact(p).tolist() == bottom_up(p) == [2, 0, 1]  # C > A > B
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(2, 6))
        k = int(rng.integers(1, 5))
        q = rules.pairwise(rng.integers(0, 3, size=(n, k)).astype(float), np.ones(k))
        assert rules.kemeny_exact(q).tolist() == bottom_up(q)
    docs = " ".join((Path(__file__).resolve().parents[2] / "docs" / "custom.md").read_text().split())
    assert "the exact solver chooses from the bottom up: the last place goes to the latest-listed team" in docs
    assert "the earlier-listed team goes higher." not in docs


# ---- the validation report: a field-count error no longer hides the next problem -------------------
def test_a_row_with_too_many_fields_does_not_hide_a_bad_value_below_it():
    from scoring import registry
    from scoring.core.validate import check_inputs
    from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_GT

    # row 3 has a stray comma (5 fields); row 5 a word index that is not a number
    gt = (TINY_GT.replace("e1,Claim,5 6 7 8 9,Ineffective", "e1,Claim,5 6 7 8 9,Ineffective,x")
          .replace("e2,Claim,0 1 2 3 4 5,Effective", "e2,Claim,0 1 2 3 4 x5,Effective"))
    found, more = check_inputs(registry.get("shovel-ready"), ground_truth=gt.encode(),
                               submissions={"Alpha": TINY_ALPHA.encode(), "Beta": TINY_BETA.encode()})
    assert [(e.file, e.row) for e in found] == [("ground truth", 3), ("ground truth", 5)], [str(e) for e in found]
    assert not more

"""The guardrail on letters (``guardrails.letter_flags``): two teams that share a letter although
the better one is 2 or more paired standard errors ahead, while its softmin rests on a small group.
Hand-built cases here; what it catches in a simulation with a known truth: tests/simulation."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from scoring.core.robustness import bootstrap
from scoring.shovel_ready.guardrails import HEAVY_SHARE, LIFT, letter_flags, letter_warnings, resting_groups
from scoring.shovel_ready.scorer import Scorer as ShovelReadyScorer
from tests.cli import run_cli


def test_resting_on_a_group_needs_a_third_of_the_weight_and_twice_the_groups_share_of_essays():
    sizes = [60, 35, 5]
    # by hand, alpha = 50, weights n_g * exp(-50 (s_g - min)):
    # team 0 scores (0.80, 0.80, 0.77): 60 e^-1.5 = 13.388, 35 e^-1.5 = 7.810, 5 -> beta_small = 5 / 26.198 = 0.1909
    # team 1 scores (0.80, 0.80, 0.75): 60 e^-2.5 = 4.925, 35 e^-2.5 = 2.873, 5 -> beta_small = 5 / 12.798 = 0.3907
    #   (> 1/3, and 7.8 x the group's 5 % of essays: rests on it)
    # team 2 scores (0.70, 0.80, 0.80): 60, 35 e^-5 = 0.2358, 5 e^-5 = 0.0337 -> beta_big = 60 / 60.27 = 0.9955
    #   (> 1/3 but only 1.66 x the group's 60 %: a big group, not "resting")
    groups = [[0.80, 0.80, 0.77], [0.80, 0.80, 0.75], [0.70, 0.80, 0.80]]
    g, w = resting_groups(groups, sizes, 50.0)
    assert g.tolist() == [-1, 2, -1]
    assert w[1] == pytest.approx(5 / (5 + 95 * math.exp(-2.5)))
    assert w[1] == pytest.approx(0.3907, abs=1e-4)
    assert HEAVY_SHARE == pytest.approx(1 / 3) and LIFT == 2.0
    # alpha = 0: every weight is the group's share of essays, so nothing rests on a group; alpha = inf:
    # team 1's minimum alone carries everything
    assert resting_groups(groups, sizes, 0.0)[0].tolist() == [-1, -1, -1]
    assert resting_groups(groups, sizes, math.inf)[0].tolist() == [2, 2, -1]


def test_only_the_close_calls_of_a_team_resting_on_a_group_are_flagged():
    sizes = [60, 35, 5]
    groups = [[0.80, 0.80, 0.77], [0.80, 0.80, 0.75], [0.70, 0.80, 0.80]]
    calls = [[("t2", 3.0)], [("t0", 2.4), ("t2", 2.1)], []]  # team 0 does not rest on a group: not flagged
    flags = letter_flags(calls, groups, sizes, 50.0)
    assert [(j, o, t, g) for j, o, t, g, _ in flags] == [(1, "t0", 2.4, 2), (1, "t2", 2.1, 2)]
    assert letter_flags(calls, groups, sizes, 0.0) == []


def test_the_warning_names_the_group_the_teams_and_the_gaps(sg_scorer):
    # smallgroup: gambler gives its whole softmin weight to the 2 essays without demographics (by hand in
    # test_exclude_missing: 2 / (2 + 60 e^-50)); steady gives them 2/62
    iv = pd.DataFrame({"close_calls": [[("steady", 2.53)], []]}, index=pd.Index(["gambler", "steady"], name="submission"))
    (warning,) = letter_warnings(sg_scorer, iv, attributes=("ell_status",))
    assert warning.startswith("the group ell_status=(missing) (2 essays) carries 100% of the softmin weight of gambler, "
                              "and these pairs share a letter although the first is 2 or more paired standard errors "
                              "ahead: gambler over steady (2.5 SE); a bad draw")
    # the same close call the other way round: steady rests on no group
    iv = pd.DataFrame({"close_calls": [[], [("gambler", 2.53)]]}, index=pd.Index(["gambler", "steady"], name="submission"))
    assert letter_warnings(sg_scorer, iv, attributes=("ell_status",)) == []
    # no attributes, no groups: nothing to rest on
    assert letter_warnings(sg_scorer, iv) == []
    # left out of the groups, gambler's 2 essays no longer carry its weight
    iv = pd.DataFrame({"close_calls": [[("steady", 2.53)], []]}, index=pd.Index(["gambler", "steady"], name="submission"))
    assert letter_warnings(sg_scorer, iv, attributes=("ell_status",), exclude_missing=True) == []


def test_the_bootstrap_frame_carries_the_close_calls_the_guardrail_reads(sg_scorer):
    iv = bootstrap(sg_scorer.unit_stats(attributes=("ell_status",)), b=200, seed=1)
    # two teams: steady ahead; a close call exactly when they share a letter and steady is >= 2 SEs ahead
    assert iv.loc["gambler", "close_calls"] == []  # gambler is behind: it is never the better one of a call
    calls = iv.loc["steady", "close_calls"]
    shared = bool(set(iv.loc["steady", "letters"]) & set(iv.loc["gambler", "letters"]))
    assert all(other == "gambler" and t >= 2.0 for other, t in calls)
    assert shared or calls == []


def test_the_command_line_prints_the_warnings_and_puts_them_in_the_json(sg_folder, monkeypatch):
    args = ["leaderboard", "--ground-truth", sg_folder / "ground_truth.csv", "--submissions", sg_folder / "submissions",
            "--demographics", sg_folder / "demographics.csv", "--attributes", "ell_status", "--bootstrap", "100",
            "--format", "json"]
    # on smallgroup the team resting on a group (gambler) is the worse one: no warning, an empty list
    run = run_cli(*args)
    assert run.returncode == 0
    assert json.loads(run.stdout)["bootstrap"]["letter_warnings"] == []
    assert "share a letter" not in run.stderr
    # the wiring: whatever the guardrail says reaches stderr (one line each) and the JSON, in order
    seen = {}

    lines = ["a and b share a letter, yet a is 2.4 paired standard errors ahead", "c and d share a letter"]

    def fake(self, iv, p=None, /, **params):
        seen["columns"] = list(iv.columns)
        return lines

    monkeypatch.setattr(ShovelReadyScorer, "letter_warnings", fake)
    run = run_cli(*args)
    assert json.loads(run.stdout)["bootstrap"]["letter_warnings"] == lines
    assert "warning: a and b share a letter, yet a is 2.4 paired standard errors ahead\nwarning: c and d share" in run.stderr
    assert "close_calls" in seen["columns"]  # it is given bootstrap's frame


def test_one_warning_per_group_listing_its_pairs_largest_gap_first(sg_scorer, monkeypatch):
    # hand-built: three teams on two groups of 90 and 10 essays (alpha 50); weights by hand in
    # test_resting_on_a_group...: team a (0.70, 0.66) puts 0.4509 on the small group, team c (0.70, 0.65):
    # 10 / (10 + 90 e^-2.5) = 10 / 17.388 = 0.5751; team b (0.70, 0.72) 0.0393
    import math

    from scoring.shovel_ready.scorer import GroupScores

    gs = GroupScores(pd.DataFrame([[0.70, 0.66], [0.70, 0.72], [0.70, 0.65]], index=pd.Index(["a", "b", "c"]),
                                  columns=["g=big", "g=small"]), pd.Series([90, 10], index=["g=big", "g=small"]),
                     ["g=big", "g=small"])
    monkeypatch.setattr(type(sg_scorer), "group_scores", lambda self, p=None, /, **kw: gs)
    iv = pd.DataFrame({"close_calls": [[("b", 2.2)], [("x", 5.0)], [("b", 3.1), ("a", 2.0)]]},
                      index=pd.Index(["a", "b", "c"], name="submission"))
    assert 10 / (10 + 90 * math.exp(-2.5)) == pytest.approx(0.5751, abs=1e-4)
    (warning,) = letter_warnings(sg_scorer, iv, attributes=("ell_status",))
    assert warning.startswith("the group g=small (10 essays) carries 45–58% of the softmin weight of c, a, and these "
                              "pairs share a letter")
    assert warning.count(" over ") == 3 and "c over b (3.1 SE), a over b (2.2 SE), c over a (2.0 SE);" in warning
    assert "x" not in warning  # b rests on no group: its close call is not flagged
    (short,) = letter_warnings(sg_scorer, iv, attributes=("ell_status",), most=1)
    assert "c over b (3.1 SE) and 2 more;" in short

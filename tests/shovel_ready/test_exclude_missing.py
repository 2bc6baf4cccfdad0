"""Leaving essays with missing demographics out of the groups (``exclude_missing``), the
small-group guardrail that names the group, and per-unit statistics that stay the leaderboard."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import scoring
from scoring.shovel_ready import PARAMS
from tests.cli import run_cli
from tests.shovel_ready import randomcomp, smallgroup


def _rows(lb):
    return lb.set_index("submission")


def test_two_essays_without_demographics_decide_the_winner_by_hand(sg_scorer):
    lb = _rows(sg_scorer.leaderboard(attributes=("ell_status",)))
    assert list(lb.index) == ["steady", "gambler"]
    assert lb.loc["gambler", "segment_score"] == pytest.approx(smallgroup.GAMBLER_SEGMENT)
    assert lb.loc["gambler", "segment_score_rank"] == 1
    assert lb.loc["steady", "bias_score"] == pytest.approx(smallgroup.STEADY_SCORE)
    assert lb.loc["gambler", "bias_score"] == pytest.approx(0.0, abs=1e-15)
    assert lb.loc["gambler", "ell_status=(missing)"] == 0.0
    gs = sg_scorer.group_scores(attributes=("ell_status",))
    beta = scoring.softmin_weights(gs.scores[gs.labels], gs.sizes[gs.labels], 50.0)
    assert beta.loc["gambler", "ell_status=(missing)"] == pytest.approx(2 / (2 + 60 * math.exp(-50)))
    assert beta.loc["steady", "ell_status=(missing)"] == pytest.approx(2 / 62)  # equal scores: by size


def test_leaving_them_out_changes_the_winner_and_keeps_the_segment_score(sg_scorer):
    lb = _rows(sg_scorer.leaderboard(attributes=("ell_status",), exclude_missing=True))
    assert list(lb.index) == ["gambler", "steady"]
    assert lb.loc["gambler", "bias_score"] == pytest.approx(1.0)
    assert lb.loc["gambler", "segment_score"] == pytest.approx(smallgroup.GAMBLER_SEGMENT)  # still counted
    assert lb.loc["steady", "bias_score"] == pytest.approx(smallgroup.STEADY_SCORE)
    assert "ell_status=(missing)" not in lb.columns
    gs = sg_scorer.group_scores(attributes=("ell_status",), exclude_missing=True)
    assert gs.labels == ["ell_status=No", "ell_status=Yes"] and gs.sizes.tolist() == [30, 30]
    # without attributes the switch changes nothing
    assert sg_scorer.leaderboard(exclude_missing=True).equals(sg_scorer.leaderboard())


def test_the_guardrail_names_the_small_group_and_the_team(sg_scorer):
    (warning,) = sg_scorer.warnings(attributes=("ell_status",))
    assert "ell_status=(missing)" in warning and "only 2 essays" in warning and "100%" in warning
    assert "gambler" in warning and "steady" not in warning  # steady gives it 2/62 of its weight
    assert "left out of the groups" in warning
    assert sg_scorer.warnings(attributes=("ell_status",), exclude_missing=True) == []
    assert sg_scorer.warnings(attributes=("ell_status",), alpha=0.0) == []  # by size: 2/62 each


def test_the_parameter_is_declared_once_and_reaches_the_command_line(sg_folder):
    p = PARAMS["exclude_missing"]
    assert p.kind == "bool" and p.default is False and p.flag == "--exclude-missing"
    args = ["leaderboard", "--ground-truth", sg_folder / "ground_truth.csv", "--submissions", sg_folder / "submissions",
            "--demographics", sg_folder / "demographics.csv", "--attributes", "ell_status"]
    plain, left_out = run_cli(*args), run_cli(*args, "--exclude-missing")
    assert plain.returncode == left_out.returncode == 0
    assert plain.stdout.splitlines()[1].startswith("steady,")
    assert left_out.stdout.splitlines()[1].startswith("gambler,")
    assert "ell_status=(missing)" in plain.stderr and "ell_status=(missing)" not in left_out.stderr


def _param_sets(comp) -> list[dict]:
    attrs = tuple(comp.attributes)
    sets = [dict(), dict(attributes=attrs[:1]), dict(attributes=attrs[:1], exclude_missing=True),
            dict(attributes=attrs, alpha=math.inf, exclude_missing=True), dict(attributes=attrs, alpha=0.0),
            dict(attributes=attrs[::-1], w=0.2, quality="max", overlap_removal=False, exclude_missing=True)]
    return [s for s in sets if not s.get("attributes") or comp.attributes]


@pytest.mark.parametrize("seed", range(12))
def test_unit_stats_give_the_leaderboard(seed):
    rc = randomcomp.random_competition(seed)
    comp = scoring.load_competition(ground_truth=rc.ground_truth, submissions=rc.submissions,
                                    demographics=rc.demographics, runtimes=rc.runtimes)
    sc = scoring.Scorer(comp)
    rng = random.Random(seed)
    for p in _param_sets(comp) + [randomcomp.random_parameters(rng, rc)]:
        lb = sc.leaderboard(**p).set_index("submission")
        got = sc.unit_stats(**p).scores()
        for stage in ("segment_score", "bias_score", "final_score"):
            want = lb.loc[sc.names, stage].to_numpy(dtype=float)
            assert np.allclose(got[stage], want, atol=1e-12), (seed, p, stage)


def test_unit_stats_give_the_leaderboard_on_the_small_group(sg_scorer):
    for excl in (False, True):
        lb = sg_scorer.leaderboard(attributes=("ell_status",), exclude_missing=excl).set_index("submission")
        us = sg_scorer.unit_stats(attributes=("ell_status",), exclude_missing=excl)
        assert us.n_cells == 3  # (missing), No, Yes — or No, Yes and the slot of the left-out essays
        final = dict(zip(us.names, us.scores()["final_score"], strict=True))
        assert final == pytest.approx(lb["final_score"].to_dict(), abs=1e-12)

"""The guardrail on letters (``guardrails.letter_flags``): two teams that share a letter on the
bias-aware score although one is ``T_POOLED`` (5) or more paired standard errors ahead on the
segment score (every essay pooled). Hand-built cases and the bootstrap's close calls against a
direct computation here; what it catches in a simulation with a known truth: tests/simulation."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import scoring
from scoring.core.pairwise import paired
from scoring.core.ranksets import T_CLOSE, T_POOLED
from scoring.core.robustness import bootstrap, resample_counts
from scoring.shovel_ready.guardrails import letter_flags, letter_warnings
from scoring.shovel_ready.scorer import Scorer as ShovelReadyScorer
from tests.cli import run_cli


def _sample():
    folder = scoring.get("shovel-ready").sample_dir
    comp = scoring.load_competition(ground_truth=folder / "ground_truth.csv", submissions=[folder / "submissions"],
                                    demographics=folder / "demographics.csv", runtimes=folder / "runtimes.csv")
    return scoring.Scorer(comp)


def _shares(letters) -> np.ndarray:
    sets = [set(x.split()) if " " in x else set(x) for x in letters]
    return np.array([[bool(a & b) for b in sets] for a in sets])


@pytest.mark.parametrize("attrs", [("race_ethnicity",), ("ell_status",), ()])
def test_close_calls_are_the_pairs_sharing_a_letter_far_apart_on_the_segment_score(attrs):
    # with groups: the pairs sharing a letter whose segment-score difference, over the same replicates, is
    # T_POOLED or more paired SEs (the SD of the replicate differences); without groups the final score's own
    # differences, T_CLOSE or more
    sc = _sample()
    us = sc.unit_stats(attributes=attrs, alpha=50.0)
    iv = bootstrap(us, b=300, seed=2)
    reps = us.scores(resample_counts(us.cell, 300, seed=2))
    stage, t_min = ("segment_score", T_POOLED) if attrs else ("final_score", T_CLOSE)
    full = np.asarray(us.scores()[stage], dtype=float)
    r = np.asarray(reps[stage], dtype=float)
    d = full[None, :] - full[:, None]  # d[j, k]: k ahead of j
    se = (r[:, None, :] - r[:, :, None]).std(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(se > 1e-12, d / se, np.sign(d) * np.inf)
    share = _shares(iv["letters"])
    names = list(iv.index)
    want = {(names[k], names[j]) for j in range(len(names)) for k in range(len(names))
            if j != k and share[j, k] and t[j, k] >= t_min}
    got = {(team, other) for team, calls in iv["close_calls"].items() for other, _ in calls}
    assert got == want
    for team, calls in iv["close_calls"].items():
        for other, tt in calls:
            assert tt == pytest.approx(t[names.index(other), names.index(team)], abs=1e-4)  # kept to 4 decimals
    assert np.allclose(paired(full, r).t, np.where(np.eye(len(full), dtype=bool), 0.0, t))  # the engine's own t
    if attrs == ("race_ethnicity",):
        assert want  # some pairs share a letter far apart on the segment score: the check has teeth


def test_flags_are_every_close_call_largest_first_and_the_warning_lists_them(sg_scorer):
    assert letter_flags([[("b", 6.5)], [], [("b", 12.0), ("a", 5.2)]]) == [(2, "b", 12.0), (0, "b", 6.5),
                                                                          (2, "a", 5.2)]
    assert letter_flags([[], []]) == []
    iv = pd.DataFrame({"close_calls": [[("b", 6.5)], [], [("b", 12.04), ("a", 5.2)]]},
                      index=pd.Index(["a", "b", "c"], name="submission"))
    (warning,) = letter_warnings(sg_scorer, iv, attributes=("ell_status",))
    assert warning.startswith("these pairs share a letter on the bias-aware score although the first is 5 or more "
                              "paired standard errors ahead on the segment score (every essay pooled, no softmin): "
                              "c over b (12.0 SE), a over b (6.5 SE), c over a (5.2 SE); the bias-aware score")
    (short,) = letter_warnings(sg_scorer, iv, attributes=("ell_status",), most=1)
    assert "c over b (12.0 SE) and 2 more;" in short
    # without groups the close calls are the bias-aware score's own (2 SE): no warning
    assert letter_warnings(sg_scorer, iv) == []
    assert letter_warnings(sg_scorer, iv.assign(close_calls=[[], [], []]), attributes=("ell_status",)) == []


def test_the_command_line_prints_the_warnings_and_puts_them_in_the_json(sg_folder, monkeypatch):
    args = ["leaderboard", "--ground-truth", sg_folder / "ground_truth.csv", "--submissions", sg_folder / "submissions",
            "--demographics", sg_folder / "demographics.csv", "--attributes", "ell_status", "--bootstrap", "100",
            "--format", "json"]
    # on smallgroup the two teams are told apart on the bias-aware score (no shared letter): no warning, an
    # empty list
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


# ---- the note beside a score interval with a small group -----------------------------------------------
def test_the_interval_note_names_the_nearest_measured_design():
    from scoring.shovel_ready.guardrails import MEASURED, MIN_GROUP, interval_note

    assert interval_note(MIN_GROUP, 500) == "" and interval_note(200, 500) == ""
    by = {(g, n): (low, least) for g, n, low, least in MEASURED}
    note = interval_note(25, 500)
    low, least = by[25, 500]
    assert note.startswith("the smallest group has 25 essays: in a simulation with a 25-essay group in 500 essays")
    assert f"{low:.0%} or more of the teams of each kind" in note and f"as little as {least:.0%}" in note
    assert "in a simulation with a 20-essay group in 1,500 essays" in interval_note(22, 1800)  # nearest total first
    assert "in a simulation with a 20-essay group in 500 essays" in interval_note(21, 450)
    assert interval_note(4, 500).endswith("groups under 20 essays were not simulated")
    assert "not simulated" not in interval_note(20, 500)


def test_the_bootstrap_frame_the_page_and_the_command_line_carry_the_note(sg_scorer, sg_folder):
    # smallgroup: ell_status makes a 2-essay group (the essays without demographics); left out, two of 30
    iv = bootstrap(sg_scorer.unit_stats(attributes=("ell_status",)), b=50, seed=1)
    assert iv.attrs["score_interval_note"].startswith("the smallest group has 2 essays:")
    assert "score_interval_note" not in bootstrap(sg_scorer.unit_stats(attributes=("ell_status",),
                                                                       exclude_missing=True), b=50, seed=1).attrs
    assert "score_interval_note" not in bootstrap(sg_scorer.unit_stats(), b=50, seed=1).attrs
    args = ["leaderboard", "--ground-truth", sg_folder / "ground_truth.csv", "--submissions", sg_folder / "submissions",
            "--demographics", sg_folder / "demographics.csv", "--attributes", "ell_status", "--bootstrap", "50",
            "--format", "json"]
    run = run_cli(*args)
    doc = json.loads(run.stdout)["bootstrap"]
    assert doc["score_interval_note"].startswith("the smallest group has 2 essays:")
    assert doc["score_interval"].startswith("the lowest to the highest bias-aware score")
    assert "warning: the smallest group has 2 essays:" in run.stderr
    run = run_cli(*args, "--exclude-missing")
    assert "score_interval_note" not in json.loads(run.stdout)["bootstrap"]

"""A τ change matched on several threads (one submission per task) gives what one thread
gives: the same pairs, counts and leaderboard, every τ, every rule set; and a small job stays
on the calling thread."""

from __future__ import annotations

import threading

import numpy as np
import pandas as pd

import scoring.spotgeo as sg
import scoring.spotgeo.scorer as scorer_mod
from tests.spotgeo import randomcomp


def test_threads_give_what_one_thread_gives(monkeypatch):
    monkeypatch.setattr(scorer_mod, "THREAD_MIN_PAIRS", 0)  # these competitions are small
    seen = set()
    match = scorer_mod.match_submission

    def spy(*a):
        seen.add(threading.current_thread().name)
        return match(*a)

    monkeypatch.setattr(scorer_mod, "match_submission", spy)
    for seed in range(6):
        comp = randomcomp.random_competition(seed, max_points=8)
        loaded = sg.load_competition(ground_truth=comp.ground_truth, submissions=comp.submissions)
        one, two = sg.Scorer(loaded, threads=1), sg.Scorer(loaded, threads=2)
        for tau in (5.0, 10.0, 50.0):
            a, b = one.matching(tau), two.matching(tau)
            assert b.threads == min(2, len(loaded.submissions)) and a.threads == 1
            for x, y in zip(a.seed + a.kit, b.seed + b.kit, strict=True):
                assert np.array_equal(x, y)
            for rules in ("seed", "starter-kit"):
                pd.testing.assert_frame_equal(one.leaderboard(tau=tau, epsilon=3.0, rules=rules),
                                              two.leaderboard(tau=tau, epsilon=3.0, rules=rules))
    assert any(name.startswith("spotgeo-match") for name in seen)


def test_a_small_job_stays_on_this_thread():
    comp = randomcomp.random_competition(1)
    s = sg.Scorer(sg.load_competition(ground_truth=comp.ground_truth, submissions=comp.submissions), threads=2)
    assert s.matching(10.0).threads == 1  # far fewer pairs than THREAD_MIN_PAIRS

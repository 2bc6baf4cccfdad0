"""The engine's what-if and α sweep (moved from the UI to scoring.shovel_ready)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import scoring

SEG_A = 8 / 9  # team A's segment score in the hand-worked competition (tests/app/helpers.py)

FIELD = {"A": SEG_A, "B": 0.0, "C": 1.0}
FIELD_RT = {"A": 100.0, "B": 10.0, "C": 110.0}
DEFAULTS = {"band": 0.05, "max_boost": 0.05, "window": 0.2}


def test_what_if_numbers():
    # New entry 0.96 at 100 s: eligible (0.96 ≥ 1/1.05 = 0.952), fastest eligible -> 5 %:
    # 1.008; C at 110/100 = 1.1 gets 2.5 % -> 1.025, so the entry is 2nd.  To overtake C:
    # 1.008 > 1 + 0.05·(1 − (110/r − 1)/0.2)  <=>  110/r − 1 > 0.168  <=>  r < 110/1.168.
    res = scoring.what_if(FIELD, FIELD_RT, "New", 0.96, 100.0, **DEFAULTS)
    assert res["eligible"] and res["boost"] == pytest.approx(0.05)
    assert res["final_score"] == pytest.approx(1.008) and res["rank"] == 2
    assert res["full_boost_runtime"] == pytest.approx(110.0)
    assert res["above"] == "C"
    assert res["overtake_runtime"] == pytest.approx(110 / 1.168, rel=1e-6)
    # At 121 s, C (110 s) is the fastest eligible: 121/110 = 1.1 -> 2.5 % -> 0.984.
    res = scoring.what_if(FIELD, FIELD_RT, "New", 0.96, 121.0, **DEFAULTS)
    assert res["boost"] == pytest.approx(0.025) and res["final_score"] == pytest.approx(0.984)
    assert res["full_boost_runtime"] == pytest.approx(110.0)
    # 0.9 < 0.952: not eligible, so no runtime helps against C (1.05).
    res = scoring.what_if(FIELD, FIELD_RT, "New", 0.9, 1.0, **DEFAULTS)
    assert not res["eligible"] and res["boost"] == 0 and res["rank"] == 2
    assert res["threshold_score"] == pytest.approx(1 / 1.05)
    assert res["overtake_runtime"] is None and res["full_boost_runtime"] is None
    # The leader has nobody to overtake.
    res = scoring.what_if(FIELD, FIELD_RT, "C", 1.0, 110.0, **DEFAULTS)
    assert res["rank"] == 1 and res["above"] is None


def test_what_if_overtake_when_slower_than_the_fastest():
    # X (1.0, no runtime) is never eligible; Z (0.96, 100 s) is the fastest eligible: 1.008.
    # A new 0.97 at 150 s (ratio 1.5: no boost) sits under X (1.0). At r <= 100 s it would
    # get the full 5 % (1.0185 > 1.0), so the answer lies above 100 s, where s = 100 s stays:
    # 0.97·(1 + 0.05·(1 − (r/100 − 1)/0.2)) > 1  <=>  r < 100·(1 + 0.2·(1 − (1/0.97 − 1)/0.05)).
    res = scoring.what_if({"X": 1.0, "Z": 0.96}, {"Z": 100.0}, "New", 0.97, 150.0, **DEFAULTS)
    assert res["eligible"] and res["boost"] == 0 and res["above"] == "X"
    expected = 100 * (1 + 0.2 * (1 - (1 / 0.97 - 1) / 0.05))
    assert res["overtake_runtime"] == pytest.approx(expected, rel=1e-9)
    for r, ahead in ((expected * (1 - 1e-6), True), (expected * (1 + 1e-6), False)):
        t = scoring.efficiency_boost({"X": 1.0, "Z": 0.96, "New": 0.97}, {"Z": 100.0, "New": r}, **DEFAULTS)
        final = dict(zip(t["submission"], t["final_score"], strict=True))
        assert (final["New"] > final["X"]) is ahead


def test_alpha_sweep_uses_softmin():
    gs = scoring.GroupScores(
        scores=pd.DataFrame({"g1": [0.6, 0.7], "g2": [0.8, 0.7]}, index=["X", "Y"]),
        sizes=pd.Series({"g1": 1, "g2": 3}), labels=["g1", "g2"],
    )
    sweep = scoring.alpha_sweep(gs.scores, gs.sizes, [0.0, math.inf])
    at0 = sweep[sweep["alpha"] == 0].set_index("team")
    assert at0.loc["X", "score"] == pytest.approx(0.75)   # SPEC §7: sizes (1, 3) at α = 0
    assert at0.loc["Y", "score"] == pytest.approx(0.7)
    assert at0.loc["X", "rank"] == 1
    hard = sweep[sweep["alpha"] == math.inf].set_index("team")
    assert hard.loc["X", "score"] == pytest.approx(0.6) and hard.loc["Y", "rank"] == 1

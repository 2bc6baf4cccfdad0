"""Mangled input files never escape as anything but a one-line InputError (SPEC §1)."""

from __future__ import annotations

import random

import pytest

import scoring
from tests import fuzz

GT = (
    "id,discourse_type,predictionstring,discourse_effectiveness\n"
    "e1,Claim,0 1 2 3 4 5 6 7 8 9,Effective\n"
    "e1,Lead,20 21 22 23,Ineffective\n"
    "e2,Claim,1 2 3 4,Effective\n"
)
SUB = (
    "id,class,predictionstring,Effective,Ineffective\n"
    "e1,Claim,0 1 2 3 4 5 6 7 8,0.8,0.2\n"
    "e1,Lead,20 21 22 23,0.3,0.7\n"
    "e2,Claim,1 2 3 4,1,0\n"
)
DEMO = "id,ell_status\ne1,Yes\ne2,No\n"
RT = "submission,runtime\ns,12.5\n"
ALPHABET = list(',"\n\r -.x0123456789\t;') + ["é", "\x00", "NA", "1e9", "-1", "nan", "inf"]


def mangle(text: str, rng: random.Random) -> str:
    return fuzz.mangle(text, rng, ALPHABET)


@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.slow) if s >= 50 else s for s in range(400)])
def test_mangled_files_give_input_errors_only(seed):
    rng = random.Random(seed)
    files = {"gt": GT, "sub": SUB, "demo": DEMO, "rt": RT}
    target = rng.choice(list(files))
    files[target] = mangle(files[target], rng)
    try:
        comp = scoring.load_competition(
            ground_truth=files["gt"].encode("utf-8"), submissions={"s": files["sub"].encode("utf-8")},
            demographics=files["demo"].encode("utf-8"), runtimes=files["rt"].encode("utf-8"))
        lb = scoring.Scorer(comp).leaderboard(attributes=comp.attributes[:1])
    except scoring.InputError as err:
        text = str(err)
        assert "\n" not in text and text.strip(), text
        assert err.problem
        return
    assert len(lb) == 1
    assert 0.0 <= lb["final_score"].iloc[0] <= 1.05

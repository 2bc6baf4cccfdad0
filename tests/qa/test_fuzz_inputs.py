"""Mangled QA input files never escape as anything but a one-line InputError (spec §1), and
what does load scores within the metric's range."""

from __future__ import annotations

import random

import pytest

from scoring.core.errors import InputError
from scoring.qa import Scorer, load_competition
from tests import fuzz

GT = ('question_id,theme,paragraph_ids,answers\n'
      'q1,history,"[""p1"", 7]","[""Paris"", ""the city""]"\n'
      'q2,science,[],[]\n'
      'q3,science,"[""p3""]","[""the sun""]"\n')
SUB = ("question_id,paragraph_id,answer,inference_ms\n"
       "q1,p1,Paris,100\n"
       'q2,,"",50.5\n'
       "q3,7,sun!,250\n")
WEIGHTS = "theme,weight\nhistory,1\nscience,0.5\n"
ALPHABET = list(',"\n\r -.x0123456789\t;[]{}:\\') + ["é", "\x00", "NA", "1e9", "-1", "nan", "inf", "null", "true",
                                                    "\"\"", "[1]", "\ufeff"]


def mangle(text: str, rng: random.Random) -> str:
    return fuzz.mangle(text, rng, ALPHABET)


@pytest.mark.parametrize("seed", range(300))
def test_mangled_files_give_input_errors_only(seed):
    rng = random.Random(seed)
    files = {"gt": GT, "sub": SUB, "w": WEIGHTS}
    target = rng.choice(list(files))
    files[target] = mangle(files[target], rng)
    try:
        comp = load_competition(ground_truth=files["gt"].encode("utf-8"), submissions={"s": files["sub"].encode()},
                                theme_weights=files["w"].encode("utf-8"))
        lb = Scorer(comp).leaderboard(weight_draws=50)
    except InputError as err:
        text = str(err)
        assert "\n" not in text and text.strip() and err.problem, text
        return
    assert len(lb) == 1
    weights = lb.attrs["weights"]
    assert 0.0 <= lb["final_score"].iloc[0] <= 2 * sum(weights.values()) + 1e-12
    assert lb["p_first"].iloc[0] == 1.0

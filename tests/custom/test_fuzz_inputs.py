"""Mangled Custom inputs (results wide and long, units, teams, recipe) never escape as anything
but a one-line InputError, and what does load scores every rule without an exception."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scoring.core.errors import InputError
from scoring.custom import Scorer, load_competition
from scoring.custom.params import ACROSS_RULES
from tests import fuzz

WIDE = "Model\tMean win rate\tA - EM\tB - F1\tC - BLEU\nm1\t0.9\t0.5\t0.7\t0.2\nm2\t0.1\t0.4\t-\t0.3\nm3\t0.5\t0.4\t0.2\t0.1\n"
LONG = "team,unit,value\nm1,A,0.5\nm1,B,0.7\nm2,A,0.4\nm2,B,-\nm3,A,0.4\nm3,B,0.2\n"
UNITS = "unit,group,size\nA - EM,x,10\nB - F1,x,30\nC - BLEU,y,5\n"
TEAMS = "team,runtime\nm1,2\nm2,1.5\nm3,3\n"
RECIPE = '{"inputs": {"results": {"lower_is_better": ["BLEU"]}}, "stages": {"across": "borda", "alpha": 5}}'
ALPHABET = list(',"\n\r -.x0123456789\t;[]{}:/\\') + ["é", "\x00", "NA", "1e9", "-1", "nan", "inf", "null", "true",
                                                     "\"\"", "1/2", "\ufeff", "-", "—"]


def mangle(text: str, rng: random.Random) -> str:
    return fuzz.mangle(text, rng, ALPHABET)


@pytest.mark.parametrize("seed", range(300))
def test_mangled_inputs_give_input_errors_only(seed):
    rng = random.Random(seed)
    files = {"results": WIDE if seed % 3 else LONG, "units": UNITS, "teams": TEAMS, "recipe": RECIPE}
    target = rng.choice(list(files))
    files[target] = mangle(files[target], rng)
    kw = {"results": files["results"].encode(), "teams": files["teams"].encode(), "recipe": files["recipe"].encode()}
    if seed % 3:
        kw["units"] = files["units"].encode()
    try:
        comp = load_competition(**kw)
    except InputError as e:
        assert "\n" not in str(e) and str(e).strip()
        return
    scorer = Scorer(comp)
    groups = comp.context()["group_columns"]
    for rule in ACROSS_RULES:
        p = {"across": rule, "normalise": rng.choice(["none", "minmax", "zscore", "rank"]), "efficiency": "boost"}
        if len(groups) > 1:
            p["group_by"] = groups[1]
        try:
            lb = scorer.leaderboard(**p)
        except InputError as e:  # e.g. a mangled size column: named, one line
            assert "\n" not in str(e)
            continue
        ranks = lb["rank"].to_numpy()
        assert len(lb) == len(comp.submission_names) and (ranks >= 1).all() and (ranks <= len(lb)).all()
        assert not np.isinf(lb["final_score"].to_numpy()).any()


@pytest.mark.parametrize("seed", range(120))
def test_edge_numbers_in_any_input_give_input_errors_or_finite_scores(seed):
    """Numbers of every input (results, units, teams, recipe) swapped for ones at the edge of
    float (``tests.fuzz.EDGE_NUMBERS``: ±1e308, 400 digits, a TOML-style hex, 1e309): a one-line
    InputError, or every rule scores with finite ranks and no numpy warning (issue 39)."""
    import warnings

    rng = random.Random(f"edge{seed}")
    files = {"results": WIDE if seed % 3 else LONG, "units": UNITS, "teams": TEAMS, "recipe": RECIPE}
    target = rng.choice(list(files))
    files[target] = fuzz.edge_numbers(files[target], rng, k=rng.randint(1, 3))
    kw = {k: v.encode() for k, v in files.items() if k != "units" or seed % 3}
    try:
        comp = load_competition(**kw)
    except InputError as e:
        assert "\n" not in str(e) and str(e).strip()
        return
    scorer = Scorer(comp)
    groups = comp.context()["group_columns"]
    for rule in ACROSS_RULES:
        p = {"across": rule, "normalise": rng.choice(["none", "minmax", "zscore", "rank"]), "efficiency": "boost"}
        if len(groups) > 1:
            p.update(group_by=groups[1], within=rng.choice(["mean", "size"]), weight_column="size")
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            try:
                lb = scorer.leaderboard(**p)
            except InputError as e:
                assert "\n" not in str(e)
                continue
        ranks = lb["rank"].to_numpy()
        assert (ranks >= 1).all() and (ranks <= len(lb)).all()
        assert not np.isinf(lb["final_score"].to_numpy()).any()

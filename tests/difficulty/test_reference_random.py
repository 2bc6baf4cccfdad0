"""The engine against the slow reference (``reference.py``) on random small competitions and
random parameters; and each deliberately broken variant of the reference caught by the same
comparison."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from scoring.core.errors import InputError
from scoring.difficulty import Scorer, load_competition
from tests.difficulty import randomcomp
from tests.difficulty import reference as ref

N_CASES = 200
PARAMS_PER_CASE = 3


def parameter_sets(case: randomcomp.Case) -> list[dict]:
    rng = random.Random(case.seed * 7919 + 3)
    return [randomcomp.random_parameters(rng, case) for _ in range(PARAMS_PER_CASE)]


_cache: dict[int, tuple] = {}


def engine(seed: int):
    """(case, scorer) loaded from DataFrames (the read_table path), cached per seed."""
    if seed not in _cache:
        case = randomcomp.random_case(seed)
        comp = load_competition(case.samples, case.predictions, case.train_bytes)
        _cache[seed] = (case, Scorer(comp))
    return _cache[seed]


def close(a, b) -> bool:
    if a is None or b is None or (isinstance(a, float) and math.isnan(a)):
        return (a is None or math.isnan(a)) and (b is None or (isinstance(b, float) and math.isnan(b)))
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def mismatches(case, lb, expected: dict) -> list[str]:
    """What differs between an engine leaderboard and the reference's result (empty: agree)."""
    out = []
    if list(lb["submission"]) != ref.order(expected):
        out.append(f"row order {list(lb['submission'])} != {ref.order(expected)}")
    splits = [c for c in lb.columns if c.startswith("split_") and c.count("_") == 1]
    for rec in lb.to_dict("records"):
        exp = expected[rec["submission"]]
        for col in ("accuracy", "score"):
            if not close(rec[col], exp[col]):
                out.append(f"{rec['submission']} {col}: {rec[col]} != {exp[col]}")
        for col in ("accuracy_rank", "rank"):
            if rec[col] != exp[col]:
                out.append(f"{rec['submission']} {col}: {rec[col]} != {exp[col]}")
        if len(splits) != len(exp["splits"]):
            out.append(f"{rec['submission']}: {len(splits)} splits != {len(exp['splits'])}")
            continue
        for c, e in zip(splits, exp["splits"], strict=True):
            got = (rec[f"{c}_n"], rec[f"{c}_correct"])
            if got != (e["n"], e["correct"]) or not close(rec[c], e["score"]):
                out.append(f"{rec['submission']} {c}: {got + (rec[c],)} != {(e['n'], e['correct'], e['score'])}")
    return out


def scored(scorer, params):
    """The engine's leaderboard, or None where it refuses because some model would have no
    score (Eq. 4's denominators both 0: issue 31, never a NaN rank)."""
    try:
        return scorer.leaderboard(**params)
    except InputError:
        return None


def unscorable(expected: dict) -> bool:
    return any(r["score"] is None for r in expected.values())


@pytest.mark.parametrize("seed", range(N_CASES))
def test_engine_matches_reference(seed):
    case, scorer = engine(seed)
    for params in parameter_sets(case):
        expected = ref.leaderboard(case.samples, case.predictions, case.train, **params)
        lb = scored(scorer, params)
        # refused exactly where the reference finds a model without a score
        assert (lb is None) == unscorable(expected), (seed, params)
        if lb is None:
            continue
        assert not mismatches(case, lb, expected), (seed, params, mismatches(case, lb, expected)[:3])
        # the per-sample statistics sum to the same scores
        us = scorer.unit_stats(**params)
        got = dict(zip(us.names, us.scores()["score"], strict=True))
        acc = dict(zip(us.names, us.scores()["accuracy"], strict=True))
        for name, exp in expected.items():
            assert close(got[name], exp["score"]), (seed, params, name)
            assert close(acc[name], exp["accuracy"]), (seed, params, name)


@pytest.mark.parametrize("seed", range(0, N_CASES, 6))
def test_csv_bytes_read_like_dataframes(seed):
    """The fast CSV path (pyarrow) and the read_table path give the same competition."""
    case, scorer = engine(seed)
    fast = load_competition(case.samples.to_csv(index=False).encode(), case.predictions.to_csv(index=False).encode(),
                            case.train_bytes)
    slow = scorer.comp
    assert fast.submission_names == slow.submission_names
    assert fast.sample_ids == slow.sample_ids
    for attr in ("correct", "confidence", "predicted"):
        assert np.array_equal(getattr(fast.predictions, attr), getattr(slow.predictions, attr)), attr
    assert fast.predictions.values == slow.predictions.values
    assert fast.report == slow.report
    for col in slow.ease_columns:
        assert np.array_equal(fast.samples.ease[col], slow.samples.ease[col], equal_nan=True)


def test_generator_covers_what_the_comparison_promises():
    seen = {k: False for k in ("wmprob", "wsbias", "wood_column", "wood_train", "equal", "threshold", "continuous",
                               "given_thresholds", "custom_weights", "scaled", "penalty_only", "fewer_samples_than_splits",
                               "empty_threshold_split", "tie_at_threshold", "not_gold", "off_sum", "tied_models",
                               "shuffled", "ease_zero", "empty_ease", "refused")}
    for seed in range(N_CASES):
        case, scorer = engine(seed)
        comp = scorer.comp
        seen["not_gold"] |= any("not a gold label" in r for r in comp.report)
        seen["off_sum"] |= any("sum to more than" in r for r in comp.report)
        c = comp.predictions.correct
        seen["tied_models"] |= any((c[i] == c[j]).all() and np.array_equal(comp.predictions.confidence[i],
                                   comp.predictions.confidence[j]) for i in range(len(c)) for j in range(i))
        models = [m.strip() for m in case.predictions["model"]]
        seen["shuffled"] |= models != sorted(models, key=models.index)
        for col in ("bias_a", "bias_b"):
            seen["ease_zero"] |= (case.samples[col] == "0").any() or (case.samples[col] == "0.0").any()
            seen["empty_ease"] |= (case.samples[col] == "").any()
        for p in parameter_sets(case):
            key = p["metric"] if p["metric"] != "wood" else ("wood_column" if "ease_column" in p else "wood_train")
            seen[key] = True
            seen[p["split_mode"]] = True
            seen["given_thresholds"] |= "thresholds" in p
            seen["custom_weights"] |= "," in str(p.get("weights", ""))
            seen["scaled"] |= p["scale_by_difficulty"]
            seen["penalty_only"] |= p["reward"] == 0
            lb = scored(scorer, p)
            seen["refused"] |= lb is None
            if lb is None:
                continue
            n = lb.attrs["parameters"]["splits"]
            seen["fewer_samples_than_splits"] |= n is not None and comp.n_samples < n
            if p["split_mode"] == "threshold":
                seen["empty_threshold_split"] |= bool((lb[[f"split_{x}_n" for x in range(1, n + 1)]] == 0).any(axis=None))
                if "ease_column" in p:
                    vals = {float(v) for v in case.samples[p["ease_column"]] if v != ""}
                    seen["tie_at_threshold"] |= bool(vals & set(lb.attrs["parameters"]["thresholds"]))
    assert all(seen.values()), [k for k, v in seen.items() if not v]


@pytest.mark.parametrize("bug", ref.BUGS)
def test_each_broken_reference_is_caught(bug):
    """A comparison that cannot tell a broken reference from the engine proves nothing."""
    for seed in range(N_CASES):
        case, scorer = engine(seed)
        for params in parameter_sets(case):
            broken = ref.leaderboard(case.samples, case.predictions, case.train, bug=bug, **params)
            lb = scored(scorer, params)
            if (lb is None) != unscorable(broken) or (lb is not None and mismatches(case, lb, broken)):
                return
    pytest.fail(f"no random case tells the {bug!r} variant from the engine")

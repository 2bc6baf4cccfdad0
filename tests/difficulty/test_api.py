"""The Python API: the family in the registry, per-sample statistics (UnitStats) against the
leaderboard, the views' invariants on the real data, caching, and a light import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import scoring
from scoring.core import UnitStats
from scoring.difficulty import FAMILY, PARAMS, PRESETS, Scorer, load_competition, sample_datasets
from scoring.difficulty.views import (
    display_samples,
    hardest_samples,
    preset_table,
    sample_points,
    sample_table,
    split_table,
)

ROOT = Path(__file__).resolve().parents[2]

PARAMETER_SETS = [
    dict(metric="wmprob"),
    dict(metric="wmprob", split_mode="threshold", splits=5, weights="square", reward=1, penalty=-0.5),
    dict(metric="wmprob", split_mode="continuous", scale_by_difficulty=True),
    dict(metric="wsbias", ease_column="bias_algo1", splits=4, weights="log"),
    dict(metric="wsbias", ease_column="bias_algo2", split_mode="threshold", reward=0, penalty=-1),
    dict(metric="wood", ease_column="bias_algo1", split_mode="continuous"),
    dict(metric="wsbias", ease_column="bias_algo1", weights="0,1,0,2,0,3,1", scale_by_difficulty=True),
]


@pytest.fixture(scope="module")
def sst2() -> Scorer:
    d = sample_datasets()["sst-2"]
    return Scorer(load_competition(d / "samples.csv", d / "predictions.csv"))


def test_family_is_registered():
    fam = scoring.get("difficulty")
    assert fam is FAMILY and fam.key == "df" and fam.unit == "sample"
    assert [i.flag for i in fam.inputs] == ["--samples", "--predictions", "--train"]
    assert fam.input("train").kind == "text" and not fam.input("train").required
    assert [s.id for s in fam.stages] == ["accuracy", "score"] and all(s.higher_is_better for s in fam.stages)
    assert fam.final.rank == "rank"
    assert PARAMS.names == ["metric", "ease_column", "sts_top", "split_mode", "splits", "thresholds", "weights",
                            "reward", "penalty", "scale_by_difficulty"]
    assert PRESETS == {1: (1.0, -1.0), 2: (1.0, 0.0), 3: (0.0, -1.0), 4: (1.0, -0.5), 5: (0.5, -1.0)}  # Table 1


def test_context_lists_numeric_columns(sst2):
    assert FAMILY.context(sst2.comp) == {"ease_columns": ["bias_algo1", "bias_algo2"]}


@pytest.mark.parametrize("params", PARAMETER_SETS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_unit_stats_sum_to_the_leaderboard(sst2, params):
    lb = sst2.leaderboard(**params).set_index("submission")
    us = sst2.unit_stats(**params)
    assert isinstance(us, UnitStats) and us.n_units == 872 and us.final == "score"
    scores = us.scores()
    got = dict(zip(us.names, scores["score"], strict=True))
    acc = dict(zip(us.names, scores["accuracy"], strict=True))
    for name in lb.index:
        assert got[name] == pytest.approx(lb.loc[name, "score"], abs=1e-9)
        assert acc[name] == pytest.approx(lb.loc[name, "accuracy"], abs=1e-12)
    # a bootstrap replicate of all-ones weights is the same leaderboard
    again = us.scores(np.ones((2, us.n_units)))["score"]
    assert np.allclose(again, scores["score"][None, :], atol=1e-9)


def test_unit_stats_cells(sst2):
    us = sst2.unit_stats(metric="wsbias", ease_column="bias_algo1")
    # the corrected file scores 787 of the 872 samples (shared/real/README.md; counted in
    # test_spec_figures): 787 = 7·112 + 3, so 7 splits of sizes 113, 113, 113, 112, 112, 112, 112,
    # and the 872 − 787 = 85 left out form the eighth cell
    assert us.n_cells == 8
    assert np.bincount(us.cell).tolist() == [113, 113, 113, 112, 112, 112, 112, 85]
    assert sst2.unit_stats(metric="wmprob").n_cells == 1  # a split per model: one cell


def test_views_on_real_data(sst2):
    params = dict(metric="wsbias", ease_column="bias_algo1", split_mode="threshold", splits=5)
    lb = sst2.leaderboard(**params).set_index("submission")
    table = split_table(sst2, **params)
    assert len(table) == 50
    sums = table.groupby("submission")[["contribution", "n", "correct"]].sum()
    for name in lb.index:
        assert sums.loc[name, "contribution"] == pytest.approx(lb.loc[name, "score"])
        assert sums.loc[name, "n"] == 787  # every scored sample (787 of 872) in one split
    samples = sample_table(sst2, **params)
    assert len(samples) == 872 and list(samples.columns[:6]) == ["sample_id", "label", "text", "ease", "split",
                                                                "missed_by"]
    assert (samples["missed_by"] == (samples[list(lb.index)].ne(samples["label"], axis=0)).sum(axis=1)).all()
    hard = hardest_samples(sst2, top=10, **params)
    assert hard["missed_by"].is_monotonic_decreasing and hard["missed_by"].iloc[0] == samples["missed_by"].max()
    presets = preset_table(sst2, **params)
    case1 = presets[presets["case"] == "1"].set_index("submission")["score"]
    assert np.allclose(case1[lb.index], lb["score"])


def test_display_sampling_never_touches_scores(sst2):
    before = sst2.leaderboard(metric="wmprob")
    keep = display_samples(872, 10, max_points=2000, seed=1)
    assert len(keep) == 200 and np.array_equal(keep, display_samples(872, 10, max_points=2000, seed=1))
    pts = sample_points(sst2, samples=keep, metric="wmprob")
    assert len(pts) == 2000 and set(pts["sample"]) == set(keep.tolist())
    assert sst2.leaderboard(metric="wmprob").equals(before)


def test_slider_moves_reuse_the_sorted_source(sst2):
    sst2.leaderboard(metric="wsbias", ease_column="bias_algo2")
    misses = sst2.cache_info()["misses"]
    for n in range(2, 8):
        for weights in ("linear", "square", "reverse"):
            sst2.leaderboard(metric="wsbias", ease_column="bias_algo2", splits=n, weights=weights, reward=0.5)
            sst2.leaderboard(metric="wsbias", ease_column="bias_algo2", split_mode="threshold", splits=n,
                             scale_by_difficulty=True)
    assert sst2.cache_info()["misses"] == misses


def test_import_stays_light():
    code = ("import sys, scoring, scoring.difficulty; scoring.families(); "
            "from scoring.difficulty import views; "
            "assert 'sklearn' not in sys.modules and 'streamlit' not in sys.modules, sorted(sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_stable_argsort_rows_is_numpys_stable_sort():
    from scoring.difficulty.sorting import argsort_rows, stable_argsort_rows

    rng = np.random.default_rng(7)
    for trial in range(200):
        shape = (int(rng.integers(1, 6)), int(rng.integers(1, 80)))
        a = rng.choice([0.0, -0.0, 0.25, 0.5, 1.0], size=shape) if trial % 2 else rng.random(shape).round(2)
        assert (stable_argsort_rows(a) == np.argsort(a, axis=1, kind="stable")).all()
    big = -rng.random((6, 40_000)).round(3)  # threaded path, many ties
    assert (argsort_rows(big) == np.argsort(big, axis=1, kind="stable")).all()


@pytest.mark.parametrize("values", [
    {},
    dict(metric="wsbias", ease_column="bias_algo1", split_mode="threshold", thresholds=(0.2, 0.4, 0.6), weights="1,2,4.5,0"),
    dict(metric="wood", sts_top=40, split_mode="continuous", reward=0.5, penalty=-1.0, scale_by_difficulty=True),
    dict(splits=3, weights=[1, 2, 3]),
])
def test_parameters_round_trip_as_link_text(values):
    """Every parameter's value survives ``to_text`` -> ``coerce`` (links and presets)."""
    full = PARAMS.validate(values)
    again = PARAMS.validate({p.name: p.to_text(full[p.name]) for p in PARAMS})
    assert again == full


def test_sorting_each_model_and_its_threshold_splits_agree_with_numpy():
    # the per-model order (E descending, ties in sample order) sorted a row at a time, and the
    # threshold boundaries read from E itself (no −E kept), against numpy's stable sort of −E
    # and metric.threshold_bounds on −E; thresholds sit on values, between them and outside
    from scoring.difficulty.metric import segment_sums, threshold_bounds
    from scoring.difficulty.scorer import order_samples
    from scoring.difficulty.sorting import sort_rows

    rng = np.random.default_rng(11)
    for trial in range(100):
        shape = (int(rng.integers(2, 6)), int(rng.integers(1, 60)))  # one row is the shared order
        ease = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=shape) if trial % 2 else rng.random(shape).round(2)
        correct = rng.random(shape) < 0.5
        order, e, corr, cum = sort_rows(ease, correct)
        expected = np.argsort(-ease, axis=1, kind="stable")
        assert (order == expected).all() and (e == np.take_along_axis(ease, expected, axis=1)).all()
        assert (corr == np.take_along_axis(correct, expected, axis=1)).all()
        assert (cum[:, 1:] == np.cumsum(corr, axis=1)).all() and (cum[:, 0] == 0).all()
        o = order_samples(ease, correct, "wmprob")
        assert o.neg is None and (o.factor == e).all()
        for t in ([0.5], [0.25, 0.75], [-1.0, 0.3, 2.0], sorted(rng.random(3).round(2))):
            assert (o.threshold_bounds(t) == threshold_bounds(-e, t)).all()
            # the masses of a scaled or continuous setting, made a row at a time, are the sums
            # of the whole matrices bit for bit (segment_sums, as the scorer summed them before)
            for bounds in (o.threshold_bounds(t), np.array([[0, e.shape[1] // 2, e.shape[1]]])):
                for power in (1, 2):
                    u = e ** power
                    got = o._row_masses(bounds, power)
                    assert (got[0] == segment_sums(u, bounds)).all() and (got[1] == segment_sums(u * corr, bounds)).all()

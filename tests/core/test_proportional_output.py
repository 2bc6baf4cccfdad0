"""Work proportional to the output, counted (issue 42 item 4) — not timed.

The QA JSON document at many themes once deep-copied the leaderboard's ``attrs`` (the theme
list, the weights) once per column, so its cost grew with themes²; the bootstrap's cell sums
once took one Python step per cell of every replicate. Here the steps are counted with a
profiler hook (every Python and C function call) at two sizes: the count may grow with the
output, never with cells × anything, and the deliberately broken versions (written out
below) must fail the same count."""

from __future__ import annotations

import sys
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pandas.core.generic as pd_generic
import pytest

from scoring.core.family import UnitStats
from scoring.qa.family import leaderboard_document
from scoring.qa.params import FIXED_COLUMNS, METRICS


@contextmanager
def counting():
    """Counts every function call (Python and C) made while inside."""
    box = {"calls": 0}

    def hook(frame, event, arg):
        if event in ("call", "c_call"):
            box["calls"] += 1

    sys.setprofile(hook)
    try:
        yield box
    finally:
        sys.setprofile(None)


@contextmanager
def counting_deepcopies(monkeypatch):
    """Counts pandas' deep copies of ``attrs`` (``__finalize__`` calls ``deepcopy``)."""
    box = {"calls": 0}
    real = pd_generic.deepcopy

    def counted(x, memo=None):
        box["calls"] += 1
        return real(x, memo)

    monkeypatch.setattr(pd_generic, "deepcopy", counted)
    yield box


# ---- the QA JSON document ----------------------------------------------------------------------
def qa_leaderboard(n_themes: int, teams: int = 4) -> pd.DataFrame:
    """A leaderboard frame as ``qa.Scorer.leaderboard`` shapes it, with its ``attrs``."""
    rng = np.random.default_rng(n_themes)
    themes = [f"theme{t:06d}" for t in range(n_themes)]
    data = {"submission": [f"team{k}" for k in range(teams)], "final_score": rng.random(teams),
            "rank": np.arange(1, teams + 1), "p_first": rng.random(teams), "best_rank": np.ones(teams, int),
            "median_rank": np.full(teams, 2.0), "worst_rank": np.full(teams, teams)}
    block = rng.random((teams, n_themes * len(METRICS)))
    block[0, 2] = np.nan  # a theme without answers: null in JSON
    block[1, 3] = np.inf
    lb = pd.concat([pd.DataFrame(data), pd.DataFrame(block, columns=[f"{t}:{m}" for t in themes for m in METRICS])],
                   axis=1)
    lb.attrs["themes"] = themes
    lb.attrs["weights"] = {t: 1 / n_themes for t in themes}
    return lb


def document_by_records(lb: pd.DataFrame) -> list[dict]:
    """The broken way (issue 42): ``to_dict("records")`` on the frame with its ``attrs``."""
    themes = lb.attrs["themes"]
    return [{"themes": {t: {m: rec[f"{t}:{m}"] for m in METRICS} for t in themes}} for rec in lb.to_dict("records")]


def test_the_qa_document_is_what_the_frame_holds():
    lb = qa_leaderboard(7)
    doc = leaderboard_document(lb, {})
    assert doc["parameters"]["weights"] == pytest.approx({t: 1 / 7 for t in lb.attrs["themes"]})
    for i, row in enumerate(doc["leaderboard"]):
        assert [row[c] for c in FIXED_COLUMNS][:2] == [lb["submission"][i], lb["final_score"][i]]
        assert row["rank"] == i + 1 and isinstance(row["rank"], int)
        for t in lb.attrs["themes"]:
            for m in METRICS:
                v = lb[f"{t}:{m}"][i]
                want = None if np.isnan(v) else "inf" if np.isinf(v) else float(v)
                assert row["themes"][t][m] == want


def test_the_qa_document_costs_what_it_writes(monkeypatch):
    counts = {}
    for n in (400, 4000):
        lb = qa_leaderboard(n)
        with counting_deepcopies(monkeypatch) as copies, counting() as calls:
            doc = leaderboard_document(lb, {})
        assert len(doc["leaderboard"][0]["themes"]) == n
        assert copies["calls"] <= 2  # attrs copied a fixed number of times (checked at once: the broken way crawls)
        counts[n] = (copies["calls"], calls["calls"])
    (copies_small, calls_small), (copies_big, calls_big) = counts[400], counts[4000]
    assert copies_big == copies_small  # whatever the themes
    assert calls_big <= 10.5 * calls_small  # ten times the output: at most ten times the calls (plus a little)
    # the broken way copies attrs once per column: its count grows with the themes
    with counting_deepcopies(monkeypatch) as copies:
        document_by_records(qa_leaderboard(40))
    assert copies["calls"] >= 40 * len(METRICS)


# ---- the bootstrap's cell sums ---------------------------------------------------------------------
def unit_stats(cells: int, sizes=(1,), teams: int = 3, k: int = 4) -> UnitStats:
    rng = np.random.default_rng(cells)
    cell = np.repeat(np.arange(cells), np.resize(np.asarray(sizes), cells))
    rng.shuffle(cell)
    u = len(cell)
    return UnitStats(units=[str(i) for i in range(u)], cell=cell, n_cells=cells + 2, team=rng.random((u, teams, k)),
                     shared=rng.random((u, 2)), score=lambda a, b: {}, final="x")


def cell_sums_cell_by_cell(us: UnitStats, w: np.ndarray):
    """The broken way (issue 42): one matrix product per cell."""
    u, t, k = us.team.shape
    team = np.zeros((len(w), us.n_cells, t, k))
    shared = np.zeros((len(w), us.n_cells, us.shared.shape[1]))
    for g in np.unique(us.cell).tolist():
        idx = np.flatnonzero(us.cell == g)
        team[:, g] = (w[:, idx] @ us.team[idx].reshape(len(idx), t * k)).reshape(len(w), t, k)
        shared[:, g] = w[:, idx] @ us.shared[idx]
    return team, shared


@pytest.mark.parametrize("sizes", [(1,), (1, 2, 3), (5, 1, 1, 8)])
def test_weighted_cell_sums_take_no_step_per_cell(sizes):
    rng = np.random.default_rng(3)
    calls = {}
    for cells in (2000, 20000):
        us = unit_stats(cells, sizes)
        w = rng.integers(0, 3, size=(3, us.n_units)).astype(float)
        with counting() as box:
            team, shared = us.cell_sums(w)
        calls[cells] = box["calls"]
        if cells == 2000:  # the same sums as cell by cell
            want_t, want_s = cell_sums_cell_by_cell(us, w)
            assert np.allclose(team, want_t, rtol=1e-12, atol=0) and np.allclose(shared, want_s, rtol=1e-12, atol=0)
    assert calls[20000] == calls[2000]  # ten times the cells, the same steps (one per distinct size)
    us = unit_stats(200, sizes)
    with counting() as box:
        cell_sums_cell_by_cell(us, np.ones((3, us.n_units)))
    assert box["calls"] > calls[20000]  # the broken way: steps grow with the cells (here 200 already)

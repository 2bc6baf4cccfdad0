"""Bootstrap intervals, tiers, leave-one-out, stability maps and configuration diffs."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import scoring
from scoring.core.family import UnitStats
from scoring.core.robustness import (
    bootstrap,
    leave_one_out,
    replicates,
    resample_counts,
    stage_intervals,
    top_set,
)
from scoring.core.stability import axis, compare, flip_edges, stability_map
from scoring.shovel_ready.efficiency import boost_arrays
from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_DEMO, TINY_GT, TINY_RUNTIMES


def _tiny(subs: dict[str, str] | None = None, runtimes: str = TINY_RUNTIMES):
    subs = subs or {"Alpha": TINY_ALPHA, "Beta": TINY_BETA}
    return scoring.load_competition(ground_truth=TINY_GT.encode(), submissions={k: v.encode() for k, v in subs.items()},
                                    demographics=TINY_DEMO.encode(), runtimes=runtimes.encode())


# ---- resampling -------------------------------------------------------------------------------
def test_resampling_keeps_every_cell_size_and_is_seeded():
    cell = np.array([0, 0, 0, 1, 1, 2])
    w = resample_counts(cell, 50, seed=3)
    assert w[:, :3].sum(axis=1).tolist() == [3] * 50 and w[:, 3:5].sum(axis=1).tolist() == [2] * 50
    assert w[:, 5].tolist() == [1] * 50  # a one-unit cell is always itself
    assert np.array_equal(w, resample_counts(cell, 50, seed=3))
    assert not np.array_equal(w, resample_counts(cell, 50, seed=4))


# ---- the Shovel-Ready family: matrix product = explicit re-scorings --------------------------------
def _resampled_competition(counts: np.ndarray, essays: list[str], subs: dict[str, str]):
    """Each essay repeated as often as the replicate draws it (under new ids)."""
    def repeat(text: str, col: str = "id") -> bytes:
        df = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
        parts = []
        for e, k in zip(essays, counts, strict=True):
            rows = df[df[col] == e]
            for c in range(int(k)):
                parts.append(rows.assign(**{col: f"{e}#{c}"}))
        return pd.concat(parts).to_csv(index=False).encode() if parts else df.head(0).to_csv(index=False).encode()

    return scoring.load_competition(ground_truth=repeat(TINY_GT), submissions={k: repeat(v) for k, v in subs.items()},
                                    demographics=repeat(TINY_DEMO), runtimes=TINY_RUNTIMES.encode())


@pytest.mark.parametrize("attrs", [(), ("ell_status",)])
def test_replicates_equal_explicit_rescoring(attrs):
    subs = {"Alpha": TINY_ALPHA, "Beta": TINY_BETA}
    comp = _tiny(subs)
    params = dict(attributes=attrs, alpha=5.0, band=0.5)
    us = scoring.Scorer(comp).unit_stats(**params)
    # unstratified draws over the two essays (stratified ones would always keep one of each)
    w = np.array([[2, 0], [0, 2], [1, 1], [2, 0]], dtype=float) if not attrs else np.array([[1, 1]], dtype=float)
    final, ranks = replicates(us, w)
    for b, counts in enumerate(w):
        comp_b = _resampled_competition(counts, list(comp.essays), subs)
        lb = scoring.Scorer(comp_b).leaderboard(**params).set_index("submission")
        assert final[b] == pytest.approx(lb.loc[list(us.names), "final_score"].to_numpy(), abs=1e-12), counts
        assert ranks[b].tolist() == lb.loc[list(us.names), "rank"].tolist()


def test_a_copy_gets_the_same_row_and_seeds_repeat():
    comp = _tiny({"Alpha": TINY_ALPHA, "Copy": TINY_ALPHA, "Beta": TINY_BETA}, TINY_RUNTIMES + "Copy,50\n")
    us = scoring.Scorer(comp).unit_stats(attributes=())
    iv = bootstrap(us, b=300, seed=7)
    cols = ["score_low", "score_high", "rank_low", "rank_high", "letters", "could_win", "rank_low_all",
            "rank_high_all"]
    assert iv.loc["Alpha", cols].tolist() == iv.loc["Copy", cols].tolist()
    assert bootstrap(us, b=300, seed=7).equals(iv)


def test_a_perfect_team_ranks_first_in_every_replicate():
    perfect = ("id,class,predictionstring,Effective,Ineffective\n"
               "e1,Lead,0 1 2 3 4,1,0\ne1,Claim,5 6 7 8 9,0,1\ne1,Evidence,10 11 12 13 14 15 16 17 18 19,1,0\n"
               "e2,Claim,0 1 2 3 4 5,1,0\n")
    comp = _tiny({"Alpha": TINY_ALPHA, "Perfect": perfect, "Beta": TINY_BETA})
    iv = bootstrap(scoring.Scorer(comp).unit_stats(attributes=("ell_status",), band=0.0), b=200)
    # one essay per group: every replicate is the data itself, so every difference is certain
    # (se = 0): the perfect team is first in every set, alone in its letter, the one possible winner
    assert iv.loc["Perfect", ["rank_low", "rank_high", "rank_low_all", "rank_high_all"]].tolist() == [1, 1, 1, 1]
    assert iv.loc["Perfect", "score_low"] == pytest.approx(1.0)
    assert top_set(iv, 1) == ["Perfect"] and iv["could_win"].tolist() == [t == "Perfect" for t in iv.index]
    assert top_set(iv, len(iv))[0] == "Perfect" and len(top_set(iv, len(iv))) == len(iv)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(scoring.InputError, match="top_k"):
            top_set(iv, bad)
    assert not set(iv.loc["Perfect", "letters"]) & set("".join(iv.drop(index="Perfect")["letters"]))


def test_group_intervals_equal_percentiles_of_explicit_rescorings():
    subs = {"Alpha": TINY_ALPHA, "Beta": TINY_BETA}
    comp = _tiny(subs)
    # one essay per ell_status group: a one-unit cell is always itself, so each group's interval is its score
    us = scoring.Scorer(comp).unit_stats(attributes=("ell_status",))
    gs = scoring.Scorer(comp).group_scores(attributes=("ell_status",)).scores.loc[list(us.names)].to_numpy()
    low, high = stage_intervals(us, "groups", b=50, seed=2)
    assert low.shape == gs.shape and np.allclose(low, gs) and np.allclose(high, gs)
    # no attributes: one group of both essays; its interval spans the replicates' segment scores,
    # each replicate re-scored explicitly from the essays it draws
    us = scoring.Scorer(comp).unit_stats(attributes=())
    counts = resample_counts(us.cell, 40, seed=5)
    seg = {}
    for row in {tuple(c) for c in counts.tolist()}:
        lb = scoring.Scorer(_resampled_competition(np.array(row), list(comp.essays), subs)).leaderboard(attributes=())
        seg[row] = lb.set_index("submission").loc[list(us.names), "segment_score"].to_numpy()
    explicit = np.stack([seg[tuple(c)] for c in counts.tolist()])
    low, high = stage_intervals(us, "groups", b=40, seed=5, confidence=0.9)
    assert low[:, 0] == pytest.approx(np.percentile(explicit, 5, axis=0), abs=1e-12)
    assert high[:, 0] == pytest.approx(np.percentile(explicit, 95, axis=0), abs=1e-12)
    assert (low[:, 0] < high[:, 0]).any()  # the two essays differ, so the interval is not a point


def test_bootstrap_rejects_bad_arguments():
    us = scoring.Scorer(_tiny()).unit_stats()
    for kw, name in [({"b": 0}, "bootstrap"), ({"b": 2.5}, "bootstrap"), ({"confidence": 1.0}, "confidence"),
                     ({"seed": -1}, "seed")]:
        with pytest.raises(scoring.InputError, match=name):
            bootstrap(us, **kw)


# ---- leave one team out --------------------------------------------------------------------------
def test_leave_one_out_finds_a_team_lifted_by_a_rival_leaving():
    # X 1.0 (no runtime), Z 0.96 (slow), Y 0.94 (fast). Band 5 %: with X, Z is eligible (1/0.96 =
    # 1.042) and the fastest eligible: 0.96·1.05 = 1.008 > X; Y (1/0.94 = 1.064) is not -> Z, X, Y.
    # Without X the best is 0.96: Y is eligible (1.021) and now the fastest: 0.94·1.05 = 0.987 > Z,
    # which (160/10 = 16x slower) gets no boost -> Y, Z. Y gains a place beyond the one X frees,
    # Z loses one although X was below it.
    base = np.array([1.0, 0.94, 0.96])
    runtime = np.array([np.nan, 10.0, 160.0])

    def score(team_sums, shared_sums, teams=None):
        x = team_sums[..., 0, :, 0] / shared_sums[..., 0, 0][..., None]
        rt = runtime if teams is None else runtime[teams]
        _, boost = boost_arrays(x, rt, 0.05, 0.05, 0.2)
        return {"final": x * (1 + boost)}

    us = UnitStats(units=["u"], cell=[0], n_cells=1, team=base[None, :, None], shared=np.ones((1, 1)), score=score,
                   final="final", names=["X", "Y", "Z"])
    moved = leave_one_out(us)
    assert moved.to_dict("records") == [
        {"absent": "X", "team": "Y", "rank": 3, "rank_without": 1, "moved": 1},
        {"absent": "X", "team": "Z", "rank": 1, "rank_without": 2, "moved": -1},
    ]


# ---- stability maps and diffs --------------------------------------------------------------------
def test_stability_map_agrees_with_the_base_cell_and_flags_impossible_cells():
    comp = _tiny()
    fam = scoring.get("shovel-ready")
    scorer = scoring.Scorer(comp)
    base = fam.params.validate(attributes=("ell_status",), context=fam.context(comp))
    g = stability_map(fam, scorer, base, axis(fam, "alpha", values=[0, 50, 200]), axis(fam, "w", values=[0.0, 0.5, 1.0]),
                      context=fam.context(comp))
    cell = g[(g["x"] == 50) & (g["y"] == 0.5)].iloc[0]
    assert cell["tau"] == pytest.approx(1.0) and cell["valid"]
    lb = scorer.leaderboard(**base)
    assert cell["winner"] == lb.iloc[0]["submission"]
    assert len(g) == 9 and set(g["tau"].dropna()) <= {1.0, -1.0}  # two teams: the same order or swapped
    sg = scoring.get("spotgeo")
    rows = [dict(tau=5.0, epsilon=6.0), dict(tau=10.0, epsilon=6.0)]
    assert [bool(sg.params.validate(r) is not None) for r in rows[1:]] == [True]
    with pytest.raises(scoring.InputError):
        sg.params.validate(rows[0])  # ε above τ: such a cell is left out of a map (valid = False)


class _LeaderboardOnly:
    """A scorer seen through its leaderboard only: the map's slow path, cell by cell."""

    def __init__(self, scorer):
        self.leaderboard = scorer.leaderboard


def test_final_ranks_are_the_leaderboards_rank_column_and_the_map_is_the_same_either_way():
    """``Scorer.final_ranks`` (the stability map's fast path) gives, in the order of ``names``,
    exactly the ``rank`` of the leaderboard at every parameter set tried; a map computed from it
    equals, cell for cell, the map computed from a whole leaderboard per cell."""
    fam = scoring.get("shovel-ready")
    folder = fam.sample_dir
    comp = scoring.load_competition(ground_truth=folder / "ground_truth.csv", submissions=[folder / "submissions"],
                                    demographics=folder / "demographics.csv", runtimes=folder / "runtimes.csv")
    scorer = scoring.Scorer(comp)
    rng = np.random.default_rng(7)
    for _ in range(12):
        p = dict(w=float(rng.uniform(0, 1)), alpha=float(rng.choice([0, 5, 50, 200])),
                 quality=str(rng.choice(["binary", "max", "iou"])), threshold=float(rng.choice([0.51, 0.7])),
                 band=float(rng.uniform(0, 0.2)), max_boost=float(rng.uniform(0, 0.2)),
                 attributes=("ell_status",) if rng.uniform() < 0.5 else ("ell_status", "gender"))
        lb = scorer.leaderboard(**p).set_index("submission")
        assert scorer.final_ranks(**p).tolist() == lb.loc[list(scorer.names), "rank"].tolist()
    ctx = fam.context(comp)
    base = fam.params.validate(attributes=("ell_status",), context=ctx)
    x, y = axis(fam, "max_boost", values=[0.0, 0.05, 0.2]), axis(fam, "w", values=[0.0, 0.3, 0.6, 1.0])
    fast = stability_map(fam, scorer, base, x, y, context=ctx)
    slow = stability_map(fam, _LeaderboardOnly(scorer), base, x, y, context=ctx)
    pd.testing.assert_frame_equal(fast, slow)
    # the grid crosses a winner flip (no boost: deep-ensemble; the memo's: quick-silver) and
    # rankings other than the base one: the comparison has teeth
    assert fast["winner"].nunique() > 1 and fast["tau"].nunique() > 1


def test_flip_edges_and_compare_by_hand():
    g = pd.DataFrame({"x": [0, 1, 2, 0, 1, 2], "y": [0, 0, 0, 1, 1, 1], "winner": list("aabaaa")})
    assert flip_edges(g) == [(1, 0, 2, 0), (2, 0, 2, 1)]
    fam = scoring.get("shovel-ready")
    comp = _tiny()
    s = scoring.Scorer(comp)
    a = s.leaderboard(attributes=("ell_status",))
    b = s.leaderboard(attributes=("ell_status",), overlap_removal=False)
    d = compare(fam, a, b).set_index("submission")
    # overlap removal off changes stages 3-5 only: a team whose rank moves moves at the segment score
    for team, row in d.iterrows():
        first_a = a.set_index("submission").loc[team]
        first_b = b.set_index("submission").loc[team]
        if first_a["segment_score_rank"] != first_b["segment_score_rank"]:
            assert row["moved_at"] == "Unified segment score"
        assert row["delta"] == row["rank_a"] - row["rank_b"]


# ---- the command line of every family -------------------------------------------------------------
def _args(fam: str, tmp_path) -> list[str]:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "sample_data"
    if fam == "shovel-ready":
        c = root / "competition"
        return ["leaderboard", "--ground-truth", c / "ground_truth.csv", "--submissions", c / "submissions",
                "--demographics", c / "demographics.csv", "--attributes", "ell_status", "--runtimes", c / "runtimes.csv"]
    if fam == "spotgeo":
        return ["spotgeo", "leaderboard", "--ground-truth", root / "spotgeo" / "ground_truth.json",
                "--submissions", root / "spotgeo" / "submissions"]
    if fam == "difficulty":
        d = root / "difficulty" / "sst-2"
        return ["difficulty", "leaderboard", "--samples", d / "samples.csv", "--predictions", d / "predictions.csv",
                "--metric", "wsbias", "--ease-column", "bias_algo1"]
    return ["qa", "leaderboard", "--ground-truth", root / "qa" / "ground_truth.csv", "--submissions",
            root / "qa" / "submissions", "--weight-draws", "200"]


@pytest.mark.parametrize("fam", ["shovel-ready", "spotgeo", "qa", "difficulty"])
def test_bootstrap_on_the_command_line(fam, tmp_path):
    import json

    from tests.cli import run_cli

    base = run_cli(*_args(fam, tmp_path))
    csv = run_cli(*_args(fam, tmp_path), "--bootstrap", "60")
    assert csv.returncode == 0, csv.stderr
    head = csv.stdout.splitlines()[0].split(",")
    assert head[-6:] == ["score_low", "score_high", "rank_low", "rank_high", "letters", "could_win"]
    assert head[:-6] == base.stdout.splitlines()[0].split(",")  # the family's own columns first, unchanged
    again = run_cli(*_args(fam, tmp_path), "--bootstrap", "60")
    assert again.stdout == csv.stdout  # a fixed seed: the same intervals
    doc = json.loads(run_cli(*_args(fam, tmp_path), "--bootstrap", "60", "--format", "json").stdout)
    row = doc["leaderboard"][0]
    assert row["rank_low"] <= row["rank"] <= row["rank_high"] and row["letters"]
    assert doc["bootstrap"]["replicates"] == 60
    assert list(doc)[0] == "who_could_have_won"  # the prize committee's question comes first
    could = [r["submission"] for r in doc["leaderboard"] if r["could_win"]]
    assert sorted(doc["who_could_have_won"]["teams"]) == sorted(could) and doc["leaderboard"][0]["could_win"]
    both = run_cli(*_args(fam, tmp_path), "--bootstrap", "60", "--simultaneous", "--top-k", "2")
    assert both.returncode == 0, both.stderr
    assert both.stdout.splitlines()[0].split(",")[-3:] == ["rank_low_all", "rank_high_all", "in_top_2"]
    doc = json.loads(run_cli(*_args(fam, tmp_path), "--bootstrap", "60", "--top-k", "2", "--format", "json").stdout)
    assert set(doc["who_could_have_won"]["teams"]) <= set(doc["top_k"]["teams"]) and doc["top_k"]["k"] == 2
    for flags, name in [(["--bootstrap", "lots"], "bootstrap"), (["--bootstrap", "50", "--confidence", "1.5"], "confidence"),
                        (["--bootstrap", "50", "--seed", "-3"] if fam not in ("qa",) else ["--bootstrap", "50", "--seed", "x"],
                         "seed"), (["--bootstrap", "50", "--top-k", "0"], "top-k"), (["--simultaneous"], "bootstrap")]:
        bad = run_cli(*_args(fam, tmp_path), *flags)
        assert bad.returncode == 2 and name in bad.stderr and "Traceback" not in bad.stderr, flags


def test_kendall_tau_b_equals_a_hand_count_on_random_tied_rankings():
    """τ-b = (concordant − discordant) / √((n0 − ties in a)(n0 − ties in b)), counted pair by pair."""
    from scoring.core.stability import kendall_tau_b

    rng = np.random.default_rng(4)
    for _ in range(50):
        n = int(rng.integers(2, 15))
        a, b = rng.integers(1, 5, n), rng.integers(1, 5, n)  # few values: many ties
        conc = disc = ties_a = ties_b = 0
        for i in range(n):
            for j in range(i + 1, n):
                sa, sb = np.sign(a[i] - a[j]), np.sign(b[i] - b[j])
                ties_a += sa == 0
                ties_b += sb == 0
                conc += sa * sb > 0
                disc += sa * sb < 0
        n0 = n * (n - 1) // 2
        denom = np.sqrt((n0 - ties_a) * (n0 - ties_b))
        want = (conc - disc) / denom if denom > 0 else np.nan
        got = kendall_tau_b(a, b)
        assert (np.isnan(want) and np.isnan(got)) or got == pytest.approx(want, abs=1e-12), (a, b)


def test_replicates_are_chunked_by_memory_and_the_result_does_not_depend_on_it(monkeypatch):
    """Many cells × many teams: a chunk holds fewer replicates (issue 30's audit: QA with 50,000
    themes and 20 teams would have held ~10 GiB of cell sums in one chunk of 250); the intervals
    and rank sets are the same whatever the chunk."""
    from scoring.core import robustness as rob

    rng = np.random.default_rng(3)
    units, teams, cells = 400, 6, 200
    team = rng.random((units, teams, 1))
    us = UnitStats(units=[str(i) for i in range(units)], cell=np.arange(units) % cells, n_cells=cells,
                   team=team, shared=np.ones((units, 1)),
                   score=lambda t, s, teams=None: {"final": t[..., 0].sum(axis=-2) / s[..., 0].sum(axis=-1)[..., None]},
                   final="final", names=[f"t{i}" for i in range(teams)])
    whole = rob.bootstrap(us, b=60, seed=5)
    per = 8 * rob._COPIES * cells * (teams + 1)
    monkeypatch.setattr(rob, "CHUNK_BYTES", 7 * per)  # 7 replicates a chunk
    assert rob.chunk_size(us) == 7
    pd.testing.assert_frame_equal(rob.bootstrap(us, b=60, seed=5), whole)


def test_a_map_keeps_winners_apart_whose_names_hold_the_joining_words():
    """A cell's winners are a tuple beside the words ("a & b"): a team named "x & y" is one team
    (the Stability page compared the split words with the could-have-won list)."""
    comp = _tiny({"x & y": TINY_ALPHA, "Beta": TINY_BETA}, runtimes=TINY_RUNTIMES.replace("Alpha", "x & y"))
    fam = scoring.get("shovel-ready")
    scorer = scoring.Scorer(comp)
    base = fam.params.validate(context=fam.context(comp))
    g = stability_map(fam, scorer, base, axis(fam, "w", values=[0.0, 1.0]), axis(fam, "alpha", values=[0, 50]),
                      context=fam.context(comp))
    winners = {t for cell in g["winners"] for t in cell}
    assert winners <= {"x & y", "Beta"} and winners, winners
    for _, cell in g.iterrows():
        assert cell["winner"] == " & ".join(cell["winners"]) and cell["n_winners"] == len(cell["winners"])

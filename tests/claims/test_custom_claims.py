"""Property tests of the Custom family's sentences on random results tables: cells shown to random
decimals, published aggregates (a mean or a mean win rate rounded to its own decimals, sometimes
computed otherwise; a Rank column, 1 = best), random recipes. Each sentence is parsed back: a rank
column must be compared as a rank, "rounding" said only where every team's difference is within
the bound recomputed here from the digits of the cells, counts of teams and cells as recomputed."""

from __future__ import annotations

import json
import re

import numpy as np

from scoring.custom import Scorer, load_competition
from scoring.custom.family import leaderboard_document
from tests.claims.parse import agrees, number

CASES = {"custom.published": 300, "custom.notes": 300, "custom.warnings": 300}

ACROSS = ("mean", "weighted", "winrate", "softmin", "worst", "borda", "copeland", "kemeny")


def win_rates(x: np.ndarray) -> np.ndarray:
    out = np.full(x.shape, np.nan)
    for j in range(x.shape[1]):
        ok = ~np.isnan(x[:, j])
        if ok.sum() < 2:
            continue
        for i in np.flatnonzero(ok):
            out[i, j] = ((x[ok, j] < x[i, j]).sum() + 0.5 * ((x[ok, j] == x[i, j]).sum() - 1)) / (ok.sum() - 1)
    return out


def random_table(rng):
    n, u = int(rng.integers(2, 9)), int(rng.integers(1, 6))
    digits = rng.integers(0, 4, u)
    x = np.round(rng.uniform(0, 1 if rng.random() < 0.7 else 100, (n, u)), 0)
    x = np.array([[round(float(rng.uniform(0, 1)) * (10 ** (digits[j] % 3)), int(digits[j])) for j in range(u)]
                  for _ in range(n)]) if rng.random() < 0.8 else x
    missing = rng.random((n, u)) < 0.1
    missing[:, 0] = missing[0, :] = False  # every team has a value, every unit too
    return n, u, digits, np.where(missing, np.nan, x)


def published_columns(rng, x, n):
    cols = {}
    with np.errstate(all="ignore"):
        mean = np.nanmean(x, axis=1)
    rates = np.nanmean(win_rates(x), axis=1) if x.shape[0] > 1 else mean
    for name, value in (("Average", mean), ("Mean win rate", rates), ("Score", mean * 100)):
        if rng.random() < 0.5:
            dp = int(rng.integers(0, 4))
            v = np.round(value + (rng.normal(0, 0.3, n) if rng.random() < 0.3 else 0), dp)
            cols[name] = [f"{a:.{dp}f}" for a in v]
    if rng.random() < 0.5:  # a rank, 1 = best (sometimes of something else)
        key = mean if rng.random() < 0.6 else rng.random(n)
        cols["Rank"] = [str(1 + int((key > k).sum())) for k in key]
    return cols


def table_text(x, digits, cols) -> bytes:
    n, u = x.shape
    head = ["model", *cols, *[f"u{j}" for j in range(u)]]
    rows = ["\t".join(head)]
    for i in range(n):
        cells = [f"m{i}", *[cols[c][i] for c in cols],
                 *["-" if np.isnan(x[i, j]) else f"{x[i, j]:.{int(digits[j])}f}" for j in range(u)]]
        rows.append("\t".join(cells))
    return ("\n".join(rows) + "\n").encode()


def random_recipe(rng) -> dict:
    return {"across": str(rng.choice(ACROSS)), "normalise": str(rng.choice(["none", "none", "minmax", "zscore", "rank"])),
            "missing": str(rng.choice(["skip", "skip", "worst", "zero"])), "alpha": float(rng.choice([0, 5, 50]))}


def case(rng):
    n, u, digits, x = random_table(rng)
    cols = published_columns(rng, x, n)
    stages = random_recipe(rng)
    # every u<j> is a unit as written (a column of integers 0–100 beside ones of 0–1 would otherwise be
    # taken for metadata by the loader's guess, scoring.custom.columns)
    inputs = {"results": {"unit_columns": [f"u{j}" for j in range(u)], "rank_columns": [c for c in cols if c == "Rank"],
                          "aggregate_columns": [c for c in cols if c != "Rank"]}}
    comp = load_competition(results=table_text(x, digits, cols),
                            recipe=json.dumps({"inputs": inputs, "stages": stages}).encode())
    sc = Scorer(comp)
    p = dict(sc.check(comp.param_defaults))
    lb = sc.leaderboard(p)
    return x, digits, cols, p, sc, lb


PUB_RANK = re.compile(r"The published (.+) is a rank \(1 = best\), compared with this recipe's rank: (\d+) of (\d+) "
                      r"teams? ranks? differently here\.")
PUB_OTHER = re.compile(r"This recipe's scores are on another scale than the published (.+): compare the ranks\. "
                       r"(\d+) of (\d+) teams? ranks? differently here\.")
PUB_AGREE = re.compile(r"The largest difference between this recipe's final score and the published (.+) is (\S+); "
                       r"every team's difference is within what rounding to the digits shown allows \(at most (\S+); "
                       r"the closest call: (\S+) against (\S+)\), so the two agree up to rounding\. (\d+) of (\d+) "
                       r"teams? ranks? differently here\.")
PUB_DIFF = re.compile(r"(\d+) teams? of (\d+) differs? from the published (.+) by more than rounding to the digits "
                      r"shown allows \(for instance (\S+): (\S+) against at most (\S+)\): the published .+ is not "
                      r"computed the way this recipe computes it\. (\d+) of (\d+) teams? ranks? differently here\.")


def ranks_asc(v):
    return np.array([1 + int((v < a).sum()) for a in v])


def test_published_comparison_reads_ranks_as_ranks_and_says_rounding_only_within_the_bound():
    rng = np.random.default_rng(808)
    said = {"rank": 0, "agree": 0, "differ": 0, "other": 0}
    for k in range(CASES["custom.published"]):
        x, digits, cols, p, sc, lb = case(rng)
        doc = json.loads(json.dumps(leaderboard_document(lb, p), default=float))
        rows = doc["leaderboard"]
        ours = np.array([r["rank"] for r in rows])
        final = np.array([r["final_score"] for r in rows], dtype=float)
        team = [int(r["submission"][1:]) for r in rows]
        for pb in doc.get("published", []):
            col, text = pb["column"], pb["sentence"]
            v = np.array([float(cols[col][i]) for i in team])
            theirs = ranks_asc(v) if col == "Rank" else ranks_asc(-v)
            moved = int((ours != theirs).sum())
            tail = text.rsplit(". ", 1)[-1] if col != "Rank" else text
            m_moved = re.search(r"(\d+) of (\d+) teams? ranks? differently here\.$", tail)
            assert m_moved and int(m_moved[1]) == moved and int(m_moved[2]) == len(v), (k, col, text)
            if col == "Rank":
                assert PUB_RANK.fullmatch(text), text
                said["rank"] += 1
                continue
            same = p["efficiency"] == "none" and (
                (p["across"] in ("mean", "weighted") and p["normalise"] in ("none", "rank")) or p["across"] == "winrate")
            if not same:
                assert PUB_OTHER.fullmatch(text), (k, p, text)
                said["other"] += 1
                continue
            # the bound, from the cells' digits: a mean of cells each ±½ unit of its last digit, or a mean win
            # rate whose rounded ties may hide a win or a loss (½ / (teams present − 1) each)
            h_pub = 0.5 * 10.0 ** -np.array([len(cols[col][i].split(".")[1]) if "." in cols[col][i] else 0 for i in team])
            xs = x[team]
            if p["across"] in ("mean", "weighted") and p["normalise"] == "none":
                h = np.where(np.isnan(xs), 0.0, 0.5 * 10.0 ** -digits[None, :].astype(float))
                bound = h.max(axis=1) + h_pub
            else:
                filled = xs.copy()
                for j in range(filled.shape[1]):
                    gaps = np.isnan(filled[:, j])
                    if p["missing"] == "worst":
                        filled[gaps, j] = np.nanmin(xs[:, j])
                    elif p["missing"] == "zero":
                        filled[gaps, j] = 0.0
                allow = []
                for i in range(len(filled)):
                    per = [0.5 * ((filled[:, j] == filled[i, j]).sum() - 1) / ((~np.isnan(filled[:, j])).sum() - 1)
                           for j in range(filled.shape[1]) if not np.isnan(filled[i, j])
                           and (~np.isnan(filled[:, j])).sum() > 1]
                    allow.append(np.mean(per) if per else np.nan)
                bound = np.array(allow) + h_pub
            gap = np.abs(final - v)
            outside = int((gap > bound + 1e-12).sum())
            m = PUB_AGREE.fullmatch(text)
            if m:
                said["agree"] += 1
                assert outside == 0, (k, p, text, gap, bound)
                assert agrees(m[2], gap.max(), 1e-12) or number(m[2]) == gap.max()
                assert number(m[4]) <= number(m[5])  # as printed, the closest call stays inside
                continue
            m = PUB_DIFF.fullmatch(text)
            assert m, (k, p, text)
            said["differ"] += 1
            assert int(m[1]) == outside > 0 and int(m[2]) == len(v), (k, p, text, gap, bound)
            assert number(m[5]) > number(m[6])  # as printed, the example is outside
    assert min(said.values()) > 10, said  # every form met


NOTE_HEAD = re.compile(r"(\d+) teams? × (\d+) units?; (\d+) missing cells?(, .+)?")


def test_notes_state_the_tables_counts_and_the_rule_as_applied():
    from scoring.custom import KEMENY_EXACT_MAX

    rng = np.random.default_rng(909)
    for _ in range(CASES["custom.notes"]):
        x, digits, cols, p, sc, lb = case(rng)
        notes = json.loads(json.dumps(leaderboard_document(lb, p)["notes"]))
        m = NOTE_HEAD.fullmatch(notes[0])
        assert m, notes[0]
        assert int(m[1]) == x.shape[0] and int(m[2]) == x.shape[1] and int(m[3]) == int(np.isnan(x).sum())
        assert (m[4] is not None) == bool(np.isnan(x).any())
        across = next(n for n in notes if n.startswith("across: "))
        if p["across"] == "softmin":
            assert f"α = {p['alpha']:g} " in across
        if p["across"] == "kemeny":
            exact = x.shape[0] <= KEMENY_EXACT_MAX
            assert ("exact" in across) == exact and ("APPROXIMATION" in across) != exact
            assert f"{x.shape[0]} teams" in across
        assert f"normalise: {p['normalise']}" in " ".join(notes) or p["normalise"] != "none"


def test_warnings_fire_exactly_when_their_condition_holds():
    rng = np.random.default_rng(1010)
    for _ in range(CASES["custom.warnings"]):
        x, digits, cols, p, sc, lb = case(rng)
        words = " ".join(sc.warnings(p))
        spans = [np.nanmax(np.abs(c)) for c in x.T]
        scales = p["normalise"] == "none" and p["across"] in ("mean", "weighted", "softmin", "worst") and \
            max(spans) > 10 * max(min(spans), 1e-12)
        assert ("scales differ more than tenfold" in words) == scales
        skipped = p["missing"] == "skip" and np.isnan(x).any() and p["across"] in ("mean", "weighted", "borda")
        assert ("missing cells are skipped" in words) == skipped
        assert "negative" not in words  # no teams table: no efficiency stage

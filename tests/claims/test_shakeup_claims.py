"""Property tests of the shake-up's sentences: random shake-ups (public and private ranks and
scores drawn at random, splits enumerated or not, teams of several submissions), each sentence
parsed back and checked against the numbers recomputed here from the result's JSON — the
headline's probability, the advice's test size and fractions (a range "x to y" only over
consecutive fractions of the grid), the selection's overstatements against a brute-force
enumeration (and "exact" only when nothing random remains), the sweep's best fraction."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest

from scoring.claims import shakeup as claims
from scoring.core import shakeup_selection
from scoring.core.shakeup import FRACTIONS, Shakeup, binomial_interval
from scoring.core.shakeup_selection import selection
from scoring.core.shakeup_sweep import advice_from
from tests.claims.parse import agrees, percents_listed, share, via_json

#: random cases per sentence kind (tests/claims/test_registry.py checks every kind has its count)
CASES = {"shakeup.headline": 400, "shakeup.advice": 400, "shakeup.selection": 300, "shakeup.sweep": 300}

UNITS = ("essay", "question", "unit", "sample", "sequence")


def random_shakeup(rng, *, teams=None, splits=None, exact=None, scores=None) -> Shakeup:
    t = int(rng.integers(2, 7)) if teams is None else teams
    s = int(rng.integers(1, 300)) if splits is None else splits
    if scores is None:
        grid = rng.integers(0, 4 if rng.random() < 0.3 else 1000, size=(2, s, t)) / 10  # coarse: many ties
        pub, priv = grid[0], grid[1]
    else:
        pub, priv = scores
    higher = bool(rng.random() < 0.7)

    def ranks(x):  # "1224" from the scores, by hand
        o = x if higher else -x
        return (o[:, None, :] > o[:, :, None]).sum(axis=2) + 1

    return Shakeup(fraction=float(rng.choice(FRACTIONS)), seed=int(rng.integers(0, 100)),
                   exact=bool(rng.random() < 0.3) if exact is None else exact,
                   names=[f"s{i}" for i in range(t)], rank=np.arange(1, t + 1),
                   public_score=pub, private_score=priv, public_rank=ranks(pub), private_rank=ranks(priv),
                   n_public=1.0, n_units=int(rng.integers(1, 5000)), unit=str(rng.choice(UNITS)),
                   higher_is_better=higher)


def p_winner_by_hand(sh_json: dict) -> float:
    shares = []
    for pub, priv in zip(sh_json["public_rank"], sh_json["private_rank"], strict=True):
        lead = [i for i, r in enumerate(pub) if r == 1]
        shares.append(sum(priv[i] == 1 for i in lead) / len(lead))
    return float(np.mean(shares))


HEADLINE = re.compile(r"With a (\d+)% public split, the public leader wins the final board ([\d.]+%) of the time "
                      r"\(over (all )?([\d,]+) (possible|random) (splits?) of the ([\d,]+) (\w+)\)\.")


def test_headline_states_the_shakeups_own_numbers():
    rng = np.random.default_rng(101)
    for _ in range(CASES["shakeup.headline"]):
        sh = random_shakeup(rng)
        text = claims.headline(sh)
        m = HEADLINE.fullmatch(text)
        assert m, text
        j = via_json({"public_rank": sh.public_rank, "private_rank": sh.private_rank, "splits": sh.splits,
                      "exact": sh.exact, "units": sh.n_units, "unit": sh.unit, "fraction": sh.fraction})
        assert int(m[1]) == round(j["fraction"] * 100)
        p = p_winner_by_hand(j)
        assert agrees(m[2], p), (text, p)
        assert (share(m[2]) in (0.0, 1.0)) <= (p in (0.0, 1.0)), (text, p)  # never "100%" of 99.6%
        assert bool(m[3]) == j["exact"] == (m[5] == "possible")
        assert int(m[4].replace(",", "")) == j["splits"] and (m[6] == "split") == (j["splits"] == 1)
        assert int(m[7].replace(",", "")) == j["units"]
        assert m[8] == (j["unit"] if j["units"] == 1 else j["unit"] + "s")


# ---- the advice ------------------------------------------------------------------------------------
def two_team_shakeup(fraction: float, splits: int, hits: int, units: int, exact: bool = False) -> Shakeup:
    """A shake-up whose public leader (team 0) wins privately in exactly ``hits`` splits."""
    pub = np.tile([1, 2], (splits, 1))
    priv = np.array([[1, 2]] * hits + [[2, 1]] * (splits - hits)).reshape(splits, 2)
    return Shakeup(fraction=fraction, seed=0, exact=exact, names=["a", "b"], rank=np.array([1, 2]),
                   public_score=np.zeros((splits, 2)), private_score=np.zeros((splits, 2)), public_rank=pub,
                   private_rank=priv, n_public=1.0, n_units=units, unit="question")


ADVICE_MET = re.compile(r"“(.+)” with probability ≥ (\d+)% is met with a test set of ([\d,]+) (\w+) — the smallest "
                        r"of the sizes tried \(([\d,/ ]+)\) that meets it — at a public fraction of (.+); best (\d+)%: "
                        r"([\d.]+%) \((exact|(\d+)% interval ([\d.]+%)–([\d.]+%))\)\.( The interval's lower end "
                        r"stays under the target: more splits, or a larger test set, would make it sure\.)?")
ADVICE_NONE = re.compile(r"No test size or public fraction tried meets “(.+)” with probability ≥ (\d+)%: the best is "
                         r"([\d.]+%) \((exact|(\d+)% interval ([\d.]+%)–([\d.]+%))\) at a (\d+)% public split of "
                         r"([\d,]+) (\w+)\.")


def test_advice_states_the_grids_own_numbers():
    rng = np.random.default_rng(202)
    for case in range(CASES["shakeup.advice"]):
        target = float(rng.choice([0.5, 0.75, 0.8, 0.9, 0.95, 0.99]))
        n_sizes = int(rng.integers(1, 4))
        units = sorted(rng.choice(np.arange(10, 2000), size=n_sizes, replace=False).tolist())
        grid_fr = sorted(rng.choice(FRACTIONS, size=int(rng.integers(1, 12)), replace=False).tolist())
        truth = []  # (size, units, fraction, hits, splits, exact)
        runs = []
        for k, u in enumerate(units):
            shs = []
            for f in grid_fr:
                splits = int(rng.integers(5, 300))
                p = float(np.clip(target + rng.normal(0, 0.08), 0, 1))
                hits = int(rng.binomial(splits, p))
                exact = bool(rng.random() < 0.1)
                shs.append(two_team_shakeup(f, splits, hits, u, exact))
                truth.append(((k + 1) / n_sizes, u, f, hits, splits, exact))
            runs.append(((k + 1) / n_sizes, shs))
        grid, rec = advice_from(runs, target="winner", p=target, unit="question")
        j = via_json({k: v for k, v in rec.items()})
        text = j["sentence"]
        meets = [(s, u, f, h, n, e) for s, u, f, h, n, e in truth if h / n >= target]
        if not meets:
            m = ADVICE_NONE.fullmatch(text)
            assert m, text
            best = max(truth, key=lambda r: (r[3] / r[4], -r[0]))
            assert agrees(m[3], best[3] / best[4]) and share(m[3]) < target, (case, text)
            assert int(m[8]) == round(best[2] * 100) and int(m[9].replace(",", "")) == best[1]
            continue
        m = ADVICE_MET.fullmatch(text)
        assert m, text
        assert share(m[2] + "%") == target
        smallest = min(s for s, *_ in meets)
        here = [r for r in meets if r[0] == smallest]
        assert int(m[3].replace(",", "")) == here[0][1]
        assert [int(x.replace(",", "")) for x in m[5].split(" / ")] == units
        # the fractions, parsed back: each "x to y" covers consecutive fractions of this size's grid
        listed = set()
        for a, b in percents_listed(m[6]):
            inside = [f for f in grid_fr if a - 1e-9 <= f <= b + 1e-9]
            assert inside[0] == pytest.approx(a) and inside[-1] == pytest.approx(b), (text, a, b)
            listed |= {round(f, 4) for f in inside}
        assert listed == {round(r[2], 4) for r in here}, (case, text)
        best = max(here, key=lambda r: (r[3] / r[4], -r[2]))
        assert int(m[7]) == round(best[2] * 100)
        assert agrees(m[8], best[3] / best[4]) and share(m[8]) >= target, (case, text)
        lo, hi = binomial_interval(best[3], best[4])
        if best[5]:
            assert m[9] == "exact"
        else:
            assert agrees(m[11], lo) and agrees(m[12], hi), (case, text)
            assert (share(m[11]) < target) == (lo < target)
        sure = any((h / n if e else binomial_interval(h, n)[0]) >= target for _, _, _, h, n, e in here)
        assert bool(m[13]) == (not sure), (case, text)


# ---- the selection ---------------------------------------------------------------------------------
def selection_by_hand(pub, priv, teams, keep, higher):
    """Every N's overstatement and leader overstatement by enumeration: every subset of N of a
    team's submissions (a public tie: the earlier-listed one), every joint holding of one subset
    per team; tied public leaders share."""
    sign = 1.0 if higher else -1.0
    pub, priv = sign * np.asarray(pub), sign * np.asarray(priv)
    members = {}
    for i, t in enumerate(teams):
        members.setdefault(t, []).append(i)
    groups = list(members.values())
    out = {}
    for n in range(1, max(map(len, groups)) + 1):
        counted = [m for m in groups if len(m) >= n]
        per_team, holdings = [], []
        for m in counted:
            options = list(itertools.combinations(m, n))
            rows = []
            for s in range(len(pub)):
                row = []
                for opt in options:
                    kept = sorted(opt, key=lambda i: (-pub[s, i], i))[:keep]
                    row.append((pub[s, kept[0]], pub[s, kept[0]] - max(priv[s, i] for i in kept)))
                rows.append(row)
            holdings.append(rows)
            per_team.append([np.mean([g for _, g in r]) for r in rows])
        lead = []
        for s in range(len(pub)):
            for combo in itertools.product(*[h[s] for h in holdings]):
                best = max(p for p, _ in combo)
                lead.append(np.mean([g for p, g in combo if p == best]))
        out[n] = (len(counted), float(np.mean(per_team)), float(np.mean(lead)) if len(counted) > 1 else np.nan)
    return out


SEL_MANY = re.compile(r"When a team chooses by the public board among (\d+) submissions, the public board shows the "
                      r"chosen one's (.+?) ([\d.]+) (better|worse) than the private board does, on average \((\d+) "
                      r"teams? with that many; with one submission: ([-+][\d.]+)\)(.*)\.")
SEL_ONE = re.compile(r"(Team membership unknown, so one submission per team \(every submission is its own team\): |"
                     r"With one submission per team, )the public board shows (the public leader's|a team's) (.+?) "
                     r"([\d.]+) (better|worse) than the private board does, on average(.*)\.")
EXACT_TAIL = " — exact: every split and every choice enumerated"


def test_selection_states_the_tables_own_numbers_and_says_exact_only_when_nothing_is_random(monkeypatch):
    rng = np.random.default_rng(303)
    for case in range(CASES["shakeup.selection"]):
        t = int(rng.integers(2, 7))
        known = bool(rng.random() < 0.7)
        teams = [f"team{int(x)}" for x in rng.integers(0, max(1, t - 1), size=t)] if known else None
        sh = random_shakeup(rng, teams=t, splits=int(rng.integers(1, 12)))
        keep = int(rng.integers(1, 3))
        # a small enumeration budget now and then: the choices are drawn, and the rows must say so
        monkeypatch.setattr(shakeup_selection, "ENUMERATE_CELLS", int(rng.choice([4_000_000, 6, 30])))
        table = selection(sh, teams, keep=keep, seed=case)
        rows = via_json(table.to_dict("records"))
        text = claims.selection(table, known=teams is not None, score="final score", splits_exact=sh.exact,
                                seed=case)
        ref = selection_by_hand(sh.public_score, sh.private_score, teams or sh.names, keep, sh.higher_is_better)
        exact_rows = [r for r in rows if r["exact"]]
        for r in exact_rows:  # "exact": the enumeration's value, and another seed changes nothing
            n_teams, over, lead = ref[r["n_submissions"]]
            assert r["teams"] == n_teams and r["overstatement"] == pytest.approx(over, abs=1e-12)
            assert r["leader_overstatement"] == pytest.approx(lead, abs=1e-12, nan_ok=True) or (
                r["leader_overstatement"] is None and np.isnan(lead))
        if exact_rows:
            again = selection(sh, teams, keep=keep, seed=case + 1000)
            same = again[again["exact"]].drop(columns="exact").to_numpy(float)
            assert np.allclose(same, table[table["exact"]].drop(columns="exact").to_numpy(float), equal_nan=True)
        for r in rows:  # without "exact", the row may be random but not if the splits and choices were enumerated
            assert r["exact"] <= sh.exact
        all_exact = all(r["exact"] for r in rows)
        assert (EXACT_TAIL in text) == all_exact, (case, text)
        assert ("estimate" in text) == (sh.exact and not all_exact), (case, text)
        if teams is not None and len(rows) > 1:
            m = SEL_MANY.fullmatch(text)
            assert m, text
            last, first = rows[-1], rows[0]
            assert int(m[1]) == last["n_submissions"] == max(ref)
            assert int(m[5]) == ref[max(ref)][0] == last["teams"]
            assert agrees(m[3], abs(last["overstatement"])) and (m[4] == "better") == (last["overstatement"] >= 0)
            assert agrees(m[6], first["overstatement"])
        else:
            m = SEL_ONE.fullmatch(text)
            assert m, text
            assert m[1].startswith("Team") == (teams is None)
            row = rows[0]
            lead = row["leader_overstatement"]
            value = row["overstatement"] if lead is None or np.isnan(lead) else lead
            assert (m[2] == "a team's") == (lead is None or np.isnan(lead))
            assert agrees(m[4], abs(value)) and (m[5] == "better") == (value >= 0), (case, text)


# ---- the sweep -------------------------------------------------------------------------------------
SWEEP = re.compile(r"The public leader holds on most often with a (\d+)% public split \(([\d.]+%)\)( \(as often at "
                   r"(\d+) other fractions?\))?; the splits of one seed are nested, so the curves move with the "
                   r"fraction, not with fresh draws\.")


def test_sweep_best_states_the_tables_best_fraction():
    rng = np.random.default_rng(404)
    for case in range(CASES["shakeup.sweep"]):
        fr = sorted(rng.choice(FRACTIONS, size=int(rng.integers(1, 19)), replace=False).tolist())
        p = rng.integers(0, 6, size=len(fr)) / 5 if rng.random() < 0.5 else rng.random(len(fr))
        sw = pd.DataFrame({"fraction": fr, "p_winner_holds": p})
        text = claims.sweep_best(sw)
        m = SWEEP.fullmatch(text)
        assert m, text
        rows = via_json(sw.to_dict("records"))
        best = max(r["p_winner_holds"] for r in rows)
        at = [r["fraction"] for r in rows if r["p_winner_holds"] == best]
        assert int(m[1]) == round(min(at) * 100) and agrees(m[2], best), (case, text)
        assert int(m[4] or 0) == len(at) - 1

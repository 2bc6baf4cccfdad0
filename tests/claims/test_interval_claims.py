"""Property tests of the robustness pages' sentences: random rank-set frames (could_win, letters,
ranks), random stability grids and configuration diffs; each sentence parsed back and its names
and numbers recomputed here from the frame's JSON."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.claims import intervals
from tests.claims.parse import agrees, share

CASES = {"intervals.could_win": 300, "intervals.top_k": 300, "intervals.fragile": 300, "intervals.noise": 300,
         "stability.summary": 300, "stability.noise": 300, "compare.summary": 300, "compare.could_win": 300}


@dataclass(frozen=True)
class FakeStage:
    id: str
    label: str

    @property
    def rank(self) -> str:
        return f"{self.id}_rank"


def names(rng, n):
    return [f"t{i}{rng.choice(['', 'x', '.2'])}" for i in range(n)]


def ranks(x):
    x = np.asarray(x, dtype=float)
    return np.array([1 + int((x > v).sum()) for v in x])


def listed(text: str) -> list[str]:
    return [t for t in text.split(", ") if t]


def test_could_win_and_top_k_name_the_sets():
    rng = np.random.default_rng(11)
    for _ in range(CASES["intervals.could_win"]):
        teams = names(rng, int(rng.integers(1, 8)))
        conf = float(rng.choice([0.8, 0.9, 0.95, 0.99]))
        text = intervals.could_win(teams, conf, "essay")
        if len(teams) == 1:
            assert text == f"{teams[0]} alone could have won: every other team is established worse at {conf:.0%} " \
                           "confidence."
            continue
        m = re.fullmatch(r"(\d+) teams could have won: (.+) — no team is established better than any of them\. This "
                         r"list is built to hold the true winner \(the best on all possible essays\) with probability "
                         r"at least (\d+)%\.", text)
        assert m and int(m[1]) == len(teams) and listed(m[2]) == teams and int(m[3]) == round(conf * 100)
    for _ in range(CASES["intervals.top_k"]):
        teams, k = names(rng, int(rng.integers(1, 8))), int(rng.integers(1, 5))
        text = intervals.top_k(teams, k, 0.95)
        m = re.fullmatch(r"Could be in the top (\d+): (.+) \((\d+) teams?\) — the list is built to hold every true "
                         r"top-(\d+) team with probability at least 95%\.", text)
        assert m and int(m[1]) == k == int(m[4]) and listed(m[2]) == teams and int(m[3]) == len(teams)


def random_iv(rng, teams):
    letters = ["".join(sorted(set(rng.choice(list("abc"), int(rng.integers(1, 3)))))) for _ in teams]
    return pd.DataFrame({"could_win": rng.random(len(teams)) < 0.4, "letters": letters,
                         "rank": ranks(-rng.integers(0, 4, len(teams)))}, index=pd.Index(teams))


def test_fragile_warns_exactly_where_the_conclusion_is_fragile():
    rng = np.random.default_rng(12)
    for _ in range(CASES["intervals.fragile"]):
        n = int(rng.integers(1, 8))
        teams = names(rng, n)
        stages = [FakeStage("s0", "First"), FakeStage("s1", "Last")]
        lb = pd.DataFrame({"submission": teams, "s0_rank": ranks(-rng.integers(0, 3, n)),
                           "s1_rank": ranks(-rng.integers(0, 3, n))})
        iv = random_iv(rng, teams)
        lines = intervals.fragile(stages, lb, iv, ["own warning"])
        rec = json.loads(lb.to_json(orient="records"))
        winner = min(rec, key=lambda r: (r["s1_rank"], r["submission"]))["submission"]
        before = min(rec, key=lambda r: (r["s0_rank"], r["submission"]))["submission"]
        could = [t for t, c in zip(teams, iv["could_win"], strict=True) if c and t != winner]
        assert lines[-1] == "own warning"
        first = [x for x in lines if x.startswith("the winner, ")]
        assert bool(first) == bool(could)
        if could:
            m = re.match(rf"the winner, {re.escape(winner)}, is not clearly first: at this confidence (.+?)(?: and (\d+) "
                         r"more)? could also have won", first[0])
            assert m and listed(m[1]) == could[:5] and int(m[2] or 0) == max(0, len(could) - 5)
        letters = dict(zip(teams, iv["letters"], strict=True))
        shared = before != winner and n >= 2 and bool(set(letters[winner]) & set(letters[before]))
        last = [x for x in lines if x.startswith("the last stage")]
        assert bool(last) == shared
        if shared:
            assert f"{winner} passes {before}" in last[0]


def test_noise_note_says_shared_letter_or_established_better():
    rng = np.random.default_rng(13)
    for _ in range(CASES["intervals.noise"]):
        teams = names(rng, 3)
        iv = random_iv(rng, teams)
        if rng.random() < 0.1:
            iv["letters"] = ""
        a, b = teams[0], teams[1]
        text = intervals.noise(iv, a, b, where="under A")
        la, lb_ = iv.loc[a, "letters"], iv.loc[b, "letters"]
        if not (la and lb_):
            assert text == ""
        elif set(la) & set(lb_):
            assert text == f"under A, {a} and {b} share a letter: they cannot be told apart at this confidence"
        else:
            first, second = (a, b) if iv.loc[a, "rank"] <= iv.loc[b, "rank"] else (b, a)
            assert text == f"under A, {first} is established better than {second}"


def test_stability_summary_and_noise():
    rng = np.random.default_rng(14)
    for _ in range(CASES["stability.summary"]):
        cells = int(rng.integers(1, 60))
        teams = names(rng, int(rng.integers(1, 5)))
        grid = pd.DataFrame({"valid": rng.random(cells) < 0.9, "winner": rng.choice(teams, cells),
                             "tau": np.round(rng.uniform(-1, 1, cells), 3)})
        text = intervals.stability(grid)
        rec = [r for r in json.loads(grid.to_json(orient="records")) if r["valid"]]
        if not rec:
            assert text == "No cell of this grid is a valid combination of parameters."
            continue
        m = re.fullmatch(r"(\S+) wins in ([\d.]+%) of the cells(?: \(as often as (\d+) other teams?\))?; Kendall's τ "
                         r"against the current ranking runs from (-?[\d.]+) to (-?[\d.]+)\.", text)
        assert m, text
        counts = {t: sum(r["winner"] == t for r in rec) for t in teams}
        most = max(counts.values())
        assert counts[m[1]] == most and agrees(m[2], most / len(rec))
        assert (share(m[2]) == 1.0) == (most == len(rec))
        assert int(m[3] or 0) == sum(v == most for v in counts.values()) - 1
        assert agrees(m[4], min(r["tau"] for r in rec)) and agrees(m[5], max(r["tau"] for r in rec))
    for _ in range(CASES["stability.noise"]):
        teams = names(rng, 6)
        could = [t for t in teams if rng.random() < 0.5] or teams[:1]
        named = sorted(t for t in teams if rng.random() < 0.5)
        text = intervals.stability_noise(could, named)
        inside = [w for w in named if w in could]
        outside = [w for w in named if w not in could]
        assert text.startswith(f"At the current settings {', '.join(could)} could have won")
        m = re.search(r"Of this map's winners, (.+) (?:is|are) in that list", text)
        assert (listed(m[1]) if m else []) == (inside if len(inside) > 1 else [])
        m = re.search(r"\. (\S+(?:, \S+)*) (?:is|are) not: at the current settings", text)
        assert (listed(m[1]) if m else []) == outside


def test_compare_summary_counts_moves_and_names_first_place():
    rng = np.random.default_rng(15)
    for _ in range(CASES["compare.summary"]):
        n = int(rng.integers(1, 7))
        teams = names(rng, n)
        ra, rb = ranks(-rng.integers(0, 4, n)), ranks(-rng.integers(0, 4, n))
        diff = pd.DataFrame({"submission": teams, "rank_a": ra, "rank_b": rb, "delta": ra - rb})
        text = intervals.compare(diff)
        rec = json.loads(diff.to_json(orient="records"))
        moved = sum(r["delta"] != 0 for r in rec)
        m = re.match(r"(\d+) teams? (?:moves|move); (.+)\.$", text)
        assert m and int(m[1]) == moved
        fa = sorted(r["submission"] for r in rec if r["rank_a"] == 1)
        fb = sorted(r["submission"] for r in rec if r["rank_b"] == 1)
        split = lambda s: sorted(re.split(r", | and ", s))  # noqa: E731
        if fa == fb:
            w = re.fullmatch(r"(.+) (?:wins|share first place) under both", m[2])
            assert w and split(w[1]) == fb
        else:
            w = re.fullmatch(r"(?:the winner|first place) changes from (.+) to (.+)", m[2])
            assert w and split(w[1]) == fa and split(w[2]) == fb


def test_compare_could_win_names_both_sets():
    rng = np.random.default_rng(17)
    for _ in range(CASES["compare.could_win"]):
        a = names(rng, int(rng.integers(1, 5)))
        b = [t for t in names(rng, 6) if rng.random() < 0.5] or ["t0"]
        conf = float(rng.choice([0.9, 0.95]))
        text = intervals.compare_could(a, b, conf)
        m = re.fullmatch(r"Could have won under A: (.+); under B: (.+) \(each list is built to hold that setting's "
                         r"true winner with probability at least (\d+)%\)\.", text)
        assert m and listed(m[1]) == a and listed(m[2]) == b and int(m[3]) == round(conf * 100)

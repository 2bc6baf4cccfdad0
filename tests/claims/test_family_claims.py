"""Property tests of the families' sentences (Shovel-Ready, spotGEO, QA, difficulty): random frames
shaped as the engine gives them, each sentence parsed back and its numbers and names recomputed
here from the frame's JSON (percentages never reading 0 % or 100 % of what is neither, bounds
rounded the safe way, counts and names as the frame has them)."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from scoring.claims import difficulty, qa, shovel_ready, spotgeo
from tests.claims.parse import agrees, number, share

CASES = {"shovel_ready.boost": 300, "shovel_ready.demographics": 300, "shovel_ready.efficiency": 300,
         "shovel_ready.segments": 300, "shovel_ready.worked": 200, "shovel_ready.what_if": 400,
         "shovel_ready.band_news": 300,
         "shovel_ready.group_warnings": 300, "shovel_ready.letter_warnings": 300,
         "shovel_ready.interval_note": 300,
         "spotgeo.leaderboard": 300, "spotgeo.ties": 300, "spotgeo.frame": 300, "spotgeo.errors": 300,
         "spotgeo.rules": 300, "spotgeo.example": 300,
         "qa.leaderboard": 300, "qa.hidden": 300, "qa.speed": 300, "qa.question": 300,
         "difficulty.leaderboard": 300, "difficulty.splits": 300, "difficulty.samples": 300,
         "difficulty.weights": 300}


def records(df: pd.DataFrame) -> list[dict]:
    return json.loads(df.to_json(orient="records"))


def ranks(x) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    return np.array([1 + int((x > v).sum()) for v in x])


def team_names(rng, n: int) -> list[str]:
    return [f"t{i}{rng.choice(['', 'x', '-2', '.b'])}" for i in range(n)]


def pct_ok(text: str, value: float) -> bool:
    """A printed percentage rounds the value and never says 0 % or 100 % of what is neither."""
    v = share(text.replace(" ", ""))
    exact = min(abs(value), abs(1 - value)) <= 1e-12
    return agrees(text.replace(" ", ""), value) and ((v in (0.0, 1.0)) <= exact)


# ---- Shovel-Ready ------------------------------------------------------------------------------------
BOOST = re.compile(r"Efficiency boost: (\d+) of (\d+) teams? (?:is|are) eligible \(a runtime and a bias-aware score "
                   r"within ([\d.]+ %) of the best, at least ([\d.]+)\)(?:; no team gets a boost\.|; (\d+) gets? a boost "
                   r"\(at most ([\d.]+ %), none beyond ([\d.]+ %) slower than the fastest eligible\): (.+)\.)")


def test_boost_summary():
    rng = np.random.default_rng(1)
    for _ in range(CASES["shovel_ready.boost"]):
        n = int(rng.integers(1, 9))
        boost = np.where(rng.random(n) < 0.4, np.round(rng.uniform(0, 0.1, n), 4), 0.0)
        lb = pd.DataFrame({"submission": team_names(rng, n), "bias_score": rng.random(n),
                           "eligible": (boost > 0) | (rng.random(n) < 0.3), "boost": boost})
        p = {"band": float(rng.choice([0.0, 0.05, 0.1234])), "max_boost": float(rng.choice([0.05, 0.1])),
             "window": float(rng.choice([0.2, 0.5]))}
        text = shovel_ready.boost(lb, p)
        m = BOOST.fullmatch(text)
        assert m, text
        r = records(lb)
        assert int(m[1]) == sum(x["eligible"] for x in r) and int(m[2]) == n
        threshold = max(x["bias_score"] for x in r) / (1 + p["band"])
        assert number(m[4]) >= threshold - 1e-12 and number(m[4]) - threshold < 1e-4, (text, threshold)  # "at least"
        boosted = sorted([x for x in r if x["boost"] > 0], key=lambda x: -x["boost"])
        assert int(m[5] or 0) == len(boosted)
        if boosted:
            shown = re.findall(r"(\S+) \+([\d.]+) %", m[8])
            by = {x["submission"]: x["boost"] for x in r}
            assert len(shown) == min(4, len(boosted)) and all(agrees(v, by[t] * 100) for t, v in shown)
            values = [by[t] for t, _ in shown]
            assert values == sorted(values, reverse=True)  # the largest boosts, largest first
            assert all(x["boost"] <= values[-1] for x in boosted if x["submission"] not in dict(shown))
            assert (" and " in m[8].split("%")[-1]) == (len(boosted) > 4)


DEMO = re.compile(r"At α = (\S+) on (.+?)(?:, (\S+) falls furthest: (\d+)\w\w on the segment score, (\d+)\w\w after the "
                  r"bias aggregation —| the bias aggregation moves no team's rank; (\S+) loses the most score \(([\d.e-]+)\):"
                  r"| the bias aggregation moves no team's rank and lowers no team's score; for (\S+),)"
                  r" its weakest group, (\S+) \(([\d.]+), (\d+) essays?\), carries (\d+) % of its weight\.")


def test_demographics_takeaway():
    from scoring import GroupScores

    rng = np.random.default_rng(2)
    for _ in range(CASES["shovel_ready.demographics"]):
        n, g = int(rng.integers(1, 7)), int(rng.integers(1, 5))
        names, labels = team_names(rng, n), [f"g{j}" for j in range(g)]
        scores = pd.DataFrame(rng.random((n, g)), index=names, columns=labels)
        sizes = pd.Series(rng.integers(1, 300, g), index=labels)
        seg, bias = rng.random(n), rng.random(n)
        lb = pd.DataFrame({"submission": names, "segment_score": seg, "segment_score_rank": ranks(seg),
                           "bias_score": bias, "bias_score_rank": ranks(bias)})
        a = float(rng.choice([0.0, 10.0, 50.0, math.inf]))
        p = {"alpha": a, "attributes": ("ell_status",)}
        text = shovel_ready.demographics(lb, GroupScores(scores=scores, sizes=sizes, labels=labels), p)
        m = DEMO.fullmatch(text)
        assert m, text
        r = records(lb)
        worst = min(r, key=lambda x: (x["segment_score_rank"] - x["bias_score_rank"],
                                      x["bias_score"] - x["segment_score"]))
        moved = worst["bias_score_rank"] - worst["segment_score_rank"]
        assert m[1] == ("∞" if math.isinf(a) else f"{a:g}")
        lost = worst["segment_score"] - worst["bias_score"]
        if moved > 0:
            assert m[3] == worst["submission"] and int(m[4]) == worst["segment_score_rank"]
            assert int(m[5]) == worst["bias_score_rank"]
        elif lost > 0:
            assert m[6] == worst["submission"] and agrees(m[7], lost)
        else:  # no team loses score: said so, never "loses" a gain
            assert m[8] == worst["submission"] and all(x["bias_score"] >= x["segment_score"] for x in r)
        s = scores.loc[worst["submission"]].to_numpy()
        n_g = sizes.to_numpy(float)
        if math.isinf(a):
            beta = np.where(s == s.min(), n_g, 0.0)
        else:
            beta = n_g * np.exp(-a * (s - s.min()))
        beta = beta / beta.sum()
        j = int(np.argmax(beta))
        assert m[9] == labels[j] and agrees(m[10], s[j]) and int(m[11]) == sizes.iloc[j]
        assert abs(int(m[12]) - beta[j] * 100) <= 0.5 + 1e-9


EFF = re.compile(r"(\d+) teams? (?:is|are) within ([\d.]+ %) of the best bias-aware score; (\S+), the fastest of them "
                 r"\(([\d,.e+]+) s\), gets (the full ([\d.]+ %)|no) boost and (climbs from (\d+)\w\w to (\d+)\w\w|"
                 r"finishes (\d+)\w\w)\.")


def test_efficiency_takeaway():
    rng = np.random.default_rng(3)
    for _ in range(CASES["shovel_ready.efficiency"]):
        n = int(rng.integers(1, 8))
        score = np.round(rng.random(n), 2)
        runtime = np.where(rng.random(n) < 0.15, np.nan, rng.uniform(1, 5000, n))
        elig = ~np.isnan(runtime) & (rng.random(n) < 0.6)
        boost = np.where(elig & (rng.random(n) < 0.5), 0.05, 0.0)
        final = score * (1 + boost)
        eff = pd.DataFrame({"team": team_names(rng, n), "score": score, "runtime": runtime, "eligible": elig,
                            "boost": boost, "rank": ranks(final)})
        p = {"band": 0.05, "max_boost": 0.05}
        text = shovel_ready.efficiency(eff, p)
        r = records(eff)
        if all(x["runtime"] is None for x in r):
            assert text.startswith("No runtimes are loaded")
            continue
        el = [x for x in r if x["eligible"]]
        if not el:
            assert text.startswith("No team with a runtime is within the eligibility band")
            continue
        m = EFF.fullmatch(text)
        assert m, text
        fastest = min(el, key=lambda x: x["runtime"])
        assert int(m[1]) == len(el) and m[3] == fastest["team"]
        assert float(m[4].replace(",", "")) == pytest.approx(fastest["runtime"], rel=5e-4)
        assert (m[5] == "no") == (fastest["boost"] == 0)
        before = 1 + sum(x["score"] > fastest["score"] for x in r)
        if m[8]:
            assert int(m[8]) == before > int(m[9]) == fastest["rank"]
        else:
            assert int(m[10]) == fastest["rank"] >= before


def test_segments_and_worked_takeaways():
    rng = np.random.default_rng(4)
    for _ in range(CASES["shovel_ready.segments"]):
        k = rng.integers(0, 12, 5)
        removal = bool(rng.random() < 0.5)
        text = shovel_ready.segments("alpha", "e7", *map(int, k), removal)
        m = re.fullmatch(r"On essay e7, alpha matched (\d+) of (\d+) ground-truth segments? with (\d+) predictions?"
                         r"(?:; overlap removal trimmed (\d+) and discarded (\d+)( \(switched off: the scoring uses "
                         r"them as submitted\))?)?\.", text)
        assert m, text
        assert [int(m[3 - 1 + 1]) if False else int(m[i]) for i in (2, 3, 1)] == [k[0], k[1], k[2]]
        assert (m[4] is not None) == bool(k[3] or k[4])
        if m[4]:
            assert (int(m[4]), int(m[5])) == (k[3], k[4]) and bool(m[6]) == (not removal)
    for _ in range(CASES["shovel_ready.worked"]):
        checks = list(rng.random(int(rng.integers(1, 20))) < 0.8)
        text = shovel_ready.worked(checks)
        bad = len(checks) - sum(checks)
        nums = [int(x) for x in re.findall(r"\d+", text)]
        assert nums == ([len(checks)] if not bad else [bad, len(checks)])


def test_what_if_bounds_stay_true():
    rng = np.random.default_rng(5)
    for _ in range(CASES["shovel_ready.what_if"]):
        runtime = float(rng.uniform(1, 3000))
        eligible = bool(rng.random() < 0.8)
        need = float(rng.uniform(0.5, 3000)) if eligible and rng.random() < 0.9 else None
        above = None if rng.random() < 0.2 else "rival"
        r = None if above is None or rng.random() < 0.2 else float(rng.uniform(0.5, 3000))
        res = {"eligible": eligible, "full_boost_runtime": need, "overtake_runtime": r, "above": above,
               "threshold_score": float(rng.random()), "best": float(rng.random())}
        said = shovel_ready.what_if(res, runtime)
        text = " ".join(said["lines"]) + " " + (said["why"] or "")
        if not eligible:
            got = number(re.search(r"at least ([\d.]+)", text)[1])
            assert got >= res["threshold_score"] - 1e-12 and got - res["threshold_score"] < 1e-4
            continue
        for bound, label in ((need, r"Full boost needs a runtime of at most ([\d,.]+) s — ([\d.]+) % faster"),
                             (r, r"run in under ([\d,.]+) s — ([\d.]+) % faster")):
            m = re.search(label, text)
            if m is None:
                continue
            shown, faster = number(m[1]), float(m[2])
            assert shown <= bound and bound - shown <= bound * 1e-4 + 1e-9, (text, bound)  # rounded down: true
            assert runtime * (1 - faster / 100) <= bound + 1e-9 * bound, (text, bound)  # that much faster is enough
        assert ("no eligible rival is faster" in text) == (need is not None and runtime <= need + 1e-12)
        assert ("nobody to overtake" in text) == (above is None)


def test_band_news_names_who_drops_out_and_a_band_start_that_stays_true():
    rng = np.random.default_rng(16)
    for _ in range(CASES["shovel_ready.band_news"]):
        n = int(rng.integers(1, 7))
        names = team_names(rng, n)
        before = [t for t in names if rng.random() < 0.6]
        after = rng.random(n) < 0.5
        threshold = float(rng.random())
        res = {"table": pd.DataFrame({"submission": names, "eligible": after}), "best": threshold * 1.05,
               "threshold_score": threshold}
        text = shovel_ready.band_news(before, res)
        dropped = sorted(t for t, e in zip(names, after, strict=True) if t in before and not e)
        if not dropped:
            assert text is None
            continue
        m = re.fullmatch(r"This score is a new best \(([\d.]+)\): the band now starts at ([\d.]+), so (.+) "
                         r"(falls|fall) out of it and (loses its|lose their) eligibility\.", text)
        assert m, text
        assert agrees(m[1], res["best"]) and sorted(re.split(r", | and ", m[3])) == dropped
        start = number(m[2])
        assert start >= threshold - 1e-12 and start - threshold < 1e-4  # a score under the printed start is out
        assert (m[4] == "falls") == (len(dropped) == 1) == (m[5] == "loses its")


def test_group_and_letter_warnings_state_their_findings():
    rng = np.random.default_rng(6)
    for _ in range(CASES["shovel_ready.group_warnings"]):
        f = ({"kind": "many", "attributes": ["ell_status", "gender"], "groups": int(rng.integers(3, 99)),
              "small": int(rng.integers(2, 50)), "min_group": 30} if rng.random() < 0.3 else
             {"kind": "heavy", "group": "g (x)", "size": int(rng.integers(1, 30)), "weight": float(rng.uniform(0.34, 1)),
              "alpha": float(rng.choice([5.0, 50.0, math.inf])), "teams": team_names(rng, int(rng.integers(1, 9))),
              "missing": bool(rng.random() < 0.2)})
        (text,) = shovel_ready.group_warnings([json.loads(json.dumps(f, default=str))] if False else [f])
        if f["kind"] == "many":
            assert re.fullmatch(rf"ell_status, gender makes {f['groups']} groups, {f['small']} of them with fewer "
                                rf"than 30 essays: .+", text)
            continue
        m = re.match(r"the group g \(x\) has only (\d+) essays? yet carries up to (\d+)% of the softmin weight at α = "
                     r"(\S+) for (.+?)(?: and others)?: it decides (its|their)", text)
        assert m, text
        assert int(m[1]) == f["size"] and abs(int(m[2]) - f["weight"] * 100) <= 0.5 + 1e-9
        assert m[3] == ("∞" if math.isinf(f["alpha"]) else f"{f['alpha']:g}")
        assert m[4].split(", ") == f["teams"][:5] and (m[5] == "its") == (len(f["teams"]) == 1)
        assert ("without demographics" in text) == f["missing"]
    for _ in range(CASES["shovel_ready.letter_warnings"]):
        k = int(rng.integers(1, 10))
        pairs = sorted([(f"a{i}", f"b{i}", float(rng.uniform(5, 40))) for i in range(k)], key=lambda x: -x[2])
        f = {"pairs": pairs, "t_pooled": 5.0}
        (text,) = shovel_ready.letter_warnings([f])
        m = re.match(r"these pairs share a letter on the bias-aware score although the first is (\S+) or more paired "
                     r"standard errors ahead on the segment score \(every essay pooled, no softmin\): (.+?)"
                     r"(?: and (\d+) more)?; the bias-aware score", text)
        assert m, text
        assert number(m[1]) == f["t_pooled"]
        shown = re.findall(r"(\S+) over (\S+) \(([\d.]+) SE\)", m[2])
        assert [(a, b) for a, b, _ in shown] == [(a, b) for a, b, _ in pairs[:6]]
        assert all(agrees(t, x[2]) for (_, _, t), x in zip(shown, pairs, strict=False))
        assert all(number(t) >= f["t_pooled"] - 0.05 for _, _, t in shown)  # every pair shown is past the threshold
        assert int(m[3] or 0) == max(0, k - 6)


def test_the_interval_note_states_the_nearest_measured_design():
    rng = np.random.default_rng(40)
    for _ in range(CASES["shovel_ready.interval_note"]):
        total = int(rng.integers(50, 5000))
        smallest = int(rng.integers(0, 60))
        text = shovel_ready.interval_note(smallest, total)
        if smallest >= 30:
            assert text == ""
            continue
        m = re.fullmatch(r"the smallest group has (\d+) essays?: in a simulation with a (\d+)-essay group in ([\d,]+) "
                         r"essays, the score intervals held the true score for (\d+)% or more of the teams of each "
                         r"kind(?:, but for the weakest teams \(a handful of matched segments in that group\) as little "
                         r"as (\d+)% of the time)?(; groups under 20 essays were not simulated)?", text)
        assert m, text
        g, n = int(m[2]), int(m[3].replace(",", ""))
        row = next(r for r in shovel_ready.MEASURED if r[0] == g and r[1] == n)
        # the design nearest in total essays (log scale), then in the group's size
        best = min(abs(math.log(r[1] / total)) for r in shovel_ready.MEASURED)
        assert abs(abs(math.log(n / total)) - best) < 1e-12
        assert int(m[1]) == smallest and int(m[4]) == round(row[2] * 100)
        assert (m[5] is not None) == (row[3] < row[2]) and (m[5] is None or int(m[5]) == round(row[3] * 100))
        assert (m[6] is not None) == (smallest < 20)


# ---- spotGEO -----------------------------------------------------------------------------------------
def moves_by_hand(names, before, after) -> set[tuple[str, int, int]]:
    return {(n, int(b), int(a)) for n, b, a in zip(names, before, after, strict=True) if a != b}


def parse_moves(text: str) -> set[tuple[str, int, int]]:
    m = re.fullmatch(r"(\S+) and (\S+) swap places", text)
    if m:
        return {("swap", m[1], m[2])}
    return {(n, int(b), int(a)) for n, b, a in re.findall(r"(\S+) (\d+)→(\d+)", text)}


def test_spotgeo_leaderboard_ties_and_rules():
    rng = np.random.default_rng(7)
    for _ in range(CASES["spotgeo.leaderboard"]):
        n = int(rng.integers(1, 7))
        names = team_names(rng, n)
        a = ranks(-rng.integers(0, 4, n))
        b = ranks(-rng.integers(0, 4, n)) if rng.random() < 0.7 else a
        score = rng.integers(0, 3, n) / 3
        lb = pd.DataFrame({"submission": names, "rank": a, "other_rules_rank": b, "score": score})
        rules = str(rng.choice(["seed", "starter-kit"]))
        text = spotgeo.leaderboard(lb, rules)
        r = records(lb)
        top = [x["submission"] for x in r if x["rank"] == 1]
        m = re.fullmatch(r"(.+) (leads|share the lead) under (the published rules|the starter-kit code); (.+)\.", text)
        assert m, text
        assert set(re.split(r", | and ", m[1])) == set(top) and (m[2] == "leads") == (len(top) == 1)
        assert m[3] == spotgeo.RULE_WORDS[rules]
        want = moves_by_hand(names, a, b)
        if not want:
            assert m[4].endswith("the same ranking")
            continue
        got = parse_moves(m[4].split(" ", 4)[-1] if m[4].startswith("under the published rules")
                          else m[4].removeprefix("under the starter-kit code "))
        if any(x[0] == "swap" for x in got):
            (_, x, y), = got
            assert {t for t, _, _ in want} == {x, y} and len(want) == 2
            (t1, b1, a1), (t2, b2, a2) = sorted(want, key=lambda w: w[1])
            assert a1 == b2 and a2 == b1
        else:
            assert got == want, (text, want)
        # the tie note: each group of equal 1 − F1, named
        note = spotgeo.ties(lb)
        groups = [sorted(x["submission"] for x in r if x["score"] == v) for v in sorted({x["score"] for x in r})]
        groups = [g for g in groups if len(g) > 1]
        if not groups:
            assert note is None
        else:
            named = [sorted(re.split(r", | and ", g)) for g in note.split(" have")[0].split("; ")]
            assert sorted(named) == sorted(groups)
    for _ in range(CASES["spotgeo.rules"]):
        n = int(rng.integers(1, 6))
        names = team_names(rng, n)
        seed_r, kit_r = ranks(-rng.integers(0, 3, n)), ranks(-rng.integers(0, 3, n))
        diffs = [{"title": f"d{i}", "moved": bool(rng.random() < 0.4)} for i in range(4)]
        text = spotgeo.rules(pd.DataFrame({"submission": names, "seed": seed_r, "starter-kit": kit_r}), diffs, 10.0)
        movers = [i + 1 for i, d in enumerate(diffs) if d["moved"]]
        assert [int(x) for x in re.findall(r"no\. (\d)", text)] == movers
        assert text.startswith("The starter-kit code ranks the teams exactly") == (not moves_by_hand(names, seed_r, kit_r))


def test_spotgeo_frame_errors_and_examples():
    rng = np.random.default_rng(8)
    for _ in range(CASES["spotgeo.frame"]):
        tp, fp, fn = (int(x) for x in rng.integers(0, 4, 3))
        sse = float(rng.choice([0.0, 325.0, float(np.round(rng.uniform(0, 900), 3))]))
        view = {"summary": {"team": "sharp", "sequence_id": 3, "frame": 2, "tp": tp, "fp": fp, "fn": fn, "sse": sse}}
        text = spotgeo.frame(view)
        if tp + fp + fn == 0:
            assert "there is nothing" in text
            continue
        m = re.fullmatch(r"In sequence 3, frame 2, sharp finds (\d+) of (\d+) objects? with (no false alarm|(\d+) false "
                         r"alarms?); the frame adds ([\d.]+) to its SSE\.", text)
        assert m, text
        assert int(m[1]) == tp and int(m[2]) == tp + fn and int(m[4] or 0) == fp and agrees(m[5], sse)
    for _ in range(CASES["spotgeo.errors"]):
        parts = pd.DataFrame({"team": ["a", "b"], "fn": rng.random(2) * rng.integers(0, 2, 2),
                              "fp": rng.random(2), "tp": rng.random(2) * 1e-3})
        bins = pd.DataFrame({"recall": rng.random(3), "label": ["0.1–0.5", "0.5–1.0", "1.0–2.0"]}) \
            if rng.random() < 0.7 else None
        costs = pd.DataFrame({"sequence_id": [4, 1], "contribution": [float(rng.random()), 0.0]})
        text = spotgeo.errors("a", parts, bins, costs)
        row = records(parts)[0]
        total = row["fn"] + row["fp"] + row["tp"]
        m = re.match(r"a's MSE of ([\d.]+) is ([\d.]+%) misses, ([\d.]+%) false alarms and ([\d.]+%) position error", text)
        assert m, text
        assert agrees(m[1], total) and all(pct_ok(m[i], row[k] / total) for i, k in ((2, "fn"), (3, "fp"), (4, "tp")))
        if bins is not None:
            rec = records(bins)
            b = re.search(r"it finds ([\d.]+%) of the faintest objects \(brightness (\S+)\) and ([\d.]+%)", text)
            assert pct_ok(b[1], rec[0]["recall"]) and b[2] == rec[0]["label"] and pct_ok(b[3], rec[-1]["recall"])
        assert ("sequence 4 costs it the most" in text) == (costs["contribution"].iloc[0] > 0)
    for _ in range(CASES["spotgeo.example"]):
        d = rng.uniform(0.5, 9.9)
        e = {"source": "prediction 3", "d": d, "seed_penalty": d ** 2, "kit_penalty": d, "mse_seed": 4.0,
             "mse_switched": 3.0}
        text = spotgeo.example({"key": "squared", "example": e}, "t", 10.0, 1.0)
        m = re.search(r"is ([\d.]+) px off\. The published rules add ([\d.]+)² = ([\d.]+) for it", text)
        assert agrees(m[1], d) and agrees(m[3], d ** 2) and m[1] == m[2]
        n = int(rng.integers(0, 3))
        text = spotgeo.example({"key": "edge", "example": {"pairs_at_tau": n, "seed_penalty": 100.0, "kit_penalty": 0}},
                               "t", 10.0, 1.0)
        assert (f"The data has {n} true positive" in text) == (n > 0)
        k = int(rng.integers(0, 4))
        first = {"team": "t", "sequence_id": 1, "frame": 2, "tp_seed": 3, "tp_kit": 2} if k else None
        built = {"objects": 30, "tau": 49.5, "tp_seed": 30, "tp_kit": 20}
        text = spotgeo.example({"key": "kit", "example": {"frames_that_differ": k, "first": first, "built": built}},
                               "t", 10.0, 1.0)
        if k:
            assert re.match(rf"In the data, {k} frames? {'differs' if k == 1 else 'differ'} at τ = 10 px", text), text
        else:
            assert "no frame of the data differs" in text and "at least 100 objects" in text


# ---- QA ----------------------------------------------------------------------------------------------
def test_qa_takeaways():
    rng = np.random.default_rng(9)
    for _ in range(CASES["qa.leaderboard"]):
        n = int(rng.integers(1, 6))
        names = team_names(rng, n)
        pf = rng.dirichlet(np.ones(n)) * (rng.random(n) < 0.8)
        pf = np.where(rng.random(n) < 0.1, 0.996, pf)
        rank, eq = ranks(-rng.integers(0, 3, n)), ranks(-rng.integers(0, 3, n))
        lb = pd.DataFrame({"submission": names, "p_first": pf})
        ch = pd.DataFrame({"submission": names, "rank": rank, "equal_rank": eq})
        label = str(rng.choice(["equal weights", "the weights file"]))
        text = qa.leaderboard(lb, ch, label)
        first = [t for t, r in zip(names, rank, strict=True) if r == 1]
        pcts = re.findall(r"([\d.]+ %)", text)
        lead = max(pf[names.index(t)] for t in first)
        assert pct_ok(pcts[0], lead), (text, lead)
        assert set(re.split(r", | and ", re.search(r"(?:under .+? |^)(\S+(?:(?:, | and )\S+)*) (?:is|are) first",
                                                     text)[1])) == set(first), text
    for _ in range(CASES["qa.hidden"]):
        n = int(rng.integers(1, 7))
        names = team_names(rng, n)
        pf = rng.dirichlet(np.ones(n)) * (rng.random(n) < 0.7)
        if pf.sum() == 0:
            pf[0] = 1.0
        pf = pf / pf.sum()
        lb = pd.DataFrame({"submission": names, "p_first": pf})
        text = qa.hidden(lb, 10_000)
        win = [(t, p) for t, p in zip(names, pf, strict=True) if p > 0]
        if len(win) == 1:
            assert f"{win[0][0]} is first every time" in text
            continue
        shown = re.findall(r"(\S+) \(([\d.]+ %)\)", text)
        best = sorted(win, key=lambda x: (-x[1], x[0]))[:3]
        assert [t for t, _ in shown] == [t for t, _ in best] and all(pct_ok(s, p) for (_, s), (_, p) in zip(shown, best,
                                                                                                           strict=True))
        never = n - len(win)
        assert (f"{never} of {n} teams are never first" in text) == bool(never)
    for _ in range(CASES["qa.speed"]):
        rows = [(t, th, float(rng.choice([0.0, rng.uniform(0, 50)])), float(rng.uniform(0, 0.01)))
                for t in ("a", "b") for th in ("x", "y")]
        sp = pd.DataFrame(rows, columns=["submission", "theme", "over_ms", "gain"])
        text = qa.speed(sp, ["a", "b"], 100.0, 2, 10.0)
        over = [r for r in rows if r[2] > 0]
        if not over:
            assert "no team is slowed down" in text
            continue
        assert re.search(rf", {len(over)} team–theme averages? (?:is|are) over the threshold", text)
        best = max(rows, key=lambda r: r[3])
        m = re.search(r"the most to gain from 10 ms saved is (\S+)'s on (\S+): \+([\d.]+) final score\.$", text)
        assert (m[1], m[2]) == best[:2] and agrees(m[3], best[3])
    for _ in range(CASES["qa.question"]):
        n = int(rng.integers(1, 6))
        f1 = np.where(rng.random(n) < 0.5, 1.0, rng.random(n))
        ans = [str(rng.choice(["Paris", " Paris ", "paris", "x"])) for _ in range(n)]
        pc = rng.random(n) < 0.5
        ex = {"teams": pd.DataFrame({"paragraph_correct": pc, "f1": f1, "answer": ans}), "answers": ["Paris"],
              "paragraph_ids": ["p1"] if rng.random() < 0.8 else []}
        text = qa.question(ex)
        m = re.fullmatch(r"On this question (no paragraph answers it, and )?(\d+) of (\d+) teams (?:say so|name a right "
                         r"paragraph); (\d+) of (\d+) answers score F1 = 1(.*)\.", text)
        assert m, text
        perfect = [a for a, f in zip(ans, f1, strict=True) if f >= 1 - 1e-12]
        norm = sum(a.strip() != "Paris" for a in perfect)
        assert int(m[2]) == pc.sum() and int(m[4]) == len(perfect) and bool(m[1]) == (not ex["paragraph_ids"])
        assert ("as written" in m[6]) == (bool(perfect) and not norm)
        assert ("only after normalisation" in m[6]) == bool(norm)


# ---- difficulty --------------------------------------------------------------------------------------
def test_difficulty_takeaways():
    rng = np.random.default_rng(10)
    for _ in range(CASES["difficulty.leaderboard"]):
        n = int(rng.integers(1, 7))
        names = team_names(rng, n)
        rank, acc = ranks(-rng.integers(0, 4, n)), ranks(-rng.integers(0, 4, n))
        text = difficulty.leaderboard(pd.DataFrame({"submission": names, "rank": rank, "accuracy_rank": acc}))
        move = acc - rank
        m = re.search(r"\((\d+) of (\d+) models move\)\.$", text)
        if not move.any():
            assert text.endswith("no model changes place against plain accuracy.")
        else:
            assert int(m[1]) == int((move != 0).sum()) and int(m[2]) == n
            g = re.search(r"(\S+) gains (\d+) places? over plain accuracy", text)
            if g:
                assert int(g[2]) == move.max() > 0 and move[names.index(g[1])] == move.max()
            lo = re.search(r"(\S+) loses (\d+) places?", text)
            if lo:
                assert int(lo[2]) == -move.min() > 0 and move[names.index(lo[1])] == move.min()
            assert bool(g) == (move.max() > 0) and bool(lo) == (move.min() < 0)
    for _ in range(CASES["difficulty.splits"]):
        n, k = int(rng.integers(1, 5)), int(rng.integers(1, 6))
        names = team_names(rng, n)
        score = np.round(rng.uniform(-100, 100, (n, k)), 3)
        score[rng.random((n, k)) < 0.1] = np.nan
        table = pd.DataFrame([(s + 1, t, score[i, s]) for i, t in enumerate(names) for s in range(k)],
                             columns=["split", "submission", "score"])
        text = difficulty.splits(table, pd.DataFrame({"submission": names}))
        mine = score[0][~np.isnan(score[0])]
        if not len(mine):
            assert text.startswith("No split holds")
            continue
        nums = re.findall(r"(-?[\d.]+) on (?:the easiest|split \d)", text)
        assert agrees(nums[0], mine[0])
        spread = [np.nanmax(score[:, s]) - np.nanmin(score[:, s]) if np.isfinite(score[:, s]).any() else np.nan
                  for s in range(k)]
        best = int(np.nanargmax(spread)) + 1
        m = re.search(r"differ most on split (\d+) \(from (-?[\d.]+) to (-?[\d.]+)\)", text)
        assert int(m[1]) == best and agrees(m[2], np.nanmin(score[:, best - 1])), text
    for _ in range(CASES["difficulty.samples"]):
        n_models, n = int(rng.integers(1, 6)), int(rng.integers(1, 200))
        missed = rng.integers(0, n_models + 1, n)
        splits = int(rng.integers(1, 5))
        points = pd.DataFrame({"split": rng.integers(0, splits + 1, n * n_models),
                               "correct": rng.random(n * n_models) < 0.7})
        text = difficulty.samples(pd.DataFrame({"missed_by": missed}), points, n_models, splits)
        m = re.match(r"(\d+) of ([\d,]+) samples are missed by every model and (\d+) by most of them", text)
        assert int(m[1]) == (missed == n_models).sum() and int(m[3]) == (missed > n_models / 2).sum()
        scored = points[points["split"] > 0]
        wrong = scored[~scored["correct"]]
        if not len(wrong):
            assert text.endswith("most of them.")
            continue
        hk = int(scored["split"].max())
        s = re.search(r"holds ([\d.]+%) of the wrong predictions, against ([\d.]+%) of all", text)
        assert pct_ok(s[1], float((wrong["split"] == hk).mean())) and pct_ok(s[2], float((scored["split"] == hk).mean()))
    for _ in range(CASES["difficulty.weights"]):
        k = int(rng.integers(2, 6))
        w = np.arange(1, k + 1, dtype=float) ** rng.choice([1, 2])
        nn = rng.integers(0, 50, k)
        nn[-1] = nn[-1] * (rng.random() < 0.7)
        share_ = w * nn / max((w * nn).sum(), 1)
        table = pd.DataFrame({"submission": "lead", "split": np.arange(1, k + 1), "weight": w, "weight_share": share_,
                              "n": nn})
        presets = pd.DataFrame({"case": [f"c{i}" for i in range(4)] * 2, "submission": ["lead"] * 4 + ["b"] * 4,
                                "rank": [1, 1, 2, 1, 2, 2, 1, 2]})
        text = difficulty.weights(table, presets, False, "lead")
        assert agrees(re.search(r"weighs ([\d.]+)× the easiest", text)[1], w[-1] / w[0])
        if nn[-1] > 0:
            assert pct_ok(re.search(r"holds ([\d.]+%) of the attainable score", text)[1], share_[-1])
        else:
            assert "holds no sample at these thresholds" in text
        assert "lead is first in 3 of Table 1's 4 cases, b in the others" in text

"""Run the rank-set simulation: ``python -m tests.simulation.run [--sims R] [--b B]`` prints the
figures of docs/robustness.md (the slow tests assert them, tests/simulation/test_simulation.py).

For each family and design: ``R`` test sets drawn from the population, each through
``scoring.core.robustness.bootstrap`` (B replicates, 95 %), against the known truth.
``--far-pairs`` prints instead, per design, every pair >= 8 SE apart that shares a letter and why
(:func:`far_pairs`); ``--alpha A`` builds the Shovel-Ready populations with the softmin at ``A``.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np

from scoring.core.robustness import bootstrap, score_interval
from tests.simulation.populations import FAMILIES, Population

CONFIDENCE = 0.95
#: replicates of the score intervals: the product's default (a percentile's ends from fewer replicates are noisier,
#: which costs coverage: QA at 1,500, 400 test sets: 0.941 with B = 200, 0.948 with 1,000; docs/robustness.md)
B_SCORE = 1000
#: bands of the true gap (in SE of the difference) for the guardrail's rates: [low, high)
GAP_BANDS = [(0.0, 1.0), (1.0, 2.0), (2.0, 4.0), (4.0, 8.0), (8.0, float("inf"))]


@dataclass
class Result:
    family: str
    design: str
    n: int
    sims: int
    #: marginal coverage per team type (share of team × test set)
    marginal: dict[str, float] = field(default_factory=dict)
    #: the lowest marginal coverage of any one team
    marginal_min: float = 1.0
    #: share of test sets whose simultaneous sets all hold
    simultaneous: float = 0.0
    #: share of test sets where every pair of exactly tied teams shares a letter
    tied_share: float = float("nan")
    #: pairs ≥ 8 SE apart in truth: share of (pair × test set) sharing a letter (want 0), and how many pairs
    far_share: float = float("nan")
    far_pairs: int = 0
    #: the far pair shared most often: (team, team, gap in SE, share)
    far_worst: tuple = ()
    #: Shovel-Ready's guardrail (``letter_flags``): far pairs × test sets sharing a letter unflagged / flagged
    far_unflagged: int = 0
    far_flagged: int = 0
    #: how often it flags: tied pairs, pairs ≤ 1 SE apart (not tied), pairs sharing a letter (shares of
    #: pair × test set), and the share of test sets with at least one flag
    flag_tied: float = float("nan")
    flag_close: float = float("nan")
    flag_sharing: float = float("nan")
    flag_sets: float = float("nan")
    #: by the true gap in SE (bands ``GAP_BANDS``): (share of pair × test set flagged, share of those sharing a
    #: letter flagged, pairs in the band)
    flag_by_gap: dict = field(default_factory=dict)
    #: the true winner(s) in the could-have-won set; its mean size
    winner_cover: float = 0.0
    winner_size: float = 0.0
    #: the leader's gap to the next team in SE, and the share of test sets giving it [1, 1]
    leader_gap: float = float("nan")
    leader_first: float = float("nan")
    #: copies got identical rows in every test set
    copies_equal: bool = True
    #: score intervals (the engine's ``score_interval``, ``B_SCORE`` replicates): coverage of the true score per team
    #: type, its Monte-Carlo standard error (over the test sets), the lowest single team; the estimate's bias in SDs
    score_cover: dict[str, float] = field(default_factory=dict)
    score_se: dict[str, float] = field(default_factory=dict)
    score_min: float = 1.0
    bias_sd: float = 0.0
    #: the small group's (theme's) essays at the test size (``None``: the population's default shares)
    small: int | None = None
    seconds: float = 0.0


def simulate(family: str, design: str, *, n: int, sims: int, b: int, seed: int = 0, pop: Population | None = None,
             small: int | None = None, b_score: int = B_SCORE) -> Result:
    """Draw ``sims`` test sets of ``n`` units and score each one's rank sets against the truth (``small``: the
    population's small group or theme at that many units of ``n``)."""
    t0 = time.perf_counter()
    pop = pop or FAMILIES[family](design, n=n, seed=seed, **({} if small is None else {"small": small}))
    rng = np.random.default_rng(seed + 1)
    k = len(pop.kinds)
    truth, true_rank = pop.truth, pop.true_rank
    cover = np.zeros((sims, k), dtype=bool)
    all_cover = np.zeros(sims, dtype=bool)
    shares = np.zeros((sims, k, k), dtype=bool)
    est = np.zeros((sims, k))
    s_cover = np.zeros((sims, k), dtype=bool)
    win_cover = np.zeros(sims, dtype=bool)
    win_size = np.zeros(sims)
    leader_11 = np.zeros(sims, dtype=bool)
    copies_equal = True
    copies = [(j, i) for j, kind in enumerate(pop.kinds) if kind == "copy" for i in [j - 1]]
    guard = pop.pooled is not None  # Shovel-Ready: its guardrail on the close calls
    flagged = np.zeros((sims, k, k), dtype=bool)
    for s in range(sims):
        us = pop.sample(n, rng)
        iv = bootstrap(us, b=b, seed=s, confidence=CONFIDENCE)
        lo, hi = iv["rank_low"].to_numpy(), iv["rank_high"].to_numpy()
        cover[s] = (lo <= true_rank) & (true_rank <= hi)
        all_cover[s] = ((iv["rank_low_all"].to_numpy() <= true_rank) & (true_rank <= iv["rank_high_all"].to_numpy())).all()
        lets = [set(x) for x in iv["letters"]]
        shares[s] = np.array([[bool(x & y) for y in lets] for x in lets])
        if guard:
            flagged[s] = guard_flags(iv)
        est[s] = iv["score"].to_numpy()
        s_lo, s_hi = score_interval(us, b=b_score, seed=s, confidence=CONFIDENCE)
        s_cover[s] = (s_lo <= truth) & (truth <= s_hi)
        could = iv["could_win"].to_numpy()
        win_cover[s] = could[true_rank == 1].all()
        win_size[s] = could.sum()
        leader_11[s] = lo[0] == 1 and hi[0] == 1
        cols = ["rank_low", "rank_high", "rank_low_all", "rank_high_all", "letters", "could_win"]
        for j, i in copies:
            copies_equal &= iv.iloc[j][cols].tolist() == iv.iloc[i][cols].tolist()
    r = Result(family, design, n, sims, small=small)
    for kind in dict.fromkeys(pop.kinds):
        if kind == "copy":
            continue
        r.marginal[kind] = float(cover[:, [j for j, x in enumerate(pop.kinds) if x == kind]].mean())
        per_set = s_cover[:, [j for j, x in enumerate(pop.kinds) if x == kind]].mean(axis=1)
        r.score_cover[kind], r.score_se[kind] = float(per_set.mean()), float(per_set.std(ddof=1) / np.sqrt(sims))
    r.score_min = float(s_cover.mean(axis=0).min())
    r.marginal_min = float(cover.mean(axis=0).min())
    r.simultaneous = float(all_cover.mean())
    tied = [j for j, x in enumerate(pop.kinds) if x == "tied"]
    if tied:
        r.tied_share = float(np.all([shares[:, i, j] for i in tied for j in tied], axis=0).mean())
    sd = est.std(axis=0, ddof=1)
    diff_sd = np.sqrt(np.maximum(((est[:, :, None] - est[:, None, :]) ** 2).mean(axis=0)
                                 - (est[:, :, None] - est[:, None, :]).mean(axis=0) ** 2, 0))
    gap = np.abs(truth[:, None] - truth[None, :]) / np.where(diff_sd > 0, diff_sd, np.inf)
    far = np.triu(gap >= 8, 1)
    r.far_pairs = int(far.sum())
    if far.any():
        r.far_share = float(shares[:, far].mean())
        per = np.where(far, shares.mean(axis=0), -1)
        i, j = np.unravel_index(int(np.argmax(per)), per.shape)
        r.far_worst = (int(i), int(j), round(float(gap[i, j]), 1), float(per[i, j]))
    if guard:
        upper = np.triu(np.ones((k, k), dtype=bool), 1)
        r.far_unflagged = int((shares & ~flagged)[:, far].sum())
        r.far_flagged = int((shares & flagged)[:, far].sum())
        in_tie = np.isin(np.arange(k), tied)
        tied_pairs = upper & in_tie[:, None] & in_tie[None, :]
        if tied_pairs.any():
            r.flag_tied = float(flagged[:, tied_pairs].mean())
        close = upper & (gap <= 1) & ~tied_pairs & (diff_sd > 0)  # (not the exact copy)
        if close.any():
            r.flag_close = float(flagged[:, close].mean())
        r.flag_sharing = float(flagged[:, upper][shares[:, upper]].mean())
        r.flag_sets = float(flagged.any(axis=(1, 2)).mean())
        for lo_, hi_ in GAP_BANDS:
            band = upper & (gap >= lo_) & (gap < hi_) & (diff_sd > 0)
            if band.any():
                sh = shares[:, band]
                r.flag_by_gap[lo_, hi_] = (float(flagged[:, band].mean()),
                                           float(flagged[:, band][sh].mean()) if sh.any() else float("nan"),
                                           int(band.sum()))
    if pop.kinds[0] == "leader":
        r.leader_gap = float(gap[0, 1:].min())
        r.leader_first = float(leader_11.mean())
    r.winner_cover, r.winner_size = float(win_cover.mean()), float(win_size.mean())
    r.copies_equal = copies_equal
    r.bias_sd = float(((est.mean(axis=0) - truth) / np.where(sd > 0, sd, np.inf)).mean())
    r.seconds = time.perf_counter() - t0
    return r


def guard_flags(iv) -> np.ndarray:
    """(K, K) symmetric: the pairs Shovel-Ready's guardrail flags in this test set
    (``scoring.shovel_ready.guardrails.letter_flags`` on ``bootstrap``'s close calls)."""
    from scoring.shovel_ready.guardrails import letter_flags

    names = list(iv.index)
    out = np.zeros((len(names), len(names)), dtype=bool)
    for j, other, _ in letter_flags(iv["close_calls"]):
        i = names.index(other)
        out[j, i] = out[i, j] = True
    return out


def mc_error(p: float, sims: int) -> float:
    """The Monte-Carlo standard error of a share ``p`` over ``sims`` test sets."""
    return float(np.sqrt(max(p * (1 - p), 1e-12) / sims))


def line(r: Result) -> str:
    m = ", ".join(f"{k} {v:.3f}" for k, v in r.marginal.items())
    extra = f"; leader {r.leader_gap:.1f} SE ahead: [1, 1] in {r.leader_first:.3f}" if r.leader_gap == r.leader_gap else ""
    tied = f"; tied share a letter {r.tied_share:.3f}" if r.tied_share == r.tied_share else ""
    guard = (f"; guardrail: far pairs sharing a letter flagged {r.far_flagged}, unflagged {r.far_unflagged}; flags "
             f"tied pairs {r.flag_tied:.4f}, pairs <= 1 SE apart {r.flag_close:.4f}, pairs sharing a letter "
             f"{r.flag_sharing:.4f}, test sets with a flag {r.flag_sets:.3f}; by true gap (SE): "
             + ", ".join(f"[{a:g}, {b:g}) {n} pairs: {x:.4f} (of those sharing {y:.3f})"
                         for (a, b), (x, y, n) in r.flag_by_gap.items())) if r.flag_sets == r.flag_sets else ""
    sc = ", ".join(f"{k} {v:.3f} ± {r.score_se[k]:.3f}" for k, v in r.score_cover.items())
    return (f"{r.family:12s} {r.design:6s} n={r.n:5d} small={r.small} R={r.sims}: marginal {m} (min team {r.marginal_min:.3f}); "
            f"simultaneous {r.simultaneous:.3f}{tied}; >= 8 SE pairs ({r.far_pairs}) sharing {r.far_share:.3f} (worst {r.far_worst})"
            f"{extra}; winner in set {r.winner_cover:.3f} (size {r.winner_size:.1f}); copies equal {r.copies_equal}; "
            f"score interval {sc} (min team {r.score_min:.3f}), bias {r.bias_sd:+.2f} SD"
            f"{guard}  [{r.seconds:.0f} s]")


def far_pairs(family: str, design: str, *, n: int, sims: int, b: int, se_sets: int = 3000, seed: int = 0,
              **population) -> dict:
    """Why do pairs far apart in truth share a letter? On the test sets of :func:`simulate` (same seeds):

    - ``se``: each difference's true standard error, from ``se_sets`` further test sets (scores
      only), not from the ``sims`` sets themselves; ``far``: pairs ≥ 8 of them apart in truth;
    - ``share``: the share of (far pair × test set) sharing a letter; ``sharing``: each such case as
      (test set, better, worse, its estimate in true SEs, bootstrap SE / true SE, studentised difference,
      ``oracle``, and, with a ``groups`` stage (Shovel-Ready), the better and the worse team's smallest-cell
      score minus the population's, in its standard deviations over the ``se_sets`` test sets), where
      ``oracle`` is the 95 % quantile over the replicates of the largest ``t*[j, k] + (θ_k − θ_j) / se[j, k]``
      over the true hypotheses "``k`` is not better than ``j``" (θ the true scores, ``se`` the bootstrap's):
      the critical value that, knowing the truth, keeps the chance of any wrong "better" at 5 %; a
      procedure that does not know the truth needs at least that much; ``below_oracle``: the cases under it;
    - ``c1``: per test set, the first step's critical value of the simultaneous comparisons (the 95 %
      quantile of the largest ``|t*|`` over all pairs);
    - ``lowest``: the lowest estimate of a far pair, in true SEs, over the ``se_sets`` test sets.
    - ``flagged``: of the ``sharing`` cases, those Shovel-Ready's guardrail flags (``letter_flags``).
    """
    from scoring.core.family import UnitStats
    from scoring.core.pairwise import paired
    from scoring.core.ranksets import rank_sets
    from scoring.core.robustness import replicates, resample_counts
    from scoring.shovel_ready.guardrails import letter_flags

    pop = FAMILIES[family](design, n=n, seed=seed, **population)
    other = np.random.default_rng(seed + 2)
    scored = [pop.sample(n, other).scores() for _ in range(se_sets)]
    est = np.array([np.asarray(x[pop.final], dtype=float) for x in scored])
    small = int(np.argmin(np.bincount(pop.cell, minlength=pop.n_cells)))
    if "groups" in scored[0]:
        sums = UnitStats(units=(), cell=pop.cell, n_cells=pop.n_cells, team=pop.team, shared=pop.shared,
                         score=pop.score, final=pop.final).cell_sums()
        g_true = np.asarray(pop.score(*sums)["groups"], dtype=float)[:, small]
        g_sd = np.array([np.asarray(x["groups"], dtype=float)[:, small] for x in scored]).std(axis=0, ddof=1)
    del scored
    sign = -1.0 if not pop.higher_is_better else 1.0
    truth = sign * pop.truth
    est = sign * est
    se = (est[:, None, :] - est[:, :, None]).std(axis=0, ddof=1)  # se[j, k]: of v_k - v_j
    gap = (truth[None, :] - truth[:, None]) / np.where(se > 0, se, np.inf)  # > 0: k better than j
    far, null = gap >= 8, (truth[None, :] <= truth[:, None]) & ~np.eye(len(truth), dtype=bool)
    lowest = float(((est[:, None, :] - est[:, :, None]) / np.where(se > 0, se, 1.0))[:, far].min())
    rng = np.random.default_rng(seed + 1)
    sharing, cases, c1, flagged = [], 0, [], 0
    for s in range(sims):
        us = pop.sample(n, rng)
        w = resample_counts(us.cell, b, seed=s)
        reps = sign * replicates(us, w)[0]
        full = sign * np.asarray(us.scores()[us.final], dtype=float)
        check = None if pop.pooled is None else paired(np.asarray(us.scores()[pop.pooled], dtype=float),
                                                       np.asarray(us.scores(w)[pop.pooled], dtype=float)).t
        rs = rank_sets(full, reps, confidence=CONFIDENCE, check=check)
        lets = [set(x) for x in rs.letters]
        calls: list[list] = [[] for _ in full]
        for (bt, wr), t in zip(rs.close.tolist(), rs.close_t.tolist(), strict=True):
            calls[bt].append((wr, t))
        flags = {(j_, int(o)) for j_, o, _ in letter_flags(calls)} if check is not None else set()
        p = paired(full, reps)
        ts = (p.centred[:, None, :] - p.centred[:, :, None]) / np.where(p.se > 0, p.se, np.inf)  # t*[b, j, k]
        c1.append(float(np.quantile(np.abs(ts[:, p.testable]).max(axis=1), CONFIDENCE, method="inverted_cdf")))
        g = np.asarray(us.scores()["groups"], dtype=float)[:, small] if "groups" in us.scores() else None
        true_nulls = null & (p.se > 0)
        shift = (truth[None, :] - truth[:, None])[true_nulls] / p.se[true_nulls]  # <= 0: how far from binding
        oracle = float(np.quantile((ts[:, true_nulls] + shift[None]).max(axis=1), CONFIDENCE, method="inverted_cdf"))
        for j, k in zip(*np.nonzero(far), strict=True):
            cases += 1
            if lets[j] & lets[k]:
                flagged += (int(k), int(j)) in flags
                sharing.append((s, int(k), int(j), round(float(p.diff[j, k] / se[j, k]), 2),
                                round(float(p.se[j, k] / se[j, k]), 2), round(float(p.diff[j, k] / p.se[j, k]), 2),
                                round(oracle, 2))
                               + (() if g is None else tuple(round(float((g[x] - g_true[x]) / g_sd[x]), 2) for x in (k, j))))
    return {"far": int(far.sum()), "share": len(sharing) / max(cases, 1), "cases": cases, "sharing": sharing,
            "below_oracle": sum(c[5] <= c[6] for c in sharing),
            "flagged": flagged, "lowest": lowest, "c1": c1}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sims", type=int, default=300)
    ap.add_argument("--b", type=int, default=400)
    ap.add_argument("--n", type=int, default=1500)
    ap.add_argument("--family", nargs="*", default=list(FAMILIES))
    ap.add_argument("--far-pairs", action="store_true",
                    help="only the diagnosis of pairs >= 8 SE apart sharing a letter (far_pairs), per design")
    ap.add_argument("--se-sets", type=int, default=3000, help="test sets for the true SEs of --far-pairs")
    ap.add_argument("--alpha", type=float, default=None, help="the softmin's alpha of the Shovel-Ready populations")
    ap.add_argument("--small", type=int, default=None,
                    help="the small group (Shovel-Ready) or theme (QA) at this many units of --n")
    args = ap.parse_args(argv)
    for fam in args.family:
        extra = {"alpha": args.alpha} if args.alpha is not None and fam == "shovel-ready" else {}
        if args.small is not None and fam != "difficulty":
            extra["small"] = args.small
        for design in ("tie6", "leader"):
            if args.far_pairs:
                r = far_pairs(fam, design, n=args.n, sims=args.sims, b=args.b, se_sets=args.se_sets, **extra)
                print(f"{fam} {design} n={args.n} R={args.sims} B={args.b}: {r['far']} pairs >= 8 SE apart "
                      f"(SE from {args.se_sets} test sets); sharing a letter {len(r['sharing'])} of {r['cases']} "
                      f"({r['share']:.4f}), {r['flagged']} of them flagged by the guardrail, {r['below_oracle']} below the oracle critical value; lowest "
                      f"estimate of such a pair {r['lowest']:.2f} SE; first-step critical value: median "
                      f"{np.median(r['c1']):.2f} ({np.min(r['c1']):.2f}-{np.max(r['c1']):.2f})", flush=True)
                for c in r["sharing"]:
                    print("   set {}: {} over {}: estimate {} SE, bootstrap SE {}x, t = {} (oracle c {})".format(*c[:7])
                          + ("; smallest cell of the better / worse team: {} / {} SD".format(*c[7:]) if c[7:] else ""))
                if r["sharing"] and len(r["sharing"][0]) > 7:
                    print("   mean smallest-cell deviation, better / worse team: {:.2f} / {:.2f} SD".format(
                        *np.mean([c[7:] for c in r["sharing"]], axis=0)))
                continue
            pop = FAMILIES[fam](design, n=args.n, **extra) if extra else None
            print(line(simulate(fam, design, n=args.n, sims=args.sims, b=args.b, pop=pop, small=extra.get("small"))),
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def difficulty_borders(design: str, *, n: int, sims: int, b: int, seed: int = 0) -> dict[str, float]:
    """Difficulty: do split borders cut once on the test set (the product: fixed inside the
    replicates) give other answers than borders cut again inside every replicate? Coverage of the
    true score by the percentile interval, and of the true rank by the marginal rank sets, both ways,
    on the same test sets; and the ratio of the bootstrap spread to the true spread of the scores."""
    from scoring.core.ranksets import rank_sets
    from scoring.core.robustness import resample_counts
    from scoring.difficulty.metric import eq4
    from tests.simulation.populations import _splits

    pop = FAMILIES["difficulty"](design, n=n, seed=seed)
    rng = np.random.default_rng(seed + 1)
    q = [(1 - CONFIDENCE) / 2 * 100, (1 + CONFIDENCE) / 2 * 100]
    out = {"fixed_score": [], "again_score": [], "fixed_rank": [], "again_rank": [], "fixed_sd": [], "again_sd": [],
           "est": []}
    for s in range(sims):
        idx = np.sort(rng.choice(len(pop.cell), n, replace=False))
        stats = pop.stats(pop.correct[idx], _splits(pop.ease[idx], pop.key[idx]))
        full = eq4(*(stats.sum(axis=0)[:, i] for i in range(3)))
        counts = resample_counts(np.zeros(n, dtype=np.int64), b, seed=s).astype(np.int64)
        fixed = np.stack([eq4(*((c[:, None, None] * stats).sum(axis=0)[:, i] for i in range(3))) for c in counts])
        again = []
        for c in counts:
            units = np.repeat(idx, c)
            st = pop.stats(pop.correct[units], _splits(pop.ease[units], pop.key[units]))
            again.append(eq4(*(st.sum(axis=0)[:, i] for i in range(3))))
        again = np.stack(again)
        out["est"].append(full)
        for name, reps in (("fixed", fixed), ("again", again)):
            lo, hi = np.percentile(reps, q, axis=0)
            out[f"{name}_score"].append((lo <= pop.truth) & (pop.truth <= hi))
            rs = rank_sets(full, reps, confidence=CONFIDENCE)
            out[f"{name}_rank"].append((rs.rank_low <= pop.true_rank) & (pop.true_rank <= rs.rank_high))
            out[f"{name}_sd"].append(reps.std(axis=0, ddof=1))
    true_sd = np.std(out["est"], axis=0, ddof=1)
    res = {k: float(np.mean(v)) for k, v in out.items() if k.endswith(("score", "rank"))}
    for name in ("fixed", "again"):
        res[f"{name}_spread"] = float(np.median(np.mean(out[f"{name}_sd"], axis=0) / true_sd))
        res[f"{name}_rank_min"] = float(np.min(np.mean(out[f"{name}_rank"], axis=0)))
    return res

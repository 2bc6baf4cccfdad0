"""The spotGEO leaderboard (spec §2–§3), built so that a parameter change does only what it
must:

1. **τ** re-matches: every submission's candidate pairs within τ (a prefix of the pairs kept
   sorted by distance at load) are matched by :func:`~.matching.match_submission`, under
   both cost constants at once — cached per τ;
2. per (τ, constant): true positives per sequence, and the true positives' distances in
   ascending order with running sums of ``d^power`` (plain, and weighted by each sequence's
   ``1 / (TP_k + FN_k + FP_k)`` for the starter kit's summed MSE) — cached;
3. **ε** and the **rule set** only look up two positions in those running sums
   (``searchsorted``) per submission: microseconds.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core.cache import LRU
from ..core.family import UnitStats
from ..core.fanout import default_workers, in_worker, max_workers
from ..core.params_typed import given
from ..core.ranking import rank_lex
from .competition import Competition
from .matching import SolverStats, match_submission, settling
from .params import LEADERBOARD_COLUMNS, PARAMS
from .rules import SEED, STARTER_KIT, RuleSet, prf, ruleset

#: candidate pairs within τ (all submissions together) from which submissions are matched
#: on several threads at once, one per core: numpy and the solver release the GIL for most of
#: the work, so a τ change of the crowded benchmark (20 submissions, 12 million pairs at
#: τ = 50) takes about two thirds of its time on one thread; a few thousand pairs take
#: milliseconds and stay on this thread
THREAD_MIN_PAIRS = 200_000

#: entries per cache level: a few τ values (each holds arrays the size of the true positives)
CACHE_SIZES = {"match": 4, "counts": 6, "prefix": 12}


@dataclass
class TauMatch:
    """The matching of every submission at one τ: positions of the matched pairs in each
    submission's candidate pairs under the definition's constant (``seed``) and the kit's
    (``kit``; the same array wherever they cannot differ), and how they were found."""

    tau: float
    seed: list[np.ndarray]
    kit: list[np.ndarray]
    stats: list[SolverStats]
    seconds: float
    threads: int = 1  # submissions matched at once (see :data:`THREAD_MIN_PAIRS`)


@dataclass
class Counts:
    """Per submission at one (τ, constant): ``tp`` (S, K) true positives per sequence,
    ``d`` the true positives' distances (ascending) and ``seq`` their sequences."""

    tp: np.ndarray
    d: list[np.ndarray]
    seq: list[np.ndarray]


class Scorer:
    """Scores a loaded :class:`~.competition.Competition` (see the module doc)."""

    def __init__(self, competition: Competition, *, threads: int | None = None):
        """``threads``: submissions matched at once on a τ change (default: one per core this
        process may use, ``LAB_WORKERS``; see :data:`THREAD_MIN_PAIRS`)."""
        self.comp = competition
        self.threads = default_workers() if threads is None else max(1, min(int(threads), max_workers()))
        gt = competition.gt
        self.names = competition.submission_names
        self.S = len(self.names)
        self.K = len(gt.sequences)
        self.frame_seq = gt.frame_seq
        #: objects (K,) and predictions (S, K) per sequence
        self.n_obj = np.bincount(gt.frame_seq[gt.point_frame], minlength=self.K).astype(np.int64)
        self.n_pred = np.array([np.bincount(gt.frame_seq[s.point_frame], minlength=self.K)
                                for s in competition.submissions], dtype=np.int64).reshape(self.S, self.K)
        self._pair_seq = [gt.frame_seq[gt.point_frame[s.g]].astype(np.int32) for s in competition.submissions]
        self._caches = {level: LRU(size) for level, size in CACHE_SIZES.items()}
        self._settling: list = [None] * self.S  # each submission's, taken at its first matching

    def cache_info(self) -> dict[str, dict[str, int]]:
        """Hits, misses and entries per cache level (``match``, ``counts``, ``prefix``)."""
        return {level: c.info() for level, c in self._caches.items()}

    def check(self, p: Mapping[str, Any] | None = None, /, **params) -> dict:
        """Validated, complete parameters (defaults filled in)."""
        return PARAMS.validate(given(p, params))

    # ---- level 1: matching -------------------------------------------------------------
    def matching(self, tau: float) -> TauMatch:
        """Every submission matched at ``tau`` (cached)."""
        tau = float(tau)
        return self._caches["match"].get(tau, lambda: self._match(tau))

    def _match(self, tau: float) -> TauMatch:
        gt = self.comp.gt
        subs = self.comp.submissions
        t0 = time.perf_counter()
        for i, s in enumerate(subs):
            if self._settling[i] is None:  # (made as the submission loaded, unless built by hand)
                self._settling[i] = s.settled if s.settled is not None else settling(s.p, s.g, s.n_points,
                                                                                       gt.n_points)

        def one(i: int):
            s = subs[i]
            return match_submission(s.p, s.g, s.d, s.point_frame, s.n_points, gt.n_points, tau, self._settling[i])

        within = sum(int(np.searchsorted(s.d, tau, side="right")) for s in subs)
        threads = 1 if in_worker() or within < THREAD_MIN_PAIRS else min(self.threads, self.S)
        if threads > 1:
            with ThreadPoolExecutor(threads, thread_name_prefix="spotgeo-match") as pool:
                done = list(pool.map(one, range(self.S)))
        else:
            done = [one(i) for i in range(self.S)]
        seed, kit, stats = (list(x) for x in zip(*done, strict=True)) if done else ([], [], [])
        return TauMatch(tau, seed, kit, stats, time.perf_counter() - t0, threads)

    def matched(self, name_or_index, tau: float, rules: str | RuleSet = "seed") -> np.ndarray:
        """Positions of one submission's matched pairs (true positives) in its candidate pairs."""
        i = name_or_index if isinstance(name_or_index, int) else self.names.index(name_or_index)
        m = self.matching(tau)
        return (m.seed if ruleset(rules).constant else m.kit)[i]

    # ---- level 2: counts and running sums --------------------------------------------------
    def counts(self, tau: float, constant: bool = True) -> Counts:
        tau = float(tau)
        return self._caches["counts"].get((tau, bool(constant)), lambda: self._counts(tau, bool(constant)))

    def _counts(self, tau: float, constant: bool) -> Counts:
        m = self.matching(tau)
        if not constant and all(a is b for a, b in zip(m.seed, m.kit, strict=True)):
            return self.counts(tau, True)  # the kit's constant changed nothing at this τ
        ids = m.seed if constant else m.kit
        tp = np.zeros((self.S, self.K), dtype=np.int64)
        ds, seqs = [], []
        for i, s in enumerate(self.comp.submissions):
            seq = self._pair_seq[i][ids[i]]
            tp[i] = np.bincount(seq, minlength=self.K)
            ds.append(s.d[ids[i]])
            seqs.append(seq)
        return Counts(tp, ds, seqs)

    def sequence_weights(self, tp: np.ndarray) -> np.ndarray:
        """``1 / (TP_k + FN_k + FP_k)`` per sequence (0 where that is 0), shaped like ``tp``."""
        den = (self.n_pred + self.n_obj[None, :] - tp).astype(float)
        return np.divide(1.0, den, out=np.zeros_like(den), where=den > 0)

    def _prefix(self, tau: float, constant: bool, power: int, pooled: bool) -> list[np.ndarray]:
        """Running sums (with a leading 0) of ``d^power`` over each submission's ascending
        true-positive distances, weighted by the sequence weight unless ``pooled``."""
        def run():
            c = self.counts(tau, constant)
            w = None if pooled else self.sequence_weights(c.tp)
            out = []
            for i in range(self.S):
                d = c.d[i]
                run = np.empty(len(d) + 1)  # d^power, weighted, summed in place after a 0
                run[0] = 0.0
                v = run[1:]
                if power == 2:
                    np.multiply(d, d, out=v)
                else:
                    np.power(d, power, out=v)
                if w is not None:
                    v *= w[i][c.seq[i]]
                np.cumsum(v, out=v)
                out.append(run)
            return out
        key = (float(tau), bool(constant), int(power), bool(pooled))
        return self._caches["prefix"].get(key, run)

    # ---- level 3: totals -----------------------------------------------------------------
    def totals(self, *, tau: float, epsilon: float, rules: str | RuleSet = "seed") -> dict[str, np.ndarray]:
        """Per submission (S,): ``tp, fp, fn, precision, recall, f1, score, mse`` under a rule
        set (a name or any :class:`~.rules.RuleSet`, e.g. one difference switched)."""
        rs = ruleset(rules)
        c = self.counts(tau, rs.constant)
        tp_k = c.tp
        tp = tp_k.sum(axis=1)
        fp = self.n_pred.sum(axis=1) - tp
        fn = self.n_obj.sum() - tp
        pre = self._prefix(tau, rs.constant, rs.power, rs.pooled)
        side = "right" if rs.edge else "left"
        pi = np.empty(self.S)
        for i in range(self.S):
            lo = np.searchsorted(c.d[i], epsilon, side="left")
            hi = np.searchsorted(c.d[i], tau, side=side)
            pi[i] = pre[i][max(hi, lo)] - pre[i][lo]
        if rs.pooled:
            den = (tp + fp + fn).astype(float)
            num = pi + tau**2 * (fp + fn)
            mse = np.divide(num, den, out=np.zeros(self.S), where=den > 0)
        else:
            w = self.sequence_weights(tp_k)
            fpk = self.n_pred - tp_k
            fnk = self.n_obj[None, :] - tp_k
            mse = pi + tau**2 * (w * (fpk + fnk)).sum(axis=1)
        p, r, f1 = prf(tp, fp, fn)
        return {"tp": tp, "fp": fp, "fn": fn, "precision": p, "recall": r, "f1": f1, "score": 1.0 - f1, "mse": mse}

    def ranks(self, *, tau: float, epsilon: float, rules: str | RuleSet = "seed") -> np.ndarray:
        """Final ranks (S,): ``1 − F1`` ascending, ties (1e-12) by MSE ascending, "1224"."""
        t = self.totals(tau=tau, epsilon=epsilon, rules=rules)
        return final_ranks(t)

    def leaderboard(self, p: Mapping[str, Any] | None = None, /, **params) -> pd.DataFrame:
        """The leaderboard (spec §3, §6): :data:`LEADERBOARD_COLUMNS`, then ``mse_rank``,
        ``other_rules_rank`` (the rank under the other rule set) and ``rank_change``
        (``other_rules_rank − rank``: positive = placed higher under these rules); rows by
        rank, then name. Keyword arguments ``tau, epsilon, rules`` (defaults 10, 3, seed)."""
        p = self.check(p, **params)
        tau, eps, rules = p["tau"], p["epsilon"], p["rules"]
        t = self.totals(tau=tau, epsilon=eps, rules=rules)
        other = "starter-kit" if rules == "seed" else "seed"
        r = final_ranks(t)
        r_other = self.ranks(tau=tau, epsilon=eps, rules=other)
        df = pd.DataFrame({"submission": self.names, **{k: t[k] for k in LEADERBOARD_COLUMNS[1:-1]}, "rank": r,
                           "mse_rank": rank_lex([t["mse"]], higher_is_better=False),
                           "other_rules_rank": r_other, "rank_change": r_other - r})
        return df.sort_values(["rank", "submission"], kind="stable").reset_index(drop=True)

    # ---- per-unit statistics -------------------------------------------------------------
    def sequence_table(self, i: int, *, tau: float, epsilon: float, rules: str | RuleSet = "seed") -> dict:
        """Per sequence (K,) for submission ``i``: ``tp, fp, fn, sse, mse`` (``mse`` = the
        sequence's own ``SSE_k / (TP_k + FN_k + FP_k)``)."""
        rs = ruleset(rules)
        c = self.counts(tau, rs.constant)
        tp = c.tp[i]
        fp, fn = self.n_pred[i] - tp, self.n_obj - tp
        d = c.d[i]
        inside = (d >= epsilon) & ((d <= tau) if rs.edge else (d < tau))
        pi = np.bincount(c.seq[i], weights=np.where(inside, d**rs.power, 0.0), minlength=self.K)
        sse = pi + tau**2 * (fp + fn)
        den = (tp + fp + fn).astype(float)
        mse = np.divide(sse, den, out=np.zeros(self.K), where=den > 0)
        return {"tp": tp, "fp": fp, "fn": fn, "sse": sse, "mse": mse}

    def unit_stats(self, p: Mapping[str, Any] | None = None, /, **params) -> UnitStats:
        """What every submission earned on every sequence, as additive sums.

        ``team`` (K, S, 5): per sequence ``tp, fp, fn, sse`` and the sequence's own MSE
        ``SSE_k / (TP_k + FN_k + FP_k)``; ``shared`` (K, 2): objects and a 1 per sequence; one
        cell. ``score(team_sums, shared_sums)`` gives ``score`` (1 − F1), ``f1``,
        ``precision``, ``recall``, ``tp``, ``fp``, ``fn`` and ``mse`` — pooled ``ΣSSE /
        Σ(TP + FN + FP)`` under the seed rules, ``Σ_k MSE_k`` under the starter kit's. Every
        score is lower-is-better except f1/precision/recall; the final ranking is
        :func:`final_ranks` (``rank_lex([score, mse], higher_is_better=False)``), not
        ``score`` alone.
        """
        p = self.check(p, **params)
        rs = ruleset(p["rules"])
        team = np.zeros((self.K, self.S, 5))
        for i in range(self.S):
            t = self.sequence_table(i, tau=p["tau"], epsilon=p["epsilon"], rules=rs)
            team[:, i] = np.stack([t["tp"], t["fp"], t["fn"], t["sse"], t["mse"]], axis=1)
        shared = np.stack([self.n_obj.astype(float), np.ones(self.K)], axis=1)
        pooled = rs.pooled

        def score(team_sums: np.ndarray, shared_sums: np.ndarray) -> dict[str, np.ndarray]:
            s = team_sums.sum(axis=-3)  # one cell: the sum over cells is the total
            tp, fp, fn, sse, mse_k = (s[..., j] for j in range(5))
            pr, rc, f1 = prf(tp, fp, fn)
            den = tp + fp + fn
            mse = np.divide(sse, den, out=np.zeros_like(sse), where=den > 0) if pooled else mse_k
            return {"score": 1.0 - f1, "f1": f1, "precision": pr, "recall": rc, "tp": tp, "fp": fp, "fn": fn,
                    "mse": mse}

        return UnitStats(units=[str(s) for s in self.comp.sequences], cell=np.zeros(self.K, dtype=np.int64),
                         n_cells=1, team=team, shared=shared, score=score, final="score", higher_is_better=False,
                         tiebreak="mse",
                         names=list(self.names))


def final_ranks(scores) -> np.ndarray:
    """The challenge's ranking from ``scores["score"]`` and ``scores["mse"]`` (1-d, or 2-d
    rows of replicates): ``1 − F1`` ascending, ties within 1e-12 by MSE ascending, "1224".

    >>> final_ranks({"score": [0.2, 0.2, 0.1], "mse": [5.0, 3.0, 9.0]}).tolist()
    [3, 2, 1]
    """
    s, m = np.asarray(scores["score"], dtype=float), np.asarray(scores["mse"], dtype=float)
    if s.ndim == 1:
        return rank_lex([s, m], higher_is_better=False)
    return np.stack([rank_lex([a, b], higher_is_better=False) for a, b in zip(s, m, strict=True)])


__all__ = ["Counts", "Scorer", "TauMatch", "final_ranks", "SEED", "STARTER_KIT"]

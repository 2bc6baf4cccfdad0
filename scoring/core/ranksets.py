"""Confidence sets for ranks, "who could have won", and letters of indistinguishable teams.

Built on the paired comparisons of :mod:`scoring.core.pairwise` (Mogstad, Romano, Shaikh &
Wilhelm, "Inference for Ranks", REStud 2024). A team's true rank is the product's "1224" rank
of the population scores: ``1 +`` the number of teams whose population score is strictly
better. With ``better[j, k]`` ("``k`` is established better than ``j``") and ``worse[j, k]``:

- ``rank_low = 1 + #{k : better[j, k]}`` and ``rank_high = K − #{k : worse[j, k]}``.
  Whenever no comparison of the family is wrong, the set ``[rank_low, rank_high]`` holds
  every place the team could take, ties included: for teams tied in the population it holds
  their shared "1224" rank and every place the tie spans.
- **marginal** sets (``rank_low``, ``rank_high``) use each team's own family: each set holds
  its team's true rank with probability ≥ the confidence; **simultaneous** sets
  (``rank_low_all``, ``rank_high_all``) use every pair at once: all sets hold together.
- **who could have won**: the teams with ``rank_low_all = 1`` — no team is established better
  — and the **top-k set**: ``rank_low_all ≤ k``. It holds every true winner (every true top-k
  team) with probability ≥ the confidence (the projection set of the paper's τ-best).
- **letters**: a compact letter display of the simultaneous comparisons: two teams share a
  letter exactly when neither is established better than the other; all the statements of
  the display hold together with probability ≥ the confidence. Left empty when it would need
  more than :func:`max_letters` letters (hundreds of close teams).
- **close calls**: the pairs that share a letter (neither is established better, all pairs at
  once) although the better one is ``T_CLOSE`` (2) or more bootstrap standard errors ahead — or,
  given another score's studentised differences (``check``: a family's pooled score, e.g.
  Shovel-Ready's segment score, which no small group sways), ``T_POOLED`` (5) or more ahead on
  that one: the pairs a family's guardrail looks at when a small group's noise can hide a real
  gap (``scoring.shovel_ready.guardrails.letter_flags``; docs/robustness.md).
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .pairwise import BLOCK, Progress, marginal, paired, simultaneous
from .ranking import rank

SYMBOLS = string.ascii_lowercase + string.ascii_uppercase
#: a pair sharing a letter is a "close call" when its studentised difference is at least this
T_CLOSE = 2.0
#: … or at least this on a family's pooled score (``rank_sets(check=)``)
T_POOLED = 5.0


@dataclass(frozen=True)
class RankSets:
    """Every team's rank sets and letters (positions as given); see the module doc."""

    rank_low: np.ndarray
    rank_high: np.ndarray
    rank_low_all: np.ndarray
    rank_high_all: np.ndarray
    letters: list[str]
    confidence: float
    #: (M, 2) the close calls (see the module doc) as positions ``(better, worse)``, largest ``t`` first
    close: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    #: (M,) their studentised differences ``d / se`` (≥ ``T_CLOSE``; with ``check``: its, ≥ ``T_POOLED``)
    close_t: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def top(self, k: int = 1) -> np.ndarray:
        """Positions of the teams that could be among the best ``k`` (``k = 1``: who could
        have won), at the confidence of these sets."""
        return np.flatnonzero(self.rank_low_all <= k)


def rank_sets(full, reps, *, higher_is_better: bool = True, confidence: float = 0.95, ranks=None,
              block: int = BLOCK, progress: Progress | None = None, check: np.ndarray | None = None) -> RankSets:
    """Rank sets of teams scored ``full`` (K,) with bootstrap replicates ``reps`` (B × K).

    ``ranks`` (the leaderboard's, e.g. with a tie-break) order the letters; by default the
    ranks of ``full``. ``check`` (K × K, ``check[j, k]``: ``k`` ahead of ``j`` in standard errors,
    as ``scoring.core.pairwise.Paired.t``): the close calls are the pairs sharing a letter that it puts ``T_POOLED``
    or more apart, in place of the final score's own ``T_CLOSE``.

    >>> reps = np.array([[0.90, 0.50, 0.52], [0.92, 0.53, 0.50], [0.91, 0.51, 0.49], [0.89, 0.49, 0.51]])
    >>> rs = rank_sets([0.9, 0.51, 0.5], reps, confidence=0.5)
    >>> rs.rank_low.tolist(), rs.rank_high.tolist(), rs.letters, rs.top(1).tolist()
    ([1, 2, 2], [1, 3, 3], ['a', 'b', 'b'], [0])
    >>> rs.close.tolist()  # teams 1 and 2 share a letter, 0.01 apart with a paired SE of 0.026
    []
    """
    p = paired(full, reps, higher_is_better=higher_is_better, block=block)
    k = len(p.diff)
    better, worse = marginal(p, confidence, block=block, progress=progress)
    better_all = simultaneous(p, confidence, block=block, progress=progress)
    r = rank(full, higher_is_better=higher_is_better) if ranks is None else np.asarray(ranks)
    distinct = better_all | better_all.T
    lets = letters(distinct, np.lexsort((np.arange(k), r)), limit=max_letters(k))
    # no letters shown (too many): no pair "shares a letter", so no close call to warn about
    t, t_min = (p.t, T_CLOSE) if check is None else (np.asarray(check, dtype=float), T_POOLED)
    close, close_t = (close_calls(t, ~distinct & p.testable, t_min) if lets is not None
                      else (np.zeros((0, 2), dtype=np.int64), np.zeros(0)))
    return RankSets(
        rank_low=1 + better.sum(axis=1), rank_high=k - worse.sum(axis=1),
        rank_low_all=1 + better_all.sum(axis=1), rank_high_all=k - better_all.sum(axis=0),
        letters=[""] * k if lets is None else lets, confidence=float(confidence), close=close, close_t=close_t)


def close_calls(t: np.ndarray, together: np.ndarray, t_min: float = T_CLOSE) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``together`` (sharing a letter) whose studentised difference ``t[j, k]`` (``k``
    ahead of ``j`` by ``t`` standard errors) is at least ``t_min``: ``(pairs (M, 2) as (better,
    worse), t (M,))``, largest ``t`` first.

    >>> t = np.array([[0.0, 2.5, 1.0], [-2.5, 0.0, -1.5], [-1.0, 1.5, 0.0]])
    >>> pairs, tt = close_calls(t, np.ones((3, 3), dtype=bool))
    >>> pairs.tolist(), tt.tolist()
    ([[1, 0]], [2.5])
    """
    j, k = np.nonzero(together & np.isfinite(t) & (t >= t_min))
    tt = t[j, k]
    order = np.argsort(-tt, kind="stable")
    return np.stack([k[order], j[order]], axis=1).astype(np.int64).reshape(-1, 2), tt[order].astype(float)


def max_letters(k: int) -> int:
    """The most letters a display of ``k`` teams may use (52, or 3 per team; and 52 for any one
    team): beyond it the ``letters`` are left empty and the rank sets are the answer.

    >>> max_letters(10), max_letters(200)
    (52, 600)
    """
    return max(len(SYMBOLS), 3 * k)


def _symbol(n: int) -> str:
    """The ``n``-th letter: a … z, A … Z, then a2 … Z2, a3 …"""
    base = SYMBOLS[n % len(SYMBOLS)]
    return base if n < len(SYMBOLS) else f"{base}{n // len(SYMBOLS) + 1}"


def letters(distinct: np.ndarray, order: Sequence[int] | None = None, *, limit: int | None = None) -> list[str] | None:
    """A compact letter display: teams ``i`` and ``j`` share a letter exactly when
    ``distinct[i, j]`` is False (symmetric, False on the diagonal). Letters are given in the
    order of their best team (``order``: positions, best first; default as given); teams with
    the same row of ``distinct`` get the same letters. Beyond 52 letters they read ``a2``, …,
    and a team's letters are then separated by spaces.

    Piepho's insert-and-absorb: start from one letter for everyone; for every distinct pair
    split each letter holding both into one without each; drop a letter whose teams another
    letter holds. ``None`` when more than ``limit`` letters would be needed, or a team
    would need more than 52 (with hundreds of close teams the letters multiply past any use;
    see docs/robustness.md).

    >>> d = np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]], dtype=bool)
    >>> letters(d)
    ['a', 'b', 'b']
    >>> d = np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=bool)
    >>> letters(d)
    ['a', 'ab', 'b']
    """
    d = np.asarray(distinct, dtype=bool)
    k = len(d)
    if k == 0:
        return []
    order = np.arange(k) if order is None else np.asarray(order, dtype=np.int64)
    # twins (the same row) always get the same letters: work on one of each
    first: dict[bytes, int] = {}
    rep = np.empty(k, dtype=np.int64)
    for i in order:
        rep[i] = first.setdefault(np.packbits(d[i]).tobytes(), len(first))
    heads = np.empty(len(first), dtype=np.int64)
    for i in order[::-1]:
        heads[rep[i]] = i  # the best team of each group of twins
    dd = d[np.ix_(heads, heads)]
    n = len(heads)
    cols: dict[int, np.ndarray] = {0: np.ones(n, dtype=bool)}  # letter id -> its teams
    holding: list[set[int]] = [{0} for _ in range(n)]  # team -> the letters holding it
    fresh = 1
    for i in range(n):
        sig = dd[i]
        hit = [c for c in sorted(holding[i]) if (cols[c] & sig).any()] if sig.any() else []
        if not hit:
            continue
        new = []
        for c in hit:
            col = cols.pop(c)
            for t in np.flatnonzero(col):
                holding[t].discard(c)
            a, b = col.copy(), col.copy()
            a[i] = False
            b[sig] = False
            new += [a, b]
        crowded = 0
        for col in _absorb(cols, holding, new):
            cols[fresh] = col
            for t in np.flatnonzero(col):
                holding[t].add(fresh)
                crowded = max(crowded, len(holding[t]))
            fresh += 1
        if limit is not None and (len(cols) > limit or crowded > len(SYMBOLS)):
            return None
    kept = list(cols.values())
    start = np.array([int(np.argmax(c)) for c in kept])  # best member (heads are in order)
    ranked = [kept[j] for j in np.lexsort((np.arange(len(kept)), start))]
    many = len(ranked) > len(SYMBOLS)
    names = [_symbol(j) for j in range(len(ranked))]
    table = np.array(ranked)
    per_head = [(" " if many else "").join(names[j] for j in np.flatnonzero(table[:, h])) for h in range(n)]
    return [per_head[rep[i]] for i in range(k)]


def _absorb(cols: dict[int, np.ndarray], holding: list[set[int]], new: list[np.ndarray]) -> list[np.ndarray]:
    """The ``new`` letters that no other letter holds (none empty, no duplicates). A letter can
    only lie inside one that holds its first team: only those are compared."""
    fresh = np.array(new)
    fresh = fresh[fresh.any(axis=1)]
    if not len(fresh):
        return []
    _, first_copy = np.unique(np.packbits(fresh, axis=1), axis=0, return_index=True)
    fresh = fresh[np.sort(first_copy)]
    size = fresh.sum(axis=1)
    f = fresh.astype(np.float32)
    inside_new = ((f @ f.T) == size[:, None]) & (size[None, :] > size[:, None])  # i strictly inside j
    keep: list[np.ndarray] = []
    for i, m in enumerate(fresh):
        if inside_new[i].any():
            continue
        around = [cols[c] for c in holding[int(np.argmax(m))]]
        if around and not (m[None] & ~np.array(around)).any(axis=1).all():
            continue  # inside an existing letter
        keep.append(m)
    return keep

"""One-to-one matching of predictions and objects, frame by frame (spec §2).

The rule: the assignment that first maximises the number of pairs with ``d ≤ τ``, then
minimises the sum of those pairs' distances. :func:`match_frame` is the plain solver: one
``scipy.optimize.linear_sum_assignment`` on the frame's distance matrix with every entry
beyond τ replaced by a constant (:func:`~.rules.cost_constant`).

:func:`match_submission` gives the same matching for a whole submission without a Python
loop over frames. The pairs within τ form a bipartite graph whose connected components can
be matched independently (the objective is a sum over components):

* a pair whose prediction and object have no other partner within τ (an *isolated* pair —
  every pair of a conflict-free frame is one) is always matched;
* a *star* — one point whose partners within τ have no other partner — can hold one pair
  only, so the shortest one is matched;

both found for every τ at once: :func:`settling` gives each pair, once per submission, the
number of pairs within τ from which it needs a choice, so a τ settles them with one
comparison (no degree counts per τ). The pairs left form
components with a real choice (found with one ``connected_components`` call). The components
are grouped — small ones by shape (rows × cols), larger ones by size class — and each group
is scattered into one dense (components, rows, cols) block of costs (a component spans one
frame, so at most 30 points a side): a small component — at most :data:`MAX_ENUMERATED`
full assignments of its smaller side — is solved by trying every one of those assignments, a whole shape at
once (the same search the solver does; the sums shared by assignments with the same first
rows); a larger one by ``linear_sum_assignment``
on its slice of the block. Under the starter kit's fixed constant 1000 the same holds, and
the answer can only differ where ``min(rows, cols)·τ ≥ 1000``; those components are solved a
second time with 1000. ``tests/spotgeo/test_matching.py``, ``test_matching_crowded.py`` and
``test_matching_groups.py`` check the whole against the plain per-frame solver and the slow
reference on thousands of random frames.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import TYPE_CHECKING

import numpy as np

from .rules import KIT_CONSTANT, SEED, RuleSet, cost_constant

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix


def linear_sum_assignment(cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``scipy.optimize.linear_sum_assignment``, imported on first use: importing
    ``scipy.optimize`` takes about a second, and every command of every family would pay it
    (the registry imports this family) although only a spotGEO matching needs it."""
    from scipy.optimize import linear_sum_assignment as solve

    return solve(cost)

#: components with at most this many full assignments (6 × 6, 5 × 6, 4 × 6, 3 × 8 …) are
#: solved by trying them all at once
MAX_ENUMERATED = 720


def distances(pred_xy, gt_xy) -> np.ndarray:
    """Euclidean distances (M × N) between predictions and objects."""
    p = np.asarray(pred_xy, dtype=float).reshape(-1, 2)
    g = np.asarray(gt_xy, dtype=float).reshape(-1, 2)
    return np.hypot(p[:, None, 0] - g[None, :, 0], p[:, None, 1] - g[None, :, 1])


def match_frame(pred_xy, gt_xy, *, tau: float, rules: RuleSet = SEED) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The true-positive pairs of one frame with the plain solver: ``(pred, obj, d)``.

    >>> p, g, d = match_frame([[101, 100], [205, 200], [300, 300], [400, 50]],
    ...                       [[100, 100], [200, 200], [213, 200]], tau=10.0)
    >>> p.tolist(), g.tolist(), d.tolist()
    ([0, 1], [0, 1], [1.0, 5.0])
    """
    D = distances(pred_xy, gt_xy)
    if D.size == 0:
        e = np.zeros(0, dtype=np.int64)
        return e, e, np.zeros(0)
    within = D <= tau
    C = np.where(within, D, cost_constant(tau, min(D.shape), rules))
    r, c = linear_sum_assignment(C)
    keep = within[r, c]
    return r[keep], c[keep], D[r[keep], c[keep]]


@dataclass
class SolverStats:
    """How a submission's matching was settled: pairs within τ; pairs settled without a
    choice (isolated pairs and stars); frames and pairs left with a real choice; components of
    those solved by enumeration; ``linear_sum_assignment`` calls; seconds spent on the choices."""

    pairs: int = 0
    settled: int = 0
    solver_frames: int = 0
    solver_pairs: int = 0
    enumerated: int = 0
    solver_calls: int = 0
    seconds: float = 0.0

    def add(self, other: SolverStats) -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))


@dataclass(frozen=True)
class Settling:
    """What decides, at every τ at once, which candidate pairs (sorted by ``d``) need no
    solver. A τ keeps the first ``n`` pairs; then pair ``x < n`` goes to the solver when
    ``solver_from[x] < n``, and otherwise is matched when ``lone[x]`` (:func:`settling`)."""

    solver_from: np.ndarray
    lone: np.ndarray


def settling(p, g, n_pred: int, n_gt: int) -> Settling:
    """The :class:`Settling` of candidate pairs ``(p, g)`` sorted by distance.

    Within τ (the first ``n`` pairs), a pair needs a choice only when its prediction has a
    partner that has another partner, and so does its object; else it is an isolated pair
    or in a star, and its star's shortest pair is matched. Each of these facts holds from
    some ``n`` on, the same for every τ: a point's second pair is within τ when its position
    is below ``n``; a prediction has a partner with another partner when ``min`` over its
    pairs of ``max(pair, the object's second pair)`` is; hence ``solver_from``. A star's
    shortest pair is the first pair of both its ends (``lone``); no other pair is the first
    of both and outside the solver.

    >>> s = settling(np.array([0, 0, 1]), np.array([0, 1, 1]), 2, 2)  # a chain p0-g0, p0-g1, p1-g1
    >>> s.solver_from.tolist(), s.lone.tolist()
    ([2, 2, 2], [True, False, False])
    """
    m = len(p)
    dtype = np.int32 if m < 2**31 - 1 else np.int64  # (small arrays gather faster)
    k = compiled() if n_pred >= COMPILED_MIN_POINTS and m < 2**31 - 1 else None
    if k is not None:
        solver_from, lone = np.empty(m, dtype=dtype), np.empty(m, dtype=bool)
        k.settle(p, g, n_pred, n_gt, solver_from, lone)
        return Settling(solver_from, lone)
    pos = np.arange(m, dtype=dtype)
    first_p, second_p = _first_two(p, n_pred, pos)
    first_g, second_g = _first_two(g, n_gt, pos)
    crowd_p = np.full(n_pred, m, dtype=pos.dtype)  # from which n a partner has another partner
    np.minimum.at(crowd_p, p, np.maximum(pos, second_g[g]))
    crowd_g = np.full(n_gt, m, dtype=pos.dtype)
    np.minimum.at(crowd_g, g, np.maximum(pos, second_p[p]))
    return Settling(np.maximum(crowd_p[p], crowd_g[g]), (first_p[p] == pos) & (first_g[g] == pos))


def _first_two(v: np.ndarray, size: int, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each value's first and second position in ``v`` (``len(v)`` where there is none)."""
    first = np.full(size, len(v), dtype=pos.dtype)
    np.minimum.at(first, v, pos)
    later = first[v] != pos
    second = np.full(size, len(v), dtype=pos.dtype)
    np.minimum.at(second, v[later], pos[later])
    return first, second


def match_submission(p, g, d, pred_frame, n_pred: int, n_gt: int, tau: float, settled: Settling | None = None
                     ) -> tuple[np.ndarray, np.ndarray, SolverStats]:
    """The matched pairs of a whole submission under both constants, as positions into the
    candidate pairs ``(p, g, d)`` (sorted by ``d``), ascending — so their distances are
    ascending too: ``(seed, starter_kit, stats)``. ``pred_frame`` is each prediction's frame
    (predictions numbered frame by frame, as a submission holds them); ``settled`` the pairs'
    :func:`settling`, when already computed (it holds for every τ).
    """
    if settled is None:
        settled = settling(p, g, n_pred, n_gt)
    n = int(np.searchsorted(d, tau, side="right"))
    p, g, d = p[:n], g[:n], d[:n]
    to_solver = settled.solver_from[:n] < n
    rest = np.flatnonzero(to_solver)
    base = ~to_solver
    base &= settled.lone[:n]  # the pairs matched without a choice, as a mask
    stats = SolverStats(pairs=n, settled=n - len(rest))
    seed_extra, kit_extra = _solve(rest, p, g, d, pred_frame, tau, stats)
    seed = _union(base, seed_extra)
    kit = seed if kit_extra is None else _union(base, kit_extra)
    return seed, kit, stats


def _union(mask: np.ndarray, extra: np.ndarray) -> np.ndarray:
    """The positions set in ``mask`` or listed in ``extra``, ascending (no sort)."""
    m = mask.copy()
    m[extra] = True
    return np.flatnonzero(m)


def _argsort_small(x: np.ndarray, n_values: int) -> np.ndarray:
    """A stable argsort of integers in ``[0, n_values)``: numpy's radix sort on 16-bit keys
    (linear), in two passes (low then high 16 bits) when the values need up to 32 bits."""
    if n_values <= 1 << 16:
        return np.argsort(x.astype(np.uint16), kind="stable")
    if n_values <= 1 << 32:
        low = np.argsort((x & 0xFFFF).astype(np.uint16), kind="stable")
        return low[np.argsort((x[low] >> 16).astype(np.uint16), kind="stable")]
    return np.argsort(x, kind="stable")


def _local_index(lab: np.ndarray, n_comp: int) -> tuple[np.ndarray, np.ndarray]:
    """Each node's position among the nodes of its component (in no particular order), and
    each component's size."""
    order = _argsort_small(lab, n_comp)
    size = np.bincount(lab, minlength=n_comp)
    start = np.concatenate(([0], np.cumsum(size)[:-1]))
    local = np.empty(len(lab), dtype=np.int64)
    local[order] = np.arange(len(lab)) - start[lab[order]]
    return local, size


def _compact(ids: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ids (ascending) and each id's position among them, without sorting."""
    seen = np.zeros(n, dtype=bool)
    seen[ids] = True
    distinct = np.flatnonzero(seen)
    pos = np.empty(n, dtype=np.int32 if n < 2**31 else np.int64)  # (a smaller array to fill and read)
    pos[distinct] = np.arange(len(distinct))
    return distinct, pos[ids]


def _compact_sorted(ids: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_compact` from a stable sort ``order`` of ``ids``, and where each distinct id's
    run starts in that order."""
    s = ids[order]
    new = np.empty(len(s), dtype=bool)
    new[:1] = True
    np.not_equal(s[1:], s[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    pos = np.empty(len(s), dtype=np.int64)
    pos[order] = np.cumsum(new) - 1
    return s[starts], pos, starts


@lru_cache(maxsize=64)
def _assignments(rows: int, cols: int) -> np.ndarray:
    """Every assignment of ``rows`` rows to distinct columns of ``cols`` (rows ≤ cols)."""
    return np.array(list(permutations(range(cols), rows)), dtype=np.int64).reshape(-1, rows)


def _enumerate(cost: np.ndarray, pid: np.ndarray, tau: float) -> np.ndarray:
    """Solve many r × c components at once by trying every full assignment of the smaller
    side (what the solver searches): ``cost`` (n, r, c) distances, the cost constant off the
    pairs, ``pid`` (n, r, c) the pairs' positions (−1 off them). Positions of the matched
    pairs.

    The assignments are those of :func:`_assignments`, in its (lexicographic) order; their
    sums are built row by row over the distinct first rows' choices (each shared by all the
    assignments that begin with it: 1,956 sums for 6 × 6 instead of 6 · 720 terms), adding
    in the same order as a plain row-by-row sum, so the same totals to the last bit."""
    n, r, c = cost.shape
    if r > c:  # the smaller side as rows
        cost, pid, r, c = cost.transpose(0, 2, 1), pid.transpose(0, 2, 1), c, r
    perm = _assignments(r, c)  # (m, r)
    flat = (np.arange(r)[None, :] * c + perm)  # positions in a flattened r × c block
    cf = cost.reshape(n, r * c)
    total = cf[:, _assignments(1, c)[:, 0]]  # (n, c): the first row's choices
    for j in range(1, r):  # each choice of the rows before j, extended by row j's c − j free columns
        cells = _assignments(j + 1, c)[:, j] + j * c
        total = (total[:, :, None] + cf[:, cells].reshape(n, -1, c - j)).reshape(n, -1)
    best = flat[np.argmin(total, axis=1)]  # (n, r)
    got = np.take_along_axis(pid.reshape(n, r * c), best, axis=1).ravel()
    return got[got >= 0]


def _graph(order: np.ndarray, starts: np.ndarray, gi: np.ndarray, n_g: int) -> csr_matrix:
    """The pairs as the edges of a graph on the predictions and then ``n_g`` objects, in the
    compressed rows ``connected_components`` reads: ``order`` sorts the pairs by prediction,
    ``starts`` (one per prediction) is where each prediction's pairs start in it (built here:
    a COO matrix would also be sorted and checked for duplicates, which distinct pairs do not
    need)."""
    n_p = len(starts)
    n = n_p + n_g
    indptr = np.full(n + 1, len(order), dtype=np.int32 if len(order) < 2**31 and n < 2**31 else np.int64)
    indptr[:n_p] = starts
    cols = (gi[order] + n_p).astype(indptr.dtype)
    from scipy.sparse import csr_matrix  # on first use (see linear_sum_assignment)

    return csr_matrix((np.ones(len(order)), cols, indptr), shape=(n, n))


def _groups(key: np.ndarray, n_values: int) -> tuple[np.ndarray, np.ndarray]:
    """``order`` (a stable sort of ``key``) and the group boundaries in it, ``[0, …, len]``."""
    order = _argsort_small(key, n_values)
    k = key[order]
    return order, np.r_[0, np.flatnonzero(k[1:] != k[:-1]) + 1, len(k)]


def _components_numpy(q, gq, pred_frame, n_pred: int, n_gt: int):
    """:func:`.kernels.components` with numpy and SciPy (where numba is missing, and as its
    reference in the tests): the same components, numbered the same, and the same positions."""
    by_pred = _argsort_small(q, n_pred)
    up, pi, starts = _compact_sorted(q, by_pred)
    _, gi = _compact(gq, n_gt)
    n_p, n_g = len(up), int(gi.max()) + 1
    from scipy.sparse.csgraph import connected_components  # on first use (see linear_sum_assignment)

    n_comp, lab = connected_components(_graph(by_pred, starts, gi, n_g), directed=False)
    local_p, rn = _local_index(lab[:n_p], n_comp)
    local_g, cn = _local_index(lab[n_p:], n_comp)
    frames = pred_frame[up]  # ascending, as the predictions are
    n_frames = 1 + int(np.count_nonzero(frames[1:] != frames[:-1]))
    return n_comp, lab[:n_p][pi], local_p[pi], local_g[gi], rn, cn, n_frames


_compiled: list = []  # [the kernels module, or None where numba is missing], found on first use

#: pairs with a real choice (one submission at one τ) from which the compiled kernel finds
#: the components. Loading the kernels costs about half a second once per process (numba's
#: import and the cached machine code); this one then saves about 80 ns a pair (2.3× faster
#: than the numpy route: 28 against 66 ms for 450,000 pairs at τ = 50 in crowded frames), so
#: a sparse competition, whose few choices numpy settles in milliseconds, never loads them
COMPILED_MIN_PAIRS = 50_000

#: predictions in a submission from which its candidate pairs are measured and settled by
#: the compiled kernels at load (crowded spotGEO submissions hold 280,000–590,000; sparse
#: ones about 70,000, which numpy does in tens of milliseconds)
COMPILED_MIN_POINTS = 150_000


def loaded():
    """:mod:`.kernels` when this process has imported it already (numba's memory is then taken
    whatever is read next), else None; never imports it."""
    return _compiled[0] if _compiled else None


def compiled():
    """:mod:`.kernels` (numba), imported on first use; None where numba is missing."""
    if not _compiled:
        try:
            from . import kernels
        except ImportError:  # pragma: no cover - numba missing: the numpy route
            kernels = None
        _compiled.append(kernels)
    return _compiled[0]


def _components(q, gq, pred_frame, n_pred: int, n_gt: int):
    """The components of the pairs ``(q, gq)`` with a real choice: ``(n_comp, comp, row, col,
    rn, cn, n_frames)`` (see :func:`.kernels.components`), compiled where numba is installed
    and there are :data:`COMPILED_MIN_PAIRS` pairs."""
    k = compiled() if len(q) >= COMPILED_MIN_PAIRS and n_pred + n_gt < 2**31 - 1 else None  # (int32 ids)
    if k is None:
        return _components_numpy(q, gq, pred_frame, n_pred, n_gt)
    return k.components(q, gq, n_pred, n_gt, pred_frame)


def _solve(rest, p, g, d, pred_frame, tau, stats: SolverStats):
    """Solve the remaining pairs component by component; positions of the matched pairs
    (seed, and kit or None when the kit's answer cannot differ).

    Components are grouped — small ones by shape (rows, cols), large ones by size (the larger
    side rounded up to a power of two) — and each group's components are scattered into one
    dense (components, rows, cols) block of costs — the blocks side by side in one array, every
    pair placed in its cell in one scatter: no per-component Python work except one
    ``linear_sum_assignment`` call for each large component. Frames hold at most 30 points a
    side (spec §1), so a block holds at most 32 × 32 cells per component."""
    empty = np.zeros(0, dtype=np.int64)
    if len(rest) == 0:
        return empty, None
    t0 = time.perf_counter()
    n_comp, comp, row_k, col_k, rn, cn, n_frames = _components(p[rest], g[rest], pred_frame, int(p.max()) + 1,
                                                               int(g.max()) + 1)
    stats.solver_frames += n_frames
    stats.solver_pairs += len(rest)
    lo, hi = np.minimum(rn, cn), np.maximum(rn, cn)
    n_assign = np.ones(n_comp)
    for j in range(min(int(lo.max()), 7)):  # hi · (hi − 1) ⋯ (hi − lo + 1), or a part > 7! > 720 of it
        n_assign *= np.where(j < lo, hi - j, 1)
    # small components (≤ 720 assignments, so ≤ 6 points on the smaller side: 6·50 < 1000)
    # cannot differ under the kit's constant; a star (1 × k) never reaches here, so small
    # ones have at most 27 points on the larger side and rows·64 + cols < 4096 is a key
    small = n_assign <= MAX_ENUMERATED
    size_class = np.ceil(np.log2(np.maximum(hi, 2))).astype(np.int64)
    key = np.where(small, rn * 64 + cn, 4096 + size_class)
    comp_order, comp_bounds = _groups(key, 4096 + 64)
    first, count = comp_bounds[:-1], np.diff(comp_bounds)
    group = np.repeat(np.arange(len(count)), count)  # each component's group, in comp_order
    R = np.maximum.reduceat(rn[comp_order], first)  # each group's block: (count, R, C)
    C = np.maximum.reduceat(cn[comp_order], first)
    lo_max = np.maximum.reduceat(lo[comp_order], first)
    size = count * R * C
    off = np.concatenate(([0], np.cumsum(size)))  # the groups' blocks side by side in one array
    # each component's first cell: its group's block, then its place in the group
    base = np.empty(n_comp, dtype=np.int64)
    base[comp_order] = off[group] + (np.arange(n_comp) - first[group]) * (R * C)[group]
    width = np.empty(n_comp, dtype=np.int64)
    width[comp_order] = C[group]
    cell = base[comp] + row_k * width[comp] + col_k  # each pair's cell in its block
    cost = np.repeat([cost_constant(tau, m) for m in lo_max.tolist()], size)
    pid = np.full(int(off[-1]), -1, dtype=np.int64)
    cost[cell] = d[rest]
    pid[cell] = rest
    stats.enumerated += int(small.sum())
    seed_parts, kit_parts, kit_differs = [], [], False
    for o0, o1, c0, c1, n_k, r_k, c_k in zip(off[:-1].tolist(), off[1:].tolist(), first.tolist(),
                                             comp_bounds[1:].tolist(), count.tolist(), R.tolist(), C.tolist(),
                                             strict=True):
        block_cost, block_pid = cost[o0:o1].reshape(n_k, r_k, c_k), pid[o0:o1].reshape(n_k, r_k, c_k)
        if key[comp_order[c0]] < 4096:  # small components: every assignment tried
            got = _enumerate(block_cost, block_pid, tau)
            seed_parts.append(got)
            kit_parts.append(got)
            continue
        members = comp_order[c0:c1]
        for j, (r, c, m) in enumerate(zip(rn[members].tolist(), cn[members].tolist(), lo[members].tolist(), strict=True)):
            block, ids_k = block_cost[j, :r, :c], block_pid[j, :r, :c]
            rr, cc = linear_sum_assignment(block)
            got = ids_k[rr, cc]
            seed_parts.append(got[got >= 0])
            stats.solver_calls += 1
            if m * tau >= KIT_CONSTANT:  # the kit's 1000 may choose otherwise
                rr, cc = linear_sum_assignment(np.where(ids_k >= 0, block, KIT_CONSTANT))
                got = ids_k[rr, cc]
                stats.solver_calls += 1
                kit_differs = True
            kit_parts.append(got[got >= 0])
    seed = np.concatenate(seed_parts) if seed_parts else empty
    kit = np.concatenate(kit_parts) if kit_differs else None
    stats.seconds += time.perf_counter() - t0
    return seed, kit

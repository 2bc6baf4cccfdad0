"""Selection by the public board — the winner's curse of a shake-up.

Teams pick their final submissions by their public scores. With ``N`` submissions, a team keeps
the ``keep`` best on the public board (Kaggle lets a team keep two); its private result is the
best private score among those kept. The **overstatement** is the chosen public score minus that
private score, turned so that a positive number means the public board looked better than the
private one (for a lower-is-better score, private minus public). The more submissions a team
chooses from, the more the best public one is the luckiest, and the more it overstates.

Team membership is a mapping submission → team: from a separator in the names (``alice_v3`` →
``alice`` with ``_``) or from a CSV with the columns ``submission,team``. Without one, every
submission is its own team: only ``N = 1`` can be measured, and the overstatement of the
public *leader* (chosen among teams) is what remains of the curse.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..claims import shakeup as claims
from .errors import InputError
from .shakeup import Shakeup
from .tables import first_duplicate, first_empty, read_table, require_columns, row_of

#: said wherever membership is unknown
ONE_PER_TEAM = claims.ONE_PER_TEAM


def teams_by_separator(names: Sequence[str], separator: str) -> list[str]:
    """Each submission's team: its name up to the first ``separator`` (the whole name when
    there is none).

    >>> teams_by_separator(["alice_v1", "alice_v2", "bob", "carol_x_1"], "_")
    ['alice', 'alice', 'bob', 'carol']
    """
    if not separator:
        raise InputError("--team-separator", None, "expected a non-empty separator, e.g. '_'")
    return [str(n).split(separator, 1)[0] or str(n) for n in names]


def read_teams(src, names: Sequence[str], name: str = "teams.csv") -> list[str]:
    """Each submission's team from a CSV ``submission,team`` (one row per submission, every
    submission of the competition listed; names and teams non-empty)."""
    df = read_table(src, name)
    require_columns(df, ["submission", "team"], name)
    first_empty(df, "submission", name)
    first_empty(df, "team", name)
    first_duplicate(df, "submission", name, "submission")
    known = {str(n) for n in names}
    for i, s in enumerate(df["submission"].tolist()):
        if s not in known:
            raise InputError(name, row_of(df, i), f"submission {s!r} is not in the competition", column="submission",
                             value=s)
    mapping = dict(zip(df["submission"].tolist(), df["team"].tolist(), strict=True))
    missing = [str(n) for n in names if str(n) not in mapping]
    if missing:
        raise InputError(name, None, f"no team for {len(missing)} submission(s), e.g. {missing[0]!r}: list every "
                         "submission")
    return [mapping[str(n)] for n in names]


def _oriented(sh: Shakeup) -> tuple[np.ndarray, np.ndarray]:
    s = 1.0 if sh.higher_is_better else -1.0
    return s * sh.public_score, s * sh.private_score


#: each team's choices are enumerated (every subset of ``N`` of its submissions, and every joint
#: holding of one choice per team for the public leader) while the arrays stay below this many numbers;
#: beyond it they are drawn at random (seeded) and the rows say ``exact = False``
ENUMERATE_CELLS = 4_000_000


def _choices(n_members: int, n: int, splits: int, order: np.ndarray) -> tuple[np.ndarray, bool]:
    """A team's choices among ``n`` of its ``n_members`` submissions: ``(splits' × k × n)``
    positions (each subset in submission order, so a public tie goes to the earlier-listed
    submission) and whether they are every subset (``k = C(n_members, n)``, the same in every
    split) or one drawn per split (``order``: the team's seeded random order in each split)."""
    if n == n_members or n == 1 or math.comb(n_members, n) * n * splits <= ENUMERATE_CELLS:
        subsets = np.array(list(itertools.combinations(range(n_members), n)), dtype=np.int64)
        return subsets[None, :, :], True
    return np.sort(order[:, :n], axis=1)[:, None, :], False


def _leader(pub: list[np.ndarray], gap: list[np.ndarray], rng: np.random.Generator) -> tuple[float, bool]:
    """The mean overstatement of the public leader among the teams, each team holding one of its
    choices (``pub[t]``, ``gap[t]``: splits × choices) with equal chance: every joint holding
    enumerated when small enough (exact), else one drawn per team and split. Teams tied on the
    public board share the lead (their mean)."""
    splits = pub[0].shape[0]
    sizes = [p.shape[1] for p in pub]
    joint = math.prod(sizes)
    exact = joint * splits * len(pub) <= ENUMERATE_CELLS
    if exact:
        idx = np.array(list(itertools.product(*[range(k) for k in sizes])), dtype=np.int64).reshape(joint, len(pub))
        p = np.stack([pub[t][:, idx[:, t]] for t in range(len(pub))], axis=2)  # splits × joint × teams
        g = np.stack([gap[t][:, idx[:, t]] for t in range(len(pub))], axis=2)
    else:
        pick = [rng.integers(0, k, size=splits) for k in sizes]
        r = np.arange(splits)
        p = np.stack([pub[t][r, pick[t]] for t in range(len(pub))], axis=1)[:, None, :]
        g = np.stack([gap[t][r, pick[t]] for t in range(len(pub))], axis=1)[:, None, :]
    top = p == p.max(axis=2, keepdims=True)
    lead = (g * top).sum(axis=2) / top.sum(axis=2)
    return float(lead.mean()), exact


def selection(sh: Shakeup, teams: Sequence[str] | None = None, *, keep: int = 1, seed: int = 0,
              ns: Sequence[int] | None = None) -> pd.DataFrame:
    """How much the public board overstates the private score of each team's chosen
    submission, as a function of ``N`` submissions per team (module doc).

    For each ``N`` (every ``N`` up to the largest team's count, or ``ns``), each team with at
    least ``N`` submissions chooses among ``N`` of them: each of its submissions alone for
    ``N = 1``, all of them together at its whole count, otherwise every subset of ``N`` of them
    with equal chance — enumerated while small enough (``ENUMERATE_CELLS``), else one subset
    drawn at random (seeded) in each split. Within a subset the team keeps its ``keep`` best
    public scores (a tie: the earlier-listed submission). Columns: ``n_submissions``, ``teams``
    (counted), ``overstatement`` (the mean over teams and splits of a team's expected
    overstatement), ``q05``, ``q95`` (of a team's overstatement in a split, each team and split
    weighing the same), ``leader_overstatement`` (the team first on the public board among them,
    each team holding each of its choices with equal chance; tied leaders share) and ``exact``:
    True when nothing random remains — every split and every choice enumerated.
    """
    if not isinstance(keep, (int, np.integer)) or keep < 1:
        raise InputError("--keep", None, f"expected a whole number >= 1, got {keep!r}")
    pub, priv = _oriented(sh)
    names = list(teams) if teams is not None else list(sh.names)
    if len(names) != sh.n_teams:
        raise ValueError(f"expected one team per submission ({sh.n_teams}), got {len(names)}")
    codes, labels = pd.factorize(pd.Index(names, dtype=object))
    members = [np.flatnonzero(codes == t) for t in range(len(labels))]
    top = max(len(m) for m in members)
    wanted = sorted({int(n) for n in ns if 1 <= int(n) <= top}) if ns is not None else list(range(1, top + 1))
    rng = np.random.default_rng(seed)
    orders = {t: np.argsort(rng.random((sh.splits, len(m))), axis=1) for t, m in enumerate(members)}
    rows = []
    for n in wanted:
        gaps, weights, chosen_pub, chosen_gap, enumerated = [], [], [], [], True
        for t, m in enumerate(members):
            if len(m) < n:
                continue
            subsets, every = _choices(len(m), n, sh.splits, orders[t])
            enumerated &= every
            p, q = pub[:, m], priv[:, m]
            subsets = np.broadcast_to(subsets, (sh.splits, *subsets.shape[1:]))
            ps = np.take_along_axis(p[:, None, :], subsets, axis=2)
            qs = np.take_along_axis(q[:, None, :], subsets, axis=2)
            o = np.argsort(-ps, axis=2, kind="stable")[..., :min(keep, n)]
            best_pub = np.take_along_axis(ps, o[..., :1], axis=2)[..., 0]
            best_priv = np.take_along_axis(qs, o, axis=2).max(axis=2)
            g = best_pub - best_priv  # (splits × choices)
            gaps.append(g)
            weights.append(np.full(g.shape, 1.0 / g.shape[1]))
            chosen_pub.append(best_pub)
            chosen_gap.append(g)
        if not gaps:
            continue
        flat = np.concatenate([g.ravel() for g in gaps])
        w = np.concatenate([x.ravel() for x in weights])
        per_team = np.concatenate([g.mean(axis=1) for g in gaps])  # a team's expected overstatement, per split
        lead, lead_exact = _leader(chosen_pub, chosen_gap, rng) if len(gaps) > 1 else (math.nan, True)
        q05, q95 = np.quantile(flat, [0.05, 0.95], weights=w, method="inverted_cdf")
        rows.append({"n_submissions": n, "teams": len(gaps), "overstatement": float(per_team.mean()),
                     "q05": float(q05), "q95": float(q95), "leader_overstatement": lead,
                     "exact": bool(sh.exact and enumerated and lead_exact)})
    return pd.DataFrame(rows, columns=["n_submissions", "teams", "overstatement", "q05", "q95",
                                       "leader_overstatement", "exact"])


def selection_sentence(table: pd.DataFrame, *, known: bool, score: str = "score", splits_exact: bool = False,
                       seed: int = 0) -> str:
    """One plain sentence on the table of :func:`selection` (``scoring.claims.shakeup.selection``)."""
    return claims.selection(table, known=known, score=score, splits_exact=splits_exact, seed=seed)

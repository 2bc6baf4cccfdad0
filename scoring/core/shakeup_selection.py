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

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .errors import InputError
from .shakeup import Shakeup
from .tables import first_duplicate, first_empty, read_table, require_columns, row_of

#: said wherever membership is unknown
ONE_PER_TEAM = "team membership unknown: one submission per team (every submission is its own team)"


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


def selection(sh: Shakeup, teams: Sequence[str] | None = None, *, keep: int = 1, seed: int = 0,
              ns: Sequence[int] | None = None) -> pd.DataFrame:
    """How much the public board overstates the private score of each team's chosen
    submission, as a function of ``N`` submissions per team (module doc).

    For each ``N`` (every ``N`` up to the largest team's count, or ``ns``), each team with at
    least ``N`` submissions chooses among ``N`` of them — all of its submissions taken one at a
    time for ``N = 1``, all of them together for its whole count, else ``N`` drawn at random
    (seeded) in each split. Columns: ``n_submissions``, ``teams`` (counted), ``overstatement``
    (mean over teams and splits), ``q05``, ``q95``, ``leader_overstatement`` (the team first on
    the public board among them).
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
        gaps, chosen_pub = [], []
        for t, m in enumerate(members):
            if len(m) < n:
                continue
            if n == 1:  # every submission alone: (splits × |m|) choices of one
                subsets = np.broadcast_to(np.arange(len(m))[None, :, None], (sh.splits, len(m), 1))
            else:
                subsets = orders[t][:, None, :n]  # (splits × 1 × n): the first n of a random order
            p, q = pub[:, m], priv[:, m]
            ps = np.take_along_axis(p[:, None, :], subsets, axis=2)
            qs = np.take_along_axis(q[:, None, :], subsets, axis=2)
            o = np.argsort(-ps, axis=2, kind="stable")[..., :min(keep, n)]
            best_pub = np.take_along_axis(ps, o[..., :1], axis=2)[..., 0]
            best_priv = np.take_along_axis(qs, o, axis=2).max(axis=2)
            gaps.append(best_pub - best_priv)  # (splits × choices)
            col = orders[t][:, 0] if n == 1 else np.zeros(sh.splits, dtype=np.int64)  # the team's one choice
            r = np.arange(sh.splits)
            chosen_pub.append((best_pub[r, col], (best_pub - best_priv)[r, col]))
        if not gaps:
            continue
        flat = np.concatenate([g.ravel() for g in gaps])
        # the public leader among the teams counted (for N = 1 a team holds one submission at
        # random, the first of its random order)
        lead_pub = np.stack([c[0] for c in chosen_pub], axis=1)
        lead_gap = np.stack([c[1] for c in chosen_pub], axis=1)
        leader = lead_gap[np.arange(sh.splits), lead_pub.argmax(axis=1)]
        rows.append({"n_submissions": n, "teams": len(gaps), "overstatement": float(flat.mean()),
                     "q05": float(np.quantile(flat, 0.05)), "q95": float(np.quantile(flat, 0.95)),
                     "leader_overstatement": float(leader.mean()) if len(gaps) > 1 else math.nan})
    return pd.DataFrame(rows, columns=["n_submissions", "teams", "overstatement", "q05", "q95",
                                       "leader_overstatement"])


def selection_sentence(table: pd.DataFrame, *, known: bool, score: str = "score") -> str:
    """One plain sentence on the table of :func:`selection`: positive overstatement is the
    public board showing the chosen submission better than the private board does."""
    if table.empty:
        return "No team has a submission to choose from."

    def gap(x: float) -> str:
        return f"{abs(x):.4f} {'better' if x >= 0 else 'worse'} than the private board does"

    first = table.iloc[0]
    if not known or len(table) == 1:
        lead = first["leader_overstatement"]
        who = "" if known else f"Team membership unknown, so {ONE_PER_TEAM.split(': ', 1)[1]}: "
        what = (f"the public board shows the public leader's {score} {gap(lead)}, on average"
                if not math.isnan(lead) else f"the public board shows a team's {score} {gap(first['overstatement'])}, "
                "on average")
        return (who or "With one submission per team, ") + what + "."
    last = table.iloc[-1]
    n, teams = int(last["n_submissions"]), int(last["teams"])
    return (f"When a team chooses by the public board among {n} submissions, the public board shows the chosen "
            f"one's {score} {gap(last['overstatement'])}, on average ({teams} team{'s' if teams != 1 else ''} with "
            f"that many; with one submission: {first['overstatement']:+.4f}).")

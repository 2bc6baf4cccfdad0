"""What the shake-up page needs, for any family: its header with the one-sentence answer, the
simulations (kept per session, drawn with a progress bar), and the tables it shows.

The simulations are computed once for every session that asks (``lab.data.shared``), keyed by the
data's digest, the parameters, the public fraction, the number of splits and the seed; the
session that computes one sees its progress bar (``st.cache_data`` would replay the bar on a hit).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from scoring.core.family import Family
from scoring.core.shakeup import FRACTIONS, Shakeup, shakeup
from scoring.core.shakeup_selection import selection, teams_by_separator
from scoring.core.shakeup_sweep import SIZES, advice_from, advice_runs, nested_shakeups, sweep_table

from .. import families
from ..data import shared
from ..families import SHK_SPLITS
from ..view import current, nav

SPLITS = SHK_SPLITS.options  # the page's declared choices (lab.families)
DEFAULT_SPLITS = SHK_SPLITS.default
SWEEP_SPLITS = 200
#: the advice's grid on the page: every other fraction of the sweep (10 %, 20 %, … 90 %)
ADVICE_FRACTIONS = tuple(f for f in FRACTIONS if round(f * 100) % 10 == 0)


def begin(key: str, title: str, explanation: Callable[[Family], str], *,
          words: tuple[str, ...] = ()) -> tuple[Family, DeltaGenerator]:
    """The page's top — title, the slot of the one-sentence answer, the explanation (and the
    glossary ``words`` it uses), then the choice of family (widget ``key``); returns the family and
    the slot."""
    head = st.container()
    fam = nav.pick_family(key)
    families.ui(fam).sidebar_extra()
    with head:
        slot = current.header(fam, title, explanation(fam), words=words)
    return fam, slot


def _memo(key: tuple, label: Callable[[int, int, str], str], run: Callable[[Any], Any]) -> Any:
    what, *rest = key
    return shared.compute((f"shakeup_{what}", *rest), run, label=label)


def _params_key(fam: Family, params: Mapping[str, Any]) -> str:
    return json.dumps(fam.params.to_json(dict(params)), sort_keys=True, default=str)


def _base(fam: Family) -> tuple[tuple, Any, dict]:
    p = current.params(fam)
    e = current.entry(fam)
    return (fam.name, e.digest, _params_key(fam, p)), e.scorer, p


def simulate(fam: Family, fraction: float, splits: int, seed: int) -> Shakeup:
    """The shake-up of the active data at the current parameters."""
    key, scorer, p = _base(fam)

    def label(done: int, total: int, _name: str) -> str:
        return f"Scoring split {done:,} of {total:,}…" if total else f"Drawing {splits:,} splits…"

    return _memo(("one", *key, fraction, splits, seed), label,
                 lambda progress: shakeup(scorer.unit_stats(**p), fraction, splits, seed=seed, unit=fam.unit,
                                          progress=progress))


def fraction_sweep(fam: Family, seed: int, tau_at: float) -> pd.DataFrame:
    """The sweep over 5–95 % (200 splits each); a new τ threshold re-reads the same splits."""
    key, scorer, p = _base(fam)

    def label(done: int, total: int, _name: str) -> str:
        return f"Sweeping the public fraction: split {done:,} of {total:,}…" if total else "Sweeping…"

    shs = _memo(("sweep", *key, seed), label,
                lambda progress: nested_shakeups(scorer.unit_stats(**p), FRACTIONS, SWEEP_SPLITS, seed=seed,
                                                 unit=fam.unit, progress=progress))
    return sweep_table(shs, tau_at=tau_at)


def split_advice(fam: Family, target: str, prob: float, tau: float, seed: int) -> tuple[pd.DataFrame, dict]:
    """The split-size advice over test sizes 25–100 % and fractions 10–90 %; another target
    re-reads the same splits."""
    key, scorer, p = _base(fam)

    def label(done: int, total: int, _name: str) -> str:
        return f"Trying test sizes and public fractions: split {done:,} of {total:,}…" if total else "Trying…"

    runs = _memo(("advice", *key, seed), label,
                 lambda progress: advice_runs(scorer.unit_stats(**p), fractions=ADVICE_FRACTIONS, sizes=SIZES,
                                              splits=SWEEP_SPLITS, seed=seed, unit=fam.unit, progress=progress))
    return advice_from(runs, target=target, p=prob, tau=tau, unit=fam.unit)


def team_table(sh: Shakeup) -> pd.DataFrame:
    """The per-team table, with the page's column names."""
    t = sh.team_table()
    t = t.rename(columns={"submission": "Team", "rank": "Rank (all units)", "public_rank_mean": "Mean public rank",
                          "private_rank_mean": "Mean private rank", "p_same_rank": "P(same rank)",
                          "mean_move": "Expected |move|", "p_public_first": "P(first, public)",
                          "p_private_first": "P(first, private)"})
    # what the page is about first (in view at 1024 pixels): who wins each board, then how ranks move
    first = ["Team", "Rank (all units)", "P(first, private)", "P(first, public)", "P(same rank)", "Expected |move|"]
    return t[first + [c for c in t.columns if c not in first]]


def membership(names: list[str], separator: str) -> list[str] | None:
    """Teams by the separator (None when none is given, or when it groups nothing)."""
    if not separator:
        return None
    teams = teams_by_separator(names, separator)
    return teams if len(set(teams)) < len(teams) else None


def choose(sh: Shakeup, teams: list[str] | None, keep: int, seed: int) -> pd.DataFrame:
    return selection(sh, teams, keep=keep, seed=seed)

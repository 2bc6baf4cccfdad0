"""What the "How sure is the ranking?" pages share, for any family: bootstrap intervals, rank
sets and letters (shared by every session, keyed by content and parameters: ``lab.data.shared``), the
warnings where a conclusion is fragile, leave one team out, stability maps with a progress
bar, and the pinned configuration A."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from scoring.claims import intervals as claims
from scoring.core.family import Family
from scoring.core.jsonsafe import loads_bounded
from scoring.core.robustness import bootstrap, leave_one_out
from scoring.core.stability import Axis, axis, map_against, map_ranks, without_axes

from .. import families
from ..data import shared
from ..families import IV_B, IV_CONFIDENCE, IV_SEED
from ..families import MAP_CELLS as MAP_CELLS_CONTROL
from ..view import current, nav, state
from ..words.text import md

DEFAULT_B = IV_B.default  # the page's declared defaults (lab.families): what warm() computes ahead


def begin(key: str, title: str, explanation: str | Callable[[Family], str], *, words: tuple[str, ...] = ()) -> Family:
    """A page's top: the choice of family (widget ``key``), with the page's header drawn above it
    (``explanation``, or ``explanation(family)`` for words that name the family's unit; ``words``:
    the glossary terms it uses)."""
    head = st.container()
    fam = nav.pick_family(key)
    families.ui(fam).sidebar_extra()
    with head:
        current.header(fam, title, explanation(fam) if callable(explanation) else explanation, words=words)
    return fam


def _key(fam: Family, params: Mapping[str, Any]) -> str:
    return json.dumps(fam.params.to_json(dict(params)), sort_keys=True, default=str)


def intervals(fam: Family, *, b: int = DEFAULT_B, seed: int = 0, confidence: float = 0.95,
              params: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Score intervals, rank sets, letters and who could have won (``scoring.core.robustness.
    bootstrap``) of the active data at the current (or given) parameters, computed once for every
    session that asks (``lab.data.shared``: keyed by the data's digest and the parameters); the
    session that computes sees a progress bar while the paired comparisons of a big field run
    (a field small enough for one block of work draws none)."""
    p = dict(current.params(fam) if params is None else params)
    e = current.entry(fam)

    def label(done: int, total: int, name: str) -> str:
        what = "every pair at once" if name == "simultaneous" else "each team's comparisons"
        return f"Comparing the teams in pairs ({what}): step {done} of {total}…"

    return shared.compute(*_intervals_job(fam, e, p, b, seed, confidence), label=label, lazy=True, min_total=3)


def _intervals_job(fam: Family, e: Any, p: Mapping[str, Any], b: int, seed: int, confidence: float) -> tuple:
    """The shared cache's key and the computation of :func:`intervals`."""
    return (("intervals", fam.name, e.digest, _key(fam, p), int(b), int(seed), float(confidence)),
            lambda progress: bootstrap(e.scorer.unit_stats(**p), b=int(b), seed=int(seed),
                                       confidence=float(confidence), progress=progress))


def warm(fam: Family, entry: Any, values: Mapping[str, Any], *, wait: bool = False) -> threading.Thread | None:
    """Start computing the Rank intervals page's default answer (``DEFAULT_B`` replicates, seed 0,
    95 %), then the Stability map's first map (its first pair, ``MAP_CELLS`` a side), for
    ``entry`` — a family's default data, loaded once per server — at the app's default
    parameters ``values``, in a background thread, into the cache every session shares: a fresh
    visitor's Rank intervals page, Stability map and its "could have won" toggle then find them
    ready. A visitor who asks while it runs waits for it (``lab.data.shared.compute``). ``wait``: return
    once it is done (tests). Parameters the family cannot score start nothing."""
    fui = families.ui(fam)
    try:
        p = dict(fui.check(entry.scorer, fui.repair(dict(values))[0]))
    except ValueError:  # InputError: the page says why when it is opened
        return None
    jobs = [_intervals_job(fam, entry, p, DEFAULT_B, IV_SEED.default, IV_CONFIDENCE.default)]
    _, _, (a, b) = map_choices(fam)
    if a != b and fam.params[a].kind != "mapping" and fam.params[b].kind != "mapping":
        jobs.append(_map_job(fam, entry, p, axis(fam, a, n=MAP_CELLS), axis(fam, b, n=MAP_CELLS)))

    def run_all() -> None:
        for key, run in jobs:
            shared.compute(key, run)

    job = threading.Thread(target=run_all, daemon=True, name=f"warm-intervals-{fam.name}-{entry.digest[:12]}")
    job.start()
    if wait:
        job.join()
    return job


def leave_one_team_out(fam: Family) -> pd.DataFrame:
    p = current.params(fam)
    e = current.entry(fam)
    return shared.compute(("leave_one_out", fam.name, e.digest, _key(fam, p)),
                          lambda _progress: leave_one_out(e.scorer.unit_stats(**p)))


def fragile(fam: Family, lb: pd.DataFrame, iv: pd.DataFrame) -> list[str]:
    """Plain-words warnings where the current conclusion is fragile (``scoring.claims.intervals.
    fragile``): more than one team could have won; a last stage that hands the win to a team the
    previous stage's leader cannot be told apart from; and the family's own warnings on the
    letters (``scorer.letter_warnings``: Shovel-Ready's two teams sharing a letter although one is
    5 or more paired SEs ahead on the segment score). (The family's other guardrails — small
    groups carrying a team's weight — are in every page's header: ``current.header``.)"""
    check = getattr(current.entry(fam).scorer, "letter_warnings", None)
    own = check(iv, current.params(fam)) if callable(check) else []
    return claims.fragile(fam.stages, lb, iv, own)


def noise_note(fam: Family, iv: pd.DataFrame, a: str, b: str, *, where: str) -> str:
    """Whether teams ``a`` and ``b`` can be told apart in ``iv`` (``intervals``), in words."""
    return claims.noise(iv, a, b, where=where)


def show_warnings(lines: list[str]) -> None:
    for line in lines:
        st.warning(md(line[:1].upper() + line[1:]) + ".", icon=":material/warning:")


def map_with_progress(fam: Family, x: Axis, y: Axis) -> pd.DataFrame:
    """A stability map of the active data around the current parameters, computed once for
    every session that asks (``lab.data.shared``); while it computes, a progress bar counts the
    cells (the cells of a costly parameter take longer: they re-match). The cells' scores do not
    depend on the current values of the map's own two parameters: moving one of them compares
    the same cells with the new ranking, without scoring them again."""
    p = current.params(fam)
    e = current.entry(fam)
    costly = [a.param for a in (x, y) if fam.params[a.param].costly]
    note = f" — {', '.join(costly)} re-matches, so its cells take longer" if costly else ""
    cells = len(x.values) * len(y.values)

    def label(done: int, total: int, _name: str) -> str:
        return f"Scoring cell {done} of {total}{note}…" if total else f"Scoring {cells} cells{note}…"

    scored = shared.compute(*_map_job(fam, e, p, x, y), label=label)
    return shared.compute(("map", fam.name, e.digest, _key(fam, p), x, y),
                          lambda _progress: map_against(fam, current.leaderboard(fam), scored))


def _map_job(fam: Family, e: Any, p: Mapping[str, Any], x: Axis, y: Axis) -> tuple:
    """The shared cache's key and the computation of the cells of :func:`map_with_progress`
    (keyed without the map's own two parameters, which each cell sets)."""
    return (("map_cells", fam.name, e.digest, _key(fam, without_axes(p, x, y)), x, y),
            lambda progress: map_ranks(fam, e.scorer, p, x, y, context=fam.context(e.comp), progress=progress))


#: the Stability map's cells a side at first
MAP_CELLS = MAP_CELLS_CONTROL.default


def map_choices(fam: Family) -> tuple[list[str], list[tuple[str, str]], tuple[str, str]]:
    """The Stability map's parameters that can be mapped, the family's suggested pairs among
    them, and the pair the page starts with."""
    names = [p.name for p in fam.params if p.grid_values(3)]
    pairs = [tuple(pair) for pair in fam.stability if set(pair) <= set(names)]
    default = pairs[0] if pairs else (names[0], names[1] if len(names) > 1 else names[0])
    return names, pairs, default


# ---- configuration A (pinned) ------------------------------------------------------------------------
def pinned(fam: Family) -> dict[str, Any] | None:
    """The pinned configuration A: from this session, or from the link (``pin=<JSON>``)."""
    key = f"_{fam.key}_pin"
    if key not in st.session_state and "pin" in st.query_params:
        try:
            ctx = fam.context(current.competition(fam))
            p = state.check(fam, loads_bounded(st.query_params["pin"], what="pin"), ctx)
            fam.params.validate(p, context=ctx)  # the rules between values too (ε ≤ τ, increasing thresholds, …)
            st.session_state[key] = p
        except (ValueError, TypeError) as err:  # InputError is a ValueError
            st.session_state[key] = None
            st.session_state[f"{key}_bad"] = str(err)
    return st.session_state.get(key)


def pin(fam: Family) -> None:
    """Pin the current parameters as A (kept in the link, so a shared link holds A and B)."""
    p = current.params(fam)
    st.session_state[f"_{fam.key}_pin"] = p
    st.query_params["pin"] = json.dumps(fam.params.to_json(p), separators=(",", ":"))


def unpin(fam: Family) -> None:
    st.session_state.pop(f"_{fam.key}_pin", None)
    if "pin" in st.query_params:
        del st.query_params["pin"]


def differences(fam: Family, a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """The parameters that differ between A and B, in words: ``w 0.5 → 0.7``."""
    out = []
    for p in fam.params:
        va, vb = a.get(p.name), b.get(p.name)
        if va != vb and not (isinstance(va, float) and isinstance(vb, float) and np.isclose(va, vb)):
            out.append(f"{p.title}: {p.to_text(va)} → {p.to_text(vb)}")
    return out

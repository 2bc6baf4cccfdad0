"""``python -m scoring <family> shakeup``: the public/private shake-up on the command line.

The family's inputs and parameters are options, as for ``leaderboard``; then the public
fraction, the number of splits and the seed (the bootstrap's rules: a family with its own
``seed`` parameter uses it). CSV prints one row per team; JSON (``--format json``) the
document of :func:`document`, which leads with the plain sentence. ``--sweep`` adds the
sweep over 5–95 %; ``--target`` the split-size advice; ``--teams``/``--team-separator`` the
team membership for the selection by the public board.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from . import cli_load
from .core.errors import InputError
from .core.export import json_parameters, json_value, to_csv, to_json
from .core.family import Family
from .core.limits import check_fields
from .core.shakeup import FRACTIONS, Shakeup, check_shakeup, shakeup
from .core.shakeup_selection import (
    ONE_PER_TEAM,
    read_teams,
    selection,
    selection_sentence,
    teams_by_separator,
)
from .core.shakeup_sweep import SIZES, advise, sweep

TEAM_COLUMNS = ["submission", "rank", "public_rank_mean", "private_rank_mean", "p_same_rank", "mean_move",
                "p_public_first", "p_private_first"]


def configure(p: argparse.ArgumentParser, fam: Family) -> None:
    """The shake-up's options (after the family's inputs and parameters)."""
    for inp in fam.inputs:
        kw = dict(required=inp.required, metavar="PATH" if inp.many else inp.kind.upper(), help=inp.help)
        if inp.many:
            kw["nargs"] = "+"
        p.add_argument(inp.flag, dest=inp.role, **kw)
    fam.params.add_arguments(p)
    if fam.parallel:
        p.add_argument("--workers", type=int, metavar="N", help="processes scoring files at once (default: every core; "
                       "more than the cores are clamped to the cores, with a warning)")
        p.add_argument("--scheduler", metavar="ADDRESS", default=os.environ.get("LAB_DASK_SCHEDULER") or None,
                       help="score the files on this Dask cluster (default: LAB_DASK_SCHEDULER, else local)")
    g = p.add_argument_group("shake-up (random public/private splits of the scoring units)")
    flags: dict[str, str] = {}

    def add(name: str, *options: str, **kw) -> None:
        # a flag the family already uses (the difficulty family's --splits, a --teams input) keeps the
        # family's meaning; the shake-up's option then goes by its other name, or --shakeup-<name>
        taken = p._option_string_actions  # argparse's option table (it has no public accessor)
        free = [o for o in options if o not in taken] or ["--shakeup-" + options[0][2:]]
        g.add_argument(*free, dest=f"shakeup_{name}", **kw)
        flags[name] = free[0]

    add("fraction", "--public-fraction", default="0.3", metavar="F",
        help=f"share of the {fam.unit}s on the public board, in [0.05, 0.95] (default 0.3)")
    add("splits", "--splits", "--random-splits", default="1000", metavar="N", help="random splits (default 1000)")
    if "seed" not in fam.params:  # a family with its own seed uses it (as the bootstrap does)
        add("seed", "--seed", default="0", metavar="S", help="seed of the splits (default 0)")
    add("sweep", "--sweep", action="store_true", help="add the sweep over public fractions 5%%, 10%%, ..., 95%% "
        "(200 splits each)")
    add("target", "--target", choices=["winner", "tau"], help="add the split-size advice for this target: the public "
        "winner wins the private board, or Kendall's tau reaches the minimum tau")
    add("probability", "--probability", default="0.9", metavar="P", help="the target's probability (default 0.9)")
    add("min_tau", "--min-tau", default="0.8", metavar="T", help="the tau of the target tau (default 0.8)")
    add("teams", "--teams", metavar="CSV", help="team membership: a CSV with columns submission,team")
    add("team_separator", "--team-separator", metavar="SEP", help="team membership: a submission's team is its name "
        "up to SEP (e.g. _ : alice_v2 -> alice)")
    add("keep", "--keep", default="1", metavar="K", help="submissions each team keeps by the public board (default 1)")
    p.set_defaults(shakeup_flags=flags)
    p.add_argument("--format", choices=["csv", "json"], default="csv", help="output format (default csv)")
    p.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument("--raw-names", action="store_true", help="write names as they are (default: formula-safe)")


def _number(value: str, flag: str, low: float, high: float) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InputError(flag, None, f"expected a number in ({low:g}, {high:g}), got {value!r}") from None
    if not low < v < high:
        raise InputError(flag, None, f"expected a number in ({low:g}, {high:g}), got {value!r}")
    return v


def document(fam: Family, params: Mapping[str, Any], sh: Shakeup, *, sweep_table: pd.DataFrame | None = None,
             advice: tuple[pd.DataFrame, dict] | None = None, chosen: pd.DataFrame | None = None,
             known_teams: bool = False) -> dict[str, Any]:
    """The JSON document: ``sentence`` first, then the field's numbers, one row per team, and
    the sweep, advice and selection when computed."""
    rows = sh.team_table()
    doc: dict[str, Any] = {"sentence": sh.sentence(), "family": fam.name, "unit": fam.unit,
                           "parameters": json_parameters(params),
                           "shakeup": {k: ({a: json_value(b) for a, b in v.items()} if isinstance(v, dict)
                                           else json_value(v)) for k, v in sh.summary().items()},
                           "teams": [{c: json_value(r[c]) for c in TEAM_COLUMNS} for r in rows.to_dict("records")]}
    # each team's distribution of ranks on each board: P(rank = 1), P(rank = 2), …
    where = {n: i for i, n in enumerate(sh.names)}
    for which in ("public", "private"):
        shares = sh.rank_shares(which)
        for row in doc["teams"]:
            row[f"{which}_rank_distribution"] = [float(x) for x in shares[where[row["submission"]]]]
    if sweep_table is not None:
        doc["sweep"] = [{k: json_value(v) for k, v in r.items()} for r in sweep_table.to_dict("records")]
    if advice is not None:
        grid, rec = advice
        doc["advice"] = {**{k: json_value(v) if not isinstance(v, list) else v for k, v in rec.items()},
                         "grid": [{k: json_value(v) for k, v in r.items()} for r in grid.to_dict("records")]}
    if chosen is not None:
        doc["selection"] = {"sentence": selection_sentence(chosen, known=known_teams, score=fam.final.label,
                                                           splits_exact=sh.exact, seed=sh.seed),
                            "team_membership": "given" if known_teams else ONE_PER_TEAM,
                            "exact": bool(len(chosen) and chosen["exact"].all()),
                            "rows": [{k: json_value(v) for k, v in r.items()} for r in chosen.to_dict("records")]}
    return doc


def run(fam: Family, args: argparse.Namespace, progress=None) -> str:
    """Load, score, simulate; the CSV or JSON text."""
    flags = args.shakeup_flags

    def checked(seed):  # the engine's check, its message naming the command line's flag
        try:
            return check_shakeup(args.shakeup_fraction, args.shakeup_splits, seed)
        except InputError as e:
            raise InputError(flags.get(e.file, e.file), None, e.problem) from None

    checked(0)  # before loading anything
    keep = str(args.shakeup_keep).strip()
    if not (keep.isascii() and keep.isdigit()) or int(keep) < 1:
        raise InputError(flags["keep"], None, f"expected a whole number >= 1, got {args.shakeup_keep!r}")
    target = args.shakeup_target
    if target:
        p = _number(args.shakeup_probability, flags["probability"], 0, 1)
        t = _number(args.shakeup_min_tau, flags["min_tau"], -1, 1.000001)
    comp, params = cli_load.load(fam, args, progress)
    seed = params.get("seed", getattr(args, "shakeup_seed", 0))
    fraction, splits, seed = checked(seed)
    scorer = fam.scorer(comp)
    us = scorer.unit_stats(**params)
    # every board this command will score, counted before the first one (a sweep and the advice add theirs)
    boards = 2 * (splits + (200 * len(FRACTIONS) if args.shakeup_sweep else 0)
                  + (200 * len(FRACTIONS) * len(SIZES) if target else 0))
    asked = [flags["splits"]] + [flags[k] for k in ("sweep", "target") if getattr(args, f"shakeup_{k}")]
    check_fields(" with ".join(asked[:1] + [" and ".join(asked[1:])]) if len(asked) > 1 else asked[0], boards, us.cost)
    names = list(us.names)
    teams = None
    if args.shakeup_teams:
        teams = read_teams(args.shakeup_teams, names, name=Path(args.shakeup_teams).name)
    elif args.shakeup_team_separator:
        teams = teams_by_separator(names, args.shakeup_team_separator)
    sh = shakeup(us, fraction, splits, seed=seed, unit=fam.unit)
    print(sh.sentence(), file=sys.stderr)  # and the JSON document's first field
    adv = None
    if target:  # its sentence goes to stderr in either format
        adv = advise(us, target=target, p=p, tau=t, splits=200, seed=seed, unit=fam.unit)
        print(adv[1]["sentence"], file=sys.stderr)
    if args.format == "csv":  # the team table only: no sweep or selection to compute
        return to_csv(sh.team_table(), TEAM_COLUMNS, escape=not args.raw_names)
    sw = sweep(us, FRACTIONS, 200, seed=seed, unit=fam.unit) if args.shakeup_sweep else None
    chosen = selection(sh, teams, keep=int(keep), seed=seed)
    return to_json(document(fam, params, sh, sweep_table=sw, advice=adv, chosen=chosen, known_teams=teams is not None))

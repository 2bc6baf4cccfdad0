"""What every command that scores (``leaderboard``, ``shakeup``, ``report``) does first: read the
family's inputs from the parsed options, load them (on the process pool or a Dask cluster for a
family that scores file by file), print the loader's warnings, and read the parameters — a
custom family's recipe supplies its own defaults, which the options then override."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .core.errors import InputError
from .core.family import Family
from .core.fanout import max_workers


def sources(fam: Family, args: argparse.Namespace) -> dict[str, Any]:
    """``{role: path(s)}`` of the inputs given on the command line."""
    return {inp.role: getattr(args, inp.role) for inp in fam.inputs if getattr(args, inp.role, None) is not None}


def load(fam: Family, args: argparse.Namespace, progress=None) -> tuple[Any, dict[str, Any]]:
    """``(competition, parameters)`` for the parsed ``args``; bad input raises ``InputError``."""
    extra = {}
    if fam.parallel:
        if args.workers is not None and args.workers < 1:
            raise InputError("--workers", None, f"expected a whole number >= 1, got {args.workers}")
        workers = args.workers
        if workers is not None and workers > max_workers() and args.scheduler is None:
            workers = max_workers()  # one rule for every count of processes: at most the cores
            shown = f"{args.workers:,}" if args.workers < 10 ** 12 else f"{str(args.workers)[:12]}… ({len(str(args.workers))} digits)"
            print(f"warning: --workers {shown}: using {workers}, the cores this process may run on", file=sys.stderr)
        extra = {"workers": workers, "scheduler": args.scheduler}
    comp = fam.load(**sources(fam, args), progress=progress, **extra)
    info = set(getattr(comp, "info", ()))  # what was read (the Custom columns' roles): a note, not a warning
    for line in getattr(comp, "report", []):
        print(f"{'note' if line in info else 'warning'}: {line}", file=sys.stderr)
    params = fam.params.from_args(args, context=fam.context(comp), base=getattr(comp, "param_defaults", None))
    return comp, params

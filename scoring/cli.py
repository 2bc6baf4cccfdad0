"""Command line, built from the registry: ``python -m scoring <family> leaderboard ...``.

Every family gets ``leaderboard`` (its inputs and parameters as options, CSV or JSON out)
plus its own extra commands (Shovel-Ready: ``boost``). ``python -m scoring leaderboard|boost``
are the Shovel-Ready family's (SPEC §8). Output goes to stdout (or ``--output``), warnings and
progress to stderr; exit 0, or 2 with one line naming the file, row and problem for bad input,
or 1 with one line for an internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path

from .core.describe import families_markdown
from .core.errors import InputError
from .core.export import json_value, to_csv, to_json
from .core.family import Family
from .core.robustness import INTERVAL_COLUMNS, bootstrap, interval_table
from .registry import families, get

DEFAULT_FAMILY = "shovel-ready"


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


class ProgressBar:
    """Progress on stderr: a redrawn one-line bar on a terminal, else at most ~20 plain lines."""

    def __init__(self, stream=None):
        self._stream = stream
        self.open = False
        self._last = -1

    @property
    def stream(self):
        return self._stream or sys.stderr

    def __call__(self, done: int, total: int, name: str) -> None:
        tty = bool(getattr(self.stream, "isatty", lambda: False)())
        if not tty:
            step = max(1, total // 20)
            if done == total or done == 0 or done // step != self._last // step:
                if done != self._last:
                    self.stream.write(f"scoring {done}/{total}{' ' + name if name else ''}\n")
                    self._last = done
            self.stream.flush()
            return
        width = 30
        filled = int(width * done / total) if total else width
        label = f" {name}" if name else ""
        self.stream.write(f"\rscoring [{'#' * filled}{'.' * (width - filled)}] {done}/{total}{label[:40]:<41}")
        self.open = True
        if done >= total:
            self.close()
        self.stream.flush()

    def close(self) -> None:
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False


def output_args(p: argparse.ArgumentParser, *, names: bool = True) -> None:
    p.add_argument("--format", choices=["csv", "json"], default="csv", help="output format (default csv)")
    p.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")
    if names:
        p.add_argument("--raw-names", action="store_true",
                       help="write names as they are in the CSV (default: a name starting with = + - @ gets a "
                            "leading ' so that no spreadsheet runs it as a formula)")


def _add_family_commands(sub, fam: Family, *, prefix: str = "") -> None:
    lb = sub.add_parser("leaderboard", help=f"score submissions into the {fam.title} leaderboard",
                        description=f"Score submissions with {fam.summary}; print the leaderboard.")
    lb.set_defaults(family=fam.name, command="leaderboard")
    for inp in fam.inputs:
        kw = dict(required=inp.required, metavar="PATH" if inp.many else inp.kind.upper(), help=inp.help)
        if inp.many:
            kw["nargs"] = "+"
        lb.add_argument(inp.flag, dest=inp.role, **kw)
    fam.params.add_arguments(lb)
    if fam.parallel:
        lb.add_argument("--workers", type=int, metavar="N", help="processes scoring files at once (default: every "
                        "core, or LAB_WORKERS; 1 = this process only)")
        lb.add_argument("--scheduler", metavar="ADDRESS", default=os.environ.get("LAB_DASK_SCHEDULER") or None,
                        help="score the files on this Dask cluster, e.g. tcp://10.0.0.5:8786 (default: "
                             "LAB_DASK_SCHEDULER, else the local process pool); its workers must see the same "
                             "file paths and have this package and requirements-dask.txt installed")
    rb = lb.add_argument_group("rank intervals (bootstrap over the scoring units)")
    rb.add_argument("--bootstrap", metavar="B", default=None,
                    help=f"add score_low, score_high, rank_low, rank_high and tier from B resamples of the "
                         f"{fam.unit}s (default: none)")
    if "seed" not in fam.params:  # a family with its own seed uses it for the bootstrap too
        rb.add_argument("--seed", default="0", help="seed of the resampling (default 0)")
    rb.add_argument("--confidence", default="0.95", help="central share of the intervals (default 0.95)")
    output_args(lb)
    for name, cmd in fam.commands.items():
        c = sub.add_parser(name, help=cmd.help, description=cmd.help)
        c.set_defaults(family=fam.name, command=name)
        cmd.configure(c)


def build_parser() -> argparse.ArgumentParser:
    fams = families()
    listing = "; ".join(f"{f.name}: {f.title}" for f in fams)
    p = _Parser(prog="python -m scoring", description=f"Leaderboard Lab scoring engine. Families — {listing}. "
                "'leaderboard' and 'boost' without a family are the shovel-ready family's.")
    sub = p.add_subparsers(dest="family_or_command", required=True, parser_class=_Parser,
                           metavar="{" + ",".join(f.name for f in fams) + "} | leaderboard | boost | docs")
    for fam in fams:
        fp = sub.add_parser(fam.name, help=f"{fam.title}: {fam.summary}", description=fam.summary)
        _add_family_commands(fp.add_subparsers(dest="command", required=True, parser_class=_Parser), fam)
    # SPEC §8: the Shovel-Ready commands without the family word
    _add_family_commands(sub, get(DEFAULT_FAMILY))
    d = sub.add_parser("docs", help="print the families' reference (inputs, parameters, stages, columns) as markdown",
                       description="The reference page docs/families.md, written from the families' declarations.")
    d.set_defaults(family=None, command="docs")
    return p


_BAR = ProgressBar()


def run_leaderboard(fam: Family, args: argparse.Namespace) -> str:
    sources = {inp.role: getattr(args, inp.role) for inp in fam.inputs if getattr(args, inp.role, None) is not None}
    extra = {}
    if fam.parallel:
        if args.workers is not None and args.workers < 1:
            raise InputError("--workers", None, f"expected a whole number >= 1, got {args.workers}")
        extra = {"workers": args.workers, "scheduler": args.scheduler}
    comp = fam.load(**sources, progress=_BAR, **extra)
    for line in getattr(comp, "report", []):
        print(f"warning: {line}", file=sys.stderr)
    params = fam.params.from_args(args, context=fam.context(comp))
    scorer = fam.scorer(comp)
    if hasattr(scorer, "progress"):  # a re-match over many files reports on the same bar
        scorer.progress = _BAR
    lb = scorer.leaderboard(**params)
    for line in getattr(scorer, "warnings", lambda **p: [])(**params):
        print(f"warning: {line}", file=sys.stderr)
    columns = list(fam.output_columns(lb))
    iv = None
    if args.bootstrap is not None:
        iv = bootstrap(scorer.unit_stats(**params), b=args.bootstrap, seed=params.get("seed", args.seed),
                       confidence=args.confidence)
        lb = interval_table(lb, iv)
        columns += INTERVAL_COLUMNS
    if args.format == "csv":
        return to_csv(lb, columns, escape=not args.raw_names)
    doc = fam.document(lb, params)
    if iv is not None:
        doc["bootstrap"] = {"replicates": int(args.bootstrap), "seed": int(params.get("seed", args.seed)),
                            "confidence": float(args.confidence), "unit": fam.unit}
        for row in doc["leaderboard"]:
            row.update({c: json_value(iv.loc[row["submission"], c]) for c in INTERVAL_COLUMNS})
    return to_json(doc)


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    shown: set[str] = set()

    def one_line(message, category, filename, lineno, file=None, line=None) -> None:
        """A warning as users see it: one line, no source path, each message once (numpy's
        overflow on an extreme value, say: ``warning: overflow encountered in matmul``)."""
        text = " ".join(str(message).split())
        if text not in shown:
            shown.add(text)
            _BAR.close()
            print(f"warning: {text}", file=sys.stderr if file is None else file)

    with warnings.catch_warnings():  # restored on return: an in-process caller keeps its own
        warnings.showwarning = one_line
        return _main(args)


def _main(args: argparse.Namespace) -> int:
    try:
        if args.command == "docs":
            text = families_markdown(families())
        else:
            fam = get(args.family)
            text = run_leaderboard(fam, args) if args.command == "leaderboard" else fam.commands[args.command].run(args)
        if getattr(args, "output", None):
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    except InputError as e:
        _BAR.close()
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        _BAR.close()
        print(f"error: {getattr(e, 'filename', '') or ''}: {e.strerror or e}", file=sys.stderr)
        return 2
    except Exception as e:  # a bug, not bad input: still one line, and a distinct exit code
        _BAR.close()
        print(f"error: internal error ({type(e).__name__}: {e}); please report it with the input files",
              file=sys.stderr)
        return 1
    return 0

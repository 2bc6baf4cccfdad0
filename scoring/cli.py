"""Command line, built from the registry: ``python -m scoring <family> leaderboard ...``.

Every family gets ``leaderboard`` (its inputs and parameters as options, CSV or JSON out)
plus its own extra commands (Shovel-Ready: ``boost``). ``python -m scoring leaderboard|boost``
are the Shovel-Ready family's (SPEC §8). Output goes to stdout (or ``--output``), warnings and
progress to stderr; exit 0, or 2 with one line naming the file, row and problem for bad input,
or 1 with one line for an internal error. The HTML report has its own command in the layer
above the engine, ``python -m lab.report <family>`` (``lab/report/__main__.py``, built from
:func:`scoring_arguments` and :func:`guarded`): nothing here imports ``lab``.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

from . import cli_load, shakeup_cli
from .core.describe import families_markdown
from .core.errors import InputError
from .core.export import json_value, to_csv, to_json
from .core.family import Family
from .core.robustness import INTERVAL_COLUMNS, SIMULTANEOUS_COLUMNS, bootstrap, interval_table, top_set
from .core.threads import blas_threads
from .export import cli as export_cli
from .registry import families, get

DEFAULT_FAMILY = "shovel-ready"


class Parser(argparse.ArgumentParser):
    """argparse with a usage error on one line, exit 2, no traceback (every command line of the product)."""

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


def scoring_arguments(lb: argparse.ArgumentParser, fam: Family) -> None:
    """The options of a scoring run: the family's inputs and parameters, the workers, the rank sets
    (``leaderboard`` and the report's command, ``python -m lab.report``, share them)."""
    for inp in fam.inputs:
        kw = dict(required=inp.required, metavar="PATH" if inp.many else inp.kind.upper(), help=inp.help)
        if inp.many:
            kw["nargs"] = "+"
        lb.add_argument(inp.flag, dest=inp.role, **kw)
    fam.params.add_arguments(lb)
    if fam.parallel:
        lb.add_argument("--workers", type=int, metavar="N", help="processes scoring files at once (default: every "
                        "core, or LAB_WORKERS; 1 = this process only; more than the cores are clamped to "
                        "the cores, with a warning)")
        lb.add_argument("--scheduler", metavar="ADDRESS", default=os.environ.get("LAB_DASK_SCHEDULER") or None,
                        help="score the files on this Dask cluster, e.g. tcp://10.0.0.5:8786 (default: "
                             "LAB_DASK_SCHEDULER, else the local process pool); its workers must see the same "
                             "file paths and have this package and requirements-dask.txt installed")
    rb = lb.add_argument_group(
        "rank sets (bootstrap over the scoring units)",
        "From B resamples of the units, paired comparisons of every two teams (studentised, max-t): "
        "score_low/score_high, the score interval (the percentile interval; Shovel-Ready with groups: the range "
        "of the softmin over a joint interval of the group scores); rank_low/rank_high, the ranks the "
        "team could hold at the confidence (built to hold the team's true rank with at least that "
        "probability); "
        "letters: two teams that share a letter are not distinguishable at the confidence (all pairs "
        "at once); could_win: no team is established better (the set of such teams is built to hold "
        "the true winner with at least that probability)."
        + (" With groups, a warning names two teams that share a letter although one is 5 or more paired "
           "standard errors ahead on the segment score (a small group's bad draw can hide a real gap in the "
           "softmin; in a simulation every pair 8 or more standard errors apart that shared a letter was so "
           "flagged: docs/robustness.md)." if fam.name == "shovel-ready" else ""))
    rb.add_argument("--bootstrap", metavar="B", default=None,
                    help=f"add score_low, score_high, rank_low, rank_high, letters and could_win from B resamples "
                         f"of the {fam.unit}s (default: none)")
    if "seed" not in fam.params:  # a family with its own seed uses it for the bootstrap too
        rb.add_argument("--seed", default="0", help="seed of the resampling (default 0)")
    rb.add_argument("--confidence", default="0.95", help="confidence of the sets and letters, and central share "
                    "of the score interval (default 0.95)")
    rb.add_argument("--simultaneous", action="store_true", help="also rank_low_all, rank_high_all: rank sets that "
                    "are built to hold for all teams at once with the confidence (wider)")
    rb.add_argument("--top-k", metavar="K", default=None, help="also in_top_K: whether the team could be among "
                    "the best K (the set is built to hold every true top-K team with the confidence)")


#: the report has its own entry point in the layer above the engine (docs/architecture.md)
REPORT_MOVED = "the report is written by python -m lab.report {family} --out FILE ... (same options)"


def _add_family_commands(sub, fam: Family, *, prefix: str = "") -> None:
    lb = sub.add_parser("leaderboard", help=f"score submissions into the {fam.title} leaderboard",
                        description=f"Score submissions with {fam.summary}; print the leaderboard.")
    lb.set_defaults(family=fam.name, command="leaderboard")
    scoring_arguments(lb, fam)
    output_args(lb)
    rp = sub.add_parser("report", add_help=False, help=f"moved: python -m lab.report {fam.name} --out FILE ...")
    rp.set_defaults(family=fam.name, command="report")
    export_cli.configure(sub, fam, lb)  # docs/export.md
    for name, cmd in fam.commands.items():
        c = sub.add_parser(name, help=cmd.help, description=cmd.help)
        c.set_defaults(family=fam.name, command=name)
        cmd.configure(c)
    sh = sub.add_parser("shakeup", help="how much the board shakes up between random public/private splits",
                        description=f"Random public/private splits of the {fam.unit}s (stratified, seeded): each team's "
                        "public and private ranks, P(the public winner wins the private board), Kendall's tau.")
    sh.set_defaults(family=fam.name, command="shakeup")
    shakeup_cli.configure(sh, fam)


def build_parser() -> argparse.ArgumentParser:
    fams = families()
    listing = "; ".join(f"{f.name}: {f.title}" for f in fams)
    p = Parser(prog="python -m scoring", description=f"Leaderboard Lab scoring engine. Families — {listing}. "
                "'leaderboard' and 'boost' without a family are the shovel-ready family's.")
    sub = p.add_subparsers(dest="family_or_command", required=True, parser_class=Parser,
                           metavar="{" + ",".join(f.name for f in fams) + "} | leaderboard | boost | docs")
    for fam in fams:
        fp = sub.add_parser(fam.name, help=f"{fam.title}: {fam.summary}", description=fam.summary)
        _add_family_commands(fp.add_subparsers(dest="command", required=True, parser_class=Parser), fam)
    # SPEC §8: the Shovel-Ready commands without the family word
    _add_family_commands(sub, get(DEFAULT_FAMILY))
    d = sub.add_parser("docs", help="print the families' reference (inputs, parameters, stages, columns) as markdown",
                       description="The reference page docs/families.md, written from the families' declarations.")
    d.set_defaults(family=None, command="docs")
    return p


_BAR = ProgressBar()


def _top_k(args: argparse.Namespace) -> int | None:
    """``--top-k``, checked before any work (it and ``--simultaneous`` need ``--bootstrap``)."""
    if args.bootstrap is None and (args.simultaneous or args.top_k is not None):
        raise InputError("--simultaneous" if args.simultaneous else "--top-k", None, "needs --bootstrap B")
    if args.top_k is None:
        return None
    if not (str(args.top_k).strip().isascii() and str(args.top_k).strip().isdigit()) or int(args.top_k) < 1:
        raise InputError("--top-k", None, f"expected a whole number >= 1, got {args.top_k!r}")
    return int(args.top_k)


def run_leaderboard(fam: Family, args: argparse.Namespace) -> str:
    top_k = _top_k(args)
    comp, params = cli_load.load(fam, args, _BAR)
    scorer = fam.scorer(comp)
    if hasattr(scorer, "progress"):  # a re-match over many files reports on the same bar
        scorer.progress = _BAR
    lb = scorer.leaderboard(**params)
    for line in getattr(scorer, "warnings", lambda **p: [])(**params):
        print(f"warning: {line}", file=sys.stderr)
    columns = list(fam.output_columns(lb))
    iv, extra = None, []
    if args.bootstrap is not None:
        iv = bootstrap(scorer.unit_stats(**params), b=args.bootstrap, seed=params.get("seed", args.seed),
                       confidence=args.confidence)
        letter_lines = scorer.letter_warnings(iv, **params) if hasattr(scorer, "letter_warnings") else None
        for line in (letter_lines or []) + ([iv.attrs["score_interval_note"]] if "score_interval_note" in iv.attrs else []):
            print(f"warning: {line}", file=sys.stderr)
        extra = INTERVAL_COLUMNS + (SIMULTANEOUS_COLUMNS if args.simultaneous else [])
        if top_k is not None:
            iv[f"in_top_{top_k}"] = iv["rank_low_all"] <= top_k
            extra = extra + [f"in_top_{top_k}"]
        attrs = dict(lb.attrs)
        lb = interval_table(lb, iv, columns=extra)
        lb.attrs.update(attrs)  # what a family's document reads (Custom: the recipe's notes)
        columns += extra
    if args.format == "csv":
        return to_csv(lb, columns, escape=not args.raw_names)
    doc = fam.document(lb, params)
    if iv is not None:
        conf = float(args.confidence)
        head = {"who_could_have_won": {
            "teams": top_set(iv, 1), "confidence": conf,
            "meaning": f"the teams that no other team is established better than; the list is built to hold the true winner "
                       f"with probability >= {conf:g}"}}
        if top_k is not None:
            head["top_k"] = {"k": top_k, "teams": top_set(iv, top_k), "confidence": conf,
                             "meaning": f"the teams that could be among the best {top_k}; the list is built to hold every "
                                        f"true top-{top_k} team with probability >= {conf:g}"}
        doc = {**head, **doc}
        doc["bootstrap"] = {"replicates": int(args.bootstrap), "seed": int(params.get("seed", args.seed)),
                            "confidence": conf, "unit": fam.unit, "method": "paired max-t rank sets "
                            "(Mogstad, Romano, Shaikh & Wilhelm 2024); see docs/robustness.md",
                            "score_interval": iv.attrs["score_interval"]}
        if "score_interval_note" in iv.attrs:
            doc["bootstrap"]["score_interval_note"] = iv.attrs["score_interval_note"]
        if letter_lines is not None:  # a family with the guardrail: its warnings, none included
            doc["bootstrap"]["letter_warnings"] = letter_lines
        for row in doc["leaderboard"]:
            row.update({c: json_value(iv.loc[row["submission"], c]) for c in extra})
    return to_json(doc)


def main(argv=None) -> int:
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if getattr(args, "command", None) == "report":  # whatever its options were
        print(f"error: {REPORT_MOVED.format(family=args.family)}", file=sys.stderr)
        return 2
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    return guarded(lambda: _main(args))


def guarded(command: Callable[[], int], *, bar: ProgressBar = _BAR) -> int:
    """Run one command as every entry point does: warnings as single lines on stderr; bad input
    (``InputError``, ``OSError``) one line and exit 2; a bug one line and exit 1."""
    shown: set[str] = set()

    def one_line(message, category, filename, lineno, file=None, line=None) -> None:
        """A warning as users see it: one line, no source path, each message once (numpy's
        overflow on an extreme value, say: ``warning: overflow encountered in matmul``)."""
        text = " ".join(str(message).split())
        if text not in shown:
            shown.add(text)
            bar.close()
            print(f"warning: {text}", file=sys.stderr if file is None else file)

    # one BLAS thread: spinning BLAS threads on a busy machine cost many times the work (core.threads)
    with warnings.catch_warnings(), blas_threads(1):  # restored on return: an in-process caller keeps its own
        warnings.showwarning = one_line
        try:
            return command()
        except InputError as e:
            bar.close()
            print(f"error: {e}", file=sys.stderr)
            return 2
        except OSError as e:
            bar.close()
            print(f"error: {getattr(e, 'filename', '') or ''}: {e.strerror or e}", file=sys.stderr)
            return 2
        except Exception as e:  # a bug, not bad input: still one line, and a distinct exit code
            bar.close()
            print(f"error: internal error ({type(e).__name__}: {e}); please report it with the input files",
                  file=sys.stderr)
            return 1


def _main(args: argparse.Namespace) -> int:
    if args.command == "shakeup":
        text = shakeup_cli.run(get(args.family), args, progress=_BAR)
    elif args.command == "docs":
        text = families_markdown(families())
    else:
        fam = get(args.family)
        if args.command == "export":
            text = export_cli.run(fam, args, _BAR)
        else:
            text = run_leaderboard(fam, args) if args.command == "leaderboard" else fam.commands[args.command].run(args)
    if getattr(args, "output", None):
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as e:  # a full disk: the error of the write names no file, so name it here
            raise InputError(str(args.output), None, f"cannot be written ({e.strerror or e})") from None
    else:
        sys.stdout.write(text)
    return 0

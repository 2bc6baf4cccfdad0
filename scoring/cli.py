"""Command line: ``python -m scoring leaderboard|boost ...`` (SPEC §8)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .aggregate import check_alpha, efficiency_boost
from .competition import load_competition
from .errors import InputError
from .export import json_value, leaderboard_document
from .io import read_named_numbers, source_name
from .matching import QUALITIES
from .scorer import DEFAULTS, LEADERBOARD_COLUMNS, Scorer


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no traceback
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


class _ProgressBar:
    """A one-line progress bar on stderr (``\r`` redraws); ``close`` ends the line."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.open = False

    def __call__(self, done: int, total: int, name: str) -> None:
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


_BAR = _ProgressBar()


def _float(name):
    def conv(text):
        try:
            return float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name}: expected a number, got {text!r}") from None
    return conv


def build_parser() -> argparse.ArgumentParser:
    d = DEFAULTS
    p = _Parser(prog="python -m scoring", description="Leaderboard Lab scoring engine: the Shovel-Ready "
                "unified metric (overlap removal, fractional TP, softmin bias aggregation, efficiency boost).")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    lb = sub.add_parser("leaderboard", help="score submissions into the five-stage leaderboard",
                        description="Score submissions against the ground truth; print the five-stage leaderboard.")
    lb.add_argument("--ground-truth", required=True, metavar="CSV",
                    help="ground truth: id, discourse_type, predictionstring, discourse_effectiveness")
    lb.add_argument("--submissions", required=True, nargs="+", metavar="PATH",
                    help="submission CSV files and/or folders (every *.csv inside); name = file stem")
    lb.add_argument("--demographics", metavar="CSV", help="id plus categorical attribute columns (default: none)")
    lb.add_argument("--attributes", metavar="A[,B...]", default="",
                    help="demographic attributes whose cross product forms the groups (default: none)")
    lb.add_argument("--runtimes", metavar="CSV", help="submission, runtime in seconds (default: none, nobody eligible)")
    lb.add_argument("--w", type=_float("--w"), default=d["w"], help=f"segmentation weight in [0, 1] (default {d['w']})")
    lb.add_argument("--quality", choices=list(QUALITIES), default=d["quality"],
                    help=f"overlap quality of a match (default {d['quality']})")
    lb.add_argument("--threshold", type=_float("--threshold"), default=d["threshold"],
                    help=f"overlap threshold t in (0, 1] for o_P and o_G (default {d['threshold']})")
    lb.add_argument("--alpha", default=str(d["alpha"]), metavar="ALPHA",
                    help=f"softmin temperature >= 0, or 'inf' for the hard minimum (default {d['alpha']:g})")
    lb.add_argument("--band", type=_float("--band"), default=d["band"],
                    help=f"eligibility band: eligible when best/score <= 1 + band (default {d['band']})")
    lb.add_argument("--max-boost", type=_float("--max-boost"), default=d["max_boost"],
                    help=f"boost of the fastest eligible submission (default {d['max_boost']})")
    lb.add_argument("--window", type=_float("--window"), default=d["window"],
                    help=f"slowdown window: no boost beyond (1 + window) x the fastest runtime (default {d['window']})")
    lb.add_argument("--no-overlap-removal", action="store_true",
                    help="score stages 3-5 on the raw predictions (default: overlaps removed)")
    _output_args(lb)

    bo = sub.add_parser("boost", help="estimate efficiency boosts from scores and runtimes",
                        description="The competitor's boost estimator: SPEC §5 on given scores and runtimes.")
    bo.add_argument("--scores", required=True, metavar="CSV", help="submission, score (finite, >= 0)")
    bo.add_argument("--runtimes", required=True, metavar="CSV", help="submission, runtime (seconds > 0)")
    bo.add_argument("--band", type=_float("--band"), default=d["band"], help=f"eligibility band (default {d['band']})")
    bo.add_argument("--max-boost", type=_float("--max-boost"), default=d["max_boost"],
                    help=f"maximum boost (default {d['max_boost']})")
    bo.add_argument("--window", type=_float("--window"), default=d["window"], help=f"slowdown window (default {d['window']})")
    _output_args(bo)
    return p


def _output_args(p):
    p.add_argument("--format", choices=["csv", "json"], default="csv", help="output format (default csv)")
    p.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")


def _leaderboard(args) -> str:
    alpha = check_alpha(args.alpha)
    attrs = [a.strip() for a in args.attributes.split(",") if a.strip()]
    if attrs and not args.demographics:
        raise InputError("--attributes", None, "needs --demographics")
    comp = load_competition(ground_truth=args.ground_truth, submissions=args.submissions,
                            demographics=args.demographics, runtimes=args.runtimes, progress=_BAR)
    for line in comp.report:
        print(f"warning: {line}", file=sys.stderr)
    params = dict(w=args.w, quality=args.quality, threshold=args.threshold, alpha=alpha, attributes=tuple(attrs),
                  band=args.band, max_boost=args.max_boost, window=args.window,
                  overlap_removal=not args.no_overlap_removal)
    scorer = Scorer(comp)
    lb = scorer.leaderboard(**params)
    if args.format == "csv":
        return lb[LEADERBOARD_COLUMNS].to_csv(index=False, float_format="%.10g")
    return json.dumps(leaderboard_document(lb, params), indent=2, allow_nan=False) + "\n"


def _boost(args) -> str:
    sname, rname = source_name(args.scores, "scores"), source_name(args.runtimes, "runtimes")
    scores = read_named_numbers(args.scores, sname, "score", positive=False)
    runtimes = read_named_numbers(args.runtimes, rname, "runtime", positive=True)
    unknown = sorted(set(runtimes) - set(scores))
    if unknown:
        print(f"warning: {rname}: {len(unknown)} row(s) for unknown submissions ignored", file=sys.stderr)
    table = efficiency_boost(scores, runtimes, band=args.band, max_boost=args.max_boost, window=args.window)
    table = table[["submission", "score", "eligible", "boost", "final_score", "rank"]]
    if args.format == "csv":
        return table.to_csv(index=False, float_format="%.10g")
    rows = [{k: json_value(v) for k, v in r.items()} for r in table.to_dict("records")]
    params = {"band": args.band, "max_boost": args.max_boost, "window": args.window}
    return json.dumps({"parameters": params, "boost": rows}, indent=2, allow_nan=False) + "\n"


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        text = _leaderboard(args) if args.command == "leaderboard" else _boost(args)
        if args.output:
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

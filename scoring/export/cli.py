"""``python -m scoring <family> export --target codabench|kaggle|python --out DIR`` with the
leaderboard's inputs and parameter options: the view those options make, as a platform's
scoring program (docs/export.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..cli_load import load, sources
from ..core.family import Family
from . import TARGETS, export


def configure(sub, fam: Family, leaderboard: argparse.ArgumentParser) -> None:
    """The ``export`` command: the leaderboard's options (copied from its parser) plus the target."""
    ex = sub.add_parser("export", parents=[leaderboard], add_help=False, conflict_handler="resolve",
                        help=f"write the {fam.title} view as a competition platform's scoring program",
                        description=f"Write a self-contained scoring program computing this view's scores ({fam.summary}) "
                                    "with these parameters, for Codabench/CodaLab, Kaggle or plain Python "
                                    "(docs/export.md).")
    ex.set_defaults(family=fam.name, command="export")
    ex.add_argument("--target", required=True, choices=TARGETS, help="the platform: codabench (a scoring-program "
                    "bundle and reference data, zipped), kaggle (a metric module and solution.csv) or python (a module "
                    "and command line, with EvalAI's evaluate)")
    ex.add_argument("--out", required=True, metavar="DIR", help="write the program here (an empty folder, or an "
                    "earlier export's, which is replaced)")
    ex.add_argument("--link", default="", help="the dashboard address of the view, named in the program's header")


def run(fam: Family, args: argparse.Namespace, progress=None) -> str:
    """Export; the text printed: what was written, its size, and any warning."""
    _, params = load(fam, args, progress)
    done = export(fam, sources(fam, args), params, target=args.target, out=Path(args.out), link=args.link)
    size = sum(p.stat().st_size for p in done.folder.rglob("*") if p.is_file())
    lines = [f"wrote {done.folder} ({args.target}, {size:,} bytes with the data)"]
    lines += [f"wrote {z}" for z in done.zips]
    lines += [f"warning: {w}" for w in done.view.warnings]
    return "\n".join(lines) + "\n"

"""``python -m lab.report <family> --out report.html [inputs and parameters as for
python -m scoring <family> leaderboard]``: the stakeholder report from the command line. The
options are the leaderboard's (``scoring.cli.scoring_arguments``) plus ``--out`` and
``--compare``; :func:`lab.report.cli.run` writes the file; errors end as the engine's do
(``scoring.cli.guarded``: one line, exit 2 for bad input). Nothing here imports Streamlit."""

from __future__ import annotations

import sys

from scoring.cli import Parser, ProgressBar, guarded, scoring_arguments
from scoring.registry import families, get

from .cli import run


def build_parser() -> Parser:
    """One sub-command per family: its inputs and parameters as for its leaderboard, ``--out``, ``--compare``."""
    fams = families()
    p = Parser(prog="python -m lab.report", description="Write a family's view (data, parameters, leaderboard, "
                "charts) as one self-contained HTML file: no server, no network.")
    sub = p.add_subparsers(dest="family", required=True, parser_class=Parser,
                           metavar="{" + ",".join(f.name for f in fams) + "}")
    for fam in fams:
        rp = sub.add_parser(fam.name, help=f"write the {fam.title} view as one HTML file",
                            description=f"Score submissions with {fam.summary}; write a self-contained HTML report "
                                        "(no server, no network) of the data, the parameters, the leaderboard and "
                                        "charts.")
        scoring_arguments(rp, fam)
        rp.add_argument("--out", required=True, metavar="FILE", help="write the report (one HTML file) here")
        rp.add_argument("--compare", metavar="JSON", help="a second configuration B shown beside this one: a JSON "
                        "file (or text) of the parameter values that differ, e.g. '{\"alpha\": 10}' (default: none)")
    return p


def main(argv: list[str] | None = None) -> int:
    """``python -m lab.report``: exit 0 (the line naming the file on stderr), 2 for bad input, 1 for a bug."""
    args = build_parser().parse_args(argv)
    bar = ProgressBar()

    def write() -> int:
        print(run(get(args.family), args, bar), file=sys.stderr)
        return 0

    return guarded(write, bar=bar)


if __name__ == "__main__":
    sys.exit(main())

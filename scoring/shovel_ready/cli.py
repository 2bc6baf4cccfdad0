"""The Shovel-Ready ``boost`` command: the competitor's boost estimator (SPEC §8)."""

from __future__ import annotations

import sys

from ..core.export import json_value, to_csv, to_json
from ..core.sources import source_name
from ..core.tables import read_named_numbers
from .efficiency import efficiency_boost
from .params import PARAMS

BOOST_PARAMS = ("band", "max_boost", "window")


def configure_boost(p) -> None:
    p.add_argument("--scores", required=True, metavar="CSV", help="submission, score (finite, >= 0)")
    p.add_argument("--runtimes", required=True, metavar="CSV", help="submission, runtime (seconds > 0)")
    for name in BOOST_PARAMS:
        par = PARAMS[name]
        p.add_argument(par.flag, dest=name, default=None, help=f"{par.help} (default {par.default})")
    from ..cli import output_args

    output_args(p)


def run_boost(args) -> str:
    given = {k: getattr(args, k) for k in BOOST_PARAMS if getattr(args, k) is not None}
    v = PARAMS.validate(given)
    sname, rname = source_name(args.scores, "scores"), source_name(args.runtimes, "runtimes")
    scores = read_named_numbers(args.scores, sname, "score", positive=False)
    runtimes = read_named_numbers(args.runtimes, rname, "runtime", positive=True)
    unknown = sorted(set(runtimes) - set(scores))
    if unknown:
        print(f"warning: {rname}: {len(unknown)} row(s) for unknown submissions ignored", file=sys.stderr)
    table = efficiency_boost(scores, runtimes, band=v["band"], max_boost=v["max_boost"], window=v["window"])
    table = table[["submission", "score", "eligible", "boost", "final_score", "rank"]]
    if args.format == "csv":
        return to_csv(table, escape=not args.raw_names)
    rows = [{k: json_value(x) for k, x in r.items()} for r in table.to_dict("records")]
    return to_json({"parameters": {k: v[k] for k in BOOST_PARAMS}, "boost": rows})

"""``python -m lab.report <family> --out report.html [inputs and parameters as for
leaderboard]``: the stakeholder report (``lab.report``) from the command line. ``__main__.py``
declares the options (the leaderboard's, plus ``--out`` and ``--compare``) and calls :func:`run`;
nothing here imports Streamlit."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from scoring import cli_load
from scoring.core.errors import InputError
from scoring.core.family import Family
from scoring.core.jsonsafe import loads_bounded


def _compare_params(fam: Family, given: str, base: dict[str, Any], context) -> dict[str, Any]:
    if given.lstrip()[:1] in ("{", "["):  # the JSON itself
        label, text = "--compare", given
    else:  # a file holding it (a missing one: the command's one-line OSError message names it)
        label, text = given, Path(given).read_bytes()
    try:
        doc = loads_bounded(text, what=label)
    except InputError as e:
        raise InputError(label, None, f"expected a JSON object of parameter values ({e.problem})") from None
    if not isinstance(doc, dict):
        raise InputError(label, None, "expected a JSON object of parameter values")
    try:
        return fam.params.validate({**base, **doc}, context=context)
    except InputError as e:
        raise InputError(label, None, f"parameter {e.file}: {e.problem}") from None


def _resolved(item: Any) -> Any:
    """A source path made absolute (a ``(name, path)`` pair keeps its name), so that it is named
    relative to the working folder when inside it."""
    if isinstance(item, tuple):
        return (item[0], Path(item[1]).resolve())
    return Path(item).resolve()


def run(fam: Family, args: argparse.Namespace, progress) -> str:
    """Load, score and write the report; returns the line to print (to stderr)."""
    from scoring.core.robustness import bootstrap

    from .. import report

    out = Path(args.out)
    if out.is_dir():
        raise InputError(str(out), None, "is a folder: give a file name for the report")
    if not out.parent.is_dir():
        raise InputError(str(out), None, f"no folder {out.parent} to write the report in")
    comp, params = cli_load.load(fam, args, progress)
    context = fam.context(comp)
    sources = cli_load.sources(fam, args)
    params_b = _compare_params(fam, args.compare, params, context) if args.compare else None
    scorer = fam.scorer(comp)
    if hasattr(scorer, "progress"):
        scorer.progress = progress
    iv = info = None
    cli_extra: list[str] = []
    from scoring.cli import _top_k
    from scoring.core.robustness import INTERVAL_COLUMNS, SIMULTANEOUS_COLUMNS

    top_k = _top_k(args)
    if args.bootstrap is not None:
        seed = params.get("seed", getattr(args, "seed", 0))
        iv = bootstrap(scorer.unit_stats(**params), b=args.bootstrap, seed=seed, confidence=args.confidence)
        info = {"replicates": int(args.bootstrap), "seed": int(seed), "confidence": float(args.confidence),
                "unit": fam.unit, "top_k": top_k,
                "columns": INTERVAL_COLUMNS + (SIMULTANEOUS_COLUMNS if args.simultaneous else [])}
        cli_extra = ["--bootstrap", str(int(args.bootstrap)), "--confidence", f"{float(args.confidence):g}"]
        cli_extra += (["--simultaneous"] if args.simultaneous else []) + (["--top-k", str(top_k)] if top_k else [])
        if "seed" not in fam.params:
            cli_extra += ["--seed", str(int(seed))]
    here = Path.cwd().resolve()  # files are named from the folder the command ran in, never the machine's folders
    sources = {r: [_resolved(x) for x in v] if isinstance(v, list) else _resolved(v) for r, v in sources.items()}
    html = report.build_report(
        fam, comp, scorer, params, data=report.file_digests(fam, sources, roots=[here]),
        command=report.command_line(fam, sources, params, extra=cli_extra, roots=[here]), link=report.link(fam, params),
        params_b=params_b, intervals=iv, interval_info=info)
    try:
        out.write_text(html, encoding="utf-8")
    except OSError as e:  # a full disk: the write's error names no file
        raise InputError(str(out), None, f"cannot be written ({e.strerror or e})") from None
    return f"wrote {out} ({len(html.encode('utf-8')) / 1e6:.2f} MB)"

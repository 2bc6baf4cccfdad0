"""The entry points of an exported scoring program, one per platform (copied into the program
with :mod:`scoring.export.runtime`): Codabench/CodaLab's ``score.py INPUT OUTPUT``, the plain
command line and Python functions (with EvalAI's ``evaluate``), and Kaggle's ``score``.

Bad submissions take each platform's error path with the dashboard's message: exit 2 and one
line on stderr (Codabench, the command line), ``ParticipantVisibleError`` (Kaggle). Nothing
prints a traceback; a problem of the reference data names its file and row but not the
offending value (participants may see the scoring log), unless ``LBMETRIC_DEBUG=1``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from . import runtime
from .runtime import SubmissionError

DEBUG = "LBMETRIC_DEBUG"


def _reference_error(e: Exception) -> str:
    if os.environ.get(DEBUG) == "1":  # the organiser's own run: the whole story
        import traceback

        return "".join(traceback.format_exception(e))
    if isinstance(e, InputError):
        where = e.file if e.row is None else f"{e.file}, row {e.row}"
        return f"the reference data or the parameters have a problem ({where}); run with {DEBUG}=1 to see it"
    if isinstance(e, OSError):
        return f"the reference data could not be read ({type(e).__name__}: {e.strerror or e})"
    return f"internal error ({type(e).__name__}); run with {DEBUG}=1 to see it"


def score_files(ref: str | Path, submission: str | Path, spec: dict) -> dict[str, Any]:
    """Scores of one submission file (or the one file in a folder) against a reference folder."""
    ref = Path(ref)
    sources = runtime.reference_sources(ref, spec)
    if spec.get("field"):
        sources["field"] = runtime._from_folder(ref / spec["field"], spec["suffix"])
    return runtime.score(sources, runtime.submission_file(Path(submission), spec), spec)


def _run(fn) -> int:
    """``fn()``'s exit code, every error as one line on stderr."""
    try:
        fn()
    except SubmissionError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # the reference, the parameters or a bug: the organiser's problem
        print(f"error: {_reference_error(e)}", file=sys.stderr)
        return 1
    return 0


def codabench_parser() -> argparse.ArgumentParser:
    """The options of ``score.py`` (the Codabench/CodaLab program)."""
    p = argparse.ArgumentParser(prog="score.py", description="Score one submission (Codabench/CodaLab layout).")
    p.add_argument("input", nargs="?", default="input", help="the input folder (default ./input)")
    p.add_argument("output", nargs="?", default="output", help="where scores.json goes (default ./output)")
    p.add_argument("--ref", help="the reference data folder (default INPUT/ref)")
    p.add_argument("--res", help="the submission folder (default INPUT/res)")
    return p


def codabench_main(argv: list[str], spec: dict) -> int:
    """``score.py [INPUT] [OUTPUT] [--ref REF] [--res RES]``: the reference data in ``INPUT/ref``,
    the submission in ``INPUT/res``; writes ``OUTPUT/scores.json`` (Codabench) and
    ``OUTPUT/scores.txt`` (CodaLab Competitions), every stage a column."""
    args = codabench_parser().parse_args(argv)

    def go() -> None:
        ref = Path(args.ref or Path(args.input) / "ref")
        res = Path(args.res or Path(args.input) / "res")
        scores = runtime.json_scores(score_files(ref, res, spec))
        scores.pop("submission")
        out = Path(args.output)
        out.mkdir(parents=True, exist_ok=True)
        ordered = {k: scores[k] for k in spec["columns"]}
        (out / "scores.json").write_text(json.dumps(ordered) + "\n", encoding="utf-8")
        (out / "scores.txt").write_text("".join(f"{k}: {v!r}\n" for k, v in ordered.items()), encoding="utf-8")
        print(json.dumps(ordered))

    return _run(go)


def python_main(argv: list[str], spec: dict) -> int:
    """``metric.py REF SUBMISSION [SUBMISSION …]``: one JSON line of scores per submission."""
    p = argparse.ArgumentParser(prog="metric.py", description="Score submissions against the reference data.")
    p.add_argument("ref", help="the reference data folder")
    p.add_argument("submissions", nargs="+", help="submission files (or folders holding one)")
    args = p.parse_args(argv)

    def go() -> None:
        for s in args.submissions:
            print(json.dumps(runtime.json_scores(score_files(args.ref, s, spec))))

    return _run(go)


def evaluate(test_annotation_file: str, user_submission_file: str, phase_codename: str, spec: dict,
             **kwargs: Any) -> dict:
    """EvalAI's evaluation function: ``test_annotation_file`` is the reference folder (or a
    file inside it), ``user_submission_file`` the submission. Returns EvalAI's
    ``{"result": [{split: {column: score}}], "submission_result": …}``."""
    ref = Path(test_annotation_file)
    scores = runtime.json_scores(score_files(ref if ref.is_dir() else ref.parent, user_submission_file, spec))
    scores.pop("submission")
    split = kwargs.get("split", phase_codename)
    return {"result": [{split: scores}], "submission_result": scores}


def kaggle_score(solution, submission, row_id_column_name: str, spec: dict, extras: dict, error: type,
                 submission_name: str = "") -> float:
    """Kaggle's ``score``: the final stage's score, ``error`` (the module's
    ``ParticipantVisibleError``) for a bad submission."""
    solution = solution.drop(columns=[row_id_column_name], errors="ignore")
    submission = submission.drop(columns=[row_id_column_name], errors="ignore")
    name = submission_name or "submission"
    try:
        sources = runtime.kaggle_sources(solution, spec, extras)
        scores = runtime.score(sources, runtime.kaggle_submission(submission, spec, name), spec)
    except SubmissionError as e:
        raise error(str(e)) from None
    return float(scores[spec["columns"][0]])

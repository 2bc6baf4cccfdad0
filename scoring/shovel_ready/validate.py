"""Every problem of a Shovel-Ready bundle at once (``scoring.core.validate``): the ground
truth first, then each submission, the demographics and the runtimes, each on its own, every
file's problems row by row."""

from __future__ import annotations

from ..core.errors import InputError
from ..core.sources import expand_submissions, source_name
from ..core.validate import MAX_ERRORS, PER_FILE, table_errors
from .data import load_demographics, load_ground_truth_table, load_runtimes, parse_submission


def validate(*, ground_truth, submissions, demographics=None, runtimes=None, limit: int = MAX_ERRORS,
             progress=None) -> list[InputError]:
    """Up to ``limit`` problems of the bundle. Submissions and demographics are checked against
    the ground truth as far as it loads (its bad rows left out); without any ground truth only
    the runtimes can be checked besides it."""
    errors: list[InputError] = []

    def room() -> int:
        return min(PER_FILE, max(0, limit - len(errors)))

    name = source_name(ground_truth, "ground truth")
    found, gt = table_errors(lambda df: load_ground_truth_table(df, name, []), ground_truth, name, limit=room())
    errors += found
    try:
        subs = expand_submissions(submissions)
    except InputError as e:
        errors.append(e)
        subs = []
    if gt is not None:
        for _, src, disp in subs:
            if not room():
                break
            errors += table_errors(lambda df, disp=disp: parse_submission(df, disp, gt), src, disp, limit=room())[0]
        if demographics is not None and room():
            dname = source_name(demographics, "demographics")
            errors += table_errors(lambda df: load_demographics(df, dname, gt, []), demographics, dname,
                                   limit=room())[0]
    if runtimes is not None and room():
        rname, names = source_name(runtimes, "runtimes"), [n for n, _, _ in subs]
        errors += table_errors(lambda df: load_runtimes(df, rname, names, []), runtimes, rname, limit=room())[0]
    return errors[:limit]

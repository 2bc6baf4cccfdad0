"""Running the command lines in-process (``scoring.cli.main``, ``lab.report.cli.main``): what a
subprocess would see — exit code, stdout, stderr — without paying for a new interpreter."""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass

from scoring.cli import main


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def run_cli(*args: str) -> Result:
    """``python -m scoring *args``, in this process."""
    return _run(main, args)


def run_report(*args: str) -> Result:
    """``python -m lab.report *args``, in this process."""
    from lab.report.__main__ import main as report_main

    return _run(report_main, args)


def _run(entry, args) -> Result:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = entry([str(a) for a in args])
        except SystemExit as e:  # argparse: --help, usage errors
            code = e.code if isinstance(e.code, int) else 2
    return Result(code, out.getvalue(), err.getvalue())

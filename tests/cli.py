"""Running the command line in-process (``scoring.cli.main``): what a subprocess would see —
exit code, stdout, stderr — without paying for a new interpreter."""

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
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as e:  # argparse: --help, usage errors
            code = e.code if isinstance(e.code, int) else 2
    return Result(code, out.getvalue(), err.getvalue())

"""Errors and warnings of the engine."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: one line naming the file, the spreadsheet row (header = row 1) and the problem.

    >>> str(InputError("gt.csv", 7, "word index '3x' is not a non-negative integer"))
    "gt.csv, row 7: word index '3x' is not a non-negative integer"
    >>> str(InputError("--w", None, "expected a number in [0, 1], got 1.5"))
    '--w: expected a number in [0, 1], got 1.5'
    >>> InputError("a.csv", 3, "'id' is empty", column="id", value="").column
    'id'
    >>> import copy; e = copy.deepcopy(InputError("a.csv", 3, "bad", column="x"))  # via __reduce__, as a worker's
    >>> (e.file, e.row, e.problem, e.column)
    ('a.csv', 3, 'bad', 'x')
    """

    def __init__(self, file: str, row: int | None, problem: str, *, column: str | None = None,
                 value: str | None = None):
        self.file = str(file)
        self.row = row
        self.problem = " ".join(str(problem).split())
        #: the column and the whole offending cell, when the problem is one cell's (the message
        #: may shorten a long value; these never do)
        self.column = column
        self.value = value
        where = self.file if row is None else f"{self.file}, row {row}"
        super().__init__(f"{where}: {self.problem}")

    def __reduce__(self):  # picklable: a worker process (or a Dask worker) raises it in the caller
        return type(self), (self.file, self.row, self.problem), {"column": self.column, "value": self.value}


def parameter_error(name: str, expected: str, got) -> InputError:
    """An `InputError` for a bad parameter value (no file, no row)."""
    return InputError(name, None, f"expected {expected}, got {got!r}")

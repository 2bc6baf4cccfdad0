"""Size limits on every input, so that memory stays proportional to the valid data and no
single hostile cell, header or file can take the machine (README: "Limits").

Each can be raised for a trusted deployment with an environment variable of the same name
(``LAB_MAX_FILE_BYTES=2147483648``). A file over a limit is an :class:`InputError` naming
the file (and the row), before anything big is built from it.
"""

from __future__ import annotations

import os


def _env(name: str, default: int) -> int:
    try:
        return int(os.environ.get(f"LAB_{name}", default))
    except ValueError:
        return default


#: one input file (CSV, JSON or text), in bytes
MAX_FILE_BYTES = _env("MAX_FILE_BYTES", 512 << 20)
#: one CSV cell (a predictionstring, an answer, a text), in bytes
MAX_CELL_BYTES = _env("MAX_CELL_BYTES", 1 << 20)
#: columns of one CSV header
MAX_COLUMNS = _env("MAX_COLUMNS", 1000)
#: files in one upload bundle (the app) and their total size
MAX_BUNDLE_FILES = _env("MAX_BUNDLE_FILES", 2500)
MAX_BUNDLE_BYTES = _env("MAX_BUNDLE_BYTES", 2 << 30)
#: nesting depth of a JSON document from a user (arrays and objects), and the characters of
#: one number in it (Python itself refuses integers past 4,300 digits, deep nesting recurses)
MAX_JSON_DEPTH = _env("MAX_JSON_DEPTH", 100)
MAX_JSON_NUMBER_CHARS = _env("MAX_JSON_NUMBER_CHARS", 1000)
#: one recipe of the Custom family (JSON or TOML): a page of choices, never data
MAX_RECIPE_BYTES = _env("MAX_RECIPE_BYTES", 1 << 20)
#: distinct themes of a QA ground truth (the CSV has five columns per theme; the hidden-weight
#: draws cost themes × draws: 20,000 themes score in ~8 s, 100,000 would take ~40 s)
MAX_THEMES = _env("MAX_THEMES", 50_000)


def human(n: int) -> str:
    """``1048576`` → ``'1 MiB'``.

    >>> human(1 << 20), human(512 << 20), human(1536)
    ('1 MiB', '512 MiB', '1.5 KiB')
    """
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"

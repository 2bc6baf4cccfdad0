"""Size limits on every input, so that memory stays proportional to the valid data and no
single hostile cell, header or file can take the machine (README: "Limits").

Each can be raised for a trusted deployment with an environment variable of the same name
(``LAB_MAX_FILE_BYTES=2147483648``). A file over a limit is an :class:`InputError` naming
the file (and the row), before anything big is built from it.
"""

from __future__ import annotations

import os

from .errors import InputError


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


#: the counts a user gives, each checked before any work starts (README: "Limits"):
#: worker processes are clamped to the cores (``scoring.core.fanout.max_workers``); bootstrap
#: replicates and shake-up splits are 1 to 100,000 each; and where a family states the work of
#: scoring one field (``UnitStats.cost``, in steps of about a nanosecond: the Custom family, whose
#: pairwise rules cost teams² per item and whose ungrouped bootstrap units² × teams), fields × that
#: work is at most this (about ten seconds)
MAX_FIELDS_WORK = _env("MAX_FIELDS_WORK", 10_000_000_000)
#: the Custom family's pairwise rules (Copeland, Kemeny–Young) hold teams × teams numbers and
#: compare every pair of teams on every item: at most this many teams, and teams² × items at most
#: ``MAX_PAIRWISE_WORK`` (1,000 teams × 200 items: about a second)
MAX_PAIRWISE_TEAMS = _env("MAX_PAIRWISE_TEAMS", 1000)
MAX_PAIRWISE_WORK = _env("MAX_PAIRWISE_WORK", 200_000_000)


def check_fields(what: str, fields: int, cost: float) -> None:
    """Refuse, naming the count ``what`` (``bootstrap``, ``splits``), ``fields`` scorings of
    ``cost`` steps each past :data:`MAX_FIELDS_WORK` — before any work (``cost`` 0: not counted).

    >>> check_fields("bootstrap", 1000, 0)
    >>> check_fields("bootstrap", 1000, 5e7)
    Traceback (most recent call last):
    ...
    scoring.core.errors.InputError: bootstrap: 1,000 fields × 50,000,000 steps each = 50,000,000,000, over the limit of 10,000,000,000 (LAB_MAX_FIELDS_WORK raises it); ask for fewer, or make each field cheaper (group the units, fewer teams for a pairwise rule)
    """
    if cost and fields * cost > MAX_FIELDS_WORK:
        raise InputError(what, None, f"{fields:,} fields × {cost:,.0f} steps each = {fields * cost:,.0f}, over the "
                                     f"limit of {MAX_FIELDS_WORK:,} (LAB_MAX_FIELDS_WORK raises it); ask for fewer, or "
                                     "make each field cheaper (group the units, fewer teams for a pairwise rule)")


def human(n: int) -> str:
    """``1048576`` → ``'1 MiB'``.

    >>> human(1 << 20), human(512 << 20), human(1536)
    ('1 MiB', '512 MiB', '1.5 KiB')
    """
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"

"""The Data page's problems, told once per kind: problems of one file that say the same thing
but for the row, the column or the cell they name become one line with their count and the
first rows — 25 identical "the row has 12 fields" lines hid the one problem that mattered."""

from __future__ import annotations

import re
from collections.abc import Sequence

#: a quoted name or value, or a number: what differs between problems of one kind
_VARIES = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\d+(?:\.\d+)?")


def kind(problem: dict) -> tuple[str, str]:
    """The file and the problem with its quoted names, values and numbers masked.

    >>> kind({"File": "r.tsv", "Problem": "the cell of column 'A' is 'N/A', not a number"})
    ('r.tsv', 'the cell of column … is …, not a number')
    """
    return str(problem.get("File", "")), _VARIES.sub("…", str(problem.get("Problem", "")))


def collapse(problems: Sequence[dict], *, rows: int = 5) -> list[dict]:
    """One problem per kind (:func:`kind`), in the order each kind first appears: the first
    problem of the kind (its column and value), with ``Count`` (how many) and ``Row`` listing
    the first ``rows`` rows of the kind and how many there are in all.

    >>> ps = [{"File": "r", "Row": str(i), "Problem": f"the row has {i} fields"} for i in (2, 3, 4)]
    >>> [(p["Count"], p["Row"], p["Problem"]) for p in collapse(ps + [{"File": "r", "Row": "—", "Problem": "x"}])]
    [(3, '2, 3, 4', 'the row has 2 fields'), (1, '—', 'x')]
    """
    groups: dict[tuple[str, str], list[dict]] = {}
    for p in problems:
        groups.setdefault(kind(p), []).append(p)
    out = []
    for same in groups.values():
        first = dict(same[0])
        named = list(dict.fromkeys(str(p.get("Row", "—")) for p in same if str(p.get("Row", "—")) != "—"))
        if len(same) > 1 and named:
            shown = ", ".join(named[:rows])
            first["Row"] = shown + (f", … ({len(named)} rows in all)" if len(named) > rows else "")
        first["Count"] = len(same)
        out.append(first)
    return out


def count_line(problem: dict) -> str:
    """``"25 problems of this kind: "`` before a collapsed problem's text ('' for one)."""
    n = int(problem.get("Count", 1))
    return f"{n} problems of this kind (the first shown): " if n > 1 else ""

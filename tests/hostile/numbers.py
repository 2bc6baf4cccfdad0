"""Numbers at the edge of float, for every family (issue 39): ±1e308 in every numeric cell of
every input file, and integers of hundreds of digits in every numeric parameter.

:func:`bundle` writes a small valid bundle of a family into a folder; :func:`cell_cases` lists,
for every input file, every column (CSV) or field (JSON) that holds numbers, the damage
"1e308 in its first cell", "1e308 in all its cells" and the same with -1e308; :func:`damage`
applies one. :func:`param_cases` lists every numeric parameter of every family with the huge
integers it is given (a 400-digit one each way, the hex integer a TOML recipe makes).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from scoring import registry
from tests.hostile.test_families_corpus import MAKERS as OTHER_MAKERS
from tests.shovel_ready.tiny import tiny_files

EDGES = ("1e308", "-1e308")
MODES = ("first", "all")
#: integers past the largest float (inside the 1,000-character number limit): a JSON recipe's or a
#: link's, and the one ``alpha = 0x<300 hex digits>`` in a TOML recipe makes
BIG_INTS = {"400 nines": int("9" * 400), "minus 400 nines": -int("9" * 400), "hex 300": int("f" * 300, 16)}

CUSTOM_RESULTS = "Model,A - EM,B - EM,C - F1\nm1,0.5,0.4,0.9\nm2,0.3,0.9,0.2\nm3,0.7,0.1,0.6\n"
CUSTOM_UNITS = "unit,grp,size\nA - EM,g1,100\nB - EM,g1,20\nC - F1,g2,50\n"
CUSTOM_TEAMS = "team,runtime\nm1,10\nm2,20\nm3,15\n"


def _shovel(folder: Path) -> None:
    for rel, data in tiny_files().items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


def _custom(folder: Path) -> None:
    (folder / "results.csv").write_text(CUSTOM_RESULTS)
    (folder / "units.csv").write_text(CUSTOM_UNITS)
    (folder / "teams.csv").write_text(CUSTOM_TEAMS)


MAKERS = {"shovel-ready": _shovel, "custom": _custom, **OTHER_MAKERS}
#: the inputs each family's bundle gives (role -> path in the folder)
PATHS = {
    "shovel-ready": {"ground_truth": "ground_truth.csv", "submissions": "submissions", "demographics":
                     "demographics.csv", "runtimes": "runtimes.csv"},
    "custom": {"results": "results.csv", "units": "units.csv", "teams": "teams.csv"},
}


def bundle(family: str, folder: Path) -> dict[str, Path]:
    """Write the family's small valid bundle into ``folder``: ``{role: path}``."""
    folder.mkdir(parents=True, exist_ok=True)
    MAKERS[family](folder)
    if family in PATHS:
        return {role: folder / rel for role, rel in PATHS[family].items()}
    fam = registry.get(family)
    return {inp.role: folder / inp.path.rstrip("/") for inp in fam.inputs
            if inp.role != "train" and (folder / inp.path.rstrip("/")).exists()}


def _files(paths: dict[str, Path]) -> list[Path]:
    out = []
    for p in paths.values():
        out += sorted(q for q in p.iterdir() if q.is_file()) if p.is_dir() else [p]
    return out


def _is_number(text: str) -> bool:
    tokens = text.split()
    try:
        return bool(tokens) and all(float(t) == float(t) for t in tokens)
    except ValueError:
        return False


def _numeric_columns(data: str) -> list[str]:
    rows = list(csv.reader(io.StringIO(data)))
    header, body = rows[0], rows[1:]
    return [c for j, c in enumerate(header) if body and all(_is_number(r[j]) for r in body if j < len(r) and r[j])
            and any(j < len(r) and r[j] for r in body)]


def _json_fields(doc, path=()) -> set[tuple]:
    """The paths (keys, ``*`` for a list index) of every number in a JSON document."""
    if isinstance(doc, bool):
        return set()
    if isinstance(doc, (int, float)):
        return {path}
    if isinstance(doc, dict):
        return set().union(*(_json_fields(v, path + (k,)) for k, v in doc.items())) if doc else set()
    if isinstance(doc, list):
        return set().union(*(_json_fields(v, path + ("*",)) for v in doc)) if doc else set()
    return set()


def cell_cases() -> list[tuple[str, str, str, str, str]]:
    """``(family, file, column or field, edge, mode)`` for every numeric column of every input
    file of every family (the first file of a submissions folder), each edge, each mode."""
    import tempfile

    out = []
    with tempfile.TemporaryDirectory() as d:
        for family in sorted(MAKERS):
            paths = bundle(family, Path(d) / family)
            seen_dirs = set()
            for f in _files(paths):
                if f.parent != Path(d) / family:  # a submissions folder: its first file stands for all
                    if f.parent in seen_dirs:
                        continue
                    seen_dirs.add(f.parent)
                rel = str(f.relative_to(Path(d) / family))
                text = f.read_text(encoding="utf-8")
                fields = (sorted("/".join(map(str, p)) for p in _json_fields(json.loads(text)))
                          if f.suffix == ".json" else _numeric_columns(text))
                out += [(family, rel, col, edge, mode) for col in fields for edge in EDGES for mode in MODES]
    return out


def damage(path: Path, column: str, edge: str, mode: str) -> None:
    """Put ``edge`` into the first (or every) cell of ``column`` (a CSV column, or a JSON field
    path as :func:`cell_cases` names it) of the file at ``path``."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        doc = json.loads(text)
        keys = column.split("/")
        done = [False]

        def walk(node, depth):
            if depth == len(keys):
                return None
            k = keys[depth]
            children = enumerate(node) if k == "*" and isinstance(node, list) else \
                [(k, node[k])] if isinstance(node, dict) and k in node else []
            for i, child in children:
                if mode == "first" and done[0]:
                    return
                if depth == len(keys) - 1 and isinstance(child, (int, float)) and not isinstance(child, bool):
                    node[i] = float(edge)
                    done[0] = True
                else:
                    walk(child, depth + 1)

        walk(doc, 0)
        path.write_text(json.dumps(doc))
        return
    rows = list(csv.reader(io.StringIO(text)))
    j = rows[0].index(column)
    for r in rows[1:]:
        if j < len(r) and r[j]:
            r[j] = edge
            if mode == "first":
                break
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue())


def param_cases() -> list[tuple[str, str, str]]:
    """``(family, parameter, big integer's name)`` for every numeric parameter of every family."""
    out = []
    for fam in registry.families():
        for p in fam.params:
            if p.kind in ("float", "int", "floats", "mapping") or p.name in PARSED_NUMBERS.get(fam.name, ()):
                out += [(fam.name, p.name, name) for name in BIG_INTS]
    return out


#: parameters with a parser of their own that read numbers (the difficulty family's split weights)
PARSED_NUMBERS = {"difficulty": ("weights",)}


def big_value(fam, name: str, big: str):
    """The big integer as the parameter ``name`` takes it (a list, a mapping of the data's first item)."""
    p = fam.params[name]
    x = BIG_INTS[big]
    if p.kind == "floats":
        return [x]
    if p.kind == "mapping":
        return {"__first__": x}
    return x


def short(text: str) -> str:
    return re.sub(r"\s+", " ", text)[:300]

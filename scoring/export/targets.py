"""Each platform's files of an exported scoring program (docs/export.md):

* ``codabench``: ``scoring_program/`` (``metadata.yaml`` naming the command, ``score.py``,
  ``requirements.txt``, the engine package) and its zip, ``reference_data/`` and its zip, and
  ``competition.yaml``: the leaderboard fragment declaring every stage column with its sort order;
* ``kaggle``: ``metric.py``, one file to paste into a Kaggle metric notebook (the engine's
  modules embedded as text and imported from memory), ``solution.csv`` and ``requirements.txt``;
* ``python``: ``metric.py`` (module and command line, with EvalAI's ``evaluate``), the engine
  package, ``requirements.txt`` and ``reference_data/``.
"""

from __future__ import annotations

import base64
import json
import zipfile
import zlib
from pathlib import Path

from .build import PROGRAM, View, package_files

ZIP_DATE = (2020, 1, 1, 0, 0, 0)  # fixed member dates: the same export gives the same zip


def header(v: View, *, comment: str = "# ") -> str:
    """The program's header: what it computes, the parameters, the data digests, the commit and
    the date, as comment lines."""
    h = v.header
    lines = [f"Leaderboard Lab — exported scoring program: {h['title']} ({h['family']})",
             "Computes the dashboard's scores of one submission with the parameters below; the engine",
             f"modules in {PROGRAM}/ are the project's own, copied at export time.",
             f"Project commit: {h['commit']}", f"Exported: {h['exported']}"]
    if h["link"]:
        lines.append(f"The view: {h['link']}")
    lines.append("Parameters: " + json.dumps(h["parameters"], ensure_ascii=False))
    lines.append("Data the view was tuned on (SHA-256):")
    for d in h["data"]:
        where = "" if d.get("in_reference", True) else " (not in the reference data)"
        lines.append(f"  {d['role']}: {d['file']} ({d['bytes']:,} bytes) {d['sha256']}{where}")
    return "".join(f"{comment}{line}".rstrip() + "\n" for line in lines)


def _write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)


def _spec_literal(v: View) -> str:
    return json.dumps(v.spec, indent=1, ensure_ascii=True, sort_keys=True)


def _package(v: View, folder: Path) -> None:
    for rel, src in package_files(v).items():
        _write(folder / rel, src)
    _write(folder / "requirements.txt", "".join(r + "\n" for r in v.requirements))


def _reference(v: View, folder: Path) -> None:
    for f in v.reference + v.field:
        _write(folder / f.name, f.data)


def zip_folder(folder: Path, target: Path) -> Path:
    """``folder``'s files in a zip at ``target``, at the zip's root (as Codabench unpacks them)."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for f in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(f.relative_to(folder).as_posix(), ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, f.read_bytes())
    return target


_ENTRY = '''import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from {program}.export import program  # noqa: E402

#: the view: family, parameters (fixed), reference files by role, the Custom recipe
SPEC = json.loads(r"""{spec}""")
'''


def codabench(v: View, out: Path) -> list[Path]:
    prog, ref = out / "scoring_program", out / "reference_data"
    _package(v, prog)
    _write(prog / "score.py", "#!/usr/bin/env python3\n" + header(v) + '"""Codabench/CodaLab scoring program: '
           '``python3 score.py INPUT OUTPUT`` reads INPUT/ref and INPUT/res and writes OUTPUT/scores.json."""\n\n'
           + _ENTRY.format(program=PROGRAM, spec=_spec_literal(v))
           + '\nif __name__ == "__main__":\n    sys.exit(program.codabench_main(sys.argv[1:], SPEC))\n')
    meta = "command: python3 $program/score.py $input $output\ndescription: " + json.dumps(
        f"Leaderboard Lab {v.header['family']} metric, exported {v.header['exported']}") + "\n"
    _write(prog / "metadata.yaml", meta)
    _write(prog / "metadata", meta)  # CodaLab Competitions reads this name
    _reference(v, ref)
    _write(out / "competition.yaml", competition_yaml(v))
    return [zip_folder(prog, out / "scoring_program.zip"), zip_folder(ref, out / "reference_data.zip")]


def competition_yaml(v: View) -> str:
    """The ``leaderboards:`` fragment of a Codabench ``competition.yaml`` (version 2): one column
    per stage, the final score first (index 0: the ranking column), each with its sort order."""
    fam = v.family
    lines = ["# Leaderboard Lab: paste into your competition.yaml (Codabench, version: 2)",
             "# the keys are those score.py writes to scores.json", "leaderboards:",
             "  - index: 0", f"    title: {json.dumps(fam.title)}", "    key: main",
             "    submission_rule: \"Force_Last\"", "    columns:"]
    for i, sid in enumerate(v.spec["columns"]):
        st = fam.stage(sid)
        lines += [f"      - title: {json.dumps(st.label)}", f"        key: {sid}", f"        index: {i}",
                  f"        sorting: {'desc' if st.higher_is_better else 'asc'}", "        precision: 4"]
    return "\n".join(lines) + "\n"


def python(v: View, out: Path) -> list[Path]:
    _package(v, out)
    _write(out / "metric.py", "#!/usr/bin/env python3\n" + header(v) + '"""The exported metric as a module and a '
           'command line: ``python metric.py REF SUBMISSION…`` prints one JSON line of scores per submission;\n'
           '``score(ref, submission)`` returns them; ``evaluate(...)`` is EvalAI\'s signature."""\n\n'
           + _ENTRY.format(program=PROGRAM, spec=_spec_literal(v)) + _PYTHON_API)
    _reference(v, out / "reference_data")
    return []


_PYTHON_API = '''

def score(ref, submission):
    """``{"submission": name, <stage>: score, ...}`` of one submission file against the reference folder."""
    return program.runtime.json_scores(program.score_files(ref, submission, SPEC))


def evaluate(test_annotation_file, user_submission_file, phase_codename, **kwargs):
    """EvalAI's evaluation script signature (test_annotation_file: the reference folder)."""
    return program.evaluate(test_annotation_file, user_submission_file, phase_codename, SPEC, **kwargs)


if __name__ == "__main__":
    sys.exit(program.python_main(sys.argv[1:], SPEC))
'''


def _pack(obj) -> str:
    return base64.b64encode(zlib.compress(json.dumps(obj).encode("utf-8"), 9)).decode("ascii")


def kaggle(v: View, out: Path) -> list[Path]:
    """``metric.py`` for a Kaggle metric notebook, and the ``solution.csv`` it scores against."""
    files = {rel: src for rel, src in package_files(v).items()}
    modules = {}
    for rel, src in files.items():
        parts = rel[:-3].split("/")
        is_pkg = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_pkg else parts)
        modules[name] = [is_pkg, src]
    sol_role = v.spec["kaggle"]["solution_role"]
    joined = v.spec["kaggle"].get("joined")
    extras = {"files": {f.role: f.data.decode("utf-8") for f in v.reference
                        if f.role != sol_role and (not joined or f.role != joined["role"])},
              "field": {Path(f.name).stem: f.data.decode("utf-8") for f in v.field}}
    text = (header(v) + _KAGGLE.format(params=json.dumps(v.spec["params"], indent=1, ensure_ascii=True),
                                       link=v.header["link"] or "(exported from the command line)",
                                       spec=_spec_literal(v), modules=_pack(modules),
                                       extras=_pack(extras) if any(extras.values()) else "",
                                       program=PROGRAM, final=v.spec["columns"][0]))
    _write(out / "metric.py", text)
    _write(out / "requirements.txt", "".join(r + "\n" for r in v.requirements))
    sol = solution_csv(v)
    _write(out / "solution.csv", sol)
    tables = {"solution.csv": sol}
    # a participant's file has the shape of the field's (and of the one-table families' reference table)
    tables.update({Path(f.name).name: f.data for f in v.field + v.reference if f.name.endswith(".csv")})
    v.warnings = kaggle_changes(tables)
    if v.warnings:
        _write(out / "WARNINGS.txt", "Kaggle reads the solution and every submission with pandas' type guessing; "
               "these files change under it, so the scores on Kaggle may differ from the dashboard's:\n"
               + "".join(f"- {w}\n" for w in v.warnings))
    return []


def solution_csv(v: View) -> bytes:
    """Kaggle's solution file: the reference table the solution stands for (Shovel-Ready's ground
    truth with the demographic columns joined by essay id), with a ``row_id`` column first."""
    import io

    import pandas as pd

    kg = v.spec["kaggle"]
    main = next(f for f in v.reference if f.role == kg["solution_role"])
    if main.name.endswith(".json"):  # spotGEO: one row per frame, the coordinates as JSON text
        rows = json.loads(main.data)
        df = pd.DataFrame({"sequence_id": [r.get("sequence_id") for r in rows], "frame": [r.get("frame") for r in rows],
                           "num_objects": [r.get("num_objects") for r in rows],
                           "object_coords": [json.dumps(r.get("object_coords")) for r in rows]})
    else:
        sep = "\t" if main.name.endswith((".tsv", ".txt")) else ","
        df = pd.read_csv(io.BytesIO(main.data), dtype=str, keep_default_na=False, sep=sep,
                         quoting=3 if sep == "\t" else 0)
    joined = kg.get("joined")
    if joined:
        demo_file = next(f for f in v.reference if f.role == joined["role"])
        demo = pd.read_csv(io.BytesIO(demo_file.data), dtype=str, keep_default_na=False)
        df = df.merge(demo, on=joined["key"], how="left", sort=False)
    df.insert(0, "row_id", range(len(df)))
    return df.to_csv(index=False).encode("utf-8")


_KAGGLE = '''"""Paste this file into a Kaggle metric notebook (one cell). Kaggle calls ``score``.

All columns of the solution and submission are passed to the metric (Kaggle drops ``Usage``);
``row_id_column_name`` is dropped from both. The engine's modules are embedded below (base64 of
zlib-compressed text) and imported from memory: nothing is written to disk.
"""

import base64
import importlib.abc
import importlib.util
import json
import sys
import zlib

import pandas as pd

#: The parameters of the view, fixed. The view: {link}
PARAMETERS = json.loads(r"""{params}""")
SPEC = json.loads(r"""{spec}""")
SPEC["params"] = PARAMETERS


class ParticipantVisibleError(Exception):
    """A bad submission: Kaggle shows this message to the participant."""


_MODULES = json.loads(zlib.decompress(base64.b64decode("{modules}")).decode("utf-8"))
#: the rest of the reference data (tables besides the solution; the other teams' submissions
#: where a team's score depends on them)
_EXTRAS = "{extras}"


class _Embedded(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports the embedded engine modules from memory."""

    def find_spec(self, name, path=None, target=None):
        if name not in _MODULES:
            return None
        return importlib.util.spec_from_loader(name, self, is_package=_MODULES[name][0])

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        is_pkg, source = _MODULES[module.__name__]
        module.__file__ = "/{program}/" + module.__name__.replace(".", "/") + ("/__init__.py" if is_pkg else ".py")
        exec(compile(source, module.__file__, "exec"), module.__dict__)  # the project's own code, embedded


if not any(isinstance(f, _Embedded) for f in sys.meta_path):
    sys.meta_path.insert(0, _Embedded())

from {program}.export import program as _program  # noqa: E402
from {program}.export import runtime as _runtime  # noqa: E402


def score(solution: pd.DataFrame, submission: pd.DataFrame, row_id_column_name: str,
          submission_name: str = "") -> float:
    """The view's final score ({final}) of ``submission`` against ``solution``.

    ``submission_name`` names the team where its score depends on data kept by name (Shovel-Ready:
    its runtime in the reference runtimes; a team of the embedded field is replaced by it).
    Raises ParticipantVisibleError for a bad submission, with the dashboard's message."""
    return _program.kaggle_score(solution.copy(), submission.copy(), row_id_column_name, SPEC,
                                 _runtime.unpack(_EXTRAS), ParticipantVisibleError, submission_name)
'''


WRITERS = {"codabench": codabench, "kaggle": kaggle, "python": python}


def _same_cell(a: str, b: str) -> bool:
    """Whether pandas' reading kept a cell's meaning: the same text, or the same number written
    another way (``5`` read into a column with gaps is written back ``5.0``) — never a text
    that a number swallowed (``007`` → ``7``, ``NA`` → empty)."""
    if a == b:
        return True
    try:
        same = float(a) == float(b)
    except ValueError:
        return False
    digits = a.strip().lstrip("+-")
    return same and not (len(digits) > 1 and digits[0] == "0" and digits[1].isdigit())


def kaggle_changes(tables: dict[str, bytes]) -> list[str]:
    """What Kaggle's reading (pandas' ``read_csv`` with its type guessing) changes in each CSV:
    one sentence per file with a changed cell (its first), empty when every cell survives."""
    import io

    import pandas as pd

    out = []
    for name, data in tables.items():
        text = pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False, na_filter=False)
        guessed = pd.read_csv(io.BytesIO(data))
        back = pd.read_csv(io.BytesIO(guessed.to_csv(index=False).encode()), dtype=str, keep_default_na=False,
                           na_filter=False)
        if list(back.columns) != list(text.columns) or len(back) != len(text):
            out.append(f"{name}: pandas reads a different table (columns or rows)")
            continue
        for col in text.columns:
            bad = [i for i, (a, b) in enumerate(zip(text[col], back[col], strict=True)) if not _same_cell(a, b)]
            if bad:
                i = bad[0]
                out.append(f"{name}: Kaggle's reading changes {len(bad):,} cell(s) of column {col!r} "
                           f"(row {i + 2}: {text[col][i]!r} becomes {back[col][i]!r})")
                break
    return out

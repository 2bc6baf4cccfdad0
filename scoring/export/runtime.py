"""What an exported scoring program runs: copied into the program with the family's engine
modules (``scoring.export.closure``), never run from the dashboard itself.

One submission is scored the way the dashboard scores it: the family's own ``load`` reads the
reference files and the submission, its ``Scorer`` computes the leaderboard with the exported
parameters, and the submission's row is read from it. Where a team's score depends on the other
teams (Shovel-Ready's efficiency boost, every Custom recipe), the reference data carries the
*field* — the other submissions of the view the metric was tuned on — and the submission joins
it (replacing a field entry of the same name), so its scores are those the dashboard showed.

``spec`` (written by the exporter, a JSON object) names the family module, the parameters, the
reference files by role, where the field is, and the Custom recipe's text.
"""

from __future__ import annotations

import base64
import io
import json
from importlib import import_module
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.errors import InputError

_PACKAGE = __package__.rpartition(".")[0]  # the engine's package, whatever the program renamed it to


class SubmissionError(ValueError):
    """A bad submission: the message names the submission's file, row and problem (the
    dashboard's words) and nothing of the reference data."""


class _Named(io.BytesIO):
    """Bytes with a file name (what the loaders name in their messages)."""

    def __init__(self, data: bytes, name: str):
        super().__init__(data)
        self.name = name


def family(spec: dict) -> Any:
    """The family declaration (``FAMILY``) of the exported program."""
    return import_module(f"{_PACKAGE}.{spec['module']}.family").FAMILY


def recipe_source(spec: dict) -> _Named | None:
    r = spec.get("recipe")
    return None if r is None else _Named(r["text"].encode("utf-8"), r["name"])


def _from_folder(folder: Path, suffix: str) -> dict[str, Path]:
    files = sorted(f for f in folder.iterdir() if f.is_file() and f.suffix.lower() == suffix
                   and not f.name.startswith(".")) if folder.is_dir() else []
    return {f.stem: f for f in files}


def submission_file(res: Path, spec: dict) -> Path:
    """The one submission file in the folder ``res`` (or ``res`` itself when it is a file)."""
    if res.is_file():
        return res
    files = list(_from_folder(res, spec["suffix"]).values())
    if len(files) != 1:
        shown = ", ".join(f.name for f in files[:5]) or "none"
        raise SubmissionError(f"{res.name}: expected one {spec['suffix']} file in the submission, got "
                              f"{len(files)} ({shown})")
    return files[0]


def reference_sources(ref: Path, spec: dict) -> dict[str, Any]:
    """``{role: path}`` of the reference files present in the folder ``ref`` (and the recipe)."""
    out: dict[str, Any] = {}
    for role, rel in spec["reference"].items():
        p = ref / rel
        if p.is_file():
            out[role] = p
        elif role in spec.get("required", ()):
            raise FileNotFoundError(f"the reference data has no {rel}")
    if spec.get("recipe") is not None:
        out["recipe"] = recipe_source(spec)
    return out


def _team_rows(df: pd.DataFrame, key: str, name: str) -> list[str]:
    if key not in df.columns:
        raise SubmissionError(f"{name}: expected a column {key!r}, got {', '.join(map(str, df.columns))}")
    teams = list(dict.fromkeys(t.strip() for t in df[key].tolist()))  # cells are read stripped
    if len(teams) != 1:
        raise SubmissionError(f"{name}: expected the rows of one team in column {key!r}, got {len(teams)}")
    return teams


def merge_rows(field: pd.DataFrame, sub: pd.DataFrame, key: str, name: str) -> tuple[pd.DataFrame, str]:
    """The field's table with the submission's rows in place of its team's (at the team's first
    row; appended for a new team): ``(table, team)``. Both are text tables with the same columns."""
    if list(sub.columns) != list(field.columns):
        raise SubmissionError(f"{name}: expected the columns {', '.join(map(str, field.columns))}, got "
                              f"{', '.join(map(str, sub.columns))}")
    team = _team_rows(sub, key, name)[0]
    field, sub = field.copy(), sub.copy()
    field.attrs, sub.attrs = {}, {}  # a reader's row numbers: the loader numbers the merged table again
    mine = (field[key].str.strip() == team).to_numpy()
    if not mine.any():
        return pd.concat([field, sub], ignore_index=True), team
    first = int(mine.argmax())
    keep = field[~mine]
    before = int((~mine[:first]).sum())
    return pd.concat([keep.iloc[:before], sub, keep.iloc[before:]], ignore_index=True), team


def _text_table(src, name: str) -> pd.DataFrame:
    """A CSV's cells as text, exactly as written (no type guessing, no NA magic)."""
    data = src.read() if hasattr(src, "read") else Path(src).read_bytes()
    return pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False, na_filter=False)


def _merged(fam, spec: dict, ref: dict[str, Any], sub: Path | _Named) -> tuple[Any, str]:
    """The one table of every team with the submission's rows in place of its team's."""
    role, key = spec["submission_role"], spec["merge_key"]
    name = sub.name if isinstance(sub, _Named) else Path(sub).name
    data = sub.getvalue() if isinstance(sub, _Named) else Path(sub).read_bytes()
    field_name = Path(spec["reference"][role]).name
    if spec["module"] != "custom":  # one model's predictions are a file of their own: the app's messages
        alone = {r: v for r, v in ref.items() if r not in (role, "field")}
        _checked_load(fam, {**alone, role: _Named(data, name)}, name, spec)
    else:  # Custom's reader (CSV or tab-separated); its loader takes the table
        read = import_module(f"{_PACKAGE}.custom.reading").read_text_table
        table, team = merge_rows(read(ref[role], field_name), read(_Named(data, name), name), key, name)
        return table, team
    table, team = merge_rows(_text_table(ref[role], field_name), _text_table(_Named(data, name), name), key, name)
    return _Named(table.to_csv(index=False).encode("utf-8"), field_name), team


def _sources(fam, spec: dict, ref: dict[str, Any], sub: Path | _Named) -> tuple[dict[str, Any], str]:
    """The loader's keyword arguments with the submission in place, and the submission's name."""
    role = spec["submission_role"]
    sources = {r: v for r, v in ref.items() if r != "field"}
    if spec.get("merge_key"):  # one table for every team (difficulty's predictions, Custom's results)
        sources[role], team = _merged(fam, spec, ref, sub)
        return sources, team
    stem = Path(sub.name).stem
    subs: dict[str, Any] = dict(ref.get("field", {})) if spec.get("field") else {}
    subs[stem] = sub  # in place of a field entry of the same name, or after the field
    sources[role] = subs
    return sources, stem


def _checked_load(fam, sources: dict[str, Any], sub_name: str, spec: dict):
    try:
        return fam.load(**sources, **({"workers": 1} if fam.parallel else {}))
    except InputError as e:
        if e.file == sub_name:
            raise SubmissionError(str(e)) from None
        raise


def score(ref: dict[str, Any], sub: Path | _Named, spec: dict) -> dict[str, Any]:
    """``{"submission": name, <stage id>: score, …}`` of the submission ``sub`` against the
    reference sources ``ref`` (:func:`reference_sources`, with ``field``: ``{name: path}``).

    Raises
    ------
    SubmissionError
        For a bad submission (the dashboard's message, naming the submission's file).
    InputError
        For bad reference data or parameters (the organiser's problem).
    """
    fam = family(spec)
    sources, name = _sources(fam, spec, ref, sub)
    sub_name = sub.name if isinstance(sub, _Named) else Path(sub).name
    try:
        comp = _checked_load(fam, sources, sub_name, spec)
    except InputError as e:  # the merged table's problem: the submission's, when the field alone loads
        role = spec["submission_role"]
        if not spec.get("merge_key") or e.file not in (Path(spec["reference"][role]).name, role):
            raise
        _checked_load(fam, {r: v for r, v in ref.items() if r != "field"}, sub_name, spec)
        raise SubmissionError(f"{sub_name}: {e.problem}") from None
    params = fam.params.validate(spec["params"], context=fam.context(comp))
    lb = fam.scorer(comp).leaderboard(**params)
    row = lb[lb["submission"] == name].iloc[0]
    out = {"submission": name}
    for st in fam.stages:
        out[st.id] = row[st.id]
    return out


def json_scores(scores: dict[str, Any]) -> dict[str, Any]:
    """The scores as strict JSON values (floats written by ``repr``: bit for bit)."""
    from ..core.export import json_value

    return {k: json_value(v) for k, v in scores.items()}


# ---- Kaggle: the solution and the submission as DataFrames -----------------------------------

def _csv_bytes(df: pd.DataFrame) -> bytes:
    return df.to_csv(index=False).encode("utf-8")


def _spotgeo_json(df: pd.DataFrame, name: str) -> bytes:
    """A spotGEO JSON array from a table of ``sequence_id, frame, num_objects, object_coords``
    (the coordinates as JSON text in their cell), every number's text kept."""
    need = ["sequence_id", "frame", "num_objects", "object_coords"]
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise SubmissionError(f"{name}: expected the columns {', '.join(need)}, got {', '.join(map(str, df.columns))}")
    cells = df[need].astype(str).to_numpy()
    parts = [f'{{"sequence_id": {s}, "frame": {f}, "num_objects": {n}, "object_coords": {c}}}' for s, f, n, c in cells]
    return ("[" + ",\n".join(parts) + "]").encode("utf-8")


def kaggle_sources(solution: pd.DataFrame, spec: dict, extras: dict[str, Any]) -> dict[str, Any]:
    """The reference sources from Kaggle's solution frame and the data embedded in the module
    (``extras``: ``{role: text}``, ``field``: ``{name: text}``)."""
    kg = spec["kaggle"]
    out: dict[str, Any] = {}
    main = kg["solution_role"]
    fname = Path(spec["reference"][main]).name
    if spec["module"] == "spotgeo":
        out[main] = _Named(_spotgeo_json(solution, fname), fname)
    else:
        cols = [c for c in kg.get("solution_columns") or solution.columns if c in solution.columns]
        out[main] = _Named(_csv_bytes(solution[cols]), fname)
    joined = kg.get("joined")  # Shovel-Ready: the demographics, joined to the ground truth by id
    if joined and all(c in solution.columns for c in joined["columns"]):
        key = joined["key"]
        demo = solution[[key, *joined["columns"]]].drop_duplicates(key)
        out[joined["role"]] = _Named(_csv_bytes(demo), Path(spec["reference"][joined["role"]]).name)
    for role, text in extras.get("files", {}).items():
        out[role] = _Named(text.encode("utf-8"), Path(spec["reference"][role]).name)
    if extras.get("field"):
        out["field"] = {n: _Named(t.encode("utf-8"), f"{n}{spec['suffix']}") for n, t in extras["field"].items()}
    if spec.get("recipe") is not None:
        out["recipe"] = recipe_source(spec)
    return out


def kaggle_submission(submission: pd.DataFrame, spec: dict, name: str) -> _Named:
    fname = f"{name}{spec['suffix']}"
    if spec["module"] == "spotgeo":
        return _Named(_spotgeo_json(submission, fname), fname)
    return _Named(_csv_bytes(submission), fname)


def unpack(blob: str) -> dict[str, Any]:
    """Data embedded in a program: base64 of zlib-compressed JSON."""
    import zlib

    return json.loads(zlib.decompress(base64.b64decode(blob)).decode("utf-8")) if blob else {}

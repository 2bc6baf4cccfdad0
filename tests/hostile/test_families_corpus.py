"""The hostile corpus for the three newer families (issue 28): every input file of spotGEO, QA
and difficulty damaged the ways careless and hostile files are — truncated, re-encoded
(UTF-16, Latin-1, a BOM), NUL bytes, CRLF, duplicate ids, non-finite and overlong numbers,
empty and header-only files, markup and ``../`` in names — through the Python API and the
command line. Each either loads and scores with finite ranks, or is refused by one line naming
the file (exit 2); nothing else.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from scoring import InputError, registry
from tests.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]


# ---- small, valid data per family (cut from the samples) --------------------------------------
def _qa(folder: Path) -> None:
    sample = ROOT / "sample_data" / "qa"
    gt = pd.read_csv(sample / "ground_truth.csv", dtype=str, keep_default_na=False).groupby("theme").head(3)
    gt.to_csv(folder / "ground_truth.csv", index=False)
    (folder / "submissions").mkdir()
    for name in ("deep-reader", "word-salad"):
        sub = pd.read_csv(sample / "submissions" / f"{name}.csv", dtype=str, keep_default_na=False)
        sub[sub["question_id"].isin(gt["question_id"])].to_csv(folder / "submissions" / f"{name}.csv", index=False)
    (folder / "theme_weights.csv").write_bytes((sample / "theme_weights.csv").read_bytes())


def _difficulty(folder: Path) -> None:
    sample = ROOT / "sample_data" / "difficulty" / "sst-2"
    samples = pd.read_csv(sample / "samples.csv", dtype=str, keep_default_na=False).head(30)
    samples.to_csv(folder / "samples.csv", index=False)
    pred = pd.read_csv(sample / "predictions.csv", dtype=str, keep_default_na=False)
    pred[pred["sample_id"].isin(samples["sample_id"])].to_csv(folder / "predictions.csv", index=False)


SPOT_GT = [
    {"sequence_id": 1, "frame": f, "num_objects": 2, "object_coords": [[10.5 + f, 20], [300, 400.25 - f]]}
    for f in range(1, 6)
] + [{"sequence_id": 2, "frame": f, "num_objects": 1, "object_coords": [[50, 60 + f]]} for f in range(1, 6)]


def _spotgeo(folder: Path) -> None:
    (folder / "ground_truth.json").write_text(json.dumps(SPOT_GT))
    (folder / "submissions").mkdir()
    near = [dict(e, object_coords=[[x + 1, y] for x, y in e["object_coords"]]) for e in SPOT_GT]
    miss = [dict(e, num_objects=0, object_coords=[]) for e in SPOT_GT]
    (folder / "submissions" / "near.json").write_text(json.dumps(near))
    (folder / "submissions" / "miss.json").write_text(json.dumps(miss))


MAKERS = {"qa": _qa, "difficulty": _difficulty, "spotgeo": _spotgeo}


# ---- the damage -------------------------------------------------------------------------------
def _lines(f: Callable[[list[bytes]], list[bytes]]) -> Callable[[bytes], bytes]:
    return lambda data: b"".join(f(data.splitlines(keepends=True)))


def _first_number(data: bytes, new: bytes) -> bytes:
    """The first cell/value that reads as a number with a fractional part, replaced by ``new``."""
    import re
    m = re.search(rb"(?<=[,\[ ])-?\d+\.\d+", data)
    return data if m is None else data[:m.start()] + new + data[m.end():]


DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "truncated": lambda d: d[: len(d) // 2],
    "utf16": lambda d: d.decode("utf-8").encode("utf-16"),
    "latin1": lambda d: (d.decode("utf-8") + "").replace("a", "é", 1).encode("latin-1", "replace"),
    "bom": lambda d: b"\xef\xbb\xbf" + d,
    "nul": lambda d: d[: len(d) // 3] + b"\x00" + d[len(d) // 3:],
    "crlf": lambda d: d.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"),
    "duplicate_row": _lines(lambda ls: ls[:2] + ls[1:]),
    "nan": lambda d: _first_number(d, b"NaN"),
    "inf": lambda d: _first_number(d, b"Infinity" if d.lstrip()[:1] == b"[" else b"inf"),
    "1e400": lambda d: _first_number(d, b"1e400"),
    "5000_digits": lambda d: _first_number(d, b"9" * 5000),
    "empty": lambda d: b"",
    "header_only": _lines(lambda ls: ls[:1]),
    "deep_json": lambda d: b"[" * 100_000 + b"]" * 100_000,
    "markup": lambda d: d.replace(b"a", b"<script>alert(1)</script>[x](https://e.example)", 1),
}


def _inputs(fam) -> list[tuple[str, str]]:
    """(role, relative path of one file of that role) for the family's inputs in a tiny folder."""
    out = []
    for inp in fam.inputs:
        if inp.role == "train":
            continue
        out.append((inp.role, inp.path.rstrip("/")))
    return out


CASES = [(name, role, path, damage) for name in MAKERS for role, path in _inputs(registry.get(name))
         for damage in DAMAGE]


def _build(tmp_path: Path, family: str, path: str, damage: str) -> tuple[Path, str]:
    folder = tmp_path / family
    folder.mkdir()
    MAKERS[family](folder)
    target = folder / path
    if target.is_dir():  # a submissions folder: damage its first file
        target = sorted(target.iterdir())[0]
    target.write_bytes(DAMAGE[damage](target.read_bytes()))
    return folder, target.name


def _sources(fam, folder: Path) -> dict:
    return {inp.role: str(folder / inp.path.rstrip("/")) for inp in fam.inputs
            if (folder / inp.path.rstrip("/")).exists() and inp.role != "train"}


def _files(folder: Path) -> list[str]:
    return [p.name for p in folder.rglob("*") if p.is_file()]


@pytest.mark.parametrize("family", sorted(MAKERS))
def test_the_undamaged_data_loads_and_scores(tmp_path, family):
    fam = registry.get(family)
    folder = tmp_path / family
    folder.mkdir()
    MAKERS[family](folder)
    lb = fam.scorer(fam.load(**_sources(fam, folder))).leaderboard()
    assert len(lb) == 2 or family == "difficulty" and len(lb) == 10
    _finite_ranks(fam, lb)


def _finite_ranks(fam, lb: pd.DataFrame) -> None:
    for stage in fam.stages:
        if stage.rank in lb:
            ranks = lb[stage.rank].to_numpy(dtype=float)
            assert all(math.isfinite(r) and r >= 1 for r in ranks), (stage.rank, ranks)


@pytest.mark.parametrize(("family", "role", "path", "damage"), CASES)
def test_api_loads_or_names_the_file(tmp_path, family, role, path, damage):
    fam = registry.get(family)
    folder, name = _build(tmp_path, family, path, damage)
    try:
        comp = fam.load(**_sources(fam, folder))
        lb = fam.scorer(comp).leaderboard()
    except InputError as err:
        text = str(err)
        assert "\n" not in text and err.problem, text
        # it names the damaged file, or another file of the bundle that the damage contradicts
        assert any(f in text for f in (name, *_files(folder))), (name, text)
        return
    _finite_ranks(fam, lb)


@pytest.mark.parametrize(("family", "role", "path", "damage"), CASES)
def test_command_line_exits_0_or_2_with_one_line(tmp_path, family, role, path, damage):
    fam = registry.get(family)
    folder, name = _build(tmp_path, family, path, damage)
    args = [family, "leaderboard"]
    for inp in fam.inputs:
        p = folder / inp.path.rstrip("/")
        if p.exists() and inp.role != "train":
            args += [inp.flag, str(p)]
    if family == "difficulty":
        args += ["--metric", "wmprob"]  # the one option the command line requires
    res = run_cli(*args, "--format", "json")
    assert res.returncode in (0, 2), (res.returncode, res.stderr[-500:])
    assert "Traceback" not in res.stderr and ".py:" not in res.stderr, res.stderr[-500:]
    if res.returncode == 2:
        errors = [line for line in res.stderr.splitlines() if line.startswith("error:")]
        assert len(errors) == 1 and any(f in errors[0] for f in (name, *_files(folder))), res.stderr[-500:]
    else:
        doc = json.load(io.StringIO(res.stdout))
        assert doc["leaderboard"], doc


@pytest.mark.parametrize("family", sorted(MAKERS))
def test_names_with_markup_and_dot_dot_stay_as_given(tmp_path, family):
    """A submission named with markup (or ``..``) is scored under that very name."""
    fam = registry.get(family)
    folder = tmp_path / family
    folder.mkdir()
    MAKERS[family](folder)
    subs = folder / "submissions"
    if not subs.is_dir():  # difficulty: the models are the teams, named in a column
        pred = pd.read_csv(folder / "predictions.csv", dtype=str, keep_default_na=False)
        pred["model"] = pred["model"].where(pred["model"] != pred["model"].iloc[0], "<b>x</b> [..](../y)")
        pred.to_csv(folder / "predictions.csv", index=False)
        name = "<b>x</b> [..](../y)"
    else:
        first = sorted(subs.iterdir())[0]
        name = "<b>x<\\b> [..]..x"  # a file name holds no "/"
        first.rename(subs / f"{name}{first.suffix}")
    lb = fam.scorer(fam.load(**_sources(fam, folder))).leaderboard()
    assert name in set(lb["submission"].astype(str)), lb["submission"].tolist()

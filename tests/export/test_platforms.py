"""The exported scoring program run as each platform runs it (a fresh virtual environment with
only its requirements.txt, the platform's folder layout) gives the dashboard's scores bit for
bit — on every family's sample and on 20 seeded random competitions each — and a bad
submission takes the platform's error path without a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.export import export
from scoring.registry import get
from tests.export import platform
from tests.export.cases import FAMILIES, dashboard, random_case, sample_case, stage_values

pytestmark = pytest.mark.slow
SEEDS = 20


@pytest.fixture(scope="session")
def venvs(tmp_path_factory):
    """One fresh environment per distinct requirements.txt, built once per session."""
    made: dict[str, Path] = {}

    def get_python(requirements: Path) -> Path:
        key = requirements.read_text()
        if key not in made:
            made[key] = platform.make_venv(tmp_path_factory.mktemp("venv"), requirements)
        return made[key]

    return get_python


def _cases(name: str, root: Path):
    yield sample_case(name, root / "sample")
    for seed in range(SEEDS):
        yield random_case(name, seed, root / f"seed{seed}")


def _check(case, got: dict[str, dict], where: str) -> None:
    want = dashboard(case)
    assert set(got) == set(case.entries), where
    for name, scores in got.items():
        assert {k: repr(scores[k]) for k in stage_values(case.family, want[name])} == \
            stage_values(case.family, want[name]), f"{where}: {name}"


@pytest.mark.parametrize("name", FAMILIES)
def test_codabench_and_python_bit_identical(name, tmp_path, venvs):
    fam = get(name)
    n = 0
    for case in _cases(name, tmp_path / "data"):
        out = tmp_path / f"out-{case.label}"
        cb = export(fam, case.sources, case.params, target="codabench", out=out / "cb").folder
        py = venvs(cb / "scoring_program" / "requirements.txt")
        got = {}
        for entry, path in case.entries.items():
            work = tmp_path / "run"
            got[entry] = platform.codabench_scores(platform.codabench(py, cb, path, work), work)
        assert list(json.loads((work / "output" / "scores.json").read_text())) == \
            [fam.final.id] + [s.id for s in fam.stages if s.id != fam.final.id]  # the final score first
        _check(case, got, f"codabench {name} {case.label}")
        pt = export(fam, case.sources, case.params, target="python", out=out / "py").folder
        run = platform.python_cli(venvs(pt / "requirements.txt"), pt, list(case.entries.values()))
        assert run.returncode == 0, run.stderr
        lines = [json.loads(line) for line in run.stdout.splitlines()]
        assert [d["submission"] for d in lines] == list(case.entries)
        _check(case, {d["submission"]: d for d in lines}, f"python {name} {case.label}")
        n += 1
    assert n == SEEDS + 1


@pytest.mark.parametrize("name", FAMILIES)
def test_kaggle_bit_identical(name, tmp_path, venvs):
    """Kaggle reads the CSVs with pandas' type guessing: a competition whose files that changes
    is exported with a warning (tested in test_export.py); 20 random ones that pass unchanged, and
    the sample, score bit for bit."""
    fam = get(name)
    done, seed = [], 0
    cases = [sample_case(name, tmp_path / "sample")]
    while len(done) < SEEDS + 1 and seed < 200:
        case = cases.pop() if cases else random_case(name, seed, tmp_path / f"seed{seed}")
        if case.label != "sample":
            seed += 1
        e = export(fam, case.sources, case.params, target="kaggle", out=tmp_path / "out")
        if e.view.warnings:
            assert case.label != "sample", e.view.warnings
            continue
        run = platform.kaggle(venvs(e.folder / "requirements.txt"), e.folder, case.entries)
        assert run.returncode == 0, run.stderr
        got = [json.loads(line) for line in run.stdout.splitlines()]
        want = dashboard(case)
        for d in got:
            assert "error" not in d, d
            assert repr(d["score"]) == repr(want[d["submission"]][fam.final.id]), f"{case.label}: {d}"
        assert len(got) == len(case.entries)
        done.append(case.label)
    assert len(done) == SEEDS + 1, done


BAD = {  # a submission each family refuses, and a word of the message
    "shovel-ready": ("bad.csv", b"id,class,predictionstring\nE1,Lead,1 2 x\n", "bad.csv"),
    "spotgeo": ("bad.json", b'[{"sequence_id": 1, "frame": 1, "num_objects": 2, "object_coords": [[1, 2]]}]', "bad.json"),
    "qa": ("bad.csv", b"question_id,answer\nq1,yes\n", "bad.csv"),
    "difficulty": ("bad.csv", b"model,sample_id,predicted\nm,nope,1\n", "bad.csv"),
    "custom": ("bad.tsv", b"Model\tNot a unit\nnew model\t0.5\n", "bad.tsv"),
}


@pytest.mark.parametrize("name", FAMILIES)
def test_bad_submission_takes_the_platform_error_path(name, tmp_path, venvs):
    fam = get(name)
    case = sample_case(name, tmp_path / "sample")
    fname, data, word = BAD[name]
    bad = tmp_path / fname
    bad.write_bytes(data)
    cb = export(fam, case.sources, case.params, target="codabench", out=tmp_path / "cb").folder
    run = platform.codabench(venvs(cb / "scoring_program" / "requirements.txt"), cb, bad, tmp_path / "run")
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith("error: ") and word in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "run" / "output" / "scores.json").exists()
    kg = export(fam, case.sources, case.params, target="kaggle", out=tmp_path / "kg").folder
    bad_csv = bad if name != "custom" else bad.with_suffix(".csv")
    if name == "custom":
        bad_csv.write_bytes(data.replace(b"\t", b","))
    run = platform.kaggle(venvs(kg / "requirements.txt"), kg, {"bad": bad_csv} if name != "spotgeo" else {"bad": bad})
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert "error" in got and "Traceback" not in got["error"], got

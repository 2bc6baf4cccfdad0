"""The exporter's pieces: the module closure (no UI, minimal, the imports renamed), merging a
team's rows, Kaggle's reading check, the header, the size, and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile

import pandas as pd
import pytest

from scoring.cli import main
from scoring.export import closure as cl
from scoring.export import export
from scoring.export.build import PROGRAM, roots
from scoring.export.runtime import SubmissionError, merge_rows
from scoring.export.targets import kaggle_changes
from scoring.registry import get
from tests.export.cases import FAMILIES, dashboard, sample_case, stage_values

ALLOWED_AT_LOAD = {"numpy", "pandas", "pyarrow", "scipy"}


@pytest.mark.parametrize("name", FAMILIES)
def test_closure_has_no_ui_and_only_allowed_packages(name):
    c = cl.closure(roots(get(name)))
    assert not [m for m in c.modules if m.split(".")[1:2] in (["cli"], ["registry"])]
    assert all("lab" not in m.split(".") and "streamlit" not in m for m in c.modules)
    assert {n for n, at_load in c.third_party.items() if at_load} <= ALLOWED_AT_LOAD
    others = {"shovel_ready", "spotgeo", "qa", "difficulty", "custom"} - {get(name).load.package.rpartition(".")[2]}
    used = {m.split(".")[1] for m in c.modules if m.count(".") >= 1}
    # another family's modules only where this one imports them (Custom borrows Shovel-Ready's boost)
    assert used & others <= ({"shovel_ready"} if name == "custom" else set())


def _fake_engine(tmp_path, body: str):
    pkg = tmp_path / "scoring"
    (pkg / "fam").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "fam" / "__init__.py").write_text("from .a import X\n")
    (pkg / "fam" / "a.py").write_text(body)
    (pkg / "fam" / "b.py").write_text("Y = 1\n")
    return tmp_path


def test_closure_catches_a_ui_import_even_inside_a_function(tmp_path, monkeypatch):
    monkeypatch.setattr(cl, "ROOT", _fake_engine(tmp_path, "def f():\n    import streamlit\n") / "scoring")
    with pytest.raises(ValueError, match="streamlit"):
        cl.closure(["scoring.fam.a"])


def test_closure_stubs_packages_and_follows_relative_imports(tmp_path, monkeypatch):
    monkeypatch.setattr(cl, "ROOT", _fake_engine(tmp_path, "from .b import Y\nimport numpy\n") / "scoring")
    c = cl.closure(["scoring.fam.a"])
    assert set(c.modules) == {"scoring", "scoring.fam", "scoring.fam.a", "scoring.fam.b"}
    assert c.stubs == {"scoring", "scoring.fam"}  # nothing imports a name of the packages themselves
    assert c.third_party == {"numpy": True}
    assert c.files()["fam/__init__.py"] == cl.STUB


def test_rewrite_renames_only_import_statements():
    src = 'import scoring.core\nfrom scoring.core.x import y  # scoring.core stays in comments\n"""scoring.z"""\n' \
          "from .rel import q\n"
    out = cl.rewrite(src, "lbmetric")
    assert out.splitlines() == ["import lbmetric.core", "from lbmetric.core.x import y  # scoring.core stays in comments",
                                '"""scoring.z"""', "from .rel import q"]


def test_merge_rows_replaces_in_place_and_appends_a_new_team():
    field = pd.DataFrame({"team": ["a", "b", "b", "c"], "v": ["1", "2", "3", "4"]})
    merged, team = merge_rows(field, pd.DataFrame({"team": [" b"], "v": ["9"]}), "team", "s.csv")
    assert team == "b" and merged["v"].tolist() == ["1", "9", "4"]
    merged, team = merge_rows(field, pd.DataFrame({"team": ["z"], "v": ["5"]}), "team", "s.csv")
    assert team == "z" and merged["v"].tolist() == ["1", "2", "3", "4", "5"]
    with pytest.raises(SubmissionError, match="one team"):
        merge_rows(field, pd.DataFrame({"team": ["a", "b"], "v": ["1", "2"]}), "team", "s.csv")
    with pytest.raises(SubmissionError, match="expected the columns"):
        merge_rows(field, pd.DataFrame({"team": ["a"], "w": ["1"]}), "team", "s.csv")


def test_kaggle_changes_flags_swallowed_text_not_number_spelling():
    assert kaggle_changes({"a.csv": b"id,x\n007,1\n8,2\n"})[0].startswith("a.csv: Kaggle's reading changes 1 cell")
    assert kaggle_changes({"a.csv": b"id,x\nNA,1\nb,2\n"})  # NA becomes missing
    assert kaggle_changes({"a.csv": b"id,x\na,5\nb,\n"}) == []  # 5 -> 5.0 in a column with a gap: the same number
    assert kaggle_changes({"a.csv": b"id,x\na,0.50\nb,1e3\n"}) == []


def test_export_header_requirements_size_and_zip(tmp_path):
    case = sample_case("qa", tmp_path / "d")
    e = export(get("qa"), case.sources, case.params, target="codabench", out=tmp_path / "o", commit="abc123",
               link="http://x/qa_leaderboard?time_threshold=150")
    score_py = (e.folder / "scoring_program" / "score.py").read_text()
    assert "# Project commit: abc123" in score_py and "http://x/qa_leaderboard" in score_py
    assert '"time_threshold": 200.0' in score_py
    import hashlib

    gt = hashlib.sha256(case.sources["ground_truth"].read_bytes()).hexdigest()
    assert f"ground_truth.csv (15,530 bytes) {gt}" in score_py
    reqs = (e.folder / "scoring_program" / "requirements.txt").read_text().split()
    assert [r.split("==")[0] for r in reqs] == ["numpy", "pandas", "pyarrow"] and all("==" in r for r in reqs)
    with zipfile.ZipFile(e.folder / "scoring_program.zip") as z:
        names = z.namelist()
    assert "metadata.yaml" in names and "score.py" in names and f"{PROGRAM}/qa/scorer.py" in names
    assert not any("lab/" in n or "streamlit" in n for n in names)
    program = sum(p.stat().st_size for p in (e.folder / "scoring_program").rglob("*") if p.is_file())
    assert program < 5_000_000
    yaml = (e.folder / "competition.yaml").read_text()
    assert "key: final_score" in yaml and "sorting: desc" in yaml


def test_spotgeo_columns_sort_ascending(tmp_path):
    case = sample_case("spotgeo", tmp_path / "d")
    e = export(get("spotgeo"), case.sources, case.params, target="codabench", out=tmp_path / "o")
    yaml = (e.folder / "competition.yaml").read_text()
    assert yaml.index("key: score") < yaml.index("key: mse") and yaml.count("sorting: asc") == 2


@pytest.mark.parametrize("name", ["qa", "custom", "difficulty"])
def test_python_program_bit_identical_on_the_sample(name, tmp_path):
    """The exported program (this environment's packages) against the dashboard's JSON; the
    fresh-environment runs of every platform are in test_platforms.py (slow)."""
    case = sample_case(name, tmp_path / "d")
    e = export(get(name), case.sources, case.params, target="python", out=tmp_path / "o")
    run = subprocess.run([sys.executable, str(e.folder / "metric.py"), str(e.folder / "reference_data"),
                          *map(str, case.entries.values())], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    want = dashboard(case)
    for line in run.stdout.splitlines():
        got = json.loads(line)
        assert {k: repr(got[k]) for k in stage_values(name, want[got["submission"]])} == \
            stage_values(name, want[got["submission"]])
    # a deliberately different parameter set must not match (the test can fail)
    other = {**case.params, **{"qa": {"time_threshold": 20.0}, "custom": {"across": "mean"},
                               "difficulty": {"penalty": 0.0}}[name]}
    e2 = export(get(name), case.sources, get(name).params.validate(other, context=get(name).context(
        get(name).load(**case.sources))), target="python", out=tmp_path / "o2")
    run2 = subprocess.run([sys.executable, str(e2.folder / "metric.py"), str(e2.folder / "reference_data"),
                           *map(str, case.entries.values())], capture_output=True, text=True, cwd=tmp_path)
    assert run2.returncode == 0 and run2.stdout != run.stdout


def test_command_line_export_and_its_errors(tmp_path, capsys):
    d = get("qa").sample_dir
    args = ["qa", "export", "--ground-truth", str(d / "ground_truth.csv"), "--submissions", str(d / "submissions"),
            "--target", "kaggle", "--out", str(tmp_path / "k")]
    assert main(args) == 0
    text = (tmp_path / "k" / "metric.py").read_text()
    assert "class ParticipantVisibleError(Exception)" in text and "def score(solution: pd.DataFrame" in text
    assert main(args) == 0  # an earlier export is replaced
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("x")
    assert main([*args[:-1], str(tmp_path / "other")]) == 2  # never over someone's files
    assert "expected an empty folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main([*args[:-4], "--target", "nowhere", "--out", str(tmp_path / "n")])
    assert e.value.code == 2


def test_an_import_with_an_import_error_fallback_is_left_out(tmp_path, monkeypatch):
    """``try: from . import b`` with ``except ImportError``: the code runs without it, so the
    closure leaves the module (and its third-party imports) out; a plain import is followed."""
    body = "def f():\n    try:\n        from . import b\n    except ImportError:\n        b = None\n    return b\n"
    root = _fake_engine(tmp_path, body) / "scoring"
    (root / "fam" / "b.py").write_text("import numba\nY = 1\n")
    monkeypatch.setattr(cl, "ROOT", root)
    c = cl.closure(["scoring.fam.a"])
    assert "scoring.fam.b" not in c.modules and "numba" not in c.third_party
    (root / "fam" / "a.py").write_text("def f():\n    from . import b\n    return b\n")
    c = cl.closure(["scoring.fam.a"])
    assert "scoring.fam.b" in c.modules and c.third_party.get("numba") is True


def test_shovel_ready_exports_without_its_compiled_pass():
    """The exported Shovel-Ready program leaves numba's pass out; every file then goes to the
    general reader, which gives the same table."""
    c = cl.closure(roots(get("shovel-ready")))
    assert "scoring.shovel_ready.kernels" not in c.modules and "numba" not in c.third_party
    assert "scoring.shovel_ready.fastscan" in c.modules


def test_spotgeo_exports_without_its_compiled_loops():
    """The exported spotGEO program leaves numba's kernels out and runs their numpy twins."""
    c = cl.closure(roots(get("spotgeo")))
    assert "scoring.spotgeo.kernels" not in c.modules and "numba" not in c.third_party
    assert "scoring.spotgeo.matching" in c.modules

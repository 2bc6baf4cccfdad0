"""Running an exported program the way each platform runs it: a fresh virtual environment
with only the program's ``requirements.txt`` (pip may use the local PyPI mirror), the
platform's folder layout, one process per submission (Codabench) or per batch (Kaggle's
metric calls, the plain command line)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

#: Kaggle's side: the solution and each submission read with pandas' defaults, ``score`` called
KAGGLE_DRIVER = r'''
import importlib.util, json, os, sys
import pandas as pd
spec = importlib.util.spec_from_file_location("metric", sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
solution = pd.read_csv(sys.argv[2])
for name, path in json.loads(sys.argv[3]).items():
    if path.endswith(".json"):  # spotGEO on Kaggle: a CSV with the coordinates as JSON text
        rows = json.load(open(path))
        table = pd.DataFrame({k: [r[k] for r in rows] for k in ("sequence_id", "frame", "num_objects")})
        table["object_coords"] = [json.dumps(r["object_coords"]) for r in rows]
        path = os.path.join(sys.argv[4], os.path.basename(path) + ".csv")  # never beside the original
        table.to_csv(path, index=False)
    submission = pd.read_csv(path, sep="\t" if path.endswith(".tsv") else ",")
    try:
        print(json.dumps({"submission": name, "score": m.score(solution.copy(), submission, "row_id", submission_name=name)}))
    except m.ParticipantVisibleError as e:
        print(json.dumps({"submission": name, "error": str(e)}))
'''


def make_venv(folder: Path, requirements: Path) -> Path:
    """A fresh environment with only ``requirements`` installed; its python."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    py = folder / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "-r", str(requirements)], check=True,
                   env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    return py


def _clean_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LBMETRIC_DEBUG")}
    return env


def codabench(py: Path, export: Path, submission: Path, work: Path) -> subprocess.CompletedProcess:
    """One Codabench run: ``program/`` (the scoring program zip unpacked), ``input/ref`` (the
    reference data zip unpacked), ``input/res`` (the submission), ``output/``; the command of
    ``metadata.yaml`` with ``$program``, ``$input`` and ``$output`` replaced."""
    if work.exists():
        shutil.rmtree(work)
    for zname, dest in (("scoring_program.zip", work / "program"), ("reference_data.zip", work / "input" / "ref")):
        shutil.unpack_archive(export / zname, dest)
    (work / "input" / "res").mkdir(parents=True)
    shutil.copy(submission, work / "input" / "res" / submission.name)
    meta = (work / "program" / "metadata.yaml").read_text()
    command = meta.split("command:", 1)[1].splitlines()[0].strip()
    words = [w.replace("$program", str(work / "program")).replace("$input", str(work / "input"))
             .replace("$output", str(work / "output")) for w in command.split()]
    assert words[0] == "python3"
    return subprocess.run([str(py), *words[1:]], capture_output=True, text=True, cwd=work, env=_clean_env())


def codabench_scores(run: subprocess.CompletedProcess, work: Path) -> dict:
    assert run.returncode == 0, run.stderr
    return json.loads((work / "output" / "scores.json").read_text())


def python_cli(py: Path, export: Path, submissions: list[Path]) -> subprocess.CompletedProcess:
    return subprocess.run([str(py), str(export / "metric.py"), str(export / "reference_data"), *map(str, submissions)],
                          capture_output=True, text=True, env=_clean_env(), cwd=export)


def kaggle(py: Path, export: Path, entries: dict[str, Path]) -> subprocess.CompletedProcess:
    return subprocess.run([str(py), "-c", KAGGLE_DRIVER, str(export / "metric.py"), str(export / "solution.csv"),
                           json.dumps({k: str(v) for k, v in entries.items()}), str(export)], capture_output=True, text=True,
                          env=_clean_env(), cwd=export)

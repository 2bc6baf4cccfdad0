"""The command line imports no heavy module it does not use: ``scipy.stats`` (over half a
second to import) and ``scipy.optimize`` load on first use, so ``python -m scoring
leaderboard`` without ``--bootstrap`` never pays for them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("scipy.stats", "scipy.optimize")


def _modules_after(code: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-c", code + "\nimport sys; print('\\n'.join(sys.modules))"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return set(proc.stdout.split())


def test_the_command_line_leaves_scipy_stats_unimported():
    loaded = _modules_after("import scoring.cli; scoring.cli.build_parser(); import scoring; scoring.families()")
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_a_leaderboard_from_the_command_line_does_not_import_scipy_stats():
    d = ROOT / "sample_data" / "competition"
    argv = ["shovel-ready", "leaderboard", "--ground-truth", str(d / "ground_truth.csv"), "--submissions",
            str(d / "submissions"), "--demographics", str(d / "demographics.csv"), "--runtimes", str(d / "runtimes.csv"),
            "--format", "json"]
    code = ("import scoring.cli, contextlib, io\n"
            "out = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n"
            f"    assert scoring.cli.main({argv!r}) == 0\n"
            "assert '\"leaderboard\"' in out.getvalue()\n")
    loaded = _modules_after(code)
    assert "scipy.stats" not in loaded


def test_the_functions_that_need_scipy_stats_still_get_it():
    from scoring.core.robustness import joint_band
    from scoring.core.stability import kendall_tau_b

    assert kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)  # (5 concordant − 1 discordant) / 6 pairs
    assert np.isnan(kendall_tau_b([1, 1], [1, 2]))
    # joint_band ranks the replicates with scipy's rankdata. Its docstring's hand computation:
    # replicates 0..19 in one column and reversed in another keep the values 1..18 at 0.9
    r = np.arange(20.0)
    low, high = joint_band(np.stack([r, 19 - r], axis=1)[:, None, :], 0.9)
    assert low.tolist() == [[1.0, 1.0]] and high.tolist() == [[18.0, 18.0]]


def test_a_spotgeo_worker_reads_and_pairs_a_file_without_pandas():
    # what a worker process of spotGEO's load runs: its task's module, the ground truth, one
    # submission read, aligned and paired. pandas (and scipy) are never imported for it, so a
    # new worker starts in about half the time
    d = ROOT / "sample_data" / "spotgeo"
    sub = sorted((d / "submissions").glob("*.json"))[0]
    code = ("import scoring.core.fanout\n"
            "from scoring.spotgeo.competition import load_ground_truth, prepare_submission\n"
            f"gt = load_ground_truth({str(d / 'ground_truth.json')!r}, report=[])\n"
            f"s = prepare_submission('a', {str(sub)!r}, 'a.json', gt)\n"
            "assert len(s.p) > 0\n")
    loaded = _modules_after(code)
    assert "pandas" not in loaded and "scipy" not in loaded, sorted(m for m in loaded if m.startswith(("pandas", "scipy")))


def test_the_package_names_load_on_first_use():
    code = ("import sys, scoring\n"
            "assert 'pandas' not in sys.modules\n"
            "assert 'Scorer' in dir(scoring) and 'load_competition' in scoring.__all__\n"
            "from scoring import Scorer, families, load_competition\n"
            "assert scoring.spotgeo.Scorer.__module__ == 'scoring.spotgeo.scorer'\n"  # a subpackage not imported before
            "assert scoring.core.rank is scoring.core.ranking.rank\n"
            "import scoring.spotgeo as sg\n"
            "assert sg.FAMILY.name == 'spotgeo' and sg.PARAMS is not None\n"
            "try:\n"
            "    scoring.no_such_name\n"
            "except AttributeError as e:\n"
            "    assert 'no_such_name' in str(e)\n"
            "else:\n"
            "    raise SystemExit('no AttributeError')\n")
    _modules_after(code)

"""Every benchmark answers ``--help`` with its usage (exit 0), and an unknown name is one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NAMES = sorted(p.stem.replace("_", "-") for p in (ROOT / "benchmarks").glob("*.py") if not p.stem.startswith("_"))


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmarks", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_the_list_names_every_benchmark():
    out = bench("--list")
    assert out.returncode == 0
    assert out.stdout.split() == NAMES
    assert {"shovel-ready", "scale", "hostile", "robustness", "spotgeo", "qa", "difficulty"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_help_prints_the_usage(name):
    out = bench(name, "--help")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage:") and "Traceback" not in out.stderr


def test_an_unknown_benchmark_is_one_line():
    out = bench("nope")
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "unknown benchmark 'nope'" in out.stderr


def test_versus_judges_wall_and_cpu_apart():
    sys.path.insert(0, str(ROOT))
    from benchmarks._timing import Times
    from benchmarks.versus import ratio_lines

    ref, own = Times(), Times()
    for w, c in ((10.0, 10.0), (12.0, 12.0)):
        ref.add(w, c)
    for w, c in ((0.08, 0.16), (0.10, 0.20)):  # two threads: half the wall time of its CPU time
        own.add(w, c)
    (line,) = ratio_lines(ref, own, 100, "FP1")
    # 10 / 0.08 = 125x in wall time, 10 / 0.16 = 62.5x in CPU time
    assert "125.0x at the minimum" in line and "CPU   62.5x" in line
    assert line.endswith("(target >= 100x at the minimum: wall ok, CPU MISSED)")


def test_timed_charges_a_call_the_work_of_its_worker_processes():
    """A call whose work is done by a live worker process (as loky's workers are) is charged
    that CPU time, which ``time.process_time`` alone would not see."""
    sys.path.insert(0, str(ROOT))
    from benchmarks._timing import timed

    burn = "import sys, time\nt = time.process_time()\nwhile time.process_time() - t < 0.4: pass\n" \
           "print('done', flush=True)\nsys.stdin.read()"
    child = None

    def call():
        nonlocal child
        child = subprocess.Popen([sys.executable, "-c", burn], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline().strip() == "done"  # the worker has done its work and stays alive

    try:
        wall, cpu, _ = timed(call)
    finally:
        child.communicate("")
    assert cpu >= 0.35, cpu  # the worker's 0.4 s (clock ticks of 10 ms), not this process's wait
    assert wall >= 0.35


def test_finals_against_a_folder_that_is_no_checkout_stops_before_generating(tmp_path, capsys):
    from benchmarks import finals

    with pytest.raises(SystemExit) as e:
        finals.main(["--against", str(tmp_path), "--data", str(tmp_path / "data")])
    assert e.value.code == 2
    assert "expected a checkout of this project" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()  # nothing generated

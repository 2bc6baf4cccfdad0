"""Issue 39's reproducers on the engine and the command line: a count of workers from a user,
teams² shapes and long tables (memory checked by counts or under a subprocess memory limit,
never by timing), the upload clean-up in a shared folder, a one-team Custom table, and the minor
items. Each fails on the code before the issue; the app's side is in ``test_issue39_app.py``,
the numbers at the edge of float in ``test_edge_numbers.py``."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import scoring
from lab.data import uploads
from scoring import InputError, registry
from scoring.core import fanout, limits
from scoring.core.robustness import bootstrap, leave_one_out
from scoring.core.shakeup import shakeup
from scoring.custom import data as custom_data
from scoring.custom import rules
from tests.shovel_ready.tiny import tiny_files

ROOT = Path(__file__).resolve().parents[2]
CUSTOM = registry.get("custom")


def _table(n_teams: int, n_units: int, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    head = "team," + ",".join(f"u{j}" for j in range(n_units))
    rows = [f"t{i}," + ",".join(f"{x:.4f}" for x in rng.random(n_units)) for i in range(n_teams)]
    return ("\n".join([head, *rows]) + "\n").encode()


def _cli_limited(args: list, gib: float = 2.0, timeout: float = 120) -> subprocess.CompletedProcess:
    """``python -m scoring <args>`` with its address space limited to ``gib`` GiB (the issue's
    2 GiB: a run that would pass it fails with a MemoryError, exit 1, instead of exit 2)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (int(gib * 2 ** 30),) * 2)
    return subprocess.run([sys.executable, "-m", "scoring", *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          preexec_fn=limit, timeout=timeout)


def _one_error(res) -> str:
    assert res.returncode == 2, (res.returncode, res.stderr[-600:])
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in res.stderr, res.stderr[-600:]
    return errors[0]


# ---- item 1: worker processes from a user ----------------------------------------------------
def _double(shared, item):
    return 2 * item


def test_fan_out_never_asks_for_more_workers_than_cores(monkeypatch):
    asked = []

    def fake(fn, items, shared, workers, backend, window, setup, chunk):
        asked.append(workers)
        yield from (fn(shared, x) for x in items)

    monkeypatch.setattr(fanout, "_joblib", fake)
    assert list(fanout.fan_out(_double, range(64), shared=None, workers=100_000, min_items=1)) == \
        [2 * x for x in range(64)]
    assert asked and max(asked) <= fanout.max_workers() == len(os.sched_getaffinity(0))
    monkeypatch.setenv("LAB_WORKERS", "100000")
    assert fanout.default_workers() == fanout.max_workers()


def test_workers_100000_on_the_command_line_is_clamped_and_said(monkeypatch, tmp_path, capsys):
    asked = []

    def fake(fn, items, shared, workers, backend, window, setup, chunk):
        asked.append(workers)
        yield from (fn(shared, x) for x in items)

    monkeypatch.setattr(fanout, "_joblib", fake)
    monkeypatch.setattr(fanout, "in_worker", lambda: False)
    for rel, data in tiny_files().items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    from scoring.cli import main
    code = main(["leaderboard", "--ground-truth", str(tmp_path / "ground_truth.csv"), "--submissions",
                 str(tmp_path / "submissions"), "--workers", "100000"])
    err = capsys.readouterr().err
    assert code == 0 and f"warning: --workers 100,000: using {fanout.max_workers()}, the cores" in err, err
    assert all(w <= fanout.max_workers() for w in asked), asked


# ---- item 6: teams², the ungrouped bootstrap, long and wide tables ----------------------------
@pytest.mark.parametrize("across", ["copeland", "kemeny"])
def test_pairwise_rules_on_12000_teams_are_refused_before_any_work(tmp_path, across):
    """Copeland / Kemeny on 12,000 teams × 1 unit passed 2 GiB in 6–10 s: now exit 2, under 2 GiB."""
    path = tmp_path / "r.csv"
    path.write_bytes(_table(12_000, 1))
    line = _one_error(_cli_limited(["custom", "leaderboard", "--results", path, "--across", across]))
    assert line.startswith("error: across: ") and "12,000 teams, over the limit of 1,000" in line, line


def test_pairwise_work_limit_counts_teams_squared_times_items(monkeypatch):
    comp = CUSTOM.load(results=_table(30, 12))
    monkeypatch.setattr(limits, "MAX_PAIRWISE_WORK", 30 * 30 * 12 - 1)
    with pytest.raises(InputError, match=r"^across: Copeland compares every pair of teams on every item: 30² teams "
                                         r"× 12 items = 10,800"):
        CUSTOM.scorer(comp).leaderboard(across="copeland")
    assert CUSTOM.scorer(comp).leaderboard(across="borda")["rank"].min() == 1  # a rank rule without pairs


def test_an_ungrouped_bootstrap_of_2000_teams_is_refused_before_it_builds_anything(tmp_path):
    """2,000 teams × 200 ungrouped units with --bootstrap 1000 passed 2 GiB in 2–5 s."""
    path = tmp_path / "r.csv"
    path.write_bytes(_table(2_000, 200))
    line = _one_error(_cli_limited(["custom", "leaderboard", "--results", path, "--bootstrap", "1000"]))
    assert line.startswith("error: bootstrap: 200 ungrouped units x 2,000 teams") and "160,000,000" in line, line


def test_fields_times_their_cost_is_checked_before_a_bootstrap_or_a_shakeup(monkeypatch):
    scorer = CUSTOM.scorer(CUSTOM.load(results=_table(14, 40)))
    us = scorer.unit_stats(across="kemeny")
    # the cost by hand: 40 units × 14 teams × 80 numbers + 50,000 + 20·14·40 + 14²·40 + 10,000·40 + 200,000·14
    assert us.cost == 40 * 14 * 80 + 50_000 + 20 * 14 * 40 + 14 * 14 * 40 + 10_000 * 40 + 200_000 * 14
    monkeypatch.setattr(limits, "MAX_FIELDS_WORK", int(us.cost * 100))
    called = []
    monkeypatch.setattr("scoring.core.robustness.resample_counts", lambda *a, **k: called.append(1))
    with pytest.raises(InputError, match=r"^bootstrap: 101 fields"):
        bootstrap(us, b=101)
    with pytest.raises(InputError, match=r"^splits: 102 fields"):
        shakeup(us, 0.3, 51)
    assert not called  # refused before the replicates were drawn


def test_a_long_table_costs_tens_of_bytes_a_row():
    """A long table cost ~330 bytes of Python objects a row (a dict of every (team, unit, metric)):
    3 M rows took 1.5 GiB and 58 s. Counted with tracemalloc (numpy's arrays and Python's
    objects): under 160 bytes a row now (codes and arrow's cast)."""
    rows = [f"t{t},u{u},{(7 * t + u) % 1000 / 1000:.3f}" for t in range(400) for u in range(250)]
    text = ("team,unit,value\n" + "\n".join(rows) + "\n").encode()
    tracemalloc.start()
    try:
        res = custom_data.load_results(text, "r.csv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert res.values.shape == (400, 250) and res.values[3, 5] == pytest.approx((21 + 5) % 1000 / 1000)
    assert peak / len(rows) < 160, peak / len(rows)


def test_the_cell_limit_is_checked_from_the_line_count_before_parsing(monkeypatch):
    monkeypatch.setattr(custom_data, "MAX_CELLS", 1000)
    called = []
    monkeypatch.setattr(custom_data, "read_text_table", lambda *a, **k: called.append(1))
    with pytest.raises(InputError, match=r"^r.csv: the results hold up to 101 rows x 11 columns = 1,111 cells"):
        custom_data.load_results(_table(101, 10), "r.csv")
    rows = "".join(f"t{i},u,1\n" for i in range(1001))
    with pytest.raises(InputError, match=r"^r.csv: the results hold up to 1,001 rows = 1,001 cells"):
        custom_data.load_results(f"team,unit,value\n{rows}".encode(), "r.csv")
    assert not called


# ---- item 8: a one-team Custom table -------------------------------------------------------
@pytest.mark.parametrize("across", ["winrate", "borda", "mean", "copeland", "kemeny"])
def test_leave_one_out_and_a_bootstrap_of_one_team(across):
    us = CUSTOM.scorer(CUSTOM.load(results=b"Model,A,B\nonly,0.5,0.4\n")).unit_stats(across=across)
    assert leave_one_out(us).empty  # nobody left to move
    assert rules.beat_counts(np.zeros((0, 2)))[0].shape == (0, 2)
    assert list(bootstrap(us, b=20).index) == ["only"]


# ---- item 7: the upload clean-up in a shared folder -----------------------------------------
def _old(path: Path, days: float = 30) -> None:
    t = time.time() - days * 86400
    os.utime(path, (t, t), follow_symlinks=False)


def test_clean_up_in_a_shared_folder_deletes_only_what_the_app_made(tmp_path, monkeypatch):
    shared, outside = tmp_path / "shared", tmp_path / "outside"
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(shared))
    ours = "a" * 64
    uploads.save("qa", ours, {"ground_truth": ("gt.csv", b"x")})
    # another tool's folders in the shared root, 64-hex named and old
    foreign = [shared / "other-tool" / ("b" * 64), shared / "qa" / ("c" * 64), shared / "qa" / ".part-foreign"]
    for f in foreign:
        f.mkdir(parents=True)
        (f / "data.bin").write_bytes(b"theirs")
        _old(f)
    # links in the root and in the family folder to folders outside it
    for name in ("d" * 64, ".part-outside", "e" * 64):
        (outside / name).mkdir(parents=True)
        (outside / name / "data.bin").write_bytes(b"outside")
        _old(outside / name)
    (shared / "linked-family").symlink_to(outside, target_is_directory=True)
    (shared / "qa" / ("e" * 64)).unlink(missing_ok=True)
    os.symlink(outside / ("e" * 64), shared / "qa" / ("f" * 64))
    _old(shared / "qa" / ("f" * 64))
    _old(shared / "qa" / ours)
    uploads.prune()
    for f in foreign:
        assert (f / "data.bin").read_bytes() == b"theirs", f
    for name in ("d" * 64, ".part-outside", "e" * 64):
        assert (outside / name / "data.bin").read_bytes() == b"outside", name
    assert (shared / "qa" / ("f" * 64)).is_symlink()
    assert not (shared / "qa" / ours).exists()  # the app's own old bundle goes
    # delete() by digest never removes a folder the app did not make (a link, or another tool's)
    assert not uploads.delete("qa", "f" * 64) and (outside / ("e" * 64) / "data.bin").exists()
    assert not uploads.delete("qa", "c" * 64) and (shared / "qa" / ("c" * 64) / "data.bin").exists()


def test_a_family_folder_the_app_did_not_make_is_not_taken(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    (shared / "qa").mkdir(parents=True)
    (shared / "qa" / "theirs.txt").write_text("another tool's")
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(shared))
    assert not uploads.save("qa", "a" * 64, {"ground_truth": ("gt.csv", b"x")})  # not kept: the upload still works
    assert sorted(p.name for p in (shared / "qa").iterdir()) == ["theirs.txt"]


# ---- item 9: the minor items -----------------------------------------------------------------
def test_a_recipe_s_inputs_units_is_refused():
    with pytest.raises(InputError, match=r"^recipe: unknown key inputs.units \(known: results, teams"):
        CUSTOM.load(results=b"Model,A\nx,1\ny,2\n", recipe={"inputs": {"units": {"anything": 1}}})


def test_numbering_duplicates_passes_over_a_real_team_s_name():
    comp = CUSTOM.load(results=b"Model,A\nalpha,1\nalpha,2\nalpha (2),3\n",
                       recipe={"inputs": {"results": {"duplicates": "number"}}})
    assert comp.submission_names == ["alpha", "alpha (3)", "alpha (2)"]  # the real "alpha (2)" keeps its name


def test_a_recipe_s_group_by_is_checked_against_the_data(tmp_path):
    (tmp_path / "r.csv").write_text("Model,A\nx,1\ny,2\n")
    (tmp_path / "recipe.json").write_text('{"stages": {"group_by": "nope"}}')
    line = _one_error(_cli_limited(["custom", "leaderboard", "--results", tmp_path / "r.csv", "--recipe",
                                    tmp_path / "recipe.json"]))
    assert line == "error: recipe.json: stages.group_by: expected one of none, got 'nope'", line


def test_kemeny_in_many_fields_is_exact_only_up_to_ten_teams(monkeypatch):
    """14 teams × 40 units took 33 s for 1,000 shake-up splits (the exact solution in each): the
    exact one is kept for the leaderboard, the approximation where many fields are scored."""
    scorer = CUSTOM.scorer(CUSTOM.load(results=_table(14, 40)))
    lb = scorer.leaderboard(across="kemeny")
    assert any("exact (dynamic programme; 14 teams" in n and "APPROXIMATION beyond 10 teams" in n
               for n in lb.attrs["notes"])
    assert any("Kemeny-Young is exact on this leaderboard (14 teams)" in w for w in scorer.warnings(across="kemeny"))
    sizes = []
    real = rules.kemeny_exact
    monkeypatch.setattr(rules, "kemeny_exact", lambda p: sizes.append(len(p)) or real(p))
    shakeup(scorer.unit_stats(across="kemeny"), 0.3, 20)
    assert len(sizes) <= 1  # the full data's board alone; the 40 boards of the splits by the local search
    sizes.clear()
    small = CUSTOM.scorer(CUSTOM.load(results=_table(9, 5)))
    shakeup(small.unit_stats(across="kemeny"), 0.3, 5)
    assert len(sizes) > 5 and set(sizes) == {9}  # 9 teams: exact in every board


def test_a_stability_map_reuses_one_exact_kemeny_order():
    from scoring.core.stability import axis, stability_map
    scorer = CUSTOM.scorer(CUSTOM.load(results=_table(12, 6)))
    calls = []
    real = rules.kemeny_exact
    rules_kemeny = scoring.custom.scorer.rules
    try:
        rules_kemeny.kemeny_exact = lambda p: calls.append(1) or real(p)
        m = stability_map(CUSTOM, scorer, {"across": "kemeny"}, axis(CUSTOM, "alpha", n=5), axis(CUSTOM, "band", n=5))
    finally:
        rules_kemeny.kemeny_exact = real
    assert len(m) == 25 and np.allclose(m["tau"], 1.0)  # α and the band change nothing here: one order
    assert len(calls) == 1


def test_a_sweep_and_advice_too_costly_are_refused_before_the_first_shakeup(tmp_path):
    """14 teams × 40 units with ``--sweep --target winner`` took 554 s: now every board the command
    would score is counted first (1,000 splits + 19 fractions × 200 for the sweep + 19 × 200 × 4
    sizes for the advice, two boards each: 40,000) and refused before any shake-up is printed."""
    (tmp_path / "r.csv").write_bytes(_table(14, 40))
    res = _cli_limited(["custom", "shakeup", "--results", tmp_path / "r.csv", "--across", "kemeny", "--sweep",
                        "--target", "winner"])
    line = _one_error(res)
    assert line.startswith("error: --random-splits with --sweep and --target: 40,000 fields"), line
    assert "public leader" not in res.stderr and not res.stdout  # no shake-up was run

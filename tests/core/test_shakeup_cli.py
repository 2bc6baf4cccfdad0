"""``python -m scoring <family> shakeup``: options, the JSON document with its sentence, errors."""

from __future__ import annotations

import json

import pytest

import scoring
from tests.cli import run_cli
from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_DEMO, TINY_GT, TINY_RUNTIMES


@pytest.fixture
def tiny(tmp_path):
    (tmp_path / "subs").mkdir()
    (tmp_path / "gt.csv").write_text(TINY_GT)
    (tmp_path / "subs" / "t_Alpha.csv").write_text(TINY_ALPHA)
    (tmp_path / "subs" / "t_Beta.csv").write_text(TINY_BETA)
    (tmp_path / "demo.csv").write_text(TINY_DEMO)
    (tmp_path / "rt.csv").write_text(TINY_RUNTIMES.replace("Alpha", "t_Alpha").replace("Beta", "t_Beta"))
    return ["shovel-ready", "shakeup", "--ground-truth", tmp_path / "gt.csv", "--submissions", tmp_path / "subs",
            "--demographics", tmp_path / "demo.csv", "--runtimes", tmp_path / "rt.csv"]


def test_json_leads_with_the_sentence_and_matches_the_engine(tiny):
    r = run_cli(*tiny, "--public-fraction", "0.5", "--splits", "10", "--format", "json", "--team-separator", "_")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert list(doc)[0] == "sentence"
    # two essays, one public: both splits enumerated, so the numbers are exact
    assert doc["shakeup"]["exact"] is True and doc["shakeup"]["splits"] == 2
    p = doc["shakeup"]["p_winner_holds"]
    assert doc["sentence"].startswith(f"With a 50% public split, the public leader wins the final board {p:.0%} of the time")
    assert doc["sentence"] in r.stderr
    assert {t["submission"] for t in doc["teams"]} == {"t_Alpha", "t_Beta"}
    for t in doc["teams"]:
        assert len(t["public_rank_distribution"]) == 2 and sum(t["private_rank_distribution"]) == pytest.approx(1)
        assert t["private_rank_distribution"][0] == pytest.approx(t["p_private_first"])
    assert doc["selection"]["team_membership"] == "given" and doc["selection"]["rows"][-1]["n_submissions"] == 2
    # the same numbers as the engine's
    from scoring.core.shakeup import shakeup
    comp = scoring.load_competition(ground_truth=tiny[3], submissions=[tiny[5]], demographics=tiny[7], runtimes=tiny[9])
    sh = shakeup(scoring.Scorer(comp).unit_stats(), 0.5, 10)
    assert p == pytest.approx(sh.p_winner())


def test_csv_has_one_row_per_team_and_the_seed_repeats(tiny):
    a = run_cli(*tiny, "--splits", "50", "--seed", "3")
    b = run_cli(*tiny, "--splits", "50", "--seed", "3")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert a.stdout.splitlines()[0].startswith("submission,rank,public_rank_mean,private_rank_mean,p_same_rank")
    assert len(a.stdout.splitlines()) == 3
    assert "public leader wins the final board" in a.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--public-fraction", "0.99"], "--public-fraction: expected a number in [0.05, 0.95], got '0.99'"),
    (["--splits", "0"], "splits: expected a whole number of splits in [1, 100000]"),
    (["--seed", "-2"], "seed: expected a whole number >= 0"),
    (["--keep", "0"], "--keep: expected a whole number >= 1"),
    (["--target", "tau", "--probability", "1.5"], "--probability: expected a number in (0, 1)"),
])
def test_bad_options_are_one_line_and_exit_2(tiny, args, message):
    r = run_cli(*tiny, *args)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_a_bad_team_file_names_its_row(tiny, tmp_path):
    (tmp_path / "teams.csv").write_text("submission,team\nt_Alpha,x\nnobody,y\n")
    r = run_cli(*tiny, "--teams", tmp_path / "teams.csv")
    assert r.returncode == 2 and "teams.csv, row 3: submission 'nobody' is not in the competition" in r.stderr


def test_difficulty_keeps_its_own_splits_option():
    # --splits is the difficulty family's ease splits: the shake-up's count is --random-splits there
    r = run_cli("difficulty", "shakeup", "--help")
    assert r.returncode == 0 and "--random-splits" in r.stdout
    r = run_cli("qa", "shakeup", "--help")
    assert "--splits N, --random-splits N" in r.stdout


def test_sweep_and_advice_in_the_json(tiny):
    r = run_cli(*tiny, "--format", "json", "--sweep", "--target", "tau", "--min-tau", "0.5", "--probability", "0.5")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [round(row["fraction"], 2) for row in doc["sweep"]] == [round(0.05 * i, 2) for i in range(1, 20)]
    # two essays: every fraction splits them one and one, both splits enumerated: the same numbers at every f
    assert len({row["p_winner_holds"] for row in doc["sweep"]}) == 1 and all(row["exact"] for row in doc["sweep"])
    assert doc["advice"]["sentence"] in r.stderr and doc["advice"]["grid"]


def test_an_option_the_family_already_has_keeps_its_meaning():
    # a family with a --teams input (or any flag the shake-up also wants) still gets a parser: the
    # shake-up's option then goes by --shakeup-<name>, and its errors name that flag
    import argparse

    from scoring.shakeup_cli import configure
    p = argparse.ArgumentParser()
    p.add_argument("--teams")
    p.add_argument("--keep")
    configure(p, scoring.get("qa"))
    args = p.parse_args(["--ground-truth", "g.csv", "--submissions", "s", "--teams", "T", "--shakeup-teams", "m.csv",
                         "--shakeup-keep", "2"])
    assert args.teams == "T" and args.shakeup_teams == "m.csv" and args.shakeup_keep == "2"
    assert args.shakeup_flags["teams"] == "--shakeup-teams" and args.shakeup_flags["keep"] == "--shakeup-keep"
    assert args.shakeup_flags["splits"] == "--splits"

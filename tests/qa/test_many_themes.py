"""QA inputs that grow (issue 30.2, issue 28, issue 31): many themes scored in proportion to
the data, the themes limit, JSON cells with bounded depth and numbers, weights near the
largest float. The big cases are in ``python -m benchmarks hostile``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import scoring.qa as qa
from scoring.cli import main
from scoring.core import limits
from scoring.core.errors import InputError
from scoring.qa import hidden
from scoring.qa.hidden import hidden_weight_ranks, weight_draws
from tests.qa import hand


def many_themes(folder: Path, n_themes: int, seed: int = 0) -> dict:
    """One question per theme; team A's paragraph is right on even themes, B's on multiples
    of 3; answers exactly right (F1 1) or wrong (F1 0) at random; times 50-400 ms."""
    rng = random.Random(seed)
    (folder / "subs").mkdir(parents=True, exist_ok=True)
    gt = ["question_id,theme,paragraph_ids,answers"]
    rows = {"A": [], "B": []}
    truth = {"A": [], "B": []}  # (correct, f1, ms) per theme, in theme order
    for t in range(n_themes):
        gt.append(f'q{t},th{t:05d},"[""p{t}""]","[""word{t}""]"')
        for team, step in (("A", 2), ("B", 3)):
            right, f1, ms = t % step == 0, rng.random() < 0.5, round(rng.uniform(50, 400), 1)
            rows[team].append(f"q{t},{'p' + str(t) if right else 'zz'},{'word' + str(t) if f1 else 'nope'},{ms}")
            truth[team].append((float(right), float(f1), ms))
    (folder / "gt.csv").write_text("\n".join(gt) + "\n")
    for team in rows:
        (folder / "subs" / f"{team}.csv").write_text("question_id,paragraph_id,answer,inference_ms\n"
                                                     + "\n".join(rows[team]) + "\n")
    return {"ground_truth": folder / "gt.csv", "submissions": [folder / "subs"], "truth": truth}


def test_three_thousand_themes_score_as_the_formula(tmp_path, monkeypatch):
    files = many_themes(tmp_path, 3000)
    truth = files.pop("truth")
    monkeypatch.setattr(hidden, "DRAW_BUDGET", 3000 * 2)  # the draws in blocks of two
    scorer = qa.Scorer(qa.load_competition(**files))
    lb = scorer.leaderboard(weight_draws=7, seed=3).set_index("submission")
    for team in ("A", "B"):
        # one question per theme: the theme's accuracy, F1 and AIT are the question's (spec §3)
        scores = [(c + f) * (200 / ms if ms > 200 else 1.0) for c, f, ms in truth[team]]
        assert lb.loc[team, "final_score"] == pytest.approx(sum(scores) / 3000, rel=1e-12)
        assert lb.loc[team, "th00003:ait_ms"] == truth[team][3][2]
    # the blocks of draws are the one big draw
    score = scorer.theme_scores(200.0)[1]
    whole = hidden_weight_ranks(score, weight_draws(3000, 7, seed=3))
    assert lb.loc[["A", "B"], "p_first"].tolist() == whole["p_first"].tolist()
    assert lb.loc[["A", "B"], "median_rank"].tolist() == whole["median_rank"].tolist()


def test_the_themes_limit_is_named_before_anything_is_built(tmp_path, monkeypatch, capsys):
    files = many_themes(tmp_path, 150)
    files.pop("truth")
    monkeypatch.setattr(limits, "MAX_THEMES", 100)
    with pytest.raises(InputError, match=r"^gt.csv: 150 themes, over the limit of 100 \(LAB_MAX_THEMES raises it\)$"):
        qa.load_competition(**files)
    code = main(["qa", "leaderboard", "--ground-truth", str(files["ground_truth"]), "--submissions",
                 str(files["submissions"][0])])
    assert code == 2 and "LAB_MAX_THEMES" in capsys.readouterr().err
    assert limits.MAX_THEMES == 100 and limits._env("MAX_THEMES", 50_000) == 50_000


@pytest.mark.parametrize("cell, problem", [
    ('"' + "[" * 100_000 + "]" * 100_000 + '"', "paragraph_ids: JSON nested deeper than 100 levels "
                                                "(LAB_MAX_JSON_DEPTH raises the limit), line 1"),
    ("[" + "9" * 5000 + "]", "paragraph_ids: JSON a number longer than 1000 characters "
                             "(LAB_MAX_JSON_NUMBER_CHARS raises the limit), line 1"),
])
def test_json_cells_within_the_limits(tmp_path, cell, problem):
    """Issue 28: a 5,000-digit integer and 100,000 levels were read as 'not a JSON list'
    after Python's ValueError/RecursionError; now the limit is named."""
    files = hand.write(tmp_path)
    gt = hand.GT.replace('"[""p2""]"', cell)
    files["ground_truth"].write_text(gt)
    with pytest.raises(InputError) as e:
        qa.load_competition(**files)
    assert str(e.value) == f"gt.csv, row 3: {problem}"


def test_weights_near_the_largest_float(tmp_path, capsys):
    """Issue 31: weights 1e308 gave final_score inf and rank 1 to both teams, and weight
    shares of 0; now the shares are exact and a sum past the largest float is refused."""
    files = hand.write(tmp_path)
    scorer = qa.Scorer(qa.load_competition(**files))
    big = {"alpha": 1e308, "beta": 1e308}
    # at T = 50 (hand.T50): A 0.125·1.1 + 0.5·2 = 1.1375, B 0.5·1.5 + 0 = 0.75: x 1e308 still finite
    table = scorer.theme_table(weights=big, time_threshold=50)
    assert table["weight_share"].tolist() == [0.5] * 4  # was 1e308 / inf = 0
    assert scorer.winner_regions(weights=big, time_threshold=50)["current"] == [0.5, 0.5]
    lb = scorer.leaderboard(weights=big, time_threshold=50).set_index("submission")
    assert lb["final_score"].to_dict() == pytest.approx({"A": 1.1375e308, "B": 0.75e308}, rel=1e-15)
    assert lb["rank"].to_dict() == {"A": 1, "B": 2}
    # at T = 200: A 0.55 + 2 = 2.55 (x 1e308: past the largest float), refused everywhere
    for view in (scorer.leaderboard, scorer.theme_table, scorer.rank_changes):
        with pytest.raises(InputError, match=r"^weights: the weighted sum of the theme scores is larger than "
                                             r"the largest number \(largest weight 1e\+308\)"):
            view(weights=big)
    lb = scorer.leaderboard(weights={"alpha": 1e308, "beta": 0.0}).set_index("submission")
    assert lb.loc["A", "final_score"] == 0.55 * 1e308 and lb.loc["B", "final_score"] == 1.5e308
    (tmp_path / "w.csv").write_text("theme,weight\nalpha,1e308\nbeta,1e308\n")
    code = main(["qa", "leaderboard", "--ground-truth", str(files["ground_truth"]), "--submissions",
                 str(files["submissions"][0]), "--theme-weights", str(tmp_path / "w.csv")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert [ln for ln in err.splitlines() if not ln.startswith("scoring ")] == ["error: weights: the weighted sum of the theme scores is larger than the largest "
                                "number (largest weight 1e+308); divide every weight by the same number (the "
                                "ranking stays the same)"]


def test_every_weight_zero_is_a_clear_error(tmp_path, capsys):
    files = hand.write(tmp_path)
    scorer = qa.Scorer(qa.load_competition(**files))
    with pytest.raises(InputError, match=r"^weights: expected at least one weight > 0"):
        scorer.leaderboard(weights={"alpha": 0, "beta": 0})
    with pytest.raises(InputError, match=r"^weights: expected at least one weight > 0"):
        scorer.unit_stats(weights={"alpha": 0, "beta": 0})
    many = qa.Scorer(qa.load_competition(**{k: v for k, v in many_themes(tmp_path / "many", 30).items()
                                            if k != "truth"}))
    with pytest.raises(InputError) as e:  # one short line, not every theme's weight
        many.leaderboard(weights={t: 0 for t in many.themes})
    assert str(e.value) == "weights: expected at least one weight > 0, got 0 for all 30 themes"
    (tmp_path / "w.csv").write_text("theme,weight\nalpha,0\nbeta,0\n")
    code = main(["qa", "leaderboard", "--ground-truth", str(files["ground_truth"]), "--submissions",
                 str(files["submissions"][0]), "--theme-weights", str(tmp_path / "w.csv")])
    assert code == 2
    assert capsys.readouterr().err.splitlines()[-1] == "error: w.csv: every weight is 0; at least one must be > 0"

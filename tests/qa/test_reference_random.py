"""The engine against the slow reference (``tests/qa/reference.py``) on a few hundred random
competitions, and deliberately broken variants of the reference that the comparison catches.

Every number the engine gives is compared: final score, rank, the hidden-weight summary and
the five per-theme values; the rows must come in rank order, then by name.
"""

from __future__ import annotations

import functools
import json
import math
import random

import pytest

from scoring.cli import main as cli_main
from scoring.qa import Scorer, load_competition
from tests.qa import randomcomp
from tests.qa import reference as ref

N_COMPETITIONS = 300
PARAMS_PER_COMPETITION = 2


def parameter_sets(seed: int, comp) -> list[dict]:
    rng = random.Random(seed * 7919 + 3)
    return [randomcomp.random_parameters(rng, comp) for _ in range(PARAMS_PER_COMPETITION)]


@functools.cache
def competition(seed: int):
    return randomcomp.random_competition(seed)


@functools.cache
def engine_boards(seed: int) -> tuple:
    comp = competition(seed)
    scorer = Scorer(load_competition(ground_truth=comp.ground_truth, submissions=comp.submissions,
                                     theme_weights=comp.theme_weights))
    return tuple(scorer.leaderboard(**p) for p in parameter_sets(seed, comp))


def mismatches(lb, expected: dict, themes: list[str]) -> list[str]:
    """Every difference between an engine leaderboard and the reference's (empty: equal)."""
    bad = []
    order = sorted(expected, key=lambda k: (expected[k]["rank"], k))
    if list(lb["submission"]) != order:
        bad.append(f"row order {list(lb['submission'])} != {order}")
    for rec in lb.to_dict("records"):
        exp = expected[rec["submission"]]
        for col in ("final_score", "p_first", "median_rank"):
            if abs(float(rec[col]) - float(exp[col])) > 1e-9:
                bad.append(f"{rec['submission']} {col}: {rec[col]} != {float(exp[col])}")
        for col in ("rank", "best_rank", "worst_rank"):
            if int(rec[col]) != exp[col]:
                bad.append(f"{rec['submission']} {col}: {rec[col]} != {exp[col]}")
        for t in themes:
            for m in ("accuracy", "f1", "ait_ms", "multiplier", "score"):
                if abs(float(rec[f"{t}:{m}"]) - float(exp["themes"][t][m])) > 1e-9:
                    bad.append(f"{rec['submission']} {t}:{m}: {rec[f'{t}:{m}']} != {float(exp['themes'][t][m])}")
    return bad


def compare_seed(seed: int) -> list[str]:
    comp = competition(seed)
    bad = []
    for params, lb in zip(parameter_sets(seed, comp), engine_boards(seed), strict=True):
        expected = ref.leaderboard(comp.ground_truth, comp.submissions, comp.theme_weights, **params)
        bad += [f"seed={seed} {params}: {m}" for m in mismatches(lb, expected, comp.themes)]
    return bad


@pytest.mark.parametrize("block", range(10))
def test_engine_matches_reference(block):
    bad = []
    for seed in range(block, N_COMPETITIONS, 10):
        bad += compare_seed(seed)
    assert not bad, "\n".join(bad[:10])


def test_generator_covers_the_edge_cases():
    seen = {"unanswerable": False, "int_id": False, "padded_id": False, "empty_pred": False, "tn": False,
            "ait_at_threshold": False, "zero_weight": False, "weights_file": False, "tied_teams": False,
            "one_theme": False, "four_themes": False, "one_draw": False, "even_draws": False,
            "empty_accepted": False, "numeric_qid": False}
    for seed in range(N_COMPETITIONS):
        comp = competition(seed)
        gt = comp.ground_truth
        for text in gt["paragraph_ids"]:
            ids = json.loads(text)
            seen["unanswerable"] |= not ids
            seen["int_id"] |= any(isinstance(x, int) for x in ids)
            seen["padded_id"] |= any(isinstance(x, str) and x != x.strip() for x in ids)
        seen["empty_accepted"] |= any(a in ("", "the", "!!!") for t in gt["answers"] for a in json.loads(t))
        seen["numeric_qid"] |= any(q.isdigit() for q in gt["question_id"])
        frames = list(comp.submissions.values())
        seen["tied_teams"] |= any(a is not b and a.equals(b) for a in frames for b in frames)
        unanswerable = {q for q, p in zip(gt["question_id"], gt["paragraph_ids"], strict=True) if p == "[]"}
        for df in frames:
            empty = df["paragraph_id"] == ""
            seen["empty_pred"] |= bool(empty.any())
            seen["tn"] |= bool((empty & df["question_id"].isin(unanswerable)).any())
        seen["weights_file"] |= comp.theme_weights is not None
        seen["one_theme"] |= len(comp.themes) == 1
        seen["four_themes"] |= len(comp.themes) == 4
        for p in parameter_sets(seed, comp):
            seen["ait_at_threshold"] |= p["time_threshold"] in comp.constant_ms
            seen["zero_weight"] |= p["weights"] is not None and 0.0 in p["weights"].values()
            seen["one_draw"] |= p["weight_draws"] == 1
            seen["even_draws"] |= p["weight_draws"] % 2 == 0
    assert all(seen.values()), [k for k, v in seen.items() if not v]


@pytest.mark.parametrize("seed", [3, 17, 42])
def test_engine_matches_reference_through_csv_files_and_the_cli(seed, tmp_path, capsys):
    comp = competition(seed)
    (tmp_path / "subs").mkdir()
    comp.ground_truth.to_csv(tmp_path / "gt.csv", index=False)
    for name, df in comp.submissions.items():
        df.to_csv(tmp_path / "subs" / f"{name}.csv", index=False)
    params = parameter_sets(seed, comp)[0]
    args = ["qa", "leaderboard", "--ground-truth", str(tmp_path / "gt.csv"), "--submissions", str(tmp_path / "subs"),
            "--time-threshold", repr(params["time_threshold"]), "--weight-draws", str(params["weight_draws"]),
            "--seed", str(params["seed"]), "--format", "json"]
    if comp.theme_weights is not None:
        comp.theme_weights.to_csv(tmp_path / "w.csv", index=False)
        args += ["--theme-weights", str(tmp_path / "w.csv")]
    assert cli_main(args) == 0
    doc = json.loads(capsys.readouterr().out)
    expected = ref.leaderboard(comp.ground_truth, comp.submissions, comp.theme_weights,
                               **{**params, "weights": None})
    assert [r["submission"] for r in doc["leaderboard"]] == sorted(expected, key=lambda k: (expected[k]["rank"], k))
    for row in doc["leaderboard"]:
        exp = expected[row["submission"]]
        assert abs(row["final_score"] - float(exp["final_score"])) <= 1e-9
        assert (row["rank"], row["best_rank"], row["worst_rank"]) == (exp["rank"], exp["best_rank"], exp["worst_rank"])
        assert math.isclose(row["p_first"], exp["p_first"]) and math.isclose(row["median_rank"], exp["median_rank"])
        for t in comp.themes:
            for m, v in row["themes"][t].items():
                assert abs(v - float(exp["themes"][t][m])) <= 1e-9, (row["submission"], t, m)


# ---- broken variants: the comparison must notice each ----------------------------------------

def _no_articles(s):
    s = "".join(ch for ch in s.lower() if ch not in set(ref.string.punctuation))
    return " ".join(s.split())


def _no_punctuation(s):
    return " ".join(ref.re.sub(r"\b(a|an|the)\b", " ", s.lower()).split())


def _no_lowercase(s):
    s = "".join(ch for ch in s if ch not in set(ref.string.punctuation))
    return " ".join(ref.re.sub(r"\b(a|an|the)\b", " ", s).split())


def _articles_anywhere(s):
    s = "".join(ch for ch in s.lower() if ch not in set(ref.string.punctuation))
    return " ".join(ref.re.sub(r"(a|an|the)", " ", s).split())


def _squad1_empty(pred, gold):
    return ref.Fraction(0) if not pred and not gold else ORIGINAL["token_f1"](pred, gold)


def _set_f1(pred, gold):
    return ORIGINAL["token_f1"](sorted(set(pred)), sorted(set(gold)))


def _mean_over_answers(prediction, answers):
    if not answers:
        return ORIGINAL["question_f1"](prediction, answers)
    p = ref.answer_tokens(prediction)
    return sum(ref.token_f1(p, ref.answer_tokens(a)) for a in answers) / len(answers)


def _first_answer(prediction, answers):
    return ORIGINAL["question_f1"](prediction, answers[:1])


def _no_true_negative(predicted, accepted):
    return bool(accepted) and predicted in accepted


def _uncapped_multiplier(ait, threshold):
    return threshold / ait if ait > 0 else ref.Fraction(1)  # fast teams gain too


def _ait_over_all_questions(questions, preds, threshold):
    stats = ORIGINAL["theme_stats"](questions, preds, threshold)
    ait = sum((p["ms"] for p in preds.values()), ref.Fraction(0)) / len(preds)
    m = ref.multiplier(ait, threshold)
    return {**stats, "ait_ms": ait, "multiplier": m, "score": m * (stats["f1"] + stats["accuracy"])}


def _normalised_weights(scores, weights):
    total = sum(weights.values())
    return sum((weights[t] / total * s for t, s in scores.items()), ref.Fraction(0))


def _ordinal_ranks(values):
    order = sorted(values, key=lambda k: (-float(values[k]), k))
    return {k: i + 1 for i, k in enumerate(order)}


def _lower_median(values):
    return float(sorted(values)[(len(values) - 1) // 2])


def _uniform_not_dirichlet(n_themes, k, seed):
    e = ref.np.random.default_rng(seed).random((k, n_themes))
    return [[float(x) / float(sum(row)) for x in row] for row in e.tolist()]


def _ordinal_draw_ranks(theme_scores, w):
    values = {name: sum(x * y for x, y in zip(s, w, strict=True)) for name, s in theme_scores.items()}
    return _ordinal_ranks(values)  # ties inside a draw broken by name


def _integer_ids_kept(df):
    out = ORIGINAL["read_ground_truth"](df)
    for q, row in zip(out, df["paragraph_ids"], strict=True):
        q["paragraphs"] = [x.strip() if isinstance(x, str) else x for x in ref.json.loads(row)]  # 12 stays an int
    return out


def _equal_default_weights(themes, weights_df):
    return {t: ref.Fraction(1, len(themes)) for t in themes}


ORIGINAL = {name: getattr(ref, name) for name in ("token_f1", "question_f1", "theme_stats", "read_ground_truth")}

BROKEN = {
    "normalize": [_no_articles, _no_punctuation, _no_lowercase, _articles_anywhere],
    "token_f1": [_squad1_empty, _set_f1],
    "question_f1": [_mean_over_answers, _first_answer],
    "paragraph_correct": [_no_true_negative],
    "multiplier": [_uncapped_multiplier],
    "theme_stats": [_ait_over_all_questions],
    "final_score": [_normalised_weights],
    "ranks": [_ordinal_ranks],
    "median": [_lower_median],
    "draws": [_uniform_not_dirichlet],
    "draw_ranks": [_ordinal_draw_ranks],
    "read_ground_truth": [_integer_ids_kept],
    "default_weights": [_equal_default_weights],
}
CASES = [(name, fn) for name, fns in BROKEN.items() for fn in fns]


@pytest.mark.parametrize(("name", "broken"), CASES, ids=[fn.__name__.strip("_") for _, fn in CASES])
def test_comparison_catches_broken_reference(name, broken, monkeypatch):
    monkeypatch.setattr(ref, name, broken)
    for seed in range(N_COMPETITIONS):
        if compare_seed(seed):
            return
    pytest.fail(f"no competition tells the engine from the reference with a broken {name}")

"""Hand computations on a five-sample competition, written out next to each assertion: split
forming, weights, Eq. 4, the penalty-only fallback, E = 0 under 1/E, an empty threshold split,
WMProb ties, and WOOD's similarity from a training file."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scoring.core.errors import InputError
from scoring.difficulty import Scorer, load_competition
from scoring.difficulty.views import hardest_samples, preset_table, sample_points, split_table

# bias: s1 0.9, s2 0.6, s3 0.4, s4 0.0, s5 (empty: left out of WSBias, kept in accuracy)
SAMPLES = ("sample_id,text,label,bias\n"
           "s1,good movie,1,0.9\ns2,bad plot,0,0.6\ns3,good plot,1,0.4\ns4,nothing here,0,0\ns5,bad movie,1,\n")
# A: right on s1, s3, s4; wrong on s2 (says 1) and s5 (says 0).
# B: right on every sample; confidences 0.9, 0.9, 0.8, 0.8, 0.7 (ties in WMProb).
PREDICTIONS = ("model,sample_id,p0,p1,predicted\n"
               "A,s1,0.2,0.8,1\nA,s2,0.4,0.6,1\nA,s3,0.3,0.7,1\nA,s4,0.95,0.05,0\nA,s5,0.6,0.4,0\n"
               "B,s1,0.1,0.9,1\nB,s2,0.9,0.1,0\nB,s3,0.2,0.8,1\nB,s4,0.8,0.2,0\nB,s5,0.3,0.7,1\n")


@pytest.fixture(scope="module")
def scorer():
    return Scorer(load_competition(SAMPLES.encode(), PREDICTIONS.encode()))


def row(lb, name):
    return lb.set_index("submission").loc[name]


def test_equal_splits_linear(scorer):
    # WSBias order s1, s2, s3, s4 (s5 left out); 2 equal splits: [s1, s2] b=1, [s3, s4] b=2.
    # A: K·W = +1 −1 +2 +2 = 4, Σd·W = 1 + 1 + 2 + 2 = 6 -> 66.667; split 1: 0/2 = 0; split 2: 4/4 = 100
    lb = scorer.leaderboard(metric="wsbias", ease_column="bias", splits=2)
    a = row(lb, "A")
    assert a["score"] == pytest.approx(400 / 6)
    assert (a["split_1"], a["split_2"]) == (0.0, 100.0)
    assert (a["split_1_n"], a["split_1_correct"], a["split_2_n"], a["split_2_correct"]) == (2, 1, 2, 2)
    assert a["accuracy"] == pytest.approx(3 / 5)  # over every sample of the file, s5 included
    assert row(lb, "B")["score"] == 100.0 and list(lb["submission"]) == ["B", "A"]


def test_threshold_splits_default_thresholds(scorer):
    # n = 3, thresholds 1/3, 2/3: split 1 E > 2/3 {s1}, split 2 {s2 (0.6), s3 (0.4)}, split 3 E <= 1/3 {s4}
    # A: K·W = 1·1 + 2·(−1) + 2·1 + 3·1 = 4; Σd·W = 1 + 2 + 2 + 3 = 8 -> 50
    lb = scorer.leaderboard(metric="wsbias", ease_column="bias", split_mode="threshold", splits=3)
    a = row(lb, "A")
    assert a["score"] == pytest.approx(50.0)
    assert [a[f"split_{x}_n"] for x in (1, 2, 3)] == [1, 2, 1]
    assert lb.attrs["parameters"]["thresholds"] == [1 / 3, 2 / 3]


def test_empty_threshold_split_is_null(scorer):
    # thresholds 0.7, 0.95: split 1 (E > 0.95) is empty; split 2 {s1}; split 3 {s2, s3, s4}
    # A: K·W = 2·1 + 3·(−1 + 1 + 1) = 5; Σd·W = 2·1 + 3·3 = 11
    lb = scorer.leaderboard(metric="wsbias", ease_column="bias", split_mode="threshold", thresholds=[0.7, 0.95])
    a = row(lb, "A")
    assert (a["split_1_n"], a["split_1_correct"]) == (0, 0) and math.isnan(a["split_1"])
    assert a["score"] == pytest.approx(500 / 11)
    assert a["split_3"] == pytest.approx(100 * 3 / 9)


def test_penalty_only_falls_back_to_abs_penalty(scorer):
    # Table 1 case 3 (d = 0, e = −1), 2 equal splits: Σd·W = 0, so the denominator is Σ|e|·W = 6.
    # A: K·W = −1 (s2, b = 1) -> −16.667; split 1: −1/2 -> −50; split 2: 0/4 -> 0
    lb = scorer.leaderboard(metric="wsbias", ease_column="bias", splits=2, reward=0, penalty=-1)
    a = row(lb, "A")
    assert a["score"] == pytest.approx(-100 / 6)
    assert (a["split_1"], a["split_2"]) == (-50.0, 0.0)
    assert row(lb, "B")["score"] == 0.0  # the best a penalty-only score gets


def test_continuous_weights_floor_zero_ease(scorer):
    # W = 1/max(E, 0.01): s1 1/0.9, s2 1/0.6, s3 1/0.4, s4 1/0.01 = 100 (E = 0 stays finite)
    w = [1 / 0.9, 1 / 0.6, 1 / 0.4, 100.0]
    lb = scorer.leaderboard(metric="wsbias", ease_column="bias", split_mode="continuous")
    assert row(lb, "A")["score"] == pytest.approx(100 * (w[0] - w[1] + w[2] + w[3]) / sum(w))
    assert [c for c in lb.columns if c.startswith("split_")] == []
    # scaled as well (cases 6 + 8): each sample weighs f·f
    lb = scorer.leaderboard(metric="wsbias", ease_column="bias", split_mode="continuous", scale_by_difficulty=True)
    w2 = [x * x for x in w]
    assert row(lb, "A")["score"] == pytest.approx(100 * (w2[0] - w2[1] + w2[2] + w2[3]) / sum(w2))


def test_scaled_reward_and_penalty(scorer):
    # case 8: d, e × 1/max(E, δ); 2 equal splits b = 1, 2:
    # A: K·W = 1/0.9 − 1/0.6 + 2·2.5 + 2·100; Σd·W = 1/0.9 + 1/0.6 + 2·2.5 + 2·100
    lb = scorer.leaderboard(metric="wsbias", ease_column="bias", splits=2, scale_by_difficulty=True)
    num = 1 / 0.9 - 1 / 0.6 + 5 + 200
    den = 1 / 0.9 + 1 / 0.6 + 5 + 200
    assert row(lb, "A")["score"] == pytest.approx(100 * num / den)


@pytest.mark.parametrize("weights, b", [("square", [1, 4]), ("reverse", [2, 1]), ("log", [math.log(2), math.log(3)]),
                                        ("1,3", [1, 3])])
def test_weight_schemes(scorer, weights, b):
    # A on [s1, s2] (one right, one wrong) and [s3, s4] (both right): (b1·0 + b2·2) / (2·b1 + 2·b2)
    lb = scorer.leaderboard(metric="wsbias", ease_column="bias", splits=2, weights=weights)
    assert row(lb, "A")["score"] == pytest.approx(100 * 2 * b[1] / (2 * b[0] + 2 * b[1]))


def test_settings_without_a_score_are_refused_not_ranked(scorer):
    """Issue 31: every weight 0, reward and penalty 0, or an ease column with no value made
    Σ d·W = Σ |e|·W = 0 for every model: NaN scores, every model rank 1, exit 0. Refused instead."""
    cases = [
        (dict(metric="wsbias", ease_column="bias", weights="0,0"), "weights", "at least one split weight above 0"),
        (dict(metric="wmprob", weights="0,0,0"), "weights", "at least one split weight above 0"),
        (dict(metric="wsbias", ease_column="bias", reward=0, penalty=0), "reward", "reward 0 and penalty 0"),
        (dict(metric="wmprob", split_mode="continuous", reward=0, penalty=0), "reward", "reward 0 and penalty 0"),
        # thresholds 0.95 and 0.99: every scored sample (E <= 0.9) is in split 3, weighted 0
        (dict(metric="wsbias", ease_column="bias", split_mode="threshold", thresholds="0.95,0.99", weights="1,2,0"),
         "weights", "no sample of any model is in a split with a weight above 0"),
    ]
    for params, name, words in cases:
        with pytest.raises(InputError) as e:
            scorer.leaderboard(**params)
        assert e.value.file == name and words in e.value.problem, (params, str(e.value))
    # every confidence is above 0.5: with thresholds 0.5 every sample is in split 1, weighted 0
    with pytest.raises(InputError) as e:
        scorer.leaderboard(metric="wmprob", split_mode="threshold", thresholds="0.5", weights="0,1")
    assert "any model" in e.value.problem
    # one model alone: threshold 0.92, weights 1, 0. A's confidences 0.8, 0.6, 0.7, 0.95, 0.6 put s4
    # in split 1 (weighted 1): scored. B's 0.9, 0.9, 0.8, 0.8, 0.7 are all <= 0.92: split 2 only
    with pytest.raises(InputError) as e:
        scorer.leaderboard(metric="wmprob", split_mode="threshold", thresholds="0.92", weights="1,0")
    assert "no sample of model 'B' is in a split with a weight above 0" in e.value.problem, str(e.value)
    # A alone would score: split 1 {s4} right -> 100
    lb = scorer.leaderboard(metric="wmprob", split_mode="threshold", thresholds="0.92", weights="1,1")
    assert row(lb, "A")["split_1"] == 100.0 and math.isnan(row(lb, "B")["split_1"])
    # a zero weight where samples are is fine as long as another split carries them
    assert scorer.leaderboard(metric="wsbias", ease_column="bias", weights="0,1")["score"].notna().all()


def test_an_ease_column_with_no_value_is_refused():
    samples = SAMPLES.replace("label,bias", "label,bias,empty").replace("\n", ",\n").replace("label,bias,empty,",
                                                                                               "label,bias,empty")
    sc = Scorer(load_competition(samples.encode(), PREDICTIONS.encode()))
    assert "empty" in sc.comp.ease_columns
    for metric in ("wsbias", "wood"):
        with pytest.raises(InputError) as e:
            sc.leaderboard(metric=metric, ease_column="empty")
        assert e.value.file == "samples.csv" and "'empty' is empty in every row" in e.value.problem, str(e.value)
    assert sc.leaderboard(metric="wsbias", ease_column="bias")["score"].notna().all()


def test_wmprob_ties_keep_file_order(scorer):
    # A's confidences: s1 0.8, s2 0.6, s3 0.7, s4 0.95, s5 0.6 -> order s4, s1, s3, s2, s5 (s2 before s5:
    # file order); 2 equal splits: [s4, s1, s3] b=1 (all right), [s2, s5] b=2 (both wrong)
    # K·W = 3 − 4 = −1; Σd·W = 3 + 4 = 7
    lb = scorer.leaderboard(metric="wmprob", splits=2)
    assert row(lb, "A")["score"] == pytest.approx(-100 / 7)
    assert (row(lb, "A")["split_1_n"], row(lb, "A")["split_2_n"]) == (3, 2)
    # 4 splits: sizes 2, 1, 1, 1 -> [s4, s1], [s3], [s2], [s5]: b = 1, 2, 3, 4
    # K·W = 1 + 1 + 2 − 3 − 4 = −3; Σd·W = 2 + 2 + 3 + 4 = 11
    lb = scorer.leaderboard(metric="wmprob", splits=4)
    assert row(lb, "A")["score"] == pytest.approx(-300 / 11)
    # B: confidences 0.9, 0.9, 0.8, 0.8, 0.7; thresholds 0.5, 0.8 (n = 3): split 1 E > 0.8 {s1, s2},
    # split 2 0.5 < E <= 0.8 {s3, s4, s5}, split 3 empty
    lb = scorer.leaderboard(metric="wmprob", split_mode="threshold", thresholds="0.5,0.8")
    b = row(lb, "B")
    assert [b[f"split_{x}_n"] for x in (1, 2, 3)] == [2, 3, 0]


def test_fewer_samples_than_splits(scorer):
    # 4 scored samples in 7 equal splits: sizes 1, 1, 1, 1, 0, 0, 0
    lb = scorer.leaderboard(metric="wsbias", ease_column="bias")
    a = row(lb, "A")
    assert [a[f"split_{x}_n"] for x in range(1, 8)] == [1, 1, 1, 1, 0, 0, 0]
    # K·W = 1 − 2 + 3 + 4 = 6; Σd·W = 10
    assert a["score"] == pytest.approx(60.0)


def test_wood_from_training_texts():
    # train: "good movie", "bad plot". Every word has df = 1, so all idf are equal: each training
    # text is (1, 1)/√2 over its two words. "good movie": cosines (1, 0); "good plot": (½, ½);
    # "nothing here": no known word, (0, 0); "bad plot": (0, 1); "bad movie": (½, ½).
    # k = 50 % of 2 texts -> the top 1: E = 1, 1, 0.5, 0, 0.5 for s1..s5
    comp = load_competition(SAMPLES.encode(), PREDICTIONS.encode(), b"good movie\n\nbad plot\n")
    sc = Scorer(comp)
    lb = sc.leaderboard(metric="wood", sts_top=50, splits=3)
    # order s1, s2 (ties: file order), s3, s5, s4; 3 equal splits [s1, s2], [s3, s5], [s4]
    # A: K·W = (1 − 1) + 2·(1 − 1) + 3·1 = 3; Σd·W = 2 + 4 + 3 = 9
    assert row(lb, "A")["score"] == pytest.approx(100 / 3)
    # k = 100 %: the mean of both: 0.5, 0.5, 0.5, 0, 0.5 -> order s1, s2, s3, s5, s4: the same splits
    assert sc.leaderboard(metric="wood", sts_top=100, splits=3)["score"].tolist() == lb["score"].tolist()
    split, ease, _ = sc.assignment(metric="wood", sts_top=50, splits=3)
    assert ease[0] == pytest.approx([1, 1, 0.5, 0, 0.5])
    assert split[0].tolist() == [0, 0, 1, 2, 1]
    assert lb.attrs["parameters"]["sts_top"] == 50 and lb.attrs["parameters"]["ease_column"] is None


def test_views_add_up(scorer):
    params = dict(metric="wsbias", ease_column="bias", splits=2)
    lb = scorer.leaderboard(**params)
    table = split_table(scorer, **params)
    for name, g in table.groupby("submission"):
        assert g["contribution"].sum() == pytest.approx(row(lb, name)["score"])
        assert g["weight_share"].sum() == pytest.approx(1.0)
        assert g["n"].tolist() == [2, 2]
    # split 1 holds b·d·n = 2 of Σd·W = 6
    assert table[table["submission"] == "A"]["weight_share"].tolist() == pytest.approx([2 / 6, 4 / 6])
    pts = sample_points(scorer, **params)
    assert len(pts) == 10 and pts[pts["sample_id"] == "s5"]["split"].tolist() == [0, 0]  # left out
    hard = hardest_samples(scorer, top=2, **params)
    assert hard["sample_id"].tolist() == ["s2", "s5"]  # missed by A: s2 (E 0.6), s5 (no E: last)
    assert hard["A"].tolist() == ["1", "0"] and hard["missed_by"].tolist() == [1, 1]


def test_preset_table_matches_the_leaderboard(scorer):
    params = dict(metric="wsbias", ease_column="bias", splits=2)
    table = preset_table(scorer, **params).set_index(["case", "submission"])
    assert table.loc[("1", "A"), "score"] == pytest.approx(400 / 6)
    assert table.loc[("2", "A"), "score"] == pytest.approx(500 / 6)  # reward only: (1 + 2 + 2) / 6
    assert table.loc[("3", "A"), "score"] == pytest.approx(-100 / 6)
    # case 4 (1, −0.5): (1 − 0.5 + 4) / 6; case 5 (0.5, −1): (0.5 − 1 + 2) / 3
    assert table.loc[("4", "A"), "score"] == pytest.approx(450 / 6)
    assert table.loc[("5", "A"), "score"] == pytest.approx(150 / 3)
    assert table.loc[("accuracy", "A"), "score"] == pytest.approx(60.0)
    assert set(table.index.get_level_values("case")) == {"1", "2", "3", "4", "5", "6/7", "8/9", "accuracy"}
    assert np.isfinite(table["score"]).all()


def test_wood_training_lines_end_at_newline_only():
    """Issue 27: a training text is one line ending in \\n (or \\r\\n). U+0085, U+2028, U+2029, form
    feed, vertical tab and the file/group/record separators stay inside their text (str.splitlines
    broke at them: the IMDb texts hold 44, so 872 lines became 914 texts)."""
    train = "good\x85movie\r\n\nbad\u2028plot\n".encode()
    comp = load_competition(SAMPLES.encode(), PREDICTIONS.encode(), train)
    # two texts, tokenised as "good movie" and "bad plot" (the characters are not word characters):
    # the similarities of test_wood_from_training_texts, E = 1, 1, 0.5, 0, 0.5 at k = 50 % (top 1).
    # Split at U+0085 and U+2028 there would be four one-word texts and "good movie" would score
    # (1/√2 + 1/√2)/2 = 0.707 with the top 2 of 4.
    assert comp.n_train == 2
    _, ease, _ = Scorer(comp).assignment(metric="wood", sts_top=50, splits=3)
    assert ease[0] == pytest.approx([1, 1, 0.5, 0, 0.5])
    from scoring.difficulty.sts import read_train

    odd = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
    texts = read_train(f"a{odd}b\r\nc{odd}d\n".encode(), "t.txt")
    assert texts == [f"a{odd}b", f"c{odd}d"]


@pytest.mark.parametrize("params, a_score", [
    # weights 1e308, 1e308 are weights 1, 1: A on [s1, s2] 1 − 1, on [s3, s4] 1 + 1 -> 2/4
    (dict(splits=2, weights="1e308,1e308"), 50.0),
    # d = 1e308, e = −1e308 is case 1 scaled: 7 splits of one sample each, K·W = 1 − 2 + 3 + 4, Σd·W = 10
    (dict(reward=1e308, penalty=-1e308), 60.0),
    # a subnormal reward alone (penalty 0): K·W = d·(1 + 3 + 4), Σd·W = d·10
    (dict(reward=1e-320, penalty=0), 80.0),
    # weights 1e308 and 1e-300: split 2 weighs nothing beside split 1 -> split 1's score, 0
    (dict(splits=2, weights="1e308,1e-300"), 0.0),
])
def test_extreme_numbers_are_scored_exactly(scorer, params, a_score):
    """Issue 31: huge weights or rewards gave inf/inf (NaN scores, all ranked 1, numpy warnings on
    stderr). Eq. 4 is a ratio: the engine scales weights and (d, e) by powers of two first."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow / invalid-value warning either
        lb = scorer.leaderboard(metric="wsbias", ease_column="bias", **params)
        us = scorer.unit_stats(metric="wsbias", ease_column="bias", **params)
    assert row(lb, "A")["score"] == pytest.approx(a_score, abs=1e-9)
    assert row(lb, "B")["score"] == 100.0 and list(lb["rank"]) == [1, 2]
    got = dict(zip(us.names, us.scores()["score"], strict=True))
    assert got["A"] == pytest.approx(a_score, abs=1e-9) and got["B"] == pytest.approx(100.0)

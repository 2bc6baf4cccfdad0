"""Answer normalisation (spec §2: SQuAD v1.1) and token F1, case by case, and the bulk
normaliser and vectorised F1 of the loader against the plain per-string versions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scoring.qa.normalize import (
    answer_f1,
    encode,
    f1_matrix,
    f1_tokens,
    normalize_answer,
    token_lists,
    tokens,
)

CASES = [
    # punctuation: every character of string.punctuation goes, nothing else
    ("Hello, world!", ["hello", "world"]),
    ("U.S.A.", ["usa"]),
    ("x-ray", ["xray"]),
    ("rock'n'roll", ["rocknroll"]),
    ("(1,000)", ["1000"]),
    ("«Paris»", ["«paris»"]),           # « » are not ASCII punctuation: kept
    ("¿qué?", ["¿qué"]),
    # articles: whole words a / an / the, after lower-casing and punctuation removal
    ("The cat", ["cat"]),
    ("an apple a day", ["apple", "day"]),
    ("THE", []),
    ("theatre anthem", ["theatre", "anthem"]),
    ("the.end", ["theend"]),             # punctuation goes first, so no article is left
    ("the-the", ["thethe"]),
    ("a—b", ["—b"]),                     # an em dash is no word character: \b before it
    # case
    ("PARIS", ["paris"]),
    ("Straße", ["straße"]),
    ("ΣΑΣ", ["σας"]),                    # Python's final sigma
    # unicode: \b is Unicode-aware, whitespace is Unicode whitespace
    ("Thé", ["thé"]),                    # é is a word character: not the article
    ("the\u0301", ["\u0301"]),           # a combining accent is not: the article goes
    ("cat\u00a0dog\u3000eel", ["cat", "dog", "eel"]),
    ("ＴＨＥ", ["ｔｈｅ"]),               # full-width letters are not the ASCII article
    # empty
    ("", []),
    ("   ", []),
    ("...!?", []),
    ("the a an", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_tokens(text, expected):
    assert tokens(text) == expected
    assert token_lists([text]) == [expected]
    assert normalize_answer(text) == " ".join(expected)


def test_f1_by_hand():
    # multiset intersection: "cat cat" vs "cat" shares one token -> 2·1/(2+1)
    assert f1_tokens(["cat", "cat"], ["cat"]) == pytest.approx(2 / 3)
    assert f1_tokens(["cat", "cat"], ["cat", "cat", "dog"]) == pytest.approx(4 / 5)
    assert f1_tokens(["a"], ["b"]) == 0.0
    # both empty is 1 (SQuAD v2's rule), one empty is 0
    assert f1_tokens([], []) == 1.0
    assert f1_tokens([], ["x"]) == 0.0 and f1_tokens(["x"], []) == 0.0
    # answers that normalise alike score 1
    assert answer_f1("THE EIFFEL TOWER!!", ["Eiffel Tower"]) == 1.0
    # an unanswerable question: the prediction must normalise to nothing
    assert answer_f1("The.", []) == 1.0
    assert answer_f1("", []) == 1.0
    assert answer_f1("nothing", []) == 0.0
    # an accepted answer that normalises to nothing is matched by an empty prediction
    assert answer_f1("", ["the", "cat"]) == 1.0


def test_seed_example():
    # the seed's table: 0 common tokens; 1 (P 1/2, R 1/3 -> F1 0.4); 2 (P 1, R 2/3 -> F1 0.8)
    p = tokens("problem pushed")
    assert [f1_tokens(p, tokens(a)) for a in ("random token word", "token word problem", "word problem pushed")] \
        == pytest.approx([0.0, 0.4, 0.8])
    assert answer_f1("problem pushed", ["random token word", "token word problem", "word problem pushed"]) == 0.8


POOL = list("abcdeinorst") + ["the", "a", "an", "The", "A", " ", " ", "  ", "\n", "\r\n", "\t", "\u00a0", "\x1c",
                               ".", ",", "!", "'", "-", "—", "…", "«", "Σ", "Α", "é", "\u0301", "İ", "ß", "_",
                               "1", "½", "ｔｈｅ", "the—", "—an"]


def random_string(rng: random.Random) -> str:
    return "".join(rng.choice(POOL) for _ in range(rng.randint(0, 12)))


def test_bulk_normaliser_equals_per_string():
    rng = random.Random(5)
    strings = [random_string(rng) for _ in range(3000)] + ["", "", "the"]
    assert token_lists(strings) == [tokens(s) for s in strings]


def test_vectorised_f1_equals_plain_loop():
    rng = random.Random(11)
    for _ in range(40):
        n_q, n_t = rng.randint(1, 8), rng.randint(1, 4)
        answers = [[random_string(rng) for _ in range(rng.randint(0, 3))] for _ in range(n_q)]
        preds = [[random_string(rng) if rng.random() < 0.7 else rng.choice(answers[q] or [""]) for q in range(n_q)]
                 for _ in range(n_t)]
        padded = [a or [""] for a in answers]
        (gold, pred), vocab = encode([[x for a in padded for x in a], [x for row in preds for x in row]])
        got = f1_matrix(pred, n_t, gold, np.repeat(np.arange(n_q), [len(a) for a in padded]), vocab)
        expected = [[answer_f1(preds[t][q], answers[q]) for q in range(n_q)] for t in range(n_t)]
        assert np.allclose(got, expected, atol=1e-15), (answers, preds)

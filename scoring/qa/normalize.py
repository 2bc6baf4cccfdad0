"""Answer normalisation and token F1, exactly as SQuAD v1.1 normalises (spec §2).

``normalize_answer`` lower-cases, drops every character of :data:`string.punctuation`, removes
the articles ``\\b(a|an|the)\\b`` (Python ``re`` on ``str``: ``\\b`` is Unicode-aware) and
splits on whitespace. Token F1 between a prediction ``p`` and an accepted answer ``g`` is 1
when both normalise to nothing, 0 when only one does, else, with ``c`` the size of their
multiset intersection, ``2·(c/|p|)·(c/|g|) / (c/|p| + c/|g|) = 2c / (|p| + |g|)`` (0 when
``c = 0``). A question's F1 is the maximum over its accepted answers; with none, the F1
against the empty answer.

:func:`tokenize_distinct` normalises many strings at once (a few passes over the joined
text) and gives exactly what :func:`tokens` gives string by string; :func:`encode` turns the
answers of a whole competition into token ids, normalising every distinct string once.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence
from itertools import chain

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_PUNCT = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_SEP = "\n"  # joins strings for the bulk normaliser; whitespace, never cased nor case-ignorable


def tokens(text: str) -> list[str]:
    """The normalised tokens of one string (SQuAD v1.1).

    >>> tokens("The Eiffel-Tower, in PARIS!")
    ['eiffeltower', 'in', 'paris']
    >>> tokens("an apple a day"), tokens("  ...  "), tokens("Thé")
    (['apple', 'day'], [], ['thé'])
    """
    return _ARTICLES.sub(" ", text.lower().translate(_PUNCT)).split()


def normalize_answer(text: str) -> str:
    """The normalised string: :func:`tokens` joined by single spaces.

    >>> normalize_answer("  The  Old Man and the Sea. ")
    'old man and sea'
    """
    return " ".join(tokens(text))


def token_lists(strings: Sequence[str]) -> list[list[str]]:
    """:func:`tokens` of every string, computed in bulk (see :func:`tokenize_distinct`).

    >>> token_lists(["A cat.", "", "THE END", "two\\nlines", "the…"])
    [['cat'], [], ['end'], ['two', 'lines'], ['…']]
    """
    ids, offsets, words = tokenize_distinct(list(strings))
    flat = [words[i] for i in ids.tolist()]
    return [flat[a:b] for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist(), strict=True)]


def tokenize_distinct(strings: list[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The normalised tokens of many strings as ids: ``(ids, offsets, words)`` — string ``i``'s
    tokens are ``words[ids[offsets[i]:offsets[i + 1]]]``.

    Exactly :func:`tokens`, string by string, in a few C-level passes over the joined text.
    The strings are joined by newlines (a string's own newlines become spaces first: both are
    whitespace to ``split``, non-word characters to ``\\b``, and neither cased nor
    case-ignorable, so ``lower``'s final-sigma rule sees a string edge as before); ``lower``
    and ``translate`` run once; then each joining newline becomes ``" ! "`` — ``!`` cannot
    survive ``translate``, so it marks the string boundaries — and one ``split`` gives every
    word. The article pattern runs once per *distinct* word: the same as on the whole text,
    because a match never spans whitespace and ``\\b`` sees a string edge as it sees
    whitespace; a word of letters and digits only is an article exactly when it equals one.
    """
    if not strings:
        return np.zeros(0, np.int64), np.zeros(1, np.int64), []
    joined = _SEP.join(strings)
    if joined.count(_SEP) != len(strings) - 1:
        joined = _SEP.join(s.replace(_SEP, " ") for s in strings)
    flat = joined.lower().translate(_PUNCT).replace(_SEP, " ! ").split()
    enc = pc.dictionary_encode(pa.array(flat, type=pa.large_string()))
    codes = np.asarray(enc.indices, dtype=np.int64)
    distinct = enc.dictionary.to_pylist()
    vocab: dict[str, int] = {"!": 0}
    parts = []
    for w in distinct:
        sub = [] if w in ("a", "an", "the") else [w] if w.isalnum() or w == "!" else _ARTICLES.sub(" ", w).split()
        parts.append([vocab.setdefault(x, len(vocab)) for x in sub])
    sub_len = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
    sub_ids = np.fromiter(chain.from_iterable(parts), dtype=np.int64, count=int(sub_len.sum()))
    out = _gather(sub_ids, sub_len, codes)  # every word replaced by its article-free tokens
    marker = np.flatnonzero(out == 0)
    lengths = np.diff(np.concatenate(([-1], marker, [len(out)]))) - 1
    words = [""] * len(vocab)
    for w, k in vocab.items():
        words[k] = w
    return out[out != 0], np.concatenate(([0], np.cumsum(lengths))).astype(np.int64), words


def _gather(flat: np.ndarray, lengths: np.ndarray, which: np.ndarray) -> np.ndarray:
    """Concatenate the segments ``which`` of ``flat`` (segment ``k`` has ``lengths[k]`` items)."""
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    n = lengths[which]
    total = int(n.sum())
    if total == 0:
        return np.zeros(0, np.int64)
    shift = np.repeat(starts[which] - np.concatenate(([0], np.cumsum(n)[:-1])), n)
    return flat[shift + np.arange(total)]


def f1_tokens(pred: Sequence[str], gold: Sequence[str]) -> float:
    """Token F1 of two token lists (spec §2).

    >>> f1_tokens(["problem", "pushed"], ["word", "problem", "pushed"])
    0.8
    >>> f1_tokens([], []), f1_tokens(["a"], []), f1_tokens(["x"], ["y"])
    (1.0, 0.0, 0.0)
    """
    if not pred and not gold:
        return 1.0
    c = sum((Counter(pred) & Counter(gold)).values())
    return 0.0 if c == 0 else 2.0 * c / (len(pred) + len(gold))


def answer_f1(prediction: str, answers: Sequence[str]) -> float:
    """A question's F1: the maximum over the accepted ``answers`` (the empty answer if none).

    The seed's example (spec §5): per-answer F1 0, 0.4 and 0.8, so 0.8.

    >>> answer_f1("problem pushed", ["random token word", "token word problem", "word problem pushed"])
    0.8
    >>> answer_f1("", []), answer_f1("no idea", [])
    (1.0, 0.0)
    """
    p = tokens(prediction)
    return max(f1_tokens(p, tokens(a)) for a in (answers or [""]))


class Encoded:
    """Token id arrays of many strings: ``ids`` (all tokens, flat), ``offsets`` (n + 1)."""

    def __init__(self, ids: np.ndarray, offsets: np.ndarray):
        self.ids = ids
        self.offsets = offsets

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)


def encode(groups: Sequence) -> tuple[list[Encoded], int]:
    """Normalise and encode several groups of strings (lists or pyarrow string arrays) with one
    shared vocabulary; every distinct string is normalised once.

    Returns one :class:`Encoded` per group and the vocabulary size.
    """
    arrays = [g.cast(pa.large_string()) if isinstance(g, pa.Array) else pa.array(list(g), type=pa.large_string())
              for g in groups]
    sizes = [len(a) for a in arrays]
    allstr = pa.concat_arrays(arrays) if arrays else pa.array([], type=pa.large_string())
    enc = pc.dictionary_encode(pc.fill_null(allstr, ""))
    which = np.asarray(enc.indices, dtype=np.int64)
    ids, offsets, words = tokenize_distinct(enc.dictionary.to_pylist())
    lengths = np.diff(offsets)
    out, start = [], 0
    for n in sizes:
        w = which[start:start + n]
        lens = lengths[w]
        out.append(Encoded(_gather(ids, lengths, w), np.concatenate(([0], np.cumsum(lens))).astype(np.int64)))
        start += n
    return out, max(len(words), 1)


def f1_matrix(preds: Encoded, n_teams: int, answers: Encoded, answer_question: np.ndarray,
              vocab_size: int) -> np.ndarray:
    """Question F1 of every (team, question), vectorised: shape (teams, questions).

    ``preds`` holds ``n_teams × Q`` predictions, team-major, in question order; ``answers``
    the accepted answers of all questions, grouped by question (``answer_question``
    nondecreasing, every question at least once: an unanswerable question has one empty
    answer). Per (team, answer) pair ``c = Σ_token min(count_p, count_g)`` from sorted
    (string, token) keys, then ``F1 = 2c / (|p| + |g|)`` (1 when both are empty), then the
    maximum over each question's answers.
    """
    n_q = int(answer_question[-1]) + 1 if len(answer_question) else 0
    n_a = len(answer_question)
    V = np.int64(vocab_size)
    p_of = np.repeat(np.arange(n_teams * n_q, dtype=np.int64), preds.lengths)
    pk, p_count = np.unique(p_of * V + preds.ids, return_counts=True)
    a_of = np.repeat(np.arange(n_a, dtype=np.int64), answers.lengths)
    ak, a_count = np.unique(a_of * V + answers.ids, return_counts=True)
    a_idx, a_tok = ak // V, ak % V
    c = np.zeros((n_teams, n_a))
    if len(pk) and len(ak):
        q_of = answer_question[a_idx].astype(np.int64)
        for t in range(n_teams):  # one vectorised look-up per team keeps memory small
            keys = (t * n_q + q_of) * V + a_tok
            pos = np.minimum(np.searchsorted(pk, keys), len(pk) - 1)
            m = np.where(pk[pos] == keys, np.minimum(p_count[pos], a_count), 0)
            c[t] = np.bincount(a_idx, weights=m, minlength=n_a)
    lp = preds.lengths.reshape(n_teams, n_q)[:, answer_question]
    total = (lp + answers.lengths[None, :]).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(total == 0, 1.0, np.where(c > 0, 2.0 * c / total, 0.0))
    starts = np.flatnonzero(np.r_[True, answer_question[1:] != answer_question[:-1]])
    return np.maximum.reduceat(f1, starts, axis=1) if n_a else np.zeros((n_teams, 0))

"""WOOD's ease from a training-text file: semantic-textual similarity by TF-IDF cosine (spec §2).

Each sample's ``E`` is the mean of its top-k % cosine similarities to the training texts,
top-k % meaning the ``max(1, ceil(k/100 · N_train))`` most similar ones. The paper used
sentence embeddings; TF-IDF is what runs here without a model download, and any precomputed
similarity column can be brought in the samples file instead (``ease_column``).

TF-IDF as scikit-learn's ``TfidfVectorizer`` defaults compute it, fitted on the training
texts: lower-cased tokens of two or more word characters, ``tf · (ln((1 + N) / (1 + df)) + 1)``,
rows scaled to unit length, so a dot product is the cosine. scikit-learn is imported only
here, when a training file is used.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..core.errors import InputError
from ..core.sources import source_bytes

TOP_KS = 100  # k = 1..100 %, precomputed at load so the slider only picks a column
CHUNK = 1 << 20  # similarities held at once (samples × training texts)


def _env(name: str, default: int) -> int:
    try:
        return int(os.environ.get(f"LAB_{name}", default))
    except ValueError:
        return default


#: samples × training texts: WOOD compares every sample with every training text (exact top-k %
#: needs every similarity), so its time grows with the product; README "Limits"
MAX_PAIRS = _env("MAX_WOOD_PAIRS", 200_000_000)


def check_pairs(n_samples: int, n_train: int, name: str) -> None:
    """``InputError`` naming the training file when ``n_samples × n_train`` is over
    :data:`MAX_PAIRS` (``LAB_MAX_WOOD_PAIRS``), before any similarity is computed."""
    pairs = n_samples * n_train
    if pairs > MAX_PAIRS:
        raise InputError(name, None, f"{n_train:,} training texts × {n_samples:,} samples = {pairs:,} similarities "
                                     f"for WOOD, over the limit of {MAX_PAIRS:,} (LAB_MAX_WOOD_PAIRS): use fewer "
                                     f"training texts, or bring each sample's similarity as a column of the samples "
                                     f"file (ease_column)")


def read_train(src, name: str) -> list[str]:
    r"""The training texts of a UTF-8 text file: one per line, blank lines skipped.

    A line ends at ``\n`` (or ``\r\n``) only: U+0085, U+2028, form feeds and the other
    characters ``str.splitlines`` also breaks at stay inside their text (real reviews hold them).

    >>> read_train(b"good\xc2\x85movie\r\n\n bad plot \n", "t.txt")
    ['good\x85movie', 'bad plot']
    """
    data = source_bytes(src, name).removeprefix(b"\xef\xbb\xbf")
    nul = data.find(b"\x00")  # anywhere in the file, as the CSV readers check
    if nul >= 0:
        raise InputError(name, data.count(b"\n", 0, nul) + 1, "not a text file (it contains binary data: a NUL byte)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(name, data[: e.start].count(b"\n") + 1, "not UTF-8 text (undecodable bytes)") from None
    lines = [line.strip() for line in text.split("\n")]  # strip: the \r of \r\n, spaces around
    texts = [line for line in lines if line]
    if not texts:
        raise InputError(name, None, "no training text (every line is blank)")
    return texts


def top_k_count(k: int, n_train: int) -> int:
    """``max(1, ceil(k/100 · N_train))`` in exact integer arithmetic.

    >>> top_k_count(25, 10), top_k_count(1, 10), top_k_count(100, 7), top_k_count(30, 10)
    (3, 1, 7, 3)
    """
    return max(1, -((-k * n_train) // 100))


def sts_table(train: list[str], texts, *, train_name: str = "train") -> np.ndarray:
    """Every sample's mean top-k % TF-IDF cosine similarity to the training texts, k = 1..100.

    Parameters
    ----------
    train : list of str
        The training texts (non-empty).
    texts : sequence of str
        The samples' texts.

    Returns
    -------
    numpy.ndarray
        (N, 100): column k − 1 holds ``mean(top c of cos(sample, train_j))`` with
        ``c = max(1, ceil(k/100 · N_train))``.
    """
    from sklearn.feature_extraction.text import TfidfVectorizer  # lazy: only with a training file

    vec = TfidfVectorizer()
    try:
        t = vec.fit_transform(train)
    except ValueError:
        raise InputError(train_name, None, "no words in the training texts (only one-letter tokens or "
                                           "punctuation), so no similarity can be computed") from None
    s = vec.transform(["" if x is None else str(x) for x in texts])
    n_train = t.shape[0]
    cuts = np.array([top_k_count(k, n_train) for k in range(1, TOP_KS + 1)])
    out = np.empty((s.shape[0], TOP_KS))
    step = max(1, CHUNK // max(n_train, 1))
    tt = t.T.tocsr()  # CSR × CSR: scipy would turn a CSC right-hand side into CSR for every chunk
    # the distinct counts c, ascending, and where each k's is; the sums of the top c are the
    # running sums of the ranges between consecutive counts (no running sum over every text)
    counts, which = np.unique(cuts, return_inverse=True)
    bounds = np.concatenate(([0], counts[:-1]))  # counts[-1] = N_train: the last range ends there

    def chunk(a: int) -> None:
        sims = (s[a:a + step] @ tt).toarray()
        sims.sort(axis=1)  # ascending; the top c are the last c
        top = np.add.reduceat(sims[:, ::-1], bounds, axis=1)
        np.cumsum(top, axis=1, out=top)
        out[a:a + step] = top[:, which] / cuts

    starts = range(0, s.shape[0], step)
    if len(starts) > 1 and (os.cpu_count() or 1) > 1:  # numpy sorts without the GIL
        with ThreadPoolExecutor(min(os.cpu_count() or 1, 4)) as pool:
            list(pool.map(chunk, starts))
    else:
        for a in starts:
            chunk(a)
    return out

"""Loading a QA competition: every per-question number computed once (spec §1–§2).

:func:`load_competition` validates the ground truth, every submission and the optional theme
weights, then computes for every (team, question) what no parameter changes: whether the
predicted paragraph is correct, the answer's F1 (normalised, maximum over the accepted
answers) and the inference time. The time threshold and the weights only re-aggregate these.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core.errors import InputError
from ..core.sources import expand_submissions, source_name
from .data import GroundTruth, Submission, load_ground_truth, load_submission, load_theme_weights, positions
from .normalize import encode, f1_matrix


@dataclass
class Competition:
    """A loaded, validated QA competition.

    ``correct``, ``f1`` and ``ms`` are (teams × questions): paragraph correct (0/1), answer
    F1, inference time in ms; ``theme`` the theme code of each question (index into
    ``themes``, sorted); ``theme_weights`` the weights file's values (None without one).
    """

    gt: GroundTruth
    submission_names: list[str]
    correct: np.ndarray
    f1: np.ndarray
    ms: np.ndarray
    predictions: list[Submission]  # raw paragraph ids and answers, for explanations
    theme_weights: dict[str, float] | None
    report: list[str] = field(default_factory=list)

    @property
    def questions(self) -> list[str]:
        return self.gt.questions

    @property
    def themes(self) -> list[str]:
        return self.gt.themes

    @property
    def theme(self) -> np.ndarray:
        return self.gt.theme

    @property
    def default_weights(self) -> dict[str, float]:
        """The weights file's values, else ``1 / (number of themes)`` for every theme."""
        if self.theme_weights is not None:
            return dict(self.theme_weights)
        return {t: 1.0 / len(self.themes) for t in self.themes}

    def __repr__(self) -> str:
        return (f"Competition({len(self.questions)} questions, {len(self.themes)} themes, "
                f"{len(self.submission_names)} submissions)")


def paragraph_correct(gt: GroundTruth, predicted: list) -> np.ndarray:
    """(teams × questions) 1.0 where the predicted paragraph is correct (spec §2): a true
    positive (the id is among the question's ``paragraph_ids``) or a true negative (no
    paragraph answers the question and the prediction is empty). ``predicted``: one sequence
    of paragraph ids per team, in question order ('' = no paragraph)."""
    vocab: dict[str, int] = {}
    gq, gp = [], []
    for q, ids in enumerate(gt.paragraph_ids):
        for pid in ids:
            gq.append(q)
            gp.append(vocab.setdefault(pid, len(vocab)))
    n_q, n_p = len(gt.questions), np.int64(len(vocab) + 1)
    unanswerable = np.array([not ids for ids in gt.paragraph_ids], dtype=bool)
    gkeys = np.asarray(gq, dtype=np.int64) * n_p + np.asarray(gp, dtype=np.int64)
    known = pa.array(list(vocab), type=pa.large_string())
    qs = np.arange(n_q, dtype=np.int64)
    out = np.zeros((len(predicted), n_q))
    for t, pred in enumerate(predicted):
        arr = pred.cast(pa.large_string()) if isinstance(pred, pa.Array) else pa.array(list(pred), pa.large_string())
        code = positions(arr, known)
        empty = np.asarray(pc.equal(pc.utf8_length(arr), 0), dtype=bool)
        tp = (code >= 0) & np.isin(qs * n_p + code, gkeys)
        out[t] = tp | (unanswerable & empty)
    return out


def load_competition(*, ground_truth, submissions, theme_weights=None,
                     progress: Callable[[int, int, str], None] | None = None) -> Competition:
    """Load and validate a QA competition (spec §1); raise :class:`InputError` on bad input.

    Sources are paths, bytes, file-likes or DataFrames; ``submissions`` is a list of files
    and/or folders (every ``*.csv`` inside), or a dict ``{name: source}`` (the team name is
    the file stem or the key).
    """
    gt = load_ground_truth(ground_truth, source_name(ground_truth, "ground truth"))
    subs = expand_submissions(submissions)
    if not subs:
        raise InputError("submissions", None, "no submission given")
    weights = None
    if theme_weights is not None:
        weights = load_theme_weights(theme_weights, source_name(theme_weights, "theme weights"), gt.themes)
    loaded: list[Submission] = []
    if progress:
        progress(0, len(subs), subs[0][0])
    for k, (name, src, disp) in enumerate(subs):
        s = load_submission(src, disp, gt)
        s.name = name
        loaded.append(s)
        if progress:
            progress(k + 1, len(subs), subs[k + 1][0] if k + 1 < len(subs) else "")
    T, Q = len(loaded), len(gt.questions)
    answers = [a if a else [""] for a in gt.answers]  # an unanswerable question: the empty answer
    answer_question = np.repeat(np.arange(Q), [len(a) for a in answers])
    (gold, preds), vocab = encode([[a for a_list in answers for a in a_list],
                                   pa.concat_arrays([s.answer.cast(pa.large_string()) for s in loaded])])
    f1 = f1_matrix(preds, T, gold, answer_question, vocab)
    correct = paragraph_correct(gt, [s.paragraph for s in loaded])
    ms = np.vstack([s.ms for s in loaded]) if loaded else np.zeros((0, Q))
    return Competition(gt, [s.name for s in loaded], correct, f1, ms, loaded, weights)

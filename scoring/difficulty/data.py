"""Loading a difficulty competition: samples, predictions and an optional training-text file
(spec §1), validated and reduced to what scoring needs, computed once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..core.sources import source_name
from .predictions import Predictions, read_predictions
from .samples import Samples, read_samples


@dataclass
class Competition:
    """A loaded, validated competition (see :func:`load_competition`)."""

    samples: Samples
    predictions: Predictions
    sts: np.ndarray | None = None  # (100, N): row k − 1 = mean top-k % similarity to the training texts
    train_file: str | None = None
    n_train: int = 0
    report: list[str] = field(default_factory=list)

    @property
    def submission_names(self) -> list[str]:
        """The models, in the predictions file's first-appearance order."""
        return self.predictions.models

    @property
    def ease_columns(self) -> list[str]:
        """The samples file's numeric columns (candidates for ``ease_column``)."""
        return list(self.samples.ease)

    @property
    def sample_ids(self) -> list[str]:
        return self.samples.id_list

    @property
    def labels(self) -> tuple[str, ...]:
        return self.samples.labels

    @property
    def n_samples(self) -> int:
        return self.samples.n

    def accuracy(self) -> np.ndarray:
        """Plain accuracy of every model over every sample of the file."""
        return self.predictions.correct.mean(axis=1)


def load_competition(samples, predictions, train=None, *,
                     progress: Callable[[int, int, str], None] | None = None) -> Competition:
    """Read and validate the samples, the predictions and (optionally) a training-text file.

    Parameters
    ----------
    samples, predictions : path, bytes, file-like or DataFrame
        The samples (``sample_id, label``, optional ``text``, numeric ease columns) and the
        long-format predictions (``model, sample_id, predicted, p<label>…``), spec §1.
    train : path, bytes or file-like, optional
        Training texts, one per line: WOOD's ease is then computed from them (:mod:`.sts`).
    progress : callable ``(done, total, name)``, optional
        Called as each file is read.

    Returns
    -------
    Competition
        Validated and reduced to what scoring needs; ``report`` lists the data's quirks that
        do not stop scoring (a predicted value that is not a gold label, probabilities that do
        not sum to 1, empty ease cells).

    Raises
    ------
    InputError
        For bad input: one line naming the file, the spreadsheet row (header = row 1) and the
        problem. Nothing is half-loaded.
    """
    steps = 3 if train is not None else 2

    def tick(done: int, what: str) -> None:
        if progress is not None:
            progress(done, steps, what)

    s_name = source_name(samples, "samples.csv")
    p_name = source_name(predictions, "predictions.csv")
    tick(0, s_name)
    smp = read_samples(samples, s_name)
    tick(1, p_name)
    preds = read_predictions(predictions, p_name, smp)
    report = list(preds.report)
    for col, values in smp.ease.items():
        empty = int(np.isnan(values).sum())
        if empty:
            report.append(f"{s_name}: column {col!r} is empty for {empty} of {smp.n} samples (they are left out of "
                          f"the metric, not of accuracy, when {col!r} is the ease column)")
    sts, t_name, n_train = None, None, 0
    if train is not None:
        from .sts import check_pairs, read_train, sts_table

        t_name = source_name(train, "train.txt")
        if smp.text is None:
            from ..core.errors import InputError

            raise InputError(s_name, 1, "missing column 'text' (needed to compare the samples with the training "
                                        "texts of --train)")
        tick(2, t_name)
        texts = read_train(train, t_name)
        check_pairs(smp.n, len(texts), t_name)
        sts, n_train = np.ascontiguousarray(sts_table(texts, smp.text, train_name=t_name).T), len(texts)
    tick(steps, "")
    return Competition(samples=smp, predictions=preds, sts=sts, train_file=t_name, n_train=n_train, report=report)

"""The input files of a QA competition (spec §1), read and validated.

Every cell is read as text (``scoring.core.tables.read_table``); the JSON-list cells of the
ground truth are read with ``json.loads`` only. Every problem is an :class:`InputError`
naming the file, the spreadsheet row (header = row 1) and the problem.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core import limits
from ..core.errors import InputError
from ..core.jsonsafe import check_bounds, decoder
from ..core.tables import (
    arrow_array,
    cell,
    codes,
    first_duplicate,
    first_empty,
    parse_number_column,
    read_table,
    require_columns,
    row_of,
)

GT_COLUMNS = ["question_id", "theme", "paragraph_ids", "answers"]
SUB_COLUMNS = ["question_id", "paragraph_id", "answer", "inference_ms"]
WEIGHT_COLUMNS = ["theme", "weight"]
_EXAMPLES = {"paragraph_ids": '["p1", "p2"]', "answers": '["an answer"]'}
_DECODER = decoder()


@dataclass
class GroundTruth:
    """The validated ground truth, in file order."""

    name: str
    questions: list[str]
    themes: list[str]  # sorted
    theme: np.ndarray  # theme code per question (index into ``themes``)
    paragraph_ids: list[list[str]]  # accepted paragraph ids per question (distinct, file order)
    answers: list[list[str]]  # accepted answers per question
    rows: np.ndarray  # spreadsheet row of each question
    text: list[str] | None  # the optional ``question`` column
    question_set: pa.Array = field(init=False, repr=False)  # the question ids, for look-ups

    def __post_init__(self):
        self.question_set = pa.array(self.questions, type=pa.large_string())


def positions(arr: pa.Array, values: pa.Array) -> np.ndarray:
    """Position of every cell of ``arr`` in ``values`` (-1 when absent), as int64."""
    if values.type != arr.type:
        values = values.cast(arr.type)
    return np.asarray(pc.fill_null(pc.index_in(arr, value_set=values), -1), dtype=np.int64)


def _json_list(text: str, name: str, row: int, column: str) -> list:
    try:
        check_bounds(text, what=name, row=row)  # no RecursionError, no int-string ValueError
    except InputError as e:
        raise InputError(name, row, f"{column}: {e.problem}", column=column, value=text) from None
    try:
        value = _DECODER.decode(text)
    except (ValueError, RecursionError):  # DuplicateKey too: an object is not a list anyway
        value = None
    if not isinstance(value, list):
        shown = text if len(text) <= 40 else text[:37] + "..."
        example = _EXAMPLES[column]
        raise InputError(name, row, f"{column} {shown!r} is not a JSON list (expected e.g. {example} or [])")
    return value


def paragraph_id_list(text: str, name: str, row: int) -> list[str]:
    """A ``paragraph_ids`` cell: a JSON list of strings or integers (``12`` means ``"12"``);
    ids are stripped, non-empty, and repeats collapse.

    >>> paragraph_id_list('[" p1 ", 12, "p1"]', "gt.csv", 2)
    ['p1', '12']
    """
    out: list[str] = []
    for item in _json_list(text, name, row, "paragraph_ids"):
        if isinstance(item, str):
            pid = item.strip()
        elif isinstance(item, int) and not isinstance(item, bool):
            pid = str(item)
        else:
            raise InputError(name, row, f"paragraph_ids holds {json.dumps(item)[:30]}, expected paragraph ids "
                                        "(strings or integers)")
        if not pid:
            raise InputError(name, row, "paragraph_ids holds an empty paragraph id")
        if pid not in out:
            out.append(pid)
    return out


def answer_list(text: str, name: str, row: int) -> list[str]:
    """An ``answers`` cell: a JSON list of strings.

    >>> answer_list('["Paris", "the city of Paris"]', "gt.csv", 2)
    ['Paris', 'the city of Paris']
    """
    items = _json_list(text, name, row, "answers")
    for item in items:
        if not isinstance(item, str):
            raise InputError(name, row, f"answers holds {json.dumps(item)[:30]}, expected answer strings")
    return items


def load_ground_truth(src, name: str) -> GroundTruth:
    """Read and validate the ground truth (``question_id, theme, paragraph_ids, answers``)."""
    df = read_table(src, name)
    require_columns(df, GT_COLUMNS, name)
    if len(df) == 0:
        raise InputError(name, None, "the ground truth has no rows")
    n_themes = int(df["theme"].nunique())
    if n_themes > limits.MAX_THEMES:  # before anything grows with the themes
        raise InputError(name, None, f"{n_themes:,} themes, over the limit of {limits.MAX_THEMES:,} "
                                     "(LAB_MAX_THEMES raises it)")
    first_empty(df, "question_id", name)
    first_empty(df, "theme", name)
    first_duplicate(df, "question_id", name, "question_id")
    rows = np.asarray(df.attrs["rows"], dtype=np.int64)
    paragraphs = [paragraph_id_list(t, name, int(r)) for t, r in zip(df["paragraph_ids"].tolist(), rows, strict=True)]
    answers = [answer_list(t, name, int(r)) for t, r in zip(df["answers"].tolist(), rows, strict=True)]
    themes = sorted(set(df["theme"].tolist()))
    text = df["question"].tolist() if "question" in df.columns else None
    return GroundTruth(name, df["question_id"].tolist(), themes, codes(df["theme"], themes), paragraphs, answers,
                       rows, text)


@dataclass
class Submission:
    """One team's predictions, reordered to the ground truth's question order."""

    name: str
    paragraph: pa.Array  # predicted paragraph id per question ('' = no paragraph)
    answer: pa.Array
    ms: np.ndarray  # inference time per question
    rows: np.ndarray  # spreadsheet row per question


def load_submission(src, name: str, gt: GroundTruth) -> Submission:
    """Read and validate one submission (``question_id, paragraph_id, answer, inference_ms``):
    every question of the ground truth exactly once, no other question."""
    df = read_table(src, name, numeric=lambda c: c == "inference_ms")
    require_columns(df, SUB_COLUMNS, name)
    first_empty(df, "question_id", name)
    q = positions(text_array(df["question_id"]), gt.question_set)
    unknown = q < 0
    if unknown.any():
        i = int(np.flatnonzero(unknown)[0])
        raise InputError(name, row_of(df, i), f"question_id {cell(df['question_id'], i)} is not in the ground truth")
    seen = np.bincount(q, minlength=len(gt.questions))
    if (seen > 1).any():
        first_duplicate(df, "question_id", name, "question_id")
    lines = np.asarray(df.attrs["rows"], dtype=np.int64)
    ms = parse_number_column(df["inference_ms"], name, "inference_ms", lines)
    bad = ~np.isfinite(ms) | (ms < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(name, row_of(df, i),
                         f"inference_ms must be a finite number >= 0, got {cell(df['inference_ms'], i)}")
    if (seen == 0).any():
        missing = np.flatnonzero(seen == 0)
        raise InputError(name, None, f"{len(missing)} question(s) of the ground truth are missing "
                                     f"(first: {gt.questions[int(missing[0])]!r})")
    order = np.argsort(q, kind="stable")  # the row of every question, in ground-truth order
    take = pa.array(order)
    return Submission(name, text_array(df["paragraph_id"]).take(take), text_array(df["answer"]).take(take),
                      ms[order], lines[order])


def text_array(col) -> pa.Array:
    """A text column of :func:`read_table` as one pyarrow string array (nulls as '')."""
    arr = arrow_array(col)
    if arr is None:
        arr = pa.array(col.astype(str).tolist(), type=pa.large_string())
    return pc.fill_null(arr, "")


def load_theme_weights(src, name: str, themes: list[str]) -> dict[str, float]:
    """Read ``theme, weight``: every theme of the ground truth exactly once, each weight a
    finite number >= 0, at least one > 0. Returns {theme: weight} in sorted theme order."""
    df = read_table(src, name, numeric=lambda c: c == "weight")
    require_columns(df, WEIGHT_COLUMNS, name)
    first_empty(df, "theme", name)
    t = codes(df["theme"], themes)
    if (t < 0).any():
        i = int(np.flatnonzero(t < 0)[0])
        shown = ", ".join(themes[:10]) + (", …" if len(themes) > 10 else "")
        raise InputError(name, row_of(df, i), f"theme {cell(df['theme'], i)} is not a theme of the ground truth "
                                              f"(themes: {shown})")
    first_duplicate(df, "theme", name, "theme")
    w = parse_number_column(df["weight"], name, "weight", df.attrs["rows"])
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(name, row_of(df, i), f"weight must be a finite number >= 0, got {cell(df['weight'], i)}")
    given = dict(zip(df["theme"].tolist(), w.tolist(), strict=True))
    for th in themes:
        if th not in given:
            raise InputError(name, None, f"no weight for theme {th!r}")
    if not any(v > 0 for v in given.values()):
        raise InputError(name, None, "every weight is 0; at least one must be > 0")
    return {th: float(given[th]) for th in themes}


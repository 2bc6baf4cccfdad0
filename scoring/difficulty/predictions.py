"""The predictions file (spec §1): ``model, sample_id, predicted`` and ``p<label>`` columns.

Long format, one row per model and sample; a model covers every sample exactly once. The
probability columns are every column whose name starts with ``p`` (other than
``predicted``); each gold label needs its ``p<label>``. Read into per-row codes, then checked
and turned into (models × samples) matrices: whether each prediction is correct, its
confidence (the row's largest probability) and the predicted value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..core.errors import InputError
from ..core.sources import source_bytes
from ..core.tables import arrow_array, cell, codes, parse_number_column, read_table, require_columns
from .reading import arrow_read, dictionary_codes, first_appearance, header_of, index_of, listing, row_numbers
from .samples import Samples

BLOCK = 1 << 16  # rows per block of the probabilities' checks (temporaries of a block, not of the file)
SUM_TOLERANCE = 0.01  # spec §1: a row's probabilities may sum to 1 ± 0.01
PROB_SLACK = 1e-6  # a probability may exceed 1 by this much (float32 softmax output)
DICT = pa.dictionary(pa.int32(), pa.string())


def probability_columns(header: list[str]) -> list[str]:
    """The ``p*`` columns of a predictions header.

    >>> probability_columns(["model", "sample_id", "p0", "p1", "predicted", "note"])
    ['p0', 'p1']
    """
    return [c for c in header if c.startswith("p") and c != "predicted"]


@dataclass
class Predictions:
    """The validated predictions, as (models × samples) matrices in the samples' order."""

    file: str
    models: list[str]  # first-appearance order
    correct: np.ndarray  # (M, N) bool
    confidence: np.ndarray  # (M, N) float: the row's largest probability
    predicted: np.ndarray  # (M, N) int16: code in ``values``
    values: list[str]  # predicted values: the gold labels, then any other value met
    prob_columns: list[str]
    report: list[str]


@dataclass
class _Rows:
    """The file's rows as codes: model, sample (-1 unknown), predicted value; probabilities."""

    model: np.ndarray
    models: list[str]
    sample: np.ndarray | None  # None: the rows are blocks of every sample in the samples' order
    sample_text: pa.Array | pa.ChunkedArray
    pred: np.ndarray
    values: list[str]
    probs: list[list[np.ndarray]]  # blocks of consecutive rows: per block, one array per probability column
    prob_names: list[str]
    rows: np.ndarray | None
    data: bytes | None
    n_fields: int

    def row(self, i: int, name: str) -> int:
        if self.rows is None:
            self.rows = row_numbers(self.data, self.n_fields, len(self.model), name)
        return int(self.rows[i])


def read_predictions(src, name: str, samples: Samples, *, fast: bool = True) -> Predictions:
    """Read and validate a predictions file against the samples (``fast=False``: always
    through ``read_table``, the reference reading the fast path must agree with)."""
    r = None
    if not isinstance(src, pd.DataFrame):
        data = source_bytes(src, name)
        r = _fast(data, name, samples) if fast and b"\x00" not in data else None
        src = data if r is None else src
    if r is None:
        r = _slow(src, name, samples)
    return _validate(r, name, samples)


def _require(header: list[str], samples: Samples, name: str) -> list[str]:
    require_columns(pd.DataFrame(columns=header), ["model", "sample_id", "predicted"], name)
    probs = probability_columns(header)
    require_columns(pd.DataFrame(columns=header), [f"p{label}" for label in samples.labels], name)
    return probs


def _fast(data: bytes, name: str, samples: Samples) -> _Rows | None:
    header = header_of(data, name)
    if not {"model", "sample_id", "predicted"} <= set(header):
        return None  # read_table words the problem
    probs = _require(header, samples, name)
    types = {"model": DICT, "predicted": DICT, **{c: pa.float64() for c in probs}}
    t = arrow_read(data, types, name)
    if t is None or t.num_rows == 0:
        return None
    p = [[b.column(j).to_numpy() for j in range(len(probs))] for b in t.select(probs).to_batches()]  # no copy
    if not all(np.isfinite(c).all() for block in p for c in block):
        return None  # an empty or non-numeric probability: read_table names it
    model, models = dictionary_codes(t["model"])
    pred, values = dictionary_codes(t["predicted"], {v: i for i, v in enumerate(samples.labels)})
    sid = t["sample_id"]
    sample = _blocks(model, sid, samples)
    if sample is None:
        sample = index_of(sid, samples.ids)
        miss = np.flatnonzero(sample < 0)
        if len(miss):  # maybe only spaces around the id
            sample[miss] = index_of(pc.utf8_trim_whitespace(pc.take(sid, pa.array(miss))), samples.ids)
    return _Rows(model, models, sample, sid, pred, values, p, probs, None, data, len(header))


def _blocks(model: np.ndarray, sid: pa.ChunkedArray, samples: Samples) -> np.ndarray | None:
    """None unless the rows are blocks of one model each holding every sample in the
    samples' order (the usual layout; then no lookup is needed): ``np.empty(0)`` then."""
    n, r = samples.n, len(model)
    if r == 0 or r % n:
        return None
    blocks = model.reshape(r // n, n)
    if not (blocks == blocks[:, :1]).all() or len(np.unique(blocks[:, 0])) != r // n:
        return None  # not one block per model (a model twice is a duplicate: the general path names it)
    for b in range(r // n):
        if not pc.all(pc.equal(sid.slice(b * n, n), samples.ids)).as_py():
            return None
    return np.empty(0, dtype=np.int64)


def _slow(src, name: str, samples: Samples) -> _Rows:
    df = read_table(src, name, numeric=lambda c: c in probability_columns([c]))
    header = [str(c) for c in df.columns]
    probs = _require(header, samples, name)
    lines = np.asarray(df.attrs["rows"])
    if len(df) == 0:
        raise InputError(name, None, "no predictions (the file has a header but no rows)")
    p = [parse_number_column(df[c], name, c, lines) for c in probs]
    for j, col in enumerate(p):
        bad = np.flatnonzero(~np.isfinite(col))
        if len(bad):
            raise InputError(name, int(lines[bad[0]]), f"{probs[j]} {cell(df[probs[j]], int(bad[0]))} is not a finite "
                                                       f"number")
    model_codes, models = pd.factorize(df["model"].to_numpy(dtype=object))
    labels = list(samples.labels)
    pred_text = df["predicted"].to_numpy(dtype=object)
    others = sorted(set(pred_text.tolist()) - set(labels))
    values = labels + others
    pred = codes(df["predicted"], values).astype(np.int32)
    sample = codes(df["sample_id"], samples.id_list)
    blocks = [[col[a:a + BLOCK] for col in p] for a in range(0, len(df), BLOCK)]
    return _Rows(model_codes.astype(np.int32), [str(m) for m in models], sample, arrow_array(df["sample_id"]), pred,
                 values, blocks, probs, lines, None, len(header))


def _validate(r: _Rows, name: str, samples: Samples) -> Predictions:
    n, n_rows = samples.n, len(r.model)
    # models in first-appearance order (the fast path numbers them per chunk)
    first = first_appearance(r.model, len(r.models))
    order = np.argsort(first, kind="stable")
    if (order != np.arange(len(order))).any():
        remap = np.empty(len(order), dtype=np.int32)
        remap[order] = np.arange(len(order), dtype=np.int32)
        r.model, r.models = remap[r.model], [r.models[i] for i in order]
    labels = len(samples.labels)
    if r.values[labels:] != sorted(r.values[labels:]):
        canon = list(samples.labels) + sorted(r.values[labels:])
        remap = np.array([canon.index(v) for v in r.values], dtype=np.int32)
        r.pred, r.values = remap[r.pred], canon
    models = r.models
    if "" in models:
        raise InputError(name, r.row(int(np.flatnonzero(r.model == models.index(""))[0]), name), "model is empty")
    m = len(models)
    if r.sample is not None and len(r.sample) == 0:
        sample = None  # blocks: row b·N + i is model b, sample i
    else:
        sample = r.sample
        unknown = np.flatnonzero(sample < 0)
        if len(unknown):
            i = int(unknown[0])
            sid = str(r.sample_text[i].as_py()).strip()
            raise InputError(name, r.row(i, name), "sample_id is empty" if sid == "" else
                             f"sample_id {sid!r} is not in {samples.file} ({len(unknown)} such row"
                             f"{'s' if len(unknown) > 1 else ''})")
        key = r.model.astype(np.int64) * n + sample
        counts = np.bincount(key, minlength=m * n)
        if counts.max() > 1:
            srt = np.argsort(key, kind="stable")
            dup = srt[1:][key[srt[1:]] == key[srt[:-1]]]
            i = int(dup.min())
            j = int(np.flatnonzero(key == key[i])[0])
            raise InputError(name, r.row(i, name), f"duplicate row for model {models[r.model[i]]!r} and sample "
                                                   f"{samples.id_list[sample[i]]!r} (first on row {r.row(j, name)})")
        if n_rows != m * n:
            k = int(np.flatnonzero(counts == 0)[0])
            missing = int((counts == 0).sum())
            raise InputError(name, None, f"model {models[k // n]!r} has no row for sample {samples.id_list[k % n]!r} "
                                         f"(row {int(samples.rows[k % n])} of {samples.file}); every model must "
                                         f"cover every sample exactly once ({missing} model-sample pair"
                                         f"{'s' if missing > 1 else ''} missing)")
    report = []
    if r.prob_names:
        conf, off = _confidence(r, name)
        if len(off):
            report.append(_sum_warning(r, off, models, name))
    else:
        conf = np.ones(n_rows)
    other = np.flatnonzero(r.pred >= labels)
    if len(other):
        shown = ", ".join(f"{r.row(int(i), name)} ({r.values[r.pred[i]]!r})" for i in other[:10])
        more = f", … ({len(other)} in all)" if len(other) > 10 else ""
        report.append(f"{name}: {len(other)} row{'s' if len(other) > 1 else ''} with a predicted value that is not a "
                      f"gold label ({', '.join(samples.labels)}), counted incorrect: row"
                      f"{'s' if len(other) > 1 else ''} {shown}{more}")
    if sample is None:
        pred = r.pred.reshape(m, n)
        confidence = conf.reshape(m, n)
    else:
        pred = np.empty((m, n), dtype=np.int32)
        confidence = np.empty((m, n))
        pred[r.model, sample] = r.pred
        confidence[r.model, sample] = conf
    return Predictions(file=name, models=models, correct=pred == samples.gold[None, :], confidence=confidence,
                       predicted=pred.astype(np.int16 if len(r.values) < 2**15 else np.int32), values=r.values,
                       prob_columns=r.prob_names, report=report)


def _confidence(r: _Rows, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Each row's largest probability, and the rows whose probabilities sum to more than
    ``SUM_TOLERANCE`` away from 1; a probability outside [0, 1] raises naming its row. A block
    of rows at a time: the only array the size of the file is the one kept."""
    conf = np.empty(sum(len(block[0]) for block in r.probs))
    total = np.empty(min(BLOCK, len(conf)))
    off, at = [], 0
    for block in r.probs:
        k = len(block[0])
        if k == 0:
            continue
        if any(col.min() < 0 or col.max() > 1 + PROB_SLACK for col in block):
            i, j = min((int(b[0]), j) for j, col in enumerate(block)
                       if len(b := np.flatnonzero((col < 0) | (col > 1 + PROB_SLACK))))
            raise InputError(name, r.row(at + i, name), f"probability {r.prob_names[j]} = {block[j][i]:g} is outside "
                                                        f"[0, 1]")
        c, t = conf[at:at + k], total[:k]
        np.copyto(c, block[0])
        np.copyto(t, block[0])
        for col in block[1:]:
            np.maximum(c, col, out=c)
            t += col
        t -= 1.0
        bad = np.flatnonzero(np.abs(t, out=t) > SUM_TOLERANCE + 1e-9)
        if len(bad):
            off.append(bad + at)
        at += k
    return conf, np.concatenate(off) if off else np.empty(0, dtype=np.int64)


def _sum_warning(r: _Rows, rows: np.ndarray, models: list[str], name: str) -> str:
    per = np.bincount(r.model[rows], minlength=len(models))
    parts = []
    for k in np.flatnonzero(per):
        mine = rows[r.model[rows] == k][:3]
        parts.append(f"{models[k]} {per[k]} ({listing((r.row(int(i), name) for i in mine), int(per[k]), 3)})")
    return (f"{name}: {len(rows)} row{'s' if len(rows) > 1 else ''} whose probabilities sum to more than "
            f"{SUM_TOLERANCE:g} away from 1 (confidence is still the row's largest probability): " + "; ".join(parts))

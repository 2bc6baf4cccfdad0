"""A large submission written the usual way, read in one compiled pass (:mod:`.kernels`).

The usual layout: a header of distinct plain names (``id``, ``class``, ``predictionstring``
and the probability columns, in any order), then one record a line, ``\\n`` line ends, no
quotes, every byte printable ASCII, no cell empty or starting or ending with a space, and
every probability a plain decimal (``0.305``, ``1``, ``0.14100000000000001``). Such a file
gives exactly what the
general reader gives (:func:`scoring.core.tables.read_table`, then the canonical ranges of
:func:`.parse.canonical_ranges`): the same table, the same ranges where they fall in the
line of numbers this pass compares with (below :data:`LINE_NUMBERS`; a range past it is
parsed as a list of words, to the same segments). Anything else — and every file with a
problem — goes to the general reader, which names the file, the row and the problem.

Only files of :data:`COMPILED_MIN_BYTES` or more come here, and only where numba is
installed. Loading numba costs a process about 0.6–0.8 s of CPU once (importing it, then its
compiler's first start) and about 100 MiB of memory, which only a few hundred MB of
submissions repay (:data:`COMPILED_MIN_VOLUME`). So a process loads the compiled pass when
told that it has that much to read (``load=True``: a competition's loader tells its
processes so), or once it has read that much by the general reader (a server, a pool's
worker that stays: what it has spent by then is what loading would have cost); a process
that holds it uses it for every large file.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..core import limits
from ..core.sources import source_bytes, source_size
from ..core.tables import text_series
from .jit import compiled, loaded
from .parse import TokenError, parse_wordlists
from .segments import _line_index, _number_line

#: files this size or more are read by the compiled pass where it is loaded
COMPILED_MIN_BYTES = 4 << 20
#: bytes of large submissions that repay loading the compiled pass in one process: its
#: one-off cost (0.6–0.8 s of CPU, measured in a new process) over what it saves, about 25 ms
#: a 13.7 MB file (scan_submission of the benchmark's files, one process, one thread: 57 ms by
#: the general reader, 30–35 ms by this pass, 2026-11-29), break even near 380 MB
COMPILED_MIN_VOLUME = 400 << 20
#: the canonical ranges this pass recognises start below this word (FP1's essays have at most
#: a few thousand words); a range past it is parsed as a list of words
LINE_NUMBERS = 1 << 17
_MAX_FIELDS = 64  # a header wider than this is not the usual layout
_TEXT = ("id", "class", "predictionstring")
_MAX_CLASSES = 64  # more distinct classes than this is not the usual layout
_TENS = np.array([10.0 ** e for e in range(23)])  # exact doubles


def _special() -> np.ndarray:
    t = np.zeros(256, dtype=np.bool_)
    t[:32] = True  # controls, line ends
    t[128:] = True  # non-ASCII
    t[[ord(","), ord('"'), 127]] = True
    return t


_SPECIAL = _special()


@dataclass
class UsualScan:
    """A submission read by the compiled pass: what :func:`.data.scan_submission` gives, its
    table built only when asked for (:meth:`table`; scoring never needs its text)."""

    n: int
    columns: list[str]  # the columns kept, in the file's order
    header: list[str] | None  # the whole header, when ``keep`` left columns out
    numbers: dict[str, pd.Series]  # the probability columns, as numbers
    essay: np.ndarray
    essay_values: pa.Array
    cls: np.ndarray
    cls_values: pa.Array
    ranges: tuple[np.ndarray, np.ndarray, np.ndarray]
    words: tuple | TokenError
    strings: Cells  # the predictionstrings, each read when asked for

    @property
    def rows(self) -> np.ndarray:
        return np.arange(2, self.n + 2)

    def table(self) -> pd.DataFrame:
        """The table :func:`~scoring.core.tables.read_table` gives for the same bytes."""
        text = {"id": lambda: self.essay_values.take(pa.array(self.essay)),
                "class": lambda: self.cls_values.take(pa.array(self.cls)),
                "predictionstring": self.strings.array}
        cols = {c: self.numbers[c] if c in self.numbers else text_series(text[c]()) for c in self.columns}
        df = pd.DataFrame(cols) if cols else pd.DataFrame(index=pd.RangeIndex(self.n))
        if self.header is not None:
            df.attrs["header"] = self.header
        df.attrs["rows"] = self.rows
        return df


class Cells:
    """The cells of one text column, where the bytes hold them (``start``/``end``): a cell is
    read when asked for (``cells[i]``, a message's value), the column built by :meth:`array`."""

    def __init__(self, data: np.ndarray, start: np.ndarray, end: np.ndarray):
        self.data, self.start, self.end = data, start, end

    def __len__(self) -> int:
        return len(self.start)

    def __getitem__(self, i: int) -> str:
        return bytes(self.data[int(self.start[i]): int(self.end[i])]).decode("ascii")

    def take(self, idx: np.ndarray) -> Cells:
        return Cells(self.data, self.start[idx], self.end[idx])

    def array(self) -> pa.Array:
        """The cells as one arrow ``large_string`` array (the bytes copied end to end)."""
        offsets, chars = compiled().gather(self.data, self.start, self.end)
        return pa.Array.from_buffers(pa.large_string(), len(self), [None, pa.py_buffer(offsets),
                                                                    pa.py_buffer(chars)])


_general_bytes = 0  # bytes of large files this process read by the general reader


def read_usual(src, name: str, keep=None, *, load: bool = False):
    """The submission ``src`` read by the compiled pass (a :class:`UsualScan`), or what the
    general reader should read instead: ``src`` itself when this pass does not apply, or its
    bytes once read (so that a file is never read twice). ``load``: load the compiled pass if
    this process has not yet; else it is loaded once this process has read
    :data:`COMPILED_MIN_VOLUME` of large files by the general reader (module doc). Raises only
    what reading the source raises (:func:`~scoring.core.sources.source_bytes`: a missing
    file, the size limit)."""
    global _general_bytes
    size = source_size(src)
    if size < COMPILED_MIN_BYTES or size > limits.MAX_FILE_BYTES:
        return src
    if loaded() is None and not (load or _general_bytes >= COMPILED_MIN_VOLUME) or compiled() is None:
        _general_bytes += size
        return src
    data = source_bytes(src, name)
    got = scan_usual(data, keep)
    return data if got is None else got


def _header(data: bytes) -> tuple[list[str], int] | None:
    cut = data.find(b"\n", 0, 1 << 16)
    if cut <= 0:
        return None
    line = data[:cut]
    if not line.isascii() or b'"' in line or b"\r" in line or b" " in line or b"\t" in line:
        return None
    names = line.decode("ascii").split(",")
    if len(names) > _MAX_FIELDS or len(set(names)) != len(names) or "" in names or \
            any(c not in names for c in _TEXT) or not all(n.isprintable() for n in names):
        return None
    return names, cut + 1


def _text(buf: np.ndarray, at: np.ndarray, n: int) -> pa.Array:
    return Cells(buf, at[0, :n], at[1, :n]).array()


def scan_usual(data: bytes, keep=None) -> UsualScan | None:
    """:func:`read_usual` on bytes: the scan, or None when the general reader must decide."""
    kernels = compiled()
    head = _header(data) if kernels is not None else None
    if head is None:
        return None
    names, start = head
    kept = [c for c in names if keep is None or c in keep]
    numbers = [c for c in kept if c not in _TEXT]
    roles = np.array([_TEXT.index(c) if c in _TEXT else 3 + numbers.index(c) if c in numbers else -1 for c in names],
                     dtype=np.int64)
    line, offs = _number_line(LINE_NUMBERS)
    number_at, _ = _line_index(LINE_NUMBERS)
    buf = np.frombuffer(data, dtype=np.uint8)
    status, n, run, run_at, n_runs, cls, cls_at, n_cls, ps_at, canon, a, b, probs, hard, n_hard = kernels.scan_rows(
        buf, start, roles, len(numbers), _SPECIAL, np.frombuffer(line, dtype=np.uint8), offs, number_at, _TENS,
        limits.MAX_CELL_BYTES, kernels.count_lines(buf) + 1, _MAX_CLASSES)
    if status != kernels.OK:
        return None
    if n_hard:  # numbers past the exact quotient (17 digits...): arrow's parser, as the general reader's
        cells = Cells(buf, hard[2, :n_hard], hard[3, :n_hard]).array()
        probs[hard[1, :n_hard], hard[0, :n_hard]] = np.asarray(pc.cast(cells, pa.float64()), dtype=float)
    # the essays: one id a run of records, the same id in two runs one essay (in order of first
    # appearance, as :func:`~scoring.core.tables.factorize` numbers them)
    enc = pc.dictionary_encode(_text(buf, run_at, n_runs))
    essay = np.asarray(enc.indices, dtype=np.int64)[run[:n]]
    canon, a, b = canon[:n], a[:n], b[:n]
    strings = Cells(buf, ps_at[0, :n], ps_at[1, :n])
    other = np.flatnonzero(~canon)
    try:
        words = (other, *parse_wordlists(strings.take(other).array())) if len(other) else \
            (other, np.zeros(0, np.int64), np.zeros(0, np.int64))
    except TokenError as e:
        words = TokenError(int(other[e.index]), e.problem)
    return UsualScan(n, kept, names if keep is not None else None,
                     {c: pd.Series(probs[k, :n], dtype=float, copy=False) for k, c in enumerate(numbers)},
                     essay, enc.dictionary, cls[:n], _text(buf, cls_at, n_cls), (canon, a, b), words, strings)

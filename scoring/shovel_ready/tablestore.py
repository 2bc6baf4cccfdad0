"""Every submission's match tables — its predictions and overlapping (prediction, ground
truth) pairs, raw and after overlap removal — kept in memory or in an on-disk cache.

Only a threshold, quality, attribute or overlap-removal change reads them again (the
sliders for ``w``, α and the boost work on sums kept in memory). One submission's tables
are one Arrow IPC file (:func:`pack`; typed, no pickle, checked when read): in memory for a
small competition, else a file in a cache folder, named by the SHA-256 of its content and
read back as memory-mapped arrays (:meth:`TableStore.get`). The folder is ``$LAB_CACHE_DIR`` (default: the temp folder) /
``lab-tables-<host>-<pid>-<random>``; it is removed when its store is released or closed, at exit,
and — for a process that was killed — by the next store made on the machine.
In memory mode, worker processes hand their tables over through files in such a folder too
(:meth:`TableStore.handoff_folder`): each is mapped into memory as it is and its name removed.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import socket
import tempfile
import weakref
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from ..core.errors import InputError

PRED_COLUMNS = ("essay", "cls", "size", "wmin", "row")  # per prediction
PAIR_COLUMNS = ("p", "g", "inter", "d")  # per overlapping pair
COLUMNS = PRED_COLUMNS + PAIR_COLUMNS
#: bytes of match tables kept in memory before a competition's tables go to disk
MEMORY_BYTES = int(os.environ.get("LAB_MEMORY_TABLES", 512 << 20))


@dataclass
class SubTables:
    """One submission's predictions (``essay, cls, size, wmin, row``: file row, 0-based) and
    overlapping pairs (``p``: prediction position, ``g``: ground-truth position, ``inter``:
    intersection size, ``d``: probability of the ground truth's label), in one mode."""

    essay: np.ndarray
    cls: np.ndarray
    size: np.ndarray
    wmin: np.ndarray
    row: np.ndarray
    p: np.ndarray
    g: np.ndarray
    inter: np.ndarray
    d: np.ndarray

    @property
    def n(self) -> int:
        return len(self.size)

    @property
    def n_pairs(self) -> int:
        return len(self.p)


def _dtype(name: str, modes: list[SubTables]) -> np.dtype:
    if name == "d":
        return np.dtype(np.float64)
    if name == "cls" and max((int(m.cls.max()) for m in modes if m.n), default=0) < 1 << 15:
        return np.dtype(np.int16)
    return np.dtype(np.int32)


@functools.lru_cache(maxsize=16)
def _schema(dtypes: str) -> pa.Schema:
    """One list column per table column: a record batch of one row holds a mode's tables."""
    return pa.schema([pa.field(c, pa.list_(pa.from_numpy_dtype(np.dtype(t))), nullable=False)
                      for c, t in zip(COLUMNS, dtypes, strict=True)])


def pack(raw: SubTables, removed: SubTables | None) -> tuple[pa.Buffer, np.ndarray, str]:
    """Both modes' tables as one Arrow IPC file in memory; ``removed=None`` when overlap
    removal changed nothing (the file then holds the raw mode only).

    Returns ``(buffer, layout, dtypes)``: ``layout[mode] = (predictions, pairs)`` (mode 0 raw,
    1 removed), what a reader checks the file against; ``dtypes`` one numpy type character
    per column (``i``/``h``/``d``), the schema the file must have.

    >>> t = SubTables(*(np.arange(2, dtype=np.int32) for _ in PRED_COLUMNS), *(np.zeros(1, np.int32),) * 3,
    ...               np.ones(1))
    >>> buf, layout, dtypes = pack(t, None)
    >>> layout.tolist(), dtypes, unpack(buf, layout, dtypes, True).d.tolist()
    ([[2, 1], [2, 1]], 'ihiiiiiid', [1.0])
    """
    modes = [raw] if removed is None else [raw, removed]
    dtypes = "".join(_dtype(c, modes).char for c in COLUMNS)
    schema = _schema(dtypes)
    batches = [pa.record_batch([_one_row(getattr(m, c), t) for c, t in zip(COLUMNS, dtypes, strict=True)],
                               schema=schema) for m in modes]
    size = pa.MockOutputStream()  # the file's size first (no bytes copied), then one exact buffer
    for sink in (size, None):
        out = None if sink is not None else pa.allocate_buffer(size.size())
        with pa.ipc.new_file(sink if sink is not None else pa.FixedSizeBufferWriter(out), schema) as writer:
            for b in batches:
                writer.write_batch(b)
    layout = np.array([[raw.n, raw.n_pairs], [modes[-1].n, modes[-1].n_pairs]], dtype=np.int64)
    return out, layout, dtypes


def _one_row(values: np.ndarray, t: str) -> pa.ListArray:
    """``values`` as one list cell (zero-copy over the array in the type ``t``)."""
    typ = pa.from_numpy_dtype(np.dtype(t))
    a = np.ascontiguousarray(values)
    child = pa.Array.from_buffers(pa.from_numpy_dtype(a.dtype), len(a), [None, pa.py_buffer(a)])
    if child.type != typ:  # narrowed in arrow's memory pool, which keeps its pages for the next file
        child = child.cast(typ, safe=False)
    offsets = pa.py_buffer(np.array([0, len(a)], dtype=np.int32))
    return pa.Array.from_buffers(pa.list_(typ), 1, [None, offsets], children=[child])


def _corrupt(name: str, problem: str) -> InputError:
    return InputError(name, None, f"the match-table cache file is damaged ({problem}); load the competition again")


def unpack(buf, layout: np.ndarray, dtypes: str, removal: bool, name: str = "match tables") -> SubTables:
    """One mode's arrays as read-only views into ``buf`` (an Arrow IPC file: bytes, a memory
    map), checked against ``layout`` and ``dtypes`` — the schema, every column's length and
    every pair's prediction position — so that a damaged or foreign file is an
    :class:`InputError` naming it, never arrays that index out of bounds."""
    mi = int(bool(removal))
    n, m = (int(x) for x in layout[mi])
    try:
        reader = pa.ipc.open_file(buf if isinstance(buf, (pa.Buffer, pa.NativeFile)) else pa.py_buffer(buf))
        schema, batches = reader.schema, reader.num_record_batches
        batch = reader.get_batch(min(mi, batches - 1)) if schema == _schema(dtypes) and batches in (1, 2) else None
        if batch is not None:
            batch.validate(full=True)
        if batch is not None and batch.num_rows == 1:
            cols = [batch.column(j).flatten().to_numpy(zero_copy_only=True) for j in range(len(COLUMNS))]
    except (pa.ArrowException, ValueError, OSError) as e:
        raise _corrupt(name, f"not an Arrow file of match tables: {type(e).__name__}") from None
    if batch is None or batch.num_rows != 1:
        raise _corrupt(name, "not the match tables' schema")
    want = [n] * len(PRED_COLUMNS) + [m] * len(PAIR_COLUMNS)
    if [len(c) for c in cols] != want:
        raise _corrupt(name, "columns of other lengths than were written")
    t = SubTables(*cols)
    if m and (int(t.p.min()) < 0 or int(t.p.max()) >= n or int(t.g.min()) < 0):
        raise _corrupt(name, "a pair pointing outside the predictions")
    return t


def read_file(path: str, layout: np.ndarray, dtypes: str, removal: bool) -> SubTables:
    """One mode's tables memory-mapped from a file written by :func:`write_tables` (only the
    pages that are read come into memory; the map closes when the arrays are dropped)."""
    try:
        source = pa.memory_map(path, "r")
    except OSError as e:
        raise _corrupt(path, e.strerror or type(e).__name__) from None
    return unpack(source, layout, dtypes, removal, name=path)


def content_key(buf) -> str:
    """The cache name of a packed buffer: the SHA-256 of its bytes."""
    return hashlib.sha256(buf).hexdigest()


def write_tables(folder: str | Path, buf) -> str:
    """Write ``buf`` into ``folder`` under its content hash (atomically; once); return the path."""
    path = Path(folder) / f"{content_key(buf)}.tables"
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.{id(buf)}.tmp")
        with open(tmp, "wb") as f:
            f.write(buf)
        os.replace(tmp, path)
    return str(path)


def hand_over(folder: str | Path, buf) -> str:
    """Write ``buf`` into ``folder`` under a name of its own (no hash: the file lives only until
    the store reads it into memory, see :meth:`TableStore.handoff_folder`); return the path."""
    fd, path = tempfile.mkstemp(suffix=".handoff", dir=folder)
    with os.fdopen(fd, "wb") as f:
        f.write(buf)
    return path


def _take_over(path: str):
    """A handed-over file's bytes, mapped into memory, the file's name removed at once: the
    pages the worker wrote are used as they are (a copy would cost this process ~5 ms a 6 MB
    table, most of it page faults, while its workers want the cores); they are freed when
    the last array over them goes."""
    try:
        if os.path.getsize(path) == 0:
            return b""
        if os.name == "nt":  # there a mapped file cannot be removed: a copy
            return Path(path).read_bytes()
        return np.memmap(path, dtype=np.uint8, mode="r")
    finally:
        os.unlink(path)


def cache_root() -> Path:
    """``$LAB_CACHE_DIR`` or the system's temp folder."""
    return Path(os.environ.get("LAB_CACHE_DIR") or tempfile.gettempdir())


def _prefix() -> str:
    """``lab-tables-<host>-<pid>-``: a folder's owner, so that only this machine's dead processes'
    folders are swept (a cache folder shared by containers holds other hosts' live ones)."""
    host = re.sub(r"[^A-Za-z0-9.]", "_", socket.gethostname())[:40] or "host"
    return f"lab-tables-{host}-{os.getpid()}-"


def _sweep(root: Path) -> None:
    """Remove the table folders of processes that no longer run (killed before their exit hook)."""
    try:
        entries = list(root.iterdir())
    except OSError:
        return
    mine = re.compile(re.escape(_prefix().rsplit("-", 2)[0]) + r"-(\d+)-")
    for d in entries:
        m = mine.match(d.name)
        if not m or int(m.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(m.group(1)), 0)
        except ProcessLookupError:
            shutil.rmtree(d, ignore_errors=True)
        except (PermissionError, OSError):
            pass  # another user's running process


class TableStore:
    """Where a competition's match tables live: ``"memory"`` (packed buffers) or ``"disk"``
    (files in a cache folder, one per distinct content). Read one submission's tables of one
    mode with :meth:`get`; :meth:`close` (or releasing the store) removes the folder."""

    def __init__(self, where: str = "memory", root: str | Path | None = None):
        if where not in ("memory", "disk"):
            raise ValueError(f"tables go to 'memory' or 'disk', not {where!r}")
        self.where = where
        self._buffers: dict[int, bytes | bytearray] = {}
        self._files: dict[int, str] = {}
        self._layout: dict[int, tuple[np.ndarray, str]] = {}
        self.folder: str | None = None
        self._finalizer = None
        self._handoff: str | None = None
        self._root = Path(root) if root is not None else cache_root()
        if where == "disk":
            try:
                self.folder = self._own_folder()
            except OSError as e:
                raise InputError("LAB_CACHE_DIR", None, f"cannot make the match-table cache folder in {self._root} "
                                 f"({e.strerror or e}); point LAB_CACHE_DIR at a writable folder") from None

    def _own_folder(self) -> str:
        """A new folder of this store's under its root (the dead processes' ones swept first),
        removed when the store is released or closed."""
        self._root.mkdir(parents=True, exist_ok=True)
        _sweep(self._root)
        folder = tempfile.mkdtemp(prefix=_prefix(), dir=self._root)
        self._finalizer = weakref.finalize(self, shutil.rmtree, folder, ignore_errors=True)
        return folder

    def put(self, k: int, layout: np.ndarray, dtypes: str, *, buffer=None, file: str | None = None) -> None:
        """Keep submission ``k``'s packed tables: a ``buffer``, or the ``file`` a worker wrote."""
        self._layout[k] = (layout, dtypes)
        if self.where == "memory":
            if buffer is None and self._handoff is not None and Path(file).parent == Path(self._handoff):
                buffer = _take_over(file)
            elif buffer is None:
                buffer = Path(file).read_bytes()
            self._buffers[k] = buffer  # kept, not copied
        else:
            self._files[k] = file if file is not None else write_tables(self.folder, buffer)

    def handoff_folder(self) -> str | None:
        """Where worker processes leave their packed tables for this process: the cache folder
        on disk; in memory, a folder of its own whose files are mapped into memory and removed
        one by one (the worker's write is the only copy, where a pickled buffer sent back through
        a pipe costs four copies and this process's CPU). None where no folder can be made."""
        if self.where == "disk":
            return self.folder
        if self._handoff is None:
            try:
                self._handoff = self._own_folder()
            except OSError:
                return None  # the tables come back through the pool's pipes
        return self._handoff

    def get(self, k: int, removal: bool) -> SubTables:
        """Submission ``k``'s tables in one mode (from memory, or memory-mapped from disk: the
        map closes when the arrays are dropped)."""
        self._check_open()
        layout, dtypes = self._layout[k]
        if self.where == "memory":
            return unpack(self._buffers[k], layout, dtypes, removal, name=f"submission {k}'s match tables")
        return read_file(self._files[k], layout, dtypes, removal)

    def file_of(self, k: int) -> str | None:
        return self._files.get(k)

    def layout_of(self, k: int) -> tuple[np.ndarray, str]:
        return self._layout[k]

    def spill(self, data: bytes, suffix: str = ".csv") -> Path:
        """Keep a source's bytes as a file in the cache folder (disk mode), named by their hash."""
        path = Path(self.folder) / f"{hashlib.sha256(data).hexdigest()}{suffix}"
        if not path.exists():
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)
        return path

    @property
    def nbytes(self) -> int:
        """Bytes of tables held in memory (0 on disk)."""
        return sum(len(b) for b in self._buffers.values())

    def disk_bytes(self) -> int:
        """Bytes in the cache folder (distinct contents once)."""
        if self.folder is None or not os.path.isdir(self.folder):
            return 0
        return sum(f.stat().st_size for f in Path(self.folder).iterdir())

    @property
    def closed(self) -> bool:
        return self._finalizer is not None and not self._finalizer.alive

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError("this competition was closed: its match tables are gone (load it again)")

    def close(self) -> None:
        """Remove the cache folder now (it also goes when the store is released, and at exit)."""
        self._buffers.clear()
        if self._finalizer is not None:
            self._finalizer()

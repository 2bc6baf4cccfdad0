"""Where input comes from: paths, bytes, uploads (file-likes) or DataFrames, and lists of
files and folders whose file stems name the submissions."""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Mapping
from pathlib import Path

from . import limits
from .errors import InputError
from .limits import human


def _is_frame(x) -> bool:
    """A pandas DataFrame? (pandas is not imported for this: a process that never imported it
    holds none — a spotGEO worker process starts faster without it.)"""
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(x, pandas.DataFrame)


def source_name(src, default: str) -> str:
    """A display name for a source: the file name of a path; the name of an upload as it was
    given (an uploaded ``a/b.csv`` stays ``a/b.csv``; an absolute path, as an open file's name
    is, gives its file name); else ``default``.

    >>> source_name("/data/gt.csv", "x"), source_name(type("U", (), {"name": "a/b.csv"})(), "x")
    ('gt.csv', 'a/b.csv')
    """
    if isinstance(src, (str, Path)):
        return Path(src).name
    name = getattr(src, "name", None)
    if isinstance(name, str) and name:
        return Path(name).name if Path(name).is_absolute() else name
    return default


def _too_big(name: str, size: int) -> InputError:
    return InputError(name, None, f"the file is {human(size)}, over the limit of {human(limits.MAX_FILE_BYTES)} "
                                  "(LAB_MAX_FILE_BYTES raises it)")


def source_size(src) -> int:
    """The size in bytes of a source without reading it: a path's file, bytes, an in-memory
    upload (``getbuffer``); 0 when it cannot be told (a missing file, a stream, a table).

    >>> import io
    >>> source_size(b"id\\n1\\n"), source_size(io.BytesIO(b"abc")), source_size("/no/such/file")
    (5, 3, 0)
    """
    if isinstance(src, (str, Path)):
        try:
            return Path(src).stat().st_size
        except OSError:
            return 0
    if isinstance(src, (bytes, bytearray, memoryview)):
        return len(src)
    if hasattr(src, "getbuffer"):
        try:
            return src.getbuffer().nbytes
        except (TypeError, ValueError):
            return 0
    return 0


def source_bytes(src, name: str) -> bytes:
    """The bytes of a source (path, bytes, upload or file-like), at most ``MAX_FILE_BYTES``."""
    if isinstance(src, (str, Path)):
        p = Path(src)
        if not p.exists():
            raise InputError(name, None, f"file not found: {p}")
        if p.is_dir():
            raise InputError(name, None, "expected a file, got a folder")
        size = p.stat().st_size
        if size > limits.MAX_FILE_BYTES:
            raise _too_big(name, size)
        return p.read_bytes()
    if isinstance(src, (bytes, bytearray, memoryview)):
        data = bytes(src)
    elif hasattr(src, "getvalue"):
        data = bytes(src.getvalue())
    elif hasattr(src, "read"):
        data = src.read(limits.MAX_FILE_BYTES + 1)
        data = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    else:
        raise InputError(name, None, f"expected a path, bytes, a file or a DataFrame, got {type(src).__name__}")
    if len(data) > limits.MAX_FILE_BYTES:
        raise _too_big(name, len(data))
    return data


def submission_name(file_name: str, suffix: str) -> str:
    """The submission name of a file given by name (an upload, a file-like): the name as it was
    given, as text, less its ``suffix`` in any case — nothing else is taken off (a folder is
    kept: ``a/b.csv`` is ``a/b``).

    >>> submission_name("a/b.csv", ".csv"), submission_name('Team "Q".JSON', ".json")
    ('a/b', 'Team "Q"')
    >>> submission_name(".csv", ".csv"), submission_name("notes.txt", ".csv")
    ('.csv', 'notes.txt')
    """
    if suffix and len(file_name) > len(suffix) and file_name.lower().endswith(suffix.lower()):
        return file_name[:-len(suffix)]
    return file_name


_INVISIBLE = {"Cc", "Cf", "Co", "Cs", "Zl", "Zp"}


def check_name(name: str, where: str) -> str:
    """A submission name as shown everywhere: NFC-normalised, and refused when it holds an
    invisible character (zero-width, bidi control, …) that would make two names look alike.

    >>> check_name("team\u0301", "x.csv") == unicodedata.normalize("NFC", "team\u0301")
    True
    """
    nfc = unicodedata.normalize("NFC", str(name))
    bad = next((c for c in nfc if unicodedata.category(c) in _INVISIBLE), None)
    if bad is not None:
        raise InputError(where, None, f"the submission name {nfc!r} contains the invisible character "
                                      f"U+{ord(bad):04X} ({unicodedata.name(bad, 'unnamed')}); rename the file")
    if not nfc.strip():
        raise InputError(where, None, "the submission name is empty")
    return nfc


def _is_stream(src) -> bool:
    return not isinstance(src, (str, Path, bytes, bytearray, memoryview)) and not _is_frame(src) and hasattr(src, "read")


def path_of(item: tuple) -> Path | None:
    """The file an item of :func:`expand_submissions` is read from, or None (bytes, a table).

    >>> path_of(("a", Path("subs/a.csv"), "a.csv")), path_of(("b", b"id\\n", "b.csv"))
    (PosixPath('subs/a.csv'), None)
    """
    src = item[1]
    return Path(src) if isinstance(src, (str, Path)) else None


def expand_submissions(submissions, suffix: str = ".csv") -> list[tuple[str, object, str]]:
    """(name, source, display file) for every submission; folders expand to their ``*suffix``
    files; a dict is ``{name: source}``, a ``(name, source)`` pair names its source.
    Two submissions with one name are an error naming both files."""
    out: list[tuple[str, object, str, str]] = []  # name, source, display file, where it came from
    if isinstance(submissions, Mapping):
        for k, v in submissions.items():
            disp = source_name(v, f"{k}{suffix}") if not _is_frame(v) else f"{k}"
            out.append((str(k), v, disp, disp))
    else:
        if isinstance(submissions, (str, Path)):
            submissions = [submissions]
        for item in submissions:
            if isinstance(item, tuple) and len(item) == 2:
                src = item[1]
                out.append((str(item[0]), src, source_name(src, str(item[0])), str(getattr(src, "name", item[0]))))
            elif isinstance(item, (str, Path)):
                p = Path(item)
                if p.is_dir():
                    files = sorted(f for f in p.iterdir()
                                   if f.suffix.lower() == suffix and f.is_file() and not f.name.startswith("."))
                    if not files:
                        raise InputError(str(p), None, f"the submissions folder contains no {suffix} file")
                    out.extend((f.stem, f, f.name, str(f)) for f in files)
                elif not p.exists():
                    raise InputError(str(p), None, "file not found")
                else:
                    out.append((p.stem, p, p.name, str(p)))
            else:
                nm = source_name(item, "")
                if not nm:
                    raise InputError("submissions", None, f"a submission without a name ({type(item).__name__}); "
                                     "pass a dict {name: source}")
                out.append((submission_name(nm, suffix), item, nm, str(getattr(item, "name", nm))))
    seen: dict[str, str] = {}
    named = []
    for name, src, disp, where in out:
        name = check_name(name, disp)
        if name in seen:
            raise InputError(disp, None, f"duplicate submission name {name!r}: {where} and {seen[name]}")
        seen[name] = where
        # a file handle can be read once: keep its bytes, so the submission can be re-read later
        named.append((name, source_bytes(src, disp) if _is_stream(src) else src, disp))
    return named



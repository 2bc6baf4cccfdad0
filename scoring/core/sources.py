"""Where input comes from: paths, bytes, uploads (file-likes) or DataFrames, and lists of
files and folders whose file stems name the submissions."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from .errors import InputError


def source_name(src, default: str) -> str:
    """A display name for a source: the file name of a path or upload, else ``default``."""
    if isinstance(src, (str, Path)):
        return Path(src).name
    name = getattr(src, "name", None)
    if isinstance(name, str) and name:
        return Path(name).name
    return default


def source_bytes(src, name: str) -> bytes:
    if isinstance(src, (str, Path)):
        p = Path(src)
        if not p.exists():
            raise InputError(name, None, f"file not found: {p}")
        if p.is_dir():
            raise InputError(name, None, "expected a CSV file, got a folder")
        return p.read_bytes()
    if isinstance(src, (bytes, bytearray, memoryview)):
        return bytes(src)
    if hasattr(src, "getvalue"):
        return bytes(src.getvalue())
    if hasattr(src, "read"):
        data = src.read()
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    raise InputError(name, None, f"expected a path, bytes, a file or a DataFrame, got {type(src).__name__}")


def _is_stream(src) -> bool:
    return not isinstance(src, (str, Path, bytes, bytearray, memoryview, pd.DataFrame)) and hasattr(src, "read")


def expand_submissions(submissions, suffix: str = ".csv") -> list[tuple[str, object, str]]:
    """(name, source, display file) for every submission; folders expand to their ``*suffix``
    files; a dict is ``{name: source}``, a ``(name, source)`` pair names its source.
    Two submissions with one name are an error naming both files."""
    out: list[tuple[str, object, str]] = []
    if isinstance(submissions, Mapping):
        for k, v in submissions.items():
            out.append((str(k), v, source_name(v, f"{k}{suffix}") if not isinstance(v, pd.DataFrame) else f"{k}"))
    else:
        if isinstance(submissions, (str, Path)):
            submissions = [submissions]
        for item in submissions:
            if isinstance(item, tuple) and len(item) == 2:
                out.append((str(item[0]), item[1], source_name(item[1], str(item[0]))))
            elif isinstance(item, (str, Path)):
                p = Path(item)
                if p.is_dir():
                    files = sorted(p.glob(f"*{suffix}"))
                    if not files:
                        raise InputError(str(p), None, f"the submissions folder contains no {suffix} file")
                    out.extend((f.stem, f, f.name) for f in files)
                elif not p.exists():
                    raise InputError(str(p), None, "file not found")
                else:
                    out.append((p.stem, p, p.name))
            else:
                nm = source_name(item, "")
                if not nm:
                    raise InputError("submissions", None, f"a submission without a name ({type(item).__name__}); "
                                     "pass a dict {name: source}")
                out.append((Path(nm).stem, item, nm))
    # a file handle can be read once: keep its bytes, so the submission can be re-read later
    out = [(n, source_bytes(src, disp) if _is_stream(src) else src, disp) for n, src, disp in out]
    seen: dict[str, str] = {}
    for name, _, disp in out:
        if name in seen:
            raise InputError(disp, None, f"duplicate submission name {name!r} (also from {seen[name]})")
        seen[name] = disp
    return out



"""Uploaded bundles kept on disk under their content digest, so that a reload (or a link
holding ``data=<family key>-<digest>``) finds them again.

The folder is ``LAB_UPLOAD_DIR`` (default: the system's temp folder /
``leaderboard-lab-uploads``). A bundle is written once (to a temporary folder, then renamed
into place) and touched when read; bundles unused for ``LAB_UPLOAD_DAYS`` days (default 7)
go, and the oldest go first while the folder holds more than ``LAB_UPLOAD_DISK_BYTES``
(default 4 GiB). Only the digest finds a bundle: without it nobody reaches the bytes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_DIGEST = re.compile(r"[0-9a-f]{64}")


def root() -> Path:
    return Path(os.environ.get("LAB_UPLOAD_DIR") or Path(tempfile.gettempdir()) / "leaderboard-lab-uploads")


def max_disk_bytes() -> int:
    return int(os.environ.get("LAB_UPLOAD_DISK_BYTES", 4 << 30))


def max_age_seconds() -> float:
    return float(os.environ.get("LAB_UPLOAD_DAYS", 7)) * 86400


def valid_digest(digest: object) -> bool:
    """A SHA-256 hex digest (nothing else ever becomes a path)."""
    return isinstance(digest, str) and _DIGEST.fullmatch(digest) is not None


def _folder(family: str, digest: str) -> Path:
    if not valid_digest(digest) or not re.fullmatch(r"[a-z0-9-]+", family):
        raise ValueError(f"expected a family name and a SHA-256 digest, got {family!r}, {digest!r}")
    return root() / family / digest


def save(family: str, digest: str, bundle: Mapping[str, Any]) -> None:
    """Keep ``bundle`` (``{role: (name, bytes) | [(name, bytes), …]}``) under its digest."""
    dest = _folder(family, digest)
    if dest.is_dir():
        os.utime(dest)
        return
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".part-", dir=dest.parent))
    manifest: dict[str, Any] = {}
    try:
        for role, item in bundle.items():
            if not item:
                continue
            files = item if isinstance(item, list) else [item]
            names = []
            for i, (name, data) in enumerate(files):
                (tmp / f"{role}-{i}.bin").write_bytes(data)
                names.append(str(name))
            manifest[role] = {"many": isinstance(item, list), "names": names}
        (tmp / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        try:
            tmp.rename(dest)
        except OSError:  # another session wrote the same bundle first
            shutil.rmtree(tmp, ignore_errors=True)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        return  # a full disk costs persistence, never the upload itself
    prune()


def load(family: str, digest: str) -> dict[str, Any] | None:
    """The bundle kept under ``digest``, or None."""
    try:
        folder = _folder(family, digest)
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        bundle: dict[str, Any] = {}
        for role, info in manifest.items():
            files = [(n, (folder / f"{role}-{i}.bin").read_bytes()) for i, n in enumerate(info["names"])]
            bundle[role] = files if info["many"] else files[0]
        os.utime(folder)
        return bundle
    except (OSError, ValueError, KeyError, TypeError):
        return None


def prune(now: float | None = None) -> None:
    """Remove bundles past their age, then the oldest while over the disk budget."""
    now = time.time() if now is None else now
    base = root()
    if not base.is_dir():
        return
    found = []
    for fam in base.iterdir():
        if not fam.is_dir():
            continue
        for d in fam.iterdir():
            if not valid_digest(d.name):
                if d.name.startswith(".part-") and now - d.stat().st_mtime > 3600:
                    shutil.rmtree(d, ignore_errors=True)
                continue
            try:
                mtime = d.stat().st_mtime
                size = sum(f.stat().st_size for f in d.iterdir())
            except OSError:
                continue
            found.append((mtime, size, d))
    found.sort()
    total = sum(s for _, s, _ in found)
    for mtime, size, d in found:
        if now - mtime > max_age_seconds() or total > max_disk_bytes():
            shutil.rmtree(d, ignore_errors=True)
            total -= size

"""Uploaded bundles kept on disk under their content digest, so that a reload (or a link
holding ``data=<family key>-<digest>``) finds them again.

The folder is ``LAB_UPLOAD_DIR``, else a per-user cache folder:
``$XDG_CACHE_HOME/leaderboard-lab/uploads`` (``~/.cache/…`` without it). Its folders are
private to the user running the app (0700, files 0600): one found open to others is closed,
one that belongs to someone else (or is a link) is refused — nothing is kept then. A
bundle is written once (to a temporary folder, then renamed into place) and touched when
read; bundles unused for ``LAB_UPLOAD_DAYS`` days (default 7) go, and the oldest go first
while the folder holds more than ``LAB_UPLOAD_DISK_BYTES`` (default 4 GiB). :func:`delete`
removes one at once and leaves a marker (for the same time), so that a later link to it
can say the data was deleted rather than never here. Clean-up deletes only what the app made:
folders holding its marker file (:data:`MARK`), of this user, never through a link — so a
shared ``LAB_UPLOAD_DIR`` (such as /tmp) keeps every other tool's folders (bundles kept by a
version before the marker are left too: remove them by hand).

Only the digest finds a bundle: it cannot be guessed, so a link holding it is the key — it
opens the bundle for whoever has it, until the bundle is deleted or expires.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_DIGEST = re.compile(r"[0-9a-f]{64}")


_GONE = ".gone-"  # the marker of a deleted bundle: ``<family>/.gone-<digest>``
#: the file the app writes in every folder it makes here (a family's, a bundle's, a bundle being
#: written): clean-up deletes a folder only when it holds this file, is a folder (not a link)
#: and belongs to this user — never another tool's folder in a shared ``LAB_UPLOAD_DIR``
MARK = ".leaderboard-lab"


def root() -> Path:
    """The uploads folder: ``LAB_UPLOAD_DIR``, else ``$XDG_CACHE_HOME/leaderboard-lab/uploads``
    (``~/.cache/leaderboard-lab/uploads``)."""
    env = os.environ.get("LAB_UPLOAD_DIR")
    if env:
        return Path(env).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME")
    base = Path(cache) if cache and Path(cache).is_absolute() else Path.home() / ".cache"
    return base / "leaderboard-lab" / "uploads"


def _private_dir(path: Path) -> Path:
    """``path`` as a folder only this user may enter: made 0700 when missing; an existing one
    must be a folder (not a link) of this user, and is closed to others (chmod 0700). Raises
    ``OSError`` otherwise."""
    path.mkdir(mode=0o700, exist_ok=True)
    st = path.lstat()
    if not stat.S_ISDIR(st.st_mode):
        raise OSError(f"{path} is not a folder")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise OSError(f"{path} belongs to another user")
    if stat.S_IMODE(st.st_mode) & 0o077:
        path.chmod(0o700)
    return path


def _ours(path: Path) -> bool:
    """Whether ``path`` is a folder this app made: a folder (not a link) of this user holding
    the :data:`MARK` file (a file, not a link). Nothing else is ever deleted here."""
    try:
        st = path.lstat()
        mark = (path / MARK).lstat()
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return stat.S_ISDIR(st.st_mode) and mine and stat.S_ISREG(mark.st_mode)


def _mark(path: Path) -> None:
    """Write the :data:`MARK` file into a folder the app made (raises ``OSError``)."""
    try:
        _write(path / MARK, b"leaderboard-lab upload folder: the app's clean-up may delete it\n")
    except FileExistsError:
        pass


def _family_dir(family: str) -> Path:
    """The folder of ``family``'s bundles, made private (see :func:`_private_dir`) and marked
    as the app's (:data:`MARK`). A ``LAB_UPLOAD_DIR`` is made (0700) when missing and otherwise
    left as it is — it may be a shared folder such as /tmp, where a folder of the family's name
    that the app did not make (unmarked and not empty) is not taken (``OSError``); the default
    folder and its ``leaderboard-lab`` parent are this user's and closed to others."""
    base = root()
    shared = bool(os.environ.get("LAB_UPLOAD_DIR"))
    if shared:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
    else:
        base.parent.parent.mkdir(parents=True, exist_ok=True)  # ~/.cache
        _private_dir(base.parent)
        _private_dir(base)
    folder = base / family
    if shared and folder.is_dir() and not _ours(folder) and any(folder.iterdir()):
        raise OSError(f"{folder} was not made by this app")
    _private_dir(folder)
    _mark(folder)
    return folder


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


def save(family: str, digest: str, bundle: Mapping[str, Any]) -> bool:
    """Keep ``bundle`` (``{role: (name, bytes) | [(name, bytes), …]}``) under its digest; False
    when it could not be kept (no private folder, a full disk): the upload works all the same."""
    dest = _folder(family, digest)
    try:
        _family_dir(family)
        (dest.parent / f"{_GONE}{digest}").unlink(missing_ok=True)  # uploaded again after a delete
        if dest.is_dir():
            os.utime(dest)
            return True
        tmp = Path(tempfile.mkdtemp(prefix=".part-", dir=dest.parent))  # 0700
    except OSError:
        return False  # no private folder: the upload works, it is just not kept
    manifest: dict[str, Any] = {}
    try:
        _mark(tmp)  # the bundle's folder is the app's (clean-up deletes nothing unmarked)
        for role, item in bundle.items():
            if not item:
                continue
            files = item if isinstance(item, list) else [item]
            names = []
            for i, (name, data) in enumerate(files):
                _write(tmp / f"{role}-{i}.bin", data)
                names.append(str(name))
            manifest[role] = {"many": isinstance(item, list), "names": names}
        _write(tmp / "manifest.json", json.dumps(manifest).encode("utf-8"))
        try:
            tmp.rename(dest)
        except OSError:  # another session wrote the same bundle first
            shutil.rmtree(tmp, ignore_errors=True)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        return False  # a full disk costs persistence, never the upload itself
    prune()
    return dest.is_dir()


def _write(path: Path, data: bytes) -> None:
    """Write a new file only this user may read (0600)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def load(family: str, digest: str) -> dict[str, Any] | None:
    """The bundle kept under ``digest`` (marked as used now), or None — also when it is past its
    age (it goes then, even if no upload has pruned the folder since)."""
    try:
        folder = _folder(family, digest)
        if time.time() - folder.stat().st_mtime > max_age_seconds():
            if _ours(folder):
                shutil.rmtree(folder, ignore_errors=True)
            return None
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        bundle: dict[str, Any] = {}
        for role, info in manifest.items():
            files = [(n, (folder / f"{role}-{i}.bin").read_bytes()) for i, n in enumerate(info["names"])]
            bundle[role] = files if info["many"] else files[0]
        os.utime(folder)
        return bundle
    except (OSError, ValueError, KeyError, TypeError):
        return None


def touch(family: str, digest: str) -> bool:
    """Mark the bundle under ``digest`` as used now (a link opened it from memory); False when it
    is no longer on disk (past its age, or pushed out by the disk budget)."""
    try:
        folder = _folder(family, digest)
        if time.time() - folder.stat().st_mtime > max_age_seconds():
            return False
        os.utime(folder)
        return True
    except (OSError, ValueError):
        return False


def delete(family: str, digest: str) -> bool:
    """Remove the bundle kept under ``digest`` now, and leave a marker so that a later link to
    it says it was deleted (:func:`deleted`). True when there was a bundle to remove."""
    try:
        folder = _folder(family, digest)
    except ValueError:
        return False
    existed = _ours(folder)
    if existed:
        shutil.rmtree(folder, ignore_errors=True)
    try:
        _family_dir(family)
        _write(folder.parent / f"{_GONE}{digest}", b"")
    except FileExistsError:
        os.utime(folder.parent / f"{_GONE}{digest}")
    except OSError:
        pass  # the bundle is gone all the same; only the notice will be the general one
    return existed


def deleted(family: str, digest: str) -> bool:
    """Whether the bundle under ``digest`` was deleted (within the last ``LAB_UPLOAD_DAYS``)."""
    try:
        return (_folder(family, digest).parent / f"{_GONE}{digest}").is_file()
    except ValueError:
        return False


def kept_until(family: str, digest: str) -> float | None:
    """When the bundle under ``digest`` expires if nobody uses it again (a time stamp: its
    last use plus ``LAB_UPLOAD_DAYS``), or None when it is not on disk."""
    try:
        return _folder(family, digest).stat().st_mtime + max_age_seconds()
    except (OSError, ValueError):
        return None


def prune(now: float | None = None) -> None:
    """Remove bundles past their age, then the oldest while over the disk budget — only folders
    the app made (:func:`_ours`: marked, this user's, not links), inside family folders it made:
    another tool's folder in a shared ``LAB_UPLOAD_DIR``, or a folder behind a link, is left."""
    now = time.time() if now is None else now
    base = root()
    if not base.is_dir():
        return
    found = []
    for fam in base.iterdir():
        if not _ours(fam):
            continue
        for d in fam.iterdir():
            if d.name == MARK:
                continue
            if not valid_digest(d.name):
                try:
                    st = d.lstat()
                except OSError:
                    continue
                age = now - st.st_mtime
                if d.name.startswith(".part-") and age > 3600 and _ours(d):
                    shutil.rmtree(d, ignore_errors=True)
                elif d.name.startswith(_GONE) and stat.S_ISREG(st.st_mode) and age > max_age_seconds():
                    d.unlink(missing_ok=True)
                continue
            if not _ours(d):
                continue
            try:
                mtime = d.lstat().st_mtime
                size = sum(f.lstat().st_size for f in d.iterdir())
            except OSError:
                continue
            found.append((mtime, size, d))
    found.sort()
    total = sum(s for _, s, _ in found)
    for mtime, size, d in found:
        if now - mtime > max_age_seconds() or total > max_disk_bytes():
            shutil.rmtree(d, ignore_errors=True)
            total -= size

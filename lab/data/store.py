"""The data store: every loaded competition, found by its content, shared by exactly the
sessions that hold the same bytes.

* A **default** competition (a family's sample, or ``LAB_DATA_DIR`` for Shovel-Ready) is
  loaded once per server and pinned: every new visitor gets its scorer, already warm (``app.py``
  computes its default view once: ``warm``).
* An **upload** is hashed once (SHA-256 over roles, file names and bytes); the digest is its
  only key. Its entry lives while a session holds it (a weak map) or while it is among the
  most recently used within a memory budget (``LAB_STORE_BYTES``, default 2 GiB); so a
  session's data is freed when the session ends. The bytes are also kept on disk under the
  digest (``uploads.py``), so a reload — or a link with ``data=<digest>`` — finds them again:
  the digest cannot be guessed, so such a link is the key, for whoever has it, until the
  upload expires or is deleted (:func:`delete_upload`: from disk, from memory and from every
  session holding it).

One mechanism throughout: ``scoring.core.cache.LRU``, inside one process-wide object.

Which entry a run shows is decided in one step, :func:`choose` (the session's entry, the link's
digest -> the entry), which only calls down: the uploads on disk, this store, the engine's
loader. :func:`active` reads the session and the link, calls it once per run and writes the
answer back.
"""

from __future__ import annotations

import hashlib
import io
import os
import threading
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit import runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

from scoring.core.cache import LRU, nbytes
from scoring.core.family import Family
from scoring.core.sources import submission_name

from .. import families
from ..words.text import md
from . import datalinks, uploads
from .progress import progress_bar

STORE_BYTES = int(os.environ.get("LAB_STORE_BYTES", 2 << 30))


class InvalidDataDir(RuntimeError):
    """A default data folder (sample or LAB_DATA_DIR) that cannot be loaded."""


class Entry:
    """One loaded competition and its scorer (built on first use, once)."""

    def __init__(self, fam: Family, digest: str, comp: Any, *, label: str, folder: Path | None = None,
                 extras: Mapping[str, tuple[str, bytes]] | None = None):
        self.family, self.digest, self.comp, self.label, self.folder = fam, digest, comp, label, folder
        self.extras = dict(extras or {})  # uploaded files the engine does not read (essays.csv)
        self._scorer = None
        self._lock = threading.Lock()
        self.deleted = False  # an upload deleted by its user: every session holding it lets go
        self.on_disk = False  # an upload whose files are kept on disk (uploads.py)
        self.warm_lock = threading.Lock()  # the default view is computed once (app.py)
        self.warmed = False

    @property
    def is_default(self) -> bool:
        return self.folder is not None

    @property
    def scorer(self):
        if self._scorer is None:
            with self._lock:
                if self._scorer is None:
                    with st.spinner("Preparing the scorer…"):
                        self._scorer = self.family.scorer(self.comp)
        return self._scorer


class _Store:
    def __init__(self) -> None:
        self.pinned: dict[tuple[str, str], Entry] = {}
        self.live: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        self.recent = LRU(16, max_bytes=STORE_BYTES, weigh=lambda e: nbytes(e.comp))
        self.lock = threading.RLock()

    def find(self, key: tuple[str, str]) -> Entry | None:
        with self.lock:
            entry = self.pinned.get(key) or self.live.get(key)
        if entry is None:
            entry = self.recent.peek(key)
        return entry

    def add(self, key: tuple[str, str], entry: Entry, *, pin: bool = False) -> None:
        with self.lock:
            if pin:
                self.pinned[key] = entry
            else:
                self.live[key] = entry
        if not pin:
            self.recent.put(key, entry)

    def remove(self, key: tuple[str, str]) -> None:
        with self.lock:
            self.live.pop(key, None)
        self.recent.pop(key)


@st.cache_resource(show_spinner=False)
def _store() -> _Store:
    return _Store()


# ---- loading --------------------------------------------------------------------------------
class LoadCancelled(RuntimeError):
    """The session that asked for a load has ended: the work stops, nothing is kept."""


def _session_alive() -> bool:
    ctx = get_script_run_ctx()
    if ctx is None or not runtime.exists():
        return True
    return runtime.get_instance().is_active_session(ctx.session_id)


def with_progress(what: str, load: Callable[[Callable], Any], *, verb: str = "Loading") -> Any:
    """``load(progress)`` under a progress bar ("Loading <what>: <name> (3/60)") that raises
    :class:`LoadCancelled` once the session that asked has ended."""
    def label(done: int, total: int, name: str) -> str:
        once = " — once per server start, for every visitor after" if verb == "Loading" else ""
        return f"{verb} {md(what)}{once}: {md(name)} ({done} of {total})" if name else f"{verb} {md(what)}{once}…"

    def check() -> None:
        if not _session_alive():  # the browser went away: stop, and free the core for the others
            raise LoadCancelled(what)

    with progress_bar(label, check=check) as progress:
        return load(progress)


class NamedBytes(io.BytesIO):
    """In-memory file with a ``name``, so the engine's messages can name the file."""

    def __init__(self, name: str, data: bytes) -> None:
        super().__init__(data)
        self.name = name


def bundle_digest(fam: Family, bundle: Mapping[str, Any]) -> str:
    """Content hash of an upload bundle ``{role: (name, bytes) | [(name, bytes), …]}`` (file
    names matter: they name the submissions)."""
    h = hashlib.sha256(f"bundle\0{fam.name}\0".encode())
    for role in sorted(bundle):
        item = bundle[role]
        for name, data in (item if isinstance(item, list) else [item] if item else []):
            h.update(f"{role}\0{name}\0".encode() + hashlib.sha256(data).digest())
        h.update(b"\0end\0")
    return h.hexdigest()


def engine_sources(fam: Family, bundle: Mapping[str, Any]) -> dict[str, Any]:
    """The loader's keyword arguments for an upload bundle (named in-memory files)."""
    out: dict[str, Any] = {}
    for inp in fam.inputs:
        item = bundle.get(inp.role)
        if not item:
            continue
        if inp.many:
            out[inp.role] = [(submission_name(str(n), inp.suffix), NamedBytes(str(n), b)) for n, b in item]
        else:
            out[inp.role] = NamedBytes(str(item[0]), item[1])
    return out


def load_bundle(fam: Family, bundle: Mapping[str, Any], digest: str | None = None) -> Entry:
    """The entry of an upload bundle: found by its digest, else loaded (raises
    ``scoring.InputError`` for bad input; nothing is stored then)."""
    digest = digest or bundle_digest(fam, bundle)
    key = (fam.name, digest)
    store = _store()
    entry = store.find(key)
    if entry is None:
        sources = engine_sources(fam, bundle)
        comp = with_progress("your files", lambda progress: fam.load(**sources, progress=progress))
        roles = {i.role for i in fam.inputs}
        extras = {r: v for r, v in bundle.items() if r not in roles and v}
        entry = Entry(fam, digest, comp, label="your uploaded data", extras=extras)
        store.add(key, entry)
    return entry


# ---- default data ---------------------------------------------------------------------------
def data_dir(fam: Family) -> Path:
    """The folder of ``fam``'s default competition: ``LAB_DATA_DIR`` (Shovel-Ready) or
    ``LAB_DATA_DIR_<NAME>``, else the family's sample."""
    env = os.environ.get(f"LAB_DATA_DIR_{fam.name.upper().replace('-', '_')}")
    if env is None and fam.name == "shovel-ready":
        env = os.environ.get("LAB_DATA_DIR")
    if env:
        return Path(env).expanduser().resolve()
    if fam.sample_dir is None:
        raise InvalidDataDir(f"{fam.title}: no sample data")
    return Path(fam.sample_dir)


def folder_sources(fam: Family, folder: Path) -> dict[str, Any]:
    """The family's inputs found in ``folder`` (laid out as its ``InputSpec.path`` says)."""
    out: dict[str, Any] = {}
    for inp in fam.inputs:
        if not inp.path:
            continue
        if inp.path.endswith("/"):
            sub = folder / inp.path
            files = sorted(sub.glob(f"*{inp.suffix}")) if sub.is_dir() else []
            if files:
                out[inp.role] = files
        elif (folder / inp.path).is_file():
            out[inp.role] = folder / inp.path
        if inp.required and inp.role not in out:
            raise InvalidDataDir(f"{folder}: no {inp.path}{'*' + inp.suffix if inp.path.endswith('/') else ''}")
    return out


def _signature(sources: Mapping[str, Any]) -> tuple:
    sig = []
    for role in sorted(sources):
        for p in sources[role] if isinstance(sources[role], list) else [sources[role]]:
            s = Path(p).stat()
            sig.append((role, str(p), s.st_size, s.st_mtime_ns))
    return tuple(sig)


@st.cache_resource(show_spinner=False, max_entries=16)
def _dir_digest(signature: tuple) -> str:
    # keyed by (path, size, mtime) of every file, so an edited file is hashed again
    h = hashlib.sha256(b"dir\0")
    for role, path, _, _ in signature:
        h.update(f"{role}\0{Path(path).name}\0".encode())
        with open(path, "rb") as fh:
            for chunk in iter(lambda fh=fh: fh.read(1 << 20), b""):
                h.update(chunk)
        h.update(b"\0end\0")
    return h.hexdigest()


def default_entry(fam: Family) -> Entry:
    """The family's default competition, loaded once per server (``app.py`` then computes its
    default view once: the first table of every later visitor is instant)."""
    return folder_entry(fam, data_dir(fam))


def folder_entry(fam: Family, folder: Path, label: str | None = None) -> Entry:
    """The competition in ``folder`` (laid out as the family's inputs say: its sample, its
    ``LAB_DATA_DIR``, or another data set shipped with the app), found by its content: loaded
    once per server and pinned.
    ``label`` names it on the pages (default: "sample data" for the sample, else the folder)."""
    folder = Path(folder)
    sources = folder_sources(fam, folder)
    digest = _dir_digest(_signature(sources))
    key = (fam.name, digest)
    store = _store()
    entry = store.find(key)
    if entry is None:
        with store.lock:  # one load per server, however many visitors arrive at once
            entry = store.find(key)
            if entry is None:
                what = label or (f"the {fam.title} sample data" if folder == Path(fam.sample_dir or "")
                                 else str(folder.name))
                comp = with_progress(what, lambda progress: fam.load(**sources, progress=progress))
                sample = families.ui(fam).sample_label
                entry = Entry(fam, digest, comp, folder=folder,
                              label=label or (sample if "sample" in what else f"the data in {folder.name}/"))
                store.add(key, entry, pin=True)
    return entry


# ---- this session's data --------------------------------------------------------------------
def _slot(fam: Family) -> str:
    return f"_{fam.key}_data"


def begin_run() -> None:
    """Forget what the previous run resolved (``app.py`` calls this first), so an edited file
    under LAB_DATA_DIR is seen; within a run the data is resolved once."""
    for k in [k for k in st.session_state if str(k).startswith("_run_")]:
        del st.session_state[k]


def use_bundle(fam: Family, bundle: Mapping[str, Any]) -> Entry:
    """Load ``bundle`` (raises ``scoring.InputError``; nothing changes then) and make it this
    session's data for ``fam``; its bytes are kept on disk under their digest."""
    digest = bundle_digest(fam, bundle)
    entry = load_bundle(fam, bundle, digest)
    entry.on_disk = uploads.save(fam.name, digest, bundle)
    st.session_state[_slot(fam)] = entry  # the session's strong reference
    st.session_state.pop(f"_run_{fam.key}", None)
    datalinks.set_link(fam, digest)
    return entry


def use_folder(fam: Family, folder: Path, label: str | None = None) -> Entry | None:
    """Make the competition in ``folder`` (e.g. a second data set shipped with the app) this
    session's data for ``fam`` (raises ``InvalidDataDir`` or ``scoring.InputError``; nothing
    changes then). It is loaded once per server and shared like the default; unlike an upload
    it is neither copied to disk nor named in the link (``data=``): the caller keeps its own
    name for it in the link if it wants one. :func:`use_default` switches back — and is what
    this does (returning None) when ``folder`` is the family's default data folder."""
    if Path(folder).resolve() == data_dir(fam).resolve():
        use_default(fam)
        return None
    entry = folder_entry(fam, folder, label)
    st.session_state[_slot(fam)] = entry
    st.session_state.pop(f"_run_{fam.key}", None)
    datalinks.set_link(fam, None)
    return entry


def _link(fam: Family, digest: str) -> str:
    """The link value naming an upload of ``fam``: ``<family key>-<digest>``."""
    return f"{fam.key}-{digest}"


def use_default(fam: Family) -> None:
    """Switch this session back to the family's default data."""
    st.session_state.pop(_slot(fam), None)
    st.session_state.pop(f"_run_{fam.key}", None)
    datalinks.set_link(fam, None)


def delete_upload(fam: Family) -> bool:
    """Delete this session's upload of ``fam`` now: its files on disk (a later link to it says
    the data was deleted), its entry in memory (every session holding it switches back to the
    default data and is told why), and this session's use of it. False when the session
    shows no upload of ``fam``."""
    entry = st.session_state.get(_slot(fam))
    if entry is None or entry.is_default:
        return False
    entry.deleted = True
    _store().remove((fam.name, entry.digest))
    from . import shared  # (here: one local hunk)

    shared.drop(fam.name, entry.digest)  # its intervals, maps and shake-ups too
    uploads.delete(fam.name, entry.digest)
    use_default(fam)
    return True


def upload_link(fam: Family) -> tuple[str, float | None] | None:
    """``(link value, expiry)`` of this session's upload of ``fam`` — the ``data=`` value that
    opens it for anyone, and when it expires on disk if nobody opens it again — or None when
    the session shows no upload of ``fam``."""
    entry = active(fam)
    if entry.is_default:
        return None
    return _link(fam, entry.digest), uploads.kept_until(fam.name, entry.digest)


@dataclass(frozen=True)
class Choice:
    """What :func:`choose` decided for one family."""

    #: the data to show
    entry: Entry
    #: what the session keeps as its data of the family (None: nothing, the default then)
    keep: Entry | None
    #: the family's digest to name in the link (None: none)
    link: str | None
    #: why the data the session or the link named is not shown: "deleted" or "unknown" (None: it is)
    missing: str | None = None


def choose(fam: Family, *, held: Entry | None, link: str | None) -> Choice:
    """The data to show of ``fam``, decided in one step that only calls down — the uploads on
    disk (``uploads``), this store, the engine's loader: the session's entry ``held`` unless
    its user deleted it; else the upload the link names (``link``, a digest) from memory or
    from disk, unless it expired or was deleted; else the default data (:func:`default_entry`).
    Nothing is written to the session or the link: :func:`active` does that."""
    if held is not None and held.deleted:  # deleted by someone holding it (in another session too)
        return Choice(default_entry(fam), None, None if link == held.digest else link, "deleted")
    if held is not None:
        return Choice(held, held, link if held.is_default else held.digest)
    if link is None:  # no link, or only other families' data
        return Choice(default_entry(fam), None, None)
    entry = _store().find((fam.name, link))
    if entry is not None and entry.on_disk and not uploads.touch(fam.name, link):
        _store().remove((fam.name, link))  # expired on disk: a link no longer opens it
        entry = None
    elif entry is None:
        bundle = uploads.load(fam.name, link)
        if bundle is not None:
            entry = load_bundle(fam, bundle, link)
            entry.on_disk = True
    if entry is None:
        return Choice(default_entry(fam), None, None, "deleted" if uploads.deleted(fam.name, link) else "unknown")
    return Choice(entry, entry, entry.digest if not entry.is_default else link)


def active(fam: Family) -> Entry:
    """This session's data for ``fam``: its upload (also one named by the link), else the
    default; resolved once per run (:func:`choose`), the session and the link written back —
    the link keeps the other families' uploads, so a reload on any family's page keeps them."""
    ss = st.session_state
    memo = ss.get(f"_run_{fam.key}")
    if memo is not None:
        return memo
    choice = choose(fam, held=ss.get(_slot(fam)), link=datalinks.held().get(fam.key))
    if choice.keep is None:
        ss.pop(_slot(fam), None)
    else:
        ss[_slot(fam)] = choice.keep
    if choice.missing:
        ss[f"_{fam.key}_missing_link"] = choice.missing
    datalinks.set_link(fam, choice.link)
    ss[f"_run_{fam.key}"] = choice.entry
    return choice.entry


def missing_link(fam: Family) -> str | None:
    """Why the data a link named (or this session showed) is not shown (once), for a notice:
    ``"deleted"`` (its user deleted it) or ``"unknown"`` (never here, or expired)."""
    return st.session_state.pop(f"_{fam.key}_missing_link", None)


def using_default(fam: Family) -> bool:
    return active(fam).is_default

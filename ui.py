"""Shared UI helpers for the Leaderboard Lab pages.

Everything the pages have in common lives here, so the page files stay thin:

* the active competition and its :class:`scoring.Scorer`, cached by a *content* hash
  (never by a file name) so that an upload in one session never reaches another one;
* the parameter state: the sidebar widgets (keys ``p_…``), their round trip through the
  URL query string, presets and the reset button;
* stable team colours and the Plotly figure builders used by several pages;
* table exports (CSV / JSON) with spreadsheet-formula escaping.

Streamlit caches (``st.cache_data`` / ``st.cache_resource``) are only used in this module.
"""

from __future__ import annotations

import colorsys
import csv
import hashlib
import io
import json
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import plotly.colors
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots
from streamlit.errors import StreamlitAPIException

import scoring
from scoring.shovel_ready.aggregate import check_alpha
from scoring.shovel_ready.params import QUALITIES

ROOT = Path(__file__).resolve().parent

# --------------------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------------------

#: The memo's defaults (the engine's ``scoring.DEFAULTS``), with the sidebar's default
#: attribute and its hard-minimum switch. ``band``, ``max_boost`` and ``window`` are
#: fractions (0.05 = 5 %).
PARAM_DEFAULTS: dict[str, Any] = {**scoring.DEFAULTS, "attributes": ["ell_status"], "hard_min": False}

_QUALITY_WORDS = {"binary": "Binary (match or not)", "max": "Max-overlap", "iou": "IoU"}
#: The overlap qualities the engine knows (``scoring.matching.QUALITIES``) and their labels.
QUALITY_LABELS = {q: _QUALITY_WORDS.get(q, q) for q in QUALITIES}

#: (name, low, high) of the numeric parameters, in the units of PARAM_DEFAULTS.
_RANGES = {
    "w": (0.0, 1.0),
    "threshold": (0.50, 0.95),
    "alpha": (0.0, 200.0),
    "band": (0.0, 0.20),
    "max_boost": (0.0, 0.20),
    "window": (0.05, 0.50),
}
#: Parameters shown in percent on the sidebar.
_PERCENT = ("band", "max_boost", "window")
_BOOL_WORDS = {"true": True, "1": True, "yes": True, "on": True,
               "false": False, "0": False, "no": False, "off": False}
_PENDING = "_p_pending"
_INIT = "_p_init"
_QUERY_PROBLEMS = "_p_query_problems"


def _key(name: str) -> str:
    return f"p_{name}"


def _as_float(name: str, value: Any) -> float:
    if isinstance(value, bool) or value is None:
        raise ValueError(f"parameter '{name}': expected a number, got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"parameter '{name}': expected a number, got {value!r}") from None
    if math.isnan(number):
        raise ValueError(f"parameter '{name}': expected a number, got {value!r}")
    return number


def _as_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _BOOL_WORDS:
        return _BOOL_WORDS[value.strip().lower()]
    raise ValueError(f"parameter '{name}': expected true or false, got {value!r}")


def default_values(available_attributes: Iterable[str] | None = None) -> dict[str, Any]:
    """The memo defaults, with ``attributes`` restricted to the columns that exist."""
    values = dict(PARAM_DEFAULTS)
    available = list(available_attributes) if available_attributes is not None else None
    attrs = list(PARAM_DEFAULTS["attributes"])
    values["attributes"] = attrs if available is None else [a for a in attrs if a in available]
    return values


def validate_values(d: Mapping[str, Any], available_attributes: Iterable[str] | None = None) -> dict[str, Any]:
    """Check a parameter dict (preset or query string) and return a complete, clean copy.

    Missing keys take the memo defaults. Raises ``ValueError`` naming the bad key/value.
    ``alpha`` may be ``"inf"`` (or ``float("inf")``), which means the hard minimum.
    """
    if not isinstance(d, Mapping):
        raise ValueError("a parameter preset must be a JSON object of name: value pairs")
    available = list(available_attributes) if available_attributes is not None else None
    unknown = [k for k in d if k not in PARAM_DEFAULTS]
    if unknown:
        raise ValueError(
            f"unknown parameter '{unknown[0]}' (known: {', '.join(PARAM_DEFAULTS)})"
        )
    out = default_values(available)
    for name in ("w", "threshold", "band", "max_boost", "window"):
        if name in d:
            number = _as_float(name, d[name])
            low, high = _RANGES[name]
            if not (low - 1e-12 <= number <= high + 1e-12):
                raise ValueError(f"parameter '{name}': {number:g} is outside {low:g}–{high:g}")
            out[name] = number
    if "quality" in d:
        quality = d["quality"]
        if not isinstance(quality, str) or quality.strip().lower() not in QUALITIES:
            raise ValueError(f"parameter 'quality': {quality!r} is not one of {', '.join(QUALITIES)}")
        out["quality"] = quality.strip().lower()
    for name in ("overlap_removal", "hard_min"):
        if name in d:
            out[name] = _as_bool(name, d[name])
    if "alpha" in d:
        alpha = d["alpha"]
        low, high = _RANGES["alpha"]
        expected = f"parameter 'alpha': expected a number from {low:g} to {high:g} or \"inf\", got {alpha!r}"
        if isinstance(alpha, bool) or alpha is None:
            raise ValueError(expected)
        try:
            number = check_alpha(alpha)  # the engine's reading: a number >= 0, or inf/infinity/∞
        except ValueError:
            raise ValueError(expected) from None
        if math.isinf(number):
            out["hard_min"] = True
        elif number > high:
            raise ValueError(f"parameter 'alpha': {number:g} is outside {low:g}–{high:g} (or \"inf\")")
        else:
            out["alpha"] = number
    if "attributes" in d:
        attrs = d["attributes"]
        if isinstance(attrs, str):
            attrs = [attrs] if attrs else []
        if not isinstance(attrs, (list, tuple)) or not all(isinstance(a, str) for a in attrs):
            raise ValueError("parameter 'attributes': expected a list of column names")
        attrs = list(dict.fromkeys(a for a in attrs if a))
        if available is not None:
            missing = [a for a in attrs if a not in available]
            if missing:
                have = ", ".join(available) if available else "none"
                raise ValueError(
                    f"parameter 'attributes': '{missing[0]}' is not a demographics column "
                    f"of the loaded data (columns: {have})"
                )
        out["attributes"] = attrs
    return out


def _values_to_state(values: Mapping[str, Any]) -> dict[str, Any]:
    state = {}
    for name, value in values.items():
        if name in _PERCENT:
            value = round(float(value) * 100.0, 6)
        elif name in ("w", "threshold", "alpha"):
            value = float(value)
        elif name == "attributes":
            value = list(value)
        state[_key(name)] = value
    return state


def current_param_values() -> dict[str, Any]:
    """The current parameters in preset form (JSON-serialisable, same keys as PARAM_DEFAULTS)."""
    ss = st.session_state
    values = {}
    for name, default in PARAM_DEFAULTS.items():
        value = ss.get(_key(name), _values_to_state({name: default})[_key(name)])
        if name in _PERCENT:
            value = round(float(value) / 100.0, 8)
        elif name == "attributes":
            value = list(value)
        values[name] = value
    return values


def params() -> dict[str, Any]:
    """The current parameters as keyword arguments for ``Scorer.leaderboard``."""
    v = current_param_values()
    return {
        "w": float(v["w"]),
        "quality": v["quality"],
        "threshold": float(v["threshold"]),
        "alpha": math.inf if v["hard_min"] else float(v["alpha"]),
        "attributes": tuple(v["attributes"]),
        "band": float(v["band"]),
        "max_boost": float(v["max_boost"]),
        "window": float(v["window"]),
        "overlap_removal": bool(v["overlap_removal"]),
    }


def _query_string_values(values: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in values.items():
        if name == "attributes":
            out[name] = list(value) if value else [""]
        elif isinstance(value, bool):
            out[name] = "true" if value else "false"
        elif isinstance(value, float):
            out[name] = f"{value:.6g}"
        else:
            out[name] = str(value)
    return out


def _write_query(values: Mapping[str, Any]) -> None:
    qp = st.query_params
    for name, value in _query_string_values(values).items():
        current = qp.get_all(name)
        wanted = value if isinstance(value, list) else [value]
        if current != wanted:
            qp[name] = value


def _values_from_query(available: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Parameters found in the URL (defaults elsewhere) and the problems met on the way."""
    qp = st.query_params
    values = default_values(available)
    problems = []
    for name in PARAM_DEFAULTS:
        if name not in qp:
            continue
        raw: Any = qp.get_all(name)
        if name != "attributes":
            raw = raw[-1]
        else:
            raw = [a for a in raw if a]
        try:
            one = validate_values({name: raw}, available)
        except ValueError as err:
            problems.append(str(err))
            continue
        values[name] = one[name]
        if name == "alpha" and one["hard_min"]:
            values["hard_min"] = True
    return values, problems


_DATA_KEY = "_p_data_key"


def init_params(available_attributes: Iterable[str], data_key: str | None = None) -> None:
    """Put the parameter state in place before the sidebar widgets are drawn.

    On a session's first run the values come from the URL query string; a pending preset
    (see :func:`apply_params`) is applied; attributes that the loaded data does not have
    are dropped. When the data changed since the previous run (``data_key``, the content
    digest, differs), the chosen attributes that the new data has are kept; if none remain,
    the new data's default applies (``ell_status`` when it has that column).
    """
    ss = st.session_state
    available = list(available_attributes)
    switched = data_key is not None and ss.get(_DATA_KEY) not in (None, data_key)
    if data_key is not None:
        ss[_DATA_KEY] = data_key
    if switched and ss.get(_INIT):
        kept = [a for a in ss.get(_key("attributes"), []) if a in available]
        ss[_key("attributes")] = kept or default_values(available)["attributes"]
    if not ss.get(_INIT):
        values, problems = _values_from_query(available)
        ss[_QUERY_PROBLEMS] = problems
        for key, value in _values_to_state(values).items():
            ss[key] = value
        ss[_INIT] = True
    pending = ss.pop(_PENDING, None)
    if pending:
        for key, value in pending.items():
            ss[key] = value
    for name, default in _values_to_state(default_values(available)).items():
        if name not in ss:
            ss[name] = default
    attrs = ss.get(_key("attributes"), [])
    if any(a not in available for a in attrs):
        ss[_key("attributes")] = [a for a in attrs if a in available]


def apply_params(d: Mapping[str, Any]) -> None:
    """Validate a preset dict and make it the current parameter set (sidebar and URL).

    Raises ``ValueError`` naming the bad key or value. Called from a widget callback the
    values take effect in the coming run; called from a page body (after the sidebar has
    been drawn) it stores them and reruns the app.
    """
    comp = current_competition()
    values = validate_values(d, comp.attributes)
    state = _values_to_state(values)
    try:
        for key, value in state.items():
            st.session_state[key] = value
    except StreamlitAPIException:
        st.session_state[_PENDING] = state
        _write_query(values)
        st.rerun()
    _write_query(values)


def reset_params() -> None:
    """Callback of the reset button: every parameter back to the memo's defaults."""
    available = current_competition().attributes
    for key, value in _values_to_state(default_values(available)).items():
        st.session_state[key] = value
    if "team" in st.query_params:  # the Leaderboard's picked team goes back to "the leader"
        del st.query_params["team"]


def sidebar(comp: scoring.Competition) -> None:
    """Draw the shared parameter controls and keep the URL query string in sync."""
    init_params(comp.attributes, current_digest())
    sb = st.sidebar
    sb.markdown("### Metric parameters")
    problems = st.session_state.get(_QUERY_PROBLEMS) or []
    if problems:
        sb.warning("Some link parameters were ignored: " + "; ".join(problems))
    with sb.expander("Segment scoring", expanded=True):
        st.slider("Segmentation weight w", 0.0, 1.0, step=0.01, key=_key("w"),
                  help="Weight of overlap quality against the effectiveness probability: "
                       "TP = w·q + (1 − w)·d[E].")
        st.selectbox("Overlap quality q", list(QUALITIES), key=_key("quality"),
                     format_func=QUALITY_LABELS.get,
                     help="How a matched pair's overlap is graded.")
        st.slider("Overlap threshold", 0.50, 0.95, step=0.01, key=_key("threshold"),
                  help="A prediction and a ground truth are a candidate pair when each covers "
                       "at least this share of the other.")
        st.toggle("Overlap removal", key=_key("overlap_removal"),
                  help="Trim overlapping predicted segments before scoring (memo §1). Switching it "
                       "off affects the unified segment, bias-aware and final scores; the "
                       "“After overlap removal” column is FP1 after removal by definition and "
                       "always applies it.")
    with sb.expander("Bias aggregation", expanded=True):
        if comp.attributes:
            st.multiselect("Demographic attributes", comp.attributes, key=_key("attributes"),
                           help="Groups are the cross product of the chosen attributes.")
        else:
            st.caption("No demographics loaded: the bias score equals the segment score.")
        no_groups = not comp.attributes or not st.session_state.get(_key("attributes"))
        hard = st.toggle("Hard minimum (α = ∞)", key=_key("hard_min"), disabled=no_groups,
                         help="Score each team by its worst group."
                              + (" (No attribute chosen: nothing to aggregate.)" if no_groups else ""))
        st.slider("Softmin temperature α", 0.0, 200.0, step=1.0, key=_key("alpha"),
                  disabled=hard or no_groups,
                  help="0 = plain average over essays; larger = closer to the worst group.")
    with sb.expander("Efficiency boost", expanded=True):
        st.slider("Eligibility band (%)", 0.0, 20.0, step=0.5, key=_key("band"), format="%.1f%%",
                  help="Teams within this distance of the best score can earn a boost.")
        st.slider("Maximum boost (%)", 0.0, 20.0, step=0.5, key=_key("max_boost"), format="%.1f%%",
                  help="Boost for the fastest eligible team.")
        st.slider("Slowdown window (%)", 5.0, 50.0, step=1.0, key=_key("window"), format="%.0f%%",
                  help="The boost falls linearly to zero at this much slower than the fastest.")
    sb.button("Reset to memo defaults", key="p_reset", on_click=reset_params,
              width="stretch")
    _write_query(current_param_values())


# --------------------------------------------------------------------------------------
# Data: the active competition, its scorer, bundles
# --------------------------------------------------------------------------------------


class InvalidDataDir(RuntimeError):
    """The default data folder (sample or LAB_DATA_DIR) cannot be loaded."""


class _Entry:
    """One loaded competition and its :class:`scoring.Scorer`, built on first use.

    The Scorer lives in the same store entry as the competition it pins, so the two are
    evicted together and never held twice.
    """

    def __init__(self, comp: scoring.Competition) -> None:
        self.comp = comp
        self._scorer: scoring.Scorer | None = None
        self._lock = threading.Lock()

    @property
    def scorer(self) -> scoring.Scorer:
        if self._scorer is None:
            with self._lock:
                if self._scorer is None:
                    with st.spinner("Preparing the scorer…"):
                        self._scorer = scoring.Scorer(self.comp)
        return self._scorer


class _Store:
    """A small thread-safe LRU map, content hash -> :class:`_Entry`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[str, _Entry] = OrderedDict()
        self.lock = threading.RLock()

    def get(self, key: str) -> _Entry | None:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
            return None

    def put(self, key: str, value: _Entry) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


@st.cache_resource(show_spinner=False)
def _competition_store() -> _Store:
    # One process-wide map keyed by content hash: equal bytes give the same competition,
    # different bytes never collide, and nobody can reach an entry without its content.
    return _Store(6)


def _sample_dir() -> Path:
    try:
        import sample_data

        return Path(sample_data.SAMPLE_DIR)
    except (ImportError, AttributeError):
        return ROOT / "sample_data"


def data_dir() -> Path:
    """The folder of the default competition: ``LAB_DATA_DIR`` if set, else the sample."""
    env = os.environ.get("LAB_DATA_DIR")
    return Path(env).expanduser().resolve() if env else _sample_dir()


def _dir_files(folder: Path) -> dict[str, Any]:
    subs_dir = folder / "submissions"
    files = {
        "ground_truth": folder / "ground_truth.csv",
        "submissions": sorted(subs_dir.glob("*.csv")) if subs_dir.is_dir() else [],
        "demographics": folder / "demographics.csv",
        "runtimes": folder / "runtimes.csv",
    }
    if not files["ground_truth"].is_file():
        raise InvalidDataDir(f"{folder}: no ground_truth.csv")
    if not files["submissions"]:
        raise InvalidDataDir(f"{folder}: no submissions/*.csv")
    for opt in ("demographics", "runtimes"):
        if not files[opt].is_file():
            files[opt] = None
    return files


def _stat_signature(files: dict[str, Any]) -> tuple:
    paths = [files["ground_truth"], *files["submissions"], files["demographics"], files["runtimes"]]
    sig = []
    for p in paths:
        if p is None:
            sig.append(None)
        else:
            s = p.stat()
            sig.append((str(p), s.st_size, s.st_mtime_ns))
    return tuple(sig)


@st.cache_resource(show_spinner=False, max_entries=8)
def _dir_digest(signature: tuple) -> str:
    # Keyed by (path, size, mtime) of every file so that it is recomputed when a file
    # changes; the digest itself is over the bytes.
    h = hashlib.sha256(b"dir\0")
    for item in signature:
        if item is None:
            h.update(b"\0none\0")
            continue
        path = Path(item[0])
        h.update(path.name.encode() + b"\0")
        with path.open("rb") as fh:
            for chunk in iter(lambda fh=fh: fh.read(1 << 20), b""):
                h.update(chunk)
        h.update(b"\0end\0")
    return h.hexdigest()


def bundle_digest(bundle: Mapping[str, Any]) -> str:
    """Content hash of an upload bundle (file names matter: they name the submissions).

    Computed once per upload, by :func:`use_bundle`; the session keeps it.
    """
    h = hashlib.sha256(b"bundle\0")

    def add(role: str, item: tuple[str, bytes] | None) -> None:
        h.update(role.encode() + b"\0")
        if item is None:
            h.update(b"none\0")
            return
        name, data = item
        h.update(str(name).encode() + b"\0" + hashlib.sha256(data).digest())

    add("ground_truth", bundle.get("ground_truth"))
    for item in bundle.get("submissions") or []:
        add("submission", item)
    add("demographics", bundle.get("demographics"))
    add("runtimes", bundle.get("runtimes"))
    return h.hexdigest()


def _progress_loader(loader: Callable[[Callable], scoring.Competition]) -> scoring.Competition:
    bar = st.progress(0.0, text="Loading the competition…")

    def progress(done: int, total: int, name: str) -> None:
        frac = min(1.0, done / total) if total else 1.0
        bar.progress(frac, text=f"Loading {name} ({done}/{total})")

    try:
        return loader(progress)
    finally:
        bar.empty()


def _load_cached(digest: str, loader: Callable[[Callable], scoring.Competition]) -> _Entry:
    store = _competition_store()
    entry = store.get(digest)
    if entry is None:
        entry = _Entry(_progress_loader(loader))
        store.put(digest, entry)
    return entry


def _submission_name(filename: str) -> str:
    return Path(str(filename)).stem


def _bundle_loader(bundle: Mapping[str, Any]) -> Callable[[Callable], scoring.Competition]:
    def loader(progress: Callable) -> scoring.Competition:
        # (name, source) pairs, not a dict: the engine reports a duplicate name with its file
        return scoring.load_competition(
            ground_truth=_named_bytes(bundle["ground_truth"]),
            submissions=[(_submission_name(n), _named_bytes((n, b))) for n, b in bundle["submissions"]],
            demographics=_named_bytes(bundle.get("demographics")),
            runtimes=_named_bytes(bundle.get("runtimes")),
            progress=progress,
        )

    return loader


def load_bundle(bundle: Mapping[str, Any], digest: str | None = None) -> scoring.Competition:
    """Load uploaded files ``{role: (filename, bytes)}``; raises ``scoring.InputError``.

    ``digest`` is the bundle's :func:`bundle_digest` when the caller already has it (the
    bytes are then not hashed again).
    """
    if not bundle.get("ground_truth"):
        raise scoring.InputError("ground truth", None, "no file uploaded")
    if not bundle.get("submissions"):
        raise scoring.InputError("submissions", None, "no file uploaded")
    digest = bundle_digest(bundle) if digest is None else digest
    return _load_cached(digest, _bundle_loader(bundle)).comp


class _NamedBytes(io.BytesIO):
    """In-memory file with a ``name`` so the engine's messages can name the file."""

    def __init__(self, name: str, data: bytes) -> None:
        super().__init__(data)
        self.name = name


def _named_bytes(item: tuple[str, bytes] | None) -> _NamedBytes | None:
    if item is None:
        return None
    name, data = item
    return _NamedBytes(str(name), data)


_BUNDLE, _BUNDLE_DIGEST = "bundle", "bundle_digest"
#: This run's (bundle digest or None, digest, entry): see :func:`_active`.
_ACTIVE = "_data_active"


def use_bundle(bundle: Mapping[str, Any]) -> scoring.Competition:
    """Load ``bundle`` (raises ``scoring.InputError``) and make it this session's data.

    The only place an upload is hashed: the digest stays in the session state, and every
    later run finds the competition by it. Nothing changes when loading fails.
    """
    digest = bundle_digest(bundle)
    comp = load_bundle(bundle, digest)
    st.session_state[_BUNDLE] = dict(bundle)
    st.session_state[_BUNDLE_DIGEST] = digest
    st.session_state.pop(_ACTIVE, None)
    return comp


def use_sample() -> None:
    """Switch this session back to the default competition (the sample or LAB_DATA_DIR)."""
    st.session_state.pop(_BUNDLE, None)
    st.session_state.pop(_BUNDLE_DIGEST, None)
    st.session_state.pop(_ACTIVE, None)


def using_sample() -> bool:
    return _BUNDLE not in st.session_state


def begin_run() -> None:
    """Forget the data resolved by the previous run (``app.py`` calls this first), so a
    changed file under LAB_DATA_DIR is seen; within a run the data is resolved once."""
    st.session_state.pop(_ACTIVE, None)


def _resolve() -> tuple[str, _Entry]:
    ss = st.session_state
    bundle = ss.get(_BUNDLE)
    if bundle is not None:
        digest = ss.get(_BUNDLE_DIGEST)
        if digest is None:  # a bundle put in place without use_bundle: hash it this once
            digest = ss[_BUNDLE_DIGEST] = bundle_digest(bundle)
        # normally a dict look-up; re-loaded (never re-hashed) if the store evicted it
        return digest, _load_cached(digest, _bundle_loader(bundle))
    files = _dir_files(data_dir())
    digest = _dir_digest(_stat_signature(files))

    def loader(progress: Callable) -> scoring.Competition:
        return scoring.load_competition(
            ground_truth=files["ground_truth"],
            submissions=list(files["submissions"]),
            demographics=files["demographics"],
            runtimes=files["runtimes"],
            progress=progress,
        )

    return digest, _load_cached(digest, loader)


def _active() -> tuple[str, _Entry]:
    """(content digest, store entry) of this session's data, resolved once per run."""
    ss = st.session_state
    memo = ss.get(_ACTIVE)
    bundle_key = ss.get(_BUNDLE_DIGEST)
    if memo is not None and memo[0] == bundle_key:
        return memo[1], memo[2]
    digest, entry = _resolve()
    ss[_ACTIVE] = (ss.get(_BUNDLE_DIGEST), digest, entry)
    return digest, entry


def current_digest() -> str:
    """Content hash of the active competition."""
    return _active()[0]


def current_competition() -> scoring.Competition:
    """The active competition: this session's upload, else LAB_DATA_DIR, else the sample."""
    return _active()[1].comp


def current_scorer() -> scoring.Scorer:
    """The :class:`scoring.Scorer` of the active competition (built once per content)."""
    return _active()[1].scorer


def current_leaderboard(p: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """``Scorer.leaderboard`` for the current (or the given) parameters (the Scorer caches
    its costly levels, so this is cheap after a slider move)."""
    p = params() if p is None else dict(p)
    p["attributes"] = tuple(p["attributes"])
    return current_scorer().leaderboard(**p)


_GS_KEYS = ("w", "quality", "threshold", "attributes", "overlap_removal")


def current_group_scores(p: Mapping[str, Any] | None = None) -> scoring.GroupScores:
    """``Scorer.group_scores`` for the current parameters (only those it depends on)."""
    p = params() if p is None else dict(p)
    sub = {k: (tuple(p[k]) if k == "attributes" else p[k]) for k in _GS_KEYS}
    return current_scorer().group_scores(**sub)


# --------------------------------------------------------------------------------------
# Colours and page furniture
# --------------------------------------------------------------------------------------

#: Named colours double as palette entries, so a team called "Blue" and an unnamed team
#: never end up with two near-identical blues.
_NAMED = {
    "blue": "#4C78A8", "orange": "#F58518", "green": "#54A24B", "red": "#E45756",
    "teal": "#72B7B2", "purple": "#B279A2", "pink": "#FF9DA6", "brown": "#9D755D",
    "yellow": "#EECA3B", "grey": "#8C8C8C", "gray": "#8C8C8C", "navy": "#1F3A93",
    "cyan": "#17BECF", "olive": "#BCBD22", "violet": "#7B4FBF", "magenta": "#C2188F",
    "black": "#333333", "gold": "#D4A017", "silver": "#BAB0AC", "indigo": "#4B0082",
}
_PALETTE = list(dict.fromkeys([
    "#4C78A8", "#F58518", "#54A24B", "#E45756", "#72B7B2", "#B279A2", "#EECA3B", "#9D755D",
    "#FF9DA6", "#8C8C8C", "#1F3A93", "#17BECF", "#BCBD22", "#7B4FBF", "#C2188F", "#333333",
    "#D4A017", "#BAB0AC", "#98DF8A", "#AEC7E8", "#FFBB78", "#C5B0D5", "#C49C94", "#4B0082",
]))


def _extra_colour(i: int) -> str:
    hue = (i * 0.618033988749895) % 1.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.45, 0.65)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def team_colors(names: Iterable[str]) -> dict[str, str]:
    """A stable colour per team: teams named after a colour get it, the others take the
    palette in name order, so the mapping does not depend on the order given.
    Pass every team of the competition (``comp.submission_names``)."""
    unique = sorted(set(map(str, names)))
    colors: dict[str, str] = {}
    used = set()
    for name in unique:
        named = _NAMED.get(name.strip().lower())
        if named and named not in used:
            colors[name] = named
            used.add(named)
    palette = [c for c in _PALETTE if c not in used]
    i = 0
    for name in unique:
        if name in colors:
            continue
        colors[name] = palette[i] if i < len(palette) else _extra_colour(i)
        i += 1
    return colors


def current_team_colors() -> dict[str, str]:
    return team_colors(current_competition().submission_names)


def ensure_app_entry() -> None:
    """Make sure this run goes through ``app.py`` (navigation, shared sidebar).

    Until the first ``st.navigation`` call of a freshly started server, Streamlit treats an
    app with a folder named ``pages/`` the legacy way and runs a deep-linked page (say
    ``/demographics?alpha=80``) *alone* — no sidebar, no parameters. This switches that mode
    off and reruns, so the same URL is served through ``app.py``. Called by ``app.py`` and by
    :func:`page_header`, which every page calls first.
    """
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - a Streamlit without the legacy mode
        return
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def page_header(title: str, explanation: str) -> None:
    """Page title plus one short paragraph explaining what the page shows."""
    ensure_app_entry()
    st.title(title)
    st.markdown(explanation)
    if not using_sample():
        st.caption("Showing your uploaded data — switch back to the sample on the Data page.")


# --------------------------------------------------------------------------------------
# The leaderboard: stages, display table, exports
# --------------------------------------------------------------------------------------

#: (score column, rank column, words)
STAGES = [
    ("fp1", "fp1_rank", "FP1 (original)"),
    ("overlap_removed", "overlap_removed_rank", "After overlap removal"),
    ("segment_score", "segment_score_rank", "Unified segment score"),
    ("bias_score", "bias_score_rank", "Bias-aware score"),
    ("final_score", "rank", "Final score"),
]
#: The stage names, as the table's headers, shared by every chart.
STAGE_NAMES = [words for _, _, words in STAGES]


def rank_arrow(previous: int, current: int) -> str:
    """``"3 ▲2"`` when the rank improved by 2, ``"5 ▼1"`` when it fell, ``"4"`` when unchanged."""
    delta = int(previous) - int(current)
    if delta > 0:
        return f"{int(current)} ▲{delta}"
    if delta < 0:
        return f"{int(current)} ▼{-delta}"
    return f"{int(current)}"


def stage_table(lb: pd.DataFrame) -> pd.DataFrame:
    """The five-stage table for display: words for headers, an arrow on every rank change."""
    out = pd.DataFrame({"Team": lb["submission"].astype(str).to_numpy()})
    prev_rank = None
    for score, rank, words in STAGES:
        out[words] = lb[score].astype(float).to_numpy()
        ranks = lb[rank].astype(int).to_numpy()
        if prev_rank is None:
            out[f"{words} · rank"] = [str(r) for r in ranks]
        else:
            out[f"{words} · rank"] = [rank_arrow(p, r) for p, r in zip(prev_rank, ranks, strict=True)]
        if score == "bias_score":
            out["Eligible for boost"] = np.where(lb["eligible"].astype(bool), "yes", "no")
            out["Boost"] = lb["boost"].astype(float).to_numpy() * 100.0
        prev_rank = ranks
    # The headline first: the final rank and score sit (pinned) next to the team's name, so
    # they stay in view on a narrow screen; the stages follow in order.
    final = STAGES[-1][2]
    head = ["Team", f"{final} · rank", final]
    return out[head + [c for c in out.columns if c not in head]]


def stage_column_config(table: pd.DataFrame) -> dict[str, Any]:
    cfg: dict[str, Any] = {"Team": st.column_config.TextColumn("Team", pinned=True)}
    for _, _, words in STAGES:
        cfg[words] = st.column_config.NumberColumn(words, format="%.4f")
        cfg[f"{words} · rank"] = st.column_config.TextColumn(
            "Rank", width="small", help=f"Rank on “{words}”; ▲/▼: places gained/lost against the previous stage"
        )
    final = STAGES[-1][2]
    cfg[final] = st.column_config.NumberColumn(final, format="%.4f", pinned=True,
                                               help="The final score, with the efficiency boost")
    cfg[f"{final} · rank"] = st.column_config.TextColumn(
        "Final rank", width="small", pinned=True,
        help=f"Rank on “{final}”; ▲/▼: places gained/lost against “{STAGES[-2][2]}”",
    )
    cfg["Eligible for boost"] = st.column_config.TextColumn("Eligible", width="small",
                                                            help="Eligible for the efficiency boost")
    cfg["Boost"] = st.column_config.NumberColumn("Boost", format="%.2f %%", width="small")
    return cfg


def number_columns(columns: Iterable[str], fmt: str = "%.3f") -> dict[str, Any]:
    """``st.dataframe`` column config showing each of ``columns`` as a number in ``fmt``."""
    return {c: st.column_config.NumberColumn(c, format=fmt) for c in columns}


def escape_cell(value: Any) -> Any:
    """Neutralise spreadsheet formulas: text starting with = + - @ (or tab/CR) gets a ``'``."""
    if isinstance(value, str) and value and value[0] in "=+-@\t\r":
        return "'" + value
    return value


def _escape_frame(df: pd.DataFrame) -> pd.DataFrame:
    out = df.copy()
    out.columns = [escape_cell(str(c)) for c in out.columns]
    for col in out.columns:
        if out[col].dtype == object or pd.api.types.is_string_dtype(out[col]):
            out[col] = out[col].map(escape_cell)
    return out


def group_columns(lb: pd.DataFrame) -> list[str]:
    return [c for c in lb.columns if c not in scoring.LEADERBOARD_COLUMNS]


def leaderboard_csv(lb: pd.DataFrame) -> bytes:
    """The leaderboard as CSV (the CLI's columns, then one column per group score)."""
    cols = scoring.LEADERBOARD_COLUMNS + group_columns(lb)
    return _escape_frame(lb[cols]).to_csv(index=False).encode("utf-8")


def leaderboard_json(lb: pd.DataFrame, p: Mapping[str, Any] | None = None) -> bytes:
    """The leaderboard as strict JSON: the engine's ``scoring.leaderboard_document``
    (``{"parameters": …, "leaderboard": [{…, "groups": …}]}``) with formula escaping."""
    doc = scoring.leaderboard_document(lb, params() if p is None else p, text=escape_cell)
    return json.dumps(doc, indent=2, allow_nan=False, ensure_ascii=False).encode("utf-8")


# --------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------

_LAYOUT = dict(margin=dict(l=10, r=10, t=50, b=10), legend_title_text="Team", hovermode="closest")


def bump_chart(lb: pd.DataFrame, colors: Mapping[str, str]) -> go.Figure:
    """Every team's rank across the five stages (1 at the top)."""
    fig = go.Figure()
    n = len(lb)
    for rec in lb.to_dict("records"):
        name = str(rec["submission"])
        ranks = [int(rec[r]) for _, r, _ in STAGES]
        scores = [float(rec[s]) for s, _, _ in STAGES]
        fig.add_trace(go.Scatter(
            x=STAGE_NAMES, y=ranks, mode="lines+markers", name=name,
            line=dict(color=colors.get(name), width=3), marker=dict(size=11),
            customdata=scores, showlegend=True,
            hovertemplate=f"<b>{name}</b><br>%{{x}}: rank %{{y}}<br>score %{{customdata:.4f}}<extra></extra>",
        ))
    fig.update_yaxes(autorange="reversed", title="Rank", dtick=1, range=[n + 0.5, 0.5])
    fig.update_xaxes(title="Stage")
    fig.update_layout(title="Rank at every stage", height=max(320, 40 * n + 140), **_LAYOUT)
    return fig


def waterfall(lb: pd.DataFrame, team: str, overlap_removal: bool = True) -> go.Figure:
    """From FP1 to the final score: what each stage took or gave for one team.

    With overlap removal switched off, the segment score is computed on the raw predictions,
    so the removal step is shown as 0 ("off") and the segment step starts from FP1.
    """
    rec = lb.loc[lb["submission"] == team].iloc[0]
    fp1 = float(rec["fp1"])
    # FP1, what each later stage gave or took (named as in the table; the final stage's step
    # is its efficiency boost), then the final score.
    names = STAGE_NAMES
    removed = float(rec["overlap_removed"]) if overlap_removal else fp1
    steps = [
        (names[0], fp1, "absolute"),
        (names[1] if overlap_removal else f"{names[1]} (off)", removed - fp1, "relative"),
        (names[2], float(rec["segment_score"]) - removed, "relative"),
        (names[3], float(rec["bias_score"]) - float(rec["segment_score"]), "relative"),
        ("Efficiency boost", float(rec["final_score"]) - float(rec["bias_score"]), "relative"),
        (names[4], float(rec["final_score"]), "total"),
    ]
    fig = go.Figure(go.Waterfall(
        x=[s[0] for s in steps], y=[s[1] for s in steps], measure=[s[2] for s in steps],
        text=[f"{s[1]:+.4f}" if s[2] == "relative" else f"{s[1]:.4f}" for s in steps],
        textposition="outside",
        increasing=dict(marker=dict(color="#2CA02C")), decreasing=dict(marker=dict(color="#D62728")),
        totals=dict(marker=dict(color="#4C78A8")), connector=dict(line=dict(color="#999")),
    ))
    top = max(fp1, *(float(rec[s]) for s, _, _ in STAGES))
    fig.update_yaxes(title="Score", range=[0, min(1.05, top * 1.15 + 0.02)])
    fig.update_layout(title=f"{team}: from FP1 to the final score", showlegend=False,
                      height=380, margin=dict(l=10, r=10, t=50, b=10))
    return fig


#: Above this many groups (or more groups than teams) the heatmap puts the groups on the y axis.
HEATMAP_MAX_GROUP_COLUMNS = 10
_HEAT_ROW_PX = 26


def short_group_labels(labels: Sequence[str]) -> tuple[list[str], list[str]]:
    """``("ell_status=No & gender=F", …)`` -> (``["No · F", …]``, ``["ell_status", "gender"]``).

    The attribute names go once into the axis title; labels that do not all follow the same
    ``attr=value & attr=value`` pattern come back unchanged (with no attribute names).
    """
    split = [[part.partition("=") for part in str(g).split(" & ")] for g in labels]
    keys = [[k for k, _, _ in parts] for parts in split]
    if not split or any(not all(eq for _, eq, _ in parts) for parts in split) or any(k != keys[0] for k in keys):
        return [str(g) for g in labels], []
    short = [" · ".join(v for _, _, v in parts) for parts in split]
    if len(set(short)) != len(short):
        return [str(g) for g in labels], []
    return short, keys[0]


def group_heatmap(gs: Any, order: list[str]) -> go.Figure:
    """Every team's segment score per demographic group (teams in leaderboard order).

    Few groups: a row per team, a column per group. Many groups (more than the teams, or more
    than :data:`HEATMAP_MAX_GROUP_COLUMNS`): a row per group and a column per team, the height
    growing with the rows, so that every label stays horizontal and readable.
    """
    scores = gs.scores.reindex(order)
    labels = list(gs.labels)
    table = scores[labels].to_numpy(dtype=float)
    transposed = len(labels) > HEATMAP_MAX_GROUP_COLUMNS or len(labels) > len(order)
    if transposed:
        short, attrs = short_group_labels(labels)
        group_axis = [f"{s} (n = {int(gs.sizes[g])})" for s, g in zip(short, labels, strict=True)]
        z, x, y = table.T, list(order), group_axis
        rows = len(labels)
    else:  # one column per group; a long cross-product label breaks at each " & "
        group_axis = [f"{g.replace(' & ', ' &<br>')}<br>n = {int(gs.sizes[g])}" for g in labels]
        z, x, y = table, group_axis, list(order)
        rows = len(order)
    fig = go.Figure(go.Heatmap(
        z=z.tolist(), x=x, y=y, colorscale="Viridis", colorbar=dict(title="Score"),
        texttemplate="%{z:.3f}", hovertemplate="%{y}<br>%{x}<br>score %{z:.4f}<extra></extra>", xgap=1, ygap=1,
    ))
    group_title = f"Group ({' · '.join(attrs)})" if transposed and attrs else "Group"
    fig.update_yaxes(autorange="reversed", title=group_title if transposed else "Team", automargin=True)
    fig.update_xaxes(title="Team" if transposed else "Group", tickangle=0, automargin=True,
                     side="top" if transposed else "bottom")
    height = (max(300, _HEAT_ROW_PX * rows + 180) if transposed
              else max(300, 32 * rows + 160))
    fig.update_layout(title="Segment score per group", height=height,
                      margin=dict(l=10, r=10, t=90 if transposed else 50, b=10))
    return fig


def softmin_weights(gs: Any, alpha: float, order: list[str]) -> pd.DataFrame:
    """β per team (rows, in ``order``) and group (columns): one ``scoring.softmin_matrix`` call."""
    labels = list(gs.labels)
    sizes = gs.sizes.reindex(labels).to_numpy(dtype=float)
    _, betas = scoring.softmin_matrix(gs.scores.loc[order, labels].to_numpy(dtype=float), sizes,
                                      check_alpha(alpha))
    return pd.DataFrame(betas, index=list(order), columns=labels)


def alpha_sweep(gs: Any, alphas: Iterable[float]) -> pd.DataFrame:
    """Bias score and rank of every team for each α (long form: alpha, team, score, rank);
    one ``scoring.softmin_matrix`` call per α for all teams."""
    labels = list(gs.labels)
    sizes = gs.sizes.reindex(labels).to_numpy(dtype=float)
    teams = [str(t) for t in gs.scores.index]
    table = gs.scores[labels].to_numpy(dtype=float)
    alphas = [float(a) for a in alphas]
    nus = [scoring.softmin_matrix(table, sizes, check_alpha(a))[0] for a in alphas]
    ranks = [np.asarray(scoring.rank(nu), dtype=int) for nu in nus]
    return pd.DataFrame({
        "alpha": np.repeat(np.asarray(alphas, dtype=float), len(teams)),
        "team": teams * len(alphas),
        "score": np.concatenate(nus) if nus else np.zeros(0),
        "rank": np.concatenate(ranks) if ranks else np.zeros(0, dtype=int),
    })


def sweep_figure(sweep: pd.DataFrame, colors: Mapping[str, str], alpha: float,
                 order: Sequence[str] | None = None) -> go.Figure:
    """Bias score (top) and rank (bottom) as α sweeps, with the current α marked.

    ``order``: the teams in legend order (the final ranking, as in every chart); by name
    when not given."""
    parts = dict(tuple(sweep.groupby("team", sort=True)))
    names = [t for t in (order or []) if t in parts] + [t for t in parts if t not in (order or [])]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        subplot_titles=("Bias-aware score", "Rank"))
    for team in names:
        part = parts[team]
        c = colors.get(str(team))
        fig.add_trace(go.Scatter(x=part["alpha"].tolist(), y=part["score"].tolist(), mode="lines", name=str(team),
                                 legendgroup=str(team), line=dict(color=c, width=2),
                                 hovertemplate=f"{team}<br>α %{{x:g}}: %{{y:.4f}}<extra></extra>"),
                      row=1, col=1)
        fig.add_trace(go.Scatter(x=part["alpha"].tolist(), y=part["rank"].tolist(), mode="lines", name=str(team),
                                 legendgroup=str(team), showlegend=False,
                                 line=dict(color=c, width=2, shape="hv"),
                                 hovertemplate=f"{team}<br>α %{{x:g}}: rank %{{y}}<extra></extra>"),
                      row=2, col=1)
    if math.isfinite(alpha):
        fig.add_vline(x=alpha, line=dict(color="#444", dash="dash"),
                      annotation_text=f"current α = {alpha:g}", annotation_position="top")
    n = sweep["team"].nunique()
    fig.update_yaxes(title="Score", row=1, col=1)
    fig.update_yaxes(title="Rank", autorange="reversed", dtick=1, row=2, col=1,
                     range=[n + 0.5, 0.5])
    fig.update_xaxes(title="Softmin temperature α", row=2, col=1)
    fig.update_layout(title="How the bias-aware ranking moves with α", height=620, **_LAYOUT)
    return fig


# --------------------------------------------------------------------------------------
# Efficiency
# --------------------------------------------------------------------------------------


def efficiency_table(eff: pd.DataFrame) -> pd.DataFrame:
    """The Efficiency page's table: words as on the Leaderboard (eligible yes/no), a missing
    runtime as "—", the boost in percent."""
    return pd.DataFrame({
        "Team": eff["team"].to_numpy(),
        "Bias-aware score": eff["score"].to_numpy(),
        "Runtime (s)": ["—" if r != r else f"{r:.4g}" for r in eff["runtime"].astype(float)],
        "Eligible": np.where(eff["eligible"].astype(bool), "yes", "no"),
        "Boost": eff["boost"].to_numpy() * 100.0,
        "Final score": eff["final"].to_numpy(),
        "Final rank": eff["rank"].to_numpy(),
    })


def efficiency_frame(lb: pd.DataFrame, runtimes: Mapping[str, float]) -> pd.DataFrame:
    """Per team: bias-aware score, runtime (NaN when unknown), eligibility, boost, final."""
    return pd.DataFrame({
        "team": lb["submission"].astype(str).to_numpy(),
        "score": lb["bias_score"].astype(float).to_numpy(),
        "runtime": [float(runtimes.get(str(n), np.nan)) for n in lb["submission"]],
        "eligible": lb["eligible"].astype(bool).to_numpy(),
        "boost": lb["boost"].astype(float).to_numpy(),
        "final": lb["final_score"].astype(float).to_numpy(),
        "rank": lb["rank"].astype(int).to_numpy(),
    })


#: The efficiency chart's runtime axis turns logarithmic above this max/min runtime ratio.
LOG_RUNTIME_RATIO = 50.0


def efficiency_figure(eff: pd.DataFrame, colors: Mapping[str, str], band: float,
                      window: float, highlight: Mapping[str, float] | None = None) -> go.Figure:
    """Score against runtime; the eligibility band and the boost window shaded."""
    fig = go.Figure()
    known = eff.dropna(subset=["runtime"])
    best = float(eff["score"].max()) if len(eff) else 0.0
    if best > 0:
        fig.add_hrect(y0=best / (1 + band), y1=best, fillcolor="#54A24B", opacity=0.15, line_width=0,
                      annotation_text=f"eligibility band ({band * 100:g} %)",
                      annotation_position="top left")
    elig = known[known["eligible"]]
    if len(elig):
        fastest = float(elig["runtime"].min())
        fig.add_vrect(x0=fastest, x1=fastest * (1 + window), fillcolor="#F58518", opacity=0.12,
                      line_width=0, annotation_text=f"boost window (+{window * 100:g} %)",
                      annotation_position="bottom left")
    # Only eligible teams carry a label (alternately above and below, by runtime, so that
    # neighbours do not collide); the others are named on hover and in the legend.
    labelled = known[known["eligible"]].sort_values("runtime")["team"].tolist()
    position = {t: ("top center" if i % 2 == 0 else "bottom center") for i, t in enumerate(labelled)}
    for rec in known.to_dict("records"):
        name = rec["team"]
        label = f"{name} +{rec['boost'] * 100:.2f} %" if rec["boost"] > 0 else name
        fig.add_trace(go.Scatter(
            x=[rec["runtime"]], y=[rec["score"]], mode="markers+text" if name in position else "markers",
            name=name,
            marker=dict(color=colors.get(name), size=12 + 200 * rec["boost"],
                        line=dict(color="#222" if rec["eligible"] else "white", width=1.5)),
            text=[label] if name in position else None, textposition=position.get(name, "top center"),
            hovertemplate=(f"<b>{name}</b><br>runtime %{{x:.4g}} s<br>score %{{y:.4f}}<br>"
                           f"boost {rec['boost'] * 100:.2f} %<br>final {rec['final']:.4f}<extra></extra>"),
        ))
    if highlight:
        fig.add_trace(go.Scatter(
            x=[highlight["runtime"]], y=[highlight["score"]], mode="markers+text", name="What-if",
            marker=dict(symbol="star", size=20, color="#111"), text=["what-if"],
            textposition="bottom center",
            hovertemplate="what-if<br>runtime %{x:.4g} s<br>score %{y:.4f}<extra></extra>",
        ))
    runtimes = [float(r) for r in known["runtime"] if float(r) > 0]
    if highlight and float(highlight["runtime"]) > 0:
        runtimes.append(float(highlight["runtime"]))
    if runtimes and max(runtimes) / min(runtimes) > LOG_RUNTIME_RATIO:
        fig.update_xaxes(type="log", title="Runtime (seconds, log scale)")
    else:
        fig.update_xaxes(title="Runtime (seconds)")
    fig.update_yaxes(title="Bias-aware score")
    fig.update_layout(title="Score against runtime", height=460, **_LAYOUT)
    return fig


def boost_figure(eff: pd.DataFrame, colors: Mapping[str, str]) -> go.Figure:
    fig = go.Figure(go.Bar(
        x=eff["team"].tolist(), y=(eff["boost"] * 100.0).tolist(),
        marker_color=[colors.get(t) for t in eff["team"]],
        text=[f"{b * 100:.2f} %" for b in eff["boost"]], textposition="outside",
        hovertemplate="%{x}<br>boost %{y:.2f} %<extra></extra>",
    ))
    fig.update_layout(title="Boost per team", height=280, showlegend=False,
                      margin=dict(l=10, r=10, t=50, b=10))
    fig.update_yaxes(title="Boost (%)", rangemode="tozero")
    fig.update_xaxes(title="Team")
    return fig


def _boost_table(scores: Mapping[str, float], runtimes: Mapping[str, float], p: Mapping[str, Any]) -> pd.DataFrame:
    return scoring.efficiency_boost(dict(scores), dict(runtimes), band=p["band"],
                                    max_boost=p["max_boost"], window=p["window"])


def what_if(scores: Mapping[str, float], runtimes: Mapping[str, float], name: str,
            score: float, runtime: float, p: Mapping[str, Any]) -> dict[str, Any]:
    """A competitor's what-if on the efficiency stage.

    ``scores``/``runtimes`` are the field (bias-aware scores, seconds); ``name`` (a team of the
    field or a new name) gets ``score`` and ``runtime``. Returns eligibility, boost, final
    score and rank, the runtime needed for the full boost, and the runtime needed to
    overtake the team ranked directly above (``None`` when no runtime can do it).
    """
    scores = {str(k): float(v) for k, v in scores.items()}
    runtimes = {str(k): float(v) for k, v in runtimes.items() if v is not None and np.isfinite(v)}
    scores[name] = float(score)
    runtimes[name] = float(runtime)
    table = _boost_table(scores, runtimes, p)
    me = table.loc[table["submission"] == name].iloc[0]
    out: dict[str, Any] = {
        "table": table,
        "eligible": bool(me["eligible"]),
        "boost": float(me["boost"]),
        "final_score": float(me["final_score"]),
        "rank": int(me["rank"]),
        "best": max(scores.values()),
        "threshold_score": max(scores.values()) / (1 + p["band"]),
    }
    # Full boost: no eligible rival may be faster than us (the fastest eligible defines s).
    elig_others = table[(table["eligible"].astype(bool)) & (table["submission"] != name)]
    other_rt = [runtimes[s] for s in elig_others["submission"] if s in runtimes]
    if out["eligible"]:
        out["full_boost_runtime"] = min(other_rt) if other_rt else float(runtime)
    else:
        out["full_boost_runtime"] = None
    # Overtaking the team directly above (in the what-if ranking).
    above = table[(table["final_score"] > me["final_score"] + 1e-12)]
    if above.empty:
        out["above"] = None
        out["overtake_runtime"] = None
        return out
    target = str(above.iloc[-1]["submission"])
    out["above"] = target
    if not out["eligible"]:
        out["overtake_runtime"] = None
        return out
    rivals = table.set_index("submission")

    def beats(r: float) -> bool:
        rt = dict(runtimes)
        rt[name] = r
        t = _boost_table(scores, rt, p).set_index("submission")
        return float(t.loc[name, "final_score"]) > float(t.loc[target, "final_score"]) + 1e-12

    # beats(r) is monotone (true below some runtime, false above): solve for that runtime in
    # closed form, confirm it with two engine calls, and only bisect if they disagree.
    fastest_other = min(other_rt) if other_rt else math.inf
    target_rt = runtimes.get(target) if bool(rivals.loc[target, "eligible"]) else None
    r_star = _overtake_runtime(float(score), float(rivals.loc[target, "score"]), target_rt, fastest_other, p)
    if r_star is None:
        out["overtake_runtime"] = None if not beats(float(runtime) * 1e-9) else _bisect(beats, runtime)
    elif beats(r_star * (1 - 1e-9)) and not beats(r_star * (1 + 1e-9)):
        out["overtake_runtime"] = r_star
    else:  # safety net: the engine disagrees with the closed form (a rounding edge)
        out["overtake_runtime"] = _bisect(beats, runtime) if beats(float(runtime) * 1e-9) else None
    return out


def _bisect(beats: Callable[[float], bool], runtime: float) -> float:
    """The largest runtime (to 1e-7 relative) with ``beats``; ``beats(runtime · 1e-9)`` holds."""
    lo, hi = float(runtime) * 1e-9, float(runtime)  # beats(lo) is True, beats(hi) is False
    while hi / lo > 1 + 1e-7:  # about 40 halvings of the log-range, each one engine call
        mid = math.sqrt(lo * hi)
        if beats(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _overtake_runtime(x: float, y: float, target_rt: float | None, fastest_other: float,
                      p: Mapping[str, Any]) -> float | None:
    """The runtime below which an eligible score ``x`` finishes above score ``y``.

    ``target_rt``: the target's runtime when it is eligible (else it gets no boost);
    ``fastest_other``: the fastest runtime of the other eligible teams (∞ if none). With
    ``s`` the fastest eligible runtime, a run at ratio ``r/s`` gets
    ``max_boost · (1 − (r/s − 1)/window)`` (0 beyond the window): the boost is piecewise
    linear in ``r/s``. While ``r ≤ fastest_other`` we are the fastest (full boost) and only the
    target's boost moves (it falls as ``r`` falls); above it ``s`` is fixed and only ours
    moves. ``None`` when no runtime is fast enough.
    """
    m, window = float(p["max_boost"]), float(p["window"])
    eps = 1e-12
    if m <= 0 or window <= 0 or x <= 0 or y <= 0:
        return None

    def boost(ratio: float) -> float:
        return max(0.0, m * (1 - (ratio - 1) / window)) if ratio <= 1 + window else 0.0

    # r <= fastest_other: our final is x(1 + m); the target's boost must fall below beta
    beta = (x * (1 + m) - eps) / y - 1
    if beta <= 0:
        return None  # even the full boost against an unboosted target is not enough
    if target_rt is not None and beta <= m:
        # m(1 − (t/r − 1)/window) < beta  <=>  r < t / (1 + window(1 − beta/m))
        r_a = float(target_rt) / (1 + window * (1 - beta / m))
        if r_a < fastest_other:
            return r_a
    if not math.isfinite(fastest_other):
        return None  # we would beat the target at any runtime: not a case the page asks about
    # r > fastest_other: s = fastest_other; the target's final is fixed, ours must stay above it
    target_final = y * (1 + (boost(float(target_rt) / fastest_other) if target_rt is not None else 0.0))
    gamma = (target_final + eps) / x - 1
    if gamma >= m:
        return fastest_other
    if gamma < 0:
        return None  # ahead at any runtime: not a case the page asks about
    # m(1 − (r/s − 1)/window) > gamma  <=>  r < s (1 + window(1 − gamma/m))
    return fastest_other * (1 + window * (1 - gamma / m))


# --------------------------------------------------------------------------------------
# Segments: essay text, per-session submissions, word indices, the word chart
# --------------------------------------------------------------------------------------


def _default_folder() -> Path | None:
    """The folder of the active competition when it is a folder (the sample or LAB_DATA_DIR)."""
    return Path(data_dir()) if using_sample() else None


@st.cache_resource(show_spinner=False, max_entries=4)
def read_essays(path: str, mtime: float) -> dict[str, list[str]]:
    """essay id -> list of words, from an ``essays.csv`` with columns ``id`` and a text column.

    ``mtime`` only keys the cache, so an edited file is read again. The dict is shared by
    every session (no copy per hit): treat it as read-only.
    """
    with open(path, encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        fields = reader.fieldnames or []
        text_col = next((c for c in ("text", "essay_text", "full_text") if c in fields), None)
        if "id" not in fields or text_col is None:
            return {}
        return {row["id"].strip(): (row[text_col] or "").split() for row in reader}


def essay_words(essay_id: str) -> list[str] | None:
    """The words of one essay from the default data's ``essays.csv``; ``None`` when there is no
    text (an upload, no ``essays.csv``, or an essay it does not list)."""
    folder = _default_folder()
    if folder is None:
        return None
    path = folder / "essays.csv"
    if not path.is_file():
        return None
    return read_essays(str(path), path.stat().st_mtime).get(essay_id)


def _session_memo(state_key: str, key: Any, limit: int, compute: Callable[[], Any]) -> Any:
    """``compute()`` memoised in ``st.session_state[state_key]``, emptied when it holds ``limit``."""
    memo = st.session_state.setdefault(state_key, {})
    if key not in memo:
        if len(memo) >= limit:
            memo.clear()
        memo[key] = compute()
    return memo[key]


def session_submission(name: str) -> pd.DataFrame:
    """Submission ``name`` of the active competition as its canonical frame
    (``Competition.read_submission``), memoised per session by (content digest, name)."""
    digest, entry = _active()
    return _session_memo("seg_memo", (digest, name), 4, lambda: entry.comp.read_submission(name))


def word_indices(predictionstring: str) -> list[int]:
    """The sorted, distinct word indices of a predictionstring."""
    return sorted({int(t) for t in str(predictionstring).split()})


def span_text(words: Sequence[int]) -> str:
    """Word indices as runs: ``"4–9, 12"``; ``"—"`` when there are none."""
    if not words:
        return "—"
    words = sorted(words)
    runs, start, prev = [], words[0], words[0]
    for i in words[1:]:
        if i != prev + 1:
            runs.append((start, prev))
            start = i
        prev = i
    runs.append((start, prev))
    return ", ".join(f"{a}–{b}" if a != b else f"{a}" for a, b in runs)


#: Clearly distinct hues for the discourse types (the seven of the Feedback Prize get the first
#: seven: blue, orange, green, red, purple, cyan, olive), then more for other class sets.
CLASS_PALETTE = [
    "#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#17BECF", "#BCBD22",
    "#8C564B", "#E377C2", "#7F7F7F",
]


def class_colours(classes: Iterable[str]) -> dict[str, str]:
    """A colour per discourse type, by sorted name."""
    palette = CLASS_PALETTE + [c for c in plotly.colors.qualitative.Bold if c not in CLASS_PALETTE]
    return {c: palette[i % len(palette)] for i, c in enumerate(sorted(classes))}


ESSAY_WORDS_PER_LINE = 16
_LANE = 0.22  # height of one segment bar (data units); a word cell is 1 unit high
_CELL = 0.78
_GAP = 0.35
_PX_PER_UNIT = 30


def segment_lanes(segments: list[dict]) -> list[int]:
    """A lane per segment so that segments sharing a word never share a lane."""
    lanes: list[set[int]] = []
    out = []
    for seg in segments:
        words = set(seg["words"])
        for k, used in enumerate(lanes):
            if not used & words:
                used |= words
                out.append(k)
                break
        else:
            lanes.append(set(words))
            out.append(len(lanes) - 1)
    return out


def _runs_on_lines(words: list[int]) -> Iterator[tuple[int, int, int]]:
    """Yield (line, first column, last column) for each run of consecutive words within a line."""
    if not words:
        return
    start = prev = words[0]
    for i in [*words[1:], None]:
        if i is not None and i == prev + 1 and i // ESSAY_WORDS_PER_LINE == prev // ESSAY_WORDS_PER_LINE:
            prev = i
            continue
        yield start // ESSAY_WORDS_PER_LINE, start % ESSAY_WORDS_PER_LINE, prev % ESSAY_WORDS_PER_LINE
        if i is not None:
            start = prev = i


def essay_figure(
    words: list[str], gt: list[dict], preds: list[dict], colours: dict[str, str], n_gt_lanes: int, n_pred_lanes: int
) -> go.Figure:
    """Words in a grid; ground-truth bars above each line of words, prediction bars below.

    ``gt`` / ``preds``: dicts with ``words`` (sorted word indices), ``cls``, ``lane`` (see
    :func:`segment_lanes`), ``hover``.
    """
    n_lines = max(1, math.ceil(len(words) / ESSAY_WORDS_PER_LINE))
    line_h = n_gt_lanes * _LANE + _CELL + n_pred_lanes * _LANE + _GAP

    def top(line: int) -> float:
        return -line * line_h

    fig = go.Figure()
    # word cells
    xs, ys = [], []
    tx, ty, tt, th = [], [], [], []
    for i, word in enumerate(words):
        line, col = divmod(i, ESSAY_WORDS_PER_LINE)
        y1 = top(line) - n_gt_lanes * _LANE - 0.04
        y0 = y1 - _CELL + 0.08
        x0, x1 = col + 0.03, col + 0.97
        xs += [x0, x1, x1, x0, x0, None]
        ys += [y0, y0, y1, y1, y0, None]
        tx.append(col + 0.5)
        ty.append((y0 + y1) / 2)
        tt.append(word if len(word) <= 10 else word[:9] + "…")
        th.append(f"word {i}: {word}")
    fig.add_trace(
        go.Scatter(x=xs, y=ys, mode="lines", line=dict(color="#c9ced6", width=1), hoverinfo="skip", showlegend=False)
    )
    fig.add_trace(
        go.Scatter(
            x=tx,
            y=ty,
            mode="text",
            text=tt,
            hovertext=th,
            hoverinfo="text",
            textfont=dict(size=11, color="#1f2933"),
            showlegend=False,
        )
    )

    shown_in_legend: set[str] = set()
    hx, hy, ht = [], [], []
    for kind, segments in (("gt", gt), ("pred", preds)):
        by_class: dict[str, tuple[list, list]] = {}
        for seg in segments:
            bx, by = by_class.setdefault(seg["cls"], ([], []))
            for line, c0, c1 in _runs_on_lines(seg["words"]):
                if kind == "gt":
                    y1 = top(line) - seg["lane"] * _LANE - 0.02
                else:
                    y1 = top(line) - n_gt_lanes * _LANE - _CELL - seg["lane"] * _LANE - 0.02
                y0 = y1 - _LANE + 0.05
                x0, x1 = c0 + 0.03, c1 + 0.97
                bx += [x0, x1, x1, x0, x0, None]
                by += [y0, y0, y1, y1, y0, None]
                hx.append((x0 + x1) / 2)
                hy.append((y0 + y1) / 2)
                ht.append(seg["hover"])
        for cls, (bx, by) in sorted(by_class.items()):
            fig.add_trace(
                go.Scatter(
                    x=bx,
                    y=by,
                    mode="lines",
                    fill="toself",
                    fillcolor=colours.get(cls, "#888888"),
                    line=dict(color=colours.get(cls, "#888888"), width=1),
                    opacity=1.0 if kind == "gt" else 0.75,
                    name=cls,
                    legendgroup=cls,
                    showlegend=cls not in shown_in_legend,
                    hoverinfo="skip",
                )
            )
            shown_in_legend.add(cls)
    fig.add_trace(
        go.Scatter(
            x=hx, y=hy, mode="markers", marker=dict(size=14, opacity=0), hovertext=ht, hoverinfo="text", showlegend=False
        )
    )
    tickvals = [top(line) - n_gt_lanes * _LANE - _CELL / 2 for line in range(n_lines)]
    fig.update_layout(
        height=int(n_lines * line_h * _PX_PER_UNIT) + 90,
        margin=dict(l=10, r=10, t=40, b=10),
        plot_bgcolor="white",
        xaxis=dict(visible=False, range=[-0.1, ESSAY_WORDS_PER_LINE + 0.1], fixedrange=True),
        yaxis=dict(
            range=[top(n_lines - 1) - line_h + _GAP * 0.5, 0.1],
            tickvals=tickvals,
            ticktext=[f"word {line * ESSAY_WORDS_PER_LINE}" for line in range(n_lines)],
            showgrid=False,
            zeroline=False,
            fixedrange=True,
        ),
        legend=dict(orientation="h", y=1.0, yanchor="bottom", title_text="Discourse type: "),
        hoverlabel=dict(bgcolor="white"),
    )
    return fig


# --------------------------------------------------------------------------------------
# Worked examples: figures of the memo's examples
# --------------------------------------------------------------------------------------


def overlap_removal_figure(
    segments: Mapping[str, tuple[int, int]], after: Sequence[Iterable[int] | None]
) -> go.Figure:
    """Each segment's words as submitted and after overlap removal, in processing order.

    ``segments``: name -> (first word, last word), in the listing order; ``after``: the words
    each keeps (``scoring.remove_overlaps``, same order), ``None`` when discarded.
    """
    names = list(segments)
    fig = go.Figure()
    order = sorted(names, key=lambda n: segments[n][0])
    for label, colour, getter in (
        ("Submitted", "#f2c14e", lambda n, k: segments[n]),
        ("After removal", "#2a9d8f", lambda n, k: None if k is None else (min(k), max(k))),
    ):
        ys, bases, widths, texts = [], [], [], []
        for n, kept in zip(names, after, strict=True):
            span = getter(n, kept)
            if span is None:
                continue
            ys.append(n)
            bases.append(span[0] - 0.5)
            widths.append(span[1] - span[0] + 1)
            texts.append(f"{span[0]}–{span[1]}")
        fig.add_trace(
            go.Bar(
                y=ys,
                x=widths,
                base=bases,
                orientation="h",
                name=label,
                marker_color=colour,
                text=texts,
                textposition="inside",
                hovertemplate="Segment %{y}: words %{text}<extra>" + label + "</extra>",
            )
        )
    fig.update_layout(
        barmode="group",
        height=320,
        margin=dict(l=10, r=10, t=30, b=10),
        xaxis=dict(title="Word index", range=[0, 100]),
        yaxis=dict(title="Segment (in processing order)", categoryorder="array", categoryarray=order[::-1]),
        legend=dict(orientation="h", y=1.12),
    )
    return fig


def segment_pairs_figure(pairs: Sequence[tuple[str, Sequence[int], Sequence[int]]]) -> go.Figure:
    """One row per ground truth and one per prediction of each ``(label, gt words, pred words)``.

    The words of each segment are a contiguous run (a ``range``).
    """
    fig = go.Figure()
    for i, (ex, gt, pred) in enumerate(pairs):
        for words, colour, label in ((gt, "#57a773", "Ground truth"), (pred, "#f2c14e", "Prediction")):
            fig.add_trace(
                go.Bar(
                    y=[f"({ex}) {label}"],
                    x=[len(words)],
                    base=[min(words) - 0.5],
                    orientation="h",
                    marker_color=colour,
                    name=label,
                    showlegend=i == 0,
                    legendgroup=label,
                    hovertemplate=f"({ex}) {label}: words {min(words)}–{max(words)}<extra></extra>",
                )
            )
    fig.update_layout(
        barmode="overlay",
        height=360,
        margin=dict(l=10, r=10, t=30, b=10),
        xaxis=dict(title="Word index", dtick=1, range=[-0.5, 13.5]),
        yaxis=dict(autorange="reversed"),
        legend=dict(orientation="h", y=1.1),
    )
    return fig


# --------------------------------------------------------------------------------------
# Small extras used by the core pages
# --------------------------------------------------------------------------------------


def team_profiles() -> dict[str, str]:
    """Team name -> one-sentence profile, from the default data's ``teams.json`` (never an upload).

    The folder's own ``teams.json`` comes first; the sample keeps its profiles beside its
    competition folder (``sample_data.TEAMS_PATH``), used whenever the folder is the sample's
    (by default or through ``LAB_DATA_DIR``).
    """
    folder = _default_folder()
    if folder is None:
        return {}
    candidates = [folder / "teams.json"]
    try:
        import sample_data

        if folder.resolve() == Path(sample_data.SAMPLE_DIR).resolve():
            candidates.append(Path(sample_data.TEAMS_PATH))
    except (ImportError, AttributeError):
        pass
    for path in candidates:
        if path.is_file():
            try:
                return _read_profiles(str(path), path.stat().st_mtime_ns)
            except OSError:
                return {}
    return {}


@st.cache_resource(show_spinner=False, max_entries=4)
def _read_profiles(path: str, mtime_ns: int) -> dict[str, str]:
    """The profiles of a ``teams.json`` (shared, read-only); ``mtime_ns`` only keys the cache."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in doc.items()} if isinstance(doc, dict) else {}


SWEEP_ALPHAS = tuple(float(a) for a in range(0, 201, 2))


@st.cache_data(show_spinner=False, max_entries=64)
def _alpha_sweep(digest: str, key: tuple, _gs: Any) -> pd.DataFrame:
    return alpha_sweep(_gs, SWEEP_ALPHAS)


def current_alpha_sweep(p: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """The α sweep (0–200) for the current group scores; α itself does not invalidate it."""
    p = params() if p is None else dict(p)
    key = tuple((k, tuple(p[k]) if k == "attributes" else p[k]) for k in _GS_KEYS)
    return _alpha_sweep(current_digest(), key, current_group_scores(p))

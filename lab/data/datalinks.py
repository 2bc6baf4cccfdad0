"""The uploads a link names: ``data=`` holds the session's upload of *every* family,
comma-separated (``data=qa-<digest>,sr-<digest>``), not only the family shown.

A browser's page switch clears the address and the app writes back what the new page shows;
were only the shown family's upload written, a reload on another family's page would lose the
upload. So the session keeps every upload it holds or was handed by a link (family key ->
digest) and writes all of them back on every run; a family's own page resolves its digest
(``store.active``), and a digest the server does not have (or that was deleted) leaves the
link then, with a notice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import streamlit as st

from scoring import registry
from scoring.core.family import Family

from .uploads import valid_digest

_HELD = "_data_links"  # session state: family key -> digest


def parse(values: Iterable[str]) -> dict[str, str]:
    """``{family key: digest}`` from the link's ``data=`` values: ``<key>-<digest>`` items,
    comma-separated (later items win; anything else is left out).

    >>> d, e = "a" * 64, "b" * 64
    >>> parse([f"qa-{d}, sr-{d}", "nonsense", "sr-1234", f"sr-{e}"]) == {"qa": d, "sr": e}
    True
    """
    out: dict[str, str] = {}
    for value in values:
        for item in str(value).split(","):
            key, _, digest = item.strip().rpartition("-")
            if key and valid_digest(digest):
                out[key] = digest
    return out


def text(held: Mapping[str, str]) -> str:
    """The ``data=`` value naming ``held`` (family key -> digest), in a stable order.

    >>> text({"sr": "s", "qa": "q"})
    'qa-q,sr-s'
    """
    return ",".join(f"{k}-{held[k]}" for k in sorted(held))


def held() -> dict[str, str]:
    """This session's uploads by family key: what links handed it (merged in at every call, so
    a link opened in this session counts; the session's own upload of a family wins) and what
    it loaded since."""
    ss = st.session_state.setdefault(_HELD, {})
    if "data" in st.query_params:
        known = {f.key for f in registry.families()}  # an item naming no family is dropped
        for key, digest in parse(st.query_params.get_all("data")).items():
            if key in known:
                ss.setdefault(key, digest)
    return ss


def write(held: Mapping[str, str]) -> None:
    """Put ``held`` in the address (``data=`` removed when empty)."""
    value = text(held)
    if not value:
        if "data" in st.query_params:
            del st.query_params["data"]
    elif st.query_params.get_all("data") != [value]:
        st.query_params["data"] = value


def set_link(fam: Family, digest: str | None) -> None:
    """Name ``fam``'s upload ``digest`` in the link (None: none), keeping the other families'."""
    h = held()
    if digest is None:
        h.pop(fam.key, None)
    else:
        h[fam.key] = digest
    write(h)

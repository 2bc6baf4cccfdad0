"""One guard around every page body: bad input or a bad parameter becomes the page's normal
error message with the way back; anything else is logged and never shown as a traceback.

``app.py`` runs the page through :func:`run_page`, so no page needs its own ``try``. Streamlit's
own control flow (``st.stop``, ``st.rerun``, ``st.switch_page``) raises ``BaseException``
subclasses, which pass through untouched.
"""

from __future__ import annotations

import logging

import streamlit as st

from scoring import InputError
from scoring.core.family import Family

from ..data import store
from ..words.text import md
from . import state

log = logging.getLogger("leaderboard_lab")

#: what a page can run into that is the user's input, not a bug: an engine ``InputError``
#: (bad file, bad parameter value, parameters that contradict each other), and the errors of
#: reading a value a link or preset carried (e.g. a number too long to convert, JSON nested
#: too deep)
USER_ERRORS = (InputError, RecursionError)


def _unpin(fam: Family) -> None:
    st.session_state.pop(f"_{fam.key}_pin", None)
    if "pin" in st.query_params:
        del st.query_params["pin"]


def _way_back(fam: Family) -> None:
    """Buttons that undo what a link or a control set: the defaults, and unpinning A."""
    cols = st.columns(2)
    cols[0].button("Reset to defaults", key="guard_reset", on_click=state.reset, args=(fam,),
                   help="Every parameter of this family back to its default.")
    if "pin" in st.query_params or f"_{fam.key}_pin" in st.session_state:
        cols[1].button("Unpin A", key="guard_unpin", on_click=_unpin, args=(fam,),
                       help="Forget the pinned settings A (from this session or the link).")


def run_page(navigation, fam: Family) -> None:
    """Run the page ``navigation`` chose; report what goes wrong in the page's own words."""
    try:
        navigation.run()
    except USER_ERRORS as err:
        problem = str(err) if isinstance(err, InputError) else "a value is nested too deeply to be read"
        st.error(f"This view cannot be computed with these settings — {md(problem)}")
        st.caption("Change the control it names, or go back:")
        _way_back(fam)
    except store.LoadCancelled:  # the visitor left while data loaded: nothing to say, nothing to log
        st.stop()
    except Exception:  # a bug, not the user's input: logged for us, never shown as a traceback
        log.exception("page %r failed", getattr(navigation, "url_path", "?"))
        st.error("Something went wrong on this page. It has been logged; the other pages still work, "
                 "and resetting the parameters may get this one back.")
        _way_back(fam)

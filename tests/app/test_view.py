"""One view per rerun (issue 23, item 5) and what is shown is what is scored (item 2).

A slider move validates the family's parameters once — app.py's ``lab.view.current.build`` — and
every page, the leaderboard, the warnings and the takeaway reuse that checked ``Params``.
A link's off-step value is shown exactly (slider and number box) and scored as shown; the α
an ∞ switch hides stays in the link.
"""

from __future__ import annotations

import threading
from unittest import mock

import pytest

from lab import families
from lab.view import state
from scoring.core import params as params_mod
from scoring.shovel_ready import FAMILY as SR
from tests.app.helpers import SEG_B, app, rerun, stage_table

SR_LB, DF_LB = "pages/leaderboard.py", "pages/difficulty_leaderboard.py"


class Count:
    """Counts calls of a function while patched in (the wrapped function still runs) — made by the
    script's run, not by the background warm-up of the robustness pages (``lab.robustness.warm``:
    threads named ``warm-…``), which may still be scoring the default data's stability map."""

    def __init__(self, owner, name: str):
        self.n, orig = 0, getattr(owner, name)

        def call(*args, **kwargs):  # a plain function: as a class attribute it gets `self`
            if not threading.current_thread().name.startswith("warm-"):
                self.n += 1
            return orig(*args, **kwargs)
        self._patch = mock.patch.object(owner, name, call)

    def __enter__(self):
        self._patch.start()
        return self

    def __exit__(self, *exc):
        self._patch.stop()


def _validations_after(at, move) -> tuple[int, int]:
    """(parameter-set validations, family-settings lookups) in the one rerun after ``move``."""
    move(at)
    with Count(params_mod.ParamSpec, "_validate") as v, Count(families, "ui") as u:
        rerun(at)
    return v.n, u.n


# (page, family's data: None = the hand-worked Shovel-Ready competition of core_dir, the move)
MOVES = [
    (SR_LB, lambda at: at.slider(key="sr_w").set_value(0.4)),
    ("pages/demographics.py", lambda at: at.slider(key="sr_alpha").set_value(20.0)),
    ("pages/efficiency.py", lambda at: at.slider(key="sr_band").set_value(10.0)),
    ("pages/spotgeo_leaderboard.py", lambda at: at.slider(key="sg_tau").set_value(12.0)),
    ("pages/spotgeo_errors.py", lambda at: at.slider(key="sg_tau").set_value(12.0)),
    ("pages/qa_leaderboard.py", lambda at: at.slider(key="qa_time_threshold").set_value(300.0)),
    ("pages/qa_speed.py", lambda at: at.slider(key="qa_time_threshold").set_value(300.0)),
    (DF_LB, lambda at: at.slider(key="df_reward").set_value(1.2)),
    ("pages/difficulty_samples.py", lambda at: at.slider(key="df_reward").set_value(1.2)),
    ("pages/custom_leaderboard.py", lambda at: at.selectbox(key="cu_normalise").set_value("minmax")),
]


@pytest.mark.parametrize("page,move", MOVES, ids=[m[0].split("/")[1] for m in MOVES])
def test_a_move_validates_the_parameters_once(core_dir, page, move):
    at = app(page)
    validations, lookups = _validations_after(at, move)
    assert validations == 1  # app.py's view; the leaderboard, warnings, takeaway and page reuse it
    # the family's settings (FamilyUI): app.py's link follower (a dataset the link names), the
    # sidebar (draw, its state's defaults and data values) and the view, which every page then
    # reads — not once per helper
    assert lookups <= 5


def test_the_page_shows_the_views_parameters(core_dir):
    at = app(SR_LB)
    view = at.session_state["_run_views"]["shovel-ready"]
    assert view.params is view.checked and view.params.spec is SR.params
    assert view.params["w"] == 0.5 and view.error is None


# ---- what is shown is what is scored ------------------------------------------------------------------
def exact_box(at, key: str):
    """The one number box beside slider ``key`` (its key names the slider's value: see
    ``lab.view.sidebar.exact_key``)."""
    boxes = [n for n in at.number_input if str(n.key).startswith(key + "__exact__")]
    assert len(boxes) == 1, [n.key for n in boxes]
    return boxes[0]


def test_an_off_step_link_value_is_shown_exactly_and_scored(core_dir):
    # B's one prediction covers 8 of the ground truth's 10 words: o_G = 0.8 (tests/app/helpers.py).
    # At threshold 0.805 it does not match (0.8 < 0.805): B's unified segment score is 0. Shown
    # rounded to the slider's step (0.80 or 0.81), the page would claim a threshold it does not use.
    at = app(query={"threshold": "0.805"})
    s = at.slider(key="sr_threshold")
    assert s.value == pytest.approx(0.805) and s.proto.format == "%.3f"   # the slider says 0.805
    assert exact_box(at, "sr_threshold").value == pytest.approx(0.805)
    assert stage_table(at).loc["B", "Unified segment score"] == 0.0
    assert at.query_params["threshold"] == "0.805"

    # exact entry: a value typed in the box moves the slider and is scored
    exact_box(at, "sr_threshold").set_value(0.795)
    rerun(at)
    assert at.slider(key="sr_threshold").value == pytest.approx(0.795)
    assert at.slider(key="sr_threshold").proto.format == "%.3f"
    assert stage_table(at).loc["B", "Unified segment score"] == pytest.approx(SEG_B)  # 0.8 ≥ 0.795: matched
    assert at.query_params["threshold"] == "0.795"

    # an on-step value is shown with the step's decimals
    at.slider(key="sr_threshold").set_value(0.85)
    rerun(at)
    assert at.slider(key="sr_threshold").proto.format == "%.2f"
    assert exact_box(at, "sr_threshold").value == pytest.approx(0.85)


def test_only_the_box_drawn_for_the_sliders_value_moves_it(monkeypatch):
    # a fast slider: the browser still sends the box drawn at w = 0.5 while the slider is at 0.57
    # (its callback fires: to a run that dropped it, the box is new); it must not set w back
    from lab.view import sidebar

    ss = {"sr_w": 0.57, sidebar.exact_key("sr_w", 0.5): 0.5}
    monkeypatch.setattr(sidebar.st, "session_state", ss)
    sidebar._from_box("sr_w", sidebar.exact_key("sr_w", 0.5), 0.0, 1.0)
    assert ss["sr_w"] == 0.57
    # the box drawn for 0.57, typed into: its value (clipped to the slider's range) is the slider's
    ss[sidebar.exact_key("sr_w", 0.57)] = 1.5
    sidebar._from_box("sr_w", sidebar.exact_key("sr_w", 0.57), 0.0, 1.0)
    assert ss["sr_w"] == 1.0


def test_an_off_step_percent_value_is_shown_exactly(core_dir):
    at = app(query={"band": "0.0525"})       # 5.25 %: the band slider steps by 0.5 %
    s = at.slider(key="sr_band")
    assert s.value == pytest.approx(5.25) and s.proto.format == "%.2f%%"
    assert exact_box(at, "sr_band").value == pytest.approx(5.25)


def test_the_alpha_under_the_infinity_switch_survives_the_link(core_dir):
    at = app()
    at.slider(key="sr_alpha").set_value(37.0)
    rerun(at)
    at.toggle(key="sr_alpha_inf").set_value(True)
    rerun(at)
    assert at.query_params["alpha"] == "inf" and at.query_params["alpha_finite"] == "37"

    reopened = app(query={k: at.query_params[k] for k in at.query_params})
    assert reopened.toggle(key="sr_alpha_inf").value is True
    assert reopened.slider(key="sr_alpha").value == 37.0
    # ∞ scores the worst group alone: B has 0 on ell_status=No (tests/app/helpers.py)
    assert stage_table(reopened).loc["B", "Bias-aware score"] == 0.0
    reopened.toggle(key="sr_alpha_inf").set_value(False)
    rerun(reopened)
    assert reopened.query_params["alpha"] == "37" and "alpha_finite" not in reopened.query_params
    assert reopened.session_state["_run_views"]["shovel-ready"].params["alpha"] == 37.0


def test_a_link_finite_value_beyond_the_slider_widens_it(core_dir):
    """One range per parameter (issue 39): α's range is [0, ∞), so the finite value kept under ∞
    may lie beyond the slider's 0–200 — the slider widens to hold it; a value outside the range
    (-5) is ignored."""
    at = app(query={"alpha": "inf", "alpha_finite": "1e9"})
    assert at.toggle(key="sr_alpha_inf").value is True
    assert at.slider(key="sr_alpha").value == 1e9 and at.slider(key="sr_alpha").max == 1e9
    assert any("widened to hold 1e+09" in c.value for c in at.sidebar.caption)
    at = app(query={"alpha": "inf", "alpha_finite": "-5"})
    assert at.slider(key="sr_alpha").value == SR.params["alpha"].default


# ---- a preset names every bad value (issue 23, item 6) -------------------------------------------------
def test_a_preset_with_two_bad_values_names_both():
    with pytest.raises(ValueError) as err:
        state.check(SR, {"w": 2, "alpha": -1, "colour": "red"})
    text = str(err.value)
    assert "parameter 'w'" in text and "parameter 'alpha'" in text and "unknown parameter 'colour'" in text

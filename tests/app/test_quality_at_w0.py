"""Overlap quality at w = 0 (issue 23, item 6): a matched pair earns TP_P = w·q + (1 − w)·d[E]
(SPEC), so at w = 0 the quality q cannot change any score; the sidebar says so beside it and
greys it out, instead of letting it do nothing silently."""

from __future__ import annotations

import pytest

from tests.app.helpers import SEG_B, app, plain, rerun, stage_table

HINT = "At w = 0 the overlap quality has no effect"
SEG = "Unified segment score"


def _hints(at) -> list[str]:
    return [plain(c.value) for c in at.sidebar.caption if HINT in plain(c.value)]


def test_quality_is_greyed_out_and_explained_at_w_zero(core_dir):
    at = app("pages/leaderboard.py")
    assert not at.selectbox(key="sr_quality").disabled and not _hints(at)
    assert stage_table(at).loc["B", SEG] == pytest.approx(SEG_B)  # IoU at w = 0.5: 0.9/1.45
    at.slider(key="sr_w").set_value(0.0)
    rerun(at)
    assert at.selectbox(key="sr_quality").disabled and len(_hints(at)) == 1
    # the hint is true: at w = 0, B's one pair (IoU 0.8, max 1, d = 1) earns TP_P = 1 under every
    # quality, its e2 claim is missed: TP 1, FN 1, FP 0 -> F1 = 1/(1 + ½) = 2/3 whatever q is
    for q in ("iou", "max", "binary"):
        at.session_state["sr_quality"] = q
        rerun(at)
        assert at.query_params["quality"] == q
        assert stage_table(at).loc["B", SEG] == pytest.approx(2 / 3), q
    at.slider(key="sr_w").set_value(0.5)
    rerun(at)
    assert not at.selectbox(key="sr_quality").disabled and not _hints(at)

"""The Segments page: one essay of one team, its segments and matches."""

from __future__ import annotations

import json

import pytest

from tests.app.helpers import SEGMENTS, figures, hover_texts, matches, metric, open_page


def test_segments_matches_with_memo_defaults(tiny):
    at = open_page(SEGMENTS)
    assert at.selectbox(key="seg_team").value == "Alpha"
    assert at.selectbox(key="seg_essay").value == "e1"
    m = matches(at)
    # Lead 0-4 exact, d = 0.8: 0.5 * 1 + 0.5 * 0.8 = 0.9
    # Claim 4-9 trimmed to 5-9 (word 4 is the Lead's), exact, d[Ineffective] = 0.7: 0.85
    # Evidence 11-19 vs 10-19: IoU 9/10, d = 0.6: 0.5 * 0.9 + 0.5 * 0.6 = 0.75
    assert m.loc["Lead", "Fractional TP"] == pytest.approx(0.9)
    assert m.loc["Claim", "Fractional TP"] == pytest.approx(0.85)
    assert m.loc["Evidence", "Fractional TP"] == pytest.approx(0.75)
    assert m.loc["Evidence", "o_P"] == pytest.approx(1.0)
    assert m.loc["Evidence", "o_G"] == pytest.approx(0.9)
    assert m.loc["Claim", "Effectiveness probability d[E]"] == pytest.approx(0.7)
    assert metric(at, "Trimmed by removal") == "1"
    assert metric(at, "Discarded by removal") == "0"
    before, after = figures(at)
    assert any("trimmed by overlap removal to 5–9" in h for h in hover_texts(before))
    assert any(h.startswith("Prediction row 3 · Claim<br>words 5–9") for h in hover_texts(after))
    assert any(h.startswith("Prediction row 3 · Claim<br>words 4–9") for h in hover_texts(before))
    # the essay's text is drawn (the first word of e1), not numbered boxes
    words = [t for tr in before["data"] if tr.get("mode") == "text" for t in tr["text"]]
    assert words[:3] == ["Schools", "should", "start"]


def test_segments_sidebar_controls_change_the_matches(tiny):
    at = open_page(SEGMENTS)
    at.slider(key="sr_w").set_value(1.0).run()
    m = matches(at)
    # w = 1: TP is the IoU alone
    assert list(m["Fractional TP"]) == pytest.approx([1.0, 1.0, 0.9])
    at.slider(key="sr_w").set_value(0.5).run()
    at.selectbox(key="sr_quality").set_value("max").run()
    # max-overlap: Evidence q = max(1, 0.9) = 1 -> 0.5 + 0.5 * 0.6 = 0.8
    assert matches(at).loc["Evidence", "Fractional TP"] == pytest.approx(0.8)
    at.selectbox(key="sr_quality").set_value("iou").run()
    at.toggle(key="sr_overlap_removal").set_value(False).run()
    m = matches(at)
    # without removal the Claim is 4-9 against 5-9: o_P = 5/6, IoU 5/6 -> 0.5 * 5/6 + 0.5 * 0.7
    assert m.loc["Claim", "o_P"] == pytest.approx(5 / 6)
    assert m.loc["Claim", "Fractional TP"] == pytest.approx(0.5 * 5 / 6 + 0.35)
    at.slider(key="sr_threshold").set_value(0.9).run()
    # threshold 0.9: the Claim (o_P = 0.833) is no longer a candidate
    assert "Claim" not in matches(at).index
    assert not at.exception


def test_segments_team_with_a_discarded_prediction(tiny):
    at = open_page(SEGMENTS)
    at.selectbox(key="seg_team").set_value("Beta").run()
    assert metric(at, "Discarded by removal") == "1"  # Claim 2-4 lies inside the Lead 0-5
    m = matches(at)
    # Lead 0-5 vs 0-4: o_P = 5/6, IoU 5/6, d = 1 -> 0.5 * 5/6 + 0.5 = 0.91667
    # Evidence exact, d = 0.9 -> 0.95; the Claim ground truth is left unmatched
    assert m.loc["Lead", "Fractional TP"] == pytest.approx(0.5 * 5 / 6 + 0.5)
    assert m.loc["Evidence", "Fractional TP"] == pytest.approx(0.95)
    assert "Claim" not in m.index
    assert "unmatched ground-truth segments (false negatives): 1" in " ".join(c.value for c in at.caption)
    before, after = figures(at)
    assert any("discarded by overlap removal" in h for h in hover_texts(before))
    assert not any(h.startswith("Prediction row 3") for h in hover_texts(after))


def test_segments_only_changed_essays_filter(tiny):
    at = open_page(SEGMENTS)
    assert at.selectbox(key="seg_essay").options == ["e1", "e2"]
    at.checkbox(key="seg_only_changed").check().run()
    # Alpha's predictions change only in e1 (e2 has a single prediction)
    assert at.selectbox(key="seg_essay").options == ["e1"]
    at.selectbox(key="seg_essay").set_value("e1").run()
    assert not at.exception


def test_segments_essay_without_matches_shows_an_empty_state(tiny):
    at = open_page(SEGMENTS)
    at.selectbox(key="seg_team").set_value("Beta").run()
    at.selectbox(key="seg_essay").set_value("e2").run()
    # Beta's e2 Claim 0-2 covers 3 of the 6 ground-truth words: o_G = 0.5 < 0.51, no match
    assert any("No prediction matches" in i.value for i in at.info)
    assert not any("Fractional TP" in d.value.columns for d in at.dataframe)


def test_segments_class_colours_are_distinct_hues_and_the_type_column_is_wide():
    import colorsys

    from lab.charts.colors import class_colours

    classes = ["Lead", "Position", "Claim", "Counterclaim", "Rebuttal", "Evidence", "Concluding Statement"]
    colours = class_colours(classes)
    assert len(set(colours.values())) == 7
    hues = []
    for c in colours.values():
        r, g, b = (int(c[i:i + 2], 16) / 255 for i in (1, 3, 5))
        hues.append(colorsys.rgb_to_hls(r, g, b)[0] * 360)
    lead, position = colours["Lead"], colours["Position"]
    assert lead != position
    gaps = [min(abs(a - b), 360 - abs(a - b)) for i, a in enumerate(hues) for b in hues[i + 1:]]
    assert min(gaps) >= 15  # no two types share a hue (the old Lead/Position pair did)


def test_segments_matches_table_widens_the_discourse_type(tiny):
    at = open_page(SEGMENTS)
    table = next(d for d in at.dataframe if "Fractional TP" in d.value.columns)
    config = json.loads(table.proto.columns)
    assert config["Discourse type"]["width"] == 170

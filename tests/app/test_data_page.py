"""The Data page: uploads validated as a whole, switching data, presets."""

from __future__ import annotations

import json

import pytest

from tests.app.helpers import CSV, DATA, EXAMPLES, SEGMENTS, error_report, open_page, plain, upload
from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_DEMO, TINY_GT, TINY_RUNTIMES


def test_data_good_upload_becomes_the_active_competition(tiny):
    at = open_page(DATA)
    assert at.button(key="data_sr_load").disabled  # nothing uploaded yet
    # a third team under another name, so the upload differs from the default data
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Gamma": TINY_BETA}, TINY_DEMO, TINY_RUNTIMES)
    assert "_sr_data" in at.session_state
    assert any("Loaded 5 files" in s.value and "Alpha, Gamma" in s.value for s in at.success)
    # runtimes name Beta, which this upload does not have: the load report warns about it
    assert any("Beta" in w.value for w in at.warning)
    assert any("your uploaded data" in m.value for m in at.markdown)
    # the Segments page now scores the upload: Gamma is a team, and words are numbered boxes
    at.switch_page(SEGMENTS).run()
    assert at.selectbox(key="seg_team").options == ["Alpha", "Gamma"]
    assert any("numbered boxes" in c.value for c in at.caption)
    # and back to the default data
    at.switch_page(DATA).run()
    at.button(key="data_sr_use_sample").click().run()
    assert "_sr_data" not in at.session_state


def test_data_bad_upload_names_file_and_row_and_keeps_previous_data(tiny):
    at = open_page(DATA)
    bad = TINY_ALPHA.replace("e1,Claim,4 5 6 7 8 9,0.3,0.7", "e1,Claim,4 5 6 7 8 9,1.5,0.7")
    upload(at, TINY_GT, {"Alpha": bad, "Beta": TINY_BETA})
    errors = error_report(at)
    assert list(errors["File"]) == ["Alpha.csv"]
    assert list(errors["Row"]) == ["3"]  # header = row 1; the Claim is the 2nd data row
    assert any("Nothing was loaded" in e.value for e in at.error)
    assert "bundle" not in at.session_state  # the default data stays active

    # a good upload, then a bad one: the good one stays active
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA})
    good = at.session_state["_sr_data"].digest
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Beta": "id,class\ne1,Lead\n"})
    errors = error_report(at)
    assert list(errors["File"]) == ["Beta.csv"]
    assert "predictionstring" in errors["Problem"].iloc[0]
    assert at.session_state["_sr_data"].digest == good


def test_preset_round_trip_and_bad_presets(tiny):
    at = open_page(DATA)
    shown = json.loads(at.code[0].value)
    assert shown["w"] == 0.5 and shown["quality"] == "iou" and shown["alpha"] == 50
    preset = {"w": 0.3, "quality": "max", "alpha": "inf", "band": 0.1}
    at.file_uploader(key="data_sr_preset_file").set_value(("p.json", json.dumps(preset).encode(), "application/json"))
    at.run()
    assert not at.exception
    assert at.session_state["sr_w"] == pytest.approx(0.3)
    assert at.session_state["sr_quality"] == "max"
    assert at.session_state["sr_alpha_inf"] is True
    assert any("Applied the parameters from p.json" in plain(s.value) for s in at.success)
    shown = json.loads(at.code[0].value)
    assert shown["w"] == pytest.approx(0.3) and shown["alpha"] == "inf" and shown["band"] == pytest.approx(0.1)

    for content, expected in (
        (b"{w: 1", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (json.dumps({"w": 2}).encode(), "'w'"),
        (json.dumps({"speed": 1}).encode(), "'speed'"),
    ):
        at.file_uploader(key="data_sr_preset_file").set_value(("bad.json", content, "application/json"))
        at.run()
        assert not at.exception
        assert any(expected in e.value for e in at.error), (content, [e.value for e in at.error])
        assert at.session_state["sr_w"] == pytest.approx(0.3)  # the bad preset changed nothing


@pytest.mark.parametrize("page", [SEGMENTS, EXAMPLES, DATA])
def test_pages_run_on_the_sample(sample, page):
    at = open_page(page)
    assert not at.error, [e.value for e in at.error]
    if page == SEGMENTS:
        # the sample has essay text: words are drawn, not numbered boxes
        assert not any("numbered boxes" in c.value for c in at.caption)
        assert len(at.get("plotly_chart")) == 2
        teams = at.selectbox(key="seg_team").options
        assert len(teams) >= 2
        at.selectbox(key="seg_team").set_value(teams[-1]).run()
        assert not at.exception
        import sample_data

        profile = sample_data.team_profiles()[teams[-1]]
        assert any(plain(c.value) == f"**{teams[-1]}** — {profile}" for c in at.caption)
    if page == DATA:
        assert any("sample data" in m.value for m in at.markdown)


def test_data_duplicate_submission_names_name_the_file(tiny):
    at = open_page(DATA)
    # two files whose names give the same submission name (the suffix in another case): the engine
    # names the second file
    at.file_uploader(key="data_sr_ground_truth").set_value(("truth.csv", TINY_GT.encode(), CSV))
    at.file_uploader(key="data_sr_submissions").set_value(
        [("Alpha.csv", TINY_ALPHA.encode(), CSV), ("Alpha.CSV", TINY_BETA.encode(), CSV)]
    )
    at.run()
    at.button(key="data_sr_load").click().run()
    assert not at.exception, [e.value for e in at.exception]
    errors = error_report(at)
    assert list(errors["File"]) == ["Alpha.CSV"]
    assert "duplicate submission name 'Alpha'" in errors["Problem"].iloc[0]
    assert "_sr_data" not in at.session_state


def test_data_round_trip_keeps_or_restores_the_attributes(tiny):
    at = open_page(DATA)
    assert at.multiselect(key="sr_attributes").value == ["ell_status"]
    at.multiselect(key="sr_attributes").set_value(["ell_status", "gender"]).run()
    # an upload with only the gender column: the chosen attribute it has is kept
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Gamma": TINY_BETA}, "id,gender\ne1,F\ne2,M\n")
    assert at.multiselect(key="sr_attributes").value == ["gender"]
    # an upload without demographics: no attribute can remain
    at.file_uploader(key="data_sr_demographics").set_value(None)
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Delta": TINY_BETA})
    assert "_sr_data" in at.session_state
    assert not at.get("multiselect") or at.multiselect(key="sr_attributes").value == []
    # back to the sample data: none of the chosen ones remain, so its default comes back
    at.button(key="data_sr_use_sample").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key="sr_attributes").value == ["ell_status"]
    assert at.query_params["attributes"] == "ell_status"


def test_data_errors_are_wrapped_text_with_file_row_and_problem(tiny):
    at = open_page(DATA)
    bad = TINY_ALPHA.replace("e1,Claim,4 5 6 7 8 9,0.3,0.7", "e1,Claim,4 5 6 7 8 9,1.5,0.7")
    upload(at, TINY_GT, {"Alpha_*v2*": bad})
    assert not any("File" in d.value.columns for d in at.dataframe)  # no narrow table column
    shown = [e.value for e in at.error if e.value.startswith("**File:**")]
    assert len(shown) == 1 and "  \n**Row:** 3  \n**Column:** Effective  \n**Problem:** " in shown[0]
    assert [c.value for c in at.code if c.value == "1.5"]  # the whole offending value, as text
    assert r"Alpha\_\*v2\*\.csv" in shown[0]                       # markdown shown literally
    errors = error_report(at)
    assert list(errors["File"]) == ["Alpha_*v2*.csv"] and "1.5" in errors["Problem"].iloc[0]

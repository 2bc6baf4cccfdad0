"""A QA weights file whose weights sit near the largest float (issue 31: the app silently
scored every weight as 0 and refused the data): the sliders start at the weights' shares,
computed exactly, and the page says what the file's weights add up to in words."""

from __future__ import annotations

import shutil
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, TIMEOUT, plain

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "qa"
THEMES = ("astronomy", "cooking", "lighthouses", "music", "rivers")


def test_weights_near_the_largest_float_start_the_sliders_at_their_shares(tmp_path, monkeypatch):
    folder = tmp_path / "qa"
    shutil.copytree(SAMPLE, folder)
    # 1e308 for three themes, 0.5e308 for two: shares 1/4, 1/4, 1/4, 1/8, 1/8 (sum 4e308 overflows)
    big = {"astronomy": "1e308", "cooking": "1e308", "lighthouses": "1e308", "music": "0.5e308", "rivers": "0.5e308"}
    (folder / "theme_weights.csv").write_text("theme,weight\n" + "".join(f"{t},{w}\n" for t, w in big.items()))
    monkeypatch.setenv("LAB_DATA_DIR_QA", str(folder))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"family": "qa"})
    at.run()
    at.switch_page("pages/qa_leaderboard.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    shares = {t: at.slider(key=f"qa_weights.{t}").value for t in THEMES}
    assert shares == {"astronomy": 0.25, "cooking": 0.25, "lighthouses": 0.25, "music": 0.125, "rivers": 0.125}
    notes = " ".join(plain(i.value) for i in at.info)
    assert "add up to more than 1.8e+308" in notes, notes

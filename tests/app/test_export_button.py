"""*Export the metric* on a leaderboard page writes this view's metric: the parameters the
sidebar holds after a move, the platform the popover names, the page's own address; the zip is
the export's (``scoring.export``), built from what the page handed the button."""

from __future__ import annotations

import io
import re
import zipfile

from streamlit.testing.v1 import AppTest

from lab.view import export_button
from tests.app.helpers import APP, TIMEOUT


def test_the_export_button_writes_the_views_parameters_for_the_chosen_platform(monkeypatch):
    made = []
    real = export_button.builder

    def spy(fam, page, target, params):  # what the page hands the button; the download is built from it on a click
        build = real(fam, page, target, params)
        made.append((fam.name, page, target, dict(params), build))
        return build

    monkeypatch.setattr(export_button, "builder", spy)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"family": "qa"})
    at.switch_page("pages/qa_leaderboard.py").run()
    at.slider(key="qa_time_threshold").set_value(300.0).run()
    assert not at.exception, [str(e.value)[:300] for e in at.exception]
    name, page, target, params, _ = made[-1]
    assert (name, page, target, params["time_threshold"]) == ("qa", "qa_leaderboard", "codabench", 300.0)
    at.radio(key="qa_lb_export_target").set_value("python").run()
    assert not at.exception, [str(e.value)[:300] for e in at.exception]
    name, page, target, params, build = made[-1]
    assert target == "python" and params["time_threshold"] == 300.0
    with zipfile.ZipFile(io.BytesIO(build())) as z:  # the click: the files written now
        names = z.namelist()
        texts = {n: z.read(n).decode("utf-8", "replace") for n in names if n.endswith((".py", ".json"))}
    assert not any("lab/" in n or "streamlit" in n for n in names), names
    said = " ".join(texts.values())
    written = re.findall(r'"time_threshold":\s*([0-9.eE+-]+)', said)
    assert written and all(float(x) == 300.0 for x in written), written  # the moved value, and no other
    assert "/qa_leaderboard" in said  # the view's link, from the page's registered address

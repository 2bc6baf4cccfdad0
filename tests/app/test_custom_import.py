"""The Data page's guided import (issue 36) in AppTest: a published table uploaded as it is
(``.tsv``), what was understood shown with its controls, a role and a direction changed in the
table, the recipe written and loaded with the files (so the link and the command line read the
table the same way), a refusal that names its reason, and problems of one kind told once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lab.families import custom_import
from scoring.custom import Scorer, load_competition
from tests.app.helpers import APP, TIMEOUT, rerun
from tests.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]
MTEB = ROOT / "tests" / "data" / "leaderboards" / "mteb.tsv"
VTAB = ROOT / "tests" / "data" / "leaderboards" / "vtab.tsv"
K = "data_cu"


@pytest.fixture(autouse=True)
def sample(monkeypatch, tmp_path):
    monkeypatch.delenv("LAB_DATA_DIR_CUSTOM", raising=False)
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))


def data_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"family": "custom"})
    at.run()
    at.switch_page("pages/data.py")
    return rerun(at)


def upload(at: AppTest, name: str, data: bytes, role: str = "results") -> AppTest:
    at.file_uploader(key=f"{K}_{role}").set_value((name, data, "text/tab-separated-values"))
    return rerun(at)


def roles_frame(at: AppTest):
    for e in at.dataframe:
        df = e.value
        if "Role" in df.columns and "Why" in df.columns:
            return df
    raise AssertionError("no roles table on the page")


def words(at: AppTest) -> str:
    return " ".join([m.value for m in at.markdown] + [w.value for w in at.warning] + [i.value for i in at.info]
                    + [e.value for e in at.error] + [s.value for s in at.success]).replace("\\", "")


def test_a_tsv_is_taken_and_what_was_read_is_shown():
    at = upload(data_page(), "mteb.tsv", MTEB.read_bytes())
    said = words(at)
    assert "Guided import" in " ".join(h.value for h in at.subheader)
    assert "83 rows, team column **Model**" in said.replace("\\", "")
    df = roles_frame(at)
    role = dict(zip(df["Column"], df["Role"], strict=True))
    assert role["Rank"] == "published rank" and role["Average (56 datasets)"] == "published aggregate"
    assert role["Max Tokens"] == "metadata (left out)" and role["-"] == "no value (left out)"
    assert role["Classification Average (12 datasets)"] == "unit (scored)"
    assert "guesses to check" in said  # asked, not silently scored
    assert "a weighted mean of 7 column(s)" in said  # the published aggregate's make-up
    assert at.checkbox(key=gi(MTEB.read_bytes(), "drop")).value is True
    # the recipe it writes names every column in its role
    code = [c.proto.code_text for c in at.get("code") if '"unit_columns"' in c.proto.code_text][0]
    doc = json.loads(code)
    assert doc["inputs"]["results"]["rank_columns"] == ["Rank"]
    assert "Max Tokens" in doc["inputs"]["results"]["metadata_columns"]
    assert doc["inputs"]["results"]["drop_empty"] is True


def gi(data: bytes, what: str) -> str:
    """The guided import's widget key for a results file of these bytes (no recipe)."""
    d = custom_import._digest(data, b"")
    if what == "roles":
        from scoring.custom.guided import propose
        p = propose(data, "f.tsv")
        return custom_import._key(K, f"{d}_roles_{custom_import._shape(p)}")
    return custom_import._key(K, f"{d}_{what}")


def test_a_changed_role_and_direction_are_loaded_and_the_cli_reproduces_them(tmp_path):
    at = upload(data_page(), "mteb.tsv", MTEB.read_bytes())
    key = gi(MTEB.read_bytes(), "roles")
    df = roles_frame(at)
    row = {c: i for i, c in enumerate(df["Column"])}
    # "Embedding Dimensions" scored after all, and the STS average read as lower-is-better (on purpose)
    at.session_state[key] = {"edited_rows": {row["Embedding Dimensions"]: {"Role": "unit (scored)"},
                                             row["STS Average (10 datasets)"]: {"Lower is better": True}},
                             "added_rows": [], "deleted_rows": []}
    at = rerun(at)
    code = [c.proto.code_text for c in at.get("code") if '"unit_columns"' in c.proto.code_text][0]
    doc = json.loads(code)
    assert "Embedding Dimensions" in doc["inputs"]["results"]["unit_columns"]
    assert doc["inputs"]["results"]["lower_is_better"] == ["STS Average (10 datasets)"]
    at.button(key=f"{K}_load").click().run()
    assert not at.exception, at.exception
    assert at.session_state[f"{K}_result"]["status"] == "ok", at.session_state[f"{K}_result"]
    # the page scores the table as shown: 8 units, the STS average reversed
    rec = tmp_path / "recipe.json"
    rec.write_text(code)
    comp = load_competition(results=MTEB, recipe=rec)
    assert len(comp.results.units) == 8 and comp.sign[comp.results.units.index("STS Average (10 datasets)")] == -1
    # the command line with the downloaded recipe gives the same leaderboard
    lb = Scorer(comp).leaderboard()
    out = run_cli("custom", "leaderboard", "--results", str(MTEB), "--recipe", str(rec), "--format", "json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["leaderboard"]
    assert [r["submission"] for r in rows] == lb["submission"].tolist()


def test_a_row_longer_than_its_header_is_read_by_the_default():
    at = upload(data_page(), "vtab.txt", VTAB.read_bytes())
    extra = gi(VTAB.read_bytes(), "extra")
    assert at.selectbox(key=extra).value == "first"
    at.button(key=f"{K}_load").click().run()
    assert at.session_state[f"{K}_result"]["status"] == "ok", at.session_state[f"{K}_result"]


def test_a_refused_file_type_names_the_reason():
    at = upload(data_page(), "results.xlsx", b"PK\x03\x04 not a table")
    at.button(key=f"{K}_load").click().run()
    said = " ".join(e.value for e in at.error).replace("\\", "")
    assert "results.xlsx" in said and ".csv, .tsv or .txt" in said and ".xlsx" in said


def test_problems_of_one_kind_are_told_once_with_their_count_and_rows():
    bad = "Model\tA\tB\n" + "".join(f"m{i}\t0.{i}\t{'oops' if i % 3 == 0 else '0.5'}\n" for i in range(30))
    at = upload(data_page(), "bad.tsv", bad.encode())
    marks = gi(bad.encode(), "marks")
    at.multiselect(key=marks).set_value(["", "-"])  # 'N/A?' is no usual mark: an error per row
    at = rerun(at)
    at.button(key=f"{K}_load").click().run()
    errors = [e.value.replace("\\", "") for e in at.error]
    kinds = [e for e in errors if "Problem:" in e]
    assert len(kinds) == 1, errors
    assert "problems of this kind" in kinds[0] and "rows in all" in kinds[0]


def test_the_custom_sidebar_leads_with_the_across_rule_and_hides_what_does_not_apply():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"family": "custom"})
    at.run()
    at.switch_page("pages/custom_leaderboard.py")
    at = rerun(at)
    boxes = [s.key for s in at.sidebar.selectbox]
    assert boxes[0] == "cu_across", boxes
    assert "cu_alpha" not in [s.key for s in at.sidebar.slider]  # softmin's α: not the mean win rate's
    assert not [s for s in at.sidebar.slider if str(s.key).startswith("cu_weights.")]
    at.selectbox(key="cu_across").set_value("weighted").run()
    assert not at.exception
    assert not [s for s in at.sidebar.slider if str(s.key).startswith("cu_weights.")]  # folded, closed
    at.session_state["cu_weights__open"] = True
    at = rerun(at)
    weights = [s.key for s in at.sidebar.slider if str(s.key).startswith("cu_weights.")]
    assert len(weights) == 10  # the 10 units, not the units table's groups too


def recipe_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"family": "custom"})
    at.run()
    at.switch_page("pages/custom_recipe.py")
    return rerun(at)


def test_the_recipe_page_applies_the_source_whose_button_was_pressed():
    at = recipe_page()
    at.file_uploader(key="cu_recipe_file").set_value(("r.json", b'{"stages": {"across": "borda"}}', "application/json"))
    at.text_area(key="cu_recipe_text").set_value('{"stages": {"across": "copeland"}}')
    at = rerun(at)
    at.button(key="cu_recipe_apply").click().run()
    assert at.selectbox(key="cu_across").value == "copeland"  # the pasted text, though a file is loaded
    at.button(key="cu_recipe_apply_file").click().run()
    assert at.selectbox(key="cu_across").value == "borda"
    at.button(key="cu_recipe_ship_helm-classic").click().run()  # a shipped recipe's stages
    assert at.selectbox(key="cu_across").value == "softmin" and at.slider(key="cu_alpha").value == 10


def test_a_recipe_with_reading_options_reads_the_data_shown_again():
    at = recipe_page()
    doc = {"inputs": {"results": {"team_column": "Model", "lower_is_better": ["MMLU - EM"]}},
           "stages": {"across": "mean"}}
    at.text_area(key="cu_recipe_text").set_value(json.dumps(doc))
    at.button(key="cu_recipe_apply").click().run()
    assert not at.exception, at.exception
    assert any("stages are in the sidebar" in s.value for s in at.success), [e.value for e in at.error]
    at = rerun(at)
    code = at.get("code")[0].proto.code_text
    assert '"lower_is_better": [\n        "MMLU - EM"' in code and '"across": "mean"' in code
    assert "data=cu-" in "&".join(f"{k}={v}" for k, v in at.query_params.items())  # the upload is in the link


def test_a_published_rank_is_ranked_as_a_rank_beside_the_leaderboard():
    from lab.families.custom import published_comparison
    from scoring.custom.guided import propose

    p = propose(MTEB.read_bytes(), "mteb.tsv")
    comp = load_competition(results=MTEB, recipe={"inputs": {"results": {
        k: list(v) if isinstance(v, tuple) else v for k, v in vars(p.options()).items()}}})
    lb = Scorer(comp).leaderboard()
    pub = published_comparison(lb)
    # each published column's rank first (in view at 1024 pixels), then the values; a rank ranked 1 = best
    shown = [c for c in pub.columns if c.startswith("Published")]
    assert sorted(shown[:2]) == ["Published Average (56 datasets) · rank", "Published Rank · rank"], shown
    assert sorted(shown[2:]) == ["Published Average (56 datasets)", "Published Rank"], shown
    ranks = pub["Published Rank"].to_numpy()
    assert (pub["Published Rank · rank"].to_numpy() == ranks.argsort().argsort() + 1).all()  # ranks 1..83, no ties

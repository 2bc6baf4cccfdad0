"""Data: upload a competition (validated as a whole), switch back to the sample, parameter presets."""

from __future__ import annotations

import json
import os
import re

import streamlit as st

import scoring
import ui

ui.page_header(
    "Data",
    "Score your own competition: upload the ground truth, any number of submissions and, "
    "optionally, the writers' demographics and the submissions' runtimes. The files are checked "
    "together; if anything is wrong you get the file, the row and the problem, and the data "
    "you had before stays active — nothing is half-loaded. Parameter presets let you save "
    "and share a set of sidebar settings.",
)


# --------------------------------------------------------------------------------------------
# Callbacks (run before the script, so they may change the sidebar's state)
# --------------------------------------------------------------------------------------------
def _md(text: object) -> str:
    """``text`` shown literally inside markdown (file names and messages may hold * _ $ …)."""
    return re.sub(r"([\\`*_{}\[\]()<>#+\-.!|~$:])", r"\\\1", str(text))


def _file_tuple(uploaded) -> tuple[str, bytes]:
    return (uploaded.name, uploaded.getvalue())


def _bundle_from_uploads() -> dict:
    gt = st.session_state.get("data_gt")
    subs = st.session_state.get("data_subs") or []
    demo = st.session_state.get("data_demo")
    rt = st.session_state.get("data_rt")
    return {
        "ground_truth": _file_tuple(gt) if gt is not None else None,
        "submissions": [_file_tuple(f) for f in subs],
        "demographics": _file_tuple(demo) if demo is not None else None,
        "runtimes": _file_tuple(rt) if rt is not None else None,
    }


def _load_uploads() -> None:
    """Validate the uploaded files as one bundle; switch to it only when all of it loads."""
    bundle = _bundle_from_uploads()
    if bundle["ground_truth"] is None or not bundle["submissions"]:
        st.session_state["data_result"] = {
            "status": "error",
            "errors": [{"File": "—", "Row": "—", "Problem": "upload a ground truth and at least one submission"}],
        }
        return
    try:
        comp = ui.use_bundle(bundle)  # hashes the upload once; the session keeps the digest
    except scoring.InputError as err:
        st.session_state["data_result"] = {
            "status": "error",
            "errors": [{"File": err.file, "Row": "—" if err.row is None else str(err.row), "Problem": err.problem}],
        }
        return
    except ValueError as err:  # e.g. a file that is not text at all
        st.session_state["data_result"] = {
            "status": "error",
            "errors": [{"File": "—", "Row": "—", "Problem": str(err)}],
        }
        return
    st.session_state["data_result"] = {
        "status": "ok",
        "files": [name for name, _ in [bundle["ground_truth"], *bundle["submissions"]]]
        + [v[0] for v in (bundle["demographics"], bundle["runtimes"]) if v is not None],
        "essays": len(comp.essays),
        "submissions": list(comp.submission_names),
        "attributes": list(comp.attributes),
        "runtimes": len(comp.runtimes),
        "report": list(comp.report),
    }


def _use_sample() -> None:
    ui.use_sample()
    st.session_state["data_result"] = {"status": "sample"}


def apply_preset_text(text: str, source: str) -> None:
    """Parse a preset (JSON object) and apply it; store a message for the page either way."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        st.session_state["data_preset_result"] = ("error", f"{source} is not valid JSON: {err}")
        return
    if not isinstance(data, dict):
        st.session_state["data_preset_result"] = (
            "error",
            f"{source} must hold a JSON object of parameters (like the downloaded preset), "
            f"not a {type(data).__name__}",
        )
        return
    try:
        ui.apply_params(data)
    except (ValueError, ui.InvalidDataDir) as err:
        st.session_state["data_preset_result"] = ("error", f"{source}: {err}")
        return
    st.session_state["data_preset_result"] = ("ok", f"Applied the parameters from {source}.")


def _apply_preset_upload() -> None:
    uploaded = st.session_state.get("data_preset_file")
    if uploaded is None:
        return
    try:
        text = uploaded.getvalue().decode("utf-8-sig")
    except UnicodeDecodeError:
        st.session_state["data_preset_result"] = ("error", f"{uploaded.name} is not a UTF-8 text file")
        return
    apply_preset_text(text, uploaded.name)


# --------------------------------------------------------------------------------------------
# Active data
# --------------------------------------------------------------------------------------------
is_sample = ui.using_sample()
st.subheader("Active data")
try:
    comp = ui.current_competition()
except (ui.InvalidDataDir, scoring.InputError) as err:
    comp = None
    st.warning(f"No competition is active: the default data could not be loaded ({err}). Upload your own below.")
if comp is not None:
    if not is_sample:
        source = "your uploaded competition"
    elif os.environ.get("LAB_DATA_DIR"):
        source = f"the competition in {ui.data_dir()}"
    else:
        source = "the sample competition"
    n_attr, n_rt = len(comp.attributes), len(comp.runtimes)
    st.markdown(
        f"Scoring **{source}**: {len(comp.essays)} essays, {len(comp.submission_names)} submissions, "
        f"{n_attr} demographic attribute{'s' if n_attr != 1 else ''}"
        f"{' (' + ', '.join(comp.attributes) + ')' if comp.attributes else ''}, "
        f"runtimes for {n_rt} submission{'s' if n_rt != 1 else ''}."
    )
st.button(
    "Use the sample competition",
    key="data_use_sample",
    on_click=_use_sample,
    disabled=is_sample,
    help="Switch every page back to the bundled sample data.",
)

# --------------------------------------------------------------------------------------------
# Upload
# --------------------------------------------------------------------------------------------
st.subheader("Upload a competition")
with st.expander("What the files must look like"):
    st.markdown(
        "- **Ground truth** — columns `id` (essay), `discourse_type`, `predictionstring` "
        "(space-separated word indices), `discourse_effectiveness` (a label such as `Effective`).\n"
        "- **Submissions** — one CSV per submission, named after the submission: `id`, `class`, "
        "`predictionstring`, and one probability column per effectiveness label, named exactly as "
        "the label (each row's probabilities sum to 1).\n"
        "- **Demographics** (optional) — `id` plus any categorical columns (e.g. `ell_status`).\n"
        "- **Runtimes** (optional) — `submission`, `runtime` (seconds, > 0). A submission without "
        "a runtime is never eligible for the efficiency boost."
    )
left, right = st.columns(2)
with left:
    st.file_uploader("Ground truth", type=["csv"], key="data_gt")
    st.file_uploader(
        "Submissions (one CSV each; the file name is the submission's name)",
        type=["csv"],
        accept_multiple_files=True,
        key="data_subs",
    )
with right:
    st.file_uploader("Demographics (optional)", type=["csv"], key="data_demo")
    st.file_uploader("Runtimes (optional)", type=["csv"], key="data_rt")
ready = st.session_state.get("data_gt") is not None and bool(st.session_state.get("data_subs"))
st.button(
    "Check and load these files",
    key="data_load",
    type="primary",
    on_click=_load_uploads,
    disabled=not ready,
    help="Validates all files together; switches to them only if all of them load.",
)
if not ready:
    st.caption("Add a ground truth and at least one submission to load your own competition.")

result = st.session_state.get("data_result")
if result is not None:
    st.subheader("Validation report")
    if result["status"] == "error":
        st.error("Nothing was loaded — the data you had before is still active. Fix this and load again:")
        for problem in result["errors"]:  # wrapped text, never a cut-off table cell
            st.error(
                f"**File:** {_md(problem['File'])}  \n**Row:** {_md(problem['Row'])}  \n"
                f"**Problem:** {_md(problem['Problem'])}",
                icon=":material/error:",
            )
    elif result["status"] == "ok":
        st.success(
            f"Loaded {len(result['files'])} files: {result['essays']} essays, "
            f"{len(result['submissions'])} submissions ({', '.join(result['submissions'])}). "
            "Every page now scores this competition."
        )
        if result["report"]:
            st.warning(
                "The files loaded, with these warnings:\n\n" + "\n".join(f"- {line}" for line in result["report"])
            )
        else:
            st.caption("No warnings: every row was used.")
    elif result["status"] == "sample":
        st.success("Switched back to the sample competition.")

# --------------------------------------------------------------------------------------------
# Parameter presets
# --------------------------------------------------------------------------------------------
st.subheader("Parameter presets")
st.markdown(
    "Save the sidebar's current parameters as a JSON file, or load one to restore them. "
    "(The page's address holds the same parameters, so a link works too.)"
)
preset = ui.current_param_values()
c1, c2 = st.columns(2)
with c1:
    st.download_button(
        "Download the current parameters (JSON)",
        data=json.dumps(preset, indent=2),
        file_name="leaderboard-lab-preset.json",
        mime="application/json",
        key="data_preset_download",
    )
    st.json(preset, expanded=False)
with c2:
    st.file_uploader(
        "Load a preset (JSON)", type=["json"], key="data_preset_file", on_change=_apply_preset_upload
    )
preset_result = st.session_state.get("data_preset_result")
if preset_result is not None:
    kind, message = preset_result
    (st.success if kind == "ok" else st.error)(message)

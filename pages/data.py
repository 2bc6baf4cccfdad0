"""Data: upload a competition of any family (validated as a whole), switch back to the
sample, and save or load parameter presets."""

from __future__ import annotations

import json
import time

import streamlit as st

import scoring
from lab import families
from lab.data import store, uploads
from lab.view import current, links, nav, state
from lab.words import problems
from lab.words.text import md
from scoring import registry
from scoring.claims import validation
from scoring.core import limits
from scoring.core.jsonsafe import loads_bounded
from scoring.core.validate import MAX_ERRORS, check_inputs

nav.ensure_app_entry()
st.title("Data")
st.markdown(
    "Score your own competition: pick its metric family, upload its files, and every page of "
    "that family scores them. The files are checked together; if anything is wrong you get the "
    "file, the row and the problem, and the data you had before stays active — nothing is "
    "half-loaded. Your upload is kept on this server under its content hash, so a reload finds it "
    "again — and so does anyone with a link that holds it: below, a link without it, and a button that "
    "deletes it. Parameter presets save and restore a set of sidebar settings."
)

fams = [f for f in registry.families() if families.ui(f).pages]
fam = nav.current_family_for_data(fams)
picked = st.selectbox("Metric family", [f.name for f in fams], index=[f.name for f in fams].index(fam.name),
                      format_func=lambda n: registry.get(n).title, key="data_family",
                      help="Which kind of competition to upload or to see; the sidebar follows.")
if picked != fam.name:
    nav.choose_family(picked)
    st.rerun()
fui = families.ui(fam)
fui.sidebar_extra()  # the family's dataset choice (difficulty, custom): shown here too, and kept in the link
K = f"data_{fam.key}"
current.notices(fam)


def _upload_cap() -> int:
    return int(st.get_option("server.maxUploadSize")) << 20


#: what browsers make of a quote mark in a file name they upload (the HTML standard's form
#: encoding): read back, so that a team keeps the name its file was given
QUOTE_SENT = "%22"


def _file_name(name: str, renamed: list[str]) -> str:
    """The name a file was given: as the browser sent it, with ``%22`` read back as ``"``
    (noted in ``renamed``, for the page to say so)."""
    if QUOTE_SENT in name:
        renamed.append(name)
        return name.replace(QUOTE_SENT, '"')
    return name


def _uploaded_bundle(renamed: list[str] | None = None) -> dict:
    renamed = [] if renamed is None else renamed
    bundle: dict = {}
    for inp in (*fam.inputs, *fui.extra_inputs):
        got = st.session_state.get(f"{K}_{inp.role}")
        if inp.many:
            bundle[inp.role] = [(_file_name(f.name, renamed), f.getvalue()) for f in got or []]
        elif got is not None:
            bundle[inp.role] = (_file_name(got.name, renamed), got.getvalue())
    return bundle


def _wrong_types(bundle: dict) -> list[dict]:
    """A file whose name's ending the input does not take, named with the endings it takes
    (the upload box takes any file, so that the reason is said here rather than hidden)."""
    out = []
    for inp in (*fam.inputs, *fui.extra_inputs):
        item = bundle.get(inp.role)
        for name, _ in (item if isinstance(item, list) else [item] if item else []):
            end = name.rsplit(".", 1)[-1].lower() if "." in name else ""
            if end not in inp.accepts:
                out.append({"File": name, "Row": "—", "Problem": (
                    f"the {inp.label.lower()} must be a {_endings(inp)} file, got "
                    f"{'.' + end if end else 'a name without an ending'}")})
    return out


def _endings(inp) -> str:
    ends = [f".{e}" for e in inp.accepts]
    return ends[0] if len(ends) == 1 else ", ".join(ends[:-1]) + " or " + ends[-1]


def _load_uploads() -> None:
    """Validate the uploaded files as one bundle; switch to them only when all of them load."""
    renamed: list[str] = []
    bundle = _uploaded_bundle(renamed)
    missing = [i.label for i in fam.inputs if i.required and not bundle.get(i.role)]
    if missing:
        st.session_state[f"{K}_result"] = {"status": "error", "errors": [
            {"File": "—", "Row": "—", "Problem": f"upload the {', '.join(missing).lower()} first"}]}
        return
    wrong = _wrong_types(bundle)
    if wrong:
        st.session_state[f"{K}_result"] = {"status": "error", "errors": wrong}
        return
    try:
        bundle = dict(fui.import_bundle(K, bundle))  # the guided import's choices (the recipe it writes)
    except ValueError as err:
        st.session_state[f"{K}_result"] = {"status": "error", "errors": [
            {"File": "—", "Row": "—", "Problem": f"the guided import's choices cannot be read: {err}"}]}
        return
    files = [f for item in bundle.values() for f in (item if isinstance(item, list) else [item] if item else [])]
    total = sum(len(data) for _, data in files)
    if len(files) > limits.MAX_BUNDLE_FILES or total > limits.MAX_BUNDLE_BYTES:
        st.session_state[f"{K}_result"] = {"status": "error", "errors": [{"File": "—", "Row": "—", "Problem": (
            f"the upload holds {len(files):,} files, {limits.human(total)}: over the limit of "
            f"{limits.MAX_BUNDLE_FILES:,} files and {limits.human(limits.MAX_BUNDLE_BYTES)} per upload")}]}
        return
    try:
        entry = store.use_bundle(fam, bundle)
    except scoring.InputError as err:
        sources = store.engine_sources(fam, bundle)
        try:
            found, more = store.with_progress("every file, to report all the problems at once",
                                              lambda progress: check_inputs(fam, progress=progress, **sources),
                                              verb="Checking")
        except store.LoadCancelled:
            return
        st.session_state[f"{K}_result"] = {"status": "error", "more": more,
                                           "errors": [_problem(e) for e in (found or [err])]}
        return
    except store.LoadCancelled:
        return
    except Exception as err:  # a bug, not bad input: say so, never show its internals as the user's problem
        st.session_state[f"{K}_result"] = {"status": "error", "errors": [{"File": "—", "Row": "—", "Problem": (
            f"the files could not be loaded because of an internal error ({type(err).__name__}); nothing was "
            "changed. Please report it with the files.")}]}
        return
    names = [n for item in bundle.values() for n, _ in (item if isinstance(item, list) else [item] if item else [])]
    st.session_state[f"{K}_result"] = {"status": "ok", "files": names, "describe": fui.describe(entry.comp),
                                       "submissions": list(entry.comp.submission_names),
                                       "report": list(getattr(entry.comp, "report", [])), "renamed": renamed}


def _problem(e: scoring.InputError) -> dict:
    return {"File": e.file, "Row": "—" if e.row is None else str(e.row), "Problem": e.problem,
            "Column": getattr(e, "column", None), "Value": getattr(e, "value", None),
            "Stopped": bool(getattr(e, "stopped", False))}


def _show_problem(problem: dict) -> None:
    """One problem, wrapped (never a cut-off table cell): file, row, column, problem, then the
    whole offending value as plain text."""
    column = f"  \n**Column:** {md(problem['Column'])}" if problem.get("Column") else ""
    st.error(f"**File:** {md(problem['File'])}  \n**Row:** {md(problem['Row'])}{column}  \n"
             f"**Problem:** {md(problems.count_line(problem))}{md(problem['Problem'])}", icon=":material/error:")
    value = problem.get("Value")
    if value:
        shown = value if len(value) <= VALUE_CHARS else value[:VALUE_CHARS] + f" … ({len(value):,} characters in all)"
        st.caption("The whole offending value:")
        st.code(shown, language=None, wrap_lines=True)


VALUE_CHARS = 20_000


def _use_default() -> None:
    store.use_default(fam)
    st.session_state[f"{K}_result"] = {"status": "sample"}


def _delete_upload() -> None:
    if store.delete_upload(fam):
        st.session_state[f"{K}_result"] = {"status": "deleted"}


def _share_and_delete() -> None:
    """The two links to this page — without the upload (the one to share) and with it (a key
    to the files, said so beside it) — and the button that deletes the upload."""
    shared = store.upload_link(fam)
    if shared is None:
        return
    _, until = shared
    st.subheader("Links, and deleting your upload")
    st.markdown("**Link without your data** — this page and these settings, on the sample data: safe to share.")
    try:
        sample = fam.context(store.default_entry(fam).comp)
    except (store.InvalidDataDir, scoring.InputError):
        sample = None
    st.code(links.address(query=state.shareable(fam, sample)) if sample is not None else links.address(without=("data",)),
            language=None, wrap_lines=True)
    st.markdown("**Link with your data** — the same, holding the key to your uploaded files.")
    days = f"{uploads.max_age_seconds() / 86400:g}"
    kept = (f"{days} days after the last time anyone opens it (today: until "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(until))}), also after the server restarts"
            if until is not None else "while this server keeps them in memory (they could not be kept on its "
            "disk, so not after a restart)")
    st.warning(f"**Anyone who has this link can open your uploaded files** on this server, with no sign-in: "
               f"{kept}, or until you delete them. Your browser's address bar holds the same key while your "
               "upload is shown.", icon=":material/key:")
    st.code(links.address(), language=None, wrap_lines=True)
    st.button("Delete my upload from this server", key=f"{K}_delete", on_click=_delete_upload,
              icon=":material/delete:",
              help="Removes your files from this server's disk and memory now: every link that holds them then "
                   "says the data was deleted, and this page shows the sample again. Files are kept once per "
                   "content: if someone else uploaded the very same files, their copy goes too.")


def _apply_preset_upload() -> None:
    uploaded = st.session_state.get(f"{K}_preset_file")
    if uploaded is None:
        return
    try:  # bounded nesting and number length: a hostile preset is a message, not a RecursionError
        data = loads_bounded(uploaded.getvalue(), what=uploaded.name)
    except scoring.InputError as err:
        st.session_state[f"{K}_preset_result"] = ("error", str(err))
        return
    if not isinstance(data, dict):
        st.session_state[f"{K}_preset_result"] = ("error", f"{uploaded.name} must hold a JSON object of parameters "
                                                           f"(like the downloaded preset), not a {type(data).__name__}")
        return
    try:
        state.apply(fam, data, fam.context(current.competition(fam)))
    except (ValueError, store.InvalidDataDir) as err:
        st.session_state[f"{K}_preset_result"] = ("error", f"{uploaded.name}: {err}")
        return
    st.session_state[f"{K}_preset_result"] = ("ok", f"Applied the parameters from {uploaded.name}.")


# ---- active data ----------------------------------------------------------------------------
st.subheader("Active data")
try:
    entry = current.entry(fam)
except (store.InvalidDataDir, scoring.InputError) as err:
    entry = None
    st.warning(f"No competition is active: the default data could not be loaded ({md(err)}). Upload your own below.")
if entry is not None:
    st.markdown(f"Scoring **{md(entry.label)}**: {md(fui.describe(entry.comp))}.")
st.button("Use the sample data", key=f"{K}_use_sample", on_click=_use_default,
          disabled=entry is None or entry.is_default, help="Switch this family's pages back to the default data.")
if entry is not None:
    _share_and_delete()

# ---- upload ---------------------------------------------------------------------------------
st.subheader(f"Upload a {fam.title} competition")
with st.expander("What the files must look like, and the limits"):
    st.markdown("\n".join(f"- **{i.label}**{'' if i.required else ' (optional)'} — {md(i.help)}"
                          for i in (*fam.inputs, *fui.extra_inputs)))
    st.markdown(f"Limits: one file at most {limits.human(min(limits.MAX_FILE_BYTES, _upload_cap()))}; one upload at most "
                f"{limits.MAX_BUNDLE_FILES:,} files and {limits.human(limits.MAX_BUNDLE_BYTES)} in all; a CSV at most "
                f"{limits.MAX_COLUMNS:,} columns and {limits.human(limits.MAX_CELL_BYTES)} in one cell.")
cols = st.columns(2)
for n, inp in enumerate((*fam.inputs, *fui.extra_inputs)):
    with cols[n % 2]:
        label = inp.label + ("" if inp.required else " (optional)")
        if inp.many:
            label += f" (one {inp.suffix} file each; the file name is the name)"
        else:
            label += f" — {_endings(inp)}"
        # any file: a name the input does not take is refused on loading with the reason (a type
        # list here would refuse it with an icon whose reason the browser hides)
        st.file_uploader(label, accept_multiple_files=inp.many, key=f"{K}_{inp.role}")
ready = all(st.session_state.get(f"{K}_{i.role}") for i in fam.inputs if i.required)
if ready and fui.import_panel is not None:
    fui.import_panel(K, _uploaded_bundle())  # the guided import: what was understood, each choice a control
st.button("Check and load these files", key=f"{K}_load", type="primary", on_click=_load_uploads, disabled=not ready,
          help="Validates all files together; switches to them only if all of them load.")
if not ready:
    st.caption("Add every required file to load your own competition.")

result = st.session_state.get(f"{K}_result")
if result is not None:
    st.subheader("Validation report")
    if result["status"] == "error":
        st.error(md(validation.found(result["errors"], more=bool(result.get("more")), limit=MAX_ERRORS)))
        for problem in problems.collapse(result["errors"]):
            _show_problem(problem)
    elif result["status"] == "ok":
        st.success(f"Loaded {len(result['files'])} files: {md(result['describe'])} "
                   f"({md(', '.join(result['submissions']))}). Every {md(fam.title)} page now scores them.")
        if result.get("renamed"):
            st.info(f"Your browser sent a quote mark (\") in a file name as {QUOTE_SENT} (the web's form encoding); "
                    f"it was read back as \", so the names above are the files' own: "
                    f"{md(', '.join(result['renamed']))}.", icon=":material/edit:")
        if result["report"]:
            st.warning("The files loaded. The load report — what was read, and what was left out or changed:\n\n"
                       + "\n".join(f"- {md(line)}" for line in result["report"]))
        else:
            st.caption("No warnings: every row was used.")
    elif result["status"] == "sample":
        st.success("Switched back to the sample data.")
    elif result["status"] == "deleted":
        st.success("Deleted: your uploaded files are gone from this server's disk and memory, and a link that "
                   "holds them now says so. The pages show the sample data again.")

# ---- presets --------------------------------------------------------------------------------
st.subheader("Parameter presets")
st.markdown("Save the sidebar's current parameters as a JSON file, or load one to restore them. "
            "(The page's address holds the same parameters, so a link works too.)")
preset = state.preset(fam)
c1, c2 = st.columns(2)
with c1:
    st.download_button("Download the current parameters (JSON)", data=json.dumps(preset, indent=2),
                       file_name=f"leaderboard-lab-{fam.name}-preset.json", mime="application/json",
                       key=f"{K}_preset_download")
    st.code(json.dumps(preset, indent=2), language="json")
with c2:
    st.file_uploader("Load a preset (JSON)", type=["json"], key=f"{K}_preset_file", on_change=_apply_preset_upload)
preset_result = st.session_state.get(f"{K}_preset_result")
if preset_result is not None:
    kind, message = preset_result
    (st.success if kind == "ok" else st.error)(md(message))

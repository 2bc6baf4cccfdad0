"""What the Custom pages share: the shipped leaderboards (HELM Lite, HELM Classic, Open LLM) in
the sidebar, the current parameters (started from the recipe of the data shown), the recipe as
a document to save and load, and the app's declaration of the family (``UI``).

A recipe's stages are the sidebar's starting values (``FamilyUI.data_defaults``): loading data
with a recipe sets the sidebar to it, and the reset button returns to it. The Recipe page
loads another recipe's stages into the sidebar (and the link) without reloading the data.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from scoring.core.errors import InputError
from scoring.core.export import to_json
from scoring.custom import FAMILY, csv_columns, leaderboard_document, published, recipe_json
from scoring.custom.params import ACROSS
from scoring.custom.recipe import Recipe, read_recipe

from ..data import store, uploads
from ..view import current, state, tables
from ..words.text import md
from . import Control, FamilyUI, PageSpec, custom_import, export_target, stage_table_toggle

FAM = FAMILY
DATASET_KEY = "cu_dataset"
LINK_DATASET = "board"
SAMPLE = Path(FAM.sample_dir)
#: the leaderboards shipped with the app: name -> (title, folder)
DATASETS = {
    "helm-lite": ("HELM Lite (mean win rate)", SAMPLE),
    "helm-classic": ("HELM Classic + efficiency (softmin, boost)", SAMPLE / "helm_classic"),
    "open-llm": ("Open LLM Leaderboard (Borda)", SAMPLE / "open_llm"),
    "glue": ("GLUE (its published score)", SAMPLE / "glue"),
    "mmlu": ("MMLU per subject (mean)", SAMPLE / "mmlu"),
}


# ---- the shipped leaderboards ------------------------------------------------------------------
def active_dataset(entry: Any = None) -> str | None:
    """The name of the shipped leaderboard shown (None: an upload or another folder); of ``entry``
    (a ``store.Entry``) when given."""
    e = current.entry(FAM) if entry is None else entry
    if e.folder is None:
        return None
    here = Path(e.folder).resolve()
    return next((n for n, (_, f) in DATASETS.items() if f.resolve() == here), None)


def follow_link() -> None:
    """A link's ``board=``, followed once per session — before the sidebar reads the link's
    stages (``app.py`` calls it first), so that they are read on the board they were set on."""
    ss = st.session_state
    if ss.get("_cu_dataset_link"):
        return
    ss["_cu_dataset_link"] = True
    wanted = st.query_params.get(LINK_DATASET)
    held = store.active(FAM)
    if wanted in DATASETS and wanted != active_dataset(held) and (held.is_default or active_dataset(held)):
        _switch(wanted)


def _switch(name: str) -> None:
    store.use_folder(FAM, DATASETS[name][1], label=f"{DATASETS[name][0]} — published table")
    st.query_params[LINK_DATASET] = name


def _on_pick() -> None:
    name = st.session_state.get(DATASET_KEY)
    if name in DATASETS:
        _switch(name)


def dataset_picker() -> None:
    """The sidebar's choice of shipped leaderboard (a link's ``board=`` was followed by
    :func:`follow_link`); the link follows the data shown."""
    ss = st.session_state
    follow_link()  # (done already in app.py's run: a page run alone by a test goes through it here)
    active = active_dataset()
    if active is None:
        if LINK_DATASET in st.query_params:
            del st.query_params[LINK_DATASET]
    elif st.query_params.get(LINK_DATASET) != active:
        st.query_params[LINK_DATASET] = active
    if ss.get(DATASET_KEY) != active:
        ss[DATASET_KEY] = active
    st.sidebar.selectbox("Leaderboard", list(DATASETS), index=list(DATASETS).index(active) if active in DATASETS else None,
                         key=DATASET_KEY, format_func=lambda n: DATASETS[n][0],
                         on_change=_on_pick, placeholder="Your uploaded results (Data page)",
                         help="Published leaderboards shipped with the app (benchbench 1.0.1, MIT licence), each "
                              "with its recipe. Upload your own results table and recipe on the Data page.")


def leaderboard_csv(lb: pd.DataFrame) -> bytes:
    return tables.csv_bytes(lb, csv_columns(lb))


def leaderboard_json(lb: pd.DataFrame, p: Mapping[str, Any]) -> bytes:
    return to_json(leaderboard_document(lb, p), escape=True).encode("utf-8")


def recipe_text(p: Mapping[str, Any]) -> str:
    """The recipe of the data shown with the sidebar's stages, as JSON text."""
    return recipe_json(current.competition(FAM).recipe, p)


def apply_recipe(text: str, name: str = "recipe.json", *, reread: bool = False) -> str | None:
    """Set the sidebar to a recipe's stages; with ``reread``, a recipe that says how to read the
    inputs (its ``inputs``) also reads the data shown again so (as an upload of the same files,
    kept in the link). Returns a problem in words, or None."""
    try:
        recipe = read_recipe(text.encode("utf-8"), name)  # JSON, or TOML by a .toml name
    except InputError as e:
        return md(e)
    if reread and _has_inputs(text, name) and recipe.results != current.competition(FAM).recipe.results:
        problem = _reread(recipe)
        if problem:
            return problem
    ctx = current.competition(FAM).context()
    try:
        state.apply(FAM, {**state.defaults(FAM, ctx), **{k: FAM.params[k].to_json(v)
                                                          for k, v in recipe.stages.items()}}, ctx)
    except ValueError as e:
        return md(e)
    return None


def _has_inputs(text: str, name: str) -> bool:
    return ("[inputs" in text or "inputs." in text) if name.lower().endswith(".toml") else '"inputs"' in text


def _reread(recipe: Recipe) -> str | None:
    """Load the files of the data shown again with ``recipe`` (its reading options and stages)."""
    e = current.entry(FAM)
    if e.folder is not None:
        files = {role: (Path(path).name, Path(path).read_bytes())
                 for role, path in store.folder_sources(FAM, Path(e.folder)).items() if role != "recipe"}
    else:
        kept = uploads.load(FAM.name, e.digest) or {}
        files = {role: item for role, item in kept.items() if role != "recipe"}
    if not files.get("results"):
        return "the files of the data shown are no longer kept on this server: upload them again on the Data page"
    files["recipe"] = ("recipe.json", recipe_json(recipe).encode("utf-8"))
    try:
        store.use_bundle(FAM, files)
    except InputError as err:
        return f"the data shown cannot be read with this recipe's reading options: {md(err)}"
    st.session_state[DATASET_KEY] = None
    return None


#: the outcome of the Recipe page's *Apply* (a problem in words, or "" for applied), for the next run
RECIPE_OUTCOME = "_cu_recipe_outcome"


def apply_recipe_input(source: str) -> None:
    """Callback of the Recipe page's buttons: ``source`` is ``"file"`` (the uploaded recipe),
    ``"text"`` (the pasted one) or a shipped leaderboard's name (its recipe's stages only) —
    each has its own button, so one never silently beats another. A callback runs before the
    sidebar is drawn, so its widgets take the stages in this very run; the outcome is kept for
    the page to say."""
    ss = st.session_state
    reread = bool(ss.get("cu_recipe_reread", True))
    if source == "file":
        up = ss.get("cu_recipe_file")
        problem = apply_recipe(up.getvalue().decode("utf-8", "replace"), up.name, reread=reread) if up is not None \
            else "choose a recipe file first"
    elif source == "text":
        text = ss.get("cu_recipe_text", "")
        problem = apply_recipe(text, reread=reread) if text.strip() else "paste a recipe first"
    else:
        problem = apply_recipe((DATASETS[source][1] / "recipe.json").read_text(encoding="utf-8"))
    ss[RECIPE_OUTCOME] = problem or ""


def published_comparison(lb: pd.DataFrame) -> pd.DataFrame | None:
    """The final score beside each published aggregate column (``scoring.custom.published``:
    a rank column read as a rank), None when the results had no published aggregate."""
    pubs = lb.attrs.get("published")
    return published.table(pubs, lb) if pubs else None


def _disabled(values: Mapping[str, Any], comp) -> dict[str, str]:
    """The sidebar's widgets that the current choices leave unused, with why."""
    off: dict[str, str] = {}
    if values.get("missing") != "fixed":
        off["missing_value"] = "used when missing cells take a fixed value"
    if values.get("group_by") == "none":
        for name in ("within", "weight_column", "splits", "reward", "penalty"):
            off[name] = "used when the units are grouped (Group units by)"
    elif values.get("within") != "difficulty":
        for name in ("splits", "reward", "penalty"):
            off[name] = "used by the difficulty splits"
        if values.get("within") == "mean":
            off["weight_column"] = "used by the size-weighted mean and the difficulty splits"
    if values.get("across") != "softmin":
        off["alpha"] = "used by the softmin rule"
    if values.get("across") != "weighted":
        off["weights"] = "used by the weighted rule"
    if values.get("efficiency") != "boost":
        for name in ("band", "max_boost", "window"):
            off[name] = "used by the efficiency boost"
    if values.get("efficiency") != "penalty":
        off["threshold"] = "used by the time penalty"
    if comp is not None and comp.runtime is None:
        off["efficiency"] = "needs a teams table (runtimes): upload one on the Data page"
    return off


def _items_in_use(name: str, values: Mapping[str, Any], comp) -> list[str] | None:
    """The item weights the current grouping uses: the units without one, else its groups."""
    if name != "weights" or comp is None:
        return None
    group = values.get("group_by")
    if group in (None, "none") or comp.units is None or group not in comp.units.groups:
        return list(comp.results.units)
    return list(dict.fromkeys(comp.units.groups[group]))


def _data_defaults(comp) -> dict[str, Any]:
    """The recipe's stages; the item weights' sliders start at the recipe's weights, else 1 each."""
    out = dict(comp.recipe.stages)
    given = out.get("weights") or {}
    out["weights"] = {item: float(given.get(item, 1.0)) for item in comp.context()["items"]}
    return out


#: the controls (lab.families.Control): the sidebar's shipped leaderboard (on both pages), the Recipe
#: page's text box (derived: its text is applied to the sidebar by a button, it holds no value of the view)
DATASET = Control(DATASET_KEY, LINK_DATASET)  # one of the shipped tables (none: an upload)
RECIPE_TEXT = Control("cu_recipe_text", "", "derived")
#: the Recipe page: a recipe with an inputs section also reads the data shown again (on by default)
RECIPE_REREAD = Control("cu_recipe_reread", "reread", "bool", True)

UI = FamilyUI(
    pages=(
        PageSpec("pages/custom_leaderboard.py", "Leaderboard", ":material/leaderboard:",
                 "Your own leaderboard from any team × unit results table, composed by a recipe.",
                 (stage_table_toggle("cu_lb_table"), export_target("cu_lb_export"))),
        PageSpec("pages/custom_recipe.py", "Recipe", ":material/receipt_long:",
                 "The recipe behind the leaderboard: read it, edit it, save it, load one.", (RECIPE_TEXT, RECIPE_REREAD)),
    ),
    controls=(DATASET,),
    follow_link=follow_link,
    about="Any results table — a published one such as HELM, Open LLM or GLUE, or your own — composed into a "
          "leaderboard by a recipe: normalisation, groups, an across rule, an optional boost or penalty.",
    data_defaults=_data_defaults,
    disabled=_disabled,
    sidebar_extra=dataset_picker,
    sample_label="HELM Lite (published table)",
    lead_group=ACROSS,
    hide_unused=True,
    fold_mappings=True,
    mapping_keys=_items_in_use,
    import_panel=custom_import.panel,
    import_bundle=custom_import.bundle,
    describe=lambda comp: f"{len(comp.submission_names)} teams, {len(comp.unit_names)} units",
)

"""What the difficulty-weighted pages share: the built-in dataset choice (SST-2 / IMDb) in the
sidebar, the parameters as the engine takes them, Table 1's reward/penalty cases, the settings
strip that opens each page (with plain-word help), the link keys of the page picks
(``lab.view.links``), and the family's ``UI``. The words and takeaways are in :mod:`lab.words.difficulty`.

**Parameters.** The shared sidebar shows one widget per parameter, so the number of splits and
the weight scheme always hold a value (7, linear), while the engine reads "not given" in
three places (spec §2): continuous mode takes no splits, thresholds or weights, and typed
thresholds set the number of splits. :func:`effective` turns the sidebar's values into the
engine's — as the family's ``FamilyUI.repair``, so the robustness pages score the same — and
the sidebar disables what the split mode does not use and says why.

**Datasets.** SST-2 is the family's default data; IMDb (and SST-2 again) are picked in the
sidebar (``df_dataset``, kept in the link as ``dataset=imdb``), loaded once per server from
their folders (``store.use_folder``). An upload on the Data page takes precedence.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from scoring.core.errors import InputError
from scoring.difficulty import FAMILY, PRESET_LABELS, PRESETS, SAMPLE_DATASETS, sample_datasets
from scoring.difficulty.params import WEIGHT_LABELS

from ..data import store
from ..view import current, state
from ..words.difficulty import HELP, WMPROB_DIRECTION, wood_fallback
from ..words.text import md
from . import Control, FamilyUI, PageSpec, export_target

FAM = FAMILY
DATASET_KEY, CASE_KEY = "df_dataset", "df_case"
LINK_DATASET, LINK_SAMPLE = "dataset", "sample"
SHORT = {"sst-2": "SST-2", "imdb": "IMDb", "default": "data folder"}


# ---- the built-in datasets -------------------------------------------------------------------
def dataset_choices() -> dict[str, tuple[str, Path]]:
    """``name -> (title, folder)``: the shipped datasets, after the default folder when
    ``LAB_DATA_DIR_DIFFICULTY`` names another one."""
    shipped = {n: (SAMPLE_DATASETS[n], Path(f)) for n, f in sample_datasets().items()}
    default = store.data_dir(FAM)
    if default.resolve() in {f.resolve() for _, f in shipped.values()}:
        return shipped
    return {"default": (f"Data folder {default.name}", default), **shipped}


def active_dataset(choices: Mapping[str, tuple[str, Path]], entry: Any = None) -> str | None:
    """The name of the dataset shown (None: an upload); of ``entry`` (a ``store.Entry``) when given."""
    e = current.entry(FAM) if entry is None else entry
    if not e.is_default:
        return None
    here = Path(e.folder).resolve()
    return next((n for n, (_, f) in choices.items() if f.resolve() == here), None)


def follow_link() -> None:
    """A link's ``dataset=``, followed once per session — before the sidebar reads the link's
    settings (``app.py`` calls it first), so that they are read on the dataset they were set on."""
    ss = st.session_state
    if ss.get("_df_dataset_link"):
        return
    ss["_df_dataset_link"] = True
    choices = dataset_choices()
    wanted = st.query_params.get(LINK_DATASET)
    held = store.active(FAM)
    if wanted in choices and wanted != active_dataset(choices, held) and held.is_default:
        _switch(wanted)


def _switch(name: str) -> None:
    store.use_folder(FAM, dataset_choices()[name][1], label=f"{SHORT.get(name, name)} sample data")
    st.query_params[LINK_DATASET] = name


def _on_pick() -> None:
    name = st.session_state.get(DATASET_KEY)
    if name in dataset_choices():
        _switch(name)


def dataset_picker() -> None:
    """The sidebar's dataset choice (under the data caption). A link's ``dataset=`` is
    followed once per session; afterwards the link follows the data shown."""
    follow_link()  # (done already in app.py's run: a page run alone by a test goes through it here)
    choices = dataset_choices()
    ss = st.session_state
    active = active_dataset(choices)
    if active is None:
        if LINK_DATASET in st.query_params:
            del st.query_params[LINK_DATASET]
    elif st.query_params.get(LINK_DATASET) != active:
        st.query_params[LINK_DATASET] = active
    if ss.get(DATASET_KEY) != active:
        ss[DATASET_KEY] = active
    st.sidebar.selectbox(
        "Dataset", list(choices), index=list(choices).index(active) if active in choices else None, key=DATASET_KEY,
        format_func=lambda n: choices[n][0], on_change=_on_pick,
        placeholder="Your uploaded data (Data page)",
        help="The data shipped with the app: ten real models on the SST-2 dev set (short expert movie reviews, the "
             "data the models were trained for) or on IMDb reviews (longer, out-of-distribution). Upload your own "
             "samples and predictions on the Data page.")


# ---- parameters ------------------------------------------------------------------------------
def effective(values: Mapping[str, Any]) -> dict[str, Any]:
    """The sidebar's values as the engine takes them: continuous mode without splits,
    thresholds or weights; thresholds only in threshold mode, where typed ones set the number
    of splits."""
    p = dict(values)
    th = p.get("thresholds")
    if isinstance(th, str) and not th.strip():
        th = p["thresholds"] = None
    if p["split_mode"] == "continuous":
        p.update(splits=None, thresholds=None, weights=None)
    elif p["split_mode"] != "threshold":
        p["thresholds"] = None
    elif th is not None:
        p["splits"] = None
    if p["metric"] == "wmprob":
        p["ease_column"] = None
    return p


def _problem(err: InputError) -> str:
    if err.file == "ease_column" and "wsbias" in err.problem:
        return ("WSBias needs a bias score per sample, and the samples file has no numeric column: pick WMProb, or "
                "upload samples with a bias column on the Data page.")
    if err.file == "ease_column":
        return ("WOOD needs a similarity per sample: a numeric column of the samples file, or a training-text file "
                "uploaded on the Data page.")
    return f"{md(err.file)}: {md(err.problem)}."


def _repair(values: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """``FamilyUI.repair``: the engine's values (:func:`effective`); the sidebar already says
    what the split mode leaves unused, so there is no note."""
    return effective(values), None


def _check(scorer, values: dict[str, Any]):
    """``FamilyUI.check``: the values checked against the data, and their setting resolved (the
    engine refuses settings that score nothing: reward = penalty = 0, no weighted sample)."""
    p = scorer.check(values)
    scorer.setting(p)
    return p


def _disabled(values: Mapping[str, Any], comp) -> dict[str, str]:
    off: dict[str, str] = {}
    mode, metric = values["split_mode"], values["metric"]
    if metric == "wmprob":
        off["ease_column"] = "not used by WMProb: its ease is each model's confidence"
    if not (metric == "wood" and comp.sts is not None and not comp.ease_columns):
        off["sts_top"] = "only for WOOD computed from uploaded training texts"
    if mode == "continuous":
        for name in ("splits", "thresholds", "weights"):
            off[name] = "not used with continuous weights: every sample has its own weight"
    elif mode != "threshold":
        off["thresholds"] = "only used with split mode Thresholds"
    elif str(values.get("thresholds") or "").strip():
        off["splits"] = "set by the thresholds: one more split than thresholds"
    return off


def _group_note(group: str, comp) -> str | None:
    v = state.values(FAM)
    if group == "Ease" and v["metric"] == "wood" and comp.ease_columns and comp.sts is None:
        return ("This data has no similarity to training texts: WOOD uses the ease column as given "
                f"({v['ease_column']}).")
    if group == "Splits" and v["split_mode"] == "continuous":
        return "Continuous weights: no splits. Every sample weighs " + (
            "its model's confidence E." if v["metric"] == "wmprob" else "1/max(E, 0.01).")
    if group == "Splits" and v["split_mode"] == "threshold" and not str(v.get("thresholds") or "").strip():
        n = int(v["splits"])
        return f"Thresholds i/n now: {', '.join(f'{i / n:.3g}' for i in range(1, n))} (type your own below)."
    if group == "Weights and rewards":
        return f"Now {case_text(effective(v))}. Pick a case of Table 1 on the Leaderboard page."
    return None


# ---- Table 1's cases ---------------------------------------------------------------------------
CASE_OPTIONS = ("1", "2", "3", "4", "5", "6/7", "8/9", "custom")


def active_case(p: Mapping[str, Any]) -> str | None:
    """The case of Table 1 the parameters are ("1" … "9"), or None."""
    d, e, scale = float(p["reward"]), float(p["penalty"]), bool(p["scale_by_difficulty"])
    cont, wm = p["split_mode"] == "continuous", p["metric"] == "wmprob"
    if (d, e) == (1.0, -1.0) and cont != scale:
        return ("7" if wm else "6") if cont else ("9" if wm else "8")
    if scale or cont:
        return None
    return next((str(c) for c, de in PRESETS.items() if (d, e) == de), None)


def case_name(case: str) -> str:
    if case in ("6", "7"):
        return "continuous weights " + ("W = E" if case == "7" else "W = 1/max(E, 0.01)")
    if case in ("8", "9"):
        return "reward and penalty scaled by " + ("E" if case == "9" else "1/max(E, 0.01)")
    return PRESET_LABELS[int(case)].lower()


def case_text(p: Mapping[str, Any]) -> str:
    """``case 1 (reward = penalty: d = 1, e = −1)``, or the custom numbers."""
    c = active_case(p)
    de = f"d = {float(p['reward']):g}, e = {float(p['penalty']):g}".replace("-", "−")
    if c is None:
        extra = "; continuous weights" if p["split_mode"] == "continuous" else ""
        extra += "; scaled by difficulty" if p["scale_by_difficulty"] else ""
        return f"a custom setting, not one of Table 1's cases ({de}{extra})"
    return f"case {c} ({case_name(c)}: {de})"


def _apply_case() -> None:
    ss = st.session_state
    c = ss.get(CASE_KEY)
    if c not in CASE_OPTIONS or c == "custom":
        return
    k = lambda name: state.key(FAM, name)  # noqa: E731
    d, e = PRESETS[int(c)] if c.isdigit() else (1.0, -1.0)
    ss[k("reward")], ss[k("penalty")], ss[k("scale_by_difficulty")] = d, e, c == "8/9"
    if c == "6/7":
        ss[k("split_mode")] = "continuous"
    elif ss.get(k("split_mode")) == "continuous":
        ss[k("split_mode")] = "equal"


def case_picker(p: Mapping[str, Any], where=st) -> None:
    """Table 1's cases as a choice that sets the sidebar's reward and penalty."""
    c = active_case(p)
    now = {"6": "6/7", "7": "6/7", "8": "8/9", "9": "8/9"}.get(c or "", c) or "custom"
    if st.session_state.get(CASE_KEY) != now:
        st.session_state[CASE_KEY] = now

    def label(o: str) -> str:
        if o == "custom":
            return "Custom (the sliders in the sidebar)"
        if o in ("6/7", "8/9"):
            return f"{o} · " + ("continuous weights" if o == "6/7" else "scaled by difficulty") + " (1, −1)"
        d, e = PRESETS[int(o)]
        return f"{o} · {PRESET_LABELS[int(o)].lower()} ({d:g}, {e:g})".replace("-", "−")

    where.selectbox("Reward and penalty: Table 1 case", CASE_OPTIONS, index=list(CASE_OPTIONS).index(now),
                    key=CASE_KEY, format_func=label,
                    on_change=_apply_case, help=HELP["case"])


# ---- words ---------------------------------------------------------------------------------
def metric_name(p: Mapping[str, Any]) -> str:
    return {"wsbias": "WSBias", "wood": "WOOD", "wmprob": "WMProb"}[p["metric"]]


def dataset_name() -> str:
    """The data shown, in two words: ``SST-2``, ``IMDb``, ``your upload``."""
    name = active_dataset(dataset_choices())
    return "your upload" if name is None else SHORT.get(name, name)


def settings_strip(p: Mapping[str, Any], lb: pd.DataFrame) -> None:
    """The settings in a row of short words, each with its plain-word help: data, metric, ease,
    splits, weights, Table 1 case."""
    s = lb.attrs.get("parameters", {})
    ease = {"wmprob": "each model's confidence"}.get(p["metric"]) or (
        f"column {md(s['ease_column'])}" if s.get("ease_column") else f"top {p['sts_top']} % similarity")
    cont = p["split_mode"] == "continuous"
    splits = "none (continuous)" if cont else f"{s['splits']} {'equal' if p['split_mode'] == 'equal' else 'at thresholds'}"
    weights = "per sample" if cont else WEIGHT_LABELS.get(s["weights"], md(s["weights"]))
    case = active_case(p)
    others = " ".join(HELP[m] for m in ("wsbias", "wood", "wmprob") if m != p["metric"])
    weights_help = HELP["continuous"] if cont else HELP.get(str(s["weights"]), HELP["splits"])
    if p["metric"] == "wmprob" and not cont:
        weights_help += " " + WMPROB_DIRECTION.replace("*", "")
    items = [("Data", md(dataset_name()), HELP["data"]),
             ("Metric", metric_name(p), f"{HELP[p['metric']]} The others: {others}"),
             ("Ease", ease, HELP["ease"]), ("Splits", splits, HELP["continuous" if cont else "splits"]),
             ("Weights", weights, weights_help),
             ("Reward, penalty", f"case {case}" if case else "custom", f"Now {case_text(p)}. {HELP['case']}")]
    for col, (label, value, help_text) in zip(st.columns([2, 2, 3, 3, 3, 3]), items, strict=True):
        col.markdown(f":gray[{label}]  \n**{value}**", help=help_text)
    if p["metric"] == "wood" and s.get("ease_column") and current.competition(FAM).sts is None:
        # no training texts: say plainly what WOOD falls back to
        shipped = active_dataset(dataset_choices()) not in (None, "default")
        st.info(wood_fallback(str(s["ease_column"]), shipped), icon=":material/info:")


# ---- the app's declaration of the family ---------------------------------------------------------
#: the controls (lab.families.Control): the sidebar's dataset (on every page of the family), the
#: leaderboard's Table 1 case (derived: it sets the sidebar's reward and penalty), the pages' picks
DATASET = Control(DATASET_KEY, LINK_DATASET)  # one of the shipped datasets (none: an upload)
CASE = Control(CASE_KEY, "", "derived")
SP_MODEL = Control("df_sp_model", "model")  # one of the models; default the leader
SM_POINTS = Control("df_sm_points", "points", default=1_000, options=(1_000, 3_000, 10_000), scope="shared")
SM_TOP = Control("df_sm_top", "top", default=20, options=(10, 20, 50, 100), scope="shared")
SAMPLE = Control("df_sample", LINK_SAMPLE)  # one of the samples; default the one most models miss

UI = FamilyUI(
    pages=(
        PageSpec("pages/difficulty_leaderboard.py", "Leaderboard", ":material/leaderboard:",
                 "Which model wins once harder samples weigh more, beside its plain accuracy.",
                 (CASE, export_target("df_lb_export"))),
        PageSpec("pages/difficulty_splits.py", "Splits", ":material/stacked_bar_chart:",
                 "How the samples split by ease, and how each model does on each split.", (SP_MODEL,)),
        PageSpec("pages/difficulty_samples.py", "Samples", ":material/scatter_plot:",
                 "Every sample by ease, the ones most models miss, and one sample in full.",
                 (SM_POINTS, SM_TOP, SAMPLE)),
        PageSpec("pages/difficulty_weights.py", "Weights", ":material/balance:",
                 "How much each split weighs, and the paper's rewards and penalties step by step."),
    ),
    controls=(DATASET,),
    follow_link=follow_link,
    menu="Difficulty",
    about="Ten real sentiment models on SST-2 and IMDb, scored with the difficulty-weighted WSBias, WOOD and "
          "WMProb: samples split by ease, harder ones weigh more.",
    defaults={"splits": 7, "weights": "linear"},
    link_keys=(LINK_SAMPLE,),
    sidebar_extra=dataset_picker,
    sample_label="SST-2 sample data",
    disabled=_disabled,
    group_note=_group_note,
    repair=_repair,
    check=_check,
    problem=_problem,
    describe=lambda comp: f"{len(comp.submission_names)} models, {comp.n_samples:,} samples",
)

"""What the difficulty-weighted pages share: the built-in dataset choice (SST-2 / IMDb) in the
sidebar, the parameters as the engine takes them, Table 1's reward/penalty cases, plain-word
help, one-sentence takeaways computed from the current numbers, and the family's ``UI``.

**Parameters.** The shared sidebar shows one widget per parameter, so the number of splits and
the weight scheme always hold a value (7, linear), while the engine reads "not given" in
three places (spec §2): continuous mode takes no splits, thresholds or weights, and typed
thresholds set the number of splits. :func:`effective` turns the sidebar's values into the
engine's; the sidebar disables what the split mode does not use and says why.

**Datasets.** SST-2 is the family's default data; IMDb (and SST-2 again) are picked in the
sidebar (``df_dataset``, kept in the link as ``dataset=imdb``), loaded once per server from
their folders (``store.use_folder``). An upload on the Data page takes precedence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from scoring.core.errors import InputError
from scoring.difficulty import FAMILY, PRESET_LABELS, PRESETS, SAMPLE_DATASETS, sample_datasets
from scoring.difficulty.params import WEIGHT_LABELS

from . import current, state, store
from .families import FamilyUI, PageSpec
from .text import md

FAM = FAMILY
DATASET_KEY, CASE_KEY = "df_dataset", "df_case"
LINK_DATASET, LINK_SAMPLE = "dataset", "sample"
SHORT = {"sst-2": "SST-2", "imdb": "IMDb", "default": "data folder"}

HELP = {
    "wsbias": "WSBias (weighted spurious bias): a sample is easy when it carries a shortcut — a cue that gives "
              "the label away without understanding the text, such as a word that usually comes with positive "
              "reviews. Its ease is a bias score of the samples file (more bias = easier).",
    "wood": "WOOD (weighted out-of-distribution): a sample is easy when it looks like the training data. Its ease "
            "is its similarity to the training texts: a column of the samples file, or computed from a "
            "training-text file uploaded on the Data page.",
    "wmprob": "WMProb (weighted maximum probability): a sample is easy for a model when the model is sure of its "
              "answer. Its ease is the model's largest probability, so every model orders the samples its own way.",
    "ease": "Ease (E): how easy a sample is, as the metric measures it — higher is easier. The samples are sorted "
            "by it, easiest first, and cut into splits.",
    "splits": "Splits: the samples sorted by ease and cut into n groups, split 1 the easiest and split n the "
              "hardest — equally populated, or cut at thresholds of E. Every sample of a split weighs the "
              "split's weight.",
    "continuous": "Continuous weights: no splits; every sample has its own weight, 1/max(E, 0.01) (WMProb: E).",
    "linear": "Linear: split x weighs x (1, 2, …, n): the hardest split counts n times the easiest.",
    "square": "Square: split x weighs x² (1, 4, …, n²): the hard splits dominate.",
    "log": "Logarithmic: split x weighs ln(1 + x): gentle — the hardest of 7 splits counts 3 times the easiest.",
    "reverse": "Reverse: split x weighs n + 1 − x: the easiest split counts most.",
    "case": "Table 1 of the paper: what a right prediction earns (reward d) and a wrong one costs (penalty e). "
            "Cases 6/7 weigh every sample by its own difficulty instead of its split's weight; cases 8/9 scale "
            "reward and penalty by the difficulty. Picking a case sets the sliders in the sidebar.",
    "score": "100 × (what the model earned) ÷ (what a model right on every sample would earn), each sample "
             "weighted by its split: from −100 to 100; higher is better.",
}
WMPROB_DIRECTION = (
    "With WMProb, split 1 holds each model's *most* confident samples, so increasing weights (linear, square, "
    "log) make the *least* confident samples weigh most. That is what the paper's prototype computes and what "
    "reproduces its Table 8; the paper's text describes the opposite, which the **reverse** weights give.")


# ---- the built-in datasets -------------------------------------------------------------------
def dataset_choices() -> dict[str, tuple[str, Path]]:
    """``name -> (title, folder)``: the shipped datasets, after the default folder when
    ``LAB_DATA_DIR_DIFFICULTY`` names another one."""
    shipped = {n: (SAMPLE_DATASETS[n], Path(f)) for n, f in sample_datasets().items()}
    default = store.data_dir(FAM)
    if default.resolve() in {f.resolve() for _, f in shipped.values()}:
        return shipped
    return {"default": (f"Data folder {default.name}", default), **shipped}


def active_dataset(choices: Mapping[str, tuple[str, Path]]) -> str | None:
    """The name of the dataset shown (None: an upload)."""
    e = current.entry(FAM)
    if not e.is_default:
        return None
    here = Path(e.folder).resolve()
    return next((n for n, (_, f) in choices.items() if f.resolve() == here), None)


def _switch(name: str) -> None:
    choices = dataset_choices()
    folder = choices[name][1]
    if folder.resolve() == store.data_dir(FAM).resolve():
        store.use_default(FAM)
    else:
        store.use_folder(FAM, folder, label=f"{SHORT.get(name, name)} sample data")
    st.query_params[LINK_DATASET] = name


def _on_pick() -> None:
    name = st.session_state.get(DATASET_KEY)
    if name in dataset_choices():
        _switch(name)


def dataset_picker() -> None:
    """The sidebar's dataset choice (under the data caption). A link's ``dataset=`` is
    followed once per session; afterwards the link follows the data shown."""
    choices = dataset_choices()
    ss = st.session_state
    if not ss.get("_df_dataset_link"):
        ss["_df_dataset_link"] = True
        wanted = st.query_params.get(LINK_DATASET)
        if wanted in choices and wanted != active_dataset(choices) and current.entry(FAM).is_default:
            _switch(wanted)
            st.rerun()
    active = active_dataset(choices)
    if active is None:
        if LINK_DATASET in st.query_params:
            del st.query_params[LINK_DATASET]
    elif st.query_params.get(LINK_DATASET) != active:
        st.query_params[LINK_DATASET] = active
    ss[DATASET_KEY] = active
    st.sidebar.selectbox(
        "Dataset", list(choices), key=DATASET_KEY, format_func=lambda n: choices[n][0], on_change=_on_pick,
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


def params(title: str) -> dict[str, Any]:
    """The current parameters, checked against the data. When they cannot be scored the page
    shows its title and why, and stops (every page calls this first, after the picker)."""
    p = effective(current.params(FAM))
    try:
        current.scorer(FAM).setting(**p)
        return current.scorer(FAM).check(**p)
    except InputError as err:
        current.header(FAM, title, f"These settings cannot be scored — {_problem(err)}")
        st.stop()


def begin(title: str) -> dict[str, Any]:
    """A page's first call: the dataset choice in the sidebar, then the checked parameters."""
    dataset_picker()
    return params(title)


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
    st.session_state[CASE_KEY] = {"6": "6/7", "7": "6/7", "8": "8/9", "9": "8/9"}.get(c or "", c) or "custom"

    def label(o: str) -> str:
        if o == "custom":
            return "Custom (the sliders in the sidebar)"
        if o in ("6/7", "8/9"):
            return f"{o} · " + ("continuous weights" if o == "6/7" else "scaled by difficulty") + " (1, −1)"
        d, e = PRESETS[int(o)]
        return f"{o} · {PRESET_LABELS[int(o)].lower()} ({d:g}, {e:g})".replace("-", "−")

    where.selectbox("Reward and penalty: Table 1 case", CASE_OPTIONS, key=CASE_KEY, format_func=label,
                    on_change=_apply_case, help=HELP["case"])


# ---- words ---------------------------------------------------------------------------------
def metric_name(p: Mapping[str, Any]) -> str:
    return {"wsbias": "WSBias", "wood": "WOOD", "wmprob": "WMProb"}[p["metric"]]


def dataset_name() -> str:
    """The data shown, in two words: ``SST-2``, ``IMDb``, ``your upload``."""
    name = active_dataset(dataset_choices())
    return "your upload" if name is None else SHORT.get(name, name)


def settings_text(p: Mapping[str, Any], lb: pd.DataFrame) -> str:
    """The settings in one line: data, metric and ease, splits, weights, case."""
    s = lb.attrs.get("parameters", {})
    ease = {"wmprob": "each model's confidence"}.get(p["metric"]) or (
        f"column {md(s.get('ease_column'))}" if s.get("ease_column") else f"top {p['sts_top']} % similarity")
    splits = "continuous weights" if p["split_mode"] == "continuous" else (
        f"{s.get('splits')} {'equal' if p['split_mode'] == 'equal' else 'threshold'} splits, "
        f"{WEIGHT_LABELS.get(s.get('weights'), s.get('weights')).lower()} weights")
    return f"{md(dataset_name())} · **{metric_name(p)}** (ease = {ease}) · {splits} · {case_text(p)}"


def names(items: Sequence[str]) -> str:
    """``**a**``, ``**a** and **b**``, ``**a**, **b** and **c**`` (escaped)."""
    b = [f"**{md(n)}**" for n in items]
    return b[0] if len(b) == 1 else ", ".join(b[:-1]) + " and " + b[-1]


def _places(k: int) -> str:
    return f"{k} place{'s' if k != 1 else ''}"


def leaderboard_takeaway(lb: pd.DataFrame) -> str:
    """Who is first, and who moves most against plain accuracy."""
    subs = lb["submission"].astype(str).tolist()
    rank, acc = lb["rank"].to_numpy(int), lb["accuracy_rank"].to_numpy(int)
    first = [n for n, r in zip(subs, rank, strict=True) if r == 1]
    acc_first = [n for n, r in zip(subs, acc, strict=True) if r == 1]
    verb = "stays" if len(first) == 1 else "stay"
    head = (f"{names(first)} {verb} first" if set(first) == set(acc_first) else
            f"{names(first)} {'is' if len(first) == 1 else 'are'} first, where plain accuracy puts "
            f"{names(acc_first)} first (now {int(rank[subs.index(acc_first[0])])})")
    move = acc - rank
    if not move.any():
        return f"{head}; no model changes place against plain accuracy."
    up = min(range(len(subs)), key=lambda i: (-move[i], rank[i], subs[i]))
    down = min(range(len(subs)), key=lambda i: (move[i], -rank[i], subs[i]))
    text = f"{head}; {names([subs[up]])} gains {_places(int(move[up]))} over plain accuracy" if move[up] > 0 else head
    if move[down] < 0:
        text += f"{' and' if move[up] > 0 else ';'} {names([subs[down]])} loses {_places(int(-move[down]))}"
    moved = int((move != 0).sum())
    return f"{text} ({moved} of {len(subs)} models move)."


def splits_takeaway(table: pd.DataFrame, lb: pd.DataFrame) -> str:
    top = str(lb["submission"].iloc[0])
    n = int(table["split"].max())
    mine = table[table["submission"] == top].set_index("split")["score"]
    spread = table.groupby("split")["score"].agg(lambda s: s.max() - s.min())
    k = int(spread.idxmax())
    lo, hi = table.loc[table["split"] == k, "score"].min(), table.loc[table["split"] == k, "score"].max()
    return (f"{names([top])} scores {mine.get(1, np.nan):.1f} on the easiest split and {mine.get(n, np.nan):.1f} "
            f"on the hardest; the models differ most on split {k} (from {lo:.1f} to {hi:.1f}).")


def samples_takeaway(table: pd.DataFrame, points: pd.DataFrame, n_models: int, n_splits: int | None) -> str:
    """How many samples every model misses, and where the wrong predictions sit."""
    missed = table["missed_by"].to_numpy()
    every, most = int((missed == n_models).sum()), int((missed > n_models / 2).sum())
    head = (f"{every} of {len(table):,} samples are missed by every model and {most} by most of them")
    scored = points[points["split"] > 0]
    wrong = scored[~scored["correct"].astype(bool)]
    if not n_splits or wrong.empty:
        return head + "."
    share = float((wrong["split"] == n_splits).mean())
    held = float((scored["split"] == n_splits).mean())
    return (f"{head}; the hardest split holds {share:.0%} of the wrong predictions, against {held:.0%} of all "
            "predictions.")


def weights_takeaway(table: pd.DataFrame, presets: pd.DataFrame, continuous: bool) -> str:
    cases = presets[presets["case"] != "accuracy"]
    winners = cases[cases["rank"] == 1].groupby("submission")["case"].nunique().sort_values(ascending=False)
    total = cases["case"].nunique()
    lead = str(winners.index[0])
    tail = (f"{names([lead])} is first in every one of Table 1's {total} cases" if winners.iloc[0] == total else
            f"{names([lead])} is first in {winners.iloc[0]} of Table 1's {total} cases, "
            + names([str(x) for x in winners.index[1:]]) + " in the others")
    if continuous:
        return f"Every sample has its own weight here; {tail}."
    first = table[table["submission"] == table["submission"].iloc[0]]
    b, share = first["weight"].to_numpy(float), first["weight_share"].to_numpy(float)
    ratio = f"{b[-1] / b[0]:.3g}× the easiest" if b[0] > 0 else "while the easiest weighs nothing"
    return f"The hardest split weighs {ratio} and holds {share[-1]:.0%} of the attainable score; {tail}."


# ---- a page's own picks, kept in the link -------------------------------------------------------
def linked(param: str, valid, default):
    """The pick the link holds for ``param`` when ``valid(value)``, else ``default`` (an
    invalid one is dropped from the link)."""
    value = st.query_params.get(param)
    if value is not None and not valid(value):
        del st.query_params[param]
    return value if value is not None and valid(value) else default


def keep_in_link(param: str, key: str) -> None:
    """Widget callback: the explicit pick goes into the link."""
    st.query_params[param] = st.session_state[key]


# ---- the app's declaration of the family ---------------------------------------------------------
UI = FamilyUI(
    pages=(
        PageSpec("pages/difficulty_leaderboard.py", "Leaderboard", ":material/leaderboard:"),
        PageSpec("pages/difficulty_splits.py", "Splits", ":material/stacked_bar_chart:"),
        PageSpec("pages/difficulty_samples.py", "Samples", ":material/scatter_plot:"),
        PageSpec("pages/difficulty_weights.py", "Weights", ":material/balance:"),
    ),
    defaults={"splits": 7, "weights": "linear"},
    link_keys=(LINK_SAMPLE,),
    disabled=_disabled,
    group_note=_group_note,
    describe=lambda comp: f"{len(comp.submission_names)} models, {comp.n_samples:,} samples",
)

"""The app's side of each metric family: its pages and its few UI-only choices.

The engine's registry (``scoring.registry``) declares what a family computes; this module
declares how the app shows it. The navigation, the sidebar and the data page are built
from both. A family's UI module (``lab/families/<family>.py``) holds its ``UI = FamilyUI(...)``;
adding a family's pages is one line in :data:`MODULES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from scoring.core.family import Family, InputSpec

from ..words.text import md

#: the kinds of a page's control: one of ``options``, several of them, a number, a whole number, a
#: switch, a short text; ``json``: a value the page's buttons set (the pinned settings), kept in the
#: link as JSON; ``derived``: a control whose value is the family's parameters' (a preset choice that
#: sets sliders), so it has no value of its own to keep and no link key
CONTROL_KINDS = ("choice", "many", "number", "int", "bool", "text", "json", "derived")


@dataclass(frozen=True)
class Control:
    """One control of a page (beside the sidebar's parameters, which the family's ``ParamSpec``
    declares): a parameter of the view with its widget ``key``, its ``link`` key, its ``default``
    and its range (``options``, or ``low``/``high``; ``max_chars`` for a text). A default or
    options that come from the data (a team, the leader) are given where the control is drawn,
    ``lab.view.links.draw`` — the one place that reads it (link, else session, else default) and
    writes it (the link, on change).

    ``scope``: ``"family"`` — the value belongs to the family the page shows (a team, a parameter
    on a map axis), dropped when a shared page switches family; ``"shared"`` — declared shared on
    purpose: a setting of the page that means the same for every family (replicates, confidence,
    seeds)."""

    key: str
    link: str
    kind: str = "choice"
    default: Any = None
    options: tuple = ()
    low: float | None = None
    high: float | None = None
    step: float | None = None
    max_chars: int | None = None
    scope: str = "family"

    def __post_init__(self):
        if self.kind not in CONTROL_KINDS:
            raise ValueError(f"expected a control kind in {CONTROL_KINDS}, got {self.kind!r}")
        if self.scope not in ("family", "shared"):
            raise ValueError(f"expected scope 'family' or 'shared', got {self.scope!r}")


@dataclass(frozen=True)
class PageSpec:
    """One page: its file (``pages/<family>_<page>.py``, relative to the app folder), title and
    icon, what it answers (``answers``: one sentence, for the start page) and its controls (each a
    parameter of the view, in the link: :class:`Control`). Its address is the file stem (see
    ``lab.view.nav`` for why)."""

    path: str
    title: str
    icon: str | None
    answers: str = ""
    controls: tuple[Control, ...] = ()

    @property
    def url_path(self) -> str:
        return Path(self.path).stem


@dataclass(frozen=True)
class FamilyUI:
    pages: tuple[PageSpec, ...]
    #: values the app starts from where they differ from the engine's defaults
    defaults: Mapping[str, Any] = field(default_factory=dict)
    #: other link keys the family's pages use (cleared by the reset button)
    link_keys: tuple[str, ...] = ()
    reset_label: str = "Reset to defaults"
    #: the reset button's tooltip (what the defaults are, where they come from)
    reset_help: str = "Every parameter back to its default (the data's own suggestions included)."
    #: (values, competition) -> names of the parameters whose widgets are disabled, with why
    disabled: Callable[[Mapping[str, Any], Any], Mapping[str, str]] = lambda values, comp: {}
    #: a caption under a sidebar group when the data lacks something: (group, competition) -> text
    group_note: Callable[[str, Any], str | None] = lambda group, comp: None
    #: the sliders can reach combinations a rule between parameters forbids (spotGEO's ε ≤ τ):
    #: values -> (values the metric can use, a note for the page, or None)
    repair: Callable[[dict], tuple[dict, str | None]] = lambda values: (values, None)
    #: the repaired values checked against the data, once per run: (scorer, values) -> the
    #: engine's ``Params`` (raises ``InputError``); e.g. the difficulty family also resolves its setting
    check: Callable[[Any, dict], Any] = lambda scorer, values: scorer.check(values)
    #: why checked values cannot be scored, in words for the page (markdown, user strings escaped)
    problem: Callable[[Any], str] = lambda err: f"{md(err.file)}: {md(err.problem)}."
    #: values the data suggests for parameters (competition -> {name: value}): e.g. the theme
    #: weights of a weights file; they start the sidebar, and the reset button returns to them
    data_defaults: Callable[[Any], Mapping[str, Any]] = lambda comp: {}
    #: files the app takes beside the engine's inputs (kept with the upload, e.g. essay texts)
    extra_inputs: tuple[InputSpec, ...] = ()
    #: a few words on the loaded data: competition -> "9 submissions, 500 essays"
    describe: Callable[[Any], str] = lambda comp: f"{len(comp.submission_names)} submissions"
    #: extra work done once per server on the default data, so every first visit is served
    #: warm: (store entry, the app's default parameters) -> None (the leaderboard and the
    #: guardrail warnings at the defaults are always computed)
    warm: Callable[[Any, Mapping[str, Any]], None] = lambda entry, params: None
    #: drawn in the sidebar of the shared pages too, when they examine this family (the
    #: difficulty family's dataset choice, so a shared page's link keeps the dataset)
    sidebar_extra: Callable[[], None] = lambda: None
    #: how the pages name the family's built-in sample ("SST-2 sample data")
    sample_label: str = "sample data"
    #: controls the family draws on every page of its own (the sidebar's dataset choice), in the link
    controls: tuple[Control, ...] = ()
    #: before the sidebar reads the link (``app.py``): follow what the link names beyond the
    #: parameters, once per session — a shipped dataset — so the parameters are read on its data
    follow_link: Callable[[], None] = lambda: None
    #: the family in a sentence, for the start page: what it scores and for whom
    about: str = ""
    #: its menu's label in the top navigation when its title's first word is too long for every menu
    #: to fit at 1024 pixels (``lab.view.nav.section_label``)
    menu: str = ""
    #: the sidebar: the group drawn first (Custom: the across rule, the main choice); controls the
    #: current choices leave unused are hidden rather than greyed (``disabled`` says which); a
    #: mapping parameter's sliders (one per data value) folded in a collapsed group
    lead_group: str | None = None
    hide_unused: bool = False
    fold_mappings: bool = False
    #: the keys of a mapping parameter that the current values use: (name, values, competition) ->
    #: keys, or None for all (Custom: the item weights of the current grouping only)
    mapping_keys: Callable[[str, Mapping[str, Any], Any], Sequence[str] | None] | None = None
    #: the Data page's guided import, drawn below the upload boxes: (the page's key, the chosen
    #: files {role: (name, bytes)}) -> None; and the files to load as the import says (e.g. with
    #: the recipe it wrote), from the page's state: (key, files) -> files
    import_panel: Callable[[str, Mapping[str, Any]], None] | None = None
    import_bundle: Callable[[str, Mapping[str, Any]], Mapping[str, Any]] = lambda key, files: files


#: The UI module of each family (it defines ``UI = FamilyUI(...)``), in navigation order; a
#: family's pages appear once its module is listed here. Imported on first use.
MODULES = {
    "shovel-ready": "lab.families.shovel_ready",
    "spotgeo": "lab.families.spotgeo",
    "qa": "lab.families.qa",
    "difficulty": "lab.families.difficulty",
    "custom": "lab.families.custom",
}


def family_pick(key: str) -> Control:
    """The choice of family on a shared page (``lab.view.nav.pick_family`` draws it): ``family=``."""
    return Control(key, "family", scope="shared")


def stage_table_toggle(key: str) -> Control:
    """The grouped stage table's "every stage's score and rank" switch (``lab.view.tables``)."""
    return Control(f"{key}_every_score", "every", "bool", False)


#: the platforms *Export the metric* writes for (``lab.view.export_button.TARGETS`` words them)
EXPORT_TARGETS = ("codabench", "kaggle", "python")


def export_target(key: str) -> Control:
    """*Export the metric*'s choice of platform (``lab.view.export_button``)."""
    return Control(f"{key}_target", "export", default=EXPORT_TARGETS[0], options=EXPORT_TARGETS, scope="shared")


SEED_MAX = 2**32 - 1  # numpy's seeds

#: the Data page's choice of family
DATA_FAMILY = Control("data_family", "family", scope="shared")
#: Rank intervals
IV_B = Control("rob_b", "iv_b", default=1000, options=(200, 500, 1000, 2000, 5000), scope="shared")
IV_CONFIDENCE = Control("rob_confidence", "iv_confidence", default=0.95, options=(0.8, 0.9, 0.95, 0.99),
                        scope="shared")
IV_SEED = Control("rob_seed", "iv_seed", "int", 0, low=0, high=SEED_MAX, step=1, scope="shared")
IV_TOP_K = Control("rob_top_k", "iv_top", "int", 3, low=1, step=1)  # at most the number of teams
IV_ALL = Control("rob_simultaneous", "iv_all", "bool", False, scope="shared")
#: Stability map (the axes: the family's parameters; a mapping parameter's key: the data's)
MAP_X = Control("rob_map_x", "map_x")
MAP_Y = Control("rob_map_y", "map_y")
MAP_X_KEY = Control("rob_map_x_key", "map_x_key")
MAP_Y_KEY = Control("rob_map_y_key", "map_y_key")
MAP_CELLS = Control("rob_map_n", "map_cells", default=21, options=(5, 11, 21), scope="shared")
MAP_NOISE = Control("rob_map_noise", "map_noise", "bool", False, scope="shared")
#: Compare settings (A, the pinned settings, is set by its buttons)
CMP_PIN = Control("rob_cmp_pin", "pin", "json")
CMP_NOISE = Control("rob_cmp_noise", "cmp_noise", "bool", False, scope="shared")
#: Shake-up
SHK_PUBLIC = Control("rob_shk_fraction", "shk_public", "int", 30, low=5, high=95, step=5, scope="shared")
SHK_SPLITS = Control("rob_shk_splits", "shk_splits", default=1000, options=(200, 500, 1000, 2000), scope="shared")
SHK_SEED = Control("rob_shk_seed", "shk_seed", "int", 0, low=0, high=SEED_MAX, step=1, scope="shared")
SHK_TEAM = Control("rob_shk_team", "shk_team")  # one of the teams; default the public board's leader
SHK_TAU = Control("rob_shk_tau", "shk_tau", default=0.8, options=(0.5, 0.6, 0.7, 0.8, 0.9), scope="shared")
SHK_SWEEP = Control("rob_shk_sweep", "shk_sweep", "bool", False, scope="shared")
SHK_TARGET = Control("rob_shk_target", "shk_target", default="winner", options=("winner", "tau"), scope="shared")
SHK_PROB = Control("rob_shk_prob", "shk_prob", default=0.9, options=(0.5, 0.75, 0.8, 0.9, 0.95, 0.99),
                   scope="shared")
SHK_ADVICE = Control("rob_shk_advice", "shk_advice", "bool", False, scope="shared")
SHK_SEP = Control("rob_shk_sep", "shk_sep", "text", "", max_chars=8)
SHK_KEEP = Control("rob_shk_keep", "shk_keep", default=1, options=(1, 2), scope="shared")

#: The shared pages, after every family's section.
SHARED_PAGES = (PageSpec("pages/start.py", "Start", None,  # no icon: every menu fits at 1024 pixels
                         "What each family and page answers, where to begin, and the glossary."),
                PageSpec("pages/data.py", "Data", ":material/upload_file:",
                         "Score your own files: upload a competition of any family, save and load presets.",
                         (DATA_FAMILY,)))
#: How sure is the ranking? Pages that work on whichever family is active (issue 11).
ROBUSTNESS_PAGES = (
    PageSpec("pages/robustness_intervals.py", "Rank intervals", ":material/error_outline:",
             "Who could have won with another sample of the data, and which ranks each team could hold.",
             (family_pick("rob_iv_family"), IV_B, IV_CONFIDENCE, IV_SEED, IV_TOP_K, IV_ALL)),
    PageSpec("pages/robustness_stability.py", "Stability map", ":material/grid_on:",
             "Where, over a grid of two parameters, the winner or the order changes.",
             (family_pick("rob_map_family"), MAP_X, MAP_Y, MAP_X_KEY, MAP_Y_KEY, MAP_CELLS, MAP_NOISE)),
    PageSpec("pages/robustness_compare.py", "Compare settings", ":material/compare_arrows:",
             "What changes between two settings: every team's move and the stage where it moved.",
             (family_pick("rob_cmp_family"), CMP_PIN, CMP_NOISE)),
    PageSpec("pages/robustness_shakeup.py", "Shake-up", ":material/shuffle:",
             "How much the final board will differ from the public one, and how big the public split must be.",
             (family_pick("rob_shk_family"), SHK_PUBLIC, SHK_SPLITS, SHK_SEED, SHK_TEAM, SHK_TAU, SHK_SWEEP,
              SHK_TARGET, SHK_PROB, SHK_ADVICE, SHK_SEP, SHK_KEEP)),
)


def ui(fam: Family) -> FamilyUI:
    """The app's declaration for ``fam`` (an empty one for a family without pages yet)."""
    mod = MODULES.get(fam.name)
    return import_module(mod).UI if mod else FamilyUI(pages=())

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


@dataclass(frozen=True)
class PageSpec:
    """One page: its file (``pages/<family>_<page>.py``, relative to the app folder), title and
    icon. Its address is the file stem (see ``lab.view.nav`` for why)."""

    path: str
    title: str
    icon: str

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
    #: stage id -> (short name, what moves a team into the stage), for the takeaways
    #: (``lab.words.story``): ``{"final_score": ("the final score", "the efficiency boost")}``
    stage_words: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: extra work done once per server on the default data, so every first visit is served
    #: warm: (store entry, the app's default parameters) -> None (the leaderboard and the
    #: guardrail warnings at the defaults are always computed)
    warm: Callable[[Any, Mapping[str, Any]], None] = lambda entry, params: None
    #: drawn in the sidebar of the shared pages too, when they examine this family (the
    #: difficulty family's dataset choice, so a shared page's link keeps the dataset)
    sidebar_extra: Callable[[], None] = lambda: None
    #: how the pages name the family's built-in sample ("SST-2 sample data")
    sample_label: str = "sample data"
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


#: The shared pages, after every family's section.
SHARED_PAGES = (PageSpec("pages/data.py", "Data", ":material/upload_file:"),)
#: How sure is the ranking? Pages that work on whichever family is active (issue 11).
ROBUSTNESS_PAGES = (
    PageSpec("pages/robustness_intervals.py", "Rank intervals", ":material/error_outline:"),
    PageSpec("pages/robustness_stability.py", "Stability map", ":material/grid_on:"),
    PageSpec("pages/robustness_compare.py", "Compare settings", ":material/compare_arrows:"),
    PageSpec("pages/robustness_shakeup.py", "Shake-up", ":material/shuffle:"),
)


def ui(fam: Family) -> FamilyUI:
    """The app's declaration for ``fam`` (an empty one for a family without pages yet)."""
    mod = MODULES.get(fam.name)
    return import_module(mod).UI if mod else FamilyUI(pages=())

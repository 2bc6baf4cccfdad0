"""The app's side of each metric family: its pages and its few UI-only choices.

The engine's registry (``scoring.registry``) declares what a family computes; this module
declares how the app shows it. The navigation, the sidebar and the data page are built
from both. Adding a family's pages is one :class:`FamilyUI` entry in :data:`UI`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scoring.core.family import Family, InputSpec


@dataclass(frozen=True)
class PageSpec:
    """One page: its file (``pages/<family>_<page>.py``, relative to the app folder), title and
    icon. Its address is the file stem (see ``lab.nav`` for why)."""

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
    #: files the app takes beside the engine's inputs (kept with the upload, e.g. essay texts)
    extra_inputs: tuple[InputSpec, ...] = ()
    #: a few words on the loaded data: competition -> "9 submissions, 500 essays"
    describe: Callable[[Any], str] = lambda comp: f"{len(comp.submission_names)} submissions"


def _shovel_ready_disabled(values, comp) -> dict[str, str]:
    if not comp.attributes:
        why = "No demographics loaded: nothing to aggregate."
    elif not values.get("attributes"):
        why = "No attribute chosen: nothing to aggregate."
    else:
        return {}
    return {"alpha": why}


def _shovel_ready_note(group: str, comp) -> str | None:
    if group == "Bias aggregation" and not comp.attributes:
        return "No demographics loaded: the bias score equals the segment score."
    return None


UI: dict[str, FamilyUI] = {
    "shovel-ready": FamilyUI(
        pages=(
            PageSpec("pages/leaderboard.py", "Leaderboard", ":material/leaderboard:"),
            PageSpec("pages/demographics.py", "Demographics", ":material/groups:"),
            PageSpec("pages/efficiency.py", "Efficiency", ":material/speed:"),
            PageSpec("pages/segments.py", "Segments", ":material/segment:"),
            PageSpec("pages/worked_examples.py", "Worked examples", ":material/calculate:"),
        ),
        defaults={"attributes": ("ell_status",)},
        link_keys=("team",),
        reset_label="Reset to memo defaults",
        disabled=_shovel_ready_disabled,
        group_note=_shovel_ready_note,
        describe=lambda comp: f"{len(comp.submission_names)} submissions, {len(comp.essays)} essays",
        extra_inputs=(InputSpec("essays", "Essay texts", "id plus a text column (text, essay_text or full_text): "
                                "the Segments page then shows the words instead of numbered boxes", required=False,
                                path="essays.csv"),),
    ),
}

#: The shared pages, after every family's section.
SHARED_PAGES = (PageSpec("pages/data.py", "Data", ":material/upload_file:"),)


def ui(fam: Family) -> FamilyUI:
    """The app's declaration for ``fam`` (an empty one for a family without pages yet)."""
    return UI.get(fam.name) or FamilyUI(pages=())

"""A metric family, declared as data, and its additive per-unit statistics.

A family says what it reads (:class:`InputSpec`), what can be tuned (a
:class:`~scoring.core.params.ParamSpec`), the stages of its leaderboard (:class:`Stage`,
each with its direction), how to load its inputs and how to build its scorer. The command
line, the app's navigation and sidebar, and the docs are built from these declarations
(``scoring.registry``).

Every family's scorer can also give :class:`UnitStats`: what each team earned on each
scoring unit (an essay, a sequence, a question, a sample) as additive sums, and one pure
function from summed statistics to scores. A leaderboard is "sum the units, then score";
bootstrap replicates (a weighted sum), subsets and shards all stand on it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .params import ParamSpec
from .ranking import rank_lex, rank_rows
from .threads import blas_threads


@dataclass(frozen=True)
class Lazy:
    """A function of another module, imported on its first call: how a family names its
    ``load``, ``scorer`` and ``validate``, so that declaring the family (and ``import scoring``)
    imports none of its engine. ``module`` is absolute, or relative to ``package`` (as for
    :func:`importlib.import_module`): ``Lazy(".scorer", "Scorer", __package__)``."""

    module: str
    name: str
    package: str | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return getattr(import_module(self.module, self.package), self.name)(*args, **kwargs)


@dataclass(frozen=True)
class Stage:
    """One scored column of a leaderboard: ``id`` (its score column), ``rank`` (its rank
    column), a label, its direction, and a plain-words explanation."""

    id: str
    label: str
    rank: str
    higher_is_better: bool = True
    help: str = ""


#: the file ending of each input kind
SUFFIXES = {"csv": ".csv", "json": ".json", "text": ".txt"}


@dataclass(frozen=True)
class InputSpec:
    """One input of a family: ``role`` is the keyword of the family's loader."""

    role: str
    label: str
    help: str
    kind: str = "csv"  # csv | json | text
    required: bool = True
    many: bool = False  # several files and/or folders (submissions)
    cli: str = ""  # "" -> --role-with-hyphens
    #: where the input sits in a data folder (``ground_truth.csv``, ``submissions/``)
    path: str = ""
    #: the file name endings the input takes (without the dot; none: the kind's own suffix)
    types: tuple[str, ...] = ()

    @property
    def flag(self) -> str:
        return self.cli or "--" + self.role.replace("_", "-")

    @property
    def suffix(self) -> str:
        return SUFFIXES[self.kind]

    @property
    def accepts(self) -> tuple[str, ...]:
        """The endings of the file names the input takes: ``("csv", "tsv", "txt")``."""
        return self.types or (self.suffix.lstrip("."),)


def submissions_input(kind: str = "csv", columns: str = "") -> InputSpec:
    """The submissions input every family reads the same way: files and/or folders (every file
    of the kind inside), each named by its file stem, under ``submissions/``; ``columns`` (the
    columns of a CSV submission) goes in the help."""
    what = f": {columns}" if columns else ""
    return InputSpec("submissions", "Submissions", f"submission {kind.upper()} files and/or folders (every "
                     f"*{SUFFIXES[kind]} inside){what}; name = file stem", kind=kind, many=True, path="submissions/")


@dataclass(frozen=True)
class Command:
    """An extra command-line command of a family (besides ``leaderboard``)."""

    help: str
    configure: Callable[[Any], None]  # adds the arguments to an argparse parser
    run: Callable[[Any], str]  # parsed arguments -> output text


@dataclass(frozen=True)
class Family:
    """A metric family, as data (see the module doc)."""

    name: str  # the command-line word and registry key: "shovel-ready"
    key: str  # short namespace of widget keys: "sr"
    title: str
    summary: str
    unit: str  # the scoring unit, singular: "essay"
    inputs: tuple[InputSpec, ...]
    params: ParamSpec
    stages: tuple[Stage, ...]
    columns: tuple[str, ...]  # the CSV contract, in order
    load: Callable[..., Any]  # load(**{role: source}, progress=None) -> competition
    scorer: Callable[[Any], Any]  # competition -> scorer (its .leaderboard(**params))
    document: Callable[[pd.DataFrame, Mapping[str, Any]], dict]  # the JSON contract
    #: the data's values for ``choices_from`` parameters: competition -> {key: values}
    context: Callable[[Any], Mapping[str, Sequence[str]]] = lambda comp: {}
    sample_dir: Path | None = None
    commands: Mapping[str, Command] = field(default_factory=dict)
    #: pairs of parameters whose stability map is offered first, e.g. (("alpha", "w"),)
    stability: tuple[tuple[str, str], ...] = ()
    #: the CSV columns of a given leaderboard when they depend on the data (QA: five per
    #: theme after ``columns``); None: ``columns``
    csv_columns: Callable[[pd.DataFrame], Sequence[str]] | None = None
    #: every problem of a bundle, file by file: ``validate(**{role: source}, limit=)`` ->
    #: ``[InputError, …]`` (``scoring.core.validate``); None: a load's first problem
    validate: Callable[..., list] | None = None

    def output_columns(self, lb: pd.DataFrame) -> list[str]:
        """The CSV columns of the leaderboard ``lb``, in order."""
        return list(self.csv_columns(lb) if self.csv_columns is not None else self.columns)
    #: ``load`` takes ``workers=`` and ``scheduler=`` (a process pool / a Dask cluster): the
    #: command line then offers ``--workers`` and ``--scheduler``
    parallel: bool = False

    @property
    def final(self) -> Stage:
        return self.stages[-1]

    def stage(self, stage_id: str) -> Stage:
        for s in self.stages:
            if s.id == stage_id:
                return s
        raise KeyError(stage_id)

    def input(self, role: str) -> InputSpec:
        for i in self.inputs:
            if i.role == role:
                return i
        raise KeyError(role)


@dataclass(frozen=True)
class Box:
    """A final score that is a known function of one stage's values (Shovel-Ready: the softmin of
    the group scores), for a score interval that holds where that function is far from linear
    (:func:`scoring.core.robustness.bootstrap`): ``range(low, high, full)`` is the lowest and the
    highest final score (teams each) over the box ``low ≤ stage ≤ high`` (teams × the stage's
    columns), given the full data's scores ``full``; ``words`` says what the interval is, with
    ``{pct}`` for the confidence; ``note``, where the data are known to make the interval less
    sure than it is built to be, says so with what was measured ("" when not)."""

    stage: str
    range: Callable[[np.ndarray, np.ndarray, Mapping[str, np.ndarray]], tuple[np.ndarray, np.ndarray]]
    words: str
    note: str = ""


@dataclass
class UnitStats:
    """Additive statistics of every scoring unit of a competition.

    ``team`` (units × teams × k): what each team earned on each unit; ``shared`` (units × j):
    what does not depend on the team (ground-truth counts); ``cell`` (units): the unit's cell
    (demographic group, theme, split; 0 when there is none), in ``[0, n_cells)``, which is
    also the stratum of a bootstrap resample. ``score(team_sums, shared_sums)`` maps cell
    sums, shaped (…, cells, teams, k) and (…, cells, j), to stage scores (…, teams) keyed by
    stage id; it is pure and vectorised over the leading axes.
    """

    units: Sequence[str]
    cell: np.ndarray
    n_cells: int
    team: np.ndarray
    shared: np.ndarray
    score: Callable[..., Mapping[str, np.ndarray]]
    final: str
    higher_is_better: bool = True
    names: Sequence[str] = ()
    #: a second score that breaks ties of ``final`` (same direction), e.g. spotGEO's MSE
    tiebreak: str | None = None
    #: the work of scoring one field (one replicate, one board), in steps, where the family
    #: states it: bootstraps and shake-ups check fields × cost before they start
    #: (``limits.check_fields``); 0: not counted
    cost: float = 0.0
    #: the score interval from a joint interval of one stage (:class:`Box`); None: the percentile interval
    box: Box | None = None
    #: a stage that pools every unit with no small cell weighing more (Shovel-Ready: the segment score):
    #: the close calls of the letters are then the pairs sharing a letter that it sets far apart
    #: (:func:`scoring.core.ranksets.rank_sets`'s ``check``); None: the final score's own differences
    pooled: str | None = None

    def __post_init__(self):
        self.cell = np.asarray(self.cell, dtype=np.int64)
        u = len(self.cell)
        if self.team.ndim != 3 or self.team.shape[0] != u or self.shared.ndim != 2 or self.shared.shape[0] != u:
            raise ValueError(f"expected team (units, teams, k) and shared (units, j) for {u} units, "
                             f"got {self.team.shape} and {self.shared.shape}")

    @property
    def n_units(self) -> int:
        return len(self.cell)

    def cell_sums(self, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Sums per cell: ``(team (cells, teams, k), shared (cells, j))``; with ``weights``
        (replicates × units) one weighted sum per replicate, ``(B, cells, teams, k)`` and
        ``(B, cells, j)``, one batched matrix product per distinct cell size. The units are
        sorted by cell once (``np.add.reduceat`` over the sorted rows), so the cost is
        proportional to the data, never cells × units, and the Python steps grow with the
        number of distinct cell sizes, not with the cells."""
        u, t, k = self.team.shape
        j = self.shared.shape[1]
        flat = self.team.reshape(u, t * k)
        order = np.argsort(self.cell, kind="stable")
        counts = np.bincount(self.cell, minlength=self.n_cells)
        starts = np.cumsum(counts) - counts
        has = np.flatnonzero(counts)
        if weights is None:
            team = np.zeros((self.n_cells, t * k))
            shared = np.zeros((self.n_cells, j))
            if len(has):
                team[has] = np.add.reduceat(flat[order], starts[has], axis=0)
                shared[has] = np.add.reduceat(self.shared[order], starts[has], axis=0)
            return team.reshape(self.n_cells, t, k), shared
        w = np.asarray(weights, dtype=float)
        b = w.shape[0]
        team = np.zeros((b, self.n_cells, t * k))
        shared = np.zeros((b, self.n_cells, j))
        # cells of equal size together: one batched product per distinct cell size (at most
        # ~sqrt(2·units) of them), never a Python step per cell — 20,000 one-essay groups
        # are one broadcast multiplication
        sizes = counts[has]
        for s in np.unique(sizes).tolist():
            cells = has[sizes == s]
            idx = order[starts[cells][:, None] + np.arange(s)]  # (cells of size s, s): their units
            if s == 1:
                wg = w[:, idx[:, 0], None]  # (b, cells, 1)
                team[:, cells] = wg * flat[idx[:, 0]]
                shared[:, cells] = wg * self.shared[idx[:, 0]]
            else:
                wg = np.ascontiguousarray(w[:, idx].transpose(1, 0, 2))  # (cells, b, s)
                with blas_threads(1):  # thin products: spinning BLAS threads cost more than they give
                    team[:, cells] = np.matmul(wg, flat[idx]).transpose(1, 0, 2)
                    shared[:, cells] = np.matmul(wg, self.shared[idx]).transpose(1, 0, 2)
        return team.reshape(b, self.n_cells, t, k), shared

    def scores(self, weights: np.ndarray | None = None, teams: Sequence[int] | None = None) -> Mapping[str, np.ndarray]:
        """Stage scores from the (weighted) cell sums; ``teams`` (positions) scores a field
        of only those teams — it matters where one team's score depends on the others' (the
        Shovel-Ready boost is relative to the best score), so ``score`` takes it when it can."""
        t, s = self.cell_sums(weights)
        if teams is None:
            return self.score(t, s)
        idx = np.asarray(teams, dtype=np.int64)
        t = t[..., idx, :]
        if "teams" in inspect.signature(self.score).parameters:
            return self.score(t, s, teams=idx)
        return self.score(t, s)

    def final_ranks(self, scores: Mapping[str, np.ndarray]) -> np.ndarray:
        """Ranks of the final stage, (…, teams), with the tie-break key when there is one."""
        final = np.asarray(scores[self.final], dtype=float)
        keys = [final] if self.tiebreak is None else [final, np.asarray(scores[self.tiebreak], dtype=float)]
        if final.ndim == 1:
            return rank_lex(keys, higher_is_better=self.higher_is_better)
        if len(keys) == 1:
            return rank_rows(final, higher_is_better=self.higher_is_better)
        flat = [k.reshape(-1, k.shape[-1]) for k in keys]
        out = np.stack([rank_lex([k[r] for k in flat], higher_is_better=self.higher_is_better)
                        for r in range(flat[0].shape[0])])
        return out.reshape(final.shape)

"""The Custom family's parameters (a recipe's stage choices) and its four stages, declared once."""

from __future__ import annotations

from ..core.family import Stage
from ..core.params import Param, ParamSpec

DATA, NORM, GROUPS, ACROSS, EFF = "Missing values", "1 · Normalise", "2 · Within groups", "3 · Across", "4 · Efficiency"
NONE = "none"

MISSING = ("skip", "worst", "zero", "fixed")
NORMALISE = ("none", "minmax", "zscore", "rank")
WITHIN = ("mean", "size", "difficulty")
ACROSS_RULES = ("mean", "weighted", "winrate", "softmin", "worst", "borda", "copeland", "kemeny")
EFFICIENCY = ("none", "boost", "penalty")
#: Kemeny–Young is solved exactly (dynamic programme over subsets) up to this many teams;
#: beyond, a labelled approximation (local search from the Copeland order)
KEMENY_EXACT_MAX = 14
#: where many fields are scored at once (bootstrap replicates, shake-up splits, a stability map's
#: cells), exact up to this many teams (2¹⁰·10² per field: ~1 ms; 14 teams cost ~25 ms per field,
#: 25 s for a thousand), the labelled approximation beyond
KEMENY_EXACT_MANY = 10

ACROSS_LABELS = {
    "mean": "mean", "weighted": "weighted mean (a weight per item)", "winrate": "mean win rate (HELM)",
    "softmin": "softmin α", "worst": "worst item", "borda": "Borda count", "copeland": "Copeland",
    "kemeny": "Kemeny–Young",
}


PARAMS = ParamSpec([
    Param("missing", "skip", kind="choice", choices=MISSING, label="Missing cells", group=DATA,
          choice_labels={"skip": "skip (as HELM)", "worst": "the unit's worst value", "zero": "zero",
                         "fixed": "a fixed value"},
          help="a missing cell: skip it (the team is scored on the units it has, as HELM does), the unit's "
               "worst value, 0, or the fixed value below"),
    Param("missing_value", 0.0, label="Fixed value for a missing cell", group=DATA,
          help="the value of a missing cell when missing = fixed (in the unit's own scale)"),
    Param("normalise", "none", kind="choice", choices=NORMALISE, label="Normalise per unit", group=NORM,
          choice_labels={"none": "none", "minmax": "min–max to [0, 1]", "zscore": "z-score",
                         "rank": "win rate within the unit"},
          help="per unit, before anything is combined: none (a lower-is-better unit is negated), min–max to "
               "[0, 1] (best 1), z-score, or rank (the share of other teams beaten, ties half: HELM's per-column "
               "win rate)"),
    Param("group_by", NONE, kind="choice", choices_from="group_columns", label="Group units by", group=GROUPS,
          help="a column of the units table whose values group the units (none: every unit is its own item)"),
    Param("within", "mean", kind="choice", choices=WITHIN, label="Within a group", group=GROUPS,
          choice_labels={"mean": "mean", "size": "size-weighted mean", "difficulty": "difficulty splits"},
          help="how a group's units combine: mean; size-weighted (the weight column, e.g. number of "
               "instances); or difficulty splits (the difficulty family's rule: the group's units sorted by the "
               "weight column as a difficulty, cut into splits weighing 1, 2, ..., a value v earning "
               "reward x v + penalty x (1 - v), over what a perfect team earns)"),
    Param("weight_column", NONE, kind="choice", choices_from="numeric_columns", label="Weight column",
          group=GROUPS, help="the units table's numeric column: the size (size-weighted) or the difficulty, "
                             "higher = harder (difficulty splits)"),
    Param("splits", 3, kind="int", label="Difficulty splits n", low=1, high=7, group=GROUPS,
          help="difficulty splits: how many splits a group's units are cut into, easiest first (1 = no split)"),
    Param("reward", 1.0, label="Reward d", low=0.0, low_open=True, slider=(0.1, 2.0, 0.1), group=GROUPS,
          help="difficulty splits: what a unit's value v earns, d x v (> 0)"),
    Param("penalty", -1.0, label="Penalty e", high=0.0, slider=(-2.0, 0.0, 0.1), group=GROUPS,
          help="difficulty splits: what the rest costs, e x (1 - v) (<= 0)"),
    Param("across", "mean", kind="choice", choices=ACROSS_RULES, label="Across groups / units", group=ACROSS,
          choice_labels=ACROSS_LABELS,
          help="how the items (groups, else units) combine into one score: mean, weighted, HELM's mean win "
               "rate, softmin alpha, worst item, or the social-choice rules Borda, Copeland and Kemeny-Young "
               f"(exact up to {KEMENY_EXACT_MAX} teams, a labelled local-search approximation beyond)"),
    Param("alpha", 50.0, label="Softmin α", low=0.0, allow_inf=True, slider=(0.0, 100.0, 1.0), group=ACROSS,
          inf_label="α = ∞ (worst item)",
          help="softmin temperature alpha >= 0 (or inf): 0 = size-weighted mean, inf = the worst item"),
    Param("weights", None, kind="mapping", label="Item weights", low=0.0, choices_from="items",
          slider=(0.0, 1.0, 0.01), cli=None, group=ACROSS,
          help="weight of each item (group or unit) for the weighted rule, >= 0, at least one > 0; "
               "normalised over the items a team has; none: equal weights"),
    Param("efficiency", "none", kind="choice", choices=EFFICIENCY, label="Efficiency", group=EFF,
          choice_labels={"none": "none", "boost": "boost (Shovel-Ready)", "penalty": "penalty (QA)"},
          help="none; the Shovel-Ready boost for fast teams within a band of the best; or the QA penalty: "
               "score x T / time when the time exceeds T"),
    Param("band", 0.05, label="Eligibility band b", low=0.0, slider=(0.0, 0.5, 0.01), group=EFF,
          help="boost: eligible when best / score <= 1 + b"),
    Param("max_boost", 0.05, label="Maximum boost m", low=0.0, slider=(0.0, 0.5, 0.01), group=EFF,
          help="boost: the fastest eligible team gets 1 + m"),
    Param("window", 0.2, label="Slowdown window v", low=0.0, low_open=True, slider=(0.01, 1.0, 0.01), group=EFF,
          help="boost: the boost falls to 0 at runtime / fastest = 1 + v"),
    Param("threshold", 1.0, label="Time threshold T", low=0.0, low_open=True, slider=(0.01, 10.0, 0.01),
          group=EFF, help="penalty: a team whose time exceeds T scores score x T / time (T in the teams "
                          "table's unit)"),
])

STAGES = (
    Stage("normalised", "Normalised mean", "normalised_rank",
          help="After stage 1: the mean over the units of the normalised values (missing cells as the policy "
               "says)."),
    Stage("grouped", "Group mean", "grouped_rank",
          help="After stage 2: the mean over the groups of each group's (weighted) mean; without groups, the "
               "same as the normalised mean."),
    Stage("aggregate", "Aggregate", "aggregate_rank",
          help="After stage 3: the across rule over the groups (or units): mean, weighted, mean win rate, "
               "softmin, worst, Borda, Copeland or Kemeny-Young."),
    Stage("final_score", "Final score", "rank",
          help="After stage 4: the aggregate with the efficiency boost or time penalty (or unchanged)."),
)

COLUMNS = ("submission", "normalised", "normalised_rank", "grouped", "grouped_rank", "aggregate", "aggregate_rank",
           "runtime", "efficiency_factor", "final_score", "rank")

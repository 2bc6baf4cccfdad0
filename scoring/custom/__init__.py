"""The Custom family (docs/custom.md): a leaderboard composed from a recipe — normalise per
unit, combine within groups, combine across groups or units (mean, weighted, HELM's mean win
rate, softmin, worst, Borda, Copeland, Kemeny–Young), then an efficiency boost or penalty —
over any team × unit results table, published leaderboards included."""

from .competition import Competition, load_competition
from .family import FAMILY, csv_columns, leaderboard_document
from .params import KEMENY_EXACT_MAX, PARAMS, STAGES
from .recipe import Recipe, parse_recipe, read_recipe, recipe_json
from .scorer import Scorer

__all__ = ["FAMILY", "KEMENY_EXACT_MAX", "PARAMS", "STAGES", "Competition", "Recipe", "Scorer", "csv_columns",
           "leaderboard_document", "load_competition", "parse_recipe", "read_recipe", "recipe_json"]

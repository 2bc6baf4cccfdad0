"""Plain words for the metric's terms, shown as tooltips (column and heading help)."""

FP1 = ("The Feedback Prize 2021 score: a predicted segment counts as found when it and a true segment "
       "each cover at least half of the other; F1 per discourse type, averaged over the types.")
SOFTMIN = ("A soft minimum: an average of a team's group scores that gives its weaker groups more weight. "
           "The temperature α sets how much more: at 0 it is the plain average over essays, at ∞ only the "
           "worst group counts.")
BETA = ("β is the share of a team's bias-aware score that each group contributes (its softmin weight): "
        "a group's size times e^(−α·its score), scaled so that each team's shares add up to 100 %. The weaker "
        "the group, the larger its share.")
ALPHA = "The softmin temperature: how strongly a team's weakest groups count (0: not at all; ∞: only the worst)."
O_P = "o_P: the share of the predicted segment's words that lie inside the true segment."
O_G = "o_G: the share of the true segment's words that the prediction covers."
IOU = "IoU: the words the two segments share, divided by the words either of them has."
D_E = ("d[E]: the probability the prediction gave to the true effectiveness label (Effective / Ineffective) "
       "of the segment it matched.")
TP = "The fractional true positive of a match: w × overlap quality + (1 − w) × d[E], between 0 and 1."
QUALITY = "How the overlap of a match is graded: 1 for any match (binary), max(o_P, o_G), or IoU."
GROUP_SIZE = "Essays in the group; a group under 30 essays is small, and its score rests on few essays."

# ---- the same terms in a few words, for the sentence that first uses them -----------------------
FP1_IN_WORDS = "the Feedback Prize 2021 score: F1 over segments, a match overlapping by half or more both ways"
SOFTMIN_IN_WORDS = "a *softmin* over demographic groups: an average weighing a team's weaker groups more, the more so the larger α"
BETA_IN_WORDS = "its share of the team's bias-aware score; a team's β add up to 100 %, the weaker group's share larger"

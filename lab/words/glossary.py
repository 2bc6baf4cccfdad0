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

# ---- the glossary: every term a page uses without explaining it on the spot --------------------------
#: plain words for each term (the Start page lists them; a page names the ones it uses in a tooltip)
TERMS = {
    "memo": "The *Shovel-Ready Competition — Unified Metric* memo: the organisers' document that defines the "
            "Shovel-Ready metric, with worked examples and its defaults (w 0.5, overlap threshold 0.51, α 50, "
            "band and boost 5 %). The Worked examples page recomputes its numbers; the sidebar's reset returns to "
            "its defaults.",
    "attribute": "A column of the demographics file — e.g. ell_status (English-language-learner status) or "
                 "gender; each of its values is a group of essays, and (missing) is the group of essays without "
                 "a value.",
    "fragile result": "A conclusion that rests on little: a small group deciding a team's score, or two teams "
                      "the data cannot tell apart. The page says which, and why.",
    "bootstrap replicate": "A new sample of the scoring units (essays, questions, sequences) drawn from the data "
                           "with replacement — some twice, some not at all — on which every team is scored again. "
                           "B replicates give B scores per team.",
    "paired": "Two teams compared on the difference of their scores replicate by replicate: what moves both "
              "together (an easy draw) cancels out.",
    "standard error (SE)": "How much a number would change with another sample of the data: the spread of its "
                           "values over the replicates. A gap of 2 SE or more is clear; under 1 SE it is noise.",
    "studentised": "Divided by its standard error, so that gaps measured on different scales compare: a gap of "
                   "3.8 SE is 3.8 times its typical noise.",
    "max-t": "The correction for making many comparisons at once: a gap counts as clear only when it beats the "
             "largest studentised gap that noise alone gives over all the pairs together, so that every set and "
             "letter holds at the chosen confidence at the same time.",
    "established better": "Ahead of another team by a clear (studentised, max-t corrected) gap at the chosen "
                          "confidence.",
    "letters": "Two teams that share a letter cannot be told apart at the chosen confidence; two with no letter in "
               "common can.",
    "possible ranks": "The ranks the data cannot rule out for a team at the chosen confidence (its rank set).",
    "Kendall τ": "How much two rankings agree: 1 the same order, 0 no relation, −1 reversed — from the share of "
                 "pairs of teams in the same order on both.",
    "public and private boards": "During a competition the public board scores a share of the units (the public "
                                 "split); the final, private board scores the rest.",
    "P(winner holds)": "Public leader wins: the share of random splits in which the team first on the public board "
                       "is also first on the private one.",
    "P(same rank)": "The share of random splits in which a team holds the same rank on both boards.",
    "Expected |move|": "How many places a team moves between the public and the private board, up or down, on "
                       "average over the splits.",
    "P(first)": "The share of random splits in which a team is first — on the public board, or on the private one.",
    "nested splits": "With one seed, a larger public share keeps the smaller one's units and adds more (no new "
                     "draw), so the curves over public fractions move with the fraction, not with the luck of "
                     "fresh draws.",
    "border radius τ": "spotGEO's matching distance: a prediction within τ pixels of a true object can match it (a "
                       "true positive); farther away it is a false alarm and the object a miss.",
    "softmin": SOFTMIN,
    "α": ALPHA,
    "β": BETA,
}


def tooltip(*terms: str) -> str:
    """The definitions of ``terms`` as one tooltip (markdown): ``**term** — definition``, a paragraph
    each. An unknown term raises ``KeyError`` (a page names only terms the glossary has)."""
    return "\n\n".join(f"**{t}** — {TERMS[t]}" for t in terms)

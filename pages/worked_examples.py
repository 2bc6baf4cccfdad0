"""Worked examples: the memo's own numbers, recomputed live by the engine beside what the memo prints."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

import scoring
from lab.charts import segments as seg_charts
from lab.families import shovel_ready as sr
from lab.view import current, links, tables
from lab.words import glossary
from lab.words import shovel_ready as words
from scoring.shovel_ready import memo

FAM = sr.FAM

takeaway_slot = current.header(
    FAM, "Worked examples",
    "Every example in the memo — the *Shovel-Ready Competition — Unified Metric* memo, the organisers' document "
    "that defines this metric and its defaults — computed live by the engine and set beside the number the memo "
    "prints (“memo says”). A ✓ means the engine agrees with the memo to the precision the memo "
    "prints; a ✗ would point at a disagreement worth investigating.",
    about_data=False,  # the memo's examples, not the loaded data: no warnings about the data
    words=("memo", "softmin", "α"),
)

OK, BAD = "✓", "✗"
CHECKS: list[bool] = []  # every ✓/✗ shown, for the takeaway


def _agrees(engine: float, printed: float, decimals: int) -> str:
    """✓ when the engine's value rounds to the memo's printed value (half a unit in the last digit)."""
    return OK if memo.agrees(engine, printed, decimals) else BAD


def _mark(ok: bool) -> str:
    CHECKS.append(bool(ok))
    return OK if ok else BAD


def _span(words) -> str:
    """Word indices as runs ('10–29'); 'discarded' for a discarded segment."""
    return "discarded" if not words else seg_charts.span_text(list(words))


# --------------------------------------------------------------------------------------------
# 1. Overlap removal (memo §1)
# --------------------------------------------------------------------------------------------
st.subheader("1 · Overlap removal (memo §1)")
st.markdown(
    "An essay of 100 words with six predicted segments, listed in the order the memo gives them. "
    "The engine sorts them by their first word, then removes every word an earlier segment "
    "already used; a shortened segment survives only when it keeps at least 2 contiguous words."
)

MEMO_SEGMENTS, MEMO_AFTER = memo.OVERLAP_SEGMENTS, memo.OVERLAP_AFTER

names = list(MEMO_SEGMENTS)
after = scoring.remove_overlaps([range(a, b + 1) for a, b in MEMO_SEGMENTS.values()])
rows = []
for name, (a, b), kept in zip(names, MEMO_SEGMENTS.values(), after, strict=True):
    said = MEMO_AFTER[name]
    memo_words = None if said is None else tuple(range(said[0], said[1] + 1))
    engine_words = None if kept is None else tuple(kept)
    rows.append(
        {
            "Segment": name,
            "Submitted": f"{a}–{b}",
            "Engine: after removal": _span(engine_words),
            "Memo says": _span(memo_words),
            "Agrees": _mark(engine_words == memo_words),
        }
    )
overlap_table = pd.DataFrame(rows)
st.dataframe(overlap_table, hide_index=True, width="stretch", key="ex_overlap_table")

st.plotly_chart(seg_charts.overlap_removal_figure(MEMO_SEGMENTS, after), key="ex_overlap_chart")

# --------------------------------------------------------------------------------------------
# 2. Fractional true positives (memo §2.5, Table 1)
# --------------------------------------------------------------------------------------------
st.subheader("2 · Fractional true positives (memo §2.5, Table 1)")
st.markdown(
    "Five prediction/ground-truth pairs (threshold 0.51). Each pair's fractional true positive is "
    "`w × q + (1 − w) × d[E]`, where `q` is the overlap quality (max-overlap or IoU) and `d[E]` the "
    "probability the prediction gives the correct effectiveness label. The memo prints the values "
    "for `w = 0.5`; for any other `w` the “memo says” column applies the memo's formula to the "
    "overlaps and probabilities the memo states for each example."
)
w = links.draw(st.slider, "Segmentation weight w for these examples (separate from the sidebar's w)", sr.EX_W,
               step=0.05, help="The memo prints Table 1 at w = 0.5; move it to see the formula at other weights. "
                               "This slider only changes this table, not the leaderboard.")
st.caption(f"The sidebar's w (for the leaderboard) is {current.params(FAM)['w']:g}; this slider starts at the memo's 0.5 "
           "and moves only Table 1 below.")

TABLE1, THRESHOLD = memo.TABLE1, memo.TABLE1_THRESHOLD


rows = []
for ex in TABLE1:
    p, g = set(ex["pred"]), set(ex["gt"])
    inter = len(p & g)
    engine = {
        q: scoring.fractional_tp(ex["pred"], ex["gt"], d=ex["d"], w=w, quality=q, threshold=THRESHOLD)
        for q in ("max", "iou")
    }
    printed = {q: memo.printed_tp(ex, q, w) for q in ("max", "iou")}
    rows.append(
        {
            "Example": ex["ex"],
            "Prediction": _span(p),
            "Ground truth": _span(g),
            "o_P": inter / len(p),
            "o_G": inter / len(g),
            "IoU": inter / len(p | g),
            "d[E]": ex["d"],
            "Max: engine": engine["max"],
            "Max: memo says": printed["max"],
            "IoU: engine": engine["iou"],
            "IoU: memo says": printed["iou"],
            "Agrees": _mark(_agrees(engine["max"], printed["max"], memo.TABLE1_DECIMALS) == OK
                            and _agrees(engine["iou"], printed["iou"], memo.TABLE1_DECIMALS) == OK),
        }
    )
table1 = pd.DataFrame(rows)
st.dataframe(
    table1,
    hide_index=True,
    width="stretch",
    key="ex_table1",
    column_config={
        **tables.number_columns(c for c in table1.columns if c not in ("Example", "Prediction", "Ground truth", "Agrees")),
        **{c: st.column_config.NumberColumn(c, format="%.3f", help=h)
           for c, h in (("o_P", glossary.O_P), ("o_G", glossary.O_G), ("IoU", glossary.IOU), ("d[E]", glossary.D_E))},
    },
)

st.plotly_chart(
    seg_charts.segment_pairs_figure([(ex["ex"], ex["gt"], ex["pred"]) for ex in TABLE1]), key="ex_table1_chart"
)

# --------------------------------------------------------------------------------------------
# 3. Bias aggregation (memo §3)
# --------------------------------------------------------------------------------------------
st.subheader("3 · Bias aggregation (memo §3)", help=glossary.SOFTMIN)
st.markdown(
    "Two equally sized sub-populations. Model *m* scores 0.7 on both; model *n* scores 0.6 and "
    "0.8. Uniform averaging (α = 0) ranks them the same; the hard minimum (α = ∞) gives *m* 0.7 "
    "and *n* 0.6. The softmin in between penalises *n* more as α grows."
)
alpha = links.draw(st.slider, "Temperature α for this example", sr.EX_ALPHA, step=1.0)
MODELS, MEMO_SOFTMIN = memo.SOFTMIN_MODELS, memo.SOFTMIN_PRINTED
rows = []
for model, scores in MODELS.items():
    uniform = float(scoring.softmin(list(scores), [1, 1], alpha=0.0)[0])
    hard = float(scoring.softmin(list(scores), [1, 1], alpha=math.inf)[0])
    live, betas = scoring.softmin(list(scores), [1, 1], alpha=alpha)
    rows.append(
        {
            "Model": model,
            "Group scores": " / ".join(f"{s:.1f}" for s in scores),
            "α = 0: engine": uniform,
            "α = 0: memo says": MEMO_SOFTMIN[model][0.0],
            "α = ∞: engine": hard,
            "α = ∞: memo says": MEMO_SOFTMIN[model][math.inf],
            f"α = {alpha:g}: engine": float(live),
            f"β at α = {alpha:g}": " / ".join(f"{b:.3f}" for b in betas),
            "Agrees": _mark(_agrees(uniform, MEMO_SOFTMIN[model][0.0], 1) == OK
                            and _agrees(hard, MEMO_SOFTMIN[model][math.inf], 1) == OK),
        }
    )
softmin_table = pd.DataFrame(rows)
st.dataframe(softmin_table, hide_index=True, width="stretch", key="ex_softmin_table")

# --------------------------------------------------------------------------------------------
# 4. Efficiency boost (memo §4.1, Tables 2 and 3)
# --------------------------------------------------------------------------------------------
st.subheader("4 · Efficiency boost (memo §4.1, Tables 2 and 3)")
st.markdown(
    "The memo's two leaderboards with its parameters: eligibility band 5 %, maximum boost 5 %, "
    "slowdown window 20 %. The memo prints boosted scores rounded to two or three decimals; "
    "agreement is checked to the precision printed."
)

TABLE2, TABLE2_ORDER, TABLE3, TABLE3_ORDER = memo.TABLE2, memo.TABLE2_ORDER, memo.TABLE3, memo.TABLE3_ORDER


def _efficiency_section(title: str, table: list, memo_order: list[str], key: str) -> None:
    scores = {m: s for m, s, _, _, _ in table}
    runtimes = {m: r for m, _, r, _, _ in table}
    res = scoring.efficiency_boost(scores, runtimes, **memo.BOOST_PARAMS)
    res = res.set_index("submission")
    rows = []
    for model, score, runtime, printed, decimals in table:
        final = float(res.loc[model, "final_score"])
        rows.append(
            {
                "Model": model,
                "Metric score": score,
                "Runtime (s)": runtime,
                "Eligible": "yes" if bool(res.loc[model, "eligible"]) else "no",
                "Boost": f"{100 * float(res.loc[model, 'boost']):.3f} %",
                "Boosted score: engine": final,
                "Boosted score: memo says": printed,
                "Rank: engine": int(res.loc[model, "rank"]),
                "Rank: memo says": memo_order.index(model) + 1,
                "Agrees": _mark(_agrees(final, printed, decimals) == OK
                                and int(res.loc[model, "rank"]) == memo_order.index(model) + 1),
            }
        )
    st.markdown(f"**{title}**")
    st.dataframe(
        pd.DataFrame(rows),
        hide_index=True,
        width="stretch",
        key=key,
        column_config={
            "Boosted score: engine": st.column_config.NumberColumn(format="%.5f"),
        },
    )
    engine_order = list(res.sort_values(["rank"]).index)
    st.caption(
        f"Final order — engine: {', '.join(engine_order)}; memo says: {', '.join(memo_order)} "
        f"{_mark(engine_order == memo_order)}"
    )


_efficiency_section("Table 2 — example (a)", TABLE2, TABLE2_ORDER, "ex_table2")
_efficiency_section("Table 3 — example (b)", TABLE3, TABLE3_ORDER, "ex_table3")
takeaway_slot.info(words.worked_takeaway(CHECKS), icon=current.TAKEAWAY_ICON)

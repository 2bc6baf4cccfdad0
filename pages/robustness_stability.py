"""Stability map: how the ranking and the winner change over a grid of two parameters."""

import streamlit as st

from lab import robustness as rb
from lab.charts.robustness import stability_figure
from lab.families import MAP_CELLS, MAP_NOISE, MAP_X, MAP_X_KEY, MAP_Y, MAP_Y_KEY
from lab.view import current, links, state
from lab.view.draw import memo
from lab.words.text import MD, md
from scoring.claims import intervals as claims
from scoring.core.stability import axis

fam = rb.begin(
    "rob_map_family", "Stability map",
    "Pick two parameters: every cell of the grid scores the leaderboard with those two values (the others as in the "
    "sidebar) and compares its ranking with the current one — Kendall's τ, 1 when the order is the same, lower as "
    "teams swap. The cell's border names its winner; black lines mark where the winner flips; the star is where you "
    "are. Click a cell to load its settings.",
    words=("Kendall τ",),
)
names, pairs, default = rb.map_choices(fam)
c1, c2, c3 = st.columns([2, 2, 1])
xname = links.draw(c1.selectbox, "Across", MAP_X, options=names, default=default[0],
                   format_func=lambda n: fam.params[n].title)
yname = links.draw(c2.selectbox, "Up", MAP_Y, options=names, default=default[1],
                   format_func=lambda n: fam.params[n].title)
n = links.draw(c3.select_slider, "Cells a side", MAP_CELLS)
if pairs:
    st.caption("Suggested pairs: " + "; ".join(f"{fam.params[a].title} × {fam.params[b].title}" for a, b in pairs))
if xname == yname:
    st.info("Pick two different parameters.")
    st.stop()
ctx = fam.context(current.competition(fam))
axes = []
for name, ctl in ((xname, MAP_X_KEY), (yname, MAP_Y_KEY)):
    p = fam.params[name]
    key = None
    if p.kind == "mapping":
        keys = list(ctx.get(p.choices_from, ()))
        key = links.draw(st.selectbox, f"Which {p.choices_from[:-1] if p.choices_from.endswith('s') else p.choices_from} "
                         f"of {p.title}", ctl, options=keys, default=keys[0] if keys else None)
    axes.append(axis(fam, name, key=key, n=n))
x, y = axes
grid = rb.map_with_progress(fam, x, y)
valid = grid[grid["valid"]]
here = current.params(fam)
st.markdown(claims.stability(grid, style=MD))


@st.fragment
def noise() -> None:
    """The toggle reruns this part alone (the map above stays as drawn)."""
    if len(valid) and links.draw(st.toggle, "Which of these winners could have won here anyway?", MAP_NOISE,
                                 help=f"Paired comparisons of the teams over {rb.DEFAULT_B:,} resamples of the {fam.unit}s "
                                     "at the current settings, 95 % confidence (as on the Rank intervals page)."):
        with st.spinner(f"Resampling the {fam.unit}s…"):
            iv = rb.intervals(fam)
        could = [str(t) for t in iv.index[iv["could_win"].to_numpy(dtype=bool)]]
        named = sorted({w for cell in valid["winners"] for w in cell})
        st.markdown(claims.stability_noise(could, named, style=MD))

noise()


def _value(ax, settings):
    v = settings.get(ax.param)
    return (v or {}).get(ax.key, 0.0) if ax.key else v


def _title(ax):
    return fam.params[ax.param].title + (f": {ax.key}" if ax.key else "")


@st.fragment
def map_and_pick() -> None:
    """Clicking a cell reruns this part alone; loading its settings reruns the whole page."""
    fig = memo(stability_figure, grid, x_label=_title(x), y_label=_title(y),
               current=(_value(x, here), _value(y, here)), colors=current.colors(fam))
    event = st.plotly_chart(fig, key="rob_map_chart", on_select="rerun", selection_mode="points")
    picked = (event.selection.get("points") or []) if event else []
    if picked and "customdata" in picked[0]:
        xs, ys = picked[0]["customdata"]
        vx = next(v for v in x.values if str(v) == xs)
        vy = next(v for v in y.values if str(v) == ys)
        chosen = {}
        for ax, v in ((x, vx), (y, vy)):
            chosen[ax.param] = {**(here.get(ax.param) or {}), ax.key: v} if ax.key else v
        st.caption(f"Selected: {md(x.label)} = {md(vx)}, {md(y.label)} = {md(vy)}.")
        if st.button("Load these settings into the sidebar", key="rob_map_load", type="primary"):
            state.apply(fam, fam.params.to_json({**here, **chosen}), ctx)
            st.rerun()


map_and_pick()

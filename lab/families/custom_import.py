"""The Custom family's guided import on the Data page: what was understood of the results table
— the team column, each column's role with the reason, the direction of each unit, the missing
marks, ``a/b`` cells, repeated names, rows and columns without any value, the published
aggregate's make-up — each one a control; the recipe it writes (shown, downloadable) is loaded
with the files, so the link and the command line read the table as the page showed it.

Every value lives in the session's state (widget keys under ``<page key>_gi``, the proposal
cached there for the file's content): :func:`panel` draws it, :func:`bundle` (the load
button's callback) reads the same state into the files to load.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from scoring.core.errors import InputError
from scoring.custom.columns import ROLE_LABELS, ROLES, Column
from scoring.custom.guided import Proposal, propose, recipe_document, teams_options
from scoring.custom.reading import SPLITS
from scoring.custom.recipe import (
    DUPLICATES,
    EXTRA_FIELD,
    READ_AS,
    Recipe,
    ResultsOptions,
    TeamsOptions,
    read_recipe,
)

from ..words.text import md

SPLIT_LABELS = {"refuse": "refuse (an error naming the cell)", "first": "the first number", "second": "the second number",
                "mean": "their mean", "both": "both, as two units"}
DUPLICATE_LABELS = {"refuse": "refuse (an error naming both rows)", "number": "number them: name (2), name (3)",
                    "first": "keep the first row"}
EXTRA_LABELS = {"refuse": "refuse", "first": "the header lacks the first column's name (row names)",
                "last": "a separator after the last field"}
MISSING_POLICIES = ("", "skip", "worst", "zero")
_BY_LABEL = {v: k for k, v in ROLE_LABELS.items()}


def _key(page: str, what: str) -> str:
    return f"{page}_gi_{what}"


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "little") + p)
    return h.hexdigest()[:16]


def _recipe(files: Mapping[str, Any]) -> tuple[Recipe, str | None]:
    """The uploaded recipe (or an empty one) and why it cannot be read."""
    item = files.get("recipe")
    if not item:
        return Recipe(), None
    name, data = item
    try:
        return read_recipe(data, name), None
    except InputError as e:
        return Recipe(), str(e)


def _reading(page: str, d: str, base: ResultsOptions) -> ResultsOptions:
    """The reading options the page's controls hold (the uploaded recipe's where untouched)."""
    ss = st.session_state
    marks = ss.get(_key(page, f"{d}_marks"))
    given = {"team_column": ss.get(_key(page, f"{d}_team"), base.team_column),
             "extra_field": ss.get(_key(page, f"{d}_extra"), base.extra_field),
             "missing_marks": tuple(marks) if marks is not None else base.missing_marks,
             "split": ss.get(_key(page, f"{d}_split"), base.split)}
    return ResultsOptions(**{**{k: getattr(base, k) for k in ResultsOptions.__dataclass_fields__}, **given})


def proposal(page: str, files: Mapping[str, Any]) -> tuple[str, Proposal, Recipe, str | None]:
    """``(content key, proposal, uploaded recipe, the recipe's problem)`` for the chosen files,
    computed once per content and reading choice (kept in the session)."""
    name, data = files["results"]
    recipe, problem = _recipe(files)
    rec_bytes = files["recipe"][1] if files.get("recipe") else b""
    d = _digest(data, rec_bytes)
    reading = _reading(page, d, recipe.results)
    ck = (d, repr(reading))
    cache = st.session_state.get(_key(page, "cache"))
    if not cache or cache[0] != ck:
        cache = (ck, propose(data, name, reading))
        st.session_state[_key(page, "cache")] = cache
    return d, cache[1], recipe, problem


def _frame(p: Proposal) -> pd.DataFrame:
    """The roles table as the proposal has it (the editor's starting values)."""
    rows = []
    for c in p.columns:
        by = p.base.missing_by.get(c.name, "")
        rows.append({"Column": c.name, "Role": ROLE_LABELS[c.role], "Lower is better": bool(c.lower),
                     "Check": "⚠ a guess" if c.asked else "", "Why": _why(c), "Cells": _cells(c),
                     "Missing cells": "" if by == "" else str(by)})
    return pd.DataFrame(rows, columns=["Column", "Role", "Lower is better", "Check", "Why", "Cells", "Missing cells"])


def _why(c: Column) -> str:
    return c.reason + (f"; lower is better: {c.lower_reason}" if c.lower and c.lower_reason else
                       f"; {c.lower_reason}" if c.lower_reason else "")


def _cells(c: Column) -> str:
    parts = [f"{c.numbers} numbers"]
    if c.missing:
        parts.append(f"{c.missing} missing")
    if c.pairs:
        parts.append(f"{c.pairs} a/b")
    if c.text:
        parts.append(f"{c.text} text ({', '.join(repr(t) for t in c.text_seen[:3])})")
    return ", ".join(parts)


def _edited(page: str, d: str, p: Proposal) -> pd.DataFrame:
    """The roles table with the editor's changes (its state: the rows edited, by position)."""
    df = _frame(p)
    state = st.session_state.get(_key(page, f"{d}_roles_{_shape(p)}")) or {}
    for i, change in (state.get("edited_rows") or {}).items():
        for col, value in change.items():
            if col in ("Role", "Lower is better", "Missing cells") and int(i) < len(df):
                df.at[int(i), col] = value
    return df


def _shape(p: Proposal) -> str:
    """The editor's key part: its rows (a new reading gives new rows, and a fresh editor)."""
    return _digest(json.dumps([c.name for c in p.columns]).encode())


def _missing_by(df: pd.DataFrame, base: ResultsOptions) -> dict[str, Any]:
    out = dict(base.missing_by)
    for name, text in zip(df["Column"], df["Missing cells"], strict=True):
        text = str(text or "").strip()
        if not text:
            out.pop(name, None)
        elif text in MISSING_POLICIES:
            out[name] = text
        else:
            try:
                out[name] = float(text)
            except ValueError:
                raise ValueError(f"the missing-cell policy of {name!r} must be skip, worst, zero or a number, "
                                 f"got {text!r}") from None
    return out


def options(page: str, files: Mapping[str, Any]) -> tuple[Proposal, ResultsOptions, TeamsOptions | None, Recipe]:
    """The proposal and the options the page's controls hold now (raises ``ValueError`` for a
    control that cannot be read)."""
    d, p, recipe, _ = proposal(page, files)
    ss = st.session_state
    if p.long:
        res = p.options(drop_empty=bool(ss.get(_key(page, f"{d}_drop"), p.drop_empty)),
                        lower_is_better=tuple(ss.get(_key(page, f"{d}_lower"), p.base.lower_is_better)))
    else:
        df = _edited(page, d, p)
        roles = {n: _BY_LABEL.get(r, "unit") for n, r in zip(df["Column"], df["Role"], strict=True)}
        lower = dict(zip(df["Column"], df["Lower is better"].astype(bool), strict=True))
        res = p.options(roles=roles, lower=lower, missing_by=_missing_by(df, p.base),
                        duplicates=ss.get(_key(page, f"{d}_dups"), p.duplicates),
                        drop_empty=bool(ss.get(_key(page, f"{d}_drop"), p.drop_empty)))
    teams = None
    if files.get("teams"):
        t = recipe.teams
        teams = TeamsOptions(ss.get(_key(page, f"{d}_t_read"), t.read_as),
                             ss.get(_key(page, f"{d}_t_runtime"), t.runtime_column),
                             ss.get(_key(page, f"{d}_t_team"), t.team_column),
                             tuple(ss.get(_key(page, f"{d}_t_ignore"), t.ignore_columns)))
    return p, res, teams, recipe


def bundle(page: str, files: Mapping[str, Any]) -> Mapping[str, Any]:
    """The files to load: the chosen ones, with the recipe the guided import writes."""
    if not files.get("results"):
        return files
    _, res, teams, recipe = options(page, files)
    doc = recipe_document(recipe, res, teams)
    return {**files, "recipe": ("recipe.json", (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode())}


# ---- drawing -------------------------------------------------------------------------------------
def panel(page: str, files: Mapping[str, Any]) -> None:
    """The guided import (module doc), below the upload boxes."""
    if not files.get("results"):
        return
    d, p, recipe, bad_recipe = proposal(page, files)
    st.subheader("Guided import: what was read")
    if bad_recipe:
        st.error(f"The recipe cannot be read, so its reading options are not used: {md(bad_recipe)}",
                 icon=":material/error:")
    _reading_controls(page, d, p)
    if p.problem is not None:
        e = p.problem
        st.error(f"**{md(e.file)}**{'' if e.row is None else f', row {e.row}'}: {md(e.problem)}",
                 icon=":material/error:")
        st.caption("Change the reading choices above (the team column, the header's shape, the missing marks) "
                   "or fix the file.")
        return
    if p.long:
        st.markdown(f"**{md(p.name)}**: a long table of {p.rows:,} rows (team, unit, value…): each unit (and "
                    "metric) is a unit of the leaderboard.")
        st.multiselect("Lower is better for (units or metrics)", list(p.base.lower_is_better),
                       key=_key(page, f"{d}_lower"), accept_new_options=True,
                       help="the names of the units or metrics where a lower value is better")
    else:
        _summary(p)
        _roles(page, d, p)
    _teams(page, d, files, recipe)
    _written(page, files)


def _reading_controls(page: str, d: str, p: Proposal) -> None:
    ss = st.session_state
    cols = [c.name for c in p.columns]
    c1, c2 = st.columns(2)
    with c1:
        options = list(dict.fromkeys([x for x in (p.team_column, *p.text_columns, *cols) if x]))
        if options and not p.long:
            if ss.get(_key(page, f"{d}_team")) not in options:
                ss[_key(page, f"{d}_team")] = p.team_column if p.team_column in options else options[0]
            st.selectbox("Team column", options, key=_key(page, f"{d}_team"),
                         help="the column naming the teams (models, submissions); found by its name (team, model, "
                              "name …), else the first column of text")
        marks = list(dict.fromkeys([*p.missing_marks, *p.found_marks]))
        if ss.get(_key(page, f"{d}_marks")) is None:
            ss[_key(page, f"{d}_marks")] = list(p.missing_marks)
        st.multiselect("Missing marks", marks, key=_key(page, f"{d}_marks"), accept_new_options=True,
                       format_func=lambda m: "(empty)" if m == "" else m,
                       help="cells that mean 'no value' (compared without case); the ones found in the table "
                            "are proposed" + (f": {', '.join(repr(m) for m in p.found_marks)}" if p.found_marks else ""))
    with c2:
        if p.extra_field != "refuse" or ss.get(_key(page, f"{d}_extra"), "refuse") != "refuse":
            ss.setdefault(_key(page, f"{d}_extra"), p.extra_field)
            st.selectbox("Every row has one field more than the header", list(EXTRA_FIELD), key=_key(page, f"{d}_extra"),
                         format_func=EXTRA_LABELS.get,
                         help="the header lacks the first column's name (row names, as pandas writes an index), "
                              "or every row ends with a separator")
        if p.pairs or p.split != "refuse":
            ss.setdefault(_key(page, f"{d}_split"), p.split)
            st.selectbox(f"Cells holding two numbers a/b ({p.pairs} found)", list(SPLITS),
                         key=_key(page, f"{d}_split"), format_func=SPLIT_LABELS.get,
                         help="GLUE's F1/accuracy cells: which number a unit takes (the published scores use the mean)")
        if p.repeated or p.duplicates != "refuse":
            ss.setdefault(_key(page, f"{d}_dups"), p.duplicates)
            st.selectbox(f"Team names given twice ({p.repeated} repeats)", list(DUPLICATES),
                         key=_key(page, f"{d}_dups"), format_func=DUPLICATE_LABELS.get)
        empty = len(p.empty_teams) + len(p.empty_units)
        if empty or p.drop_empty:
            ss.setdefault(_key(page, f"{d}_drop"), p.drop_empty)
            what = [f"{n} {w}{'s' if n != 1 else ''}" for n, w in ((len(p.empty_teams), "team"),
                                                                 (len(p.empty_units), "column")) if n]
            st.checkbox(f"Leave out the {' and the '.join(what) or 'rows and columns'} without any value",
                        key=_key(page, f"{d}_drop"),
                        help="the recipe's drop_empty: said in the load report and the leaderboard's notes; off, "
                             "each one is an error naming it")


def _summary(p: Proposal) -> None:
    count = {r: sum(c.role == r for c in p.columns) for r in ROLES}
    parts = [f"{count['unit']} unit(s)"] + [f"{count[r]} {ROLE_LABELS[r].split(' (')[0]}" for r in ROLES[1:] if count[r]]
    st.markdown(f"**{md(p.name)}**: {p.rows:,} rows, team column **{md(p.team_column)}**; "
                f"{md(', '.join(parts))}.")
    if p.asked:
        st.warning(f"{len(p.asked)} column(s) are guesses to check (⚠ in the table): "
                   + md(", ".join(repr(c.name) for c in p.asked[:8]) + (" …" if len(p.asked) > 8 else ""))
                   + ". Change a role or a direction in the table; the recipe follows.", icon=":material/help:")
    if p.fit is not None:
        st.info(md(p.fit.sentence()[:1].upper() + p.fit.sentence()[1:]) + ".", icon=":material/functions:")


def _roles(page: str, d: str, p: Proposal) -> None:
    labels = [ROLE_LABELS[r] for r in ROLES]
    st.data_editor(
        _frame(p), key=_key(page, f"{d}_roles_{_shape(p)}"), hide_index=True, num_rows="fixed",
        disabled=["Column", "Check", "Why", "Cells"],
        column_config={
            "Role": st.column_config.SelectboxColumn("Role", options=labels, required=True,
                                                     help="unit: scored; published aggregate or rank: kept beside "
                                                          "the leaderboard; metadata or left out: not scored"),
            "Lower is better": st.column_config.CheckboxColumn("Lower is better", help="for a unit: lower values "
                                                               "are better (an error, a time, a loss)"),
            "Missing cells": st.column_config.TextColumn("Missing cells", help="this unit's own missing-cell "
                                                         "policy: skip, worst, zero or a number (empty: the stage's)"),
        })


def _teams(page: str, d: str, files: Mapping[str, Any], recipe: Recipe) -> None:
    item = files.get("teams")
    if not item:
        return
    name, data = item
    try:
        guess, cols = teams_options(data, name, recipe.teams)
    except InputError as e:
        st.error(md(e), icon=":material/error:")
        return
    ss = st.session_state
    st.markdown(f"**{md(name)}** (teams: runtimes)")
    ss.setdefault(_key(page, f"{d}_t_read"), guess.read_as)
    c1, c2 = st.columns(2)
    c1.selectbox("Read the teams table as", list(READ_AS), key=_key(page, f"{d}_t_read"),
                 format_func={"table": "a team column and a runtime column",
                              "results": "a results table: a runtime per unit, their mean"}.get)
    with c2:
        if ss[_key(page, f"{d}_t_read")] == "table":
            numeric = [c for c in cols if c != "team"]
            if ss.get(_key(page, f"{d}_t_runtime")) not in numeric:
                ss[_key(page, f"{d}_t_runtime")] = "runtime" if "runtime" in numeric else (numeric[0] if numeric else None)
            st.selectbox("Runtime column", numeric, key=_key(page, f"{d}_t_runtime"))
        else:
            ss.setdefault(_key(page, f"{d}_t_team"), guess.team_column)
            st.selectbox("Its team column (empty: found as in the results)", [None, *cols],
                         key=_key(page, f"{d}_t_team"), format_func=lambda c: "(found)" if c is None else c)
            st.multiselect("Columns left out of the runtime mean", cols, key=_key(page, f"{d}_t_ignore"))


def _written(page: str, files: Mapping[str, Any]) -> None:
    try:
        written = bundle(page, files)["recipe"][1].decode()
    except ValueError as e:
        st.error(md(e), icon=":material/error:")
        return
    with st.expander("The recipe this import writes (loaded with the files: the link and the command line read "
                     "the table the same way)"):
        st.code(written, language="json")
        st.download_button("Download this recipe (JSON)", written.encode(), file_name="recipe.json",
                           mime="application/json", key=_key(page, "download"), on_click="ignore")
        extra = " --teams " + files["teams"][0] if files.get("teams") else ""
        extra += " --units " + files["units"][0] if files.get("units") else ""
        st.code(f"python -m scoring custom leaderboard --results {files['results'][0]} --recipe recipe.json{extra}",
                language="bash")

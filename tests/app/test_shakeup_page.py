"""The Shake-up page on the hand-worked competition (tests/app/helpers.py).

Two essays: whatever the public fraction, each split puts one essay on the public board and the
other on the private one (one essay per ell_status group: the two one-essay cells are pooled
into one stratum), so both splits are enumerated and every probability is exact:
  C scores 1.0 on either essay (its overlap hedge removed), above every other team even after any
    boost (B's best, 0.947 on e1, times at most 1.05 is 0.994): first on every board;
  A scores 8/9 on either essay; B 0.947 on e1 and 0 on e2 (nothing predicted there).
  e1 public: B 2nd, A 3rd publicly; e2 private: A 2nd, B 3rd — and the reverse for e2 public.
So P(the public leader wins) = 100 %; A and B always swap (P(same rank) 0, |move| 1), C never moves;
Kendall's τ = (2 concordant − 1 discordant) / 3 = 1/3 in both splits.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, TIMEOUT, figure, plain, rerun, table_with

PAGE = "pages/robustness_shakeup.py"


def _open(query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.run()
    at.switch_page(PAGE)
    return rerun(at)


def test_the_page_leads_with_the_sentence_and_exact_numbers(core_dir):
    at = _open()
    lead = plain(at.info[0].value)
    assert lead.startswith("With a 30% public split, the public leader wins the final board 100% of the time")
    assert "all 2 possible splits of the 2 essays" in lead
    t = table_with(at, "P(same rank)").set_index("Team")
    assert t.loc["C", "P(same rank)"] == 1.0 and t.loc["C", "Expected |move|"] == 0.0
    assert t.loc["A", "P(same rank)"] == 0.0 and t.loc["B", "P(same rank)"] == 0.0
    assert t.loc["A", "Expected |move|"] == 1.0 and t.loc["B", "Mean public rank"] == 2.5
    assert [m.value for m in at.metric if m.label == "Median τ"] == ["0.33"]
    # three teams: only k = 1 is below the field; C is first on both boards in both splits
    assert any(plain(c.value) == "The same teams in the top k on both boards: top 1: 100%." for c in at.caption)
    heat = figure(at, "rob_shk_heatmap")["data"][0]
    # the team picked first is the leader, C: public rank 1 and private rank 1 in every split
    assert heat["z"][0][0] == 1.0 and sum(map(sum, heat["z"])) == 1.0
    at.selectbox(key="rob_shk_team").set_value("A")
    rerun(at)
    z = figure(at, "rob_shk_heatmap")["data"][0]["z"]
    assert z[1][2] == 0.5 and z[2][1] == 0.5  # (public 2, private 3) and (public 3, private 2), half each


def test_sweep_advice_and_selection_run(core_dir):
    at = _open()
    at.toggle(key="rob_shk_sweep").set_value(True)
    rerun(at)
    fig = figure(at, "rob_shk_sweep_chart")
    p = next(tr for tr in fig["data"] if tr.get("name") == "P(winner holds)")
    assert len(p["x"]) == 19 and set(p["y"]) == {1.0}
    at.toggle(key="rob_shk_advice").set_value(True)
    rerun(at)
    text = " ".join(plain(m.value) for m in at.markdown)
    assert "is met with a test set of 2 essays" in text
    assert "team membership unknown, so one submission per team" in text.lower()
    at.text_input(key="rob_shk_sep").set_value("zz")
    rerun(at)
    assert any("No two submission names share a part" in plain(c.value) for c in at.caption)


def test_fraction_and_seed_change_the_sentence(core_dir):
    at = _open()
    at.slider(key="rob_shk_fraction").set_value(50)
    at.number_input(key="rob_shk_seed").set_value(4)
    rerun(at)
    assert plain(at.info[0].value).startswith("With a 50% public split")


def test_every_other_family_on_its_sample(sample):
    # the same engine numbers as the page's sentence, for each family at the app's defaults
    import scoring
    from lab.data.store import folder_sources
    from scoring.core.shakeup import shakeup

    for name in ("spotgeo", "qa", "difficulty"):
        at = _open({"family": name})
        lead = plain(at.info[0].value)
        fam = scoring.get(name)
        comp = fam.load(**folder_sources(fam, fam.sample_dir))
        us = fam.scorer(comp).unit_stats(**fam.params.validate(context=fam.context(comp)))
        sh = shakeup(us, 0.3, 1000, unit=fam.unit)
        assert lead == sh.sentence(), name
        assert table_with(at, "P(same rank)")["Team"].tolist() == sh.team_table()["submission"].tolist()

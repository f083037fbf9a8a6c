"""The fold-vs-check chapter's position and full-table paragraphs (issue 19) are read from the
tables: built from a tiny grid (two classes, the river, 1 and 3 opponents at two pots and 5 at
one, the hero first everywhere and last at one pot), every number they state is the table's."""

from __future__ import annotations

import pandas as pd

from analysis.guide import sections
from analysis.studies.fold_vs_check import GridSpec, run_grid


def test_position_and_full_table_paragraphs_state_the_tables_numbers(tmp_path) -> None:
    spec = GridSpec(models=("passive", "threshold"), streets=("river",), opponents=(1, 3),
                    pots=(40, 120), hands=("98s", "A2o"), positions=("first", "last"), position_pots=(120,),
                    more_opponents=(5,), more_pots=(120,), stderr=8.0, max_trials=2_000,
                    train_deals=500, seed=2)
    result = run_grid(spec)
    result.write(tmp_path)
    be = result.break_even
    assert set(be["position"]) == {"first", "last"}
    assert set(be.loc[be["model"] == "passive", "position"]) == {"first"}  # never bets: first only
    assert set(be.loc[be["opponents"] == 5, "pot"]) == {120}
    assert set(be.loc[be["position"] == "last", "pot"]) == {120}
    blocks = sections.fold_vs_check(tmp_path, {"manifest": result.manifest})
    text = " ".join(b.text for b in blocks)
    assert "**Position against passive opponents.**" in text and "first position only" in text
    mine = be[be["model"] == "threshold"].pivot_table(
        index=["street", "opponents", "pot"], columns="position", values="break_even_strength").dropna()
    assert (f"averages {mine['first'].mean():.2f} acting first and {mine['last'].mean():.2f} "
            "acting last") in text
    tables = [b.frame for b in blocks if b.kind == "table" and b.frame is not None
              and "break-even last" in b.frame.columns]
    assert len(tables) == 1
    shown = tables[0].set_index("opponents")
    for opp in (1, 3, 5):
        row = be[(be["model"] == "threshold") & (be["opponents"] == opp) & (be["pot"] == 120)]
        got = row.set_index("position")["break_even_strength"]
        assert shown.loc[opp, "break-even first"] == round(got["first"], 2)
        assert shown.loc[opp, "break-even last"] == round(got["last"], 2)
    full = be[(be["position"] == "first") & (be["model"] == "threshold") & (be["pot"] == 120)]
    top = full.set_index("opponents")["break_even_strength"]
    assert "**A full table against threshold opponents.** With 5 opponents" in text
    assert f"{top[5]:.2f} on the river ({3} opponents: {top[3]:.2f})" in text
    # the older views keep to the hero first: one row per street, opponents and pot
    first = sections.first_to_act(pd.read_parquet(tmp_path / "fold_vs_check_break_even.parquet"))
    assert set(first["position"]) == {"first"} and not first.duplicated(["model", "street", "opponents", "pot"]).any()

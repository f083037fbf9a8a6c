"""The text of each guide section, read from the study's own result tables.

One function per study, named after it: ``f(folder, index) -> list[Block]``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from .blocks import Block


def _block(kind: str, text: str = "", frame: pd.DataFrame | None = None) -> Block:
    return Block(kind, text, frame)


def _csv(folder: Path, name: str) -> pd.DataFrame | None:
    path = folder / f"{name}.csv"
    return pd.read_csv(path) if path.exists() else None


def economy(folder: Path, info: dict[str, Any]) -> list:
    """Mean bonus and penalty by street; how often effects act."""
    summary = _csv(folder, "economy_summary")
    if summary is None:
        return []
    s = summary.set_index("street")
    out = [_block("p", (
        "Every revealed board card pays its plus corner to the winner and charges its minus "
        "corner to the losers of the last betting round (RULES §1.4). Exact over every board: "
        + "; ".join(f"on the {st} the bonus averages ${r.mean_bonus:.1f} and the penalty ${r.mean_penalty:.1f}"
                    for st, r in s.iterrows())
        + ". So a player who stays in one street longer is exposed to a larger penalty; "
        f"a blue effect is active on {s['p_blue_active'].iloc[-1]:.0%} of river boards and a red "
        f"one on {s['p_red_active'].iloc[-1]:.0%}."))]
    cols = [c for c in ("street", "mean_bonus", "sd_bonus", "mean_penalty", "sd_penalty",
                        "p_blue_active", "p_red_active", "mean_net_winner_heads_up",
                        "mean_net_loser_heads_up") if c in summary.columns]
    out.append(_block("table", frame=summary[cols]))
    return out


def fold_vs_check(folder: Path, info: dict[str, Any]) -> list:
    """When folding for free is right: break-even strengths and the share of hands that should check."""
    be = _csv(folder, "fold_vs_check_break_even")
    cells = _csv(folder, "fold_vs_check")
    if be is None or cells is None:
        return []
    out = [_block("p", (
        "When nobody has bet, a Texas Hold'em player checks for free. In Dilemma Hold'em, staying "
        "in makes you a participant of the next betting round and exposes you to a larger board's "
        "penalty (and to red effects); folding escapes it only if the hand goes on without you — "
        "heads-up, folding ends the hand and you pay the current board's penalty anyway. Each "
        "cell below plays both choices on the same deals and settles them with the full rules. "
        "*Strength* is the share of two-card holdings your cards beat on the board so far."))]
    for model, sub in be.groupby("model", sort=False):
        heads_up = sub[sub["opponents"] == sub["opponents"].min()]
        multi = sub[sub["opponents"] == sub["opponents"].max()]
        fold_all = sub[sub["share_check"] < 0.5]
        text = (f"**{model} opponents.** With {int(heads_up['opponents'].iloc[0])} opponent, checking "
                f"is better for {heads_up['share_check'].mean():.0%} of hands on average; with "
                f"{int(multi['opponents'].iloc[0])} opponents for {multi['share_check'].mean():.0%}. ")
        if len(fold_all):
            worst = fold_all.sort_values("share_check").iloc[0]
            text += (f"Folding for free is right for most hands in {len(fold_all)} of {len(sub)} spots; "
                     f"the clearest is the {worst['street']} with {int(worst['opponents'])} opponents "
                     f"and a ${int(worst['pot'])} pot, where only {worst['share_check']:.0%} of hands "
                     f"should check (check with strength ≥ {worst['break_even_strength']:.2f}).")
        else:
            text += "Checking is better for most hands in every spot of the grid."
        out.append(_block("p", text))
        pivot = sub.pivot_table(index=["street", "pot"], columns="opponents",
                                values="break_even_strength").reset_index()
        order = {"flop": 0, "turn": 1, "river": 2}
        pivot = pivot.sort_values(["street", "pot"], key=lambda c: c.map(order) if c.name == "street" else c)
        pivot.columns = [str(c) if not isinstance(c, int | float) else f"{int(c)} opp"
                         for c in pivot.columns]
        out.append(_block("p", f"Break-even strength ({model}): check when your hand beats at "
                               "least this share of holdings; 0 means always check, 1 always fold."))
        out.append(_block("table", frame=pivot))
    return out


def equilibrium(folder: Path, info: dict[str, Any]) -> list:
    """Equilibrium fold-for-free frequencies, the value of the option, and the bare-deck check."""
    summary = _csv(folder, "equilibrium_summary")
    free = _csv(folder, "equilibrium_free_fold")
    option = _csv(folder, "equilibrium_option_value")
    if summary is None or free is None:
        return []
    manifest = info.get("manifest", {})
    abstractions = manifest.get("abstractions", {})
    out = [_block("p", (
        "Against fixed opponents the fold-vs-check study gives a best response. Here every player "
        "plays as well as possible: the abstracted hand is solved to an equilibrium with "
        "counterfactual regret minimisation, heads-up exactly (full-width DCFR; its distance from "
        "an equilibrium, NashConv, is computed exactly: the game is not zero-sum because the bank "
        "pays bonuses and takes penalties, so NashConv, the players' total gain from deviating, is "
        "the measure) and three-handed by Monte Carlo CFR (no exact best response; the change of "
        "its average strategy shows how settled it is). Payoffs are the real settlement's on every "
        "sampled deal. The abstraction: " + abstractions.get("hu", "") ))]
    if "three" in abstractions:
        out.append(_block("p", "Three-handed: " + abstractions["three"]))
    by = summary.pivot_table(index="label", columns="street", values="fold_free", sort=False)
    cols = [c for c in ("flop", "turn", "river", "all") if c in by.columns]
    by = (100 * by[cols]).round(2)
    facts = summary.drop_duplicates("label").set_index("label")
    by["NashConv (% pot)"] = (100 * facts["nash_conv_pot"]).round(3)
    by["avg change / 1,000 it."] = facts["avg_change_per_1000"].round(5)
    by["iterations"] = facts["iterations"]
    by = by.reset_index().rename(columns={"label": "game"})

    def share(label: str, street: str = "all") -> float:
        row = summary[(summary["label"] == label) & (summary["street"] == street)]
        return float(row["fold_free"].iloc[0]) if len(row) else float("nan")

    text = []
    if "heads-up" in set(summary["label"]):
        text.append(f"Heads-up, a player folds when nobody has bet in {_pct(share('heads-up'))} of "
                    "such decisions: folding ends the hand and the folder pays the current board's "
                    "penalty anyway, so checking is almost always at least as good.")
    if "three-handed" in set(summary["label"]):
        streets = [f"{st} {_pct(share('three-handed', st))}" for st in ("flop", "turn", "river")
                   if share("three-handed", st) == share("three-handed", st)]
        text.append(f"Three-handed it is {_pct(share('three-handed'))} ({', '.join(streets)}): "
                    "before the river a folder escapes the penalty of the later board as long as "
                    "the hand goes on without it; on the river the river exception excuses a folder "
                    "when another player loses the showdown; weak hands take those exits.")
    bare = [lab for lab in summary["label"].unique() if "bare" in lab]
    if bare:
        text.append("On the bare deck (no corners, no effects: Texas Hold'em's rules on 40 cards) "
                    "folding for free vanishes: " + ", ".join(f"{lab} {_pct(share(lab))}" for lab in bare)
                    + ": checking can never cost anything there, so folding is at best "
                    "indifferent (what remains is mostly river hands that lose either way, "
                    "within the solutions' NashConv).")
    out.append(_block("p", " ".join(text)))
    out.append(_block("p", "Share of decisions with nobody to call that fold (%), by street, and "
                           "how close each solution is:"))
    out.append(_block("table", frame=by))
    if option is not None and len(option):
        rows = option.copy()
        rows["option_value"] = rows["option_value"].round(3)
        out.append(_block("p", (
            "What the option is worth: each seat's equilibrium value with the fold-for-free action "
            "minus its value when folding is only allowed facing a bet (equilibria of general-sum "
            "games need not be unique; these are the ones the solvers found).")))
        out.append(_block("table", frame=rows[["game_players", "deck", "position", "value_with",
                                               "value_without", "option_value"]].round(3)))
    three = free[(free["label"] == "three-handed")]
    if len(three):
        piv = three.assign(fold=100 * three["fold_free"]).pivot_table(
            index=["street", "players", "position"], columns="bucket", values="fold", sort=False)
        piv = piv.round(1).reset_index()
        piv.columns = [str(c) if not isinstance(c, int | float) else f"b{int(c)}" for c in piv.columns]
        out.append(_block("p", "Three-handed, folds when nobody has bet (%) by street, players "
                               "still in, position in the round and strength bucket (b0 weakest):"))
        out.append(_block("table", frame=piv))
    out.append(_block("note", "Policy tables in the shared format (equilibrium_*_policy) let the "
                              "betting engine play these strategies."))
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def starting_hands(folder: Path, info: dict[str, Any]) -> list:
    """Top and bottom classes, and how the 40-card deck differs from Hold'em."""
    d = _csv(folder, "starting_hands_dilemma")
    h = _csv(folder, "starting_hands_holdem")
    if d is None:
        return []
    heads_up = d[d["opponents"] == 1].sort_values("rank")
    top, bottom = heads_up.head(5), heads_up.tail(3)
    out = [_block("p", (
        "Equity is the share of the pot a hand wins at showdown against random hands, ties "
        "split; against one opponent it is exact (every deal enumerated), multiway it is Monte "
        f"Carlo with the standard error shown. With 40 cards the best hand heads-up is "
        f"{top.iloc[0]['hand']} at {_pct(top.iloc[0]['equity'])}, then "
        + ", ".join(f"{r.hand} {_pct(r.equity)}" for r in top.iloc[1:].itertuples())
        + "; the worst are " + ", ".join(f"{r.hand} {_pct(r.equity)}" for r in bottom.itertuples())
        + "."))]
    if h is not None:
        hu = h[h["opponents"] == 1].set_index("hand")
        aa = hu.loc["AA", "equity"] if "AA" in hu.index else float("nan")
        out.append(_block("p", (
            f"Against Texas Hold'em (the 52-card baseline, where AA wins {_pct(aa)} heads-up) the "
            "40-card deck compresses the field: with only ten ranks, pairs and connected boards "
            "come more often, so the best hands are weaker favourites and the worst hands less "
            f"hopeless — the spread from best to worst heads-up is {_pct(heads_up['equity'].max() - heads_up['equity'].min())} "
            f"with 40 cards against {_pct(hu['equity'].max() - hu['equity'].min())} with 52.")))
    most = int(d["opponents"].max())
    if most > 1:
        multi = d[d["opponents"] == most].sort_values("rank").head(5)
        out.append(_block("p", (
            f"Against {most} random opponents the order changes: "
            + ", ".join(f"{r.hand} {_pct(r.equity)} (±{_pct(r.stderr)})" for r in multi.itertuples())
            + " lead; suited and connected hands gain on offsuit ones as the table fills.")))
    cols = ["hand", "kind", "combos", "equity", "win", "tie", "percentile"]
    out.append(_block("p", "Top ten classes heads-up (40 cards, exact):"))
    out.append(_block("table", frame=heads_up.head(10)[cols].round(4)))
    return out


def streets(folder: Path, info: dict[str, Any]) -> list:
    """Where the 40-card deck's category frequencies differ from the 52-card deck's."""
    changes = _csv(folder, "street_order_changes")
    diffs = _csv(folder, "street_deck_differences")
    if changes is None or diffs is None:
        return []
    out = [_block("p", (
        "The ranking of hands is the standard one on both decks (RULES §1.3), but how often each "
        "category turns up is not. Exact over every 5-card (flop), 6-card (turn) and 7-card "
        "(river) hand:"))]
    for st, group in changes.groupby("street", sort=False):
        pairs = [f"{r.stronger.replace('_', ' ')} is more common than {r.weaker.replace('_', ' ')} "
                 f"({_pct(r.p_stronger_dilemma)} vs {_pct(r.p_weaker_dilemma)}; with 52 cards "
                 f"{_pct(r.p_stronger_holdem)} vs {_pct(r.p_weaker_holdem)})"
                 for r in group.itertuples()]
        out.append(_block("p", f"On the **{st}** with 40 cards " + "; ".join(pairs) + "."))
    river = diffs[diffs["street"] == "river"][["category", "p_dilemma", "p_holdem", "ratio"]]
    out.append(_block("p", "By the river (best five of seven):"))
    out.append(_block("table", frame=river.round(4)))
    return out


_TITLES = {
    "dilemma_equity_vs_opponents": "Dilemma Hold'em: equity against 1-9 random opponents",
    "holdem_equity_vs_opponents": "Texas Hold'em: equity against 1-9 random opponents",
    "dilemma_vs_holdem": "The same hands on 40 and 52 cards",
    "street_probabilities": "Made-hand categories by street, 40 vs 52 cards",
    "economy_bonus": "Bonus by street (all boards)",
    "economy_penalty": "Penalty by street (all boards)",
    "economy_net_transfers": "Expected net transfer to a winner and to the losers",
    "economy_effect_activity": "How often each effect card acts",
    "equilibrium_free_fold_by_bucket": "At equilibrium: folding for free by strength and street",
    "equilibrium_free_fold_by_position": "At equilibrium: folding for free by position",
    "equilibrium_convergence": "How close the solutions are (NashConv, strategy change)",
    "equilibrium_option_value": "The value of the fold-for-free option",
}


def page_charts(study: str, charts: list[dict[str, str]]) -> list[dict[str, str]]:
    """The charts a section shows (all files stay in the folder), with readable titles."""
    shown = []
    for chart in charts:
        stem = chart["png"].removesuffix(".png")
        if study == "starting_hands" and "_heatmap_" in stem:
            game, n = stem.split("_heatmap_")
            n_opp = int(n.removesuffix("opp"))
            if n_opp not in (1, 9) and not (game == "dilemma" and n_opp == 3):
                continue
            title = (f"{'Dilemma Hold' if game == 'dilemma' else 'Texas Hold'}'em: equity of every class "
                     f"vs {n_opp} random opponent{'s' if n_opp > 1 else ''}")
        elif stem.startswith("fold_vs_check_heatmap_"):
            model, pot = stem.removeprefix("fold_vs_check_heatmap_").rsplit("_pot", 1)
            title = f"Check minus fold per class ({model} opponents, pot ${pot})"
        elif stem.startswith("fold_vs_check_break_even_"):
            title = f"Break-even hand strength ({stem.rsplit('_', 1)[1]} opponents)"
        elif stem.startswith("fold_vs_check_penalty_"):
            title = f"The gap as the board penalty grows against the pot ({stem.rsplit('_', 1)[1]} opponents)"
        else:
            title = _TITLES.get(stem, chart["title"])
        shown.append({**chart, "title": title})
    return shown

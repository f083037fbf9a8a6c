"""The text of each guide section, read from the study's own result tables.

One function per study, named after it: ``f(folder, index) -> list[Block]``.
(Over 500 lines because it holds the prose of every section; each function is short
and reads only its own study's tables.)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.studies.fold_vs_check.layout import BOARD_CLASS_TEXT, BOARD_CLASSES
from analysis.studies.made_hands import MADE_HANDS
from analysis.studies.solved_spots import GAME_STATES, mean_se

from .blocks import Block, ms, study_table
from .chapter_consistent_chart import consistent_chart  # noqa: F401  (the consistent_chart study's section)
from .chapter_end_game import end_game  # noqa: F401  (the end_game study's chapter: page.py finds it here)
from .chapter_postflop_value import postflop_value  # noqa: F401  (the postflop_value study's section)
from .chapter_preflop import preflop  # noqa: F401  (the preflop study's chapter)


def _block(kind: str, text: str = "", frame: pd.DataFrame | None = None) -> Block:
    return Block(kind, text, frame)


def _percent(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """Shares as percent with one decimal, written out (the page's number format gives small
    floats four decimals, which reads oddly in a column of percentages)."""
    return frame.assign(**{c: (100 * frame[c]).map(lambda v: f"{v:.1f}") for c in columns})


def economy(folder: Path, info: dict[str, Any]) -> list:
    """Mean bonus and penalty by street; how often effects act."""
    summary = study_table(folder, "economy_summary")
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
    """When folding for free is right against each model when the hero plays on well: break-even
    strengths, later free folds, and what a weaker continuation costs."""
    be_all = study_table(folder, "fold_vs_check_break_even")
    cells = study_table(folder, "fold_vs_check")
    if be_all is None or cells is None:
        return []
    be, cells = first_to_act(be_all), first_to_act(cells)
    by_board = study_table(folder, "fold_vs_check_break_even_by_board")
    by_board = None if by_board is None else first_to_act(by_board)
    continuation = info.get("manifest", {}).get("continuation", "")
    out = [_block("p", (
        "When nobody has bet, a Texas Hold'em player checks for free. In Dilemma Hold'em, staying "
        "in makes you a participant of the next betting round and exposes you to a larger board's "
        "penalty (and to red effects); folding escapes it only if the hand goes on without you — "
        "heads-up, folding ends the hand and you pay the current board's penalty anyway. Each "
        "cell below plays both choices on the same deals and settles them with the full rules. "
        "After checking, the hero plays on by a **best response** to the opponents' model: on "
        "every later street it checks, calls or folds for free by its strength, whichever is "
        f"worth more against that model ({continuation}). The numbers hold against the model "
        "named; the next section asks what happens when everyone plays well. The hero is "
        "**first to act** after the flop"
        + ("; acting last is compared below." if "position" in be_all.columns
           and (be_all["position"] == "last").any() else ".")))]
    out.append(_block("p", strength_text(info.get("manifest", {}).get("game", "dilemma"))))
    for model, sub in be.groupby("model", sort=False):
        heads_up = sub[sub["opponents"] == sub["opponents"].min()]
        multi = sub[sub["opponents"] == sub["opponents"].max()]
        fold_all = sub[sub["share_check"] < 0.5]
        text = (f"**{model} opponents.** Averaged over the boards a street can bring, checking is "
                f"better for {heads_up['share_check'].mean():.0%} of starting classes with "
                f"{int(heads_up['opponents'].iloc[0])} opponent and for "
                f"{multi['share_check'].mean():.0%} with {int(multi['opponents'].iloc[0])} opponents. ")
        if len(fold_all):
            worst = fold_all.sort_values("share_check").iloc[0]
            text += (f"Folding for free is right for most hands in {len(fold_all)} of {len(sub)} spots; "
                     f"the clearest is the {worst['street']} with {int(worst['opponents'])} opponents "
                     f"and a ${int(worst['pot'])} pot, where checking is better for only "
                     f"{worst['share_check']:.0%} of starting classes on average over boards (on "
                     f"the board itself: check with strength ≥ {worst['break_even_strength']:.2f}).")
        else:
            text += "Checking is better for most classes in every spot of the grid."
        text += " " + " ".join(c.sentence for c in board_claims(by_board, model))
        mine = cells[cells["model"] == model]
        if "later_fold_free" in mine and mine["street"].ne("river").any():
            early = mine[mine["street"] != "river"]
            weights = early["combos"]
            by_opp = early.groupby("opponents").apply(
                lambda g: (g["later_fold_free"] * g["combos"]).sum() / g["combos"].sum(),
                include_groups=False)
            text += (f" Having checked on the flop or turn, the best response later folds for free "
                     f"in {(early['later_fold_free'] * weights).sum() / weights.sum():.0%} of deals "
                     f"(with {by_opp.index[0]} opponent {by_opp.iloc[0]:.0%}, with {by_opp.index[-1]} "
                     f"{by_opp.iloc[-1]:.0%}).")
        out.append(_block("p", text))
        pivot = sub.pivot_table(index=["street", "pot"], columns="opponents",
                                values="break_even_strength").reset_index()
        order = {"flop": 0, "turn": 1, "river": 2}
        pivot = pivot.sort_values(["street", "pot"], key=lambda c: c.map(order) if c.name == "street" else c)
        pivot.columns = [str(c) if not isinstance(c, int | float) else f"{int(c)} opp"
                         for c in pivot.columns]
        gaps = pivot.isna().any().any()
        for col in pivot.columns[2:]:
            pivot[col] = [f"{x:.2f}" if x == x else "" for x in pivot[col]]
        out.append(_block("p", f"Break-even strength ({model}, best response after checking), "
                               "over every board the street can bring: check when your hand beats "
                               "at least this share of holdings; 0 means always check, 1 always "
                               "fold. Boards with an active effect card can differ: see below."
                               + (" A blank cell was not computed (the larger tables only at one pot)." if gaps
                                  else "")))
        out.append(_block("table", frame=pivot))
        table = board_table(by_board, model)
        if table is not None:
            out.append(_block("p", f"Break-even strength ({model}) by what you see on the board at "
                                   "the decision (" + BOARD_CLASS_TEXT + "), on average over "
                                   "such boards; only rows where some break-even is above 0; "
                                   "empty: too few deals of that kind to say:"))
            out.append(_block("table", frame=table))
    out.extend(position_blocks(be_all))
    out.extend(fullest_table_blocks(be))
    out.extend(_continuations(folder))
    return out


def first_to_act(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of the hero first to act (every row of a table written before positions)."""
    if "position" not in frame.columns:
        return frame
    return frame[frame["position"] == "first"].reset_index(drop=True)


def position_blocks(be: pd.DataFrame) -> list:
    """Acting last (after every opponent checked) against acting first, per model: the
    break-even strength and the mean gap ($ per hand, a random hand), read from the table."""
    if "position" not in be.columns:
        return []
    out = []
    for model, sub in be.groupby("model", sort=False):
        if not (sub["position"] == "last").any():
            out.append(_block("p", (
                f"**Position against {model} opponents.** They never bet, so their checks say "
                "nothing about their cards and nobody bets into you: acting first or last plays "
                "the same deals to the same money (a test holds every position to it), and the "
                "grid plays the first position only.")))
            continue
        keys = ["street", "opponents", "pot"]
        pair = sub[sub["position"].isin(["first", "last"])].pivot_table(
            index=keys, columns="position", values=["break_even_strength", "mean_gap"],
            sort=False).dropna()
        if pair.empty:
            continue
        first, last = pair["break_even_strength"]["first"], pair["break_even_strength"]["last"]
        gain = pair["mean_gap"]["last"] - pair["mean_gap"]["first"]
        move = (last - first).abs()
        street, opp, pot = move.idxmax()
        lower, higher = int((last < first - 0.005).sum()), int((last > first + 0.005).sum())
        text = (f"**Position against {model} opponents.** Acting last, every opponent has "
                "checked to you: under this model a check means a holding below its bet "
                "threshold, so the hands you meet are weaker and nobody bets behind you on "
                f"this street. Over the {len(pair)} spots computed both ways, the break-even "
                f"strength averages {first.mean():.2f} acting first and {last.mean():.2f} acting "
                f"last (lower in {lower}, higher in {higher}, within 0.005 in "
                f"{len(pair) - lower - higher}); checking instead of folding is worth "
                f"${pair['mean_gap']['first'].mean():.1f} per hand first and "
                f"${pair['mean_gap']['last'].mean():.1f} last (a random hand, mean over the "
                f"spots: position adds ${gain.mean():+.1f}, from ${gain.min():+.1f} to "
                f"${gain.max():+.1f}). The largest shift of the break-even is on the {street} "
                f"with {int(opp)} opponent{'s' if opp > 1 else ''} and a ${int(pot)} pot: "
                f"{first.loc[(street, opp, pot)]:.2f} first, {last.loc[(street, opp, pot)]:.2f} "
                "last. In the big blind you act first after the flop heads-up (the DEALER posts "
                "the small blind and acts last) and second at a fuller table, right after the "
                "small blind (RULES §1.2): nearer the first rows than the last.")
        out.append(_block("p", text))
        counts = pair.reset_index().groupby("pot")["opponents"].nunique()
        shown = int(counts.idxmax())
        table = pd.DataFrame({
            "street": [k[0] for k in pair.index], "opponents": [k[1] for k in pair.index],
            "pot": [k[2] for k in pair.index], "break-even first": first.to_numpy(),
            "break-even last": last.to_numpy(), "gap first $": pair["mean_gap"]["first"].to_numpy(),
            "gap last $": pair["mean_gap"]["last"].to_numpy()})
        table = table[table["pot"] == shown].drop(columns="pot")
        order = {"flop": 0, "turn": 1, "river": 2}
        table = table.sort_values(["street", "opponents"],
                                  key=lambda c: c.map(order) if c.name == "street" else c)
        out.append(_block("p", f"First and last to act ({model}, pot ${shown}): break-even "
                               "strength over every board the street can bring, and the mean gap "
                               "EV(check) − EV(fold) of a random hand, $ per hand:"))
        out.append(_block("table", frame=table.round(2)))
    return out


def fullest_table_blocks(be: pd.DataFrame) -> list:
    """The largest opponent count of the grid (computed at fewer pots) beside the largest one
    computed at every pot, at the same pot, per model (the hero first to act)."""
    if be.empty or be["opponents"].nunique() < 2:
        return []
    pots_of = be.groupby("opponents")["pot"].nunique()
    top = int(pots_of.index.max())
    full = pots_of[pots_of == pots_of.max()].index
    base = int(full.max())
    if top == base:
        return []
    out = []
    for model, sub in be.groupby("model", sort=False):
        rows = sub[sub["opponents"].isin([base, top])]
        pots = sorted(set(rows.loc[rows["opponents"] == top, "pot"]))
        if not pots:
            continue
        pot = pots[0]
        at = rows[rows["pot"] == pot].set_index(["opponents", "street"])
        streets = [st for st in ("flop", "turn", "river") if (top, st) in at.index and (base, st) in at.index]
        if not streets:
            continue
        out.append(_block("p", (
            f"**A full table against {model} opponents.** With {top} opponents (the table's "
            f"fullest, computed at a ${pot} pot) checking is better for "
            + ", ".join(f"{at.loc[(top, st), 'share_check']:.0%} of starting classes on the {st}"
                        for st in streets)
            + f" ({base} opponents: "
            + ", ".join(f"{at.loc[(base, st), 'share_check']:.0%}" for st in streets)
            + "), and the break-even strength is "
            + ", ".join(f"{at.loc[(top, st), 'break_even_strength']:.2f} on the {st}" for st in streets)
            + f" ({base} opponents: "
            + ", ".join(f"{at.loc[(base, st), 'break_even_strength']:.2f}" for st in streets)
            + "). The break-even tables above show every opponent count; the "
            f"{', '.join(str(int(o)) for o in sorted(pots_of.index) if o > base)}-opponent "
            "columns are empty at the pots not computed.")))
    return out


STRENGTH_EXAMPLES = (("4s 9h 3d 6c 10s", ("As 2h", "9c 4d", "9c 9d", "7d 8d", "5h 2c")),)
"""A river board and made hands on it, to show what a strength number means."""


def strength_text(game: str = "dilemma") -> str:
    """What *strength* is, once, with made hands on a board as examples."""
    from evaluator import category, evaluate
    from evaluator.strength import strength

    board, hands = STRENGTH_EXAMPLES[0]
    examples = []
    for hand in hands:
        kind = category(evaluate(f"{hand} {board}", game)).replace("_", " ")
        examples.append(f"{hand} ({kind}) {strength(hand, board, game):.2f}")
    return ("*Strength* (the `strength` columns, and every threshold and plan of this chapter) is "
            "the share of the two-card holdings you cannot see that your cards beat on the board "
            "so far, ties counting half: 0.50 is an average holding, 1.00 the best. On the river "
            f"board {board}: " + ", ".join(examples) + ". `dilemma eval` prints it for any hand "
            "on a board (the first two cards as the hand); the best response and the equilibrium "
            "tables use it in buckets of equal width: bucket = int(strength × buckets), the "
            "top one included (20 buckets: b0 is 0.00-0.05, b19 is 0.95-1.00).")


@dataclass(frozen=True)
class BoardClaim:
    """One statement of the chapter about a kind of board, with what it rests on."""

    model: str
    board_class: str
    street: str
    opponents: int
    pot: int
    break_even: float
    """The break-even strength the sentence states (0: check whatever you hold)."""
    sentence: str


def board_claims(by_board: pd.DataFrame | None, model: str) -> list[BoardClaim]:
    """The chapter's statements about boards by what a player sees (the active effect card),
    each true on average over such boards: per board class, where weak hands should fold for
    free (the highest break-even), or that checking is right whatever you hold."""
    if by_board is None or by_board.empty:
        return []
    everything = by_board[by_board["model"] == model]
    sub = everything[everything["break_even_strength"].notna()]
    claims = []
    for name in BOARD_CLASSES:
        mine = sub[sub["board_class"] == name]
        if mine.empty:
            continue
        where = {"none": "with no effect card active",
                 "other": "with another effect card active (boom, levy, subsidy or windfall)"
                 }.get(name, f"with a {name} card active")
        folds = mine[mine["break_even_strength"] > 0]
        if folds.empty:
            few = int((everything["board_class"] == name).sum()) - len(mine)
            claims.append(BoardClaim(model, name, "", 0, 0, 0.0, (
                f"On boards {where}, checking is right whatever you hold in "
                + (f"all {len(mine)} spots" if len(mine) > 1 else "the one spot")
                + " with enough such deals to say (break-even 0, on average over such "
                f"boards{f'; {few} spots had too few' if few else ''}).")))
            continue
        top = folds.sort_values("break_even_strength").iloc[-1]
        streets = sorted(folds["street"].unique(), key=["flop", "turn", "river"].index)
        named = ", ".join(streets[:-1]) + " and " + streets[-1] if len(streets) > 1 else streets[0]
        claims.append(BoardClaim(model, name, str(top["street"]), int(top["opponents"]),
                                 int(top["pot"]), float(top["break_even_strength"]), (
            f"On boards {where}, weak holdings should fold for free on the {named} in "
            f"{len(folds)} of {len(mine)} spot{'s' if len(mine) > 1 else ''}; the most on the {top['street']} with "
            f"{int(top['opponents'])} opponent{'s' if int(top['opponents']) > 1 else ''} and a "
            f"${int(top['pot'])} pot: check only with strength ≥ "
            f"{top['break_even_strength']:.2f} (on average over such boards; "
            f"{top['share_of_deals']:.0%} of that spot's deals).")))
    return claims


def board_table(by_board: pd.DataFrame | None, model: str) -> pd.DataFrame | None:
    """Break-even strength by street, board class and pot (columns: opponents), only the rows
    where some break-even is above 0."""
    if by_board is None or by_board.empty:
        return None
    sub = by_board[by_board["model"] == model]
    pivot = sub.pivot_table(index=["street", "board_class", "pot"], columns="opponents",
                            values="break_even_strength", dropna=False)
    pivot = pivot[(pivot > 0).any(axis=1)]
    if pivot.empty:
        return None
    order = {"flop": 0, "turn": 1, "river": 2}
    pivot = pivot.reset_index()
    pivot = pivot.sort_values(["street", "board_class", "pot"],
                              key=lambda c: c.map(order) if c.name == "street" else
                              (c.map(BOARD_CLASSES.index) if c.name == "board_class" else c))
    pivot.columns = [str(c) if not isinstance(c, int | float) else f"{int(c)} opp"
                     for c in pivot.columns]
    return pivot.round(2)


CONTINUATION_NAMES = {"check_down": "check down", "check_fold": "check, fold to a bet",
                      "call_down": "call down", "best_response_no_free_fold": "best response, never folding for free"}


def _continuations(folder: Path) -> list:
    """How much a weaker continuation costs, and how often it flips the verdict."""
    others = study_table(folder, "fold_vs_check_continuations")
    if others is None or others.empty:
        return []
    hands = others["hand"].nunique()
    opps = ", ".join(str(o) for o in sorted(others["opponents"].unique()))
    cost = others.pivot_table(index=["model", "street"], columns="continuation", values="minus_main",
                              aggfunc="mean", sort=False)
    cost = cost[[c for c in CONTINUATION_NAMES if c in cost.columns]]
    others["flips"] = (others["ev_check_main"] > others["ev_fold"]) != (others["ev_check"] > others["ev_fold"])
    flips = others.groupby("continuation")["flips"].mean()
    free = others[others["continuation"] == "best_response_no_free_fold"]
    text = (f"**What the continuation is worth.** On {hands} classes × every street × {opps} opponents "
            f"(pot ${int(others['pot'].iloc[0])}), the same deals were also played on with the fixed "
            "policies of earlier editions of this guide. Their value of checking is lower, by the "
            "amounts below (mean over the classes, $ per hand); a fixed policy changes the verdict "
            "fold-or-check in "
            + ", ".join(f"{flips[c]:.0%} of spots ({CONTINUATION_NAMES[c]})" for c in CONTINUATION_NAMES
                        if c in flips.index and c != "best_response_no_free_fold") + ".")
    if len(free):
        worst = free.sort_values("minus_main").iloc[0]
        text += (f" The option to fold for free later is worth ${-free['minus_main'].mean():.1f} per hand "
                 f"on average, and most (${-worst['minus_main']:.1f}) to {worst['hand']} on the "
                 f"{worst['street']} with {int(worst['opponents'])} opponents ({worst['model']}).")
    table = cost.rename(columns=CONTINUATION_NAMES).map(lambda v: f"{v:+.1f}").reset_index()
    return [_block("p", text), _block("table", frame=table)]


def _blank_nan(frame: pd.DataFrame, digits: int) -> pd.DataFrame:
    """Rounded, with empty cells where there is no value (a seat beyond the table)."""
    rounded = frame.round(digits)
    return rounded.astype(object).where(rounded.notna(), "")


NOT_COMPUTED = "not computed"
"""Shown in a page's table where the stored table has no value because none was computed."""
NOT_PLAYED = "not played"
"""Shown where a solve has no decision on that street (it starts on a later one)."""


def equilibrium(folder: Path, info: dict[str, Any]) -> list:
    """Equilibrium fold-for-free frequencies, the value of the option, and the bare-deck check."""
    summary = study_table(folder, "equilibrium_summary")
    free = study_table(folder, "equilibrium_free_fold")
    option = study_table(folder, "equilibrium_option_value")
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
    unplayed = by.isna().to_numpy().any()  # a solve that starts on a later street has no such share
    by = by.astype(object).where(by.notna(), NOT_PLAYED)
    facts = summary.drop_duplicates("label").set_index("label")
    nash_conv = (100 * facts["nash_conv_pot"]).round(3)  # NaN in the table: not computed (kept missing)
    by["NashConv (% pot)"] = nash_conv.astype(object).where(nash_conv.notna(), NOT_COMPUTED)
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
    missing = nash_conv.isna()
    out.append(_block("p", "Share of decisions with nobody to call that fold (%), by street, and "
                           "how close each solution is" + (
                               f" (NashConv {NOT_COMPUTED} on the {int(missing.sum())} rows solved by Monte "
                               "Carlo CFR: it has no exact best response there, the change of its average "
                               "strategy stands in)" if missing.any() else "") + (
                               f"; '{NOT_PLAYED}': the solve starts after that street" if unplayed else "")
                      + ":"))
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
                               "still in, position in the round and strength bucket (b0 weakest; "
                               "bucket = int(strength × buckets), as defined in the previous "
                               "section):"))
        out.append(_block("table", frame=piv))
    out.append(_block("note", "Policy tables in the shared format (equilibrium_*_policy) let the "
                              "betting engine play these strategies."))
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def starting_hands(folder: Path, info: dict[str, Any]) -> list:
    """Top and bottom classes, and how the 40-card deck differs from Hold'em."""
    d = study_table(folder, "starting_hands_dilemma")
    h = study_table(folder, "starting_hands_holdem")
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
    changes = study_table(folder, "street_order_changes")
    diffs = study_table(folder, "street_deck_differences")
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


def brag(folder: Path, info: dict[str, Any]) -> list:
    """Category odds, the strongest and weakest classes, thresholds by opponents, blind play."""
    cats = study_table(folder, "brag_categories")
    classes = study_table(folder, "brag_classes")
    th = study_table(folder, "brag_thresholds")
    if cats is None or classes is None:
        return []
    c = cats.set_index("category")
    pair_or_better = c.loc[["prial", "running_flush", "run", "flush", "pair"], "probability"].sum()
    median = classes[classes["percentile"] >= 50].iloc[-1]
    out = [_block("p", (
        "Three Card Brag (RULES §4) ranks prials (3-3-3 first, then A-A-A down to 2-2-2), running "
        "flushes, runs (A-K-Q highest and 3-2-A lowest, as the source compares runs by their top "
        "card: a [choice] of RULES §4, used in every table here; the rule option `a23=high`, pagat's, "
        "makes 3-2-A the best), flushes, pairs and high cards, with no suit order. Exact over all "
        f"22,100 hands: {_pct(pair_or_better)} of hands are a pair or better, a run is dealt once in "
        f"{c.loc['run', 'one_in']:.1f} hands and a prial once in {c.loc['prial', 'one_in']:.0f}. Note "
        "that runs are rarer than flushes, so a run beats a flush, unlike poker's five-card order. "
        f"The median hand is {median['hand']} ({median['category'].replace('_', ' ')}): it beats "
        f"{_pct(median['win'])} of the hands one opponent can hold."))]
    out.append(_block("table", frame=cats.round(6)))
    top = classes.iloc[[0, 13, 25, 37, 311]] if len(classes) > 311 else classes.head(5)
    out.append(_block("p", "Heads-up every hand is exact (each of the 18,424 hands the opponent "
                           "can hold is counted); a few landmarks (*percentile*: share of all hands "
                           "at or below this one):"))
    out.append(_block("table", frame=top[["rank", "hand", "category", "win", "tie", "loss",
                                         "percentile"]].round(4)))
    if th is not None and th["opponents"].nunique() > 1:
        pivot = th.pivot_table(index="opponents", columns="p", values="hand", aggfunc="first")
        pivot.columns = [f"ahead with p >= {p:.0%}" for p in pivot.columns]
        out.append(_block("p", (
            "With more players the bar rises fast: the weakest hand that beats every opponent with "
            "probability p (heads-up exact, multiway Monte Carlo; ties not counted as ahead):")))
        out.append(_block("table", frame=pivot.reset_index()))
    summary = study_table(folder, "brag_blind_summary")
    blind = study_table(folder, "brag_blind")
    if summary is not None and blind is not None:
        hands = info.get("manifests", {}).get("brag_blind", {}).get("threshold_hands", {})
        out.append(_block("p", (
            "**Blind play.** A blind player's stakes count double (it pays half) and, with two "
            "left, either player may *see* for double the last stake; the seen player wins ties. "
            "The source leaves the betting to the players, so the model is stated: everyone antes 1, "
            "every stake is one fixed size (in antes), the hero acts first, opponents look and stay "
            "in round r only with a hand that beats a given share of all hands (then see when two "
            "are left), and after three rounds the players still in show down. The hero plays "
            "*open* (the opponents' thresholds), *blind_1* (blind the first turn, then looks) or "
            "*blind* (never looks). Heads-up the figures are exact; multiway Monte Carlo with "
            "standard errors.")))
        for field, sub in summary.groupby("field", sort=False):
            grid = sub.pivot_table(index="opponents", columns="stake", values="blind_minus_open")
            grid.columns = [f"stake {x:g}" for x in grid.columns]
            names = hands.get(field, [])
            thresholds = sub["thresholds"].iloc[0]
            see = "may" if bool(sub["open_sees_blind"].iloc[0]) else "may not"
            better = int((sub["verdict"] == "blind").sum())
            out.append(_block("p", (
                f"*{field} field* (thresholds {thresholds}: the weakest hands that stay are "
                f"{', '.join(names) or '?'}; an open player {see} see a blind one): staying blind "
                f"beats playing open in {better} of {len(sub)} spots. Blind minus open, expected "
                "money in antes per hand:")))
            out.append(_block("table", frame=grid.reset_index().round(3)))
        out.append(_block("note", (
            "Against opponents who only look at their own cards and never adapt, a blind player "
            "is hard to beat: it pays half for every stake and its random hand cannot be read. "
            "The advantage is the model's (fixed thresholds, see at once when two are left); "
            "the source breaks off exactly where it would state the rule for a blind and an "
            "open player left alone, and the common rule that an open player may not see a blind "
            "one is the `tight-no-see` field.")))
    return out


def bluffjack(folder: Path, info: dict[str, Any]) -> list:
    """Exact bust odds, the best stand-on-N, what watching the table is worth, rule options."""
    odds = study_table(folder, "bluffjack_final_totals")
    best = study_table(folder, "bluffjack_best")
    effects = study_table(folder, "bluffjack_rule_effects")
    out = []
    if odds is not None:
        hard = odds[~odds["soft"]].drop_duplicates("start").set_index("total")["p_bust_next"]
        stand = 17 if 17 in set(odds["stand_on"]) else int(odds["stand_on"].max())
        s17 = odds[odds["stand_on"] == stand]
        bust17 = s17[s17["outcome"] == "bust"].set_index("start")["probability"]
        out.append(_block("p", (
            "Bluffjack (RULES §3) counts like blackjack (A 1 or 11, J/Q/K 10, over 21 bust) but is "
            "played against the other players. Exact over the deck (two-card starts, those two "
            f"cards removed): one more card busts hard 12 {_pct(hard.get(12, float('nan')))}, "
            f"hard 16 {_pct(hard.get(16, float('nan')))} and hard 20 {_pct(hard.get(20, float('nan')))} "
            f"of the time; soft hands never bust on one card. A player who stands on {stand} busts from "
            f"hard 16 {_pct(bust17.get('hard 16', float('nan')))}, from hard 12 "
            f"{_pct(bust17.get('hard 12', float('nan')))} and from soft 16 "
            f"{_pct(bust17.get('soft 16', float('nan')))}.")))
    if best is not None:
        base = best[best["gain"].notna()] if "gain" in best.columns else best.iloc[0:0]
        rules0 = best["rules"].iloc[0]
        seat0 = best[(best["rules"] == rules0) & (best["position"] == 0)]
        out.append(_block("p", (
            "**Hit or stand against N opponents.** Turns go round from the dealer's left, one hit "
            "or stand a turn, a player who stood never hits again, hits are face up; the opponents "
            f"stand on {int(best['opp_threshold'].iloc[0])} (and when bust or on a Charlie); nobody "
            "folds, so every hand shows down, and the figure is the hero's share of the pot (an "
            "all-bust pot goes to the house). A fixed *stand on N* ignores the table, and with such "
            "players the deck is exchangeable, so its value is the same in every seat (the table "
            "shows it). The best N rises with the field: "
            + ", ".join(f"{int(r.opponents)} opponent{'s' if r.opponents > 1 else ''}: stand on "
                        f"{int(r.best_stand_on)} ({_pct(r.equity)})" for r in seat0.itertuples())
            + ".")))
        if len(base):
            grid = base.pivot_table(index="opponents", columns="position", values="gain") * 100
            grid.columns = [f"seat {int(c)}" for c in grid.columns]
            top = base.loc[base["gain"].idxmax()]
            out.append(_block("p", (
                "**The best response** watches the table: its own total (hard or soft), how many "
                "opponents have stood and are not visibly bust, how many are still hitting. Found "
                "by policy iteration with paired rollouts and evaluated on fresh deals, it gains "
                f"most heads-up in the last seat ({100 * top['gain']:.2f} ± "
                f"{100 * top['gain_stderr']:.2f} points of the pot with {int(top['opponents'])} "
                f"opponent{'s' if top['opponents'] > 1 else ''}, seat {int(top['position'])}); with "
                "many opponents there is little to see that changes the choice. Gain over the best "
                "stand-on-N, percentage points of the pot:")))
            out.append(_block("table", frame=_blank_nan(grid.reset_index(), 2)))
        summary = study_table(folder, "bluffjack_policy_summary")
        if summary is not None and len(summary):
            hu = summary[summary["opponents"] == summary["opponents"].min()].copy()
            hu["situation"] = [
                "opponent still hitting" if w else ("opponent stood" if s else "opponent visibly bust")
                for s, w in zip(hu["stood_live"], hu["waiting_live"], strict=True)]
            out.append(_block("p", "Heads-up, the best response stands from these totals "
                                   "(seat 0 acts first; the dealer's seat last):"))
            cols = ["stand_on_hard", "stand_on_soft"]
            hu[cols] = hu[cols].astype("Int64").astype(object).where(hu[cols].notna(), "")
            out.append(_block("table", frame=hu[["position", "situation", *cols]]))
    if effects is not None:
        rules0 = effects["rules"].iloc[0]
        grid = effects[effects["rules"] != rules0].pivot_table(
            index="rules", columns="opponents", values="change_at_base_stand_on") * 100
        grid.columns = [f"{int(c)} opp" for c in grid.columns]
        moved = effects[effects["change_stand_on"] != 0]
        out.append(_block("p", (
            "**Rule options.** Each option played on the same deals as the base rules (first seat); "
            "change of the pot share at the base rules' best stand-on-N, percentage points "
            "(standard errors in the table file). "
            + ("The best N moves for " + ", ".join(
                f"{r.rules} with {int(r.opponents)} opponent{'s' if r.opponents > 1 else ''} "
                f"({int(r.best_stand_on - r.change_stand_on)} -> {int(r.best_stand_on)})"
                for r in moved.itertuples()) + "; elsewhere it stays (next to the optimum the pot share "
               "is flat, so a move of one is a near tie)." if len(moved) else
               "The best N stays where it is under every option.")
            + " Players who stand as soon as they hold a Charlie never reach more cards, so the "
            "'more cards is stronger' variant plays like the first one, and 10-card Charlies "
            "practically never happen.")))
        out.append(_block("table", frame=grid.reset_index().round(3)))
    out.extend(_bluffjack_equilibrium(folder))
    out.extend(_bluffjack_three_handed(folder))
    return out


def _bluffjack_three_handed(folder: Path) -> list:
    """Three-handed by Monte Carlo CFR: how settled, what each hidden card does, how often bust hands bluff."""
    settled = study_table(folder, "bluffjack3_settled")
    results = study_table(folder, "bluffjack3_results")
    actions = study_table(folder, "bluffjack3_actions")
    bluffs = study_table(folder, "bluffjack3_bluffs")
    if settled is None or actions is None or bluffs is None or results is None:
        return []
    meta = json.loads((folder / "bluffjack3_settled.manifest.json").read_text())
    s, spec = meta["settled"], meta["spec"]
    out = [_block("p", (
        "**Three-handed (Monte Carlo CFR).** The same rules and card abstraction (seat A opens with "
        f"the forced bet; fixed limit ante {spec['ante']}, bets {spec['bet']}, {spec['max_raises']} "
        f"raise{'s' if spec['max_raises'] != 1 else ''} a round), solved by external-sampling Monte Carlo "
        f"CFR, {meta['iterations']:,} iterations (seed {meta['seed']}). Three-handed the heads-up "
        "tree's perfect recall is out of reach (about 3.5 million public decisions per face-up deal "
        "at 3 raises, 1,000 deals, 10 hidden cards), so a player's information is bucketed: its "
        "own hidden card and face-up total, each opponent's visible total in six bands (folded, "
        "2-6, 7-11, 12-16, 17-18, 19-21), and this round's bet level and its own bet; earlier "
        f"rounds' betting is forgotten ({meta['infosets']:,} information sets met). How settled: "
        f"NashConv {s['nash_conv']:.2f} ± {s['nash_conv_se']:.2f} chips a hand (the sum of what each "
        "player's best response would gain, exact within a face-up deal, "
        + ("over every deal" if s["exact"] else f"mean over {s['deals']} sampled deals ± 1 SE") + "). "
        + "Each seat's result with this strategy: "
        + ", ".join(f"seat {r.seat} {r.mean:+.3f} ± {r.stderr:.3f}" for r in results.itertuples())
        + f" chips a hand ({int(results['hands'].iloc[0]):,} hands played).")),
    ]
    rows = []
    for name, phase, facing in (("initial round, facing the bet", "initial", 1),
                                ("final round, no bet yet", "final", 0),
                                ("final round, facing a bet", "final", 1)):
        a = actions[(actions["phase"] == phase) & (actions["facing"] == facing)]
        w = a["decisions"]
        for hidden, g in a.assign(**{c: a[c] * w for c in ("fold", "check/call", "bet/raise")}).groupby("hidden"):
            d = g["decisions"].sum()
            rows.append({"spot": name, "hidden": hidden, "fold": 100 * g["fold"].sum() / d,
                         "check/call": 100 * g["check/call"].sum() / d, "bet/raise": 100 * g["bet/raise"].sum() / d})
    t = pd.DataFrame(rows)
    order = [str(c) for c in range(2, 11)] + ["A"]
    grid = t.pivot_table(index="hidden", columns="spot", values=["bet/raise", "fold"]).reindex(order).round(0)
    columns = {("fold", "initial round, facing the bet"): "initial, facing the bet: fold %",
               ("bet/raise", "initial round, facing the bet"): "initial, facing the bet: raise %",
               ("bet/raise", "final round, no bet yet"): "final, no bet yet: bet %",
               ("fold", "final round, facing a bet"): "final, facing a bet: fold %",
               ("bet/raise", "final round, facing a bet"): "final, facing a bet: raise %"}
    grid = grid[[c for c in columns if c in grid.columns]]
    grid.columns = [columns[c] for c in grid.columns]
    out.append(_block("p", (
        "What each face-down card does three-handed, all seats and face-up cards together (how often "
        "each is met in play; by seat and own face-up total in `bluffjack3_actions.csv`):")))
    out.append(_block("table", frame=grid.map(lambda v: "" if pd.isna(v) else f"{v:.0f}").reset_index()))
    b = _percent(bluffs, ["share_of_spots", "bet", "bet_wins_alone"])
    bust = bluffs[bluffs["category"] == "bust"]
    out.append(_block("p", (
        "**Bluffs three-handed.** Final round, nobody has bet yet: how often each kind of hand bets "
        "(%) and how often that bet then wins the pot with both others folding (%). Bust hands bet "
        + ", ".join(f"{100 * r.bet:.0f}% (seat {r.seat})" for r in bust.itertuples())
        + "; against two opponents a bluff has to get through both.")))
    out.append(_block("table", frame=b[["seat", "category", "share_of_spots", "bet", "bet_wins_alone"]]))
    return out


def _bluffjack_equilibrium(folder: Path) -> list:
    """The betting game played well: the heads-up equilibrium's answers."""
    pairs = study_table(folder, "bluffjack_eq_pairs")
    if pairs is None:
        return []
    actions = study_table(folder, "bluffjack_eq_actions")
    bluffs = study_table(folder, "bluffjack_eq_bluffs")
    hit = study_table(folder, "bluffjack_eq_hit")
    hidden = study_table(folder, "bluffjack_eq_hidden")
    w = pairs["weight"]
    value_a = float((w * pairs["value_a"]).sum())
    expl = float((w * pairs["exploitability"]).sum())
    # the stakes as solved (the quick preview solves a smaller raise cap)
    spec = json.loads((folder / "bluffjack_eq_pairs.manifest.json").read_text())["betting"]["spec"]
    out = [_block("p", (
        "**The betting game played well (heads-up).** Bluffjack is named for its bluff: the face-down "
        "card is all a player hides, hits are face up, and a player left alone wins the pot even "
        "when bust. Solved by CFR+ on the tree of the whole hand built from the rules (the lab's "
        f"fixed limit: ante {spec['ante']}, bets and raises {spec['bet']}, {spec['max_raises']} "
        f"raise{'s' if spec['max_raises'] != 1 else ''} a round; seat A left of the dealer opens "
        f"the first round with the forced {spec['bet']}, acts first when hitting and in the final round). "
        "Abstraction: cards by value class drawn with replacement (no card removal), at most one "
        "hit a player, deep stacks. Every face-up pair is its own game (both are seen before any "
        f"decision); the whole hand is {expl:.4f} chips from equilibrium (NashConv / 2, exact best "
        f"responses). Seat A expects {value_a:+.3f} chips a hand, seat B {-value_a:+.3f} "
        "(the house's all-bust pots make up the difference): acting last is worth that much.")),
    ]
    if actions is not None:
        first = actions[(actions["round"] == "initial") & (actions["seat"] == "B") & (actions["facing"] == 1)]
        g = first.assign(wr=first["bet/raise"] * first["reach"], wf=first["fold"] * first["reach"])
        grid = g.groupby(["hidden", "own_visible"])[["wr", "wf", "reach"]].sum()
        order = [str(c) for c in range(2, 11)] + ["A"]
        raise_grid = (grid["wr"] / grid["reach"]).unstack("own_visible").reindex(order) * 100
        fold_grid = (grid["wf"] / grid["reach"]).unstack("own_visible").reindex(order) * 100
        out.append(_block("p", (
            "Seat B facing the forced opening bet: how often it **raises** (%), by its face-down card "
            "(rows) and its face-up card's value (columns; 11 is an ace), averaged over A's face-up card:")))
        out.append(_block("table", frame=raise_grid.round(0).reset_index()))
        out.append(_block("p", "and how often it **folds** (%):"))
        out.append(_block("table", frame=fold_grid.round(0).reset_index()))
    if bluffs is not None and len(bluffs):
        b = _percent(bluffs, ["bet", "opponent_folds", "share_of_spots"])
        out.append(_block("p", (
            "**Bluffs.** In the final round, when nobody has bet yet (seat A opening, seat B checked "
            "to), how often each kind of hand bets (%), and how often the opponent then folds at "
            "once (%); a bust or weak hand that bets is a bluff, and when the opponent folds it wins "
            "the pot anyway:")))
        out.append(_block("table", frame=b[["seat", "category", "share_of_spots", "bet", "opponent_folds"]]))
    if hit is not None and "hit_no_betting" in hit:
        h = hit[hit["total"].between(12, 19)].copy()
        for c in ("hit_betting", "hit_no_betting"):
            h[c] = (100 * h[c]).round(1)
        h["gain_betting"] = h["gain_betting"].round(2)
        out.append(_block("p", (
            "**Hitting with the betting.** At the first hit decision, the equilibrium's chance to hit "
            "(%) by own total (face-down card included), with the betting and in the same game "
            "without it (ante only, every hand shows down: today's no-fold answer in this "
            "abstraction), and what hitting gains over standing with the betting (chips, given the "
            "spot). "
            + "; ".join(f"seat {r.seat} on {int(r.total)}: {r.hit_betting:.0f}% with the betting, "
                        f"{r.hit_no_betting:.0f}% without" for r in h[h["total"] == 16].itertuples())
            + ".")))
        out.append(_block("table", frame=h[["seat", "total", "hit_betting", "hit_no_betting", "gain_betting"]]))
    if hidden is not None:
        out.append(_block("p", (
            "**What the face-down card is worth**: each seat's expected result (chips a hand) by its "
            "face-down card, with the betting and without. A hidden ace is worth "
            f"{hidden['seat_B'].iloc[-1] - hidden['seat_B'].iloc[0]:+.2f} chips over a hidden 2 to seat B "
            "with the betting"
            + (f", {hidden['seat_B_no_betting'].iloc[-1] - hidden['seat_B_no_betting'].iloc[0]:+.2f} without"
               if "seat_B_no_betting" in hidden else "") + ".")))
        out.append(_block("table", frame=hidden.round(3)))
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
    "brag_categories": "Three Card Brag: how often each category is dealt",
    "brag_equity_vs_opponents": "Three Card Brag: pot share against 1-16 random hands",
    "brag_thresholds": "Three Card Brag: the weakest hand ahead of N opponents with probability p",
    "bluffjack_bust_next": "Bluffjack: the chance of busting on the next card",
    "bluffjack_final_totals_17": "Bluffjack: where a stand-on-17 player ends",
    "bluffjack_stand_on": "Bluffjack: pot share of stand on N against threshold players",
    "bluffjack_best_response_gain": "Bluffjack: what watching the table is worth",
    "bluffjack_rule_effects": "Bluffjack: what each rule option is worth",
    "bluffjack_eq_hit": "Bluffjack heads-up at equilibrium: when to hit, with and without the betting",
    "bluffjack_eq_hidden": "Bluffjack heads-up at equilibrium: what the face-down card is worth",
    "equilibrium_free_fold_by_bucket": "At equilibrium: folding for free by strength and street",
    "equilibrium_free_fold_by_position": "At equilibrium: folding for free by position",
    "equilibrium_convergence": "How close the solutions are (NashConv, strategy change)",
    "equilibrium_option_value": "The value of the fold-for-free option",
}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def solved_spots(folder: Path, info: dict[str, Any]) -> list:
    """Spots at equilibrium: how settled, the free fold by family and game state, play by made hand,
    the browser."""
    spots = study_table(folder, "spots")
    free = study_table(folder, "spots_fold_or_check")
    summary = study_table(folder, "spots_summary")
    if spots is None or free is None or summary is None:
        return []
    m = info.get("manifest", {})
    families = m.get("families", {})
    players = spots["players"] if "players" in spots else pd.Series(2, index=spots.index)
    hu, three = spots[players == 2], spots[players == 3]
    out = [_block("p", (
        "Each spot is solved card by card with the card-level solver (`dilemma solve spot --game dilemma`), "
        f"with the real settlement of the {m.get('deck', '')} deck at every fold and showdown and the free fold "
        "allowed. The families: " + "; ".join(
            f"**{name}**, {desc}: {_count(spots[spots.family == name]['board'].nunique(), 'board')} drawn uniformly from "
            f"the deck (seed {m.get('seed', 0)}, equal weights) in the game states "
            f"{', '.join(dict.fromkeys(spots[spots.family == name]['state']))}"
            for name, desc in families.items() if (spots.family == name).any()) + ". "
        f"Every heads-up spot reached an exploitability (the mean of the two players' exact best-response gains) "
        f"of at most {hu['exploitability_pct_pot'].max():.2f}% of the pot (NashConv, their sum, at most "
        f"{hu['nash_conv_pct_pot'].max():.2f}%; median {hu['iterations'].median():.0f} DCFR iterations), "
        "so the answers hold against any opponent up to that margin: they are equilibrium answers, not answers "
        "against one style of play. " + (
            f"The three-handed spots reached a NashConv (exact: the sum of the three players' best-response gains "
            f"over every holding) of at most {three['nash_conv_pct_pot'].max():.2f}% of the pot (median "
            f"{three['iterations'].median():.0f} DCFR iterations); three-player CFR has no convergence guarantee, "
            "so that number, not the method, is what says how close to an equilibrium they are. "
            if len(three) else "") + "Game states: " + "; ".join(
            f"`{s.name}`, {s.description}" for s in GAME_STATES) + "."))]
    out.append(_block("p", (
        "Folding for free, by family and game state (share of the range whose best choice it is, "
        "'indifferent' when folding and checking are worth the same within 0.1% of the pot, and what each "
        "choice costs on average against the holding's best action, $ a hand, ± one standard error over the "
        "sample of boards):")))
    keys = ["family", "state", "line", "player"] + (["others_in"] if "others_in" in free else [])
    groups = free.groupby(keys, sort=False)
    costs = ["regret_fold", "regret_check"] + (["fold_cost"] if "fold_cost" in free else [])
    table = groups[["folds_for_free", "checks", "indifferent", *costs]].mean().reset_index()
    se = groups[costs].sem().reset_index(drop=True)  # over the sample of boards
    table = _percent(table, ["folds_for_free", "checks", "indifferent"])
    for col in costs:
        table[col] = [f"{v:.2f} ± {e:.2f}" if np.isfinite(e) else f"{v:.2f}"
                      for v, e in zip(table[col], se[col], strict=True)]
    out.append(_block("table", frame=table.rename(columns={
        "others_in": "others in", "folds_for_free": "folds for free %", "checks": "checks %",
        "indifferent": "indifferent %", "regret_fold": "regret of folding $", "regret_check": "regret of checking $",
        "fold_cost": "cost of folding $"})))
    if "fold_cost" in free:
        out.append(_block("note", (
            "'others in': players still in besides the one to act (three-handed, a seat after a fold has one); "
            "'cost of folding': minus the value of folding ($ against the stack at the start of the street, "
            "weighted by how likely each holding is at the decision), i.e. the penalty share the folder still "
            "pays.")))
    out += _free_fold_three(free, spots)
    out += _free_fold_turn_three(free, families.get("3-turn", ""))
    river = free[(free.family == "hu-river") & (free.state == "start")]
    if len(river):
        out.append(_block("p", (
            f"On the river, in the starting state, {100 * river['folds_for_free'].mean():.1f}% of the range folds "
            "for free at equilibrium, on average over the boards. Heads-up that is what the rules predict: a player "
            "who folds in the last betting round is a loser and pays its penalty share (RULES §1.8, example D); only "
            "a river *showdown* spares those who folded to a bet (the river exception), and a free fold leaves no "
            "showdown. Checking pays the same penalty when it loses and wins when it wins, so folding for free can at "
            "best tie. On the turn, a free fold heads-up also makes the folder a loser of the last round, but of the "
            "turn's board: it pays the turn's penalty instead of risking the river's.")))
    out += _free_fold_by_street(free)
    out.append(_block("p", (
        "A hand's value here is its chips after the settlement. Each family's pot and stacks follow the blind "
        "level (every player in one big blind before the street: a heads-up pot of $40 at 10/20, $80 at 20/40, "
        "$120 at 30/60, from the same $1,000), and bank 3 at $40 caps what the bank pays. Bank 1 nearly empty is "
        "not a state here: bank 2 pays the rest of the bonus in full and the blinds rise only after the hand, so a "
        "one-hand spot there is the start spot chip for chip. The end-game chapter compares the states board by "
        "board, with the higher blinds and the short bank apart.")))
    for family in dict.fromkeys(summary["family"]):
        root = summary[(summary["family"] == family) & (summary["line"] == "(root)") & (summary["by"] == "made_hand")
                       & (summary["state"] == "start")]
        if not len(root):
            continue
        actions = list(dict.fromkeys(root["action"]))
        pivot = root.pivot_table(index="group", columns="action", values="frequency", aggfunc="mean")[actions]
        order = [g for g in MADE_HANDS if g in pivot.index]
        share = root.groupby("group")["share"].mean()[order]
        value = root.groupby("group")["group_ev"].mean()[order]
        frame = _percent(pivot.loc[order], actions)
        frame.columns.name = None
        frame.insert(0, "share of range", (100 * share).map(lambda v: f"{v:.1f}"))
        frame["value $"] = value.map(lambda v: f"{v:.1f}")
        out.append(_block("p", (f"**{family}**: the first player's play by made hand (start, mean over the boards; "
                                "share of the range and action frequencies in %, value in chips after the "
                                "settlement):")))
        out.append(_block("table", frame=frame.reset_index().rename(columns={"group": "made hand"})))
    out.append(_block("p", (
        "Where a row shows folding while the free-fold table says 'indifferent', those folds are ties the solver "
        "happens to mix, not a preference.")))
    out += _by_texture(study_table(folder, "spots_by_texture"))
    out += _second_sample(study_table(folder, "spots_second_sample"), m.get("samples", {}))
    out += _turn_effects(study_table(folder, "spots_effects"), m.get("seed", 0))
    facing = study_table(folder, "spots_facing_bet")
    out += _facing_bet(facing if facing is None else facing[facing.family.isin(hu["family"].unique())])
    out += _facing_bet_three(facing, three[three.family == "3-river"])
    out += _facing_bet_turn_three(facing, three[(three.family == "3-turn") & (three.state == "start")],
                                  families.get("3-turn", ""), m.get("seed", 0))
    out += _versus_models(study_table(folder, "spots_versus_models"), m.get("versus_models", []))
    out += _strength_translated(study_table(folder, "strength_translated"), m.get("strength_boards"), m.get("seed", 0))
    if info.get("browser"):
        out.append(_block("p", (
            "The strategy browser below reads the stored solutions: pick the number of players (heads-up or "
            "three-handed), a family, a game state, a board and a decision; each of the "
            "100 starting classes is coloured by how often its holdings take each action (weighted by how "
            "often they reach the decision); click a class for its holdings with every action's frequency "
            "and EV; filter by made hand.")))
        out.append(Block("browser", path=f"{info['study']}/{info['browser']}"))
    return out


HEADS_UP_STREETS = (("flop", "hu-flop"), ("turn", "hu-turn"), ("river", "hu-river"))
"""The heads-up families by street, for the by-street answer."""


def _free_fold_by_street(free: pd.DataFrame) -> list:
    """Heads-up, the first decision of each street side by side (start state): how much of the range
    folds for free, how much is indifferent, and what folding costs."""
    root = free[(free.state == "start") & (free.line == "(root)")]
    rows = [(street, root[root.family == family]) for street, family in HEADS_UP_STREETS]
    rows = [(street, part) for street, part in rows if len(part)]
    if len(rows) < 2:
        return []

    def said(street: str, part: pd.DataFrame) -> str:
        n = part["board"].nunique()
        regret = part["regret_fold"]
        se = f" ± {regret.sem():.2f}" if n > 1 else ""
        return (f"on the {street} {100 * part['folds_for_free'].mean():.1f}% folds for free and "
                f"{100 * part['indifferent'].mean():.1f}% is indifferent; folding costs "
                f"${part['fold_cost'].mean():.1f} and its regret against the best choice is ${regret.mean():.2f}{se} "
                f"a hand ({_count(n, 'board')})")

    return [_block("p", (
        "**By street, heads-up** (start state, the first player's first decision, means over each family's "
        "boards): " + "; ".join(said(street, part) for street, part in rows) + ". A free fold before the river "
        "ends the hand on that street: the folder is the loser of the last betting round and pays that board's "
        "penalty (RULES §1.4), so folding early trades the later boards' penalties, and the chance to win the "
        "pot, for the penalty on the board already out. The regret is what the free fold costs the holdings "
        "that should not fold; a fold that ties checking is counted as indifferent, not as a fold."))]


def _free_fold_three(free: pd.DataFrame, spots: pd.DataFrame) -> list:
    """Three-handed river: the free fold by seat beside heads-up, and what a free fold escapes."""
    if "others_in" not in free:
        return []
    three = free[(free.family == "3-river") & (free.state == "start")]
    hu = free[(free.family == "hu-river") & (free.state == "start") & (free.line == "(root)")]
    if not len(three) or not len(hu):
        return []
    by = three.groupby(["line", "player", "others_in"], sort=False)[["folds_for_free", "fold_cost"]].mean()
    penalty = spots[(spots.family == "3-river") & (spots.state == "start")]["corner_penalty"].mean()
    two = by.xs(2, level="others_in")
    return [_block("p", (
        f"**Three-handed on the river** (start state, {_count(three['board'].nunique(), 'board')}): a seat with both others "
        "still in folds for free " + ", ".join(f"{100 * r.folds_for_free:.1f}% ({p}, {ln})"
                                                for (ln, p), r in two.iterrows())
        + f" of its range, against {100 * hu['folds_for_free'].mean():.1f}% heads-up. Folding there costs "
        + ", ".join(f"${r.fold_cost:.1f} ({p})" for (ln, p), r in two.iterrows())
        + f" on average, while these boards' corners make a penalty of ${penalty:.0f}: a river folder is a loser "
        "of the last round, but the river exception excuses it when the other two reach a showdown that one of "
        "them loses, so three-way the folder escapes the penalty whenever nobody folds after it; it pays (its share) "
        "only when the hand ends without a showdown. Heads-up the free fold pays the full penalty (cost of "
        f"folding ${hu['fold_cost'].mean():.1f}).")),
    ]


def _free_fold_turn_three(free: pd.DataFrame, description: str) -> list:
    """Three-handed turn: the free fold by seat while both others are in, and what it costs."""
    if "others_in" not in free:
        return []
    turn = free[(free.family == "3-turn") & (free.state == "start") & (free.others_in == 2)]
    if not len(turn):
        return []
    by = turn.groupby(["line", "player"], sort=False)[["folds_for_free", "indifferent", "fold_cost",
                                                       "regret_fold"]].mean()
    return [_block("p", (
        f"**Three-handed on the turn** (start state, {_count(turn['board'].nunique(), 'board')}; {description}): with "
        "both others still in, the equilibrium folds for free "
        + ", ".join(f"{100 * r.folds_for_free:.0f}% ({p}, {ln})" for (ln, p), r in by.iterrows())
        + " of the range (indifferent: " + ", ".join(f"{100 * r.indifferent:.0f}%" for r in by.itertuples())
        + "). Folding costs " + ", ".join(f"${round(r.fold_cost, 1) + 0.0:.1f}" for r in by.itertuples())
        + ": a turn folder is a loser only if the hand ends on the turn (both others fold behind it, or the bet "
        "that follows is not called); when two players go on to the river the turn folder escapes the penalty, "
        "so three-handed the free fold is a real option on the turn, unlike heads-up. The regret of folding, "
        "averaged over the whole range, is " + ", ".join(f"${r.regret_fold:.1f}" for r in by.itertuples())
        + ": the free fold is for the holdings the solver folds, not a default.")
    )]


def _facing_bet_three(facing: pd.DataFrame | None, spots: pd.DataFrame) -> list:
    """Three-handed river facing a pot-sized bet: fold cost, the cost of calling and losing, thresholds."""
    if facing is None or "others_in" not in facing or not len(spots):
        return []
    three = facing[(facing.family == "3-river") & ~facing.line.str.contains("allin")]
    hu = facing[(facing.family == "hu-river") & (facing.line.str.count("/") == 0) & (facing.pot_odds < 0.4)]
    if not len(three) or not len(hu):
        return []
    cols = ["reached", "pot_odds", "threshold", "calls", "prefers_call", "fold_cost", "weakest_call_cost"]
    table = three.groupby(["state", "line", "player", "others_in"], sort=False)[cols].mean().reset_index()
    table = _percent(table, ["reached", "pot_odds", "threshold", "calls", "prefers_call"])
    for col in ("fold_cost", "weakest_call_cost"):
        table[col] = table[col].map(lambda v: f"{v:.1f}")
    start = three[three.state == "start"]
    hu_start = hu[hu.state == "start"]

    def mean(frame: pd.DataFrame, col: str) -> float:
        return float(frame[col].mean())

    def se(frame: pd.DataFrame, col: str) -> float:
        per_board = frame.groupby("board")[col].mean()
        return float(per_board.std(ddof=1) / np.sqrt(len(per_board))) if len(per_board) > 1 else float("nan")

    first_bet = np.isclose(start.pot_odds, 1 / 3)  # facing the pot-sized bet, nobody has called yet
    first = start[first_bet & (start.others_in == 2)]
    alone = start[first_bet & (start.others_in == 1)]
    b, n = spots["board"].nunique(), len(spots)
    if not len(first) or not len(alone):
        return [_block("table", frame=table)]

    def pm(frame: pd.DataFrame, col: str) -> str:
        e = se(frame, col)
        return f"${mean(frame, col):.1f}" + (f" ± {e:.1f}" if np.isfinite(e) else "")

    worse = mean(first, "weakest_call_cost") - mean(first, "fold_cost")
    to_call = float(first["to_call"].mean())
    text = (
        "**Facing a bet three-handed: when is calling and losing worse than folding?** Someone bets the pot into "
        f"a three-way river pot (each player in one big blind, so a bet of ${to_call:.0f} on average; pot odds "
        f"{100 * mean(first, 'pot_odds'):.0f}% as heads-up). With another "
        f"player still in, folding costs {pm(first, 'fold_cost')} on "
        "average (the penalty share a folder pays when the hand ends without a showdown somebody else loses), "
        f"while calling with the weakest tenth of the range costs {pm(first, 'weakest_call_cost')} "
        "(the call and the loser's penalty share, less the little those "
        f"holdings still win): calling and losing is worse than folding by about ${worse:.0f} (the call is "
        f"${to_call:.0f} of it). The equilibrium calls only {100 * mean(first, 'calls'):.0f}% of the range there (holdings above "
        f"{100 * mean(first, 'threshold'):.0f}% strength, the share of all holdings beaten, prefer calling). "
        f"Once the other player has folded, folding costs ${mean(alone, 'fold_cost'):.1f} (the two folders split "
        f"the penalty if the bettor is not called), calling and losing ${mean(alone, 'weakest_call_cost'):.1f}, "
        f"and it calls {100 * mean(alone, 'calls'):.0f}% (from {100 * mean(alone, 'threshold'):.0f}% strength). "
        f"Heads-up the same bet is called by {100 * mean(hu_start, 'calls'):.0f}% of the range: folding there "
        f"costs ${mean(hu_start, 'fold_cost'):.1f}, the whole penalty, so the penalty no longer separates a call "
        "that loses from a fold. The rule of thumb: heads-up, the penalty is paid either way and only the pot odds "
        "count; three-way with a player still to show down, a fold escapes most of the penalty, so a call needs "
        "the pot odds *plus* the penalty share it risks. "
        f"Sample: {_count(b, 'board')} drawn uniformly (the heads-up river sample's first {b}), {_count(n, 'spot')}: "
        + ", ".join(f"{st} on {_count(k, 'board')}" for st, k in spots.groupby("state", sort=False).size().items())
        + f"; NashConv (exact) at most {spots['nash_conv_pct_pot'].max():.2f}% "
        "of the pot; abstraction: bets of the pot or all-in, raises all-in, random holdings for all three. "
        "Means over the boards ± one standard error across them; the bet lines (no all-in) in every state:")
    return [_block("p", text), _block("table", frame=table.rename(columns={
        "others_in": "others in", "reached": "reached %", "pot_odds": "pot odds %", "threshold": "threshold %",
        "calls": "calls %", "prefers_call": "prefers calling %", "fold_cost": "cost of folding $",
        "weakest_call_cost": "weakest tenth's cost of calling $"}))]


EFFECT_WHY = {"none": "no active effect card", "crash": "every participant of the last round, winners included, pays the bank",
              "slump": "the penalty doubled", "rebate": "the penalty paid to the winner",
              "bubble": "the bonus tripled", "other": "boom, levy, subsidy or windfall"}
"""A few words on each effect class, for the chapter's tables."""


def _turn_effects(table: pd.DataFrame | None, seed: int) -> list:
    """Heads-up on the turn, by active effect class: the free fold of both players and the answer to
    a pot-sized bet, each ± one standard error across the class's boards."""
    if table is None or not len(table):
        return []
    start = table[(table.family == "hu-turn") & (table.state == "start")]
    if not len(start):
        return []

    def cell(frame: pd.DataFrame, line: str, col: str, scale: float = 100.0) -> pd.Series:
        rows = frame[frame.line == line].set_index("effect")
        return pd.Series({e: ms(r[col], r[col + "_se"], scale) for e, r in rows.iterrows()}, dtype=object)

    free, bet = start[start.decision == "free fold"], start[start.decision == "facing a bet"]
    first_bet = next((ln for ln in dict.fromkeys(bet.line) if "/" not in ln), None)
    effects = list(dict.fromkeys(start.effect))
    frame = pd.DataFrame({"effect card": [f"{e} ({EFFECT_WHY.get(e, '')})" for e in effects]})
    columns = {"first player folds for free %": (free, "(root)", "folds_for_free", 100.0),
               "its cost of folding $": (free, "(root)", "fold_cost", 1.0),
               "second player, checked to, folds for free %": (free, "check", "folds_for_free", 100.0)}
    if first_bet:
        columns.update({f"facing {first_bet}: calls %": (bet, first_bet, "calls", 100.0),
                        "prefers calling from strength %": (bet, first_bet, "threshold", 100.0)})
    for name, (part, line, col, scale) in columns.items():
        frame[name] = cell(part, line, col, scale).reindex(effects).fillna("").values
    boards = int(start["boards"].max())
    root = free[free.line == "(root)"].set_index("effect")
    if not len(root):
        return []
    cheap, dear = root["fold_cost"].idxmin(), root["fold_cost"].idxmax()
    calls = bet[bet.line == first_bet].set_index("effect")["calls"] if first_bet else pd.Series(dtype=float)
    return [_block("p", (
        "**Effect cards in play, on the turn.** The heads-up turn family solved again on boards drawn per active "
        f"effect card ({boards} boards a class, uniform within the class, seed {seed}, start state): how the card "
        "that acts on the turn "
        "board moves the free fold and the answer to a pot-sized bet (means over the class's boards ± one standard "
        "error across them; a difference under two combined standard errors is not told apart from none). "
        f"With every effect the first player folds for free at most {100 * root['folds_for_free'].max():.1f}% of "
        f"its range, while what a fold costs runs from ${root.loc[cheap, 'fold_cost']:.1f} (`{cheap}`) to "
        f"${root.loc[dear, 'fold_cost']:.1f} (`{dear}`)"
        + (f", and a pot-sized bet is called by {100 * calls.min():.0f}-{100 * calls.max():.0f}% of the range"
           if len(calls) else "")
        + ". Heads-up on the turn a fold ends the hand and pays the turn board's penalty (and, on a `crash` "
        "board, the crash), so the effect moves what folding costs more than whether to fold: checking keeps the "
        "chance to win the pot and moves the risk to the river's board.")),
        _block("table", frame=frame)]


SECOND_NAMES = {"folds_for_free": "folds for free %", "indifferent": "indifferent %",
                "regret_fold": "regret of folding $", "fold_cost": "cost of folding $"}
"""The values of the second-sample check, as the chapter names them."""


def _second_sample(table: pd.DataFrame | None, samples: dict[str, Any]) -> list:
    """The first decision's aggregates over the sample of boards beside the same over a second,
    independent sample, with their gap in combined standard errors."""
    z = table["z"].abs().dropna() if table is not None and len(table) else pd.Series(dtype=float)
    if not len(z):
        return []  # no gap to state: one board, or no spread, in every comparison

    def boards(family: str, sample: str) -> set[str]:
        return {b for part in samples.get(family, []) if part.get("sample", "first") == sample for b in part["boards"]}


    scale = {v: (100.0 if v.endswith("%") else 1.0) for v in SECOND_NAMES.values()}
    rows = []
    for r in table.itertuples():
        name = SECOND_NAMES[r.value]
        k, digits = scale[name], 1 if scale[name] > 1 else 2
        rows.append({"family": r.family, "state": r.state, "value": name,
                     "sample": f"{ms(r.mean, r.se, k, digits)} ({r.boards})",
                     "second sample": f"{ms(r.mean_second, r.se_second, k, digits)} ({r.boards_second})",
                     "gap in standard errors": f"{r.z:+.1f}" if np.isfinite(r.z) else "no spread"})
    families = list(dict.fromkeys(table["family"]))
    return [_block("p", (
        "**A second sample of boards.** Families are solved again on other boards of the same "
        "seeded uniform draw (" + "; ".join(
            f"{f}: {len(boards(f, 'second'))} boards after the {len(boards(f, 'first'))} of the sample"
            for f in families)
        + "), and the first decision's averages computed on each (mean ± one standard error across the boards, "
        f"the number of boards in brackets). {(z <= 2).sum()} of the {len(z)} gaps between the two are within two "
        f"combined standard errors (about 95% would be by chance alone) and the largest is {z.max():.1f}"
        + (": the samples agree as the standard errors quoted in this chapter say they should. " if z.max() <= 3
           else ": more than chance explains; the errors quoted understate the spread between boards. ")
        + f"A sample of {table['boards'].min()}-{table['boards'].max()} boards has a wide error: the chapter's "
        "averages say how play changes, not the last percent.")),
        _block("table", frame=pd.DataFrame(rows))]


def _facing_bet_turn_three(facing: pd.DataFrame | None, spots: pd.DataFrame, description: str, seed: int) -> list:
    """Three-handed turn facing a pot-sized bet: what folding and calling cost, beside the river."""
    if facing is None or "others_in" not in facing or not len(spots):
        return []
    plain = facing[~facing.line.str.contains("allin") & (facing.state == "start")
                   & np.isclose(facing.pot_odds, 1 / 3)]  # the pot-sized bet, nobody has called it yet
    turn, river = plain[plain.family == "3-turn"], plain[plain.family == "3-river"]
    first, alone = turn[turn.others_in == 2], turn[turn.others_in == 1]
    if not len(first) or not len(alone):
        return []

    def pm(frame: pd.DataFrame, col: str, share: bool = False) -> str:
        """The mean over the boards ± its standard error: in $, or in % for a ``share``."""
        mean, e = mean_se((100.0 if share else 1.0) * frame.groupby("board")[col].mean())
        value, error = (f"{mean:.0f}%", f"{e:.0f}") if share else (f"${mean:.1f}", f"{e:.1f}")
        return value + (f" ± {error}" if np.isfinite(e) else "")

    worse = first["weakest_call_cost"].mean() - first["fold_cost"].mean()
    river_first = river[river.others_in == 2]
    cols = ["reached", "threshold", "calls", "prefers_call", "fold_cost", "weakest_call_cost"]
    table = turn.groupby(["line", "player", "others_in"], sort=False)[cols].mean().reset_index()
    table = _percent(table, ["reached", "threshold", "calls", "prefers_call"])
    for col in ("fold_cost", "weakest_call_cost"):
        table[col] = table[col].map(lambda v: f"{v:.1f}")
    text = (
        "**Facing a bet three-handed on the turn.** Someone bets the pot into a three-way turn pot (the "
        f"family `3-turn`: {description}). With the third player still to act, folding costs {pm(first, 'fold_cost')} on "
        "average: a turn folder is a loser only if the turn is the last betting round, that is when nobody calls "
        "the bet; once another player calls, the river is played without the folder and it escapes the penalty "
        "(RULES §1.4). Calling with the weakest tenth of the range costs "
        f"{pm(first, 'weakest_call_cost')} (the call, the river still to play, and the penalty share when it "
        f"loses), so calling and losing is worse than folding by about ${worse:.0f}. The equilibrium calls "
        f"{pm(first, 'calls', True)} of the range there (holdings above {pm(first, 'threshold', True)} "
        "strength prefer calling)" + (
            f", against {100 * river_first['calls'].mean():.0f}% facing the same bet on the river"
            if len(river_first) else "") + ". "
        f"Once the other player has folded, folding costs {pm(alone, 'fold_cost')} (heads-up against the "
        "bettor, a fold ends the hand on the turn: the folders split the turn board's penalty) and the "
        f"equilibrium calls {pm(alone, 'calls', True)}. "
        f"Sample: {_count(spots['board'].nunique(), 'board')} drawn uniformly (seed {seed}), start state; "
        f"NashConv (exact, over every river card) at most {spots['nash_conv_pct_pot'].max():.2f}% of the pot after "
        f"{spots['iterations'].min():.0f}-{spots['iterations'].max():.0f} DCFR iterations. Means over the boards "
        "± one standard error across them; every line facing the pot-sized bet:")
    return [_block("p", text), _block("table", frame=table.rename(columns={
        "others_in": "others in", "reached": "reached %", "threshold": "threshold %", "calls": "calls %",
        "prefers_call": "prefers calling %", "fold_cost": "cost of folding $",
        "weakest_call_cost": "weakest tenth's cost of calling $"}))]


def _by_texture(table: pd.DataFrame | None) -> list:
    """The first decision's free fold by board texture, with the sample counts and standard errors."""
    if table is None or not len(table):
        return []
    start = table[table.state == "start"].copy()

    shown = pd.DataFrame({
        "family": start["family"], "texture": start["texture"], "board has it": start["has"].map({True: "yes",
                                                                                                   False: "no"}),
        "boards": start["boards"],
        "folds for free %": [ms(v, e, 100) for v, e in zip(start.folds_for_free, start.folds_for_free_se,
                                                            strict=True)],
        "regret of folding $": [ms(v, e, 1, 2) for v, e in zip(start.regret_fold, start.regret_fold_se,
                                                               strict=True)],
        "cost of folding $": [ms(v, e, 1, 1) for v, e in zip(start.fold_cost, start.fold_cost_se, strict=True)]})
    out = [_block("p", (
        "**By board texture.** The first player's free fold (the decision before anyone acts), start state, by "
        "texture: the number of boards with and without it, and the mean ± one standard error across those "
        "boards. The samples are small (a few boards a cell; no standard error with one board), so read "
        "differences smaller than two standard errors as noise:"))]
    out.append(_block("table", frame=shown))
    paired = start[start.texture == "paired"].set_index(["family", "has"])
    sentences = []
    for family in dict.fromkeys(start["family"]):
        if (family, True) in paired.index and (family, False) in paired.index:
            y, n = paired.loc[(family, True)], paired.loc[(family, False)]
            gap = y.folds_for_free - n.folds_for_free
            err = float(np.hypot(y.folds_for_free_se, n.folds_for_free_se))
            verdict = ("a difference of more than two standard errors" if np.isfinite(err) and abs(gap) > 2 * err
                       else "within the noise of so few boards" if np.isfinite(err) else
                       "too few boards for a standard error")
            sentences.append(
                f"{family}: {100 * y.folds_for_free:.1f}% on {_count(int(y.boards), 'paired board')} against "
                f"{100 * n.folds_for_free:.1f}% on {int(n.boards)} unpaired ({verdict}; cost of folding "
                f"${y.fold_cost:.1f} against ${n.fold_cost:.1f})")
    if sentences:
        out.append(_block("p", "How the free-fold share moves on paired boards: " + "; ".join(sentences) + ". "
                          "What a fold costs follows the board's corners (the penalty), not its texture."))
    return out


def _facing_bet(facing: pd.DataFrame | None) -> list:
    """Calling thresholds at equilibrium beside the pot odds."""
    if facing is None or not len(facing):
        return []
    out = [_block("p", (
        "**Facing a bet.** At every first-street decision where a player faces a bet: how often it comes up "
        "(share of deals reaching it), what calling costs and the pot odds (the equity a Texas Hold'em caller "
        "needs: to call / (pot + to call)), then at equilibrium the share of the range that calls and the share "
        "that *prefers* calling (calling worth more than folding by over 1% of the pot; 'near indifferent' when "
        "the two are closer). The threshold is the one cut that best separates the holdings that prefer calling "
        "from those that prefer folding: on the river on the holding's equity against the bettor's range at that "
        "decision, on the flop and turn on strength; 'fit' is the share of the range the cut classifies right. Means over "
        "the boards:"))]
    cols = ["reached", "to_call", "pot_odds", "threshold", "threshold_accuracy", "calls", "prefers_call",
            "near_indifferent", "call_gain"]
    table = facing.groupby(["family", "state", "line", "player", "scale"], sort=False)[cols].mean().reset_index()
    table = _percent(table, ["reached", "pot_odds", "threshold", "threshold_accuracy", "calls", "prefers_call",
                             "near_indifferent"])
    table["to_call"] = table["to_call"].round(0).astype(int)
    table["call_gain"] = table["call_gain"].map(lambda v: f"{v:.2f}")
    out.append(_block("table", frame=table.rename(columns={
        "reached": "reached %", "to_call": "to call $", "pot_odds": "pot odds %", "threshold": "threshold %",
        "threshold_accuracy": "fit %", "calls": "calls %", "prefers_call": "prefers calling %",
        "near_indifferent": "near indifferent %", "call_gain": "calling minus folding $"})))
    river = facing[(facing.family == "hu-river") & (facing.state == "start") & (facing.line.str.count("/") == 0)
                   & (facing.pot_odds < 0.4)]
    if len(river):
        out.append(_block("p", (
            f"Heads-up on the river, facing a pot-sized bet (pot odds {100 * river['pot_odds'].mean():.0f}%), the "
            f"equilibrium caller prefers calling from about {100 * river['threshold'].mean():.0f}% equity against "
            f"the bettor's range (fit {100 * river['threshold_accuracy'].mean():.0f}%) and calls "
            f"{100 * river['calls'].mean():.0f}% of its range. A Texas Hold'em player would need the pot odds. "
            "The difference is the penalty: folding to a bet in the last round makes the folder a loser who pays "
            "its penalty share heads-up (nobody else is left to show down, so the river exception spares no one), "
            "so folding costs the penalty on top of the chips already in, and a call that loses pays no more "
            "penalty than the fold. Deeper in the tree (an all-in over a bet) decisions come up in a few % of "
            "deals: there more of the range sits near indifference, and the solver's mix there is not settled "
            "by a solve to 0.3% of the pot; read 'prefers calling' rather than 'calls'.")))
    return out


def _versus_models(versus: pd.DataFrame | None, models: list[str]) -> list:
    """The free-fold answer at equilibrium beside best responses to each opponent model."""
    if versus is None or not len(versus):
        return []
    out = [_block("p", (
        "**The equilibrium beside the best response.** The same spots, with the opponent locked to one of the "
        "fold-vs-check study's models at every decision (node locking; models " + ", ".join(f"`{x}`" for x in models)
        + ") so the player plays a best response to it, beside the equilibrium: the share of the range whose best "
        "choice is to fold for free, the share indifferent, the player's value ($, chips after the settlement) "
        "and, against a model, the value the player's equilibrium strategy keeps against it. Means over the "
        "boards:"))]
    table = versus.groupby(["family", "state", "line", "player", "opponent"], sort=False)[
        ["folds_for_free", "indifferent", "ev", "equilibrium_ev"]].mean().reset_index()
    table = _percent(table, ["folds_for_free", "indifferent"])
    for col in ("ev", "equilibrium_ev"):
        table[col] = table[col].map(lambda v: f"{v:.1f}" if np.isfinite(v) else "")
    out.append(_block("table", frame=table.rename(columns={
        "folds_for_free": "folds for free %", "indifferent": "indifferent %", "ev": "value $",
        "equilibrium_ev": "equilibrium strategy's value $"})))
    root = versus[versus.line == "(root)"]
    if len(root):
        eq = root[root.opponent == "equilibrium"]["folds_for_free"]
        br = root[root.opponent != "equilibrium"].groupby("opponent")["folds_for_free"].mean()
        vs = root[root.opponent != "equilibrium"].groupby("opponent", sort=False)[["ev", "equilibrium_ev"]].mean()
        agree = eq.max() < 0.01 and br.max() < 0.01
        out.append(_block("p", (
            "First to act, the share of the range whose best choice is folding for free averages "
            f"{100 * eq.mean():.1f}% at equilibrium (at most {100 * eq.max():.1f}% on one board and state) and "
            + ", ".join(f"{100 * v:.1f}% against `{o}`" for o, v in br.items()) + ". "
            + ("Heads-up the two views agree: fold for free almost never. A heads-up free fold makes the folder "
               "the loser of the last betting round, so it pays the penalty share a lost showdown would cost "
               "and gives up the chance to win; only a holding that can neither win at showdown nor escape by "
               "folding to a bet later is indifferent. " if agree else
               "The views differ here: the best response exploits what the model does, the equilibrium assumes "
               "an opponent who exploits back. ")
            + "Where the assumption matters is the value: first to act, keeping the equilibrium strategy against "
            "a model is worth " + ", ".join(f"${r.equilibrium_ev:.0f} a hand against `{o}` (the best response: "
                                            f"${r.ev:.0f})" for o, r in vs.iterrows())
            + ". The models bet and call by fixed strength thresholds whatever the bet size and never bluff, "
            "which a best response exploits (mostly by betting all-in into their calls); the equilibrium strategy "
            "gains less against them but loses at most the exploitability stated above against any opponent. "
            "Use the best response against an opponent you have read as one of "
            "these styles, the equilibrium otherwise. The guide's two answers part three-handed, where folding "
            "for free escapes the penalty while the other two play on: there the equilibrium (the three-handed "
            "turn spots above, card by card, and the abstracted equilibrium) folds weak turn holdings for free "
            "and the fold-vs-check grid, against models that never bluff, checks.")))
    return out


def _strength_translated(table: pd.DataFrame | None, boards: int | None, seed: int) -> list:
    """What each tenth of the strength scale holds, in made hands and draws."""
    if table is None or not len(table):
        return []
    out = [_block("p", (
        "**What a strength means.** Strength, the scale of the fold-vs-check grid and the opponent models, is the "
        "share of all two-card holdings a holding beats on the board (ties half). On "
        f"{boards or 'a sample of'} boards a street drawn uniformly (seed {seed}), every holding, the made hands "
        "in each tenth of the scale (% of the holdings in that tenth; a board pair alone is no pair of the "
        "player's):"))]
    made = table[table["by"] == "made_hand"]
    for street in ("river", "turn", "flop"):
        rows = made[made.street == street]
        if not len(rows):
            continue
        pivot = rows.pivot_table(index="strength", columns="group", values="share", aggfunc="sum").fillna(0.0)
        keep = [g for g in MADE_HANDS if g in pivot.columns and pivot[g].max() >= 0.01]
        frame = _percent(pivot[keep], keep)
        frame.columns.name = None
        out.append(_block("p", f"{street.capitalize()}:"))
        out.append(_block("table", frame=frame.reset_index()))
    draws = table[(table["by"] == "draw") & (table.street != "river")]
    if len(draws):
        pivot = draws.pivot_table(index=["street", "strength"], columns="group", values="share",
                                  aggfunc="sum").fillna(0.0)
        keep = [g for g in ("combo draw", "flush draw", "open-ended", "gutshot") if g in pivot.columns]
        frame = _percent(pivot[keep], keep)
        frame.columns.name = None
        out.append(_block("p", "Draws on the flop and the turn, by tenth of strength (%; the rest have none):"))
        out.append(_block("table", frame=frame.reset_index()))
    return out


def whole_games(folder: Path, info: dict[str, Any]) -> list:
    """The duplicate tournament: which strategy wins whole games, and how the games go."""
    ranking = study_table(folder, "tournament_ranking")
    games = study_table(folder, "tournament_records")
    hands = study_table(folder, "tournament_hands")
    if ranking is None or games is None or hands is None:
        return []
    m = info.get("manifest", {})
    top = ranking.iloc[0]
    low = ranking.iloc[-1]
    n = len(m.get("strategies", [])) or 6
    out = [_block("p", (
        f"Six ways of playing sit at one table and play whole games from RULES §1.1 ($1,000 each, "
        f"bank 300/700/500, blinds rising as the bank tiers empty) until the game ends. Every deal "
        f"is played {n} times with the seats rotated (duplicate style), so each strategy meets the "
        f"same cards from every seat and the luck of the deal cancels. Strategies are the shipped "
        f"TOML files (`analysis/engine/data/`): `abc` never folds for free, `fold-free-multiway` is "
        f"the same player folding weak hands for free when three or more are in, `fold-free-always` "
        f"does it heads-up too, `tight-aggressive` plays few hands hard, `calling-station` calls "
        f"everything and `maniac` raises pot-sized. The result holds against this table only."))]
    out.append(_block("p", (
        f"Over {int(m.get('games', len(games) // n)):,} deals, **{top['strategy']}** wins "
        f"{top['win_share']:.0%} of the games (± {1.96 * top['win_share_se']:.0%}, 95%), against "
        f"{1 / n:.0%} for an even share; **{low['strategy']}** wins {low['win_share']:.0%}. "
        f"A game lasts {games['hands'].mean():.0f} hands on average (median "
        f"{games['hands'].median():.0f}); {(games['reason'] == 'bank').mean():.0%} end because the "
        f"bank ran dry, {(games['reason'] == 'one_left').mean():.0%} with one player left, "
        f"{(games['reason'] == 'cap').mean():.0%} at the {m.get('max_hands', 2000)}-hand cap.")))
    cols = [c for c in ("rank", "strategy", "win_share", "win_share_se", "mean_final_chips",
                        "mean_final_chips_se") if c in ranking.columns]
    out.append(_block("table", frame=ranking[cols].round(3)))
    agg = hands[["seating", "mean_hands_per_game", "showdown_rate", "free_folds_per_hand",
                 "mean_pot", "mean_penalty", "mean_bonus"]].round(3)
    out.append(_block("p", "Per-hand aggregates by seat rotation (the same deals in every row):"))
    out.append(_block("table", frame=agg))
    return out + _endings(study_table(folder, "game_endings"))


def _endings(endings: pd.DataFrame | None) -> list:
    """How games end at tables that change one factor from the guide's, and which factor moves it
    most: each verdict read from the table (paired differences against the guide table)."""
    if endings is None or endings.empty:
        return []
    e = endings.set_index("table")
    guide = e[e["factor"] == "guide"].iloc[0]
    strat = e[(e["factor"] == "strategies") & (e["deck"] == guide["deck"])]
    decks = e[(e["factor"] == "deck") & (e["strategies"] == guide["strategies"])]
    rules = e[e["factor"] == "rules"]

    def moved(rows: pd.DataFrame) -> float:
        return float(rows["bank_diff"].abs().max()) if not rows.empty else 0.0

    lo, hi = strat["share_bank"].idxmin(), strat["share_bank"].idxmax()
    spread = float(strat.loc[hi, "share_bank"] - strat.loc[lo, "share_bank"])
    effects = {"the strategies": spread, "the deck": moved(decks), "the rule options": moved(rules)}
    most = max(effects, key=effects.get)
    text = [
        f"**How games end, and why.** The designer promises games of 30-60 minutes that end when the "
        f"bank runs dry. The tables below each change one factor from the guide's table and play "
        f"{int(guide['games']):,} whole games in one seating (seed as above, the same game numbers at "
        f"every table, so each is compared with the guide's table game by game: `game_endings` holds "
        f"the paired differences and standard errors). In that seating {guide['share_bank']:.0%} of the "
        f"guide table's games end by the bank and {guide['share_one_left']:.0%} with one player left.",
        f"*{most[0].upper() + most[1:]} {'moves' if most == 'the deck' else 'move'} it most.* On the {guide['deck'].split('@')[0]} deck the share "
        f"of games that end by the bank runs from {strat.loc[lo, 'share_bank']:.0%} ({lo}) to "
        f"{strat.loc[hi, 'share_bank']:.0%} ({hi}, {strat.loc[hi, 'mean_hands']:.0f} hands on average), "
        f"a spread of {100 * spread:.0f} points; changing the deck moves the guide table's share by at most "
        f"{100 * effects['the deck']:.1f} points and a rule option by at most "
        f"{100 * effects['the rule options']:.1f} points.",
    ]
    bank_tables = ", ".join(f"{t} ({r['share_bank']:.0%})" for t, r in strat.iterrows() if r["share_bank"] >= 0.9)
    out_tables = ", ".join(f"{t} ({r['share_bank']:.0%})" for t, r in strat.iterrows() if r["share_bank"] <= 0.1)
    if bank_tables:
        text.append(f"Tables where at least 90% of games end by the bank: {bank_tables}. Tables where at most "
                    f"10% do: {out_tables or 'none'}. (`tight` is the fold-vs-check opponent model played as "
                    f"rules: it calls every pre-flop bet, then bets half the pot with about the top quarter of "
                    f"holdings by strength and calls a bet with about the top half, folding below.)")
    if not decks.empty:
        parts = ", ".join(f"{r['share_bank']:.0%} on the {r['deck'].split('@')[0]} deck ({_points(r)})" for _, r in decks.iterrows())
        text.append(f"*The deck:* the guide's table ends by the bank in {guide['share_bank']:.0%} of games on the "
                    f"{guide['deck'].split('@')[0]} deck, {parts}. The bank pays the bonuses and the effect "
                    f"cards' gains and takes the penalties: without effect cards (`plain`) it drains more slowly, "
                    f"without corner values (`bare`) it never pays out.")
    if not rules.empty:
        notable = rules[rules["bank_diff"].abs() > 2 * rules["bank_diff_se"].fillna(0)]
        verdict = ("none moves the share that ends by the bank by more than two standard errors"
                   if notable.empty else "beyond two standard errors: " + ", ".join(notable["rules"]))
        items = "; ".join(
            f"{r['rules']} ({_RULE_KIND.get(r['rules'].split('=')[0], 'a choice where the sources are silent')}): "
            f"{_points(r)}, {int(r['games_changed'])} of "
            f"{int(r['games'])} games changed" for _, r in rules.iterrows())
        text.append(f"*The rule options,* each against the guide table game by game: {items}. So {verdict}.")
    text.append("Game length is in hands; at a live table's pace (our assumption: 30-60 seconds a hand) "
                "30-60 minutes is about 30-120 hands.")
    cols = ["deck", "rules", "mean_hands", "median_hands", "share_bank", "share_one_left", "share_cap"]
    frame = e[cols].reset_index().assign(deck=lambda f: f["deck"].str.split("@").str[0])
    frame = frame.assign(**{c: frame[c].map(lambda v: f"{v:,.1f}") for c in ("mean_hands", "median_hands")})
    frame = _percent(frame, ["share_bank", "share_one_left", "share_cap"]).rename(columns={
        "share_bank": "bank %", "share_one_left": "one left %", "share_cap": "cap %"})
    return [_block("p", t) for t in text] + [_block("table", frame=frame)]


def _points(row: pd.Series) -> str:
    """A paired change of the share ending by the bank, in percentage points ± one standard error."""
    return f"{100 * row['bank_diff']:+.1f} points ± {100 * row['bank_diff_se']:.1f}"


_RULE_KIND = {"showdown_exception": "a source rule, RULES §1.4"}
"""Rule options of the how-games-end study that the sources state (the others are choices)."""


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
        elif stem.startswith("brag_blind_"):
            title = f"Three Card Brag: blind minus open ({stem.removeprefix('brag_blind_')} field)"
        elif stem.startswith("fold_vs_check_penalty_"):
            title = f"The gap as the board penalty grows against the pot ({stem.rsplit('_', 1)[1]} opponents)"
        elif stem == "game_sample_trajectory":
            title = "One game, hand by hand: chips of each seat and the bank"
        elif stem == "game_length":
            title = "How many hands a game lasts, by the way it ended"
        elif stem == "game_win_rate":
            title = "Games won and final chips by strategy (95% intervals)"
        else:
            title = _TITLES.get(stem, chart["title"])
        shown.append({**chart, "title": title})
    return shown

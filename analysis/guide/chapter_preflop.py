"""The guide's pre-flop chapter: the heads-up entry chart, the equilibrium in whole games, the
three-handed chart over starting classes and the three-handed equilibrium in whole games.

Every number is read from the ``preflop`` study's tables (:mod:`analysis.studies.preflop_chart`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.studies.preflop_chart import plain_rows

from .blocks import Block, study_table

RANKS = ("A", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SHORT = {"fold": "F", "call": "C", "check": "X", "raise": "R", "allin": "A"}


def money(x: float) -> str:
    """Dollars with the sign in front: ``$8.9``, ``-$1.1``."""
    return f"-${-x:.1f}" if x < 0 else f"${x:.1f}"


def _kind(action: str) -> str:
    return action.split()[0]


def action_shares(chart: pd.DataFrame) -> pd.DataFrame:
    """Per decision, how often each kind of action is taken over the holdings that reach it."""
    c = chart.assign(kind=chart["action"].map(_kind), w=chart["reach"] * chart["combos"] * chart["frequency"])
    out = c.groupby(["node", "line", "player", "kind"], sort=False)["w"].sum().unstack(fill_value=0.0)
    out = out.div(out.sum(axis=1), axis=0)
    return out.reset_index()


def _mix(g: pd.DataFrame) -> pd.Series:
    w = g["reach"] * g["combos"]
    kinds = g.assign(kind=g["action"].map(_kind), wf=w * g["frequency"]).groupby("kind")["wf"].sum()
    return (kinds / kinds.sum()).sort_values(ascending=False)


def _cell(g: pd.DataFrame) -> str:
    kinds = _mix(g)
    text = f"{SHORT[kinds.index[0]]} {kinds.iloc[0]:.0%}"
    if len(kinds) > 1 and kinds.iloc[1] >= 0.2:
        text += f" {SHORT[kinds.index[1]]} {kinds.iloc[1]:.0%}"
    return text + (" ~" if int(g["indifferent"].sum()) > 1 else "")


def grid(chart: pd.DataFrame, node: int) -> pd.DataFrame:
    """The 10 x 10 chart of one decision for holdings without a green card: pairs on the diagonal,
    suited above it (the row the higher card), offsuit below (the column the higher card); each cell the most frequent action and its share (``R 80%``,
    the second when it reaches 20%), ``~`` where the best action is within the indifference
    margin of another."""
    rows = plain_rows(chart[chart["node"] == node])
    cells = {hand: _cell(g) for hand, g in rows.groupby("hand")}
    table = []
    for i, hi in enumerate(RANKS):
        row = {"": hi}
        for j, lo in enumerate(RANKS):
            if i == j:
                name = hi + lo
            elif j > i:
                name = f"{hi}{lo}s"
            else:
                name = f"{lo}{hi}o"
            row[lo] = cells.get(name, "")
        table.append(row)
    return pd.DataFrame(table)


def preflop(folder: Path, info: dict[str, Any]) -> list[Block]:
    """The heads-up entry chart by game state, how it rests on its assumptions, and the equilibrium
    strategy it completes in whole games against the hand-written ones."""
    chart, spots = study_table(folder, "preflop_chart"), study_table(folder, "preflop_spots")
    if chart is None or spots is None or not len(chart):
        return []
    m = info.get("manifest", {})
    deck = m.get("deck", "reference")
    tree = m.get("tree", {})
    start = spots[(spots["state"] == "start") & (spots["deck"] == deck) & (spots["sample"] == 0)].iloc[0]
    se_cols = [c for c in spots.columns if c.startswith("continuation_se_")]
    se_text = ", ".join(f"${c.removeprefix('continuation_se_')} in: {start[c]:.1f}" for c in se_cols
                        if np.isfinite(start[c]))
    out = [Block("p", (
        f"A heads-up pre-flop game solved holding by holding: every two-card holding of the {deck} deck for both "
        f"players (card removal exact), blinds and raises as RULES §1.2 states them (the small blind is the DEALER "
        f"and acts first; the big blind has the option), opens to {', '.join(map(str, tree.get('opens_bb', [])))} big "
        f"blinds, re-raises to {', '.join(map(str, tree.get('reraises_x', [])))}x, all-in at any time, at most "
        f"{tree.get('max_raises')} raises, ${tree.get('chips')} each before the hand. A fold ends the hand before "
        "the flop and is settled by the real rules (no board: no penalty, no bonus; a winner's hand effects apply). "
        "**The abstraction:** when both see the flop, each is worth the *check-down*: nobody bets again, the five "
        "cards come and the hand is settled by the real rules (pot, bonus, the penalty of the river's losers, "
        "effects, red cards from the turn). That is exact after an all-in and, at smaller pots, the value of a "
        "player who never folds after the flop; the full guide solves each state's chart once more with "
        "postflop play, from flops solved card by card in that state. "
        f"Continuation values are means over {int(start['boards']):,} boards drawn "
        f"uniformly (seed {int(start['sample'])}); a pair's standard error is {se_text}. "
        f"DCFR to an exploitability of at most {spots[['exploitability_bb', 'exploitability_sb']].max().max():.3f} "
        "chips per hand for either player (its exact best response's gain). Frequencies are weighted by how "
        "likely each holding is to reach the decision; an action is *indifferent* when its EV is within "
        f"${m.get('indifferent_chips', 1.0):g} of the best one (a stated margin: the continuation's sampling "
        "error is of that order in limped pots and larger in raised ones, as the second sample below shows)."))]
    shares = action_shares(chart[(chart["state"] == "start") & (chart["deck"] == deck) & (chart["sample"] == 0)])
    kinds = [k for k in ("fold", "check", "call", "raise", "allin") if k in shares.columns]
    frame = pd.DataFrame({"decision": shares["line"], "who": shares["player"],
                          **{f"{k} %": [f"{100 * x:.1f}" for x in shares[k]] for k in kinds}})
    out.append(Block("p", "**How often each action is taken** (start state: bank 300/700/500, blinds 10/20):"))
    out.append(Block("table", frame=frame))
    base = chart[(chart["state"] == "start") & (chart["deck"] == deck) & (chart["sample"] == 0)]
    for node, title in ((0, "the small blind's first action"), (_node(base, "raise"), "the big blind facing an open")):
        if node is None:
            continue
        out.append(Block("p", f"**The chart: {title}** (pairs on the diagonal; suited above it, the row the higher "
                              "card; offsuit below it, the column the higher card; F fold, C call, X check, R raise, A all-in, with the share of the most "
                              "frequent action; ~ marks classes whose best action is indifferent with another):"))
        out.append(Block("table", frame=grid(base, node)))
        diff = green_differences(base, node)
        if len(diff):
            n = diff["class"].nunique()  # a row per class and hand effect: 22 has insurance and insurance+insurance
            out.append(Block("p", f"Suits matter where a card is green (a hand effect: As and Ah pay a dividend to a "
                                  f"winner, 2s and 2h are insurance against the penalty): at this decision "
                                  f"{n} class{'es' if n > 1 else ''} play{'' if n > 1 else 's'} "
                                  "otherwise with a green card:"))
            out.append(Block("table", frame=diff))
    out += _played_text(folder, base, start, (chart, spots))
    out += _states_text(chart, spots, deck)
    out += _sample_text(study_table(folder, "preflop_second_sample"))
    out += _games_text(study_table(folder, "preflop_games"), study_table(folder, "preflop_game_endings"), m)
    out += three_handed(folder, deck, chart, spots)
    return out


def _played_text(folder: Path, base: pd.DataFrame, start: pd.Series,
                 checkdown: tuple[pd.DataFrame, pd.DataFrame]) -> list[Block]:
    """The charts again with postflop play from solved flops: the abstraction, how often each action is
    taken beside the check-down chart, the start state's two grids and the classes that move most, and
    every state's chart beside its check-down one (``checkdown`` = (chart, spots) of the check-down solves)."""
    played, row = study_table(folder, "preflop_chart_played"), study_table(folder, "preflop_played_spots")
    moves = study_table(folder, "preflop_played_moves")
    if played is None or row is None or moves is None:
        return [Block("p", "**With postflop play:** not in a preview (it needs the full guide's stored flop solves, "
                           "the `postflop_value` study); the charts above check down after the flop.")]
    every, every_moves = played, moves
    played, moves = (x[x["state"] == "start"] if "state" in x.columns else x for x in (played, moves))
    if not (row["state"] == "start").any():
        return [Block("p", "**With postflop play:** the stored tables hold no start-state chart.")]
    r = row[row["state"] == "start"].iloc[0]
    out = [Block("h3", "The chart with postflop play"), Block("p", (
        "**The abstraction:** the same solve, but a pair that sees the flop is worth its check-down value *plus* "
        "each player's postflop edge: what its starting class gains over checking down when the flop is played "
        "at equilibrium (the `postflop_value` section: flops solved card by card at each pre-flop level of the "
        "game state, random ranges, bets of the pot or all-in). The edge is a class average against a random range "
        "whatever the opponent holds, so the chart knows that position and playable hands are worth more than "
        "their showdown, not how they fare against the range the pre-flop play leaves. "
        f"DCFR to {max(r['exploitability_bb'], r['exploitability_sb']):.3f} chips; values: big blind "
        f"{money(r['value_bb'])} (check-down {money(start['value_bb'])}), small blind {money(r['value_sb'])} "
        f"(check-down {money(start['value_sb'])}) a hand."))]
    a, b = action_shares(base), action_shares(played)
    kinds = [k for k in ("fold", "check", "call", "raise", "allin") if k in a.columns or k in b.columns]
    keys = ["node", "line", "player"]
    a, b = (x.reindex(columns=keys + kinds, fill_value=0.0) for x in (a, b))
    both = a.merge(b, on=keys, suffixes=("_cd", "_pl")).head(4)  # the first decisions, in tree order
    out.append(Block("p", "**How often each action is taken**, check-down chart / with postflop play (%):"))
    out.append(Block("table", frame=pd.DataFrame({
        "decision": both["line"], "who": both["player"],
        **{k: [f"{100 * x:.1f} / {100 * y:.1f}" for x, y in zip(both[f"{k}_cd"], both[f"{k}_pl"], strict=True)]
           for k in kinds}})))
    for node, title in ((0, "the small blind's first action"), (_node(played, "raise"), "the big blind facing an "
                                                                                        "open")):
        if node is None:
            continue
        m = moves[moves["node"] == node]
        big = m[m["largest_change"] >= 0.2].sort_values("largest_change", ascending=False)
        out.append(Block("p", f"**With postflop play: {title}** ({len(big)} of {len(m)} classes move an action's "
                              "share by 20 points or more from the check-down chart"
                              + (f"; most: {', '.join(big['hand'].head(6))}" if len(big) else "") + "):"))
        out.append(Block("table", frame=grid(played, node)))
    out += _played_states_text(checkdown, every, row, every_moves)
    games, pgames = study_table(folder, "preflop_games"), study_table(folder, "preflop_played_games")
    if games is not None and pgames is not None and list(games["opponent"]) == list(pgames["opponent"]):
        out.append(Block("p", "**Both charts in whole heads-up games** (the same deals and seed; after the flop both "
                              "play the abstracted equilibrium; win share ± one standard error; the games below use "
                              "the check-down chart's file, `equilibrium-hu.toml`, this one "
                              "`equilibrium-hu-played.toml`):"))
        out.append(Block("table", frame=pd.DataFrame({
            "opponent": games["opponent"], "check-down chart wins %": _pm(games, "win_share", ".1f", 100),
            "chart with postflop play wins %": _pm(pgames, "win_share", ".1f", 100)})))
        z, _ = win_share_change(pgames, games)
        k = int(z.abs().idxmax())
        out.append(Block("p", (
            f"The largest change is against {games['opponent'][k]}: {100 * (pgames['win_share'][k] - games['win_share'][k]):+.1f} "
            f"points, {abs(z[k]):.1f} standard errors if the two runs were independent. They play the same deals, "
            "so the paired difference is known better than that; these tables do not hold it.")))
    return out


def _kind_shares(chart: pd.DataFrame, node: int) -> pd.Series:
    """The reach-weighted share of each kind of action (fold, call, raise, allin, ...) at ``node`` of one
    chart (NaN for every kind when the chart never reaches it)."""
    sh = action_shares(chart)
    row = sh[sh["node"] == node]
    kinds = ("fold", "check", "call", "raise", "allin")
    if not len(row):
        return pd.Series(np.nan, index=kinds)
    return row.iloc[0].reindex(kinds, fill_value=0.0)


def _pair(a: float, b: float) -> str:
    """Two percentages as "a / b" (a dash for a decision never reached)."""
    return " / ".join(f"{x:.1f}" if np.isfinite(x) else "-" for x in (a, b))


def _played_states_text(checkdown: tuple[pd.DataFrame, pd.DataFrame], played: pd.DataFrame, rows: pd.DataFrame,
                        moves: pd.DataFrame) -> list[Block]:
    """Every game state's chart with postflop play beside its check-down chart (``checkdown`` = (chart,
    spots) of the check-down solves): values, the small blind's first action and the big blind facing
    the small blind's raise (the decisions of the moves table), and the classes that move by 20 points
    or more there."""
    if "state" not in played.columns or played["state"].nunique() < 2:
        return []
    chart, spots = checkdown
    table = []
    for r in rows.itertuples():
        cd = chart[(chart["state"] == r.state) & (chart["deck"] == r.deck) & (chart["sample"] == 0)]
        pl = played[played["state"] == r.state]
        mv = moves[moves["state"] == r.state]
        first, facing = sorted(mv["node"].unique())  # the small blind's first action; the big blind facing its raise
        line = mv.loc[mv["node"] == facing, "line"].iloc[0]
        root_cd, root_pl = _kind_shares(cd, first), _kind_shares(pl, first)
        vs_cd, vs_pl = _kind_shares(cd, facing), _kind_shares(pl, facing)
        v = spots[(spots["state"] == r.state) & (spots["deck"] == r.deck) & (spots["sample"] == 0)].iloc[0]
        table.append({
            "state": r.state,
            "values bb / sb $ (check-down)": f"{money(v['value_bb'])} / {money(v['value_sb'])}",
            "values bb / sb $ (played)": f"{money(r.value_bb)} / {money(r.value_sb)}",
            **{f"sb {kind} %": _pair(100 * root_cd[kind], 100 * root_pl[kind]) for kind in ("fold", "call", "raise",
                                                                                            "allin")},
            "big blind facing": line,
            **{f"bb {kind} %": _pair(100 * vs_cd[kind], 100 * vs_pl[kind]) for kind in ("fold", "call", "raise",
                                                                                        "allin")},
            "classes moving 20+ points (sb / bb)": " / ".join(
                str(int((mv[mv["node"] == node]["largest_change"] >= 0.2).sum())) for node in (first, facing)),
            "exploitability chips": f"{max(r.exploitability_bb, r.exploitability_sb):.3f}"})
    return [Block("p", (
        "**Every game state with postflop play** (each state's flops solved at the levels its own blinds give, "
        "the `postflop_value` section; check-down chart / with postflop play, reach-weighted %; the big blind's "
        "columns at its answer to the small blind's raise, which is no longer the main open where the small "
        "blind mostly moves all in; the grids above are the start state's):")),
        Block("table", frame=pd.DataFrame(table))]


def green_differences(chart: pd.DataFrame, node: int) -> pd.DataFrame:
    """Classes whose holdings with a green card take another main action than the class's plain ones."""
    rows = chart[chart["node"] == node]
    out = []
    for hand, g in rows.groupby("hand"):
        if (g["green"] == "none").sum() == 0:
            continue
        plain = _mix(g[g["green"] == "none"])
        for green, h in g[g["green"] != "none"].groupby("green"):
            mine = _mix(h)
            if mine.index[0] != plain.index[0]:
                out.append({"class": hand, "hand effect": green, "with it": _cell(h),
                            "without (plain suits)": _cell(g[g["green"] == "none"])})
    return pd.DataFrame(out)


def _node(chart: pd.DataFrame, line_start: str) -> int | None:
    hit = chart[chart["line"].str.fullmatch(rf"{line_start} \d+")]
    return int(hit["node"].iloc[0]) if len(hit) else None


def _states_text(chart: pd.DataFrame, spots: pd.DataFrame, deck: str) -> list[Block]:
    """How the root's actions move with the game state and without the bank's money (bare deck)."""
    rows = []
    for s in spots.itertuples():
        if s.sample != 0:
            continue
        c = chart[(chart["state"] == s.state) & (chart["deck"] == s.deck) & (chart["sample"] == 0)]
        root = _kind_shares(c, int(c.loc[c["line"] == "(root)", "node"].iloc[0]))
        node = _node(c, "raise")
        vs = None if node is None else _kind_shares(c, node)
        rows.append({"state": s.state, "deck": s.deck, "blinds": s.blinds, "bank": s.bank,
                     "small blind folds %": 100 * root.get("fold", 0.0),
                     "small blind raises or shoves %": 100 * (root.get("raise", 0.0) + root.get("allin", 0.0)),
                     "big blind folds to an open %": np.nan if vs is None else 100 * vs.get("fold", 0.0),
                     "value big blind $": s.value_bb, "value small blind $": s.value_sb})
    frame = pd.DataFrame(rows)
    if frame.empty:
        return []
    shown = frame.copy()
    for col in shown.columns[4:]:
        shown[col] = [f"{x:.1f}" for x in shown[col]]
    out = [Block("p", "**By game state, and without the bank's money** (the bare deck: no corners, no effects, "
                      "the pot alone, Texas Hold'em's answer on 40 cards). Values are chips after the hand less "
                      "chips before, per hand, under the solved strategies:"),
           Block("table", frame=shown)]
    ref = frame[(frame["state"] == "start") & (frame["deck"] == deck)]
    bare = frame[frame["deck"] == "bare"]
    if len(ref) and len(bare):
        r, b = ref.iloc[0], bare.iloc[0]
        more = r["small blind folds %"] > b["small blind folds %"]
        out.append(Block("p", (
            f"With the bank's money the small blind folds {r['small blind folds %']:.1f}% of its hands against "
            f"{b['small blind folds %']:.1f}% on the bare deck: "
            + ("more hands give up before the flop when the bank's bonus and penalty are in play. " if more
               else "more hands see the flop when the bank's bonus and penalty are in play. ")
            + f"Each player expects {money(r['value big blind $'])} (big blind) and {money(r['value small blind $'])} "
            f"(small blind) a hand at the start, against {money(b['value big blind $'])} and "
            f"{money(b['value small blind $'])} on the bare deck, where chips only change hands between the players "
            "(the two values sum to zero).")))
    return out


def _sample_text(table: pd.DataFrame | None) -> list[Block]:
    if table is None or not len(table):
        return []
    worst = table.loc[table["mean_freq_diff"].idxmax()]
    return [Block("p", (
        "**A second, independent sample of continuation boards** (seed 1) gives the same chart within "
        f"{100 * table['mean_freq_diff'].mean():.1f} points of frequency on average (reach-weighted over classes; "
        f"at most {100 * worst['mean_freq_diff']:.1f} points at `{worst['line']}`; single classes, unweighted, up to "
        f"{100 * table['max_freq_diff'].max():.0f} points: there a class that almost never reaches the decision "
        f"counts as much as one that always does) and EVs within ${table['mean_ev_diff'].mean():.2f} on "
        "average."))]


def _pm(frame: pd.DataFrame, column: str, fmt: str, scale: float = 1.0) -> list[str]:
    """Each row's ``column`` with its standard error (``column_se``): "value ± se", both times ``scale``."""
    return [f"{scale * v:{fmt}} ± {scale * e:{fmt}}" for v, e in zip(frame[column], frame[f"{column}_se"], strict=True)]


def _standing(games: pd.DataFrame, ends: pd.DataFrame, fair: float) -> tuple[list[str], list[str], list[str], float]:
    """The opponents the strategy beats, loses to and is level with (its win share against ``fair``, two
    standard errors), and the share of all games that ended by the bank."""
    beats = games[games["win_share"] - 2 * games["win_share_se"] > fair]["opponent"].tolist()
    loses = games[games["win_share"] + 2 * games["win_share_se"] < fair]["opponent"].tolist()
    even = [o for o in games["opponent"] if o not in beats + loses]
    return beats, loses, even, float((ends["share_bank"] * ends["games"]).sum() / ends["games"].sum())


def _games_text(games: pd.DataFrame | None, ends: pd.DataFrame | None, m: dict[str, Any]) -> list[Block]:
    if games is None or ends is None or not len(games):
        return []
    frame = pd.DataFrame({
        "opponent": games["opponent"], "deals": games["games"],
        "equilibrium wins %": _pm(games, "win_share", ".1f", 100),
        "equilibrium's final chips $": _pm(games, "final_chips", ".0f"),
        "mean hands": [f"{x:.1f}" for x in ends["mean_hands"]],
        "ended by the bank %": [f"{100 * x:.1f}" for x in ends["share_bank"]],
        "ended with one left %": [f"{100 * x:.1f}" for x in ends["share_one_left"]]})
    beats, loses, even, bank = _standing(games, ends, 0.5)
    same = [(a, b) for i, a in enumerate(games["opponent"]) for b in games["opponent"][i + 1:]
            if games.set_index("opponent").loc[a].equals(games.set_index("opponent").loc[b])]
    verdict = (f"It wins more than half the games (beyond two standard errors) against {', '.join(beats) or 'no one'}"
               + (f", fewer than half against {', '.join(loses)}" if loses else "")
               + (f", and is level (within two standard errors) with {', '.join(even)}" if even else "") + ". "
               + "".join(f"`{b}` plays exactly as `{a}` heads-up (the same results over the same deals). "
                         for a, b in same)
               + f"Heads-up games last {ends['mean_hands'].min():.0f}-{ends['mean_hands'].max():.0f} hands on average and "
               f"{100 * bank:.1f}% of them end because the bank ran dry: at two seats one player busts long before the "
               "bank's $1,500 is paid out, whoever sits opposite. The whole-games chapter separates strategies, deck "
               "and rules at six seats.")
    return [Block("p", (
        "**The equilibrium in whole games.** The strategy file `equilibrium-hu.toml` (in this study's folder; "
        "`dilemma game simulate --strategies <path>,abc` plays it) is the chart above before the flop (per class: "
        "the engine does not see suits, so a class plays its holdings' mix) and the abstracted equilibrium after "
        "it (the previous chapter's heads-up solution: strength buckets, one bet size). Heads-up only: it has no "
        "rule for a third player before the flop. Whole heads-up games from $1,000 each and the full bank, "
        f"duplicate (each deal played from both seats; seed {m.get('seed', 0)}):")),
        Block("table", frame=frame), Block("p", verdict)]


# ------------------------------------------------------------------ three-handed

def three_grids(dec: pd.DataFrame) -> list[tuple[str, str]]:
    """The decisions drawn as grids (line, title): the button first in, the small blind first in, and
    facing the button's open (its smallest raise, read from the decisions: 60 at blinds of 10/20) the
    small blind, then the big blind once the small blind folded."""
    out = [("(root)", "the button first in"), ("BTN fold", "the small blind first in (the button folded)")]
    if opened := _open_line(dec):
        out += [(opened, f"the small blind facing the button's open to {opened.split()[2]}"),
                (opened + " / SB fold", "the big blind facing the button's open, the small blind folded")]
    return out

SHOWN_PROBABILITY = 0.01
"""Decisions reached in at least this share of hands are listed in the frequency table."""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _share(dec: pd.DataFrame, line: str, *kinds: str) -> float:
    row = dec[dec["line"] == line]
    return float(sum(row[k].iloc[0] for k in kinds)) if len(row) else float("nan")


def _hu_share(chart: pd.DataFrame, line: str, *kinds: str) -> float:
    """A heads-up decision's share of some kinds of action (reach-weighted over holdings)."""
    sh = action_shares(chart).set_index("line")
    if line not in sh.index:
        return float("nan")
    return float(sum(sh.loc[line].get(k, 0.0) for k in kinds))


def three_handed(folder: Path, deck: str, hu_chart: pd.DataFrame | None = None,
                 hu_spots: pd.DataFrame | None = None) -> list[Block]:
    """The three-handed chart: its abstraction and convergence, how often each decision's actions are
    taken, the grids, how it moves with the game state, heads-up beside it and the second sample."""
    chart, spots, dec = (study_table(folder, n) for n in ("preflop3_chart", "preflop3_spots", "preflop3_decisions"))
    if chart is None or spots is None or dec is None or not len(spots):
        return []
    manifest = folder / "preflop3_chart.manifest.json"
    tree = json.loads(manifest.read_text()).get("tree", {}) if manifest.exists() else {}
    first = spots[spots["sample"] == 0]
    start = first[first["state"] == "start"].iloc[0]
    se3 = sorted((int(c.rsplit("_", 1)[1]), c) for c in spots.columns if c.startswith("continuation_se3_"))
    se3_text = ", ".join(f"${lv:,} in each: ${start[c]:.0f}" for lv, c in se3 if np.isfinite(start[c]))
    out = [Block("h3", "Three-handed"), Block("p", (
        "The same bet tree three-handed (RULES §1.2): the button (the DEALER) acts first, then the small blind, "
        "then the big blind, who has the option when nobody raised; opens to "
        f"{', '.join(f'{x:g}' for x in tree.get('opens_bb', []))} big blinds, re-raises to "
        f"{', '.join(f'{x:g}' for x in tree.get('reraises_x', []))}x, all-in, at most {tree.get('max_raises')} "
        f"raises, ${int(start['chips']):,} each. "
        "**The abstraction:** three players over every holding are too many (780 each), so a player's private "
        "state is its *starting class* (the 100 cells of the grid): the three classes are dealt with their real "
        "joint frequencies (card removal exact: every triple of classes counted over the disjoint holdings), "
        "and a class plays all its holdings alike, so the effects of green cards are averaged into the class "
        "(the heads-up chart above shows where a green card changes the play). A fold ends the hand before the "
        "flop and is settled by the real rules; when two or three players see the flop each is worth the "
        "*check-down* as heads-up, settled by the real rules with a folder's chips in the pot (a pre-flop "
        f"folder pays no penalty). The continuation is sampled: {int(start['boards']):,} boards drawn "
        f"uniformly and settled once each, then {int(start['deals_per_triple'])} deals of holdings for every "
        "triple of classes, each on a board of the pool that misses its six cards; where two players see the "
        "flop their values are pooled over the folder's class. A single triple's value is noisy (standard "
        f"error {se3_text}), but a class's value sums thousands of triples: how much the chart owes to the "
        "sample is measured by a second, independent sample below. DCFR, each player's best response exact over "
        f"classes: NashConv (the sum of the three players' best-response gains) at most "
        f"{first['nash_conv'].max():.3f} chips a hand and at most {first['nash_conv_pct_blinds'].max():.2f}% of the "
        "blinds' pot in every game state (each state's in the table below). With three players CFR is not guaranteed to reach an equilibrium; the "
        "NashConv says how little any one player could gain by changing its own play alone."))]
    d0 = dec[(dec["state"] == "start") & (dec["deck"] == deck) & (dec["sample"] == 0)]
    shown = d0[d0["probability"] >= SHOWN_PROBABILITY]
    kinds = [k for k in ("fold", "check", "call", "raise", "allin") if k in shown.columns and shown[k].max() > 0]
    out.append(Block("p", "**How often each action is taken** three-handed (start state; decisions reached in at "
                          f"least {100 * SHOWN_PROBABILITY:g}% of hands; classes weighted by their chance of being "
                          "at the decision):"))
    out.append(Block("table", frame=pd.DataFrame({"decision": shown["line"], "who": shown["player"],
                                                  "reached %": [_pct(x) for x in shown["probability"]],
                                                  **{f"{k} %": [_pct(x) for x in shown[k]] for k in kinds}})))
    base = chart[(chart["state"] == "start") & (chart["deck"] == deck) & (chart["sample"] == 0)]
    lines = base.drop_duplicates("node").set_index("line")["node"]
    for line, title in three_grids(d0):
        if line not in lines.index:
            continue
        out.append(Block("p", f"**The three-handed chart: {title}** (per class; the layout and letters of the "
                              "heads-up grids):"))
        out.append(Block("table", frame=grid(base, int(lines[line]))))
    out += _class_cost(study_table(folder, "preflop_class_cost"))
    out += _three_states(dec, first, deck)
    if hu_chart is not None:
        out += _versus_heads_up(hu_chart, d0, deck)
    d1 = dec[(dec["state"] == "start") & (dec["deck"] == deck) & (dec["sample"] == 1)]
    out += _sample_text3(study_table(folder, "preflop3_second_sample"), d0, d1)
    out += played3_text(folder, spots)
    out += _games3_text(folder)
    out += _played_games3_text(folder)
    return out


def win_share_change(new: pd.DataFrame, old: pd.DataFrame) -> tuple[pd.Series, list[str]]:
    """Two strategies' whole-game tables against the same opponents: per opponent, the change of the win share
    in standard errors (as if the two runs were independent), and the changes beyond two of them
    (``"abc (+5.0 points)"``)."""
    z = (new["win_share"] - old["win_share"]) / np.hypot(old["win_share_se"], new["win_share_se"])
    far = [f"{o} ({100 * (b - a):+.1f} points)" for o, a, b, x in zip(old["opponent"], old["win_share"],
                                                                      new["win_share"], z, strict=True) if abs(x) > 2]
    return z, far


def _played_games3_text(folder: Path) -> list[Block]:
    """Both three-handed charts in the same whole games (``preflop3_games`` beside ``preflop3_played_games``)."""
    games, pgames = study_table(folder, "preflop3_games"), study_table(folder, "preflop3_played_games")
    if games is None or pgames is None or list(games["opponent"]) != list(pgames["opponent"]):
        return []
    z, far = win_share_change(pgames, games)
    return [Block("p", "**Both three-handed charts in whole games** (the same deals and seed, the same play after "
                       "the flop; `equilibrium-3-played.toml` plays the chart with postflop play where two see the "
                       "flop; win share ± one standard error, fair 33.3%):"),
            Block("table", frame=pd.DataFrame({
                "opponent (two seats)": games["opponent"], "check-down chart wins %": _pm(games, "win_share", ".1f", 100),
                "chart with postflop play wins %": _pm(pgames, "win_share", ".1f", 100)})),
            Block("p", ("Beyond two standard errors (as if the runs were independent; they play the same deals): "
                        + (", ".join(far) if far else "none") + f". The chart with postflop play wins less against "
                        f"{int((z < 0).sum())} of the {len(z)} opponents. After the flop both files play the "
                        "abstracted equilibrium, not the solved flops whose edges the second chart was solved with."))]


MOVED3 = {"preflop3_chart_button": "button first in", "preflop3_chart_sb_first": "small blind first in",
          "preflop3_chart_sb_vs_open": "small blind facing the open",
          "preflop3_chart_bb_vs_open": "big blind facing the open, small blind out"}
"""The decisions whose moves the three-handed section counts (:data:`~analysis.studies.preflop_chart.CHART3_NODES`)."""


def _ends(row: pd.Series) -> str:
    """How hands end under one three-handed chart: before the flop, two see it, three see it (%)."""
    return " / ".join(f"{100 * row[f'share_{k}']:.1f}" if f"share_{k}" in row.index else "-"
                      for k in ("fold_end", "two_see_flop", "three_see_flop"))


def played3_text(folder: Path, spots: pd.DataFrame) -> list[Block]:
    """The three-handed chart with postflop play where two see the flop (``preflop3_chart_played``,
    ``preflop3_played_spots``, ``preflop3_played_moves``) beside the check-down chart (``spots``: its
    solves): the abstraction and what it leaves out, per game state the values, how hands end and the classes
    that move, the start state's grids of the button first in and the small blind facing its open."""
    from analysis.studies.preflop_chart import chart3_nodes

    played, rows = study_table(folder, "preflop3_chart_played"), study_table(folder, "preflop3_played_spots")
    moves = study_table(folder, "preflop3_played_moves")
    if played is None or rows is None or moves is None or not len(rows):
        return []
    base = spots[spots["sample"] == 0].set_index("state")
    out = [Block("p", (
        "**Three-handed with postflop play** (the heads-up chart's abstraction where it applies): where one player "
        "folded before the flop and two see it below all in, each live player's value gains its class's postflop "
        "edge at that level and its seat after the flop (the small blind acts before the big blind, both before "
        "the button), the edges of the `postflop_value` section: heads-up flops solved against a random range with "
        "a pot of twice the level, so the folder's chips in the pot are not in them. Where three see the flop the "
        "value stays the check-down: no three-handed flop is solved (a three-handed *turn* spot with wide ranges "
        "already takes minutes). All in, no betting is left and nothing is added. So this chart credits postflop "
        "play only in pots that go heads-up; the table below counts each tree's situations of each kind and says "
        "where the hands end. DCFR, exact best responses over classes: NashConv at most "
        f"{rows['nash_conv'].max():.3f} chips a hand and at most {rows['nash_conv_pct_blinds'].max():.2f}% of the "
        "blinds' pot in every game state.")),
        Block("p", "Per game state, check-down chart / with postflop play (values per hand; how hands end: before "
                   "the flop / two see it / three see it, % of hands; classes with an action whose share moves by "
                   "20 points or more, of 100):")]
    table = []
    for r in rows.itertuples():
        if r.state not in base.index:
            continue
        b = base.loc[r.state]
        row = pd.Series(r._asdict())
        mv = moves[moves["state"] == r.state]
        count = {stem: int((mv[mv["node"] == node]["largest_change"] >= 0.2).sum())
                 for stem, node in chart3_nodes(played[played["state"] == r.state]).items()}
        kinds = ("two_see_flop_edged", "two_see_flop_all_in", "three_see_flop_checkdown")
        table.append({
            "state": r.state,
            "situations: two see the flop (edged) / two all in / three see it": " / ".join(
                str(int(row[k])) if k in row.index else "-" for k in kinds),
            "values SB / BB / button $": f"{b['value_sb']:.1f} / {b['value_bb']:.1f} / {b['value_btn']:.1f} -> "
                                         f"{r.value_sb:.1f} / {r.value_bb:.1f} / {r.value_btn:.1f}",
            "hands end %": f"{_ends(b)} -> {_ends(row)}",
            **{f"moved: {MOVED3[stem]}": str(count.get(stem, "-")) for stem in MOVED3},
            "NashConv $": f"{b['nash_conv']:.3f} / {r.nash_conv:.3f}"})
    out.append(Block("table", frame=pd.DataFrame(table)))
    first = rows[rows["state"] == "start"]
    if len(first) and "start" in base.index and "share_three_see_flop" in base.columns:
        shares = {k: (100 * base.loc["start", f"share_{k}"], 100 * first[f"share_{k}"].iloc[0])
                  for k in ("fold_end", "three_see_flop")}
        out.append(Block("p", (
            f"In the start state {shares['fold_end'][0]:.1f}% of hands end before the flop under the check-down "
            f"chart and {shares['fold_end'][1]:.1f}% under this one, and three see the flop in "
            f"{shares['three_see_flop'][0]:.1f}% and {shares['three_see_flop'][1]:.1f}%: part of that move is the "
            "abstraction's, which credits postflop play only where two see the flop. The values are those of the "
            "credited edges, which the consistent-chart section finds too high heads-up for the ranges a chart "
            "leaves.")))
    start = played[(played["state"] == "start") & (played["sample"] == 0)]
    mv = moves[moves["state"] == "start"]
    nodes = chart3_nodes(start) if len(start) else {}
    for stem in ("preflop3_chart_button", "preflop3_chart_sb_vs_open"):
        if stem not in nodes:
            continue
        node = nodes[stem]
        big = mv[(mv["node"] == node) & (mv["largest_change"] >= 0.2)].sort_values("largest_change", ascending=False)
        many = "classes move" if len(big) != 1 else "class moves"
        out.append(Block("p", f"**With postflop play: the {MOVED3[stem]}** (start state; {len(big)} {many} "
                              "20 points or more from the check-down chart"
                              + (f"; most: {', '.join(big['hand'].head(6))}" if len(big) else "") + "):"))
        out.append(Block("table", frame=grid(start, node)))
    return out


def _open_line(dec: pd.DataFrame, after: str = "") -> str:
    """The line of the button's open (its smallest raise first in), followed by ``after``."""
    opens = sorted({m.group(0) for ln in dec["line"] if (m := re.match(r"BTN raise \d+", ln))},
                   key=lambda x: int(x.split()[2]))
    return (opens[0] + after) if opens else ""


def _three_states(dec: pd.DataFrame, spots: pd.DataFrame, deck: str) -> list[Block]:
    rows = []
    for s in spots.itertuples():
        d = dec[(dec["state"] == s.state) & (dec["deck"] == s.deck) & (dec["sample"] == 0)]
        rows.append({"state": s.state, "blinds": s.blinds, "bank": s.bank,
                     "button raises or shoves %": _pct(_share(d, "(root)", "raise", "allin")),
                     "button calls %": _pct(_share(d, "(root)", "call")),
                     "small blind first in raises %": _pct(_share(d, "BTN fold", "raise", "allin")),
                     "small blind completes %": _pct(_share(d, "BTN fold", "call")),
                     "big blind defends an open %": _pct(_share(d, _open_line(d, " / SB fold"), "call", "raise",
                                                                "allin")),
                     "value SB $": f"{s.value_sb:.1f}", "value BB $": f"{s.value_bb:.1f}",
                     "value button $": f"{s.value_btn:.1f}", "NashConv $": f"{s.nash_conv:.3f}",
                     "iterations": int(s.iterations)})
    if not rows:
        return []
    return [Block("p", "**Three-handed, by game state** (the button's open is to 3 big blinds at every level; a value is "
                       "chips after the hand less chips before, per hand, under the solved strategies):"),
            Block("table", frame=pd.DataFrame(rows))]


def _versus_heads_up(hu_chart: pd.DataFrame, d0: pd.DataFrame, deck: str) -> list[Block]:
    hu = hu_chart[(hu_chart["state"] == "start") & (hu_chart["deck"] == deck) & (hu_chart["sample"] == 0)]
    if not len(hu) or not len(d0):
        return []
    hu_raise = _hu_share(hu, "(root)", "raise", "allin")
    hu_fold = _hu_share(hu, "(root)", "fold")
    hu_call = _hu_share(hu, "(root)", "call")
    open_line = next((ln for ln in hu["line"].unique() if ln.startswith("raise ")), None)
    hu_defend = 1 - _hu_share(hu, open_line, "fold") if open_line else float("nan")
    b_raise, b_fold, b_call = (_share(d0, "(root)", "raise", "allin"), _share(d0, "(root)", "fold"),
                               _share(d0, "(root)", "call"))
    s_raise, s_fold, s_call = (_share(d0, "BTN fold", "raise", "allin"), _share(d0, "BTN fold", "fold"),
                               _share(d0, "BTN fold", "call"))
    opened = _open_line(d0)
    defend = 1 - _share(d0, opened + " / SB fold", "fold")
    sb_vs = 1 - _share(d0, opened, "fold")
    return [Block("p", (
        "**Three-handed beside heads-up** (start state). Heads-up the small blind, who is the DEALER and acts "
        f"first, raises or shoves {_pct(hu_raise)}% of its hands, calls {_pct(hu_call)}% and folds {_pct(hu_fold)}%; "
        f"three-handed the button, first in with two players behind, raises or shoves {_pct(b_raise)}%, calls "
        f"{_pct(b_call)}% and folds {_pct(b_fold)}%. When the button folds, the small blind (heads-up against the "
        f"big blind, but out of position after the flop and with the button's cards out of the deck) raises or "
        f"shoves {_pct(s_raise)}%, completes {_pct(s_call)}% and folds {_pct(s_fold)}%. Facing an open to {opened.split()[2] if opened else '?'} the big "
        f"blind continues (calls, re-raises or shoves) with {_pct(hu_defend)}% of its hands heads-up and "
        f"{_pct(defend)}% three-handed once the small blind folded; the small blind continues against the "
        f"button's open with {_pct(sb_vs)}% with the big blind still to act."))]


def _sample_text3(table: pd.DataFrame | None, dec: pd.DataFrame, dec1: pd.DataFrame | None = None) -> list[Block]:
    """The second sample against the first, over the decisions the frequency table lists (reached in at least
    :data:`SHOWN_PROBABILITY` of hands), each weighted by how often it is reached."""
    if table is None or not len(table) or not len(dec):
        return []
    m = table.merge(dec[["node", "probability"]], on="node")
    m = m[m["probability"] >= SHOWN_PROBABILITY]
    if not len(m):
        return []
    w = m["probability"]
    worst = m.loc[m["mean_freq_diff"].idxmax()]
    return [Block("p", (
        "**A second, independent sample** (seed 1: other boards, other deals) against the first, over the "
        f"{len(m)} decisions listed above: the classes' frequencies differ by {100 * np.average(m['mean_freq_diff'], weights=w):.1f} "
        "points on average (each decision reach-weighted over classes, decisions weighted by how often they are "
        f"reached; at most {100 * worst['mean_freq_diff']:.1f} points at `{worst['line']}`; single classes up to "
        f"{100 * m['max_freq_diff'].max():.0f} points) and the actions' EVs by ${np.average(m['mean_ev_diff'], weights=w):.2f}."
        + _shares_moved(dec, dec1)))]


def _shares_moved(dec: pd.DataFrame, dec1: pd.DataFrame | None) -> str:
    """How far the frequency table's action shares move between the two samples."""
    if dec1 is None or not len(dec1):
        return ""
    kinds = ["fold", "check", "call", "raise", "allin"]
    a = dec[dec["probability"] >= SHOWN_PROBABILITY].set_index("line")[kinds]
    b = dec1.set_index("line")[kinds].reindex(a.index)
    diff = (a - b).abs().max(axis=1)
    return (f" The frequency table's shares (all classes together) move by at most {100 * diff.max():.1f} points "
            f"({100 * diff.mean():.1f} on average over its decisions).")


def _class_cost(table: pd.DataFrame | None) -> list[Block]:
    """What playing per class costs heads-up (the ``preflop_class_cost`` table)."""
    if table is None or not len(table):
        return []
    t = table.set_index("plays per")
    if not {"holding", "class", "class and hand effects"} <= set(t.index):
        return []
    h, c, g = t.loc["holding"], t.loc["class"], t.loc["class and hand effects"]
    return [Block("p", (
        "**What playing per class costs, measured heads-up** (start state), where every holding can be told "
        "apart: the heads-up solution's own mix per class, played by every holding of the class, gives a best "
        f"response that sees the holdings {c['gain_sb']:.2f} chips a hand from the small blind and "
        f"{c['gain_bb']:.2f} from the big blind (NashConv {c['nash_conv']:.2f} chips, "
        f"{c['nash_conv_pct_blinds']:.1f}% of the blinds' pot, against {h['nash_conv']:.3f} for the solution "
        f"itself); with the classes' green cards kept apart it is {g['nash_conv']:.2f} chips. The three-handed "
        "chart is a chart per class: read it with the heads-up table of green-card exceptions beside it."))]


def _games3_text(folder: Path) -> list[Block]:
    """The three-handed equilibrium strategy in whole games (``preflop3_games``, ``preflop3_game_endings``)."""
    games, ends = study_table(folder, "preflop3_games"), study_table(folder, "preflop3_game_endings")
    path = folder / "preflop3_games.manifest.json"
    if games is None or ends is None or not len(games) or not path.exists():
        return []
    m = json.loads(path.read_text())
    fair = 1 / 3
    name = str(m.get("strategy", "equilibrium-3.toml")).removesuffix(".toml")
    alone = ends[ends["strategies"] == ",".join([name] * 3)]
    ends = ends[ends["strategies"] != ",".join([name] * 3)].reset_index(drop=True)
    frame = pd.DataFrame({
        "opponent (two seats)": games["opponent"], "deals": games["games"],
        "equilibrium wins %": _pm(games, "win_share", ".1f", 100),
        "equilibrium's final chips $": _pm(games, "final_chips", ".0f"),
        "each opponent's final chips $": [f"{v:.0f}" for v in games["opponent_final_chips"]],
        "mean hands": _pm(ends, "mean_hands", ".1f"),
        "median hands": [f"{x:.0f}" for x in ends["median_hands"]],
        "ended by the bank %": [f"{100 * x:.1f}" for x in ends["share_bank"]],
        "ended with one left %": [f"{100 * x:.1f}" for x in ends["share_one_left"]],
        "stopped at the cap %": [f"{100 * x:.1f}" for x in ends["share_cap"]]})
    beats, loses, even, bank = _standing(games, ends, fair)
    one = float((ends["share_one_left"] * ends["games"]).sum() / ends["games"].sum())
    shared = m.get("shared_rules", [])
    after_allin = "; all of them after an all-in" if shared and all("allin" in ln for g in shared for ln in g) else ""
    shared_text = (f" {len(shared)} groups of decisions look the same to the engine (the same players in, place, "
                   f"amount to call and pot{after_allin}) and share one rule, each class mixing their strategies by "
                   "its chance of being at each." if shared else "")
    post = folder.parent / "equilibrium" / "equilibrium_three_policy.manifest.json"
    spec = json.loads(post.read_text()).get("spec", {}) if post.exists() else {}
    sizes = " or ".join(f"{x:g}" for x in spec.get("sizes", []) if isinstance(x, int | float))
    post_text = (f"{spec['buckets']} strength buckets, bets and raises of {sizes} pot or all-in, solved from a flop "
                 f"that three players see with ${spec['preflop_in']} each in" if
                 {"buckets", "preflop_in"} <= set(spec) and sizes else "strength buckets, one bet size")
    verdict = (f"Against two seats of the same strategy a player's fair share is {100 * fair:.1f}%. The equilibrium "
               f"wins more than that (beyond two standard errors) against {', '.join(beats) or 'no one'}"
               + (f", less against {', '.join(loses)}" if loses else "")
               + (f", and is level (within two standard errors) with {', '.join(even)}" if even else "") + ". "
               f"Three-handed games last {ends['mean_hands'].min():.0f}-{ends['mean_hands'].max():.0f} hands on "
               f"average; {100 * one:.1f}% of them end with one player left (two bust) and {100 * bank:.1f}% because "
               "the bank ran dry or could not pay a bonus in full."
               + (f" With the equilibrium in all three seats ({int(alone['games'].iloc[0])} games) they last "
                  f"{alone['mean_hands'].iloc[0]:.1f} ± {alone['mean_hands_se'].iloc[0]:.1f} hands (median "
                  f"{alone['median_hands'].iloc[0]:.0f}); {100 * alone['share_one_left'].iloc[0]:.1f}% end with one "
                  f"player left, {100 * alone['share_bank'].iloc[0]:.1f}% by the bank and "
                  f"{100 * alone['share_cap'].iloc[0]:.1f}% at the cap of hands: how games end when nobody plays a "
                  "hand-written strategy." if len(alone) else ""))
    return [Block("p", (
        f"**The three-handed equilibrium in whole games.** The strategy file `{m.get('strategy', 'equilibrium-3.toml')}` "
        "(in this study's folder, written from the stored tables) plays the three-handed chart above before the "
        "flop: the start state's solution per starting class (the engine does not see suits), a rule per decision "
        f"the chart table holds ({m.get('charted_decisions', '?')} of the tree's {m.get('tree_decisions', '?')}, "
        f"those reached in at least {100 * m.get('chart_min_probability', 0.001):g}% of hands). The engine sees "
        "the players still in, its place among them, whether it faces a bet, the amount to call and the pot, not "
        "the line: any other decision, an opponent's raise of another size or a stack of another depth plays the "
        "nearest charted decision (the same players in, place and facing; the nearest amount to call, then the "
        f"nearest pot), and the chart's amounts are in big blinds, so it plays the start state's chart at every "
        f"blind level and bank.{shared_text} After the flop it plays the previous chapter's three-handed "
        f"abstracted equilibrium ({post_text}): with three players in its three-player rows, with two its two-player rows (solved "
        "where the third folded after the flop, also used when only two saw the flop; the policy does not see "
        "the pot). Once a player is out the game is heads-up and the file plays the blinds' rules of a "
        "three-handed hand whose button folded (the engine cannot tell the two apart). Whole three-handed "
        "games from $1,000 each and the full bank, the equilibrium in one seat and the opponent in two, "
        f"duplicate (each deal played in the three rotations of the seats; seed {m.get('seed', 0)}); standard "
        "errors over deals:")),
        Block("table", frame=frame), Block("p", verdict)]

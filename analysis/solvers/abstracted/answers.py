"""What the solved abstraction says: tables read from the average strategy.

Every table weights an information set by the probability that the hand reaches
it when everybody plays the average strategy (``reach``: exact on the deal
sample; heads-up from the payoff matrices, three-handed deal by deal). Tables:

- :func:`line_table`: the strategy by betting line and current bucket (averaged
  over the bucket histories that end in that bucket);
- :func:`free_fold_table`: how often a player folds when nobody has bet, by
  street, position, players still in and bucket;
- :func:`policy_table`: the shared policy format of the betting engine (one row per
  street, facing, players, position, bucket and action);
- :func:`values_table`: each seat's expected chips.

Coarser tables average the equilibrium over states it tells apart: such a table
is a summary of the equilibrium, not itself an equilibrium of anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.actions import ACTION_NAMES, BET, FOLD, RAISE
from analysis.core.actions import ALLIN as ALLIN_ACT
from analysis.dilemma.effects import STREETS

from ..frames import strategy_frame
from . import _sampled_kernels as SK
from .public_tree import (
    DECISION,
    ND_COUNT,
    ND_FACING,
    ND_FIRST,
    ND_INDEX,
    ND_KIND,
    ND_LIVE,
    ND_PLAYER,
    ND_POSITION,
    ND_STREET,
)
from .solve import DilemmaSolveResult
from .vector import VectorCFR, pot_share

STRENGTH_DEFINITION = ("evaluator.strength on the current board: the share of the two-card "
                       "holdings the player cannot see that its hand beats (ties half); "
                       "bucket = min(int(strength * n_buckets), n_buckets - 1)")


REACH_CHUNKS = 16
"""Fixed chunks of deals for the three-handed reach pass (threads never change the sums)."""


@dataclass(frozen=True, eq=False)
class Reach:
    """Probability of every information set (infos order) and each player's expected chips."""

    infoset: np.ndarray
    values: tuple[float, ...]


def reach_of(result: DilemmaSolveResult, by_deals: bool = False) -> Reach:
    """Exact reach probabilities and values of the result's average strategy (on the sample):
    heads-up from the payoff matrices, otherwise (or with ``by_deals``) deal by deal."""
    game = result.game
    avg = result.average
    if game.spec.players == 2 and not by_deals:
        vec = VectorCFR(game.tree, game.matrices, 0, True, np.zeros(3))
        values = result.profile.values if result.profile is not None else vec.evaluate(avg)[1]
        return Reach(vec.reach_probabilities(avg), tuple(values))
    n_info = int(game.infos.shape[0])
    n_deals = game.deals.n_deals
    n = game.spec.players
    bounds = np.linspace(0, n_deals, REACH_CHUNKS + 1).astype(np.int64)
    out = np.zeros((REACH_CHUNKS, n_info))
    money = np.zeros((REACH_CHUNKS, n))
    masks = np.zeros((REACH_CHUNKS, game.tree.n_terminals, 2 ** n))
    SK.deal_reach_chunks(game.tree.kernel_args, (game.deals.records, game.deals.hist),
                         game.settle_args(), avg, game.info_start, bounds, 1.0 / n_deals,
                         (out, money, masks))
    return Reach(out.sum(axis=0), tuple(money.sum(axis=0) + _pot_values(game, masks.sum(axis=0))))


def _pot_values(game: Any, mask_reach: np.ndarray) -> np.ndarray:
    """Each player's expected pot share minus chips put in, from the probability of every
    (terminal, main-pot winners) pair."""
    t = game.tree
    n = game.spec.players
    first = game.spec.rules_obj.split_remainder == "first_winner"
    out = np.zeros(n)
    for m in range(1, 2 ** n):
        winners = tuple(p for p in range(n) if (m >> p) & 1)
        prob = mask_reach[:, m]
        for p in winners:
            shares = np.array([pot_share(p, winners, int(pot), first) for pot in t.term_pot])
            out[p] += float(prob @ shares)
    total = mask_reach.sum(axis=1)
    return out - total @ t.term_in


def _action_rows(result: DilemmaSolveResult, reach: Reach) -> pd.DataFrame:
    """One row per (information set, action), a strategy frame (:mod:`..frames`: the private
    state is the bucket and the bucket history) with the node's keys and the reach: decision
    nodes in order, each node's bucket histories in order, each history's actions in order."""
    game = result.game
    t = game.tree
    nodes = t.nodes
    dec = np.flatnonzero(nodes[:, ND_KIND] == DECISION)
    hs = np.asarray(t.hist_sizes, dtype=np.int64)[nodes[dec, ND_STREET]]
    k = nodes[dec, ND_COUNT].astype(np.int64)
    n = hs * k  # rows of each decision node: its histories x its actions
    which = np.repeat(np.arange(len(dec)), n)  # each row's decision node (position in ``dec``)
    i = np.arange(int(n.sum()), dtype=np.int64) - np.repeat(np.cumsum(n) - n, n)
    hist, j = i // k[which], i % k[which]  # row i of a node: history i // k, action i % k
    v = dec[which]
    act = nodes[v, ND_FIRST].astype(np.int64) + j
    kinds = t.action_kind[act]
    streets = np.array(STREETS, dtype=object)[game.spec.first_street + nodes[dec, ND_STREET]]
    lines = np.array([t.histories[d] for d in dec], dtype=object)
    return strategy_frame(
        nodes[v, ND_PLAYER].astype(np.int64), lines[which], {"bucket": hist % game.spec.buckets, "history": hist},
        np.array(ACTION_NAMES, dtype=object)[kinds], result.average[nodes[v, ND_INDEX].astype(np.int64) + i],
        extra={"node": v, "street": streets[which],
               "facing": np.where(nodes[v, ND_FACING] != 0, "bet", "none").astype(object),
               "players": nodes[v, ND_LIVE].astype(np.int64), "position": nodes[v, ND_POSITION].astype(np.int64),
               "size": np.where(np.isin(kinds, (BET, RAISE)), t.action_size[act], np.nan), "action_kind": kinds,
               "reach": reach.infoset[np.asarray(game.info_start, dtype=np.int64)[v] + hist]})


def _weighted(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Reach-weighted action probabilities over the information sets in each group (groups never
    reached are averaged with equal weights, so every state the tree has keeps its rows)."""
    info_keys = keys + ["node", "history"]
    per_info = df.groupby(info_keys, sort=False, dropna=False)["reach"].first().reset_index()
    tot = per_info.groupby(keys, dropna=False)["reach"].agg(["sum", "size"]).rename(
        columns={"sum": "reach_total", "size": "n_infosets"}).reset_index()
    d = df.merge(tot, on=keys, how="left")
    w = np.where(d["reach_total"] > 0, d["reach"] / d["reach_total"].where(d["reach_total"] > 0, 1),
                 1.0 / d["n_infosets"])
    d = d.assign(weighted=w * d["probability"])
    act_keys = keys + ["action", "size"]
    out = d.groupby(act_keys, dropna=False, sort=False).agg(
        probability=("weighted", "sum"), reach=("reach_total", "first"),
        infosets=("n_infosets", "first")).reset_index()
    return out


def line_table(result: DilemmaSolveResult, reach: Reach) -> pd.DataFrame:
    """The average strategy by betting line and current bucket (reach-weighted over histories)."""
    rows = _action_rows(result, reach)
    keys = ["player", "street", "line", "facing", "players", "position", "bucket"]
    return _weighted(rows, keys).sort_values(keys, kind="stable").reset_index(drop=True)


def free_fold_table(result: DilemmaSolveResult, reach: Reach) -> pd.DataFrame:
    """How often a player folds when nobody has bet (``fold_free``), by street, position, players
    still in and bucket; ``reach`` is the probability that such a decision comes up."""
    rows = _action_rows(result, reach)
    unbet = rows[rows["facing"] == "none"]
    info = unbet.groupby(["node", "history"], sort=False).agg(
        street=("street", "first"), players=("players", "first"), position=("position", "first"),
        bucket=("bucket", "first"), reach=("reach", "first"))
    fold = unbet[unbet["action_kind"] == FOLD].set_index(["node", "history"])["probability"]
    info["fold"] = fold.reindex(info.index).fillna(0.0)
    info["fold_reach"] = info["fold"] * info["reach"]
    keys = ["street", "players", "position", "bucket"]
    g = info.groupby(keys).agg(reach=("reach", "sum"), fold_reach=("fold_reach", "sum"),
                               infosets=("fold", "size"), fold_plain=("fold", "mean")).reset_index()
    g["fold_free"] = np.where(g["reach"] > 0, g["fold_reach"] / g["reach"].where(g["reach"] > 0, 1),
                              g["fold_plain"])
    g.insert(0, "game_players", result.game.spec.players)
    order = {s: i for i, s in enumerate(STREETS)}
    g = g.sort_values(keys, key=lambda c: c.map(order) if c.name == "street" else c, kind="stable")
    return g[["game_players", *keys, "fold_free", "reach", "infosets"]].reset_index(drop=True)


def free_fold_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per street (and overall): the reach-weighted fold-for-free frequency of unbet decisions."""
    rows = []
    for street, sub in list(table.groupby("street", sort=False)) + [("all", table)]:
        r = sub["reach"].sum()
        rows.append({"street": street, "fold_free": float((sub["fold_free"] * sub["reach"]).sum() / r)
                     if r > 0 else 0.0, "unbet_decisions": float(r)})
    return pd.DataFrame(rows)


def policy_table(result: DilemmaSolveResult, reach: Reach) -> pd.DataFrame:
    """The shared policy format (street, facing, players, position, bucket, action, size,
    probability): the equilibrium averaged over betting lines and bucket histories."""
    rows = _action_rows(result, reach)
    rows.loc[rows["action_kind"] == ALLIN_ACT, "size"] = np.nan
    keys = ["street", "facing", "players", "position", "bucket"]
    out = _weighted(rows, keys)
    out = out[keys + ["action", "size", "probability"]]
    out["players"] = out["players"].astype("int64")
    out["position"] = out["position"].astype("int64")
    out["bucket"] = out["bucket"].astype("int64")
    order = {s: i for i, s in enumerate(STREETS)}
    return out.sort_values(keys + ["action"], key=lambda c: c.map(order) if c.name == "street" else c,
                           kind="stable").reset_index(drop=True)


def policy_manifest(result: DilemmaSolveResult, name: str) -> dict[str, Any]:
    """The policy table's manifest fields (policy name, buckets, strength, source, abstraction)."""
    spec = result.game.spec
    return {**result.manifest(), "policy": name, "n_buckets": spec.buckets,
            "strength": STRENGTH_DEFINITION,
            "size_definition": ("bet: that share of the pot; raise: to the call plus that share "
                                "of the pot after calling ($10 steps); all-in rows have size NaN"),
            "players_definition": "players still in (not folded, all-in included), actor included",
            "position_definition": "the actor's index among the players still in, in acting order",
            "source": f"equilibrium of the Dilemma abstraction ({result.settings.method}, "
                      f"{result.iterations:,} iterations), reach-weighted over betting lines and "
                      "bucket histories"}


def values_table(result: DilemmaSolveResult, reach: Reach) -> pd.DataFrame:
    """Each seat's expected chips (net of what it put in) under the average strategy."""
    spec = result.game.spec
    names = {2: ("first to act (big blind)", "last to act (dealer)"),
             3: ("first to act (small blind)", "second (big blind)", "last to act (dealer)")}
    return pd.DataFrame({
        "game_players": spec.players, "seat": range(spec.players),
        "position": list(names[spec.players]), "value": list(reach.values),
        "value_pot": [v / spec.pot for v in reach.values],
        "free_fold": spec.free_fold, "deck": spec.deck_obj.name,
        "nash_conv": result.nash_conv,
    })


def write_answers(result: DilemmaSolveResult, out: str | Path, name: str) -> dict[str, Any]:
    """Write the solution's tables into ``out`` (CSV + Parquet + manifest each):
    ``{name}_policy`` (shared policy format), ``{name}_free_fold`` (+ ``_summary``),
    ``{name}_lines`` (strategy by betting line and bucket), ``{name}_values`` and
    ``{name}_history``. Returns the frames and the manifest."""
    from analysis.core.io import write_table

    reach = reach_of(result)
    manifest = result.manifest()
    frames = {
        f"{name}_policy": policy_table(result, reach),
        f"{name}_free_fold": free_fold_table(result, reach),
        f"{name}_lines": line_table(result, reach),
        f"{name}_values": values_table(result, reach),
        f"{name}_history": result.history,
    }
    frames[f"{name}_free_fold_summary"] = free_fold_summary(frames[f"{name}_free_fold"])
    for table, df in frames.items():
        meta = policy_manifest(result, table) if table.endswith("_policy") else manifest
        write_table(df, out, table, meta)
    return {"frames": frames, "manifest": manifest, "reach": reach}

"""The heads-up Bluffjack equilibrium: vector CFR+ on every face-up pair's public tree, and the answers.

Every pair of face-up classes is its own game (both cards are seen before any decision),
solved until its exploitability (NashConv / 2, chips a hand) is at most ``target`` or
``max_iterations`` is reached; the whole hand's exploitability is the probability-weighted
sum. The answers (:func:`equilibrium_tables`), all weighted by how often the situation
arises in equilibrium play:

- ``actions``: how often each hidden card folds, checks/calls, bets/raises (or hits) by
  round, seat, what it faces and the visible totals;
- ``bluffs``: in the final round, how often a bust, weak (<= 16), middling (17-18) or
  strong (19-21) hand bets or raises, and how often the opponent then folds;
- ``hit``: hit frequency and the value of hitting minus standing at the first hit
  decision, by own total and the opponent's visible total, with the betting and in the
  no-betting game of the same abstraction (every hand shows down: today's no-fold answer);
- ``hidden``: each seat's expected result by its face-down card, with and without the
  betting.

The game is constant-sum except for the all-bust pots the house removes, so with the
house rule the solver reports NashConv (each player's best-response gain) rather than
leaning on a zero-sum guarantee; ``house=False`` is zero-sum.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from ..errors import SolverError
from . import _kernels as K
from .tree import (
    ACE,
    CLASS_NAMES,
    CLASS_POINTS,
    CLASS_PROB,
    CLASSES,
    T_DECISION,
    BluffjackTreeSpec,
    build_public_tree,
)

__all__ = ["PairSolution", "solve_bluffjack", "equilibrium_tables"]

CHUNK = 50
"""Iterations between exploitability checks."""
REACH_FLOOR = 1e-12
"""Situations reached less often than this (a chance per hand) are left out of the answer tables."""


@dataclass
class PairSolution:
    """One face-up pair: its tree, the average strategy and what :func:`_kernels.evaluate` gives."""

    up: tuple[int, int]
    weight: float
    iterations: int
    labels: list[tuple]
    dec_node: np.ndarray
    vis: np.ndarray
    """Per decision: actor's face-up hard total and ace (``[D, 2]``)."""
    sigma: np.ndarray
    ev: np.ndarray
    br: np.ndarray
    root: np.ndarray
    q: np.ndarray
    own: np.ndarray
    opp: np.ndarray
    child_dec: np.ndarray
    """Per decision and action: the decision node that follows (-1: none), for the fold-to-bet rate."""

    @property
    def exploitability(self) -> float:
        return float((self.br - self.ev).sum() / 2)


def _average(ssum: np.ndarray, counts: np.ndarray) -> np.ndarray:
    tot = ssum.sum(axis=2, keepdims=True)
    sigma = np.divide(ssum, tot, out=np.zeros_like(ssum), where=tot > 0)
    for d in np.flatnonzero((tot[:, :, 0] == 0).any(axis=1)):
        zero = tot[d, :, 0] == 0
        sigma[d, zero, : counts[d]] = 1.0 / counts[d]
    return sigma


def solve_pair(spec: BluffjackTreeSpec, up: tuple[int, int], target: float, max_iterations: int) -> PairSolution:
    """Solve one face-up pair to ``target`` chips of exploitability (or ``max_iterations``)."""
    tree = build_public_tree(spec, up)
    args = tree.kernel_args()
    dec_node = np.flatnonzero(tree.kind == T_DECISION)
    counts = tree.ccount[dec_node]
    regret = np.zeros((len(dec_node), CLASSES, K.MAX_ACTIONS))
    ssum = np.zeros_like(regret)
    done = 0
    while True:
        step = min(CHUNK, max_iterations - done)
        K.cfr_plus(args, CLASS_PROB, spec.house, dec_node, regret, ssum, done + 1, step)
        done += step
        sigma = _average(ssum, counts)
        ev, br, root, q, own, opp = K.evaluate(args, CLASS_PROB, spec.house, dec_node, sigma)
        if (br - ev).sum() / 2 <= target or done >= max_iterations:
            break
    child_dec = np.full((len(dec_node), K.MAX_ACTIONS), -1, dtype=np.int64)
    for d, node in enumerate(dec_node):
        for j in range(counts[d]):
            c = tree.children[tree.cstart[node] + j]
            if tree.kind[c] == T_DECISION:
                child_dec[d, j] = tree.dec[c]
    weight = float(CLASS_PROB[up[0]] * CLASS_PROB[up[1]])
    vis = np.stack([tree.vhard[dec_node, tree.player[dec_node]], tree.vace[dec_node, tree.player[dec_node]]], axis=1)
    return PairSolution(up, weight, done, tree.labels, dec_node, vis, sigma, ev, br, root, q, own, opp, child_dec)


@dataclass
class BluffjackEquilibrium:
    """Every face-up pair solved; the whole hand's value and exploitability."""

    spec: BluffjackTreeSpec
    target: float
    pairs: list[PairSolution]
    seconds: float

    @property
    def exploitability(self) -> float:
        return float(sum(p.weight * p.exploitability for p in self.pairs))

    @property
    def value(self) -> np.ndarray:
        """Expected result of seat A and seat B (chips a hand)."""
        return sum(p.weight * p.ev for p in self.pairs)

    @property
    def iterations(self) -> int:
        return int(sum(p.iterations for p in self.pairs))

    def manifest(self) -> dict:
        return {"abstraction": "heads-up; cards by blackjack value class drawn with replacement (infinite "
                               "deck); at most max_hits hits a player; a visibly bust player stands; deep stacks",
                "spec": asdict(self.spec), "target": self.target, "exploitability": self.exploitability,
                "value": self.value.tolist(), "iterations": self.iterations, "seconds": self.seconds}


def solve_bluffjack(spec: BluffjackTreeSpec | None = None, target: float = 0.01, max_iterations: int = 2000,
                    progress: Callable[[int, int, str], None] | None = None) -> BluffjackEquilibrium:
    """Solve all 100 face-up pairs (each to ``target`` chips a hand, NashConv / 2)."""
    spec = spec or BluffjackTreeSpec()
    if not target > 0:
        raise SolverError(f"the exploitability target must be positive; got {target!r}")
    if isinstance(max_iterations, bool) or not isinstance(max_iterations, int) or max_iterations < 1:
        raise SolverError(f"max_iterations must be at least 1; got {max_iterations!r}")
    started = time.perf_counter()
    pairs = []
    ups = [(a, b) for a in range(CLASSES) for b in range(CLASSES)]
    for k, up in enumerate(ups):
        pairs.append(solve_pair(spec, up, target, max_iterations))
        if progress is not None:
            progress(k + 1, len(ups), "face-up pairs")
    return BluffjackEquilibrium(spec, target, pairs, time.perf_counter() - started)


def _category(total: int) -> str:
    if total > 21:
        return "bust"
    if total <= 16:
        return "weak (<=16)"
    if total <= 18:
        return "middling (17-18)"
    return "strong (19-21)"


ACTION_GROUP = {"fold": "fold", "check": "check/call", "call": "check/call", "bet": "bet/raise",
                "raise": "bet/raise", "hit": "hit", "stand": "stand"}


def _rows(eq: BluffjackEquilibrium) -> pd.DataFrame:
    """One row per (pair, decision, hidden class, action): probability, reach weight, value."""
    frames = []
    for k, p in enumerate(eq.pairs):
        labels = p.labels
        hard = p.vis[:, 0] + CLASS_POINTS[None, :].T  # [C, D]: face-up hard total plus each hidden class
        soft = ((p.vis[:, 1] != 0)[None, :] | (np.arange(CLASSES) == ACE)[:, None]) & (hard + 10 <= 21)
        totals = np.where(soft, hard + 10, hard)
        names = np.array([[lab[2][j] if j < len(lab[2]) else "" for lab in labels] for j in range(K.MAX_ACTIONS)])
        reach = p.weight * p.own.T * p.opp.sum(axis=1)[None, :]  # [C, D]
        folds = np.stack([_fold_after(p, j) for j in range(K.MAX_ACTIONS)])  # [J, D]
        ok = (names[:, None, :] != "") & (reach[None, :, :] > REACH_FLOOR)  # [J, C, D]
        j, h, d = np.nonzero(ok)

        def col(values: list, rows: np.ndarray = d) -> np.ndarray:
            return np.asarray(values)[rows]

        frames.append(pd.DataFrame({
            "pair": k, "d": d, "j": j, "up_a": CLASS_NAMES[p.up[0]], "up_b": CLASS_NAMES[p.up[1]],
            "round": col([lab[0] for lab in labels]), "seat": col(["AB"[lab[1]] for lab in labels]),
            "facing": col([lab[5] for lab in labels]), "own_visible": col([lab[3] for lab in labels]),
            "opp_visible": col([lab[4] for lab in labels]), "hits": col([lab[7] for lab in labels]),
            "hidden": np.array(CLASS_NAMES)[h], "total": totals[h, d], "action": names[j, d],
            "probability": p.sigma[d, h, j], "reach": reach[h, d], "value": p.q[d, h, j],
            "fold_after": folds[j, d]}))
    return pd.concat(frames, ignore_index=True)


def _fold_after(p: PairSolution, j: int) -> np.ndarray:
    """After action ``j`` at each decision, the chance the opponent folds at once (given its reach;
    NaN when the next node is not an opponent's decision with a fold, always its first action)."""
    child = p.child_dec[:, j]
    has_fold = np.array([lab[2][0] == "fold" for lab in p.labels])
    r = p.opp
    total = r.sum(axis=1)
    use = (child >= 0) & (total > 0)
    use[use] &= has_fold[child[use]]
    out = np.full(len(p.labels), np.nan)
    out[use] = (r[use] * p.sigma[child[use], :, 0]).sum(axis=1) / total[use]
    return out


def equilibrium_tables(eq: BluffjackEquilibrium, no_betting: BluffjackEquilibrium | None = None
                       ) -> dict[str, pd.DataFrame]:
    """The answer tables (see the module docstring)."""
    rows = _rows(eq)
    rows["group"] = rows["action"].map(ACTION_GROUP)
    bet = rows[rows["round"] != "play"]
    # reach of each decision and class is repeated per action: weight the group frequencies by it
    actions = (bet.assign(w=bet["reach"] * bet["probability"])
               .groupby(["round", "seat", "facing", "hidden", "own_visible", "opp_visible", "group"])["w"].sum()
               .unstack("group", fill_value=0.0))
    reach = actions.sum(axis=1)
    actions = actions.div(reach.where(reach > 0), axis=0).assign(reach=reach).reset_index()

    # the final round when nobody has bet: open (seat A) or bet when checked to (seat B)
    first = bet[(bet["round"] == "final") & (bet["facing"] == 0)]
    cat = first.assign(category=first["total"].map(_category))
    bluffs = []
    for (seat, category), g in cat.groupby(["seat", "category"]):
        total_reach = g.loc[g["j"] == 0, "reach"].sum()
        a = g[g["group"] == "bet/raise"]
        bet_w = (a["reach"] * a["probability"]).sum()
        works = (a["reach"] * a["probability"] * a["fold_after"].fillna(0)).sum()
        bluffs.append({"seat": seat, "category": category, "reach": total_reach,
                       "bet": bet_w / total_reach if total_reach > 0 else np.nan,
                       "opponent_folds": works / bet_w if bet_w > 0 else np.nan})
    bluffs = pd.DataFrame(bluffs, columns=["seat", "category", "reach", "bet", "opponent_folds"])
    bluffs["share_of_spots"] = bluffs["reach"] / bluffs.groupby("seat")["reach"].transform("sum")

    hit = _hit_table(rows, "betting")
    if no_betting is not None:
        nb = _rows(no_betting)
        hit = hit.merge(_hit_table(nb, "no_betting"), on=["seat", "total"], how="outer")

    hidden = pd.DataFrame({"hidden": CLASS_NAMES,
                           "seat_A": sum(p.weight * p.root[0] for p in eq.pairs),
                           "seat_B": sum(p.weight * p.root[1] for p in eq.pairs)})
    if no_betting is not None:
        hidden["seat_A_no_betting"] = sum(p.weight * p.root[0] for p in no_betting.pairs)
        hidden["seat_B_no_betting"] = sum(p.weight * p.root[1] for p in no_betting.pairs)
    summary = pd.DataFrame([{"up_a": CLASS_NAMES[p.up[0]], "up_b": CLASS_NAMES[p.up[1]], "weight": p.weight,
                             "iterations": p.iterations, "value_a": p.ev[0], "value_b": p.ev[1],
                             "exploitability": p.exploitability} for p in eq.pairs])
    return {"bluffjack_eq_actions": actions, "bluffjack_eq_bluffs": bluffs, "bluffjack_eq_hit": hit,
            "bluffjack_eq_hidden": hidden, "bluffjack_eq_pairs": summary}


def _hit_table(rows: pd.DataFrame, tag: str) -> pd.DataFrame:
    """First hit decision: hit frequency and hit-minus-stand value by seat and own total."""
    play = rows[(rows["round"] == "play") & (rows["hits"] == 0)]
    keys = ["pair", "d", "hidden"]
    hit = play[play["action"] == "hit"].set_index(keys)
    stand = play[play["action"] == "stand"].set_index(keys)
    df = hit[["seat", "total", "probability", "reach"]].assign(gain=hit["value"] - stand["value"]).reset_index()
    df = df[df["reach"] > 0]
    g = df.groupby(["seat", "total"])
    out = pd.DataFrame({f"hit_{tag}": g.apply(lambda x: np.average(x["probability"], weights=x["reach"])),
                        f"gain_{tag}": g.apply(lambda x: np.average(x["gain"], weights=x["reach"])),
                        f"reach_{tag}": g["reach"].sum()})
    return out.reset_index()

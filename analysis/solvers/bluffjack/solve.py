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
from ..frames import strategy_frame
from . import _kernels as K
from .public_tree import (
    ACE,
    CLASS_NAMES,
    CLASS_POINTS,
    CLASS_PROB,
    CLASSES,
    NT_DECISION,
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
    dec_node = np.flatnonzero(tree.kind == NT_DECISION)
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
            if tree.kind[c] == NT_DECISION:
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


CATEGORIES = ["bust", "middling (17-18)", "strong (19-21)", "weak (<=16)"]
"""Hand categories (in the order of their names, as the tables sort them)."""
_BY_TOTAL = np.array([3, 1, 2, 0])
"""Category of a total up to 16, 17-18, 19-21, over 21."""


def _category(total: pd.Series) -> pd.Categorical:
    """The category of every total (see :data:`CATEGORIES`)."""
    return pd.Categorical.from_codes(_BY_TOTAL[np.searchsorted([16, 18, 21], total.to_numpy())], CATEGORIES)


def _plain(df: pd.DataFrame) -> pd.DataFrame:
    """Categorical columns (and column labels) back to plain strings for the written tables."""
    df.columns = pd.Index([str(c) for c in df.columns], name=df.columns.name)
    for c in df.columns:
        if isinstance(df[c].dtype, pd.CategoricalDtype):
            df[c] = df[c].astype(str)
    return df


ACTION_GROUP = {"fold": "fold", "check": "check/call", "call": "check/call", "bet": "bet/raise",
                "raise": "bet/raise", "hit": "hit", "stand": "stand"}


def _pair_rows(k: int, p: PairSolution) -> pd.DataFrame:
    """One row per (decision, hidden class, action) of pair ``k``, a strategy frame (:mod:`..frames`:
    the private state is the hidden card's class): probability, action value (``ev``), reach weight."""
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

    def text(values: list | np.ndarray, rows: np.ndarray = d) -> pd.Categorical:
        # categorical, not str: pandas turns a str column into Arrow strings one object at a
        # time, which took most of the tables' time (half a million rows a pair)
        names, codes = np.unique(np.asarray(values), return_inverse=True)
        return pd.Categorical.from_codes(codes.reshape(-1)[rows], names)

    return strategy_frame(
        col([lab[1] for lab in labels]), text([lab[8] for lab in labels]), {"hidden": text(CLASS_NAMES, h)},
        text(names[j, d].ravel(), np.arange(len(d))), p.sigma[d, h, j], ev=p.q[d, h, j],
        extra={"pair": k, "d": d, "j": j, "up_a": CLASS_NAMES[p.up[0]], "up_b": CLASS_NAMES[p.up[1]],
               "round": text([lab[0] for lab in labels]), "seat": text(["AB"[lab[1]] for lab in labels]),
               "facing": col([lab[5] for lab in labels]), "own_visible": col([lab[3] for lab in labels]),
               "opp_visible": col([lab[4] for lab in labels]), "hits": col([lab[7] for lab in labels]),
               "total": totals[h, d], "reach": reach[h, d], "fold_after": folds[j, d]})


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


GROUPS = sorted(set(ACTION_GROUP.values()))
ACTION_KEYS = ["round", "seat", "facing", "hidden", "own_visible", "opp_visible", "group"]


def _action_sums(rows: pd.DataFrame) -> pd.Series:
    """Reach-weighted frequency sums of the betting decisions by situation and action group."""
    bet = rows[rows["round"] != "play"]
    return bet.assign(w=bet["reach"] * bet["probability"]).groupby(ACTION_KEYS)["w"].sum()


def _bluff_sums(rows: pd.DataFrame) -> pd.DataFrame:
    """Final round, nobody has bet yet: reach, bet weight and fold-after weight by seat and hand category."""
    first = rows[(rows["round"] == "final") & (rows["facing"] == 0)]
    w = first["reach"] * first["probability"]
    bets = first["group"] == "bet/raise"
    return pd.DataFrame({"seat": first["seat"], "category": _category(first["total"]),
                         "reach": first["reach"].where(first["j"] == 0, 0.0), "bet_w": w.where(bets, 0.0),
                         "works": (w * first["fold_after"].fillna(0)).where(bets, 0.0)}
                        ).groupby(["seat", "category"]).sum()


def _hit_sums(rows: pd.DataFrame) -> pd.DataFrame:
    """First hit decision: reach, reach x hit probability and reach x (hit - stand value) by seat and total."""
    play = rows[(rows["round"] == "play") & (rows["hits"] == 0)]
    keys = ["pair", "d", "hidden"]
    hit = play[play["action"] == "hit"].set_index(keys)
    stand = play[play["action"] == "stand"].set_index(keys)
    df = hit[["seat", "total", "probability", "reach"]].assign(gain=hit["ev"] - stand["ev"])
    df = df[df["reach"] > 0]
    return pd.DataFrame({"seat": df["seat"], "total": df["total"], "reach": df["reach"],
                         "hit_w": df["reach"] * df["probability"], "gain_w": df["reach"] * df["gain"]}
                        ).groupby(["seat", "total"]).sum()


def _summed(parts: list) -> pd.DataFrame | pd.Series:
    """Per-pair sums added up by their index."""
    return pd.concat(parts).groupby(level=list(range(parts[0].index.nlevels))).sum()


def _pair_sums(eq: BluffjackEquilibrium, betting: bool) -> dict[str, list]:
    """The answer tables' sums, one pair at a time (a pair's rows are dropped before the next:
    one row per situation for every pair at once took 5.6 GB)."""
    out: dict[str, list] = {"actions": [], "bluffs": [], "hit": []}
    for k, p in enumerate(eq.pairs):
        rows = _pair_rows(k, p)
        rows["group"] = pd.Categorical(rows["action"].map(ACTION_GROUP), GROUPS)
        if betting:
            out["actions"].append(_action_sums(rows))
            out["bluffs"].append(_bluff_sums(rows))
        out["hit"].append(_hit_sums(rows))
    return out


def _hit_table(sums: pd.DataFrame, tag: str) -> pd.DataFrame:
    """Hit frequency and hit-minus-stand value (reach-weighted means) by seat and own total."""
    return pd.DataFrame({f"hit_{tag}": sums["hit_w"] / sums["reach"], f"gain_{tag}": sums["gain_w"] / sums["reach"],
                         f"reach_{tag}": sums["reach"]}).reset_index()


def equilibrium_tables(eq: BluffjackEquilibrium, no_betting: BluffjackEquilibrium | None = None
                       ) -> dict[str, pd.DataFrame]:
    """The answer tables (see the module docstring), summed pair by pair."""
    sums = _pair_sums(eq, betting=True)
    actions = _summed(sums["actions"]).unstack("group", fill_value=0.0)
    reach = actions.sum(axis=1)
    actions = actions.div(reach.where(reach > 0), axis=0).assign(reach=reach).reset_index()

    b = _summed(sums["bluffs"])
    bluffs = pd.DataFrame({"reach": b["reach"],
                           "bet": (b["bet_w"] / b["reach"]).where(b["reach"] > 0),
                           "opponent_folds": (b["works"] / b["bet_w"]).where(b["bet_w"] > 0)}).reset_index()
    bluffs = bluffs[["seat", "category", "reach", "bet", "opponent_folds"]]
    bluffs["share_of_spots"] = bluffs["reach"] / bluffs.groupby("seat")["reach"].transform("sum")

    hit = _hit_table(_summed(sums["hit"]), "betting")
    if no_betting is not None:
        nb = _summed(_pair_sums(no_betting, betting=False)["hit"])
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
    actions, bluffs, hit = _plain(actions), _plain(bluffs), _plain(hit)
    return {"bluffjack_eq_actions": actions, "bluffjack_eq_bluffs": bluffs, "bluffjack_eq_hit": hit,
            "bluffjack_eq_hidden": hidden, "bluffjack_eq_pairs": summary}

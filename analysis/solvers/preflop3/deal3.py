"""Starting classes dealt to three players: the joint probability of every triple of classes, card
removal exact.

The three-handed chart is stated per starting class (the 10 x 10 grid of a 40-card deck: pairs,
suited and offsuit hands), so the solver's private states are the classes, each dealt with its real
frequency *jointly*: ``weights[a, b, c]`` is the probability that the small blind, the big blind and
the button hold holdings of classes ``a``, ``b`` and ``c``, counted over every triple of disjoint
holdings (an ace-pair makes a second ace-pair rare, and a third impossible). The array is symmetric:
the deal does not care who is dealt first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from analysis.solvers.preflop_hu.continuation import all_holdings
from analysis.studies.ranges import starting_classes
from evaluator.spec import GameSpec, get_game

__all__ = ["ClassDeal", "class_deal", "deal_of", "joint_weights", "subset_deal"]


@dataclass(frozen=True, eq=False)
class ClassDeal:
    """Every holding of a deck grouped by starting class, and the joint deal of three classes."""

    names: tuple[str, ...]
    """The classes' names (``AA``, ``A10s``, ``72o`` ...), in :func:`starting_classes` order."""
    holdings: np.ndarray
    """int64[H, 2]: every two-card holding, cards ascending (:func:`all_holdings`' order)."""
    cls: np.ndarray
    """int64[H]: each holding's class."""
    combos: np.ndarray
    """int64[G, M]: the holdings (row numbers) of each class, padded with -1."""
    sizes: np.ndarray
    """int64[G]: holdings per class (6 for a pair, 4 suited, 12 offsuit on 40 cards)."""
    weights: np.ndarray
    """float64[G, G, G]: the probability of each triple of classes (sums to 1)."""

    @property
    def n_classes(self) -> int:
        return len(self.names)


def joint_weights(holdings: np.ndarray, cls: np.ndarray, n_classes: int, n_cards: int) -> np.ndarray:
    """``float64[G, G, G]``: the share of ordered triples of pairwise disjoint holdings (rows of
    ``holdings``) whose classes are ``a, b, c``. For each pair of disjoint holdings the third
    holding's count per class is the class's size less the holdings that touch one of the four cards
    (inclusion-exclusion over the cards and the pairs of them)."""
    h = len(holdings)
    onehot = np.zeros((h, n_classes))
    onehot[np.arange(h), cls] = 1.0
    inc = np.zeros((n_cards, n_classes))  # holdings of each class holding each card
    np.add.at(inc, holdings[:, 0], onehot)
    np.add.at(inc, holdings[:, 1], onehot)
    hid = np.full((n_cards, n_cards), -1, dtype=np.int64)
    hid[holdings[:, 0], holdings[:, 1]] = np.arange(h)
    hid[holdings[:, 1], holdings[:, 0]] = np.arange(h)
    pad = np.vstack([onehot, np.zeros((1, n_classes))])  # row -1: no holding
    size = onehot.sum(axis=0)
    b0, b1 = holdings[:, 0], holdings[:, 1]
    out = np.zeros((n_classes, n_classes, n_classes))
    step = 16
    for lo in range(0, h, step):
        rows = np.arange(lo, min(lo + step, h))
        a0, a1 = holdings[rows, 0][:, None], holdings[rows, 1][:, None]
        clear = (a0 != b0) & (a0 != b1) & (a1 != b0) & (a1 != b1)  # [C, H]
        cnt = (size[None, None, :] - inc[a0] - inc[a1] - inc[b0][None] - inc[b1][None]
               + onehot[rows][:, None, :] + onehot[None, :, :]
               + pad[hid[a0, b0]] + pad[hid[a0, b1]] + pad[hid[a1, b0]] + pad[hid[a1, b1]])
        cnt *= clear[:, :, None]
        # per first holding: the second holding's class x the third's count, summed over second holdings
        part = onehot.T @ cnt.transpose(1, 0, 2).reshape(h, -1)  # [G, C * G]
        part = part.reshape(n_classes, len(rows), n_classes).transpose(1, 0, 2)
        np.add.at(out, cls[rows], part)
    total = out.sum()
    return out / total if total > 0 else out


def deal_of(holdings: np.ndarray, cls: np.ndarray, names: tuple[str, ...], n_cards: int) -> ClassDeal:
    """The class deal of ``holdings`` (rows of card ids) grouped by ``cls`` (numbers into ``names``)."""
    g = len(names)
    sizes = np.bincount(cls, minlength=g).astype(np.int64)
    combos = np.full((g, int(sizes.max())), -1, dtype=np.int64)
    for k in range(g):
        rows = np.flatnonzero(cls == k)
        combos[k, : len(rows)] = rows
    weights = joint_weights(holdings, cls, g, n_cards)
    for a in (holdings, cls, combos, sizes, weights):
        a.setflags(write=False)
    return ClassDeal(tuple(names), holdings, cls, combos, sizes, weights)


def subset_deal(names: tuple[str, ...], game: str | GameSpec = "dilemma") -> ClassDeal:
    """The deal of only the classes ``names`` (every player holds one of them): small games, tests."""
    spec = get_game(game)
    by_name = {c.name: c for c in starting_classes(spec)}
    rows, cls = [], []
    for k, name in enumerate(names):
        for a, b in by_name[name].combos:
            rows.append((min(a, b), max(a, b)))
            cls.append(k)
    return deal_of(np.array(rows, dtype=np.int64), np.array(cls, dtype=np.int64), tuple(names), spec.n_cards)


@cache
def _deal(spec: GameSpec) -> ClassDeal:
    holdings = all_holdings(spec.n_cards)
    classes = starting_classes(spec)
    of = {}
    for k, c in enumerate(classes):
        for a, b in c.combos:
            of[(min(a, b), max(a, b))] = k
    cls = np.array([of[(int(a), int(b))] for a, b in holdings], dtype=np.int64)
    return deal_of(holdings, cls, tuple(c.name for c in classes), spec.n_cards)


def class_deal(game: str | GameSpec = "dilemma") -> ClassDeal:
    """The classes of ``game``'s deck and their joint three-player deal (cached per deck)."""
    return _deal(get_game(game))

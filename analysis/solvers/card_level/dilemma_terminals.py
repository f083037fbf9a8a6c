"""Dilemma Hold'em terminal values for the card-level solver: the real settlement, per class.

A spot of the ``dilemma`` game carries a :class:`DilemmaTable`: the deck (its
corners and effect cards), the settlement's rule options, the bank's three stacks
and the blind level. Every fold and showdown of the tree is settled by the lab's
settlement core (RULES §1.4-1.5, §1.8): the pot, the hand (green) and board (blue,
red from the turn) effects, the penalty of the last betting round's losers, the
bonus, every payment capped at the payer's chips or the bank's, bankruptcy (a
bankrupt winner takes no bonus). Heads-up the river exception never applies (it
needs a river folder *and* a showdown loser); the settlement is called all the
same, so nothing here assumes it.

The game is not zero-sum: the bank pays bonuses and effects and takes penalties,
so each player has its own payoff. The value of a hand is money: the chips a
player ends the hand with, whatever the end of the game (a player who is bankrupt
or wins when the bank runs dry is worth its chips, no more).

Holdings enter the settlement only through their green cards (hand effects), so
holdings are grouped into *classes* by the sorted (effect, amount) pairs of their
green cards; the settlement of a terminal depends on the pair of holdings only
through their two classes and, at a showdown, who wins or ties. For each terminal
situation the settlement is run once per pair of classes and outcome
(:mod:`._payoffs`), and the CFR kernels sweep the holdings with per-class sums
(O(n x classes) per terminal, no O(n^2) pairs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analysis.dilemma.decks import Deck, load_deck
from analysis.dilemma.effects import COLOUR_GREEN
from analysis.dilemma.settlement import Rules
from analysis.dilemma.settlement.rules import parse_pairs
from analysis.dilemma.settlement.state import bank_problem, lowest_level, parse_bank
from analysis.dilemma.table import DEFAULT_BANK, Table
from evaluator.errors import LabError

from . import _payoffs as P

__all__ = ["DilemmaTable", "class_groups", "holding_classes", "payoff_tables", "situation_payoffs3"]


@dataclass(frozen=True)
class DilemmaTable:
    """The Dilemma Hold'em game of a spot: deck, rule options, bank state and blind level."""

    deck_name: str = "reference"
    """A shipped deck (``reference``, ``plain``, ``bare``) or a deck file's path."""
    rule_options: tuple[tuple[str, str], ...] = ()
    """Rule options as ``(name, value)`` pairs (RULES.md [choice]s; ``Rules.parse``)."""
    bank: tuple[int, int, int] = DEFAULT_BANK
    level: int = 0
    deck: Deck = field(init=False, compare=False, repr=False)
    rules: Rules = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        from .card_spot import SpotError

        try:
            deck = load_deck(self.deck_name)
            rules = Rules.parse(dict(self.rule_options))
            bank = parse_bank(list(self.bank))
        except LabError as exc:
            raise SpotError(str(exc)) from None
        if deck.spec.settlement != "dilemma":
            raise SpotError(f"the {deck.name} deck is for {deck.game}; the dilemma game needs a 40-card deck")
        if problem := bank_problem(bank, self.level):
            raise SpotError(problem)
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "rules", rules)

    @classmethod
    def parse(cls, deck: str | None = None, rules: Mapping[str, Any] | Sequence[str] | None = None,
              bank: str | Sequence[int] | None = None, level: int | None = None) -> DilemmaTable:
        """From CLI or TOML values: ``--deck``, ``--rule NAME=VALUE`` (or a mapping), ``--bank
        300,700,500`` and ``--level`` (default: the lowest the bank allows)."""
        from .card_spot import SpotError

        try:
            pairs = parse_pairs(list(rules)) if rules is not None and not isinstance(rules, Mapping) \
                else dict(rules or {})
            stacks = parse_bank(bank) if bank is not None else DEFAULT_BANK
        except LabError as exc:
            raise SpotError(str(exc)) from None
        options = tuple(sorted((str(k).replace("-", "_"), _option_text(v)) for k, v in pairs.items()))
        lvl = lowest_level(stacks) if level is None else int(level)
        return cls(str(deck or "reference"), options, stacks, lvl)  # type: ignore[arg-type]

    @property
    def table(self) -> Table:
        """The same table as the shared value the fold-vs-check study takes
        (:class:`analysis.dilemma.table.Table`)."""
        return Table(self.deck, self.rules, self.bank, self.level)

    @property
    def big_blind(self) -> int:
        """The big blind of the blind level: the smallest bet (RULES §1.2)."""
        return int(self.rules.blinds[self.level][1])

    def describe(self) -> dict:
        """A JSON-able description (deck by name and fingerprint, the full rule options)."""
        return {"deck": self.deck_name, "deck_label": self.deck.label, "rules": dict(self.rule_options),
                "rule_label": self.rules.label, "bank": list(self.bank), "level": self.level}

    @classmethod
    def from_dict(cls, d: dict) -> DilemmaTable:
        """The table :meth:`describe` wrote; the deck must still have the same cards."""
        from .card_spot import SpotError

        table = cls(str(d["deck"]), tuple(sorted((str(k), str(v)) for k, v in dict(d["rules"]).items())),
                    tuple(int(x) for x in d["bank"]), int(d["level"]))  # type: ignore[arg-type]
        if table.deck.label != d.get("deck_label", table.deck.label):
            raise SpotError(f"deck {d['deck']} changed since the solution was written "
                            f"({table.deck.label}, was {d['deck_label']})")
        return table


def _option_text(value: Any) -> str:
    if isinstance(value, list | tuple):  # blinds = [[10, 20], ...] in a TOML file
        return ",".join("/".join(map(str, v)) if isinstance(v, list | tuple) else str(v) for v in value)
    return str(value)


def holding_classes(deck: Deck, combos: Sequence[np.ndarray]) -> tuple[list[np.ndarray], np.ndarray, list[tuple]]:
    """Each player's holdings' class numbers, two hole cards of a holding of each class, and
    each class's signature (the sorted (effect, amount) pairs of its green cards). Class 0 has
    no green card; its hole cards are -1 (unknown to the settlement: no hand effect)."""
    signatures: list[tuple] = [()]
    reps: list[tuple[int, int]] = [(-1, -1)]
    out = []
    for cards in combos:
        cls = np.zeros(len(cards), dtype=np.int64)
        for i, (a, b) in enumerate(cards):
            sig = tuple(sorted((int(deck.opcode[c]), int(deck.amount[c])) for c in (int(a), int(b))
                               if deck.colour[c] == COLOUR_GREEN))
            if sig not in signatures:
                signatures.append(sig)
                reps.append((int(a), int(b)))
            cls[i] = signatures.index(sig)
        out.append(cls)
    return out, np.array(reps, dtype=np.int64), signatures


def class_groups(tab: np.ndarray) -> np.ndarray:
    """Per situation and player, the opponent's classes merged where they pay alike.

    ``tab[s, p, ..., own class, opponent class]``; returns ``int64[s, p, 2 * K + 1]``: the
    group of each opponent class (``[:K]``), a class of each group (``[K:2K]``) and the number
    of groups (``[2K]``). Two opponent classes share a group when every entry of their columns
    is equal, so the kernels sum the opponent's reach per group (usually one or two: with a
    full bank, an opponent's green cards change a player's payoff only in a few situations).
    """
    s, p, k = tab.shape[0], tab.shape[1], tab.shape[-1]
    if s == 0:  # no such terminal in the tree (a check-down tree has no fold)
        return np.zeros((0, p, 2 * k + 1), dtype=np.int64)
    cols = tab.reshape(s, p, -1, k)
    equal = (cols[..., :, :, None] == cols[..., :, None, :]).all(axis=2)  # [s, p, k, j]
    first = equal.argmax(axis=-1)  # the first class paying like class k (k itself if none before)
    is_rep = first == np.arange(k)
    rank = np.cumsum(is_rep, axis=-1) - 1
    out = np.zeros((s, p, 2 * k + 1), dtype=np.int64)
    out[..., :k] = np.take_along_axis(rank, first, axis=-1)
    out[..., 2 * k] = is_rep.sum(axis=-1)
    for g in range(k):  # the representative class of each group
        hit = is_rep & (rank == g)
        out[..., k + g] = np.where(hit.any(axis=-1), hit.argmax(axis=-1), 0)
    return out


def payoff_tables(spot: Any, fold_keys: np.ndarray, showdown_keys: np.ndarray,
                  combos: Sequence[np.ndarray], size: int) -> tuple[np.ndarray, ...]:
    """Class numbers ``int64[2, size]``, the fold and showdown payoff tables of a dilemma spot
    (see :func:`._payoffs.settle_situations`) and their class groups (:func:`class_groups`)."""
    table: DilemmaTable = spot.table
    classes, reps, _ = holding_classes(table.deck, combos)
    hclass = np.zeros((2, size), dtype=np.int64)
    for p in range(2):
        hclass[p, : len(classes[p])] = classes[p]
    k = len(reps)
    ints = np.zeros(P.N_INTS, dtype=np.int64)
    ints[P.SP_POT], ints[P.SP_STACK] = spot.pot, spot.stack
    ints[P.SP_BANK1 : P.SP_BANK3 + 1] = table.bank
    ints[P.SP_LEVEL] = table.level
    ints[P.SP_N_ROOT] = len(spot.board)
    ints[P.SP_ROOT_STREET] = spot.street + 1  # the settlement's streets: flop 1, turn 2, river 3
    fold_tab = np.zeros((len(fold_keys), 2, k, k))
    sd_tab = np.zeros((len(showdown_keys), 2, 3, k, k))
    P.settle_situations((ints, np.array(spot.board, dtype=np.int64), reps),
                        (np.ascontiguousarray(fold_keys, dtype=np.int64).reshape(-1, 4),
                         np.ascontiguousarray(showdown_keys, dtype=np.int64).reshape(-1, 3)),
                        table.deck.kernel_args, table.rules.kernel_args, (fold_tab, sd_tab))
    return hclass, fold_tab, sd_tab, class_groups(fold_tab), class_groups(sd_tab)


def situation_payoffs3(table: DilemmaTable, chips: int, situations: np.ndarray, board: np.ndarray,
                       reps: np.ndarray) -> np.ndarray:
    """``float64[S, 3, 8, K, K, K]``: three-handed settlements from no pot before the hand, ``chips``
    each (:func:`._payoffs3.settle_situations3`): per situation (rows of live mask, chips put in by
    players 0-2, the players who folded before the last round, the street code: 2 settles on the five
    cards of ``board``, 1 on fewer), winner set and triple of hand-effect classes (``reps``), each
    player's chips after the hand less ``chips``. Player 2 holds the DEALER's seat."""
    from ._payoffs3 import settle_situations3

    k = len(reps)
    ints = np.zeros(P.N_INTS, dtype=np.int64)
    ints[P.SP_POT], ints[P.SP_STACK] = 0, chips
    ints[P.SP_BANK1 : P.SP_BANK3 + 1] = table.bank
    ints[P.SP_LEVEL] = table.level
    tab = np.zeros((len(situations), 3, 8, k, k, k))
    padded = np.zeros(5, dtype=np.int64)
    padded[: len(board)] = board
    settle_situations3(ints, padded, len(board), np.ascontiguousarray(reps, dtype=np.int64),
                       np.ascontiguousarray(situations, dtype=np.int64), table.deck.kernel_args,
                       table.rules.kernel_args, tab)
    return tab

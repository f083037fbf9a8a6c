"""Board economics: the exact distribution, over every board, of what the bank pays and takes.

For each street at which a hand can end (flop, turn, river) the study enumerates
every board of that size *with the street each card was dealt on* (the flop is
a set of 3; at the turn one of the 4 cards is the turn card; at the river two
of the 5 are the turn and river cards, whose order does not matter here) and
tallies, exactly:

- the **bonus** (plus corners × boom/bubble multipliers + windfalls) and the
  **penalty** (minus corners × slump multipliers) of RULES §1.4/§1.8;
- for every effect card, the probability that it is on the board and that it
  is active (blue: on the board; red: dealt on the turn or river), and the
  probabilities of any blue / any red activity;
- the **net transfer** of the settlement (pot excluded) to one winner and to
  each of ``losers`` losers of the last round: winner ``bonus - levy - crash
  (+ the collected penalty under rebate)``, loser ``-share + subsidy - crash``
  with ``share = ⌊penalty/losers/10⌋×10``.

Assumptions (stated in every manifest): boards are drawn from the full deck
(no hole cards removed), one winner, stacks and bank large enough that no
payment is capped, hand (green) effects left out (they depend on the hands).
The enumeration runs in a numba kernel, in parallel over the lowest card of the
board, with integer counts, so results are exact and independent of threads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

import numpy as np
import pandas as pd

from evaluator.errors import LabError

from ._economy_kernel import BOARD_CARDS, MISC_NAMES, N_MISC, enumerate_boards, street_patterns
from .decks import Deck, load_deck
from .effects import COLOURS, STREETS
from .extremes import board_extremes

STUDY_STREETS: tuple[int, ...] = (1, 2, 3)
"""Flop, turn and river: the streets at which a hand can end with a board."""
MAX_BINS = 200_000
"""Histogram bins ($10 each) a deck's value range may span."""


def arrangements(street: int, n_cards: int = 40) -> int:
    """Number of boards of a street counted with the street of each card (3: C(40,5)*10)."""
    return comb(n_cards, BOARD_CARDS[street]) * len(street_patterns(street))


def _bounds(deck: Deck, m_max: int) -> tuple[np.ndarray, np.ndarray]:
    """Lowest and highest possible value (in $10 units) of every tallied quantity."""
    x = board_extremes(deck)
    lo = [0, 0] + [-(x.levy + x.crash)] * m_max + [-(x.penalty + x.crash)] * m_max
    hi = [x.bonus, x.penalty] + [x.bonus + x.penalty] * m_max + [x.subsidy] * m_max
    return np.array(lo, np.int64) // 10, np.array(hi, np.int64) // 10


@dataclass(frozen=True)
class StreetTally:
    """Exact integer counts for one street (all divided by :attr:`total` for probabilities)."""

    street: int
    total: int
    hist: np.ndarray  # int64[2 + 2*m_max, bins]: bonus, penalty, net winner (m), net loser (m)
    offsets: np.ndarray  # $10 units of bin 0 per quantity
    on_board: np.ndarray  # int64[n_cards]
    active: np.ndarray  # int64[n_cards]
    misc: np.ndarray  # int64[N_MISC]


@dataclass(frozen=True)
class EconomyResult:
    """The board economics of a deck: exact tallies per street, and DataFrames built from them."""

    deck: Deck
    max_losers: int
    streets: tuple[StreetTally, ...]
    assumptions: tuple[str, ...] = field(
        default=(
            "boards from the full deck (no hole cards removed)",
            "one winner; net transfers exclude the pot",
            "no payment capped (stacks and bank large enough)",
            "hand (green) effects not included",
        )
    )

    def _values(self, t: StreetTally, q: int) -> tuple[np.ndarray, np.ndarray]:
        counts = t.hist[q]
        nz = np.nonzero(counts)[0]
        return (nz + t.offsets[q]) * 10, counts[nz]

    def _moments(self, t: StreetTally, q: int) -> tuple[float, float]:
        values, counts = self._values(t, q)
        p = counts / t.total
        mean = float((values * p).sum())
        var = float(((values - mean) ** 2 * p).sum())
        return mean, var**0.5

    def to_frame(self) -> pd.DataFrame:
        """One row per street: boards, mean and sd of bonus and penalty, effect activity."""
        rows = []
        for t in self.streets:
            mb, sb = self._moments(t, 0)
            mp, sp = self._moments(t, 1)
            row = {
                "street": STREETS[t.street],
                "board_cards": (0, 3, 4, 5)[t.street],
                "boards": comb(self.deck.n_cards, (0, 3, 4, 5)[t.street]),
                "arrangements": t.total,
                "mean_bonus": mb,
                "sd_bonus": sb,
                "p_bonus_zero": t.hist[0, -t.offsets[0]] / t.total if t.offsets[0] <= 0 else 0.0,
                "mean_penalty": mp,
                "sd_penalty": sp,
                "p_penalty_zero": t.hist[1, -t.offsets[1]] / t.total if t.offsets[1] <= 0 else 0.0,
            }
            for k, name in enumerate(MISC_NAMES):
                row[name] = t.misc[k] / t.total
            mw, _ = self._moments(t, 2)
            ml, _ = self._moments(t, 2 + self.max_losers)
            row["mean_net_winner_heads_up"] = mw
            row["mean_net_loser_heads_up"] = ml
            rows.append(row)
        return pd.DataFrame(rows)

    def transfers_frame(self) -> pd.DataFrame:
        """One row per street and number of losers: mean and sd of the net transfer to each side."""
        rows = []
        for t in self.streets:
            for m in range(1, self.max_losers + 1):
                mw, sw = self._moments(t, 1 + m)
                ml, sl = self._moments(t, 1 + self.max_losers + m)
                lv, lc = self._values(t, 1 + self.max_losers + m)
                rows.append(
                    {
                        "street": STREETS[t.street],
                        "losers": m,
                        "mean_net_winner": mw,
                        "sd_net_winner": sw,
                        "mean_net_loser": ml,
                        "sd_net_loser": sl,
                        "p_loser_pays": float(lc[lv < 0].sum() / t.total),
                    }
                )
        return pd.DataFrame(rows)

    def distribution_frame(self) -> pd.DataFrame:
        """The exact distributions (long form): street, quantity, losers, value, count, probability."""
        rows = []
        names = (
            ["bonus", "penalty"]
            + ["net_winner"] * self.max_losers
            + ["net_loser"] * self.max_losers
        )
        for t in self.streets:
            for q, name in enumerate(names):
                losers = (
                    0 if q < 2 else (q - 1 if q <= 1 + self.max_losers else q - 1 - self.max_losers)
                )
                values, counts = self._values(t, q)
                for v, c in zip(values, counts, strict=True):
                    rows.append(
                        {
                            "street": STREETS[t.street],
                            "quantity": name,
                            "losers": losers,
                            "value": int(v),
                            "count": int(c),
                            "probability": c / t.total,
                        }
                    )
        return pd.DataFrame(rows)

    def effects_frame(self) -> pd.DataFrame:
        """Per effect card and street: probability that it is on the board and that it is active."""
        rows = []
        for t in self.streets:
            for c in self.deck.effect_cards():
                rows.append(
                    {
                        "street": STREETS[t.street],
                        "card": self.deck.card_name(c),
                        "colour": COLOURS[int(self.deck.colour[c])],
                        "effect": self.deck.effect_label(c),
                        "p_on_board": t.on_board[c] / t.total,
                        "p_active": t.active[c] / t.total,
                    }
                )
        return pd.DataFrame(rows)

    def frames(self) -> dict[str, pd.DataFrame]:
        """All tables of the study by file name."""
        return {
            "economy_summary": self.to_frame(),
            "economy_transfers": self.transfers_frame(),
            "economy_distribution": self.distribution_frame(),
            "economy_effects": self.effects_frame(),
        }

    def manifest(self) -> dict[str, object]:
        """Provenance fields for the written tables and charts."""
        return {
            "study": "economy",
            "game": self.deck.game,
            "deck": self.deck.label,
            "deck_source": self.deck.source,
            "deck_assumed_values": self.deck.assumed,
            "rules": "RULES 1.4/1.8 (corners, multipliers, board effects)",
            "method": "exact enumeration",
            "exact": True,
            "arrangements": {STREETS[t.street]: t.total for t in self.streets},
            "max_losers": self.max_losers,
            "assumptions": list(self.assumptions),
        }


def board_economy(deck: Deck | str = "reference", max_losers: int = 3) -> EconomyResult:
    """Exact board economics of a deck at the flop, turn and river (enumerates every board)."""
    deck = load_deck(deck)
    if not 1 <= max_losers <= 9:
        raise LabError(f"max_losers must be 1..9, got {max_losers}")
    lo, hi = _bounds(deck, max_losers)
    bins = int((hi - lo).max()) + 1
    if bins > MAX_BINS:
        raise LabError(
            f"deck {deck.name}: bonus/penalty range too wide for exact tallies ({bins} bins)"
        )
    n = deck.n_cards
    nq = 2 + 2 * max_losers
    tallies = []
    for street in STUDY_STREETS:
        hist = np.zeros((n, nq, bins), np.int64)
        act = np.zeros((n, n), np.int64)
        onb = np.zeros((n, n), np.int64)
        misc = np.zeros((n, N_MISC), np.int64)
        enumerate_boards(n, street_patterns(street), deck.kernel_args, (max_losers, lo), (hist, act, onb, misc))
        total = arrangements(street, n)
        h = hist.sum(axis=0)
        if int(h[0].sum()) != total:  # pragma: no cover - enumeration invariant
            raise AssertionError("enumeration missed boards")
        tallies.append(
            StreetTally(
                street, total, h, lo.copy(), onb.sum(axis=0), act.sum(axis=0), misc.sum(axis=0)
            )
        )
    return EconomyResult(deck=deck, max_losers=max_losers, streets=tuple(tallies))

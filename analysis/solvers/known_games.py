"""Known games as betting specs: Kuhn poker (2+ players) and Leduc hold'em, as in open_spiel.

These are the proving grounds of the solvers: Kuhn's game value for the first
player is -1/18, and open_spiel publishes node, infoset and exploitability
figures for both, which the tests compare against.
"""

from __future__ import annotations

from functools import lru_cache

from .betting import BettingSpec, CardDeal, Street
from .errors import SolverError
from .game_tree import GameTree, build_tree

_KUHN_RANKS = "JQKA"


def kuhn_spec(players: int = 2) -> BettingSpec:
    """Kuhn poker: ``players + 1`` cards (J, Q, K, A), ante 1, one round, one bet of 1, no raise."""
    if not 2 <= int(players) <= 3:
        raise SolverError(f"kuhn: 2 or 3 players; got {players}")
    players = int(players)
    names = tuple(_KUHN_RANKS[: players + 1])
    deal = CardDeal(players, names, tuple(range(players + 1)), hole=1, board=(0,))
    street = Street("bet", sizes=(1.0,), sizing="fixed", raise_cap=1)
    return BettingSpec(f"kuhn-{players}p", players, (street,), deal, ante=1.0,
                       meta=(("game", "kuhn_poker"), ("players", players)))


def leduc_spec(suit_isomorphic: bool = False) -> BettingSpec:
    """Leduc hold'em (open_spiel's rules): J,Q,K x2, ante 1, raises of 2 then 4, 2 raises per round.

    Cards are numbered as open_spiel does (rank = card // 2). A pair with the board
    beats any high card. ``suit_isomorphic`` lets players see ranks only (288
    infosets instead of open_spiel's 936; the same game).
    """
    cards = ("Js", "Jh", "Qs", "Qh", "Ks", "Kh")
    ranks = (0, 0, 1, 1, 2, 2)
    deal = CardDeal(2, cards, ranks, hole=1, board=(0, 1), suit_isomorphic=suit_isomorphic,
                    rank_names=("J", "Q", "K"))
    streets = (
        Street("round 1", sizes=(2.0,), sizing="fixed", raise_cap=2, first=0),
        Street("round 2", sizes=(4.0,), sizing="fixed", raise_cap=2, first=0),
    )
    name = "leduc" + ("-iso" if suit_isomorphic else "")
    return BettingSpec(name, 2, streets, deal, ante=1.0,
                       meta=(("game", "leduc_poker"), ("suit_isomorphic", suit_isomorphic)))


@lru_cache(maxsize=8)
def kuhn(players: int = 2) -> GameTree:
    """The Kuhn poker tree (2p: 58 nodes, 12 infosets; 3p: 617 nodes, 48 infosets)."""
    return build_tree(kuhn_spec(players))


@lru_cache(maxsize=4)
def leduc(suit_isomorphic: bool = False) -> GameTree:
    """The Leduc hold'em tree (9,457 nodes, 936 infosets as open_spiel counts them)."""
    return build_tree(leduc_spec(suit_isomorphic))

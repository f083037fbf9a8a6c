"""What a player sees at a decision, as named features, and the action kinds of a policy.

Shared by the strategy language (:mod:`analysis.core.strategy`), which compiles conditions
on these features, and the engine's numba kernel (``analysis.engine._decide``), which fills
them at each decision. Kept in the core so every layer reads one definition.
"""

from __future__ import annotations

from analysis.core.actions import ALLIN, CALL, CHECK, FOLD, RAISE

# features of a decision (feat[FT_*], float64[N_FEAT])
(FT_STREET, FT_FACING, FT_PLAYERS, FT_POSITION, FT_BEHIND, FT_STRENGTH, FT_PRICE, FT_SPR, FT_POT_BB,
 FT_PENALTY, FT_CALL_BB) = range(11)
N_FEAT = 11

FEATURES: dict[str, str] = {
    "street": "0 preflop, 1 flop, 2 turn, 3 river",
    "facing": "0: nothing to call (nobody has bet this round, or the big blind's option); 1: a bet to call",
    "players": "players still in the hand (did not fold), the actor included",
    "position": "the actor's place in this round's acting order among the players still in (0 = first)",
    "behind": "players still in who act after the actor in this round's order (0 = last)",
    "strength": "exact hand strength on the board (preflop: the starting class's percentile by "
                "equity against one random hand), 0..1",
    "price": "amount to call / (pot + amount to call): the pot odds needed to call",
    "spr": "chips behind / pot",
    "pot": "pot in big blinds (all chips put in, this round's included)",
    "penalty": "sum of the minus corners of the board so far, in dollars (0 in Texas Hold'em)",
    "to_call": "amount to call in big blinds",
}
FEATURE_INDEX = {name: k for k, name in enumerate(FEATURES)}

# action kinds of a policy slot: codes of analysis.core.actions ("bet" and "raise" are both
# RAISE, put in more; the kernel logs BET when nobody has bet)
ACTION_KINDS = {"fold": FOLD, "check": CHECK, "call": CALL, "bet": RAISE, "raise": RAISE, "allin": ALLIN}
MAX_SLOTS = 8
"""Action slots per rule (fold, check, call, a few bet/raise sizes, all-in)."""

# fold-for-free modes (the knob of RULES §1.6)
FF_RULES, FF_NEVER, FF_MULTIWAY, FF_ALWAYS = range(4)
FOLD_FOR_FREE = ("rules", "never", "multiway", "always")

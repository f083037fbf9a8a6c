"""What a holding makes on a board, in the words players use: top pair, a set, a flush draw.

Solver reports group holdings the way PioSolver and GTO+ do: by the *made hand* the
holding makes with the board (only hands the hole cards take part in: a board pair
alone is no pair of the player's) and by its *draw* (before the river: four to a
flush or to a straight, counted only when a hole card brings one of the four
ranks: a straight on the board is nobody's draw). Straights
follow the deck's :class:`~evaluator.GameSpec` (10 connects to A on the 40-card deck).

Made hands, strongest first (:data:`MADE_HANDS`): ``straight flush``, ``quads``,
``full house``, ``flush``, ``straight``, ``set`` (a pocket pair with one board card),
``trips`` (one hole card with a board pair), ``two pair`` (both hole cards pair the
board), ``overpair`` (a pocket pair above every board card, a board pair or not), ``top pair``, ``second pair`` (a hole card pairs the second board rank, or
a pocket pair between the top two), ``weak pair`` (lower), ``high card``. A holding that
only plays the board's own five cards is ``high card``. Draws (:data:`DRAWS`): ``combo
draw`` (flush and straight), ``flush draw``, ``open-ended`` (two or more ranks complete
a straight), ``gutshot`` (one), ``none``; a holding that already has a straight or
better has no draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from evaluator import GameSpec, get_game

MADE_HANDS: tuple[str, ...] = (
    "straight flush", "quads", "full house", "flush", "straight", "set", "trips", "two pair",
    "overpair", "top pair", "second pair", "weak pair", "high card",
)
"""Made-hand types, strongest first."""

DRAWS: tuple[str, ...] = ("combo draw", "flush draw", "open-ended", "gutshot", "none")
"""Draw types, strongest first."""


def _straight_ranks(ranks: set[int], spec: GameSpec) -> list[tuple[int, ...]]:
    return [w for w in spec.straights if set(w) <= ranks]


def _flush_suit(cards: Sequence[int], spec: GameSpec) -> int | None:
    counts = Counter(c % spec.n_suits for c in cards)
    suit, n = counts.most_common(1)[0]
    return suit if n >= 5 else None


def _uses_hole(hole: Sequence[int], board: Sequence[int], spec: GameSpec) -> bool:
    """Whether the best five cards of hole + board are better than the board's own (5 cards)."""
    if len(board) < 5:
        return True
    from evaluator import evaluate  # evaluation only where a full board could play itself

    return evaluate(list(hole) + list(board), spec) != evaluate(list(board), spec)


def made_hand(hole: Sequence[int], board: Sequence[int], game: str | GameSpec = "dilemma") -> str:
    """The made-hand type (one of :data:`MADE_HANDS`) of card ids ``hole`` on ``board`` (3-5 cards)."""
    spec = get_game(game)
    ns = spec.n_suits
    cards = list(hole) + list(board)
    hr = [c // ns for c in hole]
    br = [c // ns for c in board]
    rank_count = Counter(c // ns for c in cards)
    board_count = Counter(br)
    suit = _flush_suit(cards, spec)
    if suit is not None:
        suited = {c // ns for c in cards if c % ns == suit}
        if _straight_ranks(suited, spec) and any(c % ns == suit for c in hole):
            return "straight flush" if _uses_hole(hole, board, spec) else "high card"
    if any(n == 4 for n in rank_count.values()):
        return "quads" if any(rank_count[r] == 4 for r in hr) else "high card"
    trips = [r for r, n in rank_count.items() if n >= 3]
    pairs = [r for r, n in rank_count.items() if n >= 2]
    if trips and len(pairs) >= 2 and (set(hr) & set(pairs)):
        return "full house" if _uses_hole(hole, board, spec) else "high card"
    if suit is not None and any(c % ns == suit for c in hole):
        return "flush" if _uses_hole(hole, board, spec) else "high card"
    if any(set(hr) & set(w) for w in _straight_ranks(set(rank_count), spec)):
        return "straight" if _uses_hole(hole, board, spec) else "high card"
    pocket = hr[0] == hr[1]
    if pocket and board_count[hr[0]] >= 1:
        return "set"
    if not pocket and any(board_count[r] == 2 for r in hr):
        return "trips"
    paired = sorted({r for r in hr if board_count[r] >= 1}, reverse=True)
    if len(paired) == 2:
        return "two pair"
    distinct = sorted(set(br), reverse=True)
    top = distinct[0]
    second = distinct[1] if len(distinct) > 1 else -1
    if pocket:
        if hr[0] > top:
            return "overpair"
        return "second pair" if hr[0] > second else "weak pair"
    if paired:
        r = paired[0]
        return "top pair" if r == top else "second pair" if r == second else "weak pair"
    return "high card"


def draw(hole: Sequence[int], board: Sequence[int], game: str | GameSpec = "dilemma") -> str:
    """The draw type (one of :data:`DRAWS`) of ``hole`` on a flop or turn ``board``; ``none`` on the river."""
    spec = get_game(game)
    if len(board) >= 5 or MADE_HANDS.index(made_hand(hole, board, spec)) <= MADE_HANDS.index("straight"):
        return "none"
    ns = spec.n_suits
    cards = list(hole) + list(board)
    suits = Counter(c % ns for c in cards)
    flush = any(n == 4 and any(c % ns == s for c in hole) for s, n in suits.items())
    ranks = {c // ns for c in cards}
    own = {c // ns for c in hole} - {c // ns for c in board}  # ranks only the hole cards bring
    outs = set()
    for window in spec.straights:
        missing = [r for r in window if r not in ranks]
        if len(missing) == 1 and own & set(window):
            outs.add(missing[0])
    straight = "open-ended" if len(outs) >= 2 else "gutshot" if outs else None
    if flush and straight:
        return "combo draw"
    return "flush draw" if flush else straight or "none"

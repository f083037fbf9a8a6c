"""Equity of two or more players: exact enumeration when affordable, Monte Carlo otherwise.

>>> r = equity("As Ah", "10d 10c", game="dilemma")   # doctest: +SKIP
>>> r.players[0].equity, r.exact                      # doctest: +SKIP

Each player is given as two known cards (``"As Ah"``), a range (``"AA, A10s+"``,
see :mod:`analysis.ranges`) or ``"random"``. A board of 0, 3, 4 or 5 cards and
dead cards may be given. Per player the result holds the equity (pot share, ties
split), the probability of winning outright and of tying, the standard error
(0 when exact), and how often the player wins (or shares) with each hand category.

How the method is chosen (``exact=None``): exact enumeration when its cost (boards
times hands to score) is at most ``exact_limit``, unless ``trials`` or ``stderr``
asks for Monte Carlo; ``exact=True`` forces enumeration, ``exact=False`` Monte
Carlo. Monte Carlo runs ``trials`` deals, or fixed-size chunks until the largest
standard error over the players is at most ``stderr`` (default
:data:`DEFAULT_STDERR`). Chunk ``i`` always draws from generator stream ``i`` of
the seed, so the same seed gives bit-identical results whatever the thread count.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from analysis.core.rng import derive_key
from analysis.core.threads import numba_threads
from analysis.runners import Backend, Progress, run
from evaluator import CATEGORIES, CardError, GameSpec, LabError, format_cards, get_game, parse_cards
from evaluator.suits import suit_orbit_weights, suit_permutation_array, suit_permutations_fixing

from ..ranges import Range, RangeError, parse_range
from .monte_carlo import EquityPlan, equity_schedule, player_stats

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DEFAULT_STDERR",
    "EquityError",
    "EquityResult",
    "PlayerEquity",
    "equity",
]

HOLE_CARDS = 2
BOARD_CARDS = 5
"""The deal the equity kernels score (:func:`.scoring.score_hole`): two hole cards a player and a
board of five; a game's spec must deal the same."""
DEFAULT_STDERR = 0.0005
"""Monte Carlo stops when every player's standard error is at most this (unless told otherwise)."""
EXACT_LIMIT = 3e8
"""Automatic choice: enumerate when boards x hands to score is at most this (about a second)."""
EXACT_HARD_LIMIT = 2e11
"""Even when forced, enumeration larger than this is refused (it would take hours)."""
_RANDOM_WORDS = {"random", "any", "*"}
_CARD = r"(?:10|[2-9TJQKA])[a-z]"
_LOOKS_LIKE_CARDS = re.compile(rf"^\s*{_CARD}[\s,]*{_CARD}\s*$", re.IGNORECASE)


class EquityError(LabError):
    """A deal that cannot be made: shared cards, too many players, a bad board, an empty range."""


@dataclass(frozen=True)
class PlayerEquity:
    """One player's result. ``categories[name]`` is the probability that this player wins or
    shares the pot holding a hand of that category (they sum to ``win + tie``)."""

    hand: str
    kind: str  # "hand" (two known cards), "range" or "random"
    combos: int
    equity: float
    win: float
    tie: float
    stderr: float
    categories: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class EquityResult:
    """Equities of every player of one deal, with how they were computed."""

    game: str
    players: tuple[PlayerEquity, ...]
    board: str
    dead: str
    exact: bool
    trials: int
    seed: int | None
    stderr_target: float | None
    method: str
    seconds: float

    def to_frame(self) -> pd.DataFrame:
        """One row per player: hand, kind, combos, equity, win, tie, stderr, trials, exact,
        then one ``won_with_<category>`` column per hand category."""
        import pandas as pd

        rows = []
        for i, p in enumerate(self.players, start=1):
            row: dict[str, Any] = {
                "player": i, "hand": p.hand, "kind": p.kind, "combos": p.combos,
                "equity": p.equity, "win": p.win, "tie": p.tie, "stderr": p.stderr,
                "trials": self.trials, "exact": self.exact,
            }
            row.update({f"won_with_{c}": p.categories[c] for c in CATEGORIES})
            rows.append(row)
        return pd.DataFrame(rows)

    def categories_frame(self) -> pd.DataFrame:
        """Tidy table (player, hand, category, probability) of the winning hand's category."""
        import pandas as pd

        return pd.DataFrame([
            {"player": i, "hand": p.hand, "category": c, "probability": p.categories[c]}
            for i, p in enumerate(self.players, start=1) for c in CATEGORIES
        ])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: top-level ``exact`` and ``trials`` and a list ``players``."""
        return {
            "game": self.game,
            "board": self.board,
            "dead": self.dead,
            "exact": self.exact,
            "trials": self.trials,
            "method": self.method,
            "seed": self.seed,
            "stderr_target": self.stderr_target,
            "seconds": round(self.seconds, 6),
            "players": [
                {
                    "hand": p.hand, "kind": p.kind, "combos": p.combos, "equity": p.equity,
                    "win": p.win, "tie": p.tie, "stderr": p.stderr, "categories": p.categories,
                }
                for p in self.players
            ],
        }


# -- input normalisation ------------------------------------------------------------------

PlayerLike = str | Range | Sequence[int] | None


@dataclass
class _Player:
    label: str
    kind: str  # "hand", "range", "random"
    cards: tuple[int, int] | None = None
    range: Range | None = None


def _player(spec_in: PlayerLike, spec: GameSpec, number: int) -> _Player:
    """Normalise one player's input: two known cards, a range, or random."""
    if spec_in is None:
        return _Player("random", "random")
    if isinstance(spec_in, Range):
        rng = parse_range(spec_in, spec)
        if rng.is_single and not rng.text:
            a, b = (int(c) for c in rng.combos[0])
            return _Player(format_cards((a, b), spec), "hand", (a, b))
        return _Player(rng.label, "range", range=rng)
    if not isinstance(spec_in, str):
        try:
            ids = parse_cards(list(spec_in), spec)
        except CardError as exc:
            raise EquityError(f"player {number}: {exc}") from None
        if len(ids) != 2:
            raise EquityError(f"player {number}: a hand is two cards; got {len(ids)}")
        return _Player(format_cards(ids, spec), "hand", (ids[0], ids[1]))
    text = spec_in.strip()
    if text.lower() in _RANDOM_WORDS:
        return _Player("random", "random")
    try:
        ids = parse_cards(text, spec)
    except CardError as exc:
        if _LOOKS_LIKE_CARDS.match(text):
            raise EquityError(f"player {number}: {exc}") from None
        ids = None
    if ids is not None and len(ids) == 2:
        return _Player(format_cards(ids, spec), "hand", (ids[0], ids[1]))
    if ids is not None and len(text.replace(",", " ").split()) == len(ids):
        raise EquityError(f"player {number}: {text!r} is {len(ids)} card{'s' * (len(ids) != 1)}; "
                          "a hand is exactly two cards (or give a range, like AA or 77+)")
    try:
        rng = parse_range(text, spec)
    except RangeError as exc:
        raise RangeError(f"player {number}: {exc}") from None
    return _Player(rng.label, "range", range=rng)


def _cards(text: str | Sequence[int] | None, spec: GameSpec, what: str) -> list[int]:
    if text is None:
        return []
    try:
        return parse_cards(text if isinstance(text, str) else list(text), spec)
    except CardError as exc:
        raise EquityError(f"{what}: {exc}") from None


# -- statistics ---------------------------------------------------------------------------


# -- the public function ------------------------------------------------------------------


def equity(
    *players: PlayerLike,
    board: str | Sequence[int] | None = None,
    dead: str | Sequence[int] | None = None,
    game: str | GameSpec = "dilemma",
    vs_random: int = 0,
    exact: bool | None = None,
    trials: int | None = None,
    stderr: float | None = None,
    seed: int = 0,
    threads: int | None = None,
    exact_limit: float = EXACT_LIMIT,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> EquityResult:
    """Equity of each player (cards, range or ``"random"``), plus ``vs_random`` random players.

    Exact when affordable (or ``exact=True``), else Monte Carlo with ``trials``
    deals or until every standard error is at most ``stderr``. Bad input raises
    an :class:`~evaluator.LabError` subclass with a one-line message.
    Monte Carlo runs on ``backend`` (default: this process) and reports to
    ``progress(done, total, label)``.
    """
    from evaluator.tables import get_tables

    from . import _exact_kernels as K

    started = time.perf_counter()
    spec = get_game(game)
    if (spec.hole_cards, spec.board_cards, spec.hand_rule) != (HOLE_CARDS, BOARD_CARDS, "best5"):
        raise EquityError(f"equity deals {HOLE_CARDS} hole cards and {BOARD_CARDS} board cards to the "
                          f"best five; the {spec.name} game deals {spec.hole_cards} and {spec.board_cards}")
    if vs_random < 0:
        raise EquityError(f"vs_random must be 0 or more; got {vs_random}")
    ps = [_player(p, spec, i) for i, p in enumerate(players, start=1)]
    ps += [_Player("random", "random") for _ in range(vs_random)]
    if len(ps) < 2:
        raise EquityError(f"equity needs at least 2 players; got {len(ps)}")
    board_ids = _cards(board, spec, "board")
    if len(board_ids) not in spec.board_sizes:
        sizes = ", ".join(map(str, spec.board_sizes[:-1])) + f" or {spec.board_sizes[-1]}"
        raise EquityError(
            f"a board has {sizes} cards; got {len(board_ids)} ({format_cards(board_ids, spec)})"
        )
    dead_ids = _cards(dead, spec, "dead cards")
    _check_disjoint(ps, board_ids, dead_ids, spec)
    if spec.deal_size(len(ps)) > spec.n_cards - len(dead_ids):
        most = (spec.n_cards - len(dead_ids) - spec.board_cards) // spec.hole_cards
        raise EquityError(
            f"{len(ps)} players need {spec.deal_size(len(ps))} cards with the board, but the "
            f"{spec.summary} has {spec.n_cards - len(dead_ids)} after dead cards: at most {most} players"
        )
    if exact and (trials is not None or stderr is not None):
        raise EquityError("exact enumeration takes no trials or standard-error target")
    if exact is None and (trials is not None or stderr is not None):
        exact = False
    if trials is not None and stderr is not None:
        raise EquityError("give either trials or a standard-error target, not both")
    if trials is not None and trials < 1:
        raise EquityError(f"trials must be at least 1; got {trials}")
    if stderr is not None and not stderr > 0:
        raise EquityError(f"the standard-error target must be positive; got {stderr}")
    if seed < 0:
        raise EquityError(f"seed must be a non-negative integer; got {seed}")

    known = set(board_ids) | set(dead_ids)
    for p in ps:
        if p.cards:
            known |= set(p.cards)
    for i, p in enumerate(ps, start=1):
        if p.kind == "range":
            assert p.range is not None
            p.range = p.range.without(known)
            if len(p.range) == 0:
                raise EquityError(
                    f"player {i}'s range {p.label!r} is empty once the board, dead cards "
                    "and known hands are removed"
                )
    tables = get_tables(spec).kernel_args
    board_arr = np.zeros(5, np.uint8)
    board_arr[: len(board_ids)] = board_ids
    avail = np.array([c for c in range(spec.n_cards) if c not in known], dtype=np.uint8)
    k_missing = 5 - len(board_ids)
    all_known = all(p.kind == "hand" for p in ps)

    with numba_threads(threads):
        if all_known and exact is not False:
            stats, deals, method = _exact_known(ps, board_arr, len(board_ids), avail, dead_ids, spec,
                                                 tables, K)
            is_exact = True
        else:
            plan = None
            if exact is not False:
                plan = _plan_exact(ps, spec, avail, k_missing, known, exact_limit if exact is None else EXACT_HARD_LIMIT, K)
                if plan is None and exact:
                    raise EquityError(
                        "exact enumeration would need more than "
                        f"{EXACT_HARD_LIMIT:.0e} hand evaluations; use Monte Carlo (--trials or --stderr)"
                    )
            if plan is not None:
                stats, deals = _exact_ranges(plan, board_arr, len(board_ids), avail, k_missing, tables, K)
                method, is_exact = "exact", True
            else:
                stats, deals = _monte_carlo(
                    ps, spec, board_arr, len(board_ids), avail, known, seed=seed, trials=trials,
                    stderr=DEFAULT_STDERR if (trials is None and stderr is None) else stderr,
                    backend=backend, progress=progress,
                )
                method, is_exact = "monte-carlo", False
    wins, cats, total = stats
    results = player_stats(wins, cats, total, deals, not is_exact)
    out = tuple(
        PlayerEquity(
            hand=p.label, kind=p.kind,
            combos=1 if p.kind == "hand" else (len(p.range) if p.range is not None else _n_random(spec, known)),
            equity=eq, win=w, tie=t, stderr=se, categories=cat,
        )
        for p, (eq, w, t, se, cat) in zip(ps, results, strict=True)
    )
    target = None
    if not is_exact:
        target = stderr if stderr is not None else (None if trials is not None else DEFAULT_STDERR)
    return EquityResult(
        game=spec.name, players=out, board=format_cards(board_ids, spec), dead=format_cards(dead_ids, spec),
        exact=is_exact, trials=int(deals), seed=None if is_exact else seed, stderr_target=target,
        method=method, seconds=time.perf_counter() - started,
    )


def _n_random(spec: GameSpec, known: set[int]) -> int:
    n = spec.n_cards - len(known)
    return n * (n - 1) // 2


def _check_disjoint(ps: list[_Player], board: list[int], dead: list[int], spec: GameSpec) -> None:
    """Every known card may be used once: in one hand, on the board or dead."""
    owner: dict[int, str] = {}
    places = [(c, "on the board") for c in board] + [(c, "dead") for c in dead]
    for i, p in enumerate(ps, start=1):
        if p.cards:
            places += [(c, f"in player {i}'s hand") for c in p.cards]
    for card, where in places:
        if card in owner:
            raise EquityError(
                f"card {spec.card_name(card)} is both {owner[card]} and {where}: a card can be dealt only once"
            )
        owner[card] = where


# -- exact --------------------------------------------------------------------------------


def _exact_known(ps, board_arr, n_known, avail, dead_ids, spec, tables, K):
    """Every player's hand known: enumerate the board, split by suits when possible, each
    orbit of boards under the suit permutations fixing the known cards scored once."""
    hands = np.array([p.cards for p in ps], dtype=np.uint8)
    perms = suit_permutation_array(
        suit_permutations_fixing([*(p.cards for p in ps), board_arr[:n_known], dead_ids])
    )
    k = 5 - n_known
    need = np.empty(4, np.int64)
    for s in range(4):
        on_board = sum(1 for c in board_arr[:n_known] if c % 4 == s)
        need[s] = min(5 - on_board - sum(1 for c in h if c % 4 == s) for h in hands)
    reachable = [max(int(x), 0) for x in need if x <= k]
    split = k >= 3 and not any(
        a + b <= k for i, a in enumerate(reachable) for b in reachable[i + 1:]
    )
    if split:
        fboards, fweights = K.flush_board_classes(avail, need, k, suit_orbit_weights(perms),
                                                  spec.n_ranks)
        wins, cats, deals = K.exact_fixed_split(hands, board_arr, n_known, avail, fboards,
                                                fweights, spec.n_ranks, tables)
    else:
        wins, cats, deals = K.exact_fixed(hands, board_arr, n_known, avail, perms, tables)
    return (wins.astype(np.float64), cats.astype(np.float64), float(deals)), int(deals), "exact"


@dataclass
class _ExactPlan:
    combos: np.ndarray
    masks: np.ndarray
    offsets: np.ndarray
    tuples: np.ndarray
    tuple_masks: np.ndarray
    tuple_weights: np.ndarray


def _range_arrays(ps: list[_Player], spec: GameSpec, known: set[int]):
    """Flat combo arrays (one segment per player, random players as every combo left)."""
    segs_c, segs_w = [], []
    for p in ps:
        if p.kind == "hand":
            segs_c.append(np.array([sorted(p.cards, reverse=True)], np.uint8))
            segs_w.append(np.ones(1))
        elif p.kind == "range":
            segs_c.append(p.range.combos)
            segs_w.append(p.range.weights)
        else:
            rest = [c for c in range(spec.n_cards) if c not in known]
            segs_c.append(np.array([(b, a) for i, a in enumerate(rest) for b in rest[i + 1:]], np.uint8).reshape(-1, 2))
            segs_w.append(np.ones(len(segs_c[-1])))
    combos = np.ascontiguousarray(np.concatenate(segs_c), dtype=np.uint8)
    weights = np.concatenate(segs_w).astype(np.float64)
    offsets = np.zeros(len(ps) + 1, np.int64)
    offsets[1:] = np.cumsum([len(c) for c in segs_c])
    one = np.uint64(1)
    masks = (one << combos[:, 0].astype(np.uint64)) | (one << combos[:, 1].astype(np.uint64))
    return combos, masks, offsets, weights


def _plan_exact(ps, spec, avail, k_missing, known, limit, K) -> _ExactPlan | None:
    """The tuples of an exact enumeration, or None when it would cost more than ``limit``."""
    combos, masks, offsets, weights = _range_arrays(ps, spec, known)
    n_boards = math.comb(len(avail), k_missing)
    if n_boards * len(combos) > limit:
        return None
    cap = int(max(1, limit / n_boards / len(ps)))
    count, tuples, tmasks, tweights = K.compatible_tuples(masks, offsets, weights, np.uint64(0), cap)
    if count > cap:
        return None
    if count == 0:
        raise EquityError("the players' ranges cannot be dealt together: every choice of hands shares a card")
    return _ExactPlan(combos, masks, offsets, tuples, tmasks, tweights)


def _exact_ranges(plan: _ExactPlan, board_arr, n_known, avail, k, tables, K):
    boards = K.combinations(avail, k)
    wins, cats, total, deals = K.exact_ranges(
        (plan.combos, plan.masks, plan.offsets), (plan.tuples, plan.tuple_masks, plan.tuple_weights),
        (board_arr, n_known, boards), tables,
    )
    return (wins, cats, float(total)), int(deals)


# -- Monte Carlo --------------------------------------------------------------------------


def _monte_carlo(ps, spec, board_arr, n_known, avail, known, *, seed, trials, stderr, backend,
                 progress):
    """Run the Monte Carlo plan until ``trials`` deals or the standard-error target."""
    order = (
        [i for i, p in enumerate(ps) if p.kind == "hand"]
        + [i for i, p in enumerate(ps) if p.kind == "range"]
        + [i for i, p in enumerate(ps) if p.kind == "random"]
    )
    fixed = np.array([ps[i].cards for i in order if ps[i].kind == "hand"], np.uint8).reshape(-1, 2)
    rps = [ps[i] for i in order if ps[i].kind == "range"]
    if rps:
        combos = np.ascontiguousarray(np.concatenate([p.range.combos for p in rps]), np.uint8)
        cum = np.concatenate([np.cumsum(p.range.weights) for p in rps]).astype(np.float64)
        offsets = np.zeros(len(rps) + 1, np.int64)
        offsets[1:] = np.cumsum([len(p.range) for p in rps])
    else:
        combos = np.zeros((0, 2), np.uint8)
        cum = np.zeros(0)
        offsets = np.zeros(1, np.int64)
    one = np.uint64(1)
    masks = (one << combos[:, 0].astype(np.uint64)) | (one << combos[:, 1].astype(np.uint64))
    n_random = sum(p.kind == "random" for p in ps)
    base_mask = np.uint64(sum(1 << c for c in known))
    settings = {"game": spec.name, "seed": seed, "players": [p.label for p in ps],
                "board": board_arr[:n_known], "dead_and_known": sorted(known)}
    plan = EquityPlan(derive_key(seed, "equity"), (fixed, combos, masks, cum, offsets, n_random),
                      (board_arr, n_known, avail, base_mask), spec.name, len(ps),
                      equity_schedule(trials, stderr), settings)
    result = run(plan, backend=backend, progress=progress, label="Monte Carlo deals")
    wins, cats, done = plan.unpack(result.totals[0])
    inv = order_inverse(order)
    return (wins[inv].astype(np.float64), cats[inv].astype(np.float64), float(done)), done


def order_inverse(order: list[int]) -> np.ndarray:
    """Positions in ``order`` of players 0..n-1 (kernel order back to the caller's order)."""
    inv = np.empty(len(order), np.int64)
    inv[np.asarray(order)] = np.arange(len(order))
    return inv

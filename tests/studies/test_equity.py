"""Equity engine (analysis/equity.py, _equity_kernels.py): exact vs brute force with the slow
reference evaluator, Monte Carlo vs exact, thread-count invariance, known Hold'em values."""

from __future__ import annotations

import itertools
from collections import defaultdict

import numba
import numpy as np
import pytest

from analysis.core import rng as _rng
from analysis.core.rng import derive_key, splitmix64
from analysis.studies.equity import EquityError, equity
from analysis.studies.equity import _exact_kernels as K
from analysis.studies.equity.monte_carlo import STREAM as CHUNK
from analysis.studies.ranges import RangeError, parse_range
from evaluator import CATEGORIES, LabError, get_game, parse_cards
from evaluator.suits import suit_orbit_weights, suit_permutation_array, suit_permutations_fixing
from evaluator.tables import get_tables
from tests.reference.evaluator import ref_best


def brute_force(hands: list[str], board: str, game: str, dead: str = "") -> dict:
    """Equity, win, tie and winning categories of known hands by enumerating every board
    completion and scoring each seven cards with the slow reference evaluator."""
    spec = get_game(game)
    hs = [parse_cards(h, spec) for h in hands]
    b = parse_cards(board, spec)
    used = set(b) | set(parse_cards(dead, spec)) | {c for h in hs for c in h}
    rest = [c for c in range(spec.n_cards) if c not in used]
    n = len(hs)
    eq, win, tie = np.zeros(n), np.zeros(n), np.zeros(n)
    cats = np.zeros((n, 9))
    deals = 0
    for extra in itertools.combinations(rest, 5 - len(b)):
        full = b + list(extra)
        vals = [ref_best(h + full, spec) for h in hs]
        best = max(vals)
        winners = [i for i, v in enumerate(vals) if v == best]
        for i in winners:
            eq[i] += 1 / len(winners)
            (win if len(winners) == 1 else tie)[i] += 1
            cats[i, best[0]] += 1
        deals += 1
    return {"equity": eq / deals, "win": win / deals, "tie": tie / deals, "cats": cats / deals, "deals": deals}


@pytest.mark.parametrize(("hands", "board", "game", "dead"), [
    (["As Ah", "10d 10c"], "2s 7h 9s 3d", "dilemma", ""),
    (["As 10s", "9d 9c", "5h 4h"], "2s 3s 7c", "dilemma", "Ad"),
    (["Ah Kh", "Qs Qd"], "Jh Th 2c 2d", "holdem", ""),
    (["7c 8c", "7d 8d", "Ac 2h"], "4c 5c 6d", "dilemma", "9h 9s"),   # straights, flush draws, ties
    (["As Ad", "Ks Kd", "Qs Qd", "Js Jd"], "2s 2d 2c", "holdem", ""),  # full houses, quads
])
def test_exact_matches_brute_force(hands: list[str], board: str, game: str, dead: str) -> None:
    ref = brute_force(hands, board, game, dead)
    res = equity(*hands, board=board, dead=dead, game=game)
    assert res.exact and res.trials == ref["deals"]
    for i, p in enumerate(res.players):
        assert p.equity == pytest.approx(ref["equity"][i], abs=1e-12)
        assert p.win == pytest.approx(ref["win"][i], abs=1e-12)
        assert p.tie == pytest.approx(ref["tie"][i], abs=1e-12)
        assert [p.categories[c] for c in CATEGORIES] == pytest.approx(list(ref["cats"][i]), abs=1e-12)


def _fixed_all_ways(hands: list[str], game: str, board: str = "", dead: str = ""):
    """The known-hands enumeration done every way: plain (every board, the reference), by
    suit orbits, split by suits (every flush board), split with flush-board classes and
    suit orbits."""
    spec = get_game(game)
    tables = get_tables(spec).kernel_args
    hs = np.array([parse_cards(h, spec) for h in hands], np.uint8)
    b = parse_cards(board, spec)
    d = parse_cards(dead, spec)
    board_arr = np.zeros(5, np.uint8)
    board_arr[: len(b)] = b
    used = set(hs.ravel()) | set(b) | set(d)
    avail = np.array([c for c in range(spec.n_cards) if c not in used], np.uint8)
    identity = suit_permutation_array([(0, 1, 2, 3)])
    perms = suit_permutation_array(suit_permutations_fixing([*hs, b, d]))
    ways = {
        "plain": K.exact_fixed(hs, board_arr, len(b), avail, identity, tables),
        "orbits": K.exact_fixed(hs, board_arr, len(b), avail, perms, tables),
    }
    need = np.array([
        min(5 - sum(c % 4 == s for c in b) - sum(c % 4 == s for c in h) for h in hs) for s in range(4)
    ], np.int64)
    k = 5 - len(b)
    reach = [max(int(x), 0) for x in need if x <= k]
    assert not any(x + y <= k for i, x in enumerate(reach) for y in reach[i + 1:])  # split applies
    fb = K.flush_boards(avail, need, k)
    ways["split"] = K.exact_fixed_split(hs, board_arr, len(b), avail, fb, np.ones(len(fb), np.int64),
                                        spec.n_ranks, tables)
    rows, weights = K.flush_board_classes(avail, need, k, suit_orbit_weights(perms), spec.n_ranks)
    assert weights.sum() == len(fb)
    ways["classes"] = K.exact_fixed_split(hs, board_arr, len(b), avail, rows, weights, spec.n_ranks,
                                          tables)
    return ways, len(perms)


@pytest.mark.parametrize(("hands", "game", "board", "dead", "group"), [
    (["As Ah", "Kd Kc"], "holdem", "", "", 4),
    (["Ah Kh", "7c 2d", "Qh Jh"], "holdem", "", "", 1),
    (["Ah Kh", "Qd Jd"], "holdem", "", "", 2),
    (["As Ah", "Ks Kh"], "holdem", "", "", 4),
    (["As Ah", "Ks Kh"], "holdem", "", "2d", 2),
    (["As 10s", "9d 9c", "5h 4h", "Ac 2c"], "dilemma", "", "", 1),
    (["As 10s", "9s 8s"], "dilemma", "2s", "", 6),
    (["As 10s", "9s 8s"], "dilemma", "2s 3h 4d", "", 1),
    (["As Ah", "Ks Kh"], "holdem", "2d 2c 7s", "", 2),
    (["As Ah", "Ks Kh"], "holdem", "2d 2c 7s 9h", "", 2),
    (["Ad Ac", "10s 10h"], "dilemma", "2s 3h", "", 2),
    (["Ad Ac", "10s 10h"], "dilemma", "", "", 4),
])
def test_suit_split_enumeration_equals_full_enumeration(hands: list[str], game: str, board: str,
                                                         dead: str, group: int) -> None:
    """Suit orbits, the rank-multiset split and flush-board classes give exactly the counts of
    one board at a time."""
    ways, n_perms = _fixed_all_ways(hands, game, board, dead)
    assert n_perms == group
    plain = ways.pop("plain")
    for name, other in ways.items():
        for a, b in zip(plain, other, strict=True):
            np.testing.assert_array_equal(a, b, err_msg=name)


def test_known_holdem_values() -> None:
    """AsAh vs KdKc 0.8126 (exact); AA vs one random hand 0.8520 (here by Monte Carlo)."""
    r = equity("As Ah", "Kd Kc", game="holdem")
    assert r.exact and r.trials == 1_712_304
    assert round(r.players[0].equity, 4) == 0.8126
    mc = equity("As Ah", "random", game="holdem", stderr=0.0005, seed=3)
    p = mc.players[0]
    assert not mc.exact and p.stderr <= 0.0005
    assert abs(p.equity - 0.8520) <= 4 * p.stderr


def test_range_exact_is_the_weighted_average_of_its_hands() -> None:
    """The board holds an ace, a king and a queen: each range loses half its combos to it
    (18 pairs of hands enumerated instead of 72)."""
    board = "Ac Kd Qh"
    res = equity("50%(AA), KK", "QQ", board=board, game="holdem")
    assert res.exact
    hero = parse_range("50%(AA), KK", "holdem")
    villain = parse_range("QQ", "holdem")
    spec = get_game("holdem")
    b = set(parse_cards(board, spec))
    total, acc, pairs = 0.0, defaultdict(float), 0
    for (h, wh), (v, wv) in itertools.product(hero, villain):
        if set(h) & set(v) or (set(h) | set(v)) & b:
            continue
        pairs += 1
        r = equity(list(h), list(v), board=board, game="holdem")
        for key in ("equity", "win", "tie"):
            acc[key] += wh * wv * getattr(r.players[0], key)
        total += wh * wv
    assert pairs == 18
    for key in ("equity", "win", "tie"):
        assert getattr(res.players[0], key) == pytest.approx(acc[key] / total, abs=1e-12)


MC_CASES = [
    # (players, kwargs)
    (("As Ah", "Kd Kc"), {"game": "holdem"}),
    (("As Ah", "random"), {"game": "holdem", "board": "2c 7d 9h"}),
    (("50%(AA), KK", "QQ+", "random"), {"game": "holdem", "board": "2c 7d 9h 3s"}),
    (("AA", "AA"), {"game": "holdem", "board": "Kc 7d 2h"}),
    (("A10s+, 99", "random"), {"game": "dilemma", "board": "2s 7h 9s 3d", "dead": "As"}),
    (("As 10s", "9d 9c", "5h 4h"), {"game": "dilemma"}),
]


@pytest.mark.parametrize(("players", "kwargs"), MC_CASES)
def test_monte_carlo_within_four_standard_errors_of_exact(players: tuple, kwargs: dict) -> None:
    exact = equity(*players, exact=True, **kwargs)
    mc = equity(*players, trials=300_000, seed=11, **kwargs)
    assert exact.exact and not mc.exact and mc.trials == 300_000
    for e, m in zip(exact.players, mc.players, strict=True):
        assert m.stderr > 0 or m.equity == e.equity  # no variance: AA vs AA always splits
        assert abs(m.equity - e.equity) <= 4 * m.stderr + 1e-12


def test_many_players_monte_carlo_and_exact() -> None:
    """Eleven players (more than the winner-set histogram covers) and ten on 40 cards."""
    hands = ["As Ks", "Ah Kh", "Ad Kd", "Ac Kc", "Qs Js", "Qh Jh", "Qd Jd", "Qc Jc", "Ts 9s", "Th 9h", "Td 9d"]
    kw = {"game": "holdem", "board": "2c 3d 4h 8c"}
    exact = equity(*hands, **kw)
    mc = equity(*hands, trials=100_000, seed=5, **kw)
    for e, m in zip(exact.players, mc.players, strict=True):
        assert abs(m.equity - e.equity) <= 4 * m.stderr + 1e-12
    ten = ["As Ah", "10s 10h", "9s 9h", "8s 8h", "7s 7h", "6s 6h", "5s 5h", "4s 4h", "3s 3h", "2s 2h"]
    full = equity(*ten, game="dilemma")  # 20 cards left: every board of 5 (15,504)
    assert full.exact and full.trials == 15_504
    assert sum(p.equity for p in full.players) == pytest.approx(1.0)
    mc10 = equity("As Ah", vs_random=9, game="dilemma", trials=50_000, seed=1)
    assert len(mc10.players) == 10 and sum(p.equity for p in mc10.players) == pytest.approx(1.0)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two numba threads")
def test_same_seed_same_result_whatever_the_thread_count() -> None:
    def run(threads: int, **kw) -> dict:
        d = equity("AA, A10s", "random", "random", game="dilemma", seed=42, threads=threads, **kw).to_dict()
        d.pop("seconds")
        return d

    assert run(1, trials=200_001) == run(2, trials=200_001)
    assert run(1, stderr=0.002) == run(2, stderr=0.002)


def test_seed_reproducible_and_distinct() -> None:
    a = equity("As Ah", vs_random=3, game="holdem", trials=40_000, seed=7)
    b = equity("As Ah", vs_random=3, game="holdem", trials=40_000, seed=7)
    c = equity("As Ah", vs_random=3, game="holdem", trials=40_000, seed=8)
    assert [p.equity for p in a.players] == [p.equity for p in b.players]
    assert [p.equity for p in a.players] != [p.equity for p in c.players]


def test_stderr_target_and_result_shapes() -> None:
    r = equity("As Ah", "7c 2d", "random", game="holdem", stderr=0.001)
    assert not r.exact and r.trials % CHUNK == 0
    assert max(p.stderr for p in r.players) <= 0.001
    assert sum(p.equity for p in r.players) == pytest.approx(1.0)
    for p in r.players:
        assert sum(p.categories.values()) == pytest.approx(p.win + p.tie)
    df = r.to_frame()
    assert list(df["hand"]) == ["As Ah", "7c 2d", "random"]
    assert {"equity", "win", "tie", "stderr", "trials", "exact", "won_with_flush"} <= set(df.columns)
    assert len(r.categories_frame()) == 3 * 9
    d = r.to_dict()
    assert d["exact"] is False and d["trials"] == r.trials and len(d["players"]) == 3


def test_automatic_choice_of_method() -> None:
    assert equity("AA", "KK", game="holdem", board="2c 7d 9h").exact
    assert not equity("random", "random", game="holdem").exact
    assert not equity("As Ah", "Kd Kc", game="holdem", trials=1000).exact
    with pytest.raises(EquityError, match="exact enumeration"):
        equity("random", "random", "random", "random", game="holdem", exact=True)


@pytest.mark.parametrize(("args", "kwargs", "match"), [
    (("As Ah", "As 10c"), {}, "card As is both in player 1's hand and in player 2's hand"),
    (("As Ah", "10c 10d"), {"board": "10c 2d 3h"}, "card 10c is both on the board and in player 2's hand"),
    (("As Ah",), {"vs_random": 17}, "at most 17 players"),
    (("As Ah", "Ks Kh"), {"game": "holdem", "vs_random": 22}, "at most 23 players"),
    (("As Ah", "Kd Kc"), {"game": "holdem", "board": "2c 3c"}, "0, 3, 4 or 5 cards; got 2"),
    (("As Ah", "A2s"), {"board": "2s 3s 4s", "dead": "Ad Ac 2h 2d 2c"}, "player 2's range 'A2s' is empty"),
    (("As Ah", "KK"), {}, "'KK'"),
    (("As Ah", "Kd Kc"), {}, "'Kd' is not in the dilemma deck"),
    (("As Ah",), {}, "at least 2 players"),
    (("As Ah", "random"), {"trials": 10, "stderr": 0.01}, "either trials or"),
    (("As Ah", "random"), {"trials": 0}, "trials must be"),
    (("As Ah", "random"), {"exact": True, "trials": 10}, "no trials"),
    (("As Ah", "random"), {"stderr": -1.0}, "positive"),
    (("As Ah", "random"), {"threads": 0}, "threads"),
    (("As Ah", "random"), {"board": "As Kd"}, "card"),
])
def test_bad_input_is_one_clear_line(args: tuple, kwargs: dict, match: str) -> None:
    with pytest.raises(LabError, match=match) as info:
        equity(*args, **kwargs)
    assert "\n" not in str(info.value)


def test_range_parse_errors_are_range_errors() -> None:
    with pytest.raises(RangeError, match="player 2"):
        equity("As Ah", "AA, 77z", game="holdem")


# -- the generator (analysis/core/rng.py) --------------------------------------------------------

M64 = (1 << 64) - 1


def _splitmix_ref(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _xoshiro_ref(s: list[int]) -> int:
    rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M64  # noqa: E731
    result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
    t = (s[1] << 17) & M64
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result


@numba.njit(cache=True)
def _draws(key, stream, n):
    st = np.empty(4, np.uint64)
    _rng.seed_state(st, key, stream)
    start = st.copy()
    out = np.empty(n, np.uint64)
    for i in range(n):
        out[i] = _rng.next_u64(st)
    return start, out


@numba.njit(cache=True)
def _deal_counts(key, n_deals, n, k):
    st = np.empty(4, np.uint64)
    _rng.seed_state(st, key, 0)
    avail = np.arange(n).astype(np.uint8)
    counts = np.zeros((k, n), np.int64)
    distinct = True
    for _ in range(n_deals):
        _rng.deal(st, avail, n, k)
        seen = np.zeros(n, np.bool_)
        for i in range(k):
            counts[i, avail[i]] += 1
            if seen[avail[i]]:
                distinct = False
            seen[avail[i]] = True
    return counts, distinct


@numba.njit(cache=True)
def _weighted_counts(key, cum, lo, hi, n):
    st = np.empty(4, np.uint64)
    _rng.seed_state(st, key, 0)
    counts = np.zeros(cum.shape[0], np.int64)
    for _ in range(n):
        counts[_rng.weighted_index(st, cum, lo, hi)] += 1
    return counts


def test_generator_is_xoshiro256starstar_seeded_by_splitmix() -> None:
    for x in (0, 1, 12345, M64):
        assert int(splitmix64(np.uint64(x))) == _splitmix_ref(x)
    key = derive_key(7)
    start, out = _draws(key, 3, 50)
    s = [int(v) for v in start]
    assert [int(v) for v in out] == [_xoshiro_ref(s) for _ in range(50)]
    again, out2 = _draws(key, 3, 50)
    other, _ = _draws(key, 4, 50)
    np.testing.assert_array_equal(out, out2)
    assert list(other) != list(start)
    assert derive_key(7) == key and derive_key(8) != key and derive_key(7, "x") != key


def test_deal_is_uniform_and_distinct() -> None:
    n_deals, n, k = 200_000, 40, 9
    counts, distinct = _deal_counts(derive_key(1), n_deals, n, k)
    assert distinct
    expected = n_deals / n
    chi2 = ((counts - expected) ** 2 / expected).sum(axis=1)  # 39 degrees of freedom each
    assert chi2.max() < 90


def test_weighted_index_is_proportional() -> None:
    w = np.array([5.0, 1.0, 2.0, 0.5, 3.0, 1.5])
    cum = np.concatenate([np.cumsum(w[:2]), np.cumsum(w[2:])])  # two segments
    n = 300_000
    counts = _weighted_counts(derive_key(2), cum, 2, 6, n)
    assert counts[:2].sum() == 0
    p = w[2:] / w[2:].sum()
    np.testing.assert_allclose(counts[2:] / n, p, atol=4 * np.sqrt(p * (1 - p) / n).max())

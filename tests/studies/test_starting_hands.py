"""Starting-hand tables (analysis/starting_hands.py): exact heads-up sweep vs brute force,
suit-orbit reduction, Monte Carlo vs exact, resumable runs, known Hold'em values."""

from __future__ import annotations

import itertools
import math

import numba
import numpy as np
import pandas as pd
import pytest

from analysis.core.threads import numba_threads
from analysis.studies import _starting_hand_kernels as K
from analysis.studies import starting_hands as SH
from analysis.studies.ranges import class_of_combo, combo_index, starting_classes
from evaluator import evaluate_batch, get_game
from evaluator.kickers import kicker_map
from evaluator.tables import get_tables
from tests.reference.board_orbits import canonical_boards

PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


@pytest.fixture(scope="module")
def holdem_headsup() -> pd.DataFrame:
    return SH.headsup_exact("holdem").set_index("hand")


@pytest.fixture(scope="module")
def dilemma_headsup() -> pd.DataFrame:
    return SH.headsup_exact("dilemma").set_index("hand")


def test_known_holdem_heads_up_values(holdem_headsup: pd.DataFrame) -> None:
    """Published exact values vs one random hand (e.g. AA 85.20%, 72o 34.58%)."""
    known = {"AA": 0.8520, "KK": 0.8240, "QQ": 0.7993, "AKs": 0.6704, "AKo": 0.6532,
             "22": 0.5033, "72o": 0.3458, "32o": 0.3230}
    for hand, value in known.items():
        assert round(holdem_headsup.loc[hand, "equity"], 4) == value, hand
    assert len(holdem_headsup) == 169


@pytest.mark.parametrize("fixture", ["dilemma_headsup", "holdem_headsup"])
def test_heads_up_table_is_consistent(fixture: str, request: pytest.FixtureRequest) -> None:
    df = request.getfixturevalue(fixture)
    # against one random hand the average hand is worth exactly half the pot
    assert (df["equity"] * df["combos"]).sum() / df["combos"].sum() == pytest.approx(0.5, abs=1e-12)
    np.testing.assert_allclose(df["equity"], df["win"] + df["tie"] / 2, atol=1e-12)
    assert df["equity"].idxmax() == "AA"
    assert df["exact"].all() and (df["stderr"] == 0).all()


def _brute_force_boards(game: str, boards: np.ndarray, kickers: str = "all") -> tuple[np.ndarray, ...]:
    """Per class: opponent pairs beaten, tied, and hero pairs, over the given boards,
    by scoring every pair and comparing every two disjoint pairs (numpy, no sweep), with
    showdowns reading ``kickers`` (RULES §1.3)."""
    spec = get_game(game)
    cls_of = class_of_combo(spec)
    n_cls = len(starting_classes(spec))
    wins, ties, hands = (np.zeros(n_cls, np.int64) for _ in range(3))
    for board in boards:
        rest = [c for c in range(spec.n_cards) if c not in set(board.tolist())]
        pairs = np.array(list(itertools.combinations(rest, 2)))
        rows = np.concatenate([np.repeat(board[None, :], len(pairs), 0), pairs], axis=1)
        s = kicker_map(spec, kickers)[evaluate_batch(rows, spec)].astype(np.int64)
        bits = (np.uint64(1) << pairs[:, 0].astype(np.uint64)) | (np.uint64(1) << pairs[:, 1].astype(np.uint64))
        disjoint = (bits[:, None] & bits[None, :]) == 0
        beat = ((s[:, None] > s[None, :]) & disjoint).sum(1)
        tie = ((s[:, None] == s[None, :]) & disjoint).sum(1)
        cls = np.array([cls_of[combo_index(a, b)] for a, b in pairs])
        np.add.at(wins, cls, beat)
        np.add.at(ties, cls, tie)
        np.add.at(hands, cls, 1)
    return wins, ties, hands


def _canonical(board: np.ndarray) -> np.ndarray:
    images = [sorted(int(c) // 4 * 4 + int(p[c % 4]) for c in board) for p in PERMS]
    return np.array(min(images, key=lambda cs: sum(1 << c for c in cs)), dtype=np.uint8)


@pytest.mark.parametrize(("game", "n_boards"), [("dilemma", 25), ("holdem", 12)])
def test_sweep_matches_brute_force_and_suit_orbits(game: str, n_boards: int) -> None:
    spec = get_game(game)
    tables = get_tables(spec).kernel_args
    rng = np.random.default_rng(1)
    boards = np.array([np.sort(rng.choice(spec.n_cards, 5, replace=False)) for _ in range(n_boards)], np.uint8)
    boards[0] = [0, 4, 8, 12, 16]     # a paired-free straight board
    boards[1] = [1, 5, 9, 13, 36]     # a flush board
    ones = np.ones(len(boards), np.int64)
    n_cls = len(starting_classes(spec))
    identity = kicker_map(spec, "all")
    fast = K.headsup_classes(boards, ones, spec.n_cards, class_of_combo(spec), n_cls, tables, identity)
    slow = _brute_force_boards(game, boards)
    for a, b in zip(fast, slow, strict=True):
        np.testing.assert_array_equal(a, b)
    # every class total is the same on a board and on its suit-canonical representative
    canon = np.array([_canonical(b) for b in boards], np.uint8)
    same = K.headsup_classes(canon, ones, spec.n_cards, class_of_combo(spec), n_cls, tables, identity)
    for a, b in zip(fast, same, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(("game", "orbits"), [("dilemma", 34_602), ("holdem", 134_459)])
def test_canonical_boards(game: str, orbits: int) -> None:
    spec = get_game(game)
    boards, mult = canonical_boards(spec.n_cards, PERMS)
    assert len(boards) == orbits
    assert mult.sum() == math.comb(spec.n_cards, 5)
    assert set(np.unique(24 % mult)) == {0}


def test_multiway_monte_carlo_matches_exact_heads_up(dilemma_headsup: pd.DataFrame) -> None:
    mc = SH.multiway_monte_carlo("dilemma", 1, seed=5, stderr=0.003).set_index("hand")
    assert (mc["stderr"] <= 0.003).all() and not mc["exact"].any()
    z = (mc["equity"] - dilemma_headsup["equity"]).abs() / mc["stderr"]
    assert z.max() <= 4.0


def test_multiway_known_holdem_shape() -> None:
    """AA against more opponents: 73.5% vs 2, about 31% vs 9 (published values)."""
    two = SH.multiway_monte_carlo("holdem", 2, seed=1, stderr=0.004).set_index("hand")
    assert abs(two.loc["AA", "equity"] - 0.7352) <= 4 * two.loc["AA", "stderr"]
    nine = SH.multiway_monte_carlo("holdem", 9, seed=1, stderr=0.004).set_index("hand")
    assert abs(nine.loc["AA", "equity"] - 0.3114) <= 4 * nine.loc["AA", "stderr"]


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two numba threads")
def test_multiway_same_with_any_thread_count() -> None:
    frames = []
    for threads in (1, 2):
        with numba_threads(threads):
            frames.append(SH.multiway_monte_carlo("dilemma", 4, seed=9, stderr=0.01))
    pd.testing.assert_frame_equal(frames[0], frames[1], check_exact=True)


def test_table_ranks_and_resume(tmp_path) -> None:
    res = SH.starting_hand_table("dilemma", "1-3", stderr=0.01, state_dir=tmp_path)
    assert not res.manifest["resumed"]
    df = res.frame
    assert len(df) == 300 and set(df["opponents"]) == {1, 2, 3}
    assert list(df.columns[:6]) == ["game", "hand", "kind", "high", "low", "combos"]
    for _, g in df.groupby("opponents"):
        best = g.loc[g["rank"] == 1]
        assert list(best["hand"]) == ["AA"] and best["percentile"].iloc[0] == 100.0
        assert best["top_pct"].iloc[0] == pytest.approx(100 * 6 / 780)
        assert g["rank"].min() == 1 and g["percentile"].min() > 0
    assert df.loc[df["opponents"] == 1, "exact"].all() and not df.loc[df["opponents"] > 1, "exact"].any()
    m = res.manifest
    assert m["game"] == "dilemma" and m["seed"] == 0 and m["stderr"] == 0.01
    assert set(m["trials"]) == {"1", "2", "3"} and "version" in m
    again = SH.starting_hand_table("dilemma", "1-3", stderr=0.01, state_dir=tmp_path)
    assert again.manifest["resumed"]
    pd.testing.assert_frame_equal(again.frame, df)


@pytest.mark.parametrize(("text", "expected"), [("1-9", list(range(1, 10))), ("1,3, 5", [1, 3, 5]), ("2", [2]), (4, [4])])
def test_parse_opponents(text, expected) -> None:
    assert SH.parse_opponents(text) == expected


@pytest.mark.parametrize("text", ["0-3", "10", "x", "5-2", ""])
def test_parse_opponents_errors(text) -> None:
    with pytest.raises(SH.StartingHandsError):
        SH.parse_opponents(text)


@pytest.mark.parametrize("game", ["dilemma", "holdem"])
def test_rules_1_3_kickers_top_sweep_matches_brute_force(game: str) -> None:
    """RULES §1.3 kickers=top: the sweep with the top-kicker map equals brute force on
    boards where it matters (a pair and high cards on board: kickers decide many pots)."""
    spec = get_game(game)
    boards = np.array([[0, 4, 9, 24, 33], [1, 5, 9, 13, 36], [3, 17, 22, 26, 30]], np.uint8)
    ones = np.ones(len(boards), np.int64)
    n_cls = len(starting_classes(spec))
    top = kicker_map(spec, "top")
    fast = K.headsup_classes(boards, ones, spec.n_cards, class_of_combo(spec), n_cls,
                             get_tables(spec).kernel_args, top)
    slow = _brute_force_boards(game, boards, "top")
    for a, b in zip(fast, slow, strict=True):
        np.testing.assert_array_equal(a, b)
    default = _brute_force_boards(game, boards)
    assert (slow[1] > default[1]).any()  # more ties under the literal reading


@pytest.mark.parametrize("kickers", ["all", "top"])
@pytest.mark.parametrize("game", ["dilemma", "holdem"])
def test_grouped_boards_match_every_suit_orbit(game: str, kickers: str) -> None:
    """The grouped enumeration (one board per rank multiset and flush-suit pattern, suited
    combos summed over the group) gives the same integer tallies as the sweep of every
    board up to suit symmetry, each orbit weighted by its size."""
    spec = get_game(game)
    args = (spec.n_cards, class_of_combo(spec), len(starting_classes(spec)),
            get_tables(spec).kernel_args)
    boards, mult = canonical_boards(spec.n_cards, PERMS)
    grouped = K.headsup_all(*args, kicker_map(spec, kickers))
    orbits = K.headsup_classes(boards, mult, *args, kicker_map(spec, kickers))
    for a, b in zip(grouped, orbits, strict=True):
        np.testing.assert_array_equal(a, b)
    assert grouped[2].sum() == math.comb(spec.n_cards, 5) * math.comb(spec.n_cards - 5, 2)

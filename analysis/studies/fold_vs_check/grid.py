"""The fold-vs-check study (RULES §1.4, §1.6): is checking worth it, or should I fold for free?

At a decision street (flop, turn or river) with nobody having bet, the hero
either **folds** (and escapes the penalty only if the hand goes on without it)
or **checks** and plays on by a policy. Both branches are played on the same
deals and settled by the settlement engine; the answer is the expected money of
each and their gap, with standard errors.

``evaluate_spot`` answers one spot; ``run_grid`` runs every starting class ×
street × opponent count × pot × opponent model, resumable by blocks, and
derives the break-even lines and the penalty-vs-pot view.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import provenance, write_json, write_table
from analysis.core.rng import derive_key
from analysis.dilemma.decks import Deck, load_deck
from analysis.dilemma.effects import STREETS, street_code
from analysis.dilemma.settlement import Rules
from evaluator import CardError, format_cards, parse_cards
from evaluator.errors import LabError
from evaluator.tables import get_tables

from ..ranges import parse_range, starting_classes
from . import _kernels as K
from .models import HeroPolicy, OpponentModel, load_model, load_policy

CHUNK = 1000
DEFAULT_BANK = (300, 700, 500)
MAX_PLAYERS = 10


class SpotError(LabError):
    """A spot that cannot exist (wrong board size, pot below the blinds, too many players...)."""


@dataclass(frozen=True)
class Spot:
    """One decision: the hero's cards or starting class, the board so far, and the table."""

    hand: str
    street: str = "flop"
    board: str = ""
    opponents: int = 1
    pot: int = 40
    stack: int | None = None
    """Chips behind each player at the decision (default: $1,000 less its share of the pot)."""
    model: str = "passive"
    policy: str = "check_down"

    @property
    def players(self) -> int:
        return self.opponents + 1

    @property
    def behind(self) -> int:
        return self.stack if self.stack is not None else 1000 - self.pot // self.players

    def label(self) -> str:
        board = self.board or "random"
        return f"{self.hand} | {self.street} {board} | {self.opponents} opp | pot {self.pot}"


@dataclass
class _Context:
    """Everything shared by the cells of one run: deck, rules, models, policies, bank."""

    deck: Deck
    rules: Rules
    bank: tuple[int, int, int]
    level: int
    models: list[OpponentModel] = field(default_factory=list)
    policies: list[HeroPolicy] = field(default_factory=list)

    def model_index(self, name: str) -> int:
        model = load_model(name)
        for i, m in enumerate(self.models):
            if m.source == model.source and m.name == model.name:
                return i
        self.models.append(model)
        return len(self.models) - 1

    def policy_index(self, name: str) -> int:
        policy = load_policy(name)
        for i, p in enumerate(self.policies):
            if p.name == policy.name:
                return i
        self.policies.append(policy)
        return len(self.policies) - 1


@dataclass
class _Cells:
    """Spots compiled to the kernel's arrays."""

    ctx: _Context
    spots: list[Spot]
    cells: np.ndarray
    keys: np.ndarray
    hero_combos: np.ndarray
    board_cards: np.ndarray
    class_names: list[str]
    combos: list[int]
    kinds: list[str]
    strength_bins: bool = True
    """Tally the gap by the hero's exact strength at the decision (the grid's break-even
    curves); it costs one enumeration of every holding per trial, so single spots skip it."""

    def kernel_tables(self) -> tuple:
        """The model, range, policy and game arrays ``run_items``/``run_exact`` take."""
        ctx = self.ctx
        deck = ctx.deck
        models = np.array([m.kernel_params() for m in ctx.models], dtype=np.float64)
        lo, hi, combos, cumw = [], [], [], []
        start = 0
        for m in ctx.models:
            if _deals_random(m, deck):  # deal from the deck: no range arrays needed
                lo.append(start)
                hi.append(start)
                continue
            rng = parse_range(m.range, deck.game)
            lo.append(start)
            combos.append(rng.combos.astype(np.int64))
            cumw.append(np.cumsum(rng.weights))
            start += len(rng)
            hi.append(start)
        range_combos = np.concatenate(combos) if combos else np.zeros((1, 2), np.int64)
        range_cumw = np.concatenate(cumw) if cumw else np.ones(1)
        policies = np.array([p.call for p in ctx.policies], dtype=np.float64)
        bb = ctx.rules.blinds[ctx.level][1]
        game = np.zeros(K.N_GCOLS, np.int64)
        game[K.G_BANK1:K.G_BANK3 + 1] = ctx.bank
        game[K.G_LEVEL] = ctx.level
        game[K.G_BIG_BLIND] = bb
        game[K.G_N_CARDS] = deck.n_cards
        game[K.G_STRENGTH_BINS] = int(self.strength_bins)
        return (models, np.array(lo, np.int64), np.array(hi, np.int64), range_combos, range_cumw,
                policies, game)


def _deals_random(model: OpponentModel, deck: Deck) -> bool:
    """Whether a model's holdings are every two cards, equally likely (dealt from the deck)."""
    rng = parse_range(model.range, deck.game)
    return rng.is_uniform and len(rng) == len(parse_range("random", deck.game))


def _hero_combos(hand: str, deck: Deck, board: list[int]) -> tuple[list[tuple[int, int]], str, int, str]:
    """The hero's combos (exact cards or a starting class), less those that clash with the board."""
    spec = deck.spec
    try:
        cards = parse_cards(hand, spec)
    except CardError:
        cards = None
    if cards is not None:
        if len(cards) != 2:
            raise SpotError(f"the hero holds 2 cards; got {len(cards)} in {hand!r}")
        if set(cards) & set(board):
            raise SpotError(f"card {spec.card_name(sorted(set(cards) & set(board))[0])} is both in the hand and on the board")
        return [tuple(cards)], format_cards(cards, spec), 1, "cards"
    classes = {c.name.lower(): c for c in starting_classes(spec)}
    text = hand.strip().lower()
    ten, alias = ("t", "10") if spec.name == "dilemma" else ("10", "t")
    cls = classes.get(text) or classes.get(text.replace(ten, alias))
    if cls is None:
        raise SpotError(f"hand {hand!r} is neither two cards nor a starting class of the {spec.summary}")
    combos = [c for c in cls.combos if not set(c) & set(board)]
    if not combos:
        raise SpotError(f"no combo of {cls.name} is possible on the board {format_cards(board, spec)}")
    return combos, cls.name, cls.n_combos, cls.kind


def _compile(spots: Sequence[Spot], ctx: _Context, seed: int) -> _Cells:
    deck = ctx.deck
    rows, keys, hero, boards, names, n_combos, kinds = [], [], [], [], [], [], []
    for spot in spots:
        street = street_code(spot.street)
        if street not in (1, 2, 3):
            raise SpotError(f"the decision street is flop, turn or river; got {spot.street!r}")
        board = parse_cards(spot.board, deck.spec) if spot.board else []
        if board and len(board) != street + 2:
            raise SpotError(
                f"a {STREETS[street]} board has {street + 2} cards; got {len(board)} ({spot.board})"
            )
        if not 1 <= spot.opponents <= MAX_PLAYERS - 1:
            raise SpotError(f"opponents must be 1 to {MAX_PLAYERS - 1}; got {spot.opponents}")
        if 2 * spot.players + 5 > deck.n_cards:
            raise SpotError(f"{spot.players} players cannot be dealt from the {deck.n_cards}-card deck")
        sb, bb = ctx.rules.blinds[ctx.level]
        if spot.pot < sb + bb:
            raise SpotError(f"pot ${spot.pot} is smaller than the blinds (${sb} + ${bb})")
        if spot.behind < 0:
            raise SpotError(f"stack must be >= 0; got {spot.behind}")
        combos, name, count, kind = _hero_combos(spot.hand, deck, board)
        row = np.zeros(K.N_CCOLS, np.int64)
        row[K.C_HERO_LO] = len(hero)
        hero.extend(combos)
        row[K.C_HERO_HI] = len(hero)
        row[K.C_BOARD_LO] = len(boards)
        row[K.C_BOARD_N] = len(board)
        boards.extend(board)
        row[K.C_STREET] = street
        row[K.C_NOPP] = spot.opponents
        row[K.C_POT] = spot.pot
        row[K.C_STACK] = spot.behind
        row[K.C_MODEL] = ctx.model_index(spot.model)
        row[K.C_POLICY] = ctx.policy_index(spot.policy)
        rows.append(row)
        # Deals depend on the hand, board, street and opponents only: pots, models,
        # policies and decks share them (common random numbers across the grid).
        keys.append(derive_key(seed, "fold-vs-check", name, spot.board or "-", street, spot.opponents))
        names.append(name)
        n_combos.append(count)
        kinds.append(kind)
    return _Cells(ctx, list(spots), np.array(rows, np.int64), np.array(keys, np.uint64),
                  np.array(hero, np.int64).reshape(-1, 2), np.array(boards or [0], np.int64),
                  names, n_combos, kinds)


def _run_items(compiled: _Cells, cell_idx: np.ndarray, chunk_idx: np.ndarray, trials: np.ndarray) -> np.ndarray:
    """Run work items (cell, chunk number, trials) and return their statistics rows."""
    stats = np.zeros((len(cell_idx), K.N_STATS))
    models, lo, hi, rcombos, rcumw, policies, game = compiled.kernel_tables()
    K.run_items(cell_idx.astype(np.int64), chunk_idx.astype(np.int64), trials.astype(np.int64),
                compiled.cells, compiled.keys, compiled.hero_combos, compiled.board_cards, models,
                lo, hi, rcombos, rcumw, policies, game, compiled.ctx.deck.kernel_args,
                compiled.ctx.rules.kernel_args, get_tables(compiled.ctx.deck.game).kernel_args,
                stats)
    return stats


def _gap_se(stats: np.ndarray) -> np.ndarray:
    n = stats[:, K.S_N]
    mean = stats[:, K.S_GAP] / np.maximum(n, 1)
    var = (stats[:, K.S_GAP2] - n * mean**2) / np.maximum(n - 1, 1)
    return np.sqrt(np.maximum(var, 0) / np.maximum(n, 1))


def simulate(compiled: _Cells, *, stderr: float | None, trials: int | None, max_trials: int,
             progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Per-cell statistics: a fixed number of trials, or rounds until the gap's SE <= ``stderr``.

    The schedule depends only on results so far (never on timing or threads), and
    each chunk has its own random stream, so the same seed gives the same numbers.
    """
    n_cells = len(compiled.cells)
    totals = np.zeros((n_cells, K.N_STATS))
    next_chunk = np.zeros(n_cells, np.int64)
    if trials is not None:
        want = np.full(n_cells, int(trials))
    else:
        want = np.full(n_cells, min(max_trials, 4 * CHUNK))
    for _round in range(6):
        cell_idx, chunk_idx, n_trials = [], [], []
        for c in range(n_cells):
            todo = int(want[c]) - int(next_chunk[c]) * CHUNK
            k = 0
            while todo > 0:
                cell_idx.append(c)
                chunk_idx.append(next_chunk[c] + k)
                n_trials.append(min(CHUNK, todo))
                todo -= CHUNK
                k += 1
            next_chunk[c] += k
        if not cell_idx:
            break
        cell_arr = np.array(cell_idx)
        order = np.lexsort((np.array(chunk_idx), cell_arr))
        stats = _run_items(compiled, cell_arr[order], np.array(chunk_idx)[order], np.array(n_trials)[order])
        np.add.at(totals, cell_arr[order], stats)
        if progress is not None:
            progress(int(np.sum(n_trials)))
        if trials is not None or stderr is None:
            break
        se = _gap_se(totals)
        n = totals[:, K.S_N]
        sd = se * np.sqrt(np.maximum(n, 1))
        need = np.ceil((sd / stderr) ** 2 * 1.05 / CHUNK) * CHUNK
        new_want = np.minimum(max_trials, np.maximum(want, need))
        if np.all(new_want <= next_chunk * CHUNK):
            break
        want = new_want
    return totals


def _summaries(compiled: _Cells, totals: np.ndarray) -> pd.DataFrame:
    """Per-cell results from the statistics rows."""
    n = np.maximum(totals[:, K.S_N], 1)

    def mean(col: int) -> np.ndarray:
        return totals[:, col] / n

    def se(col: int, col2: int) -> np.ndarray:
        m = mean(col)
        var = (totals[:, col2] - n * m**2) / np.maximum(n - 1, 1)
        return np.sqrt(np.maximum(var, 0) / n)

    gap, gap_se = mean(K.S_GAP), se(K.S_GAP, K.S_GAP2)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(gap_se > 0, gap / gap_se, np.sign(gap) * np.inf)
    p_check = 0.5 * (1 + np.vectorize(math.erf)(np.clip(z, -40, 40) / math.sqrt(2)))
    decision = np.where(z > 2, "check", np.where(z < -2, "fold", "close"))
    spots = compiled.spots
    return pd.DataFrame({
        "hand": compiled.class_names,
        "kind": compiled.kinds,
        "combos": compiled.combos,
        "street": [s.street for s in spots],
        "board": [s.board or "random" for s in spots],
        "opponents": [s.opponents for s in spots],
        "pot": [s.pot for s in spots],
        "stack": [s.behind for s in spots],
        "model": [compiled.ctx.models[int(c[K.C_MODEL])].name for c in compiled.cells],
        "policy": [compiled.ctx.policies[int(c[K.C_POLICY])].name for c in compiled.cells],
        "trials": totals[:, K.S_N].astype(np.int64),
        "ev_fold": mean(K.S_FOLD),
        "ev_fold_se": se(K.S_FOLD, K.S_FOLD2),
        "ev_check": mean(K.S_CHECK),
        "ev_check_se": se(K.S_CHECK, K.S_CHECK2),
        "gap": gap,
        "gap_se": gap_se,
        "z": z,
        "p_check_better": p_check,
        "decision": decision,
        "check_pot": mean(K.S_CHECK_POT),
        "check_bonus": mean(K.S_CHECK_BONUS),
        "check_penalty": mean(K.S_CHECK_PENALTY),
        "check_effects": mean(K.S_CHECK_EFFECT),
        "fold_pot": mean(K.S_FOLD_POT),
        "fold_bonus": mean(K.S_FOLD_BONUS),
        "fold_penalty": mean(K.S_FOLD_PENALTY),
        "fold_effects": mean(K.S_FOLD_EFFECT),
        "fold_pays_share": mean(K.S_FOLD_PAYS),
        "check_showdown_share": mean(K.S_CHECK_SHOWDOWN),
        "equity": mean(K.S_EQUITY),
        "strength": mean(K.S_STRENGTH),
        "board_penalty": mean(K.S_BOARD_PENALTY),
    })


# ----------------------------------------------------------------------------- one spot


@dataclass
class SpotResult:
    """EV of folding and of checking at one spot, their gap and its breakdown."""

    spot: Spot
    row: dict[str, Any]
    manifest: dict[str, Any]

    @property
    def gap(self) -> float:
        return float(self.row["gap"])

    def to_frame(self) -> pd.DataFrame:
        """One row per branch: ev, se and the breakdown (pot, bonus, penalty, effects)."""
        r = self.row
        return pd.DataFrame([
            {"action": a, "ev": r[f"ev_{a}"], "se": r[f"ev_{a}_se"], "pot": r[f"{a}_pot"],
             "bonus": r[f"{a}_bonus"], "penalty": -r[f"{a}_penalty"], "effects": r[f"{a}_effects"]}
            for a in ("fold", "check")
        ])

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain data (JSON output)."""
        return {"spot": asdict(self.spot), **{k: _plain(v) for k, v in self.row.items()},
                "manifest": self.manifest}


def _plain(v: Any) -> Any:
    """A JSON-ready scalar (numpy scalars unwrapped, NaN as None)."""
    v = v.item() if hasattr(v, "item") else v
    return None if isinstance(v, float) and math.isnan(v) else v


def _context(deck: str | Deck, rules: Rules | None, bank: Sequence[int], level: int) -> _Context:
    bank = tuple(int(b) for b in bank)
    if len(bank) != 3 or min(bank) < 0:
        raise SpotError(f"bank is three stacks of chips >= 0; got {bank}")
    if level not in (0, 1, 2):
        raise SpotError(f"blind level is 0, 1 or 2; got {level}")
    return _Context(load_deck(deck), rules or Rules(), bank, level)  # type: ignore[arg-type]


def evaluate_spot(
    hand: str,
    *,
    board: str = "",
    street: str | None = None,
    opponents: int = 1,
    pot: int = 40,
    stack: int | None = None,
    model: str = "passive",
    policy: str = "check_down",
    deck: str | Deck = "reference",
    rules: Rules | None = None,
    bank: Sequence[int] = DEFAULT_BANK,
    level: int = 0,
    trials: int | None = None,
    stderr: float | None = 1.0,
    max_trials: int = 2_000_000,
    seed: int = 0,
    exact: bool | None = None,
) -> SpotResult:
    """EV(fold now) and EV(check and continue) for one spot.

    ``hand`` is two cards (``"As 10h"``) or a starting class (``"A10o"``); ``board``
    the cards so far (3 flop, 4 turn, 5 river) or empty for a random board of
    ``street``. A river spot with known cards against 1 or 2 opponents holding
    random cards is enumerated exactly (every holding; ``exact=False`` to sample);
    otherwise Monte Carlo stops at ``trials`` or when the gap's SE <= ``stderr``.
    """
    if street is None:
        n_board = len(parse_cards(board, load_deck(deck).spec)) if board else 3
        street = {3: "flop", 4: "turn", 5: "river"}.get(n_board)
        if street is None:
            raise SpotError(f"a board has 3, 4 or 5 cards; got {n_board} ({board})")
    ctx = _context(deck, rules, bank, level)
    spot = Spot(hand, street, board, opponents, pot, stack, model, policy)
    compiled = _compile([spot], ctx, seed)
    compiled.strength_bins = False
    can_enumerate = (street_code(street) == 3 and bool(board) and compiled.combos[0] == 1
                     and spot.opponents <= 2 and _deals_random(ctx.models[0], ctx.deck))
    if exact and not can_enumerate:
        raise SpotError("exact enumeration needs a river spot with the hero's cards and the board "
                        "given, 1 or 2 opponents, and a model dealing random holdings")
    exact = can_enumerate if exact is None else exact
    if exact:
        totals = _run_exact(compiled)
    else:
        totals = simulate(compiled, stderr=stderr if trials is None else None, trials=trials,
                          max_trials=max_trials)
    frame = _summaries(compiled, totals)
    if exact:  # every deal counted once: no sampling error
        for col in ("ev_fold_se", "ev_check_se", "gap_se"):
            frame[col] = 0.0
        gap = frame["gap"].to_numpy()
        frame["z"] = np.sign(gap) * np.inf
        frame["p_check_better"] = np.where(gap > 0, 1.0, np.where(gap < 0, 0.0, 0.5))
        frame["decision"] = np.where(gap > 0, "check", np.where(gap < 0, "fold", "equal"))
    frame["strength"] = np.nan  # not tallied for single spots (see _Cells.strength_bins)
    row = frame.iloc[0].to_dict()
    manifest = provenance(
        study="fold-vs-check spot", game=ctx.deck.game, deck=ctx.deck.label, rules=ctx.rules.label,
        model=ctx.models[0].as_dict(), policy=ctx.policies[0].name, bank=list(ctx.bank),
        level=ctx.level, seed=None if exact else seed, trials=int(row["trials"]),
        stderr=float(row["gap_se"]), exact=bool(exact),
        method="exact enumeration of the opponents' holdings" if exact else "monte carlo",
    )
    return SpotResult(spot, row, manifest)


def _run_exact(compiled: _Cells) -> np.ndarray:
    """Statistics of a river spot over every opponent holding (see ``_kernels.run_exact``)."""
    models, _lo, _hi, _rc, _rw, policies, game = compiled.kernel_tables()
    stats = np.zeros((1, K.N_STATS))
    K.run_exact(compiled.cells[0], compiled.hero_combos, compiled.board_cards, models, policies, game,
                compiled.ctx.deck.kernel_args, compiled.ctx.rules.kernel_args,
                get_tables(compiled.ctx.deck.game).kernel_args, stats[0])
    return stats


# ----------------------------------------------------------------------------- the grid


@dataclass(frozen=True)
class GridSpec:
    """What the grid covers and how precisely."""

    deck: str = "reference"
    models: tuple[str, ...] = ("passive", "threshold")
    policy: str = "check_down"
    streets: tuple[str, ...] = ("flop", "turn", "river")
    opponents: tuple[int, ...] = (1, 2, 3, 4, 5)
    pots: tuple[int, ...] = (40, 120, 300)
    hands: tuple[str, ...] = ()
    """Starting classes to cover (empty: all of the deck)."""
    stderr: float = 1.0
    max_trials: int = 400_000
    seed: int = 0
    rules: tuple[tuple[str, str], ...] = ()

    def fingerprint(self, deck: Deck) -> str:
        data = json.dumps({**asdict(self), "deck": deck.label}, sort_keys=True)
        return hashlib.sha256(data.encode()).hexdigest()[:12]


@dataclass
class GridResult:
    """The grid's cells and the views derived from them."""

    cells: pd.DataFrame
    strength_curve: pd.DataFrame
    penalty_view: pd.DataFrame
    manifest: dict[str, Any]

    def to_frame(self) -> pd.DataFrame:
        return self.cells

    @classmethod
    def load(cls, folder: str | Path) -> GridResult:
        """A grid written by :meth:`write`, read back (e.g. to redraw its charts)."""
        folder = Path(folder)
        manifest = json.loads((folder / "fold_vs_check.manifest.json").read_text())
        return cls(pd.read_parquet(folder / "fold_vs_check.parquet"),
                   pd.read_parquet(folder / "fold_vs_check_strength.parquet"),
                   pd.read_parquet(folder / "fold_vs_check_penalty.parquet"), manifest)

    @property
    def break_even(self) -> pd.DataFrame:
        return break_even_table(self.cells, self.strength_curve)

    def write(self, out_dir: str | Path) -> list[Path]:
        """Write every table (CSV + Parquet + manifest)."""
        out = Path(out_dir)
        paths = []
        for name, df in (("fold_vs_check", self.cells), ("fold_vs_check_break_even", self.break_even),
                         ("fold_vs_check_strength", self.strength_curve),
                         ("fold_vs_check_penalty", self.penalty_view)):
            paths.extend(write_table(df, out, name, self.manifest).values())
        return paths


def _bins_frame(compiled: _Cells, totals: np.ndarray, base: int, n_bins: int) -> pd.DataFrame:
    """Per cell and bin: trials, sum and sum of squares of the gap."""
    rows = []
    for c in range(len(compiled.spots)):
        for b in range(n_bins):
            cnt = totals[c, base + 3 * b]
            if cnt:
                rows.append((c, b, cnt, totals[c, base + 3 * b + 1], totals[c, base + 3 * b + 2]))
    return pd.DataFrame(rows, columns=["cell", "bin", "n", "sum", "sumsq"])


def _weighted_bins(cells: pd.DataFrame, bins: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Mean gap per bin over the classes, each weighted by its combos (a random hand)."""
    df = bins.merge(cells[["combos", "trials", *keys]], left_on="cell", right_index=True)
    w = df["combos"] / df["trials"]
    # Each cell's bin sum has variance n * (its within-bin variance); weights add them up.
    within = np.maximum(df["sumsq"] - df["sum"] ** 2 / df["n"], 0)
    df = df.assign(wn=w * df["n"], ws=w * df["sum"], wvar=w * w * within)
    g = df.groupby([*keys, "bin"], as_index=False)[["n", "wn", "ws", "wvar"]].sum()
    g["gap"] = g["ws"] / g["wn"]
    g["gap_se"] = np.sqrt(g["wvar"]) / g["wn"]
    return g.drop(columns=["wn", "ws", "wvar"]).rename(columns={"n": "trials"})


def break_even_table(cells: pd.DataFrame, strength_curve: pd.DataFrame) -> pd.DataFrame:
    """Where checking stops being worth it, per model, street, opponents and pot.

    ``break_even_strength``: the hand strength on the board at which the mean gap
    (over random hands) crosses zero; ``break_even_equity``: the showdown equity
    at which the classes' gaps cross zero; ``share_check``: the share of classes
    (by combos) for which checking is better.
    """
    keys = ["model", "policy", "street", "opponents", "pot"]
    rows = []
    for key, group in cells.groupby(keys, sort=False):
        g = group.sort_values("equity")
        curve = strength_curve.merge(pd.DataFrame([dict(zip(keys, key, strict=True))]), on=keys)
        rows.append({
            **dict(zip(keys, key, strict=True)),
            "break_even_strength": _crossing(
                ((curve["strength_lo"] + curve["strength_hi"]) / 2).to_numpy(), curve["gap"].to_numpy()),
            "break_even_equity": _crossing(g["equity"].to_numpy(), g["gap"].to_numpy()),
            "share_check": float((g["combos"] * (g["gap"] > 0)).sum() / g["combos"].sum()),
            "mean_gap": float((g["combos"] * g["gap"]).sum() / g["combos"].sum()),
        })
    return pd.DataFrame(rows)


def _crossing(x: np.ndarray, y: np.ndarray) -> float:
    """The x where y (by increasing x) last turns from negative to non-negative, interpolated.

    0 when y is never negative (always check), 1 when never non-negative (always fold).
    """
    if len(x) == 0:
        return float("nan")
    order = np.argsort(x, kind="stable")
    x, y = x[order], y[order]
    if np.all(y >= 0):
        return 0.0
    if np.all(y < 0):
        return 1.0
    last_neg = int(np.nonzero(y < 0)[0][-1])
    if last_neg == len(y) - 1:
        return 1.0
    x0, x1, y0, y1 = x[last_neg], x[last_neg + 1], y[last_neg], y[last_neg + 1]
    return float(x0 + (x1 - x0) * (-y0) / (y1 - y0)) if y1 != y0 else float(x0)


def grid_spots(spec: GridSpec, deck: Deck) -> list[tuple[tuple[str, str, int], list[Spot]]]:
    """The grid's spots, grouped in blocks (model, street, opponents) that are saved as a unit."""
    hands = spec.hands or tuple(c.name for c in starting_classes(deck.spec))
    blocks = []
    for model in spec.models:
        for street in spec.streets:
            for opp in spec.opponents:
                spots = [Spot(h, street, "", opp, pot, None, model, spec.policy)
                         for h in hands for pot in spec.pots]
                blocks.append(((model, street, opp), spots))
    return blocks


def run_grid(
    spec: GridSpec = GridSpec(),
    *,
    out_dir: str | Path | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    preview: bool = False,
) -> GridResult:
    """Run the fold-vs-check grid; with ``out_dir``, finished blocks are kept in
    ``out_dir/partial-<fingerprint>/`` and reused by a rerun (resume after Ctrl-C)."""
    ctx = _context(spec.deck, Rules.parse(dict(spec.rules)), DEFAULT_BANK, 0)
    blocks = grid_spots(spec, ctx.deck)
    partial = Path(out_dir) / f".partial-fold-vs-check-{spec.fingerprint(ctx.deck)}" if out_dir else None
    frames, strength_bins, penalty_bins = [], [], []
    offset = 0
    for b, ((model, street, opp), spots) in enumerate(blocks):
        compiled = _compile(spots, ctx, spec.seed)
        path = partial / f"{model}-{street}-{opp}.npy" if partial else None
        if path is not None and path.exists():
            totals = np.load(path)
        else:
            label = f"{model} {street} {opp} opp"
            tick = (lambda n, b=b, label=label: progress(label, b, n)) if progress else None
            totals = simulate(compiled, stderr=spec.stderr, trials=None,
                              max_trials=spec.max_trials, progress=tick)
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp.npy")
                np.save(tmp, totals)
                tmp.replace(path)
        cells = _summaries(compiled, totals)
        cells.index = cells.index + offset
        frames.append(cells)
        sb = _bins_frame(compiled, totals, K.STRENGTH_BASE, K.N_STRENGTH_BINS)
        pb = _bins_frame(compiled, totals, K.PENALTY_BASE, K.N_PENALTY_BINS)
        sb["cell"] += offset
        pb["cell"] += offset
        strength_bins.append(sb)
        penalty_bins.append(pb)
        offset += len(cells)
        if progress is not None:
            progress(f"{model} {street} {opp} opp", b, 0)
    cells = pd.concat(frames)
    keys = ["model", "policy", "street", "opponents", "pot"]
    strength = _weighted_bins(cells, pd.concat(strength_bins), keys)
    strength.insert(len(keys), "strength_lo", strength.pop("bin") / K.N_STRENGTH_BINS)
    strength.insert(len(keys) + 1, "strength_hi", strength["strength_lo"] + 1 / K.N_STRENGTH_BINS)
    penalty = _weighted_bins(cells, pd.concat(penalty_bins), keys)
    penalty.insert(len(keys), "board_penalty", penalty.pop("bin") * 10)
    penalty.insert(len(keys) + 1, "penalty_over_pot", penalty["board_penalty"] / penalty["pot"])
    manifest = provenance(
        study="fold-vs-check", game=ctx.deck.game, deck=ctx.deck.label, rules=ctx.rules.label,
        models=[m.as_dict() for m in ctx.models], policy=spec.policy, seed=spec.seed,
        stderr=f"gap SE <= ${spec.stderr:g} per cell (max {spec.max_trials:,} trials)",
        trials=int(cells["trials"].sum()), method="monte carlo", preview=preview,
        max_gap_se=float(cells["gap_se"].max()), bank=list(DEFAULT_BANK),
    )
    return GridResult(cells.reset_index(drop=True), strength, penalty, manifest)


def grid_total_blocks(spec: GridSpec) -> int:
    """Number of blocks of a grid (for progress bars)."""
    return len(spec.models) * len(spec.streets) * len(spec.opponents)


def parse_int_list(text: str | Iterable[int], what: str) -> tuple[int, ...]:
    """``"1-5"``, ``"1,3,5"`` or ``"40,120"`` to a tuple of ints (errors name the option)."""
    if not isinstance(text, str):
        return tuple(int(x) for x in text)
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        try:
            if "-" in part:
                a, b = part.split("-", 1)
                out.extend(range(int(a), int(b) + 1))
            elif part:
                out.append(int(part))
        except ValueError:
            raise SpotError(f"{what}: cannot read {part!r} (use e.g. 1-5 or 40,120,300)") from None
    if not out:
        raise SpotError(f"{what}: empty list")
    return tuple(out)


def save_spot_json(result: SpotResult, path: str | Path) -> Path:
    """Write a spot result as JSON (atomically)."""
    return write_json(path, result.to_dict())


def grid_spec_from_options(*, deck: str, models: str, policy: str, streets: str, opponents: str,
                           pots: str, hands: str, stderr: float, max_trials: int, seed: int) -> GridSpec:
    """A :class:`GridSpec` from CLI-style comma-separated options (validated)."""
    street_list = tuple(s.strip() for s in streets.split(",") if s.strip())
    for s in street_list:
        if street_code(s) not in (1, 2, 3):
            raise SpotError(f"--streets: {s!r} is not flop, turn or river")
    model_list = tuple(m.strip() for m in models.split(",") if m.strip())
    for m in model_list:
        load_model(m)
    load_policy(policy)
    opp = parse_int_list(opponents, "--opponents")
    if min(opp) < 1 or max(opp) > MAX_PLAYERS - 1:
        raise SpotError(f"--opponents: 1 to {MAX_PLAYERS - 1}; got {opponents}")
    return GridSpec(deck=deck, models=model_list, policy=policy, streets=street_list,
                    opponents=opp, pots=parse_int_list(pots, "--pots"),
                    hands=tuple(h.strip() for h in hands.split(",") if h.strip()),
                    stderr=stderr, max_trials=max_trials, seed=seed)


def run_study_to(out: str | Path, *, charts: bool = True, preview: bool = False,
                 echo: Callable[[str], Any] = print, **options: Any) -> GridResult:
    """Run the grid with a progress bar, write its tables (and charts) into ``out``."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    spec = options.pop("spec", None) or grid_spec_from_options(**options)
    start = time.perf_counter()
    with Progress(TextColumn("[bold]fold-vs-check[/] {task.description}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total} blocks"), TimeElapsedColumn(),
                  transient=False) as bar:
        task = bar.add_task("", total=grid_total_blocks(spec))
        trials = [0]

        def tick(label: str, block: int, n: int) -> None:
            trials[0] += n
            bar.update(task, completed=block + (n == 0), description=f"{label} ({trials[0]:,} trials)")

        result = run_grid(spec, out_dir=out, progress=tick, preview=preview)
    result.manifest["seconds"] = round(time.perf_counter() - start, 1)
    result.write(out)
    if charts:
        from analysis.charts.study import study_charts

        study_charts(result, out)
    be = result.break_even
    echo(f"{len(result.cells):,} cells, {result.manifest['trials']:,} trials, "
         f"max gap SE ${result.manifest['max_gap_se']:.2f}, {result.manifest['seconds']} s")
    for r in be.itertuples():
        echo(f"{r.model:<10} {r.street:<5} {r.opponents} opp pot {r.pot:>4}: check with strength >= "
             f"{r.break_even_strength:.2f} (equity >= {r.break_even_equity:.2f}); "
             f"checking better for {r.share_check:.0%} of hands")
    echo(f"tables and charts in {out}/")
    return result

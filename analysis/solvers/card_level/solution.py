"""A solved spot to read: strategies and the expected value of every action per holding.

``solve_spot(spot)`` solves to a target and returns a :class:`SpotSolution`:

- ``.exploitability`` (chips) and ``.exploitability_pct`` (% of the pot);
- ``.ev()``: each player's expected share of the pot (they sum to the pot);
- ``.strategy(line)``: per holding, the frequency of each action at the decision
  reached by ``line`` (action labels such as ``"check"``, ``"bet 100"``, and the
  dealt card, e.g. ``"Qc"``, at a chance node);
- ``.to_frame()``: every decision of the first street, one row per holding and
  action: frequency, the action's EV, the best action, the gap to the second
  best, ``indifferent`` when that gap is below ``tolerance`` chips (a tie in
  value that the solver may mix either way, apart from a real preference), and
  ``regret``: what the holding's mixed strategy loses against its best action.

EVs are in chips as shares of the starting pot: ``pot / 2`` plus the expected
payoff from the root, conditional on the holding reaching the decision (a fold
after putting ``x`` in since the root is worth ``-x``). In Dilemma Hold'em this is
the chips a player ends the hand with less what it had behind at the root: the
pot share plus bonus and effect gains, less penalties, effect payments and what it
put in (so a free fold is worth minus the penalty it pays, not 0).

``.summary(line, by)``: the actor's range at a decision grouped by made hand (top
pair, set, ...), draw or starting class, with each group's share of the range and
its frequency and EV of every action, weighted by how likely each holding is there.
``to_frame`` and ``fold_or_check`` name each holding's ``class``, ``made_hand`` and
``draw`` too.

``.fold_or_check()``: at every decision where a player may fold although nobody
has bet (the free fold of Dilemma Hold'em), per holding the EV of folding and of
checking, the answer (``folds for free`` when folding is worth more than
checking by more than the tolerance, ``checks`` when less, else ``indifferent``:
a tie the solver may mix either way) and the regret of each choice (what it
loses against the holding's best action, chips per hand).

A solution file (``.npz``, versioned) holds the spot, the method, the precision (``float64``
when absent: files written before the option), the iterations and the solver's arrays;
:func:`load_solution` rebuilds the tree and resumes bit for bit (three-handed files too: river,
:data:`FORMAT3`, and turn, :data:`FORMAT3_TURN`, with the sampler's seed and state). A truncated,
corrupt or foreign file is one :class:`SpotError`.
"""

from __future__ import annotations

import json
import warnings
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.core.io import atomic_path

from . import _kernels as K
from ._layout import BF_VALS
from ._precision import DEFAULT_PRECISION
from .card_spot import SEATS, CardSpot, SpotError
from .solver import CardSolver, Progress
from .summary import SUMMARY_KEYS, GroupsAt, check_by, group_order, summary_frame
from .tree import (
    CARD,
    CHANCE,
    COUNT,
    DEALT0,
    DEALT1,
    DECISION,
    END,
    KIND,
    LOCK,
    PLAYER,
    SLOT,
    action_label,
)

FORMAT = "card-solver/1"
FORMAT3 = "card-solver-3/1"
"""The three-handed solver's files (:mod:`.multiway`)."""
FORMAT3_TURN = "card-solver-3-turn/1"
"""The three-handed turn solver's files (:mod:`.turn3`: with its seed and the sampler's state)."""
DEFAULT_TOLERANCE_PCT = 0.1
"""Default indifference tolerance: EVs closer than this % of the pot are a tie."""


class SpotSolution(GroupsAt):
    """A :class:`CardSolver` read as answers (see the module doc)."""

    def __init__(self, solver: CardSolver, tolerance: float | None = None) -> None:
        self.solver = solver
        self.spot = solver.spot
        self.tolerance = self.spot.pot * DEFAULT_TOLERANCE_PCT / 100 if tolerance is None else float(tolerance)
        self._group_cache: dict[tuple, dict[str, list[str]]] = {}

    @property
    def exploitability(self) -> float:
        """Mean best-response gain of the two players, in chips."""
        return self.solver.exploitability

    @property
    def exploitability_pct(self) -> float:
        """Exploitability as a % of the starting pot."""
        return self.solver.exploitability_pct

    @property
    def iterations(self) -> int:
        return self.solver.iterations

    @property
    def exploitability_measure(self) -> str:
        """What :attr:`exploitability` measures: the mean best-response gain (NashConv / 2), both games."""
        return self.solver.exploitability_measure

    def ev(self) -> dict[str, float]:
        """Each player's expected share of the pot under the average strategies."""
        ev = self.solver.expected_values()
        return {"oop": float(ev[0]), "ip": float(ev[1])}

    def holding_values(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per player, its holdings (``int64[n, 2]`` card ids) and each one's EV in chips at the root
        against the other's whole range under the average strategies (the convention of
        :meth:`action_values`: their mean weighted by the holdings' chance is :meth:`ev`)."""
        s = self.solver
        rows = s.root_values(K.MODE_EV)
        out = []
        for p in range(2):
            n = int(s.tables.n_hands[p])
            ev = self._chips(rows[p, :n], _compatible_mass(s, p, s.tables.weights[1 - p])[:n])
            out.append((s.tables.hands[p, :n].copy(), ev))
        return out

    def holding_chances(self) -> list[np.ndarray]:
        """Per player, each holding's weight in :meth:`ev`'s mean of :meth:`holding_values`: its range
        weight times the other's weight of the holdings it can meet."""
        s = self.solver
        n = [int(k) for k in s.tables.n_hands]  # (weights are padded to the longer range; the mass is not)
        return [s.tables.weights[p, : n[p]] * _compatible_mass(s, p, s.tables.weights[1 - p])[: n[p]] for p in range(2)]

    def _chips(self, values: np.ndarray, mass: np.ndarray) -> np.ndarray:
        """Counterfactual value rows (last axis: holdings) as each holding's EV in chips given it is dealt:
        divided by the opponent mass it meets, NaN where it meets none."""
        with np.errstate(invalid="ignore", divide="ignore"):
            ev = self.spot.pot / 2.0 + values * self.solver.tables.pairs / mass
        return np.where(mass > 0.0, ev, np.nan)

    # navigation -----------------------------------------------------------------------
    def _children(self, v: int) -> list[int]:
        nodes = self.solver.tree.nodes
        out, c = [], v + 1
        for _ in range(int(nodes[v, COUNT])):
            out.append(c)
            c = int(nodes[c, END])
        return out

    def _labels(self, v: int) -> list[str]:
        nodes = self.solver.tree.nodes
        if nodes[v, KIND] == CHANCE:
            spec = self.spot.spec
            return [spec.card_name(int(nodes[c, CARD])) for c in self._children(v)]
        slot = int(np.searchsorted(self.solver.tree.decision_nodes, v))
        return [action_label(a) for a in self.solver.tree.actions[slot]]

    def node(self, line: Sequence[str] = ()) -> int:
        """The node reached by a line of action labels and dealt cards from the root."""
        v = 0
        for step in line:
            labels = [x.lower() for x in self._labels(v)] if self.solver.tree.nodes[v, KIND] >= CHANCE else []
            key = str(step).strip().lower()
            if key not in labels:
                raise SpotError(f"no action {step!r} after {' / '.join(line[: list(line).index(step)]) or 'the root'}"
                                f" (choose one of: {', '.join(labels) or 'none, the hand is over'})")
            v = self._children(v)[labels.index(key)]
        return v

    def _opponent_reach(self, v: int) -> np.ndarray:
        """The reach of the non-acting player's holdings at ``v`` (average strategies, chance included)."""
        return self.reach(v, 1 - int(self.solver.tree.nodes[v, PLAYER]))

    def reach(self, v: int, player: int) -> np.ndarray:
        """The reach of ``player``'s holdings at node ``v``: range weight times the player's own
        average-strategy probabilities along the way, 0 for holdings a dealt card blocks (chance
        probabilities included, as the walk's opponent reach)."""
        nodes = self.solver.tree.nodes
        t = self.solver.tables
        reach = t.weights[player].copy()
        u = 0
        while u != v:
            kids = self._children(u)
            j = max(i for i, c in enumerate(kids) if c <= v)
            c = kids[j]
            if nodes[u, KIND] == CHANCE:
                card = int(nodes[c, CARD])
                blocked = (t.hands[player, :, 0] == card) | (t.hands[player, :, 1] == card)
                reach[blocked] = 0.0
                reach /= K._unseen(nodes, u, self.solver._iopts)
            elif nodes[u, PLAYER] == player:
                reach[: t.n_hands[player]] *= self.solver.strategy(u)[j]
            u = c
        return reach

    def holding_weights(self, v: int) -> np.ndarray:
        """How likely each of the actor's holdings is at decision ``v``: its own reach times the
        opponent reach of the holdings it can meet (the weights of :meth:`summary`)."""
        actor = int(self.solver.tree.nodes[v, PLAYER])
        n = int(self.solver.tables.n_hands[actor])
        return self.reach(v, actor)[:n] * _compatible_mass(self.solver, actor, self._opponent_reach(v))

    def board_at(self, v: int) -> list[int]:
        """The board's card ids at node ``v`` (the spot's board and the cards dealt since)."""
        dealt = [int(c) for c in self.solver.tree.nodes[v, [DEALT0, DEALT1]] if c >= 0]
        return [int(c) for c in self.spot.board] + dealt

    def action_values(self, line: Sequence[str] = ()) -> tuple[list[str], np.ndarray]:
        """Action labels and EV (chips) of each action per holding of the actor: float64[actions, holdings].

        NaN where the holding meets no opponent holding at the node (it is blocked or never reached).
        """
        v = self._decision(line)
        s = self.solver
        nodes = s.tree.nodes
        actor = int(nodes[v, PLAYER])
        n = int(s.tables.n_hands[actor])
        reach = self._opponent_reach(v)
        iopts = s._iopts.copy()
        iopts[K.O_TRAV] = actor
        iopts[K.O_MODE] = K.MODE_EV
        bufs = tuple(b[0] for b in s._pool)
        values = np.zeros((int(nodes[v, COUNT]), n))
        for a, c in enumerate(self._children(v)):
            K.walk(s._tree_args, (s.regrets, s.sums, iopts, s._coefs), bufs, c, reach.astype(s._dtype, copy=False),
                   (False, True), (s.tree.tasks, s._iso, s._task_vals, s._chance_reach), s._dilemma)
            values[a] = bufs[BF_VALS][0, :n]
        return self._labels(v), self._chips(values, _compatible_mass(s, actor, reach))

    def _decision(self, line: Sequence[str]) -> int:
        """The decision node ``line`` leads to, one that holds a strategy (else a :class:`SpotError`
        saying why: not a decision, or below a card suit isomorphism mirrors, with the line to ask)."""
        v = self.node(line)
        if self.solver.tree.nodes[v, KIND] != DECISION:
            raise SpotError(f"the line {' / '.join(line) or '(root)'} does not end at a decision")
        if self.solver.tree.nodes[v, SLOT] < 0:
            raise SpotError(f"the line {' / '.join(line)} passes a card whose subtree mirrors another's (suit "
                            f"isomorphism keeps one of them): {self._mirror_hint(line)}, or solve with "
                            "CardSolver(spot, isomorphism=False)")
        return v

    def strategy(self, line: Sequence[str] = ()) -> pd.DataFrame:
        """Per holding of the actor at the decision ``line`` leads to, the frequency of each action."""
        v = self._decision(line)
        actor = int(self.solver.tree.nodes[v, PLAYER])
        return pd.DataFrame(self.solver.strategy(v).T, index=pd.Index(self.holding_names(actor), name="holding"),
                            columns=self._labels(v))

    def _mirror_hint(self, line: Sequence[str]) -> str:
        """A line whose node is stored, the same as ``line`` with one dealt card's suit changed."""
        spec = self.spot.spec
        cards = {spec.card_name(c).lower(): c for c in range(spec.n_cards)}
        for i in reversed(range(len(line))):
            card = cards.get(str(line[i]).strip().lower())
            if card is None:
                continue
            for other in range(spec.n_cards):
                if other != card and spec.card_name(other)[:-1] == spec.card_name(card)[:-1]:
                    alt = [*line[:i], spec.card_name(other), *line[i + 1 :]]
                    try:
                        if self.solver.tree.nodes[self.node(alt), SLOT] >= 0:
                            return f"ask for {' / '.join(alt)}, the same with the suits swapped"
                    except SpotError:
                        continue
        return "ask for the line with a dealt card's suit swapped"

    def holding_names(self, player: int) -> list[str]:
        """``player``'s holdings by name (``AsKd``), in the solver's order."""
        spec = self.spot.spec
        return [spec.card_name(a) + spec.card_name(b) for a, b in self.spot.holdings(player)[0]]

    def first_street_lines(self) -> list[tuple[str, ...]]:
        """The action lines of every decision on the first street (before any card is dealt)."""
        nodes = self.solver.tree.nodes
        out: list[tuple[str, ...]] = []

        def rec(v: int, line: tuple[str, ...]) -> None:
            if nodes[v, KIND] != DECISION:
                return
            out.append(line)
            for label, c in zip(self._labels(v), self._children(v), strict=True):
                rec(c, (*line, label))

        rec(0, ())
        return out

    def _rows(self, lines: Sequence[Sequence[str]] | None, fold_and_check: bool = False):
        """Per decision: (line, player, holdings, weights, labels, frequencies, action EVs) and the
        holdings' groups (class, made hand, draw) on its board (``fold_and_check``: only decisions
        offering both)."""
        for line in (self.first_street_lines() if lines is None else [tuple(x) for x in lines]):
            v = self.node(line)
            if fold_and_check and not {"fold", "check"} <= set(self._labels(v)):
                continue
            actor = int(self.solver.tree.nodes[v, PLAYER])
            labels, ev = self.action_values(line)
            yield (" / ".join(line) or "(root)", SEATS[actor], self.holding_names(actor),
                   self.spot.holdings(actor)[1], labels, self.solver.strategy(v), ev), self.groups_at(actor, v)

    def to_frame(self, lines: Sequence[Sequence[str]] | None = None) -> pd.DataFrame:
        """One row per decision, holding and action (see the module doc); first street by default."""
        frames = []
        for row, groups in self._rows(lines):
            frame = decision_frame(*row, self.tolerance)
            k = len(row[4])
            for i, key in enumerate(SUMMARY_KEYS):
                frame.insert(3 + i, key, np.tile(groups[key], k))
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    def fold_or_check(self, lines: Sequence[Sequence[str]] | None = None) -> pd.DataFrame:
        """Per decision with both ``fold`` and ``check`` (first street by default) and holding:
        frequencies and EVs of both, ``answer`` (``folds for free``, ``checks``, ``indifferent``
        within the tolerance) and each choice's regret in chips per hand (see the module doc)."""
        frames = []
        for row, groups in self._rows(lines, fold_and_check=True):
            frame = fold_or_check_frame(*row, self.tolerance)
            for i, key in enumerate(SUMMARY_KEYS):
                frame.insert(3 + i, key, groups[key])
            frames.append(frame)
        if not frames:
            raise SpotError("no decision on the first street offers both fold and check (is the free fold on?)")
        return pd.concat(frames, ignore_index=True)

    def summary(self, line: Sequence[str] = (), by: str = "made_hand") -> pd.DataFrame:
        """The actor's range at the decision ``line`` leads to, grouped ``by`` ``made_hand``,
        ``draw`` or ``class`` (starting class such as ``AKs``): per group and action, the share of
        the range reaching the decision, the frequency, the action's EV (chips) and the group's
        value under its strategy (``group_ev``), each weighted by how likely the holding is there
        (its own reach times the opponent holdings it can meet)."""
        check_by(by)
        labels, ev = self.action_values(line)
        v = self.node(line)
        actor = int(self.solver.tree.nodes[v, PLAYER])
        return summary_frame(" / ".join(line) or "(root)", SEATS[actor], by,
                             group_order(by, self.spot), self.groups_at(actor, v)[by], labels,
                             self.solver.strategy(v), ev, self.holding_weights(v))

    # files ------------------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the solution file (whole or not at all)."""
        s = self.solver
        info = {"format": FORMAT, "spot": self.spot.describe(), "method": s.method, "iterations": s.iterations,
                "storage": list(s.tree.storage), "history": s.history, "locked": s.locked}
        if s.lock_labels:
            info["locks"] = self.locks
        if s.precision != DEFAULT_PRECISION:  # (a float64 file stays byte for byte what it was)
            info["precision"] = s.precision
        path = Path(path)
        with atomic_path(path) as tmp, open(tmp, "wb") as fh:
            np.savez_compressed(fh, info=np.array(json.dumps(info)), regret0=s.regrets[0], regret1=s.regrets[1],
                                sum0=s.sums[0], sum1=s.sums[1])
        return path

    @property
    def locks(self) -> dict[str, str]:
        """What each locked player plays, by seat (``{"ip": "threshold"}``; empty when nothing is locked)."""
        return {SEATS[p]: label for p, label in sorted(self.solver.lock_labels.items())}

    def manifest(self) -> dict:
        """The spot, tree, method, iterations and exploitability (for table manifests and JSON output)."""
        return {"spot": self.spot.describe(), "method": self.solver.method,
                "precision": getattr(self.solver, "precision", DEFAULT_PRECISION), "iterations": self.iterations,
                "exploitability": self.exploitability, "exploitability_pct_pot": self.exploitability_pct,
                "exploitability_measure": self.exploitability_measure,
                "nash_conv": self.solver.nash_conv, "nash_conv_pct_pot": 100.0 * self.solver.nash_conv / self.spot.pot,
                "ev": self.ev(), "indifference_tolerance": self.tolerance,
                "nodes": int(self.solver.tree.nodes.shape[0]), "locked_nodes": len(self.solver.locked)}

def decision_frame(line: str, player: str, names: list[str], weight: np.ndarray, labels: list[str],
                   freq: np.ndarray, ev: np.ndarray, tolerance: float) -> pd.DataFrame:
    """One decision's rows (holding x action): frequency, EV, best action, gap, indifference, regret."""
    node_ev = (freq * ev).sum(axis=0)
    order = np.argsort(-np.nan_to_num(ev, nan=-np.inf), axis=0, kind="stable")
    best = ev[order[0], np.arange(ev.shape[1])]
    second = ev[order[1], np.arange(ev.shape[1])] if len(labels) > 1 else best
    gap = best - second
    k, n = ev.shape
    return pd.DataFrame({
        "line": line,
        "player": player,
        "holding": np.tile(names, k),
        "weight": np.tile(weight, k),
        "action": np.repeat(labels, n),
        "frequency": freq.ravel(),
        "ev": ev.ravel(),
        "node_ev": np.tile(node_ev, k),
        "best_action": np.tile(np.array(labels)[order[0]], k),
        "ev_gap": np.tile(gap, k),
        "indifferent": np.tile(gap < tolerance, k),
        "regret": np.tile(best - node_ev, k),
    })


def fold_or_check_frame(line: str, player: str, names: list[str], weight: np.ndarray, labels: list[str],
                        freq: np.ndarray, ev: np.ndarray, tolerance: float) -> pd.DataFrame:
    """One fold-or-check decision's rows (per holding): both EVs, the answer and both regrets."""
    f, c = labels.index("fold"), labels.index("check")
    with warnings.catch_warnings():  # a holding that never reaches the decision has no EV (NaN)
        warnings.simplefilter("ignore", RuntimeWarning)
        best = np.where(np.isnan(ev).all(axis=0), np.nan, np.max(np.nan_to_num(ev, nan=-np.inf), axis=0))
    gap = ev[f] - ev[c]
    answer = np.where(gap > tolerance, "folds for free", np.where(gap < -tolerance, "checks", "indifferent"))
    return pd.DataFrame({
        "line": line,
        "player": player,
        "holding": names,
        "weight": weight,
        "fold_frequency": freq[f],
        "check_frequency": freq[c],
        "ev_fold": ev[f],
        "ev_check": ev[c],
        "fold_minus_check": gap,
        "answer": np.where(np.isnan(gap), "unreached", answer),
        "regret_fold": best - ev[f],
        "regret_check": best - ev[c],
    })


ANSWERS = ("folds for free", "checks", "indifferent")
"""The answers of a fold-or-check decision (``unreached`` aside)."""


def fold_or_check_shares(table: pd.DataFrame) -> dict[str, dict]:
    """Per decision line of a :meth:`SpotSolution.fold_or_check` table: the range-weighted share
    of each answer, the player and the mean regret of folding and of checking."""
    out = {}
    for line, rows in table[table["answer"] != "unreached"].groupby("line", sort=False):
        w = rows["weight"] / rows["weight"].sum()
        row = {a: float(w[rows["answer"] == a].sum()) for a in ANSWERS}
        row.update(player=str(rows["player"].iloc[0]), regret_fold=float((w * rows["regret_fold"]).sum()),
                   regret_check=float((w * rows["regret_check"]).sum()))
        out[str(line)] = row
    return out


def _compatible_mass(solver: CardSolver, player: int, reach: np.ndarray) -> np.ndarray:
    """Per holding of ``player``, the opponent reach of the holdings it does not share a card with."""
    t = solver.tables
    opp = 1 - player
    minus = np.zeros(solver.spot.spec.n_cards)
    no = int(t.n_hands[opp])
    np.add.at(minus, t.hands[opp, :no, 0], reach[:no])
    np.add.at(minus, t.hands[opp, :no, 1], reach[:no])
    n = int(t.n_hands[player])
    c = t.hands[player, :n]
    same = t.same[player, :n]
    back = np.where(same >= 0, reach[np.maximum(same, 0)], 0.0)
    return reach[:no].sum() - minus[c[:, 0]] - minus[c[:, 1]] + back


def solve_spot(spot: CardSpot, *, target_pct: float = 0.3, max_iterations: int = 1000, method: str | None = None,
               progress: Progress | None = None, tolerance: float | None = None,
               locks: dict | None = None, precision: str = DEFAULT_PRECISION, seed: int = 0) -> SpotSolution:
    """Solve ``spot`` until exploitability <= ``target_pct``% of the pot or ``max_iterations``.

    Heads-up: :class:`.solver.CardSolver` (``method`` ``dcfr``, the default, or ``cfr+``). Three-handed,
    a :class:`.multiway.MultiwaySolution` on the river (``dcfr`` or ``cfr+``) and a
    :class:`.turn3.TurnSolution3` on the turn (``mccfr``, the default there, drawing river cards from
    ``seed``, or ``dcfr`` / ``cfr+`` over every river card).

    ``locks``: node locking, ``{line: strategy}`` with a line of action labels and dealt cards
    from the root (as :meth:`SpotSolution.node`) and the strategy as :meth:`CardSolver.lock`
    takes it, or ``{"ip": "threshold"}`` (a player and an opponent model: every decision of
    that player, :func:`.locks.lock_to_model`; three-handed ``first``, ``second`` or ``third``); the
    heads-up solver then runs without suit isomorphism.
    ``precision``: the heads-up solver's arithmetic, ``float64`` or ``float32`` (:class:`.solver.CardSolver`)."""
    from .locks import apply_locks

    if spot.players == 3:
        if precision != DEFAULT_PRECISION:
            raise SpotError("precision float32: the heads-up solver only")
        if spot.street == 1:
            from .turn3 import TurnSolution3, TurnSolver3

            solver3, wrap = TurnSolver3(spot, method or "mccfr", seed), TurnSolution3
        else:
            from .multiway import MultiwaySolution, MultiwaySolver

            solver3, wrap = MultiwaySolver(spot, method or "dcfr"), MultiwaySolution
        apply_locks(solver3, locks or {}, solver3.node)
        solver3.run(target_pct=target_pct, max_iterations=max_iterations, progress=progress)
        return wrap(solver3, tolerance)  # type: ignore[return-value]
    solver = CardSolver(spot, method or "dcfr", isomorphism=not locks, precision=precision)
    apply_locks(solver, locks or {}, SpotSolution(solver).node)
    solver.run(target_pct=target_pct, max_iterations=max_iterations, progress=progress)
    return SpotSolution(solver, tolerance)


def load_solution(path: str | Path) -> SpotSolution:
    """A solution file written by :meth:`SpotSolution.save` (tree rebuilt, arrays checked)."""
    try:
        with open(path, "rb") as fh:
            archive = fh.read(4) == b"PK\x03\x04"
    except OSError as exc:
        raise SpotError(f"cannot read solution file {path}: {exc}") from None
    if not archive:  # an .npz is a zip archive: anything else is not ours (np.load would call it a pickle)
        raise SpotError(f"{path} is not a card-solver solution file (not an .npz archive)")
    try:
        with np.load(Path(path), allow_pickle=False) as z:
            info = json.loads(str(z["info"]))
            names = ("regret0", "regret1", "sum0", "sum1") + (("regret2", "sum2") if "sum2" in z.files else ())
            arrays = {k: z[k] for k in names}
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise SpotError(f"cannot read solution file {path}: {exc}") from None
    if isinstance(info, dict) and info.get("format") == FORMAT3:
        from .multiway import load_multiway

        return load_multiway(path, info, arrays)
    if isinstance(info, dict) and info.get("format") == FORMAT3_TURN:
        from .turn3 import load_turn3

        return load_turn3(path, info, arrays)
    if not isinstance(info, dict) or info.get("format") != FORMAT:
        raise SpotError(f"{path} is not a card-solver solution file (format {FORMAT})")
    try:
        solver = CardSolver(CardSpot.from_dict(info["spot"]), info["method"], isomorphism=not info.get("locked"),
                            precision=str(info.get("precision", DEFAULT_PRECISION)))
    except (KeyError, TypeError, ValueError) as exc:
        raise SpotError(f"solution file {path}: unreadable spot ({exc})") from None
    expected = [int(x) for x in solver.tree.storage]
    if [int(x) for x in info.get("storage", [])] != expected or any(
            arrays[k].shape != (max(expected[i % 2], 1),) for i, k in enumerate(arrays)):
        raise SpotError(f"solution file {path} does not match the tree of its spot")
    solver.regrets = (arrays["regret0"].astype(np.float32), arrays["regret1"].astype(np.float32))
    solver.sums = (arrays["sum0"].astype(np.float32), arrays["sum1"].astype(np.float32))
    solver.iterations = int(info["iterations"])
    for v in info.get("locked", []):
        solver.tree.nodes[int(v), LOCK] = 1
    seats = {name: p for p, name in enumerate(SEATS)}
    solver.lock_labels = {seats[k]: str(v) for k, v in info.get("locks", {}).items() if k in seats}
    for v in info.get("locked", []):  # (a file written before the labels were saved)
        solver.lock_labels.setdefault(int(solver.tree.nodes[int(v), PLAYER]), "unrecorded")
    solver.history = [tuple(h) for h in info.get("history", [])]
    return SpotSolution(solver)

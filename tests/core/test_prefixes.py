"""Constant prefixes mean one thing in the package (issue 18, item 5).

A module-level constant named with a one- or two-letter prefix (``S_N``, ``BS_KIND``) says
what kind of thing it is by that prefix. ``PREFIXES`` declares each prefix once: the kind
of thing it names and the modules that define constants of that kind. ``CLASHES`` lists
the modules that still use a prefix for another kind of thing (what it means there), each
to be renamed; that list only shrinks. Read from the source with ``ast`` (top-level
assignments under ``analysis/`` and ``evaluator/``, tuple unpacking included):

- a prefix not in ``PREFIXES`` fails (declare its meaning, or take one that exists);
- a module defining a prefixed constant that is neither allowed for the prefix nor a
  listed clash fails: the same letters would mean two things (rename it);
- a listed clash that is gone, or an allowed module that no longer defines the prefix,
  fails too (take it off the list).

``WORDS`` are names whose first part is a word or an abbreviation, not a family
(``EV_SCALE``, ``NO_LIMIT``). docs/architecture.md ("Kernel inputs are grouped") names the
prefixes in use."""

from __future__ import annotations

import ast
import re

import pytest

from tests.conftest import ROOT

PREFIX = re.compile(r"^([A-Z]{1,2})_[A-Z0-9_]+$")

PREFIXES: dict[str, tuple[str, set[str]]] = {
    "A": ("an action code of a game tree or kernel", {
        "analysis/engine/bluffjack/_kernel.py", "analysis/solvers/bluffjack/_mccfr.py",
        "analysis/solvers/card_level/tree.py"}),
    "BA": ("a counter of a board arrangement (the economy)", {
        "analysis/dilemma/_economy_kernel.py"}),
    "B": ("an entry of the board summary", {"analysis/dilemma/_board.py"}),
    "BF": ("a buffer of a heads-up card solver walk (``bufs``, ``pool``)", {
        "analysis/solvers/card_level/_layout.py"}),
    "BS": ("a betting-structure field", {"analysis/engine/structures.py"}),
    "C": ("a float coefficient of a solver (CFR discounts, weights)", {
        "analysis/solvers/_layout.py", "analysis/solvers/card_level/_kernels.py"}),
    "CF": ("a column of the engine's game-runner table configuration (``cfg``)", {
        "analysis/engine/_batch.py"}),
    "CH": ("an entry of the three-handed card solver's river cards (``chance``)", {
        "analysis/solvers/card_level/_layout.py"}),
    "CL": ("a column of the abstracted solver's settlement classes", {
        "analysis/solvers/abstracted/public_tree.py"}),
    "CE": ("a column of a fold-vs-check cell (one spot of the grid)", {
        "analysis/studies/fold_vs_check/layout.py"}),
    "CD": ("an entry of the engine's card data", {"analysis/engine/_layout.py"}),
    "D": ("a row of a deck's kernel arrays", {"analysis/dilemma/decks/__init__.py"}),
    "DK": ("a kind of Bluffjack decision (hit or bet)", {
        "analysis/engine/bluffjack/strategy.py"}),
    "DL": ("a slot of the fold-vs-check deal's arrays", {"analysis/studies/fold_vs_check/_deal.py"}),
    "DR": ("an offset in the Dilemma solver's deal record", {
        "analysis/solvers/abstracted/_deal_kernels.py"}),
    "F": ("a settlement flag bit", {
        "analysis/dilemma/settlement/layout.py", "analysis/engine/_batch.py"}),
    "FF": ("a free-fold mode of the policy features", {"analysis/core/features.py"}),
    "FT": ("a policy feature (a column of the features a decision reads)", {
        "analysis/core/features.py", "analysis/engine/bluffjack/strategy.py"}),
    "G": ("an entry of a game's int64 settings vector", {
        "analysis/solvers/abstracted/_deal_kernels.py", "analysis/studies/fold_vs_check/layout.py"}),
    "GR": ("a column of the engine's per-game record (``rec``)", {"analysis/engine/_batch.py"}),
    "HD": ("an entry of the three-handed card solver's holding arrays (``hands``)", {
        "analysis/solvers/card_level/_layout.py"}),
    "H": ("a column of a betting engine's seat rows (the engine's, Bluffjack's)", {
        "analysis/engine/_layout.py", "analysis/engine/bluffjack/_kernel.py"}),
    "HS": ("an entry of a Bluffjack hand's state (the engine kernel's, the walk's)", {
        "analysis/engine/bluffjack/_kernel.py", "analysis/solvers/bluffjack/_mccfr.py"}),
    "I": ("a column of a game tree's information sets", {"analysis/solvers/_layout.py"}),
    "IS": ("an entry of the heads-up card solver's task isomorphism (``iso``)", {
        "analysis/solvers/card_level/_layout.py"}),
    "IP": ("a seat of the card solver's spot", {"analysis/solvers/card_level/_payoffs.py"}),
    "L": ("a column of the engine's action log", {"analysis/engine/_layout.py"}),
    "LE": ("a column of the card solver's showdown sums read at or below a holding's strength", {
        "analysis/solvers/card_level/_sweeps.py"}),
    "LK": ("a limit kind of Bluffjack's stakes", {"analysis/engine/bluffjack/_kernel.py"}),
    "M": ("a column of an opponent or betting model", {
        "analysis/studies/brag/_kernels.py", "analysis/studies/fold_vs_check/layout.py"}),
    "MN": ("an entry of the engine's legal menu (``menu``)", {"analysis/engine/_layout.py"}),
    "N": ("a count (of columns, cards, players, ...)", {
        "analysis/core/features.py", "analysis/dilemma/_board.py",
        "analysis/dilemma/_economy_kernel.py", "analysis/dilemma/decks/__init__.py",
        "analysis/dilemma/effects.py", "analysis/dilemma/settlement/layout.py",
        "analysis/dilemma/settlement/rules.py", "analysis/engine/_batch.py",
        "analysis/engine/_layout.py", "analysis/engine/bluffjack/_kernel.py",
        "analysis/engine/bluffjack/strategy.py", "analysis/engine/structures.py",
        "analysis/solvers/_layout.py", "analysis/solvers/bluffjack/_mccfr.py",
        "analysis/solvers/card_level/_kernels.py", "analysis/solvers/card_level/_kernels3.py",
        "analysis/solvers/card_level/_layout.py", "analysis/solvers/card_level/_mccfr3.py",
        "analysis/solvers/card_level/_sweeps.py", "analysis/solvers/card_level/_payoffs.py",
        "analysis/solvers/preflop_hu/_kernels.py",
        "analysis/solvers/card_level/tree.py", "analysis/solvers/card_level/tree3.py",
        "analysis/solvers/abstracted/_deal_kernels.py", "analysis/solvers/abstracted/public_tree.py",
        "analysis/studies/bluffjack/_kernels.py",
        "analysis/studies/bluffjack/probabilities.py", "analysis/studies/brag/_kernels.py",
        "analysis/studies/equity/_scoring.py", "analysis/studies/fold_vs_check/layout.py",
        "evaluator/brag.py", "evaluator/kickers.py", "evaluator/suits.py"}),
    "ND": ("a column of the abstracted solver's public-tree nodes", {
        "analysis/solvers/abstracted/public_tree.py"}),
    "NT": ("a node type of Bluffjack's public tree", {"analysis/solvers/bluffjack/public_tree.py"}),
    "O": ("an entry of a solver's int64 options", {
        "analysis/solvers/_layout.py", "analysis/solvers/card_level/_kernels.py",
        "analysis/solvers/card_level/_kernels3.py", "analysis/solvers/abstracted/_sampled_kernels.py"}),
    "OP": ("an effect's operation code", {"analysis/dilemma/effects.py"}),
    "P": ("a column of a player's (seat's) row in a hand record", {
        "analysis/dilemma/settlement/layout.py", "analysis/studies/bluffjack/_kernels.py"}),
    "PF": ("a float field of a compiled policy", {"analysis/engine/_layout.py"}),
    "PH": ("a phase (betting round) of a Bluffjack hand", {
        "analysis/engine/bluffjack/_kernel.py", "analysis/solvers/bluffjack/_mccfr.py"}),
    "PI": ("an int field of a compiled policy", {"analysis/engine/_layout.py"}),
    "PV": ("an entry of the Bluffjack walk's parameter vector", {
        "analysis/solvers/bluffjack/_mccfr.py"}),
    "R": ("an entry of a rule set's kernel arguments", {
        "analysis/dilemma/settlement/rules.py", "evaluator/_blackjack_kernels.py"}),
    "S": ("a statistics column (the per-stream sums a runner plan returns)", {
        "analysis/engine/_batch.py", "analysis/studies/brag/multiway.py",
        "analysis/studies/fold_vs_check/layout.py"}),
    "RS": ("a column of the engine's round state (``rs``)", {"analysis/engine/_layout.py"}),
    "SD": ("a showdown outcome of the card solver", {"analysis/solvers/card_level/_payoffs.py"}),
    "SF": ("a sampling factor of the three-player card solver's walk", {
        "analysis/solvers/card_level/_mccfr3.py"}),
    "SK": ("a field of Bluffjack's stakes", {"analysis/engine/bluffjack/stakes.py"}),
    "SO": ("an entry of a settled hand's outcome (the settlement's ``out``)", {
        "analysis/dilemma/settlement/layout.py"}),
    "SM": ("a solver method code", {"analysis/solvers/_layout.py"}),
    "SP": ("an int entry of the card solver's spot (``ints``)", {"analysis/solvers/card_level/_payoffs.py"}),
    "ST": ("a seat's field in the Bluffjack walk's state", {"analysis/solvers/bluffjack/_mccfr.py"}),
    "PS": ("a field of the pre-flop solver's settlement setting", {"analysis/solvers/preflop_hu/_kernels.py"}),
    "T": ("a column of the settlement's table row", {"analysis/dilemma/settlement/layout.py"}),
    "TC": ("a column of the abstracted solver's terminals", {
        "analysis/solvers/abstracted/public_tree.py"}),
    "TH": ("an entry of the three-handed card solver's kernel tree tuple (``tree``)", {
        "analysis/solvers/card_level/_layout.py"}),
    "TT": ("an entry of the heads-up card solver's kernel tree tuple (``tree``)", {
        "analysis/solvers/card_level/_layout.py"}),
    "TR": ("a column of the engine's game trace", {"analysis/engine/_batch.py"}),
    "RW": ("a column of the card solver's showdown read rows (a holding's entries beside the sweep's)", {
        "analysis/solvers/card_level/_sweeps.py"}),
    "UP": ("a column of the card solver's upward sweep", {"analysis/solvers/card_level/_sweeps.py"}),
    "W": ("a slot of a kernel's scratch (work arrays: the engine's, the card solver's sweeps)", {
        "analysis/engine/_layout.py", "analysis/solvers/card_level/_sweeps.py"}),
    "WN": ("a column of the shared MCCFR walk's node table", {"analysis/solvers/_layout.py"}),
    "X": ("a column of the engine's hand outcome", {"analysis/engine/_layout.py"}),
}
"""prefix -> (the kind of thing it names, the modules that define constants of that kind)."""

CLASHES: dict[str, dict[str, str]] = {
}
"""prefix -> {module: what the prefix means there}: clashes still to rename (only shrinks)."""

WORDS = {"BR_MODELS", "EV_MISSING", "EV_SCALE", "NO_CLASS", "NO_LIMIT", "R_SHOW"}
"""Names whose first part is a word or an abbreviation, not a prefix family."""


def module_constants(source: str) -> list[str]:
    """Upper-case names bound at the top level of ``source`` (tuple unpacking included)."""
    found = []
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        for target in targets:
            names = target.elts if isinstance(target, ast.Tuple) else [target]
            found.extend(n.id for n in names if isinstance(n, ast.Name))
    return found


def prefix_use() -> dict[str, dict[str, list[str]]]:
    """prefix -> module -> its prefixed constants, over ``analysis/`` and ``evaluator/``."""
    use: dict[str, dict[str, list[str]]] = {}
    for package in ("analysis", "evaluator"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for name in module_constants(path.read_text(encoding="utf-8")):
                match = PREFIX.match(name)
                if match and name not in WORDS:
                    use.setdefault(match.group(1), {}).setdefault(rel, []).append(name)
    return use


def test_every_prefix_means_one_kind_of_thing() -> None:
    use = prefix_use()
    unknown = {p: sorted(mods) for p, mods in use.items() if p not in PREFIXES}
    assert not unknown, f"undeclared prefixes: add them to PREFIXES with their meaning: {unknown}"
    stray = {(p, rel): names[:4] for p, mods in use.items() for rel, names in mods.items()
             if rel not in PREFIXES[p][1] and rel not in CLASHES.get(p, {})}
    assert not stray, ("these modules use a prefix for another kind of thing than PREFIXES "
                       f"says (rename them, or allow the module if it is the same kind): {stray}")


def test_the_tables_hold_only_what_is_there() -> None:
    use = prefix_use()
    stale = [(p, rel) for p, (_, mods) in PREFIXES.items() for rel in mods
             if rel not in use.get(p, {})]
    assert not stale, f"modules no longer defining the prefix: take them off PREFIXES: {stale}"
    fixed = [(p, rel) for p, mods in CLASHES.items() for rel in mods if rel not in use.get(p, {})]
    assert not fixed, f"clashes renamed: take them off CLASHES: {fixed}"
    both = [(p, rel) for p, mods in CLASHES.items() for rel in mods if rel in PREFIXES[p][1]]
    assert not both, f"a module is both allowed and a clash: {both}"


@pytest.mark.parametrize("source, expected", [
    ("S_A, S_B = range(2)\nX = 1", ["S_A", "S_B", "X"]),
    ("S_N: int = 3\ndef f():\n    S_LOCAL = 1", ["S_N"]),
])
def test_the_scan_sees_tuples_and_annotations(source: str, expected: list[str]) -> None:
    assert module_constants(source) == expected


def test_the_prefix_pattern_takes_one_or_two_letters() -> None:
    assert [PREFIX.match(n).group(1) for n in ("S_N", "BS_KIND", "SO_BANK1")] == ["S", "BS", "SO"]
    assert PREFIX.match("MAX_PLAYERS") is None and PREFIX.match("N_") is None

"""One action vocabulary (issue 18, item 2): the engine's kernel and policies, hand histories, the
referee and the game trees read their action codes and names from :mod:`analysis.core.actions`."""

from __future__ import annotations

from analysis.core import actions as A
from analysis.core import features
from analysis.engine import referee
from analysis.solvers.abstracted import public_tree
from analysis.solvers.card_level import tree as card_tree


def test_codes_index_the_names():
    assert list(range(len(A.ACTION_NAMES))) == [A.FOLD, A.CHECK, A.CALL, A.BET, A.RAISE, A.ALLIN]
    assert all(A.ACTION_NAMES[code] == name for name, code in A.ACTION_CODES.items())
    assert len(A.ACTION_CODES) == len(A.ACTION_NAMES)


def test_the_engine_and_the_trees_share_the_table():
    assert referee.ACTIONS is A.ACTION_NAMES
    assert (public_tree.FOLD, public_tree.CHECK, public_tree.CALL, public_tree.BET, public_tree.RAISE,
            public_tree.ALLIN_ACT) == (A.FOLD, A.CHECK, A.CALL, A.BET, A.RAISE, A.ALLIN)
    assert public_tree.ACTION_NAMES is A.ACTION_NAMES
    # a policy's "bet" and "raise" are one kind (put in more); every other name is its own code
    assert {n: c for n, c in features.ACTION_KINDS.items() if n != "bet"} == {
        n: A.ACTION_CODES[n] for n in ("fold", "check", "call", "raise", "allin")}
    assert features.ACTION_KINDS["bet"] == A.RAISE


def test_the_card_solver_numbers_the_same_actions_from_one():
    assert {code - 1: name for code, name in card_tree.ACTION_NAMES.items()} == dict(enumerate(A.ACTION_NAMES))

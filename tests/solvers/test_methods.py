"""One registry of solving methods: names and aliases resolve the same way in every stack,
and a stack refuses a method it does not run with one error listing its choices."""

from __future__ import annotations

import pytest

from analysis.solvers.card_level import CardSolver, CardSpot, SpotError
from analysis.solvers.errors import SolverError
from analysis.solvers.methods import METHODS, method_named
from analysis.solvers.tree_solver import SolverSettings


@pytest.mark.parametrize("typed, name", [("CFR", "cfr"), ("vanilla", "cfr"), (" cfr_plus ", "cfr+"),
                                         ("Discounted", "dcfr"), ("es-mccfr", "mccfr"), ("external", "mccfr")])
def test_spellings_resolve_to_one_name_in_every_stack(typed, name):
    assert method_named(typed).name == name
    assert SolverSettings(typed).normalised().method == name


def test_each_stack_refuses_what_it_does_not_run():
    with pytest.raises(SolverError, match="unknown solver method 'fictitious': choose one of cfr, cfr\\+, dcfr, mccfr"):
        method_named("fictitious")
    spot = CardSpot.holdem("Td9d6hQc2s", "AA, KK", "QQ, JJ", 200, 900)
    with pytest.raises(SpotError, match="choose one of dcfr, cfr\\+"):
        CardSolver(spot, "mccfr")
    assert CardSolver(spot, "DCFR").method == "dcfr"  # the card solver reads the same registry
    assert {m.name for m in METHODS if m.sampled} == {"mccfr"}


def test_each_stack_runs_what_the_registry_says():
    """The stacks' kernel-code tables and the registry's lists of methods agree (names and order)."""
    from analysis.solvers._layout import METHOD_CODES
    from analysis.solvers.card_level import multiway, solver, turn3
    from analysis.solvers.methods import STACK_METHODS

    assert list(solver.METHODS) == list(STACK_METHODS["card heads-up"])
    assert list(multiway.METHODS) == list(STACK_METHODS["card river three-handed"])
    assert list(turn3.METHODS) == list(STACK_METHODS["card turn three-handed"])
    for stack in ("game tree", "abstracted"):  # full width by kernel code, plus the sampled walk
        assert [*METHOD_CODES, "mccfr"] == list(STACK_METHODS[stack])
    with pytest.raises(SpotError, match="choose one of dcfr, cfr\\+$"):
        method_named("mccfr", "card river three-handed", SpotError)

"""The solving methods, named once: every solver reads its method's name here.

Each solver stack (the full-width and Monte Carlo kernels over ``GameTree``, the
abstracted Dilemma hand, the card-level solver) accepts the methods it implements;
:func:`method_named` turns what a user typed (case, aliases) into the canonical name
and refuses a method the stack does not run with one error that lists the choices.
The kernels keep their own integer codes, keyed by these names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import SolverError


@dataclass(frozen=True)
class Method:
    """A solving method: canonical name, accepted spellings and what it does."""

    name: str
    aliases: tuple[str, ...]
    description: str
    sampled: bool = False
    """Monte Carlo: iterations sample the tree (results depend on a seed)."""


METHODS: tuple[Method, ...] = (
    Method("cfr", ("vanilla",), "counterfactual regret minimisation, uniform averaging"),
    Method("cfr+", ("cfr_plus", "cfrplus"), "CFR+: regrets floored at zero, linear averaging"),
    Method("dcfr", ("discounted",), "discounted CFR (alpha 1.5, beta 0, gamma 2 by default)"),
    Method("mccfr", ("es-mccfr", "external"), "Monte Carlo CFR: external sampling (game trees); on three-handed "
           "card-level turn spots the river card is sampled per walk, every action and holding enumerated",
           sampled=True),
)
"""Every method any solver of the lab runs."""

STACK_METHODS: dict[str, tuple[str, ...]] = {
    "game tree": ("cfr", "cfr+", "dcfr", "mccfr"),
    "abstracted": ("cfr", "cfr+", "dcfr", "mccfr"),
    "card heads-up": ("dcfr", "cfr+"),
    "card river three-handed": ("dcfr", "cfr+"),
    "card turn three-handed": ("mccfr", "dcfr", "cfr+"),
    "pre-flop heads-up": ("dcfr", "cfr+"),
    "pre-flop three-handed": ("dcfr", "cfr+"),
}
"""The methods each solver stack runs, in the order its errors list them: ``GameTree`` (Kuhn, Leduc,
games as data), the abstracted Dilemma hand (full width heads-up only; ``mccfr`` any player count),
the card-level solver's heads-up spots, three-handed river spots and three-handed turn spots, the
heads-up pre-flop solver (:mod:`analysis.solvers.preflop_hu`) and the three-handed one over starting
classes (:mod:`analysis.solvers.preflop3`). Each
stack keeps its kernel codes keyed by these names."""

_BY_NAME = {spelling: m for m in METHODS for spelling in (m.name, *m.aliases)}


def method_named(name: str, allowed: Iterable[str] | str | None = None,
                 error: type[SolverError] = SolverError) -> Method:
    """The method called ``name`` (any case or alias), one of ``allowed`` canonical names (or of
    the stack named ``allowed`` in :data:`STACK_METHODS`) if given; else ``error`` saying which
    methods there are."""
    if isinstance(allowed, str):
        allowed = STACK_METHODS[allowed]
    choices = [m.name for m in METHODS] if allowed is None else list(allowed)
    method = _BY_NAME.get(str(name).strip().lower())
    if method is None or method.name not in choices:
        raise error(f"unknown solver method {name!r}: choose one of {', '.join(choices)}")
    return method

"""One action vocabulary: the named codes of betting actions, shared by the engine's kernel (its
logged actions), its policies (the kind of a policy slot), hand histories and the referee (the
names), and the Dilemma solver's public tree.

A code is an index into :data:`ACTION_NAMES`. A policy slot's kind is one of ``FOLD``, ``CHECK``,
``CALL``, ``RAISE`` (put in more: the kernel logs it as ``BET`` when nobody has bet this round)
and ``ALLIN``; a logged action is one of ``FOLD`` to ``RAISE`` (an all-in is logged as the bet,
raise or call it amounts to). The card-level solver's tree numbers the same actions from 1
(0 there is no action).
"""

from __future__ import annotations

FOLD, CHECK, CALL, BET, RAISE, ALLIN = range(6)
ACTION_NAMES = ("fold", "check", "call", "bet", "raise", "allin")
"""The name of each code, as hand histories, policies and the referee spell it."""
ACTION_CODES = {name: code for code, name in enumerate(ACTION_NAMES)}
"""The code of each name."""

"""The settlement of a finished hand (RULES §1.4-1.5, §1.8), in two forms checked against each other.

- the readable settlement, step by step (:mod:`.stepwise`; its printout is the referee's report): every step with its rule and transfers,
  for hand records (:mod:`.record`) and printouts (:mod:`.render`);
- the numba core (:mod:`._kernel`) on the arrays of :mod:`.layout`, for simulations;
  :func:`settle_fast` calls it from Python.

Rule options are :class:`Rules`; an end state is a :class:`HandState`.
"""

from .errors import SettlementError
from .fast import settle_fast
from .record import HandRecord, check_expected, load_hand_record, parse_hand_record
from .results import SettlementResult, Step, Transfer
from .rules import Rules
from .state import HandState, PlayerState
from .stepwise import settle, settle_record

__all__ = [
    "HandRecord",
    "HandState",
    "PlayerState",
    "Rules",
    "SettlementError",
    "SettlementResult",
    "Step",
    "Transfer",
    "check_expected",
    "load_hand_record",
    "parse_hand_record",
    "settle",
    "settle_fast",
    "settle_record",
]

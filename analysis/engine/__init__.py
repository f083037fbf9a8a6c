"""The betting engine: structures as data, the readable referee, the numba kernel for batch
play, hand histories, strategies as data, whole games and the duplicate tournament."""

from .errors import EngineError, HistoryError, IllegalActionError, PolicyError, TableError
from .pots import Pot, award_pots, build_pots
from .referee import Action, Hand, HandResult, Legal
from .structures import PRESETS, Structure, get_structure
from .table import TableSetup, make_table, texas_blinds

__all__ = [
    "PRESETS",
    "Action",
    "EngineError",
    "Hand",
    "HandResult",
    "HistoryError",
    "IllegalActionError",
    "Legal",
    "PolicyError",
    "Pot",
    "Structure",
    "TableError",
    "TableSetup",
    "award_pots",
    "build_pots",
    "get_structure",
    "make_table",
    "texas_blinds",
]

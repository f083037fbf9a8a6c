"""Three Card Brag studies (RULES §4): hand classes, exact heads-up counts, multiway Monte Carlo,
the hand tables, one hand's equity, the value of blind play, and the showdown's pots."""

from .blind import BlindResult, BlindSpec, blind_study, headsup_blind_exact
from .classes import BragClasses, brag_classes, class_index
from .equity import BragEquity, hand_equity
from .hand_tables import BragTables, brag_tables
from .headsup import headsup_counts
from .showdown import award_pots, showdown_winners

__all__ = ["BlindResult", "BlindSpec", "BragClasses", "BragEquity", "BragTables", "award_pots",
           "blind_study", "brag_classes", "brag_tables", "class_index", "hand_equity",
           "headsup_blind_exact", "headsup_counts", "showdown_winners"]

"""Bluffjack studies (RULES §3): exact bust and final-total odds, the exact heads-up value of two
thresholds, and hit or stand against 1-9 threshold opponents (best stand-on-N, best response,
rule options)."""

from .exact import headsup_threshold_equity
from .hit_stand import HitStandResult, HitStandSpec, hit_stand_study
from .probabilities import bust_next, final_distribution, final_total_table

__all__ = ["HitStandResult", "HitStandSpec", "bust_next", "final_distribution", "final_total_table",
           "headsup_threshold_equity", "hit_stand_study"]

"""Equity of two or more players: exact enumeration when affordable, seeded Monte Carlo otherwise."""

from .api import DEFAULT_STDERR, EquityError, EquityResult, PlayerEquity, equity

__all__ = ["DEFAULT_STDERR", "EquityError", "EquityResult", "PlayerEquity", "equity"]

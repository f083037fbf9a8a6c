"""Street probabilities: how often a player's best hand is of each category at flop, turn, river.

A player's cards at the flop are their 2 hole cards and 3 board cards: a uniformly
random 5-card set of the deck, so the exact distribution is the category count
over every 5-card hand (6 at the turn, 7 at the river), enumerated by the
evaluator. Computed for both decks, with a comparison table that shows where the
40-card deck differs from the 52-card one (RULES §1.3: a flush is rarer than a
full house with 40 cards, while the ranking stays the standard one).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from analysis.core.io import provenance
from evaluator import CATEGORIES, category_counts, get_game

__all__ = ["STREETS", "deck_differences", "order_changes", "street_probabilities", "streets_manifest"]

STREETS: dict[str, int] = {"flop": 5, "turn": 6, "river": 7}
"""Cards a player sees (hole + board) at each street."""


def street_probabilities(games: Iterable[str] = ("dilemma", "holdem")) -> pd.DataFrame:
    """Tidy exact table: game, street, cards, category, code, hands, probability, odds
    (1 in N) and ``frequency_rank`` (1 = the most frequent category at that street)."""
    rows: list[dict[str, Any]] = []
    for game in games:
        spec = get_game(game)
        for street, n in STREETS.items():
            counts = category_counts(spec, n)
            total = sum(counts.values())
            for code, name in enumerate(CATEGORIES):
                c = counts[name]
                rows.append({
                    "game": spec.name, "street": street, "cards": n, "category": name, "code": code,
                    "hands": int(c), "total": int(total), "probability": c / total,
                    "odds": total / c if c else float("inf"),
                })
    df = pd.DataFrame(rows)
    df["frequency_rank"] = (
        df.groupby(["game", "street"])["probability"].rank(ascending=False, method="min").astype(int)
    )
    return df


def deck_differences(df: pd.DataFrame, game: str = "dilemma", baseline: str = "holdem") -> pd.DataFrame:
    """Per street and category: both decks' probabilities, their ratio and frequency ranks,
    and ``rank_changed`` where the category's place in the frequency order differs."""
    a = df[df["game"] == game].set_index(["street", "category"])
    b = df[df["game"] == baseline].set_index(["street", "category"])
    out = pd.DataFrame({
        f"p_{game}": a["probability"],
        f"p_{baseline}": b["probability"],
        "ratio": a["probability"] / b["probability"],
        f"rank_{game}": a["frequency_rank"],
        f"rank_{baseline}": b["frequency_rank"],
    }).reset_index()
    out["rank_changed"] = out[f"rank_{game}"] != out[f"rank_{baseline}"]
    order = {s: i for i, s in enumerate(STREETS)}
    out["_s"] = out["street"].map(order)
    out["_c"] = out["category"].map(CATEGORIES.index)
    return out.sort_values(["_s", "_c"]).drop(columns=["_s", "_c"]).reset_index(drop=True)


def order_changes(df: pd.DataFrame, game: str = "dilemma", baseline: str = "holdem") -> pd.DataFrame:
    """The short table: pairs of categories whose frequency order differs between the decks,
    e.g. flush vs full house (``more_common_in_<game>`` names the one that is more common there)."""
    rows = []
    for street in STREETS:
        pa = df[(df["game"] == game) & (df["street"] == street)].set_index("category")["probability"]
        pb = df[(df["game"] == baseline) & (df["street"] == street)].set_index("category")["probability"]
        for i, c1 in enumerate(CATEGORIES):
            for c2 in CATEGORIES[i + 1:]:
                if pa[c1] == 0 or pa[c2] == 0:
                    continue
                if (pa[c1] > pa[c2]) != (pb[c1] > pb[c2]):
                    rows.append({
                        "street": street, "weaker": c1, "stronger": c2,
                        f"p_weaker_{game}": pa[c1], f"p_stronger_{game}": pa[c2],
                        f"p_weaker_{baseline}": pb[c1], f"p_stronger_{baseline}": pb[c2],
                        f"more_common_in_{game}": c1 if pa[c1] > pa[c2] else c2,
                        f"more_common_in_{baseline}": c1 if pb[c1] > pb[c2] else c2,
                    })
    return pd.DataFrame(rows)


def streets_manifest(games: Iterable[str] = ("dilemma", "holdem")) -> dict[str, Any]:
    """Provenance of the street tables (exact enumeration of every 5/6/7-card hand)."""
    specs = [get_game(g) for g in games]
    return provenance(
        game="+".join(s.name for s in specs),
        deck="; ".join(s.summary for s in specs),
        method="exact enumeration of every 5-, 6- and 7-card hand",
        exact=True,
    )

"""The "At equilibrium" study: solve the abstracted hand in several variants and compare.

Variants (:func:`equilibrium_variants`): heads-up and three-handed on the chosen
deck; heads-up without the fold-for-free action (its value is the difference of
the game values); and the ``bare`` deck (no corners, no effects: Texas Hold'em's
answer on 40 cards, where folding for free should vanish). Heads-up runs
full-width DCFR to a NashConv target (exact); three-handed runs MCCFR for a fixed
number of iterations and reports how much its average strategy still moves.
:func:`run_equilibrium` solves them, writes each one's tables
(:func:`analysis.solvers.abstracted.write_answers`) and returns the combined frames.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.core.io import write_table
from analysis.runners import Progress
from analysis.solvers.abstracted import DilemmaSpec, build_game, solve_dilemma, write_answers


@dataclass(frozen=True)
class Variant:
    """One solve of the study: the abstraction and how long to run it."""

    name: str
    label: str
    players: int
    deck: str
    free_fold: bool
    buckets: int
    street: str
    sizes: str
    raise_cap: int
    deals: int
    method: str
    iterations: int
    check_every: int
    target_pot_share: float | None = None
    seed: int = 0

    def spec(self) -> DilemmaSpec:
        return DilemmaSpec(players=self.players, street=self.street, buckets=self.buckets,
                           sizes=self.sizes, raise_cap=self.raise_cap, deck=self.deck,
                           free_fold=self.free_fold, deals=self.deals, seed=self.seed)


def equilibrium_variants(deck: str = "reference", quick: bool = False, seed: int = 0) -> list[Variant]:
    """The study's solves: heads-up (with and without the free fold), three-handed, and the
    ``bare`` deck for both player counts. ``quick``: small buckets, few deals and iterations."""
    if quick:
        hu = dict(buckets=3, street="flop", sizes="1,allin", raise_cap=2, deals=10_000,
                  method="dcfr", iterations=100, check_every=50, target_pot_share=0.005)
        three = dict(buckets=3, street="turn", sizes="1,allin", raise_cap=2, deals=10_000,
                     method="mccfr", iterations=30_000, check_every=15_000)
    else:
        hu = dict(buckets=8, street="flop", sizes="1,allin", raise_cap=2, deals=500_000,
                  method="dcfr", iterations=1500, check_every=100, target_pot_share=0.005)
        three = dict(buckets=4, street="flop", sizes="1,allin", raise_cap=2, deals=200_000,
                     method="mccfr", iterations=600_000, check_every=60_000)
    out = [
        Variant("hu", "heads-up", 2, deck, True, seed=seed, **hu),
        Variant("hu_no_free_fold", "heads-up, no fold for free", 2, deck, False, seed=seed, **hu),
        Variant("three", "three-handed", 3, deck, True, seed=seed, **three),
        Variant("three_no_free_fold", "three-handed, no fold for free", 3, deck, False, seed=seed,
                **three),
    ]
    if deck != "bare":
        out += [Variant("hu_bare", "heads-up, bare deck", 2, "bare", True, seed=seed, **hu),
                Variant("three_bare", "three-handed, bare deck", 3, "bare", True, seed=seed, **three)]
    return out


def run_equilibrium(out: str | Path, variants: list[Variant], *, preview: bool = False,
                    echo: Callable[[str], Any] = print,
                    progress: Progress | None = None) -> dict[str, pd.DataFrame]:
    """Solve every variant, write its tables into ``out`` and return the combined frames:
    ``free_fold`` (every variant's fold-for-free table), ``summary`` (per variant and street),
    ``values`` (per seat), ``option_value`` (with minus without the free fold), ``history``."""
    out = Path(out)
    free, summary, values, history = [], [], [], []
    manifest: dict[str, Any] = {}
    for v in variants:
        spec = v.spec()
        started = time.perf_counter()
        game = build_game(spec, state_dir=out, progress=progress)
        target = v.target_pot_share * spec.pot if v.target_pot_share else None

        def check(i: int, n: int, nash_conv: float, change: float, v: Variant = v) -> None:
            if progress is not None:
                progress(i, n, f"{v.name} {v.method}")

        r = solve_dilemma(game, v.method, v.iterations, target=target, check_every=v.check_every,
                          seed=v.seed, check=check)
        written = write_answers(r, out, f"equilibrium_{v.name}")
        frames = written["frames"]
        tag = {"variant": v.name, "label": v.label, "deck": spec.deck_obj.name,
               "free_fold_allowed": v.free_fold}
        free.append(frames[f"equilibrium_{v.name}_free_fold"].assign(**tag))
        summary.append(frames[f"equilibrium_{v.name}_free_fold_summary"].assign(
            **tag, game_players=v.players, method=v.method, iterations=r.iterations,
            nash_conv=r.nash_conv, nash_conv_pot=r.nash_conv_pot,
            avg_change_per_1000=r.history["avg_change_per_1000"].dropna().iloc[-1]
            if r.history["avg_change_per_1000"].notna().any() else float("nan"),
            seconds=round(time.perf_counter() - started, 1)))
        values.append(frames[f"equilibrium_{v.name}_values"].assign(**tag))
        history.append(r.history.assign(**tag, game_players=v.players))
        manifest.setdefault("abstractions", {})[v.name] = spec.describe()
        manifest.setdefault("variants", {})[v.name] = asdict(v)
        last = summary[-1].set_index("street")
        measure = (f"NashConv {r.nash_conv:.3g} chips ({100 * r.nash_conv_pot:.2g}% of the pot)"
                   if v.players == 2 else
                   f"average strategy change {summary[-1]['avg_change_per_1000'].iloc[0]:.2g} per 1,000 it.")
        echo(f"  {v.label}: {r.iterations:,} {v.method} iterations, {measure}; fold when nobody "
             f"has bet {100 * last.loc['all', 'fold_free']:.2f}% of unbet decisions")
    frames = {
        "equilibrium_free_fold": pd.concat(free, ignore_index=True),
        "equilibrium_summary": pd.concat(summary, ignore_index=True),
        "equilibrium_values": pd.concat(values, ignore_index=True),
        "equilibrium_history": pd.concat(history, ignore_index=True),
    }
    frames["equilibrium_option_value"] = option_value(frames["equilibrium_values"])
    base = variants[0].spec()
    manifest.update(game="dilemma-abstraction", deck=base.deck_obj.label, rules=base.rules_obj.label,
                    method="dcfr (heads-up), mccfr (three-handed)", seed=base.seed,
                    trials=base.deals, exact="NashConv exact on the abstraction (heads-up)",
                    **({"preview": True} if preview else {}))
    from analysis.core.io import provenance

    manifest = provenance(**manifest)
    for name, df in frames.items():
        write_table(df, out, name, manifest)
    frames["manifest"] = manifest  # type: ignore[assignment]
    return frames


def option_value(values: pd.DataFrame) -> pd.DataFrame:
    """Per player count, deck and seat: the game value with the fold-for-free action, without it,
    and the difference (what the option is worth to that seat at equilibrium)."""
    rows = []
    for (players, deck), sub in values.groupby(["game_players", "deck"]):
        with_ = sub[sub["free_fold_allowed"]]
        without = sub[~sub["free_fold_allowed"]]
        if with_.empty or without.empty:
            continue
        w = with_.set_index("seat")
        wo = without.set_index("seat")
        for seat in w.index:
            rows.append({"game_players": players, "deck": deck, "seat": seat,
                         "position": w.loc[seat, "position"],
                         "value_with": w.loc[seat, "value"], "value_without": wo.loc[seat, "value"],
                         "option_value": w.loc[seat, "value"] - wo.loc[seat, "value"]})
    return pd.DataFrame(rows)

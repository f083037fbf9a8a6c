"""Studies written to a folder: compute, then tables (CSV + Parquet + manifest) and charts.

These join the compute layer (``analysis.studies``, ``analysis.dilemma``) to the
charts; the CLI commands and the guide both call them, so a study written by
``dilemma table ...`` and by ``dilemma guide`` is the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.charts.economy import economy_charts
from analysis.charts.equity import write_starting_hand_charts, write_street_charts
from analysis.charts.study import study_charts
from analysis.core.io import provenance, write_table
from analysis.dilemma.decks import Deck
from analysis.dilemma.economy import EconomyResult, board_economy
from analysis.runners import Backend, Progress
from analysis.studies.fold_vs_check import GridResult, GridSpec, run_grid
from analysis.studies.starting_hands import DEFAULT_STDERR, StartingHandTable, starting_hand_table
from analysis.studies.streets import (
    deck_differences,
    order_changes,
    street_probabilities,
    streets_manifest,
)
from evaluator import GameSpec


def write_starting_hand_study(
    game: str | GameSpec,
    out: str | Path,
    opponents: str | Iterable[int] = "1-9",
    *,
    seed: int = 0,
    stderr: float = DEFAULT_STDERR,
    charts: bool = True,
    preview: bool = False,
    backend: Backend | None = None,
    progress: Progress | None = None,
    kickers: str = "all",
) -> tuple[StartingHandTable, dict[str, Path], list[Path]]:
    """Compute a deck's starting-hand table into ``out`` (resumable through
    ``out/.partial``): the table with its manifest and, with ``charts``, its charts
    (plus the Dilemma-vs-Hold'em comparison when the other deck's table is there).
    Under ``kickers=top`` (RULES §1.3) the files are named ``..._kickers-top``."""
    started = time.perf_counter()
    out = Path(out)
    res = starting_hand_table(game, opponents, seed=seed, stderr=stderr, state_dir=out,
                              backend=backend, progress=progress, kickers=kickers)
    manifest = {**res.manifest, "seconds_total": round(time.perf_counter() - started, 3)}
    if preview:
        manifest["preview"] = True
    suffix = "" if kickers == "all" else f"_kickers-{kickers}"
    paths = write_table(res.frame, out, f"starting_hands_{res.game}{suffix}", manifest)
    written: list[Path] = []
    if charts and kickers == "all":  # the charts show the default reading
        other_game = "holdem" if res.game == "dilemma" else "dilemma"
        other_path = out / f"starting_hands_{other_game}.parquet"
        other = pd.read_parquet(other_path) if other_path.exists() else None
        written = write_starting_hand_charts(res.frame, out, manifest, other=other)
    return StartingHandTable(res.game, res.frame, manifest), paths, written


def write_street_study(out: str | Path, *, charts: bool = True,
                       preview: bool = False) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Write the street tables (probabilities, deck differences, order changes) and chart."""
    df = street_probabilities()
    manifest = {**streets_manifest(), **({"preview": True} if preview else {})}
    write_table(df, out, "street_probabilities", manifest)
    write_table(deck_differences(df), out, "street_deck_differences", manifest)
    changes = order_changes(df)
    write_table(changes, out, "street_order_changes", manifest)
    if charts:
        write_street_charts(df, out, manifest)
    return changes, manifest


def write_economy_study(out: str | Path, deck: Deck | str = "reference", *, max_losers: int = 3,
                        charts: bool = True, preview: bool = False) -> tuple[EconomyResult, dict[str, Any]]:
    """Compute a deck's exact board economics and write its tables (and charts) into ``out``."""
    start = time.perf_counter()
    result = board_economy(deck, max_losers=max_losers)
    manifest = provenance(**result.manifest(), seconds=round(time.perf_counter() - start, 3),
                          **({"preview": True} if preview else {}))
    frames = result.frames()
    for name, df in frames.items():
        write_table(df, out, name, manifest)
    if charts:
        economy_charts(frames, out, manifest)
    return result, manifest


def write_fold_vs_check_study(out: str | Path, spec: GridSpec, *, charts: bool = True,
                              preview: bool = False, echo: Callable[[str], Any] = print,
                              backend: Backend | None = None,
                              progress: Progress | None = None,
                              shown_as: str | Path | None = None) -> GridResult:
    """Run the fold-vs-check grid (resumable through ``out/.partial``), write its tables and
    charts into ``out`` and print the break-even lines (naming ``shown_as`` as the folder,
    where ``out`` is a work folder renamed afterwards)."""
    start = time.perf_counter()
    result = run_grid(spec, out_dir=out, backend=backend, progress=progress, preview=preview)
    result.manifest["seconds"] = round(time.perf_counter() - start, 1)
    result.write(out)
    if charts:
        study_charts(result, out)
    echo(f"{len(result.cells):,} cells, {result.manifest['trials']:,} trials, "
         f"max gap SE ${result.manifest['max_gap_se']:.2f}, {result.manifest['seconds']} s")
    for line in break_even_lines(result):
        echo(line)
    echo(f"tables and charts in {shown_as or out}/")
    return result


def break_even_lines(result: GridResult) -> list[str]:
    """The break-even lines, each number saying at which level it holds: per spot over every
    board (strength on the board), per starting class averaged over boards (equity, share of
    classes), and per board class where what the player sees changes the answer."""
    lines = ["break-even per spot: strength = the hero's strength on the board where the mean "
             "gap over all boards crosses 0; equity and share = per starting class, averaged "
             "over boards"]
    by_board = result.break_even_by_board
    for r in result.break_even.itertuples():
        where = "" if getattr(r, "position", "first") == "first" else f" {r.position}"
        lines.append(f"{r.model:<10} {r.street:<5} {r.opponents} opp{where} pot {r.pot:>4}: all boards: "
                     f"check with strength >= {r.break_even_strength:.2f}; classes over boards: "
                     f"check with equity >= {r.break_even_equity:.2f}, checking better for "
                     f"{r.share_check:.0%} of classes")
        if by_board.empty:
            continue
        mine = by_board[(by_board["model"] == r.model) & (by_board["street"] == r.street)
                        & (by_board["opponents"] == r.opponents) & (by_board["pot"] == r.pot)
                        & (by_board.get("position", "first") == getattr(r, "position", "first"))
                        & (by_board["break_even_strength"] != r.break_even_strength)
                        & by_board["break_even_strength"].notna()]
        for b in mine.itertuples():
            lines.append(f"{'':<10} {'':<5}   boards with {b.board_class} active "
                         f"({b.share_of_deals:.1%} of deals): check with strength >= "
                         f"{b.break_even_strength:.2f}")
    return lines


def write_game_study(out: str | Path, config: Any, games: int, *, kind: str = "simulate",
                     charts: bool = True, preview: bool = False, backend: Backend | None = None,
                     progress: Progress | None = None) -> Any:
    """Whole games (``kind="simulate"``) or the duplicate tournament (``"tournament"``) into
    ``out`` (resumable through ``out/.partial``): tables (games, seats, hands, sample game,
    summary or ranking) and charts."""
    from analysis.charts.engine import game_charts
    from analysis.engine.games import simulate_games, tournament

    fn = tournament if kind == "tournament" else simulate_games
    result = fn(config, games, backend=backend, progress=progress, state_dir=out)
    if preview:
        result.manifest["preview"] = True
    prefix = "tournament" if kind == "tournament" else "games"
    write_table(result.games, out, f"{prefix}_records", result.manifest)
    write_table(result.seats, out, f"{prefix}_seats", result.manifest)
    write_table(result.hands, out, f"{prefix}_hands", result.manifest)
    write_table(result.sample, out, f"{prefix}_sample_game", result.manifest)
    write_table(result.summary, out, "tournament_ranking" if kind == "tournament" else "games_by_strategy",
                result.manifest)
    if charts:
        game_charts(result, out)
    return result
# ----------------------------------------------------------------------------- Three Card Brag


def write_brag_study(out: str | Path, opponents: Iterable[int] = range(1, 17),
                     rules: str = "source", *, seed: int = 0, stderr: float = 0.002,
                     trials: int | None = None, charts: bool = True, preview: bool = False,
                     backend: Backend | None = None, progress: Progress | None = None):
    """The Brag hand tables (categories, classes heads-up, multiway, thresholds) into ``out``
    (resumable through ``out/.partial``), with their charts."""
    from analysis.charts.brag import brag_charts
    from analysis.studies.brag.hand_tables import brag_tables

    res = brag_tables(opponents, rules, seed=seed, stderr=stderr, trials=trials, backend=backend,
                      progress=progress, state_dir=out)
    if preview:
        res.manifest["preview"] = True
    for name, df in res.frames.items():
        write_table(df, out, name, res.manifest)
    if charts:
        brag_charts(res.frames, out, res.manifest)
    return res


def write_brag_blind_study(out: str | Path, specs: dict[str, Any], *, charts: bool = True,
                           preview: bool = False, backend: Backend | None = None,
                           progress: Progress | None = None) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """The blind-play study for each named opponent field (``{"tight": BlindSpec(...)}``) into
    ``out``: ``brag_blind`` and ``brag_blind_summary`` with a ``field`` column, and a chart per
    field."""
    from analysis.charts.brag import plot_blind
    from analysis.studies.brag.blind import blind_study

    frames, summaries, manifests = [], [], {}
    for field, spec in specs.items():
        res = blind_study(spec, backend=backend, progress=progress, state_dir=out)
        for df in (res.frame, res.summary):
            df.insert(0, "field", field)
            df.insert(1, "thresholds", ",".join(f"{q:g}" for q in spec.thresholds))
            df.insert(2, "open_sees_blind", spec.open_sees_blind)
        frames.append(res.frame)
        summaries.append(res.summary)
        manifests[field] = res.manifest
    first = next(iter(manifests.values()))
    manifest = {**first, "model": {f: m["model"] for f, m in manifests.items()},
                "threshold_hands": {f: m["threshold_hands"] for f, m in manifests.items()},
                "trials": sum(m["trials"] or 0 for m in manifests.values()),
                "seconds": round(sum(m["seconds"] for m in manifests.values()), 3),
                **({"preview": True} if preview else {})}
    frame, summary = pd.concat(frames, ignore_index=True), pd.concat(summaries, ignore_index=True)
    write_table(frame, out, "brag_blind", manifest)
    write_table(summary, out, "brag_blind_summary", manifest)
    if charts:
        for field in specs:
            plot_blind(frame, out, manifest, field=field)
    return frame, summary, manifest


# ----------------------------------------------------------------------------- Bluffjack


def write_bluffjack_odds_study(out: str | Path, rules: str = "source",
                               stand_on: Iterable[int] = range(12, 22), *, charts: bool = True,
                               preview: bool = False) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Exact bust-next and final-outcome odds of every two-card start, into ``out``."""
    from analysis.charts.bluffjack import odds_charts
    from analysis.studies.bluffjack.probabilities import final_total_table
    from evaluator.blackjack import get_bluffjack_rules

    start = time.perf_counter()
    r = get_bluffjack_rules(rules)
    table = final_total_table(stand_on, r)
    manifest = provenance(game="bluffjack", deck="52 cards", rules=r.name, rule_options=r.as_dict(),
                          exact=True, method="exact recursion over the deck's point counts; "
                          "two-card starts, only those two cards removed",
                          seconds=round(time.perf_counter() - start, 3),
                          **({"preview": True} if preview else {}))
    write_table(table, out, "bluffjack_final_totals", manifest)
    if charts:
        odds_charts(table, out, manifest)
    return table, manifest


def write_bluffjack_hit_stand_study(out: str | Path, spec: Any, *, charts: bool = True,
                                    preview: bool = False, backend: Backend | None = None,
                                    progress: Progress | None = None):
    """The hit-or-stand study (:class:`HitStandSpec`) into ``out`` (resumable), with charts."""
    from analysis.charts.bluffjack import hit_stand_charts
    from analysis.studies.bluffjack.hit_stand import hit_stand_study

    res = hit_stand_study(spec, backend=backend, progress=progress, state_dir=out)
    if preview:
        res.manifest["preview"] = True
    for name, df in res.frames.items():
        write_table(df, out, name, res.manifest)
    if charts:
        hit_stand_charts(res.frames, out, res.manifest)
    return res
def write_equilibrium_study(out: str | Path, deck: str = "reference", *, quick: bool = False,
                            seed: int = 0, charts: bool = True, echo: Callable[[str], Any] = print,
                            progress: Progress | None = None) -> dict[str, Any]:
    """Solve the abstracted hand in every variant of the "At equilibrium" study (heads-up and
    three-handed, with and without folding for free, the bare deck), write each solution's
    tables and the combined ones into ``out``, and draw the charts."""
    from analysis.charts.equilibrium import equilibrium_charts
    from analysis.studies.equilibrium import equilibrium_variants, run_equilibrium

    variants = equilibrium_variants(deck, quick=quick, seed=seed)
    echo(f"  {len(variants)} solves; " + variants[0].spec().describe())
    frames = run_equilibrium(out, variants, preview=quick, echo=echo, progress=progress)
    manifest = frames.pop("manifest")
    written = equilibrium_charts(frames, out, manifest) if charts else []
    return {"frames": frames, "manifest": manifest, "charts": written}


def write_bluffjack_equilibrium_study(out: str | Path, spec: Any = None, *, target: float = 0.01,
                                      max_iterations: int = 2000, charts: bool = True, preview: bool = False,
                                      progress: Progress | None = None) -> tuple[dict[str, pd.DataFrame], dict]:
    """The heads-up Bluffjack equilibrium with the betting and without (same abstraction), its
    answer tables and charts, into ``out``."""
    from dataclasses import replace

    from analysis.charts.bluffjack import equilibrium_charts
    from analysis.solvers.bluffjack.public_tree import BluffjackTreeSpec
    from analysis.solvers.bluffjack.solve import equilibrium_tables, solve_bluffjack

    spec = spec or BluffjackTreeSpec()
    eq = solve_bluffjack(spec, target, max_iterations, progress=progress)
    nb = solve_bluffjack(replace(spec, betting=False), target, max_iterations)
    frames = equilibrium_tables(eq, nb)
    manifest = provenance(game="bluffjack", method="vector CFR+ per face-up pair (exact best response)",
                          betting=eq.manifest(), no_betting=nb.manifest(),
                          **({"preview": True} if preview else {}))
    for name, df in frames.items():
        write_table(df, out, name, manifest)
    if charts:
        equilibrium_charts(frames, out, manifest)
    return frames, manifest


def write_bluffjack_three_handed_study(out: str | Path, spec: Any = None, *, iterations: int = 1_000_000,
                                       seed: int = 0, deals: int | None = 40, hands: int = 200_000,
                                       preview: bool = False, progress: Progress | None = None,
                                       stop: Any = None) -> tuple[dict[str, pd.DataFrame], dict]:
    """Bluffjack three-handed (or heads-up) by Monte Carlo CFR: how settled (each seat's best-response
    gain), what each hidden card does and how often bust hands bluff, into ``out``. ``stop`` set
    during the iterations: nothing is written and :class:`Interrupted` says so."""
    from analysis.runners.interrupt import Interrupted
    from analysis.solvers.bluffjack.mccfr import (
        MccfrSolver,
        MccfrSpec,
        answer_tables,
        manifest,
        settledness,
    )

    spec = spec or MccfrSpec()
    solver = MccfrSolver(spec, seed=seed)
    solver.run_for(iterations, progress=progress, stop=stop)
    if solver.iteration < iterations:
        raise Interrupted(f"stopped after {solver.iteration:,} of {iterations:,} iterations; nothing was saved "
                          "(the tables need the whole run)")
    settled = settledness(solver, deals=deals, seed=seed, progress=progress)
    frames = {f"bluffjack3_{k}": v for k, v in answer_tables(solver, hands=hands, seed=seed).items()}
    seats = "ABC"[: spec.players]
    frames["bluffjack3_settled"] = pd.DataFrame({
        "seat": list(seats) + ["all (NashConv)"],
        "value": settled["value"] + [sum(settled["value"])],
        "value_se": settled["value_se"] + [float("nan")],
        "best_response_gain": settled["gain"] + [settled["nash_conv"]],
        "gain_se": settled["gain_se"] + [settled["nash_conv_se"]]})
    meta = provenance(game="bluffjack", method="external-sampling MCCFR; exact best responses per face-up deal",
                      hands=hands, **manifest(solver, settled), **({"preview": True} if preview else {}))
    for name, df in frames.items():
        write_table(df, out, name, meta)
    return frames, meta

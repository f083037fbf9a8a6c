"""``dilemma bluffjack ...``: totals, exact odds, the hit-or-stand study, and the betting game."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer

from analysis.runners import progress_bar
from evaluator.errors import LabError

from ._common import (
    ProgressOpt,
    SchedulerOpt,
    ThreadsOpt,
    WorkersOpt,
    backend,
    out_file,
    out_folder,
)
from ._lists import int_list, word_list

RulesOpt = typer.Option(
    "source", "--rules",
    help="source, charlie5, charlie7, charlie10, charlie5-cards, order21, no-house, or options "
         "such as charlie=5,order21=true,house=false")


def register(app: typer.Typer) -> None:
    bj = typer.Typer(help="Bluffjack (RULES §3): totals, exact odds, hit or stand against N opponents, "
                          "the betting game (hands, replay, whole games).",
                     no_args_is_help=True)
    app.add_typer(bj, name="bluffjack")

    @bj.command("total")
    def total_cmd(cards: list[str] = typer.Argument(..., help='a hand, e.g. "As 6d"'),
                  rules: str = RulesOpt) -> None:
        """The hand's total (hard or soft) and its showdown strength under the rules."""
        from evaluator.blackjack import (
            describe_hand,
            get_bluffjack_rules,
            hand_strength,
            hand_total,
        )

        text = " ".join(cards)
        r = get_bluffjack_rules(rules)
        typer.echo(f"total:    {hand_total(text)}")
        typer.echo(f"strength: {hand_strength(text, r)} ({r.name} rules; higher wins, equal splits)")
        typer.echo(f"reads:    {describe_hand(text, r)}")

    @bj.command("odds")
    def odds_cmd(
        hand: str = typer.Argument(..., help='your cards, e.g. "Kh 6d"'),
        seen: str = typer.Option("", "--seen", help="other cards you can see (removed from the deck)"),
        stand_on: str = typer.Option("17", "--stand-on", help="hit until the total reaches this (2-21)"),
        rules: str = RulesOpt,
        fmt: str = typer.Option("table", "--format", help="table or json"),
    ) -> None:
        """Exact chance of busting on the next card and of each final total when standing on N."""
        from analysis.studies.bluffjack.probabilities import bust_next, final_distribution
        from evaluator.blackjack import get_bluffjack_rules, hand_total

        if fmt not in ("table", "json"):
            raise LabError(f"--format must be table or json; got {fmt!r}")
        (n,) = int_list(stand_on, "--stand-on")[:1]
        r = get_bluffjack_rules(rules)
        bust = bust_next(hand, seen)
        dist = final_distribution(hand, seen, n, r)
        if fmt == "json":
            typer.echo(json.dumps({"hand": hand, "seen": seen, "total": str(hand_total(hand)),
                                   "rules": r.name, "stand_on": n, "bust_next": bust,
                                   "final": dist, "method": "exact"}, indent=2))
            return
        typer.echo(f"{hand_total(hand)}; exact, {r.name} rules, deck minus your hand"
                   + (f" and {seen}" if seen else ""))
        typer.echo(f"bust on the next card: {bust:.4%}")
        typer.echo(f"standing on {n}, the hand ends:")
        for outcome, p in dist.items():
            typer.echo(f"  {outcome:>8}  {p:8.4%}")

    @bj.command("table")
    def table_cmd(
        rules: str = RulesOpt,
        stand_on: str = typer.Option("12-21", "--stand-on", help="stand-on totals, e.g. 12-21"),
        out: Path = typer.Option(Path("results/bluffjack-odds"), "--out", help="output folder", callback=out_folder),
        charts: bool = typer.Option(True, "--charts/--no-charts"),
    ) -> None:
        """Exact bust-next and final-total odds of every two-card start: CSV + Parquet + charts."""
        from ..guide.writers import write_bluffjack_odds_study

        table, _ = write_bluffjack_odds_study(out, rules, int_list(stand_on, "--stand-on"),
                                              charts=charts)
        typer.echo(f"bluffjack_final_totals: {len(table):,} rows -> {out}/")

    @bj.command("hit-stand")
    def hit_stand_cmd(
        opponents: str = typer.Option("1-9", "--opponents", help="opponent counts, 1-9"),
        opp_stand_on: str = typer.Option("17", "--opp-stand-on", help="the opponents stand on this total"),
        stand_on: str = typer.Option("12-21", "--stand-on", help="hero thresholds to try"),
        rules: str = typer.Option(
            "source,charlie5,charlie7,charlie10,charlie5-cards,order21,no-house", "--rules",
            help="rule sets, the base first: names, or options joined by + (charlie=5+order21=true)"),
        out: Path = typer.Option(Path("results/bluffjack"), "--out", help="output folder", callback=out_folder),
        seed: int = typer.Option(0, "--seed"),
        stderr: float = typer.Option(0.001, "--stderr", help="standard-error target of every pot share"),
        trials: int = typer.Option(None, "--trials", help="a fixed number of deals per cell instead"),
        improve_rounds: int = typer.Option(3, "--improve-rounds", help="policy-iteration rounds"),
        improve_trials: int = typer.Option(100_000, "--improve-trials", help="deals per spot and round"),
        best_response: bool = typer.Option(True, "--best-response/--thresholds-only"),
        threads: ThreadsOpt = None,
        workers: WorkersOpt = None,
        scheduler: SchedulerOpt = None,
        charts: bool = typer.Option(True, "--charts/--no-charts"),
        progress: ProgressOpt = True,
    ) -> None:
        """Hit or stand against 1-9 opponents who stand on a threshold: the best stand-on-N by
        opponents and seat, the best response to what you see, and each rule option's effect."""
        from analysis.studies.bluffjack.hit_stand import HitStandSpec

        from ..guide.writers import write_bluffjack_hit_stand_study

        (opp_t,) = int_list(opp_stand_on, "--opp-stand-on")[:1]
        names = tuple(w.replace("+", ",") for w in word_list(rules, "--rules"))
        spec = HitStandSpec(opponents=int_list(opponents, "--opponents"), opp_threshold=opp_t,
                            stand_on=int_list(stand_on, "--stand-on"), rules=names, seed=seed,
                            stderr=stderr, trials=trials, improve_rounds=improve_rounds,
                            improve_trials=improve_trials, best_response=best_response)
        started = time.perf_counter()
        with progress_bar(progress) as update:
            res = write_bluffjack_hit_stand_study(out, spec, charts=charts,
                                                  backend=backend(threads, workers, scheduler),
                                                  progress=update)
        best = res.frames["bluffjack_best"]
        base = best[best["rules"] == spec.rule_sets[0].name]
        typer.echo(f"opponents stand on {opp_t}; {spec.rule_sets[0].name} rules; pot share ±1 SE")
        typer.echo(f"{'opp':>4}{'seat':>5}{'stand on':>10}{'share':>9}{'±SE':>8}"
                   + (f"{'best resp.':>12}{'gain':>8}" if best_response else ""))
        for r in base.itertuples():
            line = f"{r.opponents:>4}{r.position:>5}{r.best_stand_on:>10}{r.equity:>9.4f}{r.stderr:>8.4f}"
            if best_response:
                line += f"{r.br_equity:>12.4f}{r.gain:>8.4f}"
            typer.echo(line)
        typer.echo(f"tables and charts in {out}/ ({time.perf_counter() - started:.1f} s)")

    register_betting(bj)
    register_solve(bj)


StakesOpt = typer.Option(
    "fixed", "--stakes",
    help="fixed (ante 1, bet and raise 2, 3 raises a round), pot, no, or options such as "
         "limit=pot,ante=1,bet=2,max_raises=0,extra_betting=true,second_initial_bet=true")
BjStrategiesOpt = typer.Option(
    "solid,bluffer", "--strategies", "-s",
    help="comma-separated strategies, one per seat (repeated around the table): built-in names "
         "(bluffer, maniac, random, solid, stand17) or TOML paths")


def _table(strategies: str, players: int | None, stack: int, stakes: str, rules: str):
    from analysis.engine.bluffjack.play import BluffjackTable

    return BluffjackTable.make([s.strip() for s in strategies.split(",")], players, stack, stakes, rules)


def register_betting(bj: typer.Typer) -> None:
    """``bluffjack hands``, ``bluffjack replay``, ``bluffjack games``: the betting game."""

    @bj.command("hands")
    def hands_cmd(
        out: Path = typer.Option(..., "--out", "-o", help="hand-history file to write (JSON lines)",
                                 callback=out_file),
        strategies: str = BjStrategiesOpt,
        players: int | None = typer.Option(None, "--players", "-n", help="seats (2-10)"),
        hands: int = typer.Option(100, "--hands", min=1, max=1_000_000, help="hands to play"),
        stack: int = typer.Option(100, "--stack", min=1, help="chips per player"),
        stakes: str = StakesOpt,
        rules: str = RulesOpt,
        seed: int = typer.Option(0, "--seed", min=0, help="seed: same seed, same hands"),
    ) -> None:
        """Play single hands with the kernel (the dealer moving each hand), replay each through the
        referee and write their histories."""
        from analysis.engine.bluffjack.play import hand_histories
        from analysis.engine.history import write_history

        table = _table(strategies, players, stack, stakes, rules)
        lines = hand_histories(table, hands, seed=seed)
        write_history(lines, out)
        typer.echo(f"{len(lines):,} hands written to {out} ({table.stakes.name}, {table.rules.name} rules; "
                   f"format: docs/hand_history.md, section Bluffjack)")

    @bj.command("replay")
    def replay_cmd(history: Path = typer.Argument(..., help="Bluffjack hand-history file (JSON lines)")) -> None:
        """Replay every hand through the referee: each action checked, results compared."""
        from analysis.engine.bluffjack.history import replay_history
        from analysis.engine.history import read_history

        count = 0
        for where, data in read_history(history):
            replay_history(data, where)
            count += 1
        typer.echo(f"{count:,} hands replayed: every action legal, every result as recorded")

    @bj.command("games")
    def games_cmd(
        out: Path = typer.Option(..., "--out", "-o", help="folder for the tables", callback=out_folder),
        strategies: str = typer.Option(
            "solid,bluffer,stand17,maniac", "--strategies", "-s",
            help="comma-separated strategies, one per seat (repeated around the table): built-in names "
                 "(bluffer, maniac, random, solid, stand17) or TOML paths"),
        players: int | None = typer.Option(None, "--players", "-n", help="seats (2-10)"),
        games: int = typer.Option(1000, "--games", min=1, max=10_000_000, help="games to play"),
        stack: int = typer.Option(100, "--stack", min=1, help="starting chips per player"),
        max_hands: int = typer.Option(5000, "--max-hands", min=1, help="cap on hands per game"),
        stakes: str = StakesOpt,
        rules: str = RulesOpt,
        seed: int = typer.Option(0, "--seed", min=0, help="seed: same seed, same games"),
        threads: ThreadsOpt = None,
        progress: ProgressOpt = True,
    ) -> None:
        """Whole games until one player holds every chip: one row per game and the games won by
        each strategy (±1 SE)."""
        from analysis.core.io import provenance, write_table
        from analysis.core.threads import numba_threads
        from analysis.engine.bluffjack.play import games_summary, play_games
        from analysis.runners.interrupt import Interrupted, interruptible

        table = _table(strategies, players, stack, stakes, rules)
        started = time.perf_counter()
        with numba_threads(threads), progress_bar(progress) as update, interruptible() as stop:
            g = play_games(table, games, seed=seed, max_hands=max_hands, progress=update, stop=stop)
        if not len(g):
            raise Interrupted(f"stopped before the first of {games:,} games finished; nothing was saved")
        summary = games_summary(table, g)
        manifest = provenance(game="bluffjack", strategies=list(table.strategies), stack=stack,
                              stakes=table.stakes.as_dict(), rules=table.rules.as_dict(), games=len(g),
                              max_hands=max_hands, seed=seed,
                              **({"interrupted": f"{len(g)} of {games} games"} if len(g) < games else {}))
        write_table(g, out, "bluffjack_games", manifest)
        write_table(summary, out, "bluffjack_games_summary", manifest)
        if len(g) < games:
            raise Interrupted(f"stopped after {len(g):,} of {games:,} games; the {len(g):,} games played (the "
                              f"first {len(g):,} of the same command with --games {len(g)}) are saved in {out}/")
        ended = ", ".join(f"{k} {v}" for k, v in g["reason"].value_counts().items())
        typer.echo(f"{len(g):,} games of {table.n} players ({table.stakes.name}, {table.rules.name} rules), "
                   f"{int(g['hands'].sum()):,} hands, mean {g['hands'].mean():.1f} a game; ended: {ended}")
        typer.echo(summary.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
        typer.echo(f"tables in {out}/ ({time.perf_counter() - started:.1f} s)")


def register_solve(bj: typer.Typer) -> None:
    """``bluffjack solve``: the heads-up equilibrium of the whole hand."""

    @bj.command("solve")
    def solve_cmd(
        out: Path = typer.Option(..., "--out", "-o", help="folder for the tables and charts", callback=out_folder),
        players: int = typer.Option(2, "--players", "-n", min=2, max=3,
                                    help="2: vector CFR+ per face-up pair; 3: Monte Carlo CFR"),
        target: float = typer.Option(0.01, "--target",
                                     help="heads-up: exploitability target of each face-up pair (chips a hand, "
                                          "NashConv/2)"),
        max_iterations: int = typer.Option(2000, "--max-iterations", min=1,
                                           help="heads-up: cap on CFR+ iterations a pair"),
        max_hits: int = typer.Option(1, "--max-hits", min=0, max=1,
                                     help="hits a player may take (the abstraction's cap; 2 is too large here)"),
        house: bool = typer.Option(True, "--house/--no-house", help="all-bust pots to the house, or set aside"),
        ante: int = typer.Option(1, "--ante", min=1),
        bet: int = typer.Option(2, "--bet", min=1, help="every bet and raise (fixed limit)"),
        max_raises: int | None = typer.Option(None, "--max-raises", min=0,
                                              help="raises a round after the first bet [default: 3 heads-up, "
                                                   "1 three-handed]"),
        iterations: int = typer.Option(1_000_000, "--iterations", min=1, max=1_000_000_000,
                                       help="three-handed: Monte Carlo CFR iterations"),
        deals: int = typer.Option(40, "--deals", min=0,
                                  help="three-handed: face-up deals sampled for the best responses "
                                       "(0: every one of the 1,000, exact)"),
        hands: int = typer.Option(200_000, "--hands", min=1, max=100_000_000,
                                  help="three-handed: hands played with the strategy for the answer tables"),
        seed: int = typer.Option(0, "--seed", min=0, help="three-handed: seed (same seed, same numbers)"),
        charts: bool = typer.Option(True, "--charts/--no-charts"),
        progress: ProgressOpt = True,
    ) -> None:
        """Solve Bluffjack (the face-down card private, everything else public): heads-up by CFR+ on the
        tree built from the rules, with and without the betting; three-handed by Monte Carlo CFR on
        the same rules with bucketed information sets. Writes the answer tables."""
        if players == 3:
            _solve_three(out, iterations, deals, hands, seed, house, ante, bet,
                         1 if max_raises is None else max_raises, progress)
            return
        from analysis.solvers.bluffjack.public_tree import BluffjackTreeSpec
        from analysis.solvers.errors import SolverError

        from ..guide.writers import write_bluffjack_equilibrium_study

        if not target > 0:
            raise SolverError(f"--target must be positive; got {target}")
        spec = BluffjackTreeSpec(ante=ante, bet=bet, max_raises=3 if max_raises is None else max_raises,
                                 max_hits=max_hits, house=house)
        started = time.perf_counter()
        with progress_bar(progress) as update:
            frames, manifest = write_bluffjack_equilibrium_study(out, spec, target=target,
                                                                 max_iterations=max_iterations,
                                                                 charts=charts, progress=update)
        b = manifest["betting"]
        typer.echo(f"{spec.name}: exploitability {b['exploitability']:.4f} chips a hand "
                   f"({b['iterations']:,} iterations over 100 face-up pairs, {b['seconds']:.1f} s); "
                   f"seat A {b['value'][0]:+.3f}, seat B {b['value'][1]:+.3f} chips a hand")
        typer.echo(frames["bluffjack_eq_bluffs"].to_string(index=False, float_format=lambda x: f"{x:.3f}"))
        typer.echo(f"tables and charts in {out}/ ({time.perf_counter() - started:.1f} s)")


def _solve_three(out: Path, iterations: int, deals: int, hands: int, seed: int, house: bool, ante: int,
                 bet: int, max_raises: int, progress: bool) -> None:
    """``bluffjack solve --players 3``: Monte Carlo CFR, how settled, the answer tables."""
    from analysis.runners.interrupt import interruptible
    from analysis.solvers.bluffjack.mccfr import MccfrSpec

    from ..guide.writers import write_bluffjack_three_handed_study

    spec = MccfrSpec(players=3, ante=ante, bet=bet, max_raises=max_raises, house=house)
    started = time.perf_counter()
    with progress_bar(progress) as update, interruptible() as stop:
        frames, manifest = write_bluffjack_three_handed_study(out, spec, iterations=iterations, seed=seed,
                                                              deals=deals or None, hands=hands,
                                                              progress=update, stop=stop)
    s = manifest["settled"]
    typer.echo(f"{spec.name}: {manifest['iterations']:,} iterations, {manifest['infosets']:,} information sets, "
               f"{manifest['seconds']:.1f} s")
    typer.echo(f"NashConv {s['nash_conv']:.4f} chips a hand" + (f" ± {s['nash_conv_se']:.4f} (1 SE)" if not s["exact"]
                                                                else "") + f"; {s['method']}")
    typer.echo(frames["bluffjack3_settled"].to_string(index=False, float_format=lambda x: f"{x:+.4f}"))
    typer.echo(frames["bluffjack3_bluffs"].to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    typer.echo(f"tables in {out}/ ({time.perf_counter() - started:.1f} s)")

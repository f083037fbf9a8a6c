"""``dilemma game simulate`` and ``dilemma game tournament``: whole games played by strategies."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from analysis.runners import progress_bar

from ._common import SchedulerOpt, ThreadsOpt, WorkersOpt, backend, out_file, out_folder

if TYPE_CHECKING:
    from analysis.engine.games import GameConfig

StrategiesOpt = Annotated[
    str,
    typer.Option("--strategies", "-s",
                 help="comma-separated strategies, one per seat (or fewer, repeated around the table): "
                      "built-in names (engine strategies and opponent models alike) or TOML/table paths"),
]


StructureOpt = Annotated[
    str | None,
    typer.Option("--structure",
                 help="betting structure: dilemma; the Texas source's nl, pl, fl; nl-casino, pl-casino, "
                      "fl-casino; then options, e.g. fl,limit=spread,short_cap=table or "
                      "nl,raises_per_player=0 (docs/hand_history.md)"),
]
BigBlindOpt = Annotated[
    int | None,
    typer.Option("--big-blind", help="Texas Hold'em: the big blind (minimum bet); the small blind is "
                                     "half, rounded down (default 2: blinds 1/2)"),
]


def _config(strategies: str, players: int | None, game: str, structure: str | None, deck: str | None,
            rule: list[str], stack: int | None, max_hands: int, seed: int,
            big_blind: int | None = None) -> GameConfig:
    from analysis.dilemma.settlement import Rules
    from analysis.engine import TableError, get_structure, texas_blinds
    from analysis.engine.games import GameConfig
    from analysis.engine.policy import load_policy

    if structure is not None:
        get_structure(structure)  # a bad structure or option is reported before the strategies
    extra = {}
    if big_blind is not None:
        if game != "holdem":
            raise TableError("--big-blind is for Texas Hold'em (-g holdem); Dilemma blinds follow "
                             "the bank (RULES §1.5)")
        extra["blinds"] = texas_blinds(big_blind)

    names = [s.strip() for s in strategies.split(",") if s.strip()]
    for name in dict.fromkeys(names):
        load_policy(name)  # an unknown or malformed strategy is reported first
    n = players or len(names)
    seats = tuple(names[i % len(names)] for i in range(n)) if names else ()
    return GameConfig(strategies=seats, game=game, structure=structure or "", deck=deck or "",
                      rules=Rules.parse(rule), stack=stack or 0, max_hands=max_hands, seed=seed,
                      **extra)


def register(app: typer.Typer) -> None:
    game_app = typer.Typer(help="Whole games: strategies play until the bank is dry (RULES §1.1-1.5).",
                           no_args_is_help=True)
    app.add_typer(game_app, name="game")

    def common(kind: str):
        def cmd(
            out: Path = typer.Option(..., "--out", "-o", help="folder for the tables and charts", callback=out_folder),
            strategies: StrategiesOpt = "abc,fold-free-multiway,tight-aggressive,calling-station,maniac,fold-free-always",
            players: int | None = typer.Option(None, "--players", "-n",
                                               help="seats (2-10); default: one per strategy"),
            games: int = typer.Option(1000, "--games", min=1, help="games to play"),
            game: str = typer.Option("dilemma", "--game", "-g",
                                     help="dilemma (whole games) or holdem (cash sessions of --max-hands)"),
            structure: StructureOpt = None,
            big_blind: BigBlindOpt = None,
            deck: str | None = typer.Option(None, "--deck", help="deck name or TOML path"),
            rule: list[str] = typer.Option([], "--rule", help="settlement rule option name=value"),
            stack: int | None = typer.Option(None, "--stack", help="starting chips per player"),
            max_hands: int = typer.Option(2000, "--max-hands",
                                          help="cap on hands per game (Texas: hands per session)"),
            seed: int = typer.Option(0, "--seed", min=0, help="seed: same seed, same games"),
            threads: ThreadsOpt = None,
            workers: WorkersOpt = None,
            scheduler: SchedulerOpt = None,
        ) -> None:
            from analysis.core.strategy import builtin_strategies
            from analysis.guide.writers import write_game_study

            config = _config(strategies, players, game, structure, deck, rule, stack, max_hands, seed,
                             big_blind)
            with progress_bar() as update:
                result = write_game_study(out, config, games, kind=kind,
                                          backend=backend(threads, workers, scheduler), progress=update)
            g = result.games
            typer.echo(f"{len(g):,} games of {config.n} players, {int(g['hands'].sum()):,} hands "
                       f"(mean {g['hands'].mean():.1f} per game; ended: "
                       + ", ".join(f"{k} {v}" for k, v in g["reason"].value_counts().items()) + ")")
            typer.echo(result.summary.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
            typer.echo(f"tables and charts in {out}/ (built-in strategies: {', '.join(builtin_strategies())})")
        return cmd

    sim = common("simulate")
    sim.__doc__ = ("Play whole games at one seating: per-game records, results by strategy and seat, "
                   "per-hand aggregates, a sample game, charts.")
    game_app.command("simulate")(sim)
    tour = common("tournament")
    tour.__doc__ = ("Duplicate tournament: every rotation of the seats plays the same deals; strategies "
                    "ranked by games won, with standard errors.")
    game_app.command("tournament")(tour)
    register_history(game_app)


def register_history(game_app: typer.Typer) -> None:
    """``game hands`` (write hand histories) and ``game replay`` (check them)."""

    @game_app.command("hands")
    def hands_cmd(
        out: Path = typer.Option(..., "--out", "-o", help="hand-history file to write (JSON lines)",
                                callback=out_file),
        strategies: StrategiesOpt = "abc,maniac",
        players: int | None = typer.Option(None, "--players", "-n", help="seats (2-10)"),
        hands: int = typer.Option(100, "--hands", min=1, help="hands to play"),
        game: str = typer.Option("dilemma", "--game", "-g", help="dilemma or holdem"),
        structure: StructureOpt = None,
        big_blind: BigBlindOpt = None,
        deck: str | None = typer.Option(None, "--deck", help="deck name or TOML path"),
        stack: int | None = typer.Option(None, "--stack", help="chips per player"),
        seed: int = typer.Option(0, "--seed", min=0, help="seed: same seed, same hands"),
    ) -> None:
        """Play single hands at one table (the DEALER moving each hand) and write their histories."""
        from analysis.engine.history import write_history
        from analysis.engine.simulate import hand_histories

        config = _config(strategies, players, game, structure, deck, [], stack, 1, seed, big_blind)
        lines = hand_histories(config.setup(), list(config.strategies), hands, seed=seed)
        write_history(lines, out)
        typer.echo(f"{len(lines):,} hands written to {out} (format: docs/hand_history.md)")

    @game_app.command("replay")
    def replay_cmd(
        history: Path = typer.Argument(..., help="hand-history file (JSON lines)"),
    ) -> None:
        """Replay every hand of a history through the referee: each action checked, results compared."""
        from analysis.engine.history import read_history, replay

        count = 0
        for where, data in read_history(history):
            replay(data, where)
            count += 1
        typer.echo(f"{count:,} hands replayed: every action legal, every result as recorded")

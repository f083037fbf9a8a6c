"""``dilemma guide``: every study of the strategy guide, and the guide page."""

from __future__ import annotations

from pathlib import Path

import typer

from analysis.runners import progress_bar

from ._common import DeckOpt, SchedulerOpt, ThreadsOpt, WorkersOpt, backend, out_folder

STUDY_NAMES = ("starting_hands", "streets", "economy", "fold_vs_check", "equilibrium", "postflop_value",
               "preflop", "consistent_chart", "solved_spots", "end_game", "whole_games", "brag", "bluffjack")
"""The guide's studies in page order, for ``--help`` without importing the guide (pandas);
a test keeps it equal to ``analysis.guide.STUDIES``."""
ONLY_HELP = "run only this study (repeatable): " + ", ".join(STUDY_NAMES)


def register(app: typer.Typer) -> None:
    @app.command("guide")
    def guide_cmd(
        out: Path = typer.Option(Path("results"), "--out", help="results folder", callback=out_folder),
        deck: DeckOpt = "reference",
        quick: bool = typer.Option(False, "--quick", help="small-trial preview (marked on every figure)"),
        only: list[str] = typer.Option([], "--only", metavar="STUDY", help=ONLY_HELP),
        seed: int = typer.Option(0, "--seed", min=0),
        page_only: bool = typer.Option(False, "--page-only", help="only rebuild the page from results"),
        fresh: bool = typer.Option(False, "--fresh", help="recompute studies even if finished with the same "
                                   "settings (the stored bulk solves, postflop_value, solved_spots and "
                                   "end_game, only when "
                                   "named with --only)"),
        threads: ThreadsOpt = None,
        workers: WorkersOpt = None,
        scheduler: SchedulerOpt = None,
    ) -> None:
        """Compute the strategy guide's tables and charts, then write README.md and guide.html."""
        from ..guide import GuideOptions, run_guide
        from ..guide.page import write_page

        if page_only:
            paths = write_page(out)
            typer.echo(f"guide page: {paths['markdown']} and {paths['html']}")
            return
        with progress_bar() as update:
            run_guide(out, GuideOptions(deck=deck, quick=quick, seed=seed, only=tuple(only),
                                        fresh=fresh),
                      echo=typer.echo, backend=backend(threads, workers, scheduler), progress=update)

"""The guide's studies: each runs one analysis into a folder and returns its index entry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Echo = Callable[[str], Any]


@dataclass(frozen=True)
class Study:
    """A named step of the guide; ``run(folder, options, echo)`` writes files, returns an index."""

    name: str
    title: str
    run: Callable[[Path, Any, Echo], dict[str, Any]]
    version: int = 1


def _charts(folder: Path, titles: dict[str, str] | None = None) -> list[dict[str, str]]:
    """Every PNG chart of a folder (with its SVG twin), titled from ``titles`` or its name."""
    titles = titles or {}
    return [{"png": p.name, "svg": p.with_suffix(".svg").name,
             "title": titles.get(p.stem, p.stem.replace("_", " "))}
            for p in sorted(folder.glob("*.png"))]


def _tables(folder: Path) -> list[str]:
    return sorted(p.name.removesuffix(".manifest.json") for p in folder.glob("*.manifest.json"))


# ----------------------------------------------------------------------------- equity


def run_starting_hands(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """Exact heads-up tables and multiway tables for both decks, and their charts."""
    from .writers import write_starting_hand_study

    manifests = {}
    opponents = (1, 2, 3, 5) if options.quick else tuple(range(1, 10))
    stderr = 0.01 if options.quick else 0.001
    for game in ("holdem", "dilemma"):  # Dilemma second: its charts compare with Hold'em
        echo(f"  {game}: opponents {', '.join(map(str, opponents))}; exact vs 1, "
             f"Monte Carlo SE <= {stderr} per cell")
        res, _, _ = write_starting_hand_study(game, folder, opponents, seed=options.seed,
                                              stderr=stderr, preview=options.quick,
                                              backend=options.backend, progress=options.progress)
        manifests[game] = res.manifest
    return {"manifest": manifests["dilemma"], "manifests": manifests,
            "tables": _tables(folder), "charts": _charts(folder)}


def run_streets(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """Exact made-hand category probabilities by street, both decks, and the differences."""
    from .writers import write_street_study

    _, manifest = write_street_study(folder, preview=options.quick)
    return {"manifest": manifest, "tables": _tables(folder), "charts": _charts(folder)}


# ----------------------------------------------------------------------------- economy


def run_economy(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """Exact board economics of the deck: bonus, penalty, effect activity by street."""
    from .writers import write_economy_study

    _, manifest = write_economy_study(folder, options.deck, preview=options.quick)
    return {"manifest": manifest, "tables": _tables(folder), "charts": _charts(folder)}


# ----------------------------------------------------------------------------- fold vs check


def run_fold_vs_check(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """The fold-vs-check grid: every class × street × opponents × pot × model."""
    from analysis.studies.fold_vs_check import GridSpec

    from .writers import write_fold_vs_check_study

    if options.quick:
        spec = GridSpec(deck=options.deck, opponents=(1, 3), pots=(40, 300), stderr=6.0,
                        max_trials=20_000, seed=options.seed,
                        hands=("AA", "A10s", "A10o", "99", "98s", "75o", "55", "A2o", "32o", "72o"))
    else:
        spec = GridSpec(deck=options.deck, seed=options.seed)
    result = write_fold_vs_check_study(folder, spec, preview=options.quick, echo=echo,
                                       backend=options.backend, progress=options.progress)
    return {"manifest": result.manifest, "tables": _tables(folder), "charts": _charts(folder)}


# ----------------------------------------------------------------------------- equilibrium


def run_equilibrium(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """The abstracted hand solved heads-up and three-handed, with and without folding for free,
    and on the bare deck (Texas Hold'em's answer on 40 cards)."""
    from .writers import write_equilibrium_study

    res = write_equilibrium_study(folder, options.deck, quick=options.quick, seed=options.seed,
                                  echo=echo, progress=options.progress)
    return {"manifest": res["manifest"], "tables": _tables(folder), "charts": _charts(folder)}


STUDIES: tuple[Study, ...] = (
    Study("starting_hands", "Starting hands: equity of every class against 1-9 random hands",
          run_starting_hands),
    Study("streets", "Made hands by street: how often each category turns up", run_streets),
    Study("economy", "Board economics: bonus, penalty and effect cards by street", run_economy),
    Study("fold_vs_check", "The dilemma: fold for free, or check and risk the penalty?",
          run_fold_vs_check),
    Study("equilibrium", "At equilibrium: when is folding for free right if everyone plays well?",
          run_equilibrium),
)

"""The guide's studies: each runs one analysis into a folder and returns its index entry."""

from __future__ import annotations

import json
import shutil
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
    depends: tuple[str, ...] = ()
    """Studies whose results this one reads: when one of them is recomputed, this one is too."""
    stored: bool = False
    """A bulk solve: ``--fresh`` keeps its stored results when they were computed with the same
    settings; ``--fresh --only NAME`` recomputes it (the issue's "stored solutions that a separate
    command recomputes")."""


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


COMPARE_HANDS = ("AA", "A10s", "A10o", "99", "98s", "97o", "55", "A2o", "64s", "72o")
POSITIONS = ("first", "last")
"""The hero's places after the flop in the guide's grid (``last`` only against models that bet,
and at the middle pot only)."""
MIDDLE_POT = (120,)
FULL_TABLE = (9,)
"""The table's fullest (9 opponents), at the middle pot only: a 9-opponent cell costs about 7
times a 1-5-opponent one (measured on 4 classes: more trials to the same SE, each dearer, and
acting last most deals are redrawn until all nine check)."""
GRID_STDERR = 1.5
"""The gap's SE target per cell of the guide's grid ($; $1 before positions and 9 opponents).
On 4 classes (AA, 98s, A2o, 72o) the old grid took 172.8 CPU s and this one 201.6 (1.17x; at
$1.75, 182.2: the rest is training and the 9-opponent cells)."""


def run_fold_vs_check(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """The fold-vs-check grid with the best response (every class × street × opponents × pot ×
    model; the hero also last to act and 9 opponents, at the middle pot), and the fixed continuations
    beside it on a subset (what a weak continuation costs; the hero first)."""
    from analysis.core.io import write_table
    from analysis.studies.fold_vs_check import GridSpec, run_grid

    from .writers import write_fold_vs_check_study

    if options.quick:  # the hero first only: the chapter's position paragraphs have their own test
        spec = GridSpec(deck=options.deck, opponents=(1, 3), pots=(120,), stderr=6.0,
                        max_trials=20_000, seed=options.seed, train_deals=2_000, positions=("first",),
                        hands=("AA", "A10s", "A10o", "99", "98s", "75o", "55", "A2o", "32o", "72o"))
        compare = GridSpec(deck=options.deck, opponents=(3,), pots=(120,), stderr=6.0,
                           max_trials=20_000, seed=options.seed, train_deals=2_000,
                           hands=COMPARE_HANDS[::3], compare=True)
    else:
        spec = GridSpec(deck=options.deck, seed=options.seed, stderr=GRID_STDERR,
                        positions=POSITIONS, position_pots=MIDDLE_POT, more_opponents=FULL_TABLE,
                        more_pots=MIDDLE_POT)
        compare = GridSpec(deck=options.deck, seed=options.seed, opponents=(1, 3, 5), pots=(120,),
                           hands=COMPARE_HANDS, compare=True)
    final = folder.parent / "fold_vs_check"  # ``folder`` is the work folder renamed at the end
    result = write_fold_vs_check_study(folder, spec, preview=options.quick, echo=echo,
                                       backend=options.backend, progress=options.progress,
                                       shown_as=final)
    echo(f"  continuations compared on {len(compare.hands)} classes x {len(compare.streets)} streets "
         f"x {len(compare.opponents)} opponent counts, pot ${compare.pots[0]}")
    others = run_grid(compare, out_dir=folder / "compare", backend=options.backend,
                      progress=options.progress, preview=options.quick)
    write_table(others.continuations, folder, "fold_vs_check_continuations", others.manifest)
    shutil.rmtree(folder / "compare", ignore_errors=True)
    return {"manifest": result.manifest, "tables": _tables(folder), "charts": _charts(folder)}


# ----------------------------------------------------------------------------- solved spots


@dataclass(frozen=True)
class SpotPart:
    """A part of the solved-spots plan: ``family`` on boards ``start..stop`` of its seeded uniform sample
    (or, with ``per_class``, that many boards of each active effect class:
    :func:`.solved_spots.class_boards`), in ``states``, each to ``target`` % of the pot or ``most``
    iterations. ``sample``: ``first`` (the chapter's sample), ``second`` (other boards of the same
    stream, whose aggregates check the first's) or ``effects`` (the effect-card sample)."""

    family: str
    start: int
    stop: int
    target: float
    states: tuple[str, ...]
    most: int
    sample: str = "first"
    per_class: int = 0


# quick: a preview of each family (three-handed: one river spot, stopped after 10 iterations far from its target)
SPOTS_QUICK = (SpotPart("hu-river", 0, 2, 2.0, ("start", "bank3-low"), 3000),
               SpotPart("hu-turn", 0, 1, 3.0, ("start",), 3000), SpotPart("3-river", 0, 1, 5.0, ("start",), 10))
SPOTS_FULL = (
    SpotPart("hu-river", 0, 8, 0.3, ("start", "bank3-low", "level2"), 3000),
    SpotPart("hu-river", 8, 16, 0.3, ("start",), 3000, sample="second"),
    SpotPart("hu-turn", 0, 4, 0.5, ("start", "bank3-low", "level2"), 3000),
    SpotPart("hu-turn", 4, 8, 0.5, ("start",), 3000, sample="second"),
    SpotPart("hu-turn", 0, 0, 0.5, ("start",), 3000, sample="effects", per_class=4),
    # the flop: about 5 minutes a spot to 0.5% on 2 cores and 1.7 GB
    SpotPart("hu-flop", 0, 4, 0.5, ("start",), 600), SpotPart("hu-flop", 0, 2, 0.5, ("bank3-low",), 600),
    SpotPart("hu-flop", 4, 8, 0.5, ("start",), 600, sample="second"),
    # three-handed, bank3-low converges slowly (about 10 minutes a spot for 400 iterations): one board there
    SpotPart("3-river", 0, 4, 0.4, ("start",), 400), SpotPart("3-river", 0, 1, 0.4, ("bank3-low",), 400),
    SpotPart("3-river", 4, 8, 0.4, ("start",), 400, sample="second"),
    # three-handed turn: 6-10 minutes a spot to 1.5% of the pot at the start, 11 and more at bank3-low
    SpotPart("3-turn", 0, 4, 1.5, ("start",), 250), SpotPart("3-turn", 0, 1, 1.5, ("bank3-low",), 250),
)
"""The solved-spots plan: the full guide's and the preview's."""


def part_boards(part: SpotPart, family: Any, seed: int, deck: str) -> list[str]:
    """The boards of ``part``: a slice of the family's seeded uniform sample, or per effect class."""
    from analysis.studies.solved_spots import class_boards, sample_boards

    if part.per_class:
        return [b for boards in class_boards(part.per_class, seed, deck, cards=family.board_cards).values()
                for b in boards]
    return sample_boards(family, part.stop, seed, deck)[part.start:]


def run_solved_spots(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """Heads-up flop, turn and river spots and three-handed turn and river spots solved card by card on
    a seeded sample of boards in game states (:data:`SPOTS_FULL`), a second sample of boards for four
    families, the heads-up turn per effect class; their range summaries, fold-or-check and facing-bet
    answers, and the strategy browser's data. Each spot is kept as a
    record (:mod:`analysis.studies.spot_records`): a spot the previous run recorded the same way is
    not solved again."""
    from analysis.core.io import provenance, write_table, write_text
    from analysis.studies.solved_spots import FAMILIES, GAME_STATES, browser_data
    from analysis.studies.spot_questions import BR_MODELS, strength_translated
    from analysis.studies.spot_records import Derivation, record_tables, solve_records

    states, families = {s.name: s for s in GAME_STATES}, {f.name: f for f in FAMILIES}
    derivation = Derivation(options.deck, tuple(BR_MODELS[-1:] if options.quick else BR_MODELS),
                            2.0 if options.quick else 0.3)  # quick: a preview
    # a previous run: its records stand for the spots they hold (--fresh: every spot is solved again)
    before = folder.parent / "solved_spots"
    before = None if options.fresh or not before.is_dir() else before
    records: dict[str, list[dict[str, Any]]] = {"first": [], "second": [], "effects": []}
    samples: dict[str, list[dict[str, Any]]] = {}
    for part in SPOTS_QUICK if options.quick else SPOTS_FULL:
        family = families[part.family]
        boards = part_boards(part, family, options.seed, options.deck)
        drawn = (f"{part.per_class} of each active effect class" if part.per_class else "uniform sample")
        echo(f"  {family.name}: {len(boards)} boards ({drawn}, seed {options.seed}"
             f"{'' if part.sample == 'first' else f', the {part.sample} sample'}) x {len(part.states)} game states, "
             f"each to an exploitability of {part.target}% of the pot (at most {part.most} iterations)")
        records[part.sample] += solve_records(
            folder, family, boards, tuple(states[s] for s in part.states), derivation, part.target, part.most,
            before,
            progress=lambda i, n, what: options.progress and options.progress(i, n, what), backend=options.backend)
        samples.setdefault(family.name, []).append(
            {"boards": boards, "board_weights": f"uniform within each effect class ({part.per_class} a class)"
             if part.per_class else "uniform", "target_exploitability_pct_pot": part.target,
             "max_iterations": part.most, "states": list(part.states), "sample": part.sample})
    manifest = provenance(study="solved_spots", families={f.name: f.description for f in FAMILIES},
                          samples=samples, deck=options.deck, seed=options.seed,
                          method="dcfr, exact best responses (card-level, every holding)")
    manifest["strength_boards"] = 10 if options.quick else 60
    manifest["versus_models"] = list(derivation.models)
    manifest["versus_models_target_pct_pot"] = derivation.versus_target_pct
    tables = record_tables(records)
    tables["strength_translated"] = strength_translated(options.deck, options.seed, manifest["strength_boards"])
    for name, frame in tables.items():
        write_table(frame, folder, name, manifest)
    spots = [r["browser"] for r in records["first"]]
    write_text(folder / "spots_browser.json", json.dumps(browser_data(spots), separators=(",", ":")))
    return {"manifest": manifest, "tables": _tables(folder), "charts": [], "browser": "spots_browser.json"}


# ----------------------------------------------------------------------------- the end of the game


def run_end_game(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """Heads-up river spots solved card by card in the game states a hand can see (blind levels,
    a short bank 3), over pots and stacks, and on boards sampled per active effect card."""
    from analysis.core.io import provenance, write_table
    from analysis.studies.end_game import (
        DROPPED_STATES,
        QUICK,
        RIVER,
        STATES,
        SWEEP_BLINDS,
        SWEEP_CHIPS,
        Plan,
        agreement,
        answers,
        changes,
        end_tables,
        jobs,
        second_jobs,
        solve_jobs,
    )

    plan = QUICK if options.quick else Plan()
    todo = jobs(plan, options.seed, options.deck) + second_jobs(plan, options.seed, options.deck)
    echo(f"  {len(todo)} heads-up river spots: {plan.state_boards} boards x {len(STATES)} game states, "
         f"{plan.sweep_boards} boards x {len(SWEEP_BLINDS) * len(SWEEP_CHIPS)} pots and stacks, "
         f"{plan.class_boards} boards per effect class, the states again on {plan.state_boards} other boards "
         f"(seed {options.seed + 1}); each to {plan.target_pct}% of the pot")
    paths = solve_jobs(folder, todo, options.deck, plan,
                       progress=lambda i, n, what: options.progress and options.progress(i, n, what))
    manifest = provenance(study="end_game", family=RIVER.description, deck=options.deck, seed=options.seed,
                          states={s.name: s.description for s in STATES}, dropped_states=DROPPED_STATES,
                          sweep={"big_blinds_each": list(SWEEP_BLINDS), "chips_before_hand": list(SWEEP_CHIPS)},
                          plan={"state_boards": plan.state_boards, "sweep_boards": plan.sweep_boards,
                                "class_boards": plan.class_boards, "second_sample_seed": options.seed + 1, "board_weights": "uniform (per class in the "
                                "effects sample)", "target_exploitability_pct_pot": plan.target_pct,
                                "max_iterations": plan.max_iterations},
                          method="dcfr, exact best responses (card-level, every holding)")
    tables = end_tables(todo, paths, options.deck)
    tables["end_answers"], tables["end_state_changes"] = answers(tables), changes(tables)
    tables["end_second_sample"] = agreement(tables["end_answers"])
    for name, frame in tables.items():
        write_table(frame, folder, name, manifest)
    shutil.rmtree(folder / "solutions", ignore_errors=True)  # about 25 KB a spot; a rerun solves again in minutes
    return {"manifest": manifest, "tables": _tables(folder), "charts": []}


# ----------------------------------------------------------------------------- whole games


ENDINGS_GAMES = (24, 500)
"""Games per table of the how-games-end study (quick, full)."""


def run_whole_games(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """Six strategies in a duplicate tournament of whole Dilemma games (seats rotated), and how
    games end at tables that change one factor (strategies, deck, a rule option)."""
    from analysis.core.io import provenance, write_table
    from analysis.dilemma.decks import load_deck
    from analysis.engine.games import GameConfig
    from analysis.studies.game_endings import GUIDE_TABLE, TABLES, game_endings

    from .writers import write_game_study

    games = 24 if options.quick else 1000
    config = GameConfig(strategies=GUIDE_TABLE, deck=options.deck, seed=options.seed)
    echo(f"  {len(GUIDE_TABLE)} strategies, {games} deals x {len(GUIDE_TABLE)} seat rotations")
    result = write_game_study(folder, config, games, kind="tournament", preview=options.quick,
                              backend=options.backend, progress=options.progress)
    per_table = ENDINGS_GAMES[0] if options.quick else ENDINGS_GAMES[1]
    echo(f"  how games end: {len(TABLES)} tables x {per_table} games, one factor changed at a time")
    endings = game_endings(per_table, seed=options.seed, deck=options.deck, backend=options.backend,
                           progress=options.progress)
    write_table(endings, folder, "game_endings", provenance(
        game="dilemma", deck=load_deck(options.deck).label, method="whole games, one seating per table, "
        "paired with the guide table game by game", games=per_table, trials=per_table,
        max_hands=config.max_hands, seed=options.seed, preview=options.quick,
        description="how whole games end at tables that change one factor from the guide's: the "
                    "strategies, the deck, a rule option"))
    return {"manifest": result.manifest, "tables": _tables(folder), "charts": _charts(folder)}


# ----------------------------------------------------------------------------- the other games


def run_brag(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """Three Card Brag: category odds, classes heads-up (exact) and multiway, blind play."""
    from analysis.studies.brag.blind import BlindSpec

    from .writers import write_brag_blind_study, write_brag_study

    quick = options.quick
    opponents = (1, 2, 4, 8, 16) if quick else tuple(range(1, 17))
    stderr = 0.01 if quick else 0.002
    echo(f"  hands: exact heads-up, Monte Carlo vs {', '.join(map(str, opponents[1:]))} "
         f"opponents (SE <= {stderr})")
    tables = write_brag_study(folder, opponents, seed=options.seed, stderr=stderr, preview=quick,
                              backend=options.backend, progress=options.progress)
    common = {"opponents": (1, 2, 4) if quick else tuple(range(1, 8)),
              "stakes": (1.0, 4.0) if quick else (0.5, 1.0, 2.0, 4.0),
              "stderr": 0.05 if quick else 0.01, "seed": options.seed}
    fields = {"tight": BlindSpec(**common), "loose": BlindSpec(thresholds=(0.2, 0.4, 0.6), **common)}
    if not quick:
        fields["tight-no-see"] = BlindSpec(open_sees_blind=False, **common)
    echo(f"  blind play: {', '.join(fields)} opponent fields")
    _, _, blind_manifest = write_brag_blind_study(folder, fields, preview=quick,
                                                  backend=options.backend, progress=options.progress)
    # chart-name prefixes that do not prefix each other (the index is written with sorted keys)
    return {"manifest": tables.manifest,
            "manifests": {"brag_blind": blind_manifest, "brag_categories": tables.manifest,
                          "brag_equity": tables.manifest, "brag_thresholds": tables.manifest},
            "tables": _tables(folder), "charts": _charts(folder)}


BLUFFJACK3_ITERATIONS = 1_000_000
"""Monte Carlo CFR iterations of the guide's three-handed Bluffjack (about 4 minutes on a quiet core)."""


def run_bluffjack(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """Bluffjack: exact odds, hit or stand against 1-9 threshold opponents, and the heads-up
    equilibrium of the whole hand with the betting."""
    from analysis.solvers.bluffjack.public_tree import BluffjackTreeSpec
    from analysis.studies.bluffjack.hit_stand import HitStandSpec

    from .writers import (
        write_bluffjack_equilibrium_study,
        write_bluffjack_hit_stand_study,
        write_bluffjack_odds_study,
        write_bluffjack_three_handed_study,
    )

    quick = options.quick
    _, odds_manifest = write_bluffjack_odds_study(folder, "source", (15, 17, 19) if quick else
                                                  range(12, 22), preview=quick)
    if quick:
        spec = HitStandSpec(opponents=(1, 2, 4), rules=("source", "charlie5", "order21", "no-house"),
                            stderr=0.005, improve_rounds=2, improve_trials=10_000, min_visits=50,
                            seed=options.seed)
    else:
        spec = HitStandSpec(seed=options.seed)
    echo(f"  hit or stand: opponents {', '.join(map(str, spec.opponents))}, SE <= {spec.stderr}, "
         f"rule sets {', '.join(spec.rules)}")
    res = write_bluffjack_hit_stand_study(folder, spec, preview=quick, backend=options.backend,
                                          progress=options.progress)
    # quick: a preview, one raise a round (a tree a third the size, its tables half the time) and
    # 50 iterations a pair (every pair met the 0.2 target at its first check)
    eq_spec = BluffjackTreeSpec(max_raises=1) if quick else BluffjackTreeSpec()
    target, max_iterations = (0.2, 50) if quick else (0.01, 2000)
    echo(f"  heads-up equilibrium ({eq_spec.name}): 100 face-up pairs, each to {target} chips of "
         f"exploitability (at most {max_iterations} iterations)")
    _, eq_manifest = write_bluffjack_equilibrium_study(folder, eq_spec, target=target, max_iterations=max_iterations,
                                                       preview=quick, progress=options.progress)
    iterations, deals, hands = (10_000, 3, 20_000) if quick else (BLUFFJACK3_ITERATIONS, 40, 200_000)
    echo(f"  three-handed: Monte Carlo CFR, {iterations:,} iterations; best responses on {deals} face-up deals")
    _, three_manifest = write_bluffjack_three_handed_study(folder, iterations=iterations, seed=options.seed,
                                                           deals=deals, hands=hands, preview=quick,
                                                           progress=options.progress)
    return {"manifest": res.manifest,
            "manifests": {"bluffjack_final": odds_manifest, "bluffjack_bust": odds_manifest,
                          "bluffjack_stand": res.manifest, "bluffjack_best": res.manifest,
                          "bluffjack_rule": res.manifest, "bluffjack_eq": eq_manifest,
                          "bluffjack3": three_manifest},
            "tables": _tables(folder), "charts": _charts(folder)}
# ----------------------------------------------------------------------------- equilibrium


def run_equilibrium(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """The abstracted hand solved heads-up and three-handed, with and without folding for free,
    and on the bare deck (Texas Hold'em's answer on 40 cards)."""
    from .writers import write_equilibrium_study

    res = write_equilibrium_study(folder, options.deck, quick=options.quick, seed=options.seed,
                                  echo=echo, progress=options.progress)
    return {"manifest": res["manifest"], "tables": _tables(folder), "charts": _charts(folder)}


# ----------------------------------------------------------------------------- pre-flop


PREFLOP_CHART_TITLES = {"preflop_chart_small_blind": "The small blind's first action, heads-up (start state, plain suits)",
                        "preflop_chart_vs_open": "The big blind facing an open, heads-up (start state, plain suits)",
                        "preflop_chart_played_small_blind": "The small blind's first action, heads-up, with postflop "
                                                            "play from solved flops (start state, plain suits)",
                        "preflop_chart_played_vs_open": "The big blind facing an open, heads-up, with postflop play "
                                                        "from solved flops (start state, plain suits)",
                        "preflop3_chart_button": "The button's first action, three-handed (start state, per class)",
                        "preflop3_chart_sb_first": "The small blind's first action when the button folds, three-handed "
                                                   "(start state, per class)",
                        "preflop3_chart_sb_vs_open": "The small blind facing the button's open, three-handed (start "
                                                     "state, per class)",
                        "preflop3_chart_bb_vs_open": "The big blind facing the button's open after the small blind "
                                                     "folds, three-handed (start state, per class)",
                        "preflop3_chart_played_button": "The button's first action, three-handed, with postflop play "
                                                        "where two see the flop (start state, per class)",
                        "preflop3_chart_played_sb_vs_open": "The small blind facing the button's open, three-handed, "
                                                            "with postflop play where two see the flop (start state, "
                                                            "per class)"}


GAMES3 = 1000
"""Deals per opponent in the three-handed whole games (each played in the three rotations of the seats)."""


def run_postflop_value(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """What playing after the flop is worth beyond the check-down, per pre-flop level, seat and starting
    class, from heads-up flops solved card by card (the heads-up chart's continuation; full guide only)."""
    from analysis.core.io import provenance, write_table
    from analysis.studies import postflop_value as pv

    if options.quick:
        echo("  not in a preview: each game state and pre-flop level solves its flops (about two hours in all); the preview's "
             "chart checks down")
        return {"manifest": provenance(study="postflop_value", preview=True, skipped=True), "tables": [],
                "charts": []}
    boards = pv.flop_sample(pv.FLOPS, options.seed, options.deck)
    levels = {state: list(pv.state_levels(state)) for state in pv.STATES}
    echo(f"  {len(boards)} flops (the hu-flop family's uniform sample, seed {options.seed}) at every level of "
         + "; ".join(f"{state} {', '.join(map(str, lv))}" for state, lv in levels.items())
         + f", each to {pv.TARGET_CHIPS:g} chip of exploitability")
    edges, spots = pv.solve_edges(folder, boards, deck=options.deck, states=pv.STATES,
                                  progress=lambda i, n, what: options.progress and options.progress(i, n, what))
    manifest = provenance(study="postflop_value", deck=options.deck, seed=options.seed, boards=boards,
                          board_weights="uniform", states=list(pv.STATES), levels=levels, chips=pv.CHIPS,
                          ranges="random v random", bets=pv.BETS, raises=pv.RAISES, free_fold=True,
                          target_chips=pv.TARGET_CHIPS, max_iterations=pv.MAX_ITERATIONS,
                          edge="solved EV less check-down EV (no bet, no fold) of each holding against a random "
                               "range, at the root; per class: the mean over every (flop, holding) dealt",
                          method="dcfr, exact best responses (card-level, every holding)",
                          range_lines=list(pv.RANGE_LINES), range_flops=boards[: pv.RANGE_FLOPS])
    classes = pv.class_edges(edges)
    write_table(edges, folder, "postflop_edge_flops", manifest)
    write_table(classes, folder, "postflop_edge", manifest)
    write_table(pv.seat_edges(edges), folder, "postflop_edge_seats", manifest)
    write_table(spots, folder, "postflop_edge_spots", manifest)
    echo(f"  the random-range assumption: the start chart with postflop play, then {pv.RANGE_FLOPS} flops at each "
         f"of {', '.join(pv.RANGE_LINES)} with the ranges it leaves")
    from analysis.studies.preflop_chart import solve_played_chart

    chart = solve_played_chart(classes, options.deck, seed=options.seed)[2]
    checks = pv.range_check(folder, chart, boards[: pv.RANGE_FLOPS], edges, deck=options.deck,
                            progress=lambda i, n, what: options.progress and options.progress(i, n, what))
    ranges = {**manifest, "ranges": "each holding weighted by its reach of the line in the start chart with "
                                    "postflop play (the preflop study's: 2,000 boards, the edges above)"}
    write_table(checks, folder, "postflop_edge_ranges", ranges)
    write_table(pv.range_check_summary(checks), folder, "postflop_edge_ranges_summary", ranges)
    for stale in ("flops", "ranges"):  # the per-spot rows, now in the tables
        shutil.rmtree(folder / stale, ignore_errors=True)
    return {"manifest": manifest, "tables": _tables(folder), "charts": []}


def run_consistent_chart(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """The start state's heads-up chart and its flops solved in turn, each line's flops with the ranges the
    chart leaves there (:mod:`analysis.studies.consistent_chart`; full guide only, from the ``postflop_value``
    study's stored edges)."""
    import pandas as pd

    from analysis.charts.entry_chart import preflop_charts
    from analysis.core.io import provenance, write_table
    from analysis.studies import consistent_chart as cc
    from analysis.studies import postflop_value as pv
    from analysis.studies.preflop_chart import (
        HAND_WRITTEN,
        chart_moves,
        chart_rows,
        equilibrium_strategy_toml,
        headsup_games,
        plain_kinds,
    )

    source = folder.parent / "postflop_value"
    if options.quick or not (source / "postflop_edge.parquet").exists():
        echo("  not in a preview: it solves the flops of every line of the start chart in "
             f"{cc.ROUNDS} rounds (about 45 minutes each), from the postflop_value study's stored edges")
        return {"manifest": provenance(study="consistent_chart", preview=True, skipped=True), "tables": [],
                "charts": []}
    edges = pv.load_class_edges(source / "postflop_edge.parquet")
    flops = pd.read_parquet(source / "postflop_edge_flops.parquet")
    boards = pv.flop_sample(pv.FLOPS, options.seed, options.deck)[: cc.LINE_FLOPS]
    echo(f"  {cc.ROUNDS} rounds: {len(boards)} flops at every flop line of the start chart, with its ranges")
    before = folder.parent / "consistent_chart"  # a previous run's tables: its rounds are not solved again
    stored = None
    try:
        was = json.loads((before / "consistent_spots.manifest.json").read_text())
    except (OSError, ValueError):
        was = {}
    if ((was.get("target_chips"), was.get("max_iterations")) == (pv.TARGET_CHIPS, pv.MAX_ITERATIONS)
            and (before / "consistent_flop_edges.parquet").exists()):  # (solved to the same stop)
        stored = (pd.read_parquet(before / "consistent_flop_edges.parquet"),
                  pd.read_parquet(before / "consistent_spots.parquet"))
    out = cc.consistent_rounds(folder, edges, flops, boards, options.deck, options.seed, stored=stored,
                               progress=lambda i, n, what: options.progress and options.progress(i, n, what),
                               echo=echo)
    sols = out["solutions"]
    manifest = provenance(study="consistent_chart", deck=options.deck, seed=options.seed, boards=boards,
                          state="start", rounds=cc.ROUNDS, floor=cc.FLOOR, chips=pv.CHIPS, bets=pv.BETS, raises=pv.RAISES,
                          free_fold=True, target_chips=pv.TARGET_CHIPS, max_iterations=pv.MAX_ITERATIONS,
                          chart_target_chips=cc.CHART_TARGET_CHIPS, chart_boards=2000,
                          round0="the start chart with postflop play (postflop_value/postflop_edge: each class's "
                                 "edge against random ranges per level, 12 flops)",
                          edge="per line, seat and class: solved EV less check-down EV with the ranges the previous "
                               "round's chart leaves at that line, the mean over the flops and the class's holdings "
                               "(measured: this round's; edge: the mean over the rounds so far, what the chart used)",
                          method="dcfr, exact best responses (card-level, every holding, at least "
                                 f"{cc.FLOOR:g} of the range's largest weight)")
    charts = pd.concat([chart_rows(sol, "start", options.deck, 0).assign(round=k) for k, sol in enumerate(sols)],
                       ignore_index=True)
    vs_open = sols[0].tree.node_at("raise 60")
    first, last = charts[charts["round"] == 0], charts[charts["round"] == len(sols) - 1]
    write_table(out["summary"], folder, "consistent_rounds", manifest)
    write_table(out["edges"], folder, "consistent_line_edges", manifest)
    write_table(out["residual"], folder, "consistent_residual", manifest)
    write_table(out["spots"], folder, "consistent_spots", manifest)
    write_table(out["flops"], folder, "consistent_flop_edges", manifest)
    write_table(charts, folder, "consistent_chart", manifest)
    write_table(chart_moves(first, last, (0, vs_open)), folder, "consistent_moves", manifest)
    preflop_charts({"consistent_chart_small_blind": plain_kinds(last, 0),
                    "consistent_chart_vs_open": plain_kinds(last, vs_open)}, folder, manifest)
    postflop = folder.parent / "equilibrium" / "equilibrium_hu_policy.parquet"
    if postflop.is_file():  # the last round's chart in the pre-flop study's whole games
        path = folder / "equilibrium-hu-consistent.toml"
        path.write_text(equilibrium_strategy_toml(sols[-1], last, postflop, "equilibrium-hu-consistent",
                                                  f"check-down + solved-flop edge per line, round {len(sols) - 1}"))
        echo(f"  whole heads-up games: {path.name} against {len(HAND_WRITTEN)} hand-written strategies, "
             f"{CONSISTENT_GAMES} deals each from both seats")
        res, ends = headsup_games(path, CONSISTENT_GAMES, seed=options.seed, deck=options.deck, backend=options.backend,
                                  progress=options.progress)
        games = {**manifest, "games": CONSISTENT_GAMES, "strategy": path.name, "postflop": "equilibrium/" + postflop.name}
        write_table(res, folder, "consistent_games", games)
        write_table(ends, folder, "consistent_game_endings", games)
    for k in range(1, cc.ROUNDS + 1):  # the per-spot rows, now in the tables
        shutil.rmtree(folder / f"round{k}", ignore_errors=True)
    return {"manifest": manifest, "tables": _tables(folder), "charts": _charts(folder, CONSISTENT_TITLES)}


CONSISTENT_GAMES = 200
"""Deals per hand-written opponent in the consistent chart's whole games (the pre-flop study's number)."""
CONSISTENT_TITLES = {"consistent_chart_small_blind": "The small blind's first action, heads-up, after the last round "
                                                     "(each line's flops solved with the chart's ranges)",
                     "consistent_chart_vs_open": "The big blind facing an open, heads-up, after the last round"}


def _played_chart(folder: Path, options: Any, echo: Echo, checkdown: dict[str, Any], manifest: dict[str, Any],
                  boards: int) -> tuple[Any, Any, dict[str, Any]] | None:
    """The heads-up chart of every game state again with postflop play (the ``postflop_value`` study's class
    edges of that state added to the check-down), its moves from the check-down chart (the small blind's
    first action and the big blind facing an open), and the start state's two grids; ``checkdown``: per
    state, its check-down solution and chart. Returns the start state's solution, chart and the manifest
    (None, skipped, without the edges)."""
    import pandas as pd

    from analysis.charts.entry_chart import preflop_charts
    from analysis.core.io import write_table
    from analysis.studies.postflop_value import STATES, load_class_edges
    from analysis.studies.preflop_chart import PLAYED, chart_moves, plain_kinds, solve_played_chart

    path = folder.parent / "postflop_value" / "postflop_edge.parquet"
    if options.quick or not path.is_file():
        echo("  the chart with postflop play: no postflop_value/postflop_edge table (the full guide's stored "
             "flop solves), skipped")
        return None
    edges = load_class_edges(path)
    charts, rows, moves, start = [], [], [], None
    for state in (s for s in STATES if s in set(edges["state"])):
        sol0, chart0 = checkdown[state]
        played, row, sol = solve_played_chart(edges, options.deck, boards=boards, seed=options.seed,
                                              checkdown=sol0.continuation, state=state)
        echo(f"  {state} with postflop play ({PLAYED}): {sol.iterations} iterations, exploitability "
             f"{max(row['exploitability_bb'], row['exploitability_sb']):.3f} chips, {row['seconds']:.0f} s")
        vs_open = sol.tree.node_at(sol.tree.actions[0][2])  # the big blind facing the small blind's raise
        moves.append(chart_moves(chart0, played, (0, vs_open)))
        charts.append(played)
        rows.append(row)
        if state == "start":
            start = (sol, played, vs_open)
    m = {**manifest, "continuation": f"{PLAYED} (postflop_value/postflop_edge: each player's class edge at the "
                                     "level in the state, measured on solved flops against a random range, added "
                                     "to the check-down value of every pair; 0 all in)"}
    write_table(pd.concat(charts, ignore_index=True), folder, "preflop_chart_played", m)
    write_table(pd.DataFrame(rows), folder, "preflop_played_spots", m)
    write_table(pd.concat(moves, ignore_index=True), folder, "preflop_played_moves", m)
    if start is None:
        return None
    sol, played, vs_open = start
    preflop_charts({"preflop_chart_played_small_blind": plain_kinds(played, 0),
                    "preflop_chart_played_vs_open": plain_kinds(played, vs_open)}, folder, m)
    return sol, played, m


def _played_chart3(folder: Path, played: tuple, manifest: dict[str, Any]) -> dict[str, Any]:
    """The three-handed chart with postflop play where two see the flop (``played``: chart rows, spots rows,
    moves and decisions from :func:`~analysis.studies.preflop_chart.solve_charts3`): its tables and the start
    state's grids of the button first in and the small blind facing its open; returns the tables' manifest."""
    from analysis.charts.entry_chart import preflop_charts
    from analysis.core.io import write_table
    from analysis.studies.preflop_chart import PLAYED3, chart3_nodes, plain_kinds

    chart, spots, moves, decisions = played
    m = {**manifest, "continuation": f"{PLAYED3} (postflop_value/postflop_edge: each live player's class edge at "
                                     "the level in the state and its seat after the flop, measured heads-up on "
                                     "solved flops against a random range, added to the check-down value of every "
                                     "pair of classes where one player folded before the flop; three see the flop: "
                                     "the check-down; 0 all in)"}
    write_table(chart, folder, "preflop3_chart_played", m)
    write_table(spots, folder, "preflop3_played_spots", m)
    write_table(moves, folder, "preflop3_played_moves", m)
    write_table(decisions, folder, "preflop3_played_decisions", m)
    start = chart[(chart["state"] == "start") & (chart["sample"] == 0)]
    nodes = chart3_nodes(start)
    preflop_charts({stem.replace("preflop3_chart", "preflop3_chart_played"): plain_kinds(start, nodes[stem])
                    for stem in ("preflop3_chart_button", "preflop3_chart_sb_vs_open") if stem in nodes}, folder, m)
    return m


def run_preflop(folder: Path, options: Any, echo: Echo) -> dict[str, Any]:
    """The heads-up pre-flop chart in every game state, on the bare deck and on a second board sample;
    the three-handed chart over starting classes in every game state and on a second sample (not in the
    quick guide);
    the equilibrium strategy it completes (with the ``equilibrium`` study's postflop table), played in
    whole heads-up games against the hand-written strategies; three-handed (not in the quick guide), the
    three-handed chart and equilibrium as one strategy in whole three-handed games against two seats of
    each hand-written strategy."""
    from analysis.charts.entry_chart import preflop_charts
    from analysis.core.io import provenance, write_table
    from analysis.studies.postflop_value import load_class_edges
    from analysis.studies.preflop_chart import (
        BOARDS3,
        CHART3_MIN_PROBABILITY,
        CHART3_NODES,
        DEALS3,
        EQUILIBRIUM3,
        HAND_WRITTEN,
        INDIFFERENT_CHIPS,
        PLAYED,
        PLAYED3_TABLES,
        abstraction_cost,
        chart_cases,
        equilibrium3_notes,
        equilibrium3_strategy_toml,
        equilibrium_strategy_toml,
        headsup_games,
        plain_kinds,
        sample_agreement,
        solve_charts,
        solve_charts3,
        threehanded_games,
    )

    boards, games = (60, 5) if options.quick else (2000, 200)
    chart, spots, sols = solve_charts(options.deck, boards=boards, quick=options.quick, echo=echo, seed=options.seed)
    manifest = provenance(study="preflop", deck=options.deck, seed=options.seed, tree=sols[0].spot.tree_config.describe(),
                          continuation="check-down (nobody bets after the flop; the real settlement)",
                          boards=boards, method="dcfr, exact best responses (every holding)",
                          indifferent_chips=INDIFFERENT_CHIPS, **({"preview": True} if options.quick else {}))
    write_table(chart, folder, "preflop_chart", manifest)
    write_table(spots, folder, "preflop_spots", manifest)
    write_table(sample_agreement(chart, options.deck), folder, "preflop_second_sample", manifest)
    start = chart[(chart["state"] == "start") & (chart["deck"] == options.deck) & (chart["sample"] == 0)]
    tree = sols[0].tree
    preflop_charts({"preflop_chart_small_blind": plain_kinds(start, 0),
                    "preflop_chart_vs_open": plain_kinds(start, tree.node_at(tree.actions[0][2]))}, folder, manifest)
    write_table(abstraction_cost(sols[0]), folder, "preflop_class_cost", manifest)
    by_state = {state: (sol, chart[(chart["state"] == state) & (chart["deck"] == options.deck)
                                   & (chart["sample"] == 0)])
                for (state, on, sample), sol in zip(chart_cases(options.deck, options.quick), sols, strict=True)
                if on == options.deck and sample == 0}
    played = _played_chart(folder, options, echo, by_state, manifest, boards)
    played3_manifest = None
    if options.quick:
        echo("  three-handed chart: not in the quick guide (its continuation alone takes about 20 s a state)")
    else:
        edges_path = folder.parent / "postflop_value" / "postflop_edge.parquet"
        edges = load_class_edges(edges_path) if edges_path.is_file() else None
        chart3, spots3, decisions3, tree3, played3 = solve_charts3(options.deck, echo=echo, seed=options.seed,
                                                                   class_edges=edges)
        manifest3 = provenance(study="preflop", deck=options.deck, seed=options.seed, tree=tree3, players=3,
                               continuation="check-down (nobody bets after the flop; the real settlement)",
                               boards=BOARDS3, deals_per_triple=DEALS3,
                               private_states="starting classes, hand effects averaged into the class",
                               chart_min_probability=CHART3_MIN_PROBABILITY,
                               method="dcfr, exact best responses over classes", indifferent_chips=INDIFFERENT_CHIPS)
        write_table(chart3, folder, "preflop3_chart", manifest3)
        write_table(spots3, folder, "preflop3_spots", manifest3)
        write_table(decisions3, folder, "preflop3_decisions", manifest3)
        write_table(sample_agreement(chart3, options.deck), folder, "preflop3_second_sample", manifest3)
        start3 = chart3[(chart3["state"] == "start") & (chart3["deck"] == options.deck) & (chart3["sample"] == 0)]
        nodes = start3.drop_duplicates("node").set_index("line")["node"]
        preflop_charts({stem: plain_kinds(start3, int(nodes[line])) for stem, line in CHART3_NODES.items()},
                       folder, manifest3)
        if played3 is None:
            echo("  three-handed chart with postflop play: no postflop_value/postflop_edge table, skipped")
        else:
            played3_manifest = _played_chart3(folder, played3, manifest3)
    postflop = folder.parent / "equilibrium" / "equilibrium_hu_policy.parquet"
    if postflop.is_file():
        path = folder / "equilibrium-hu.toml"
        path.write_text(equilibrium_strategy_toml(sols[0], start, postflop))
        opponents = HAND_WRITTEN[:2] if options.quick else HAND_WRITTEN
        echo(f"  whole heads-up games: {path.name} against {len(opponents)} hand-written strategies, "
             f"{games} deals each from both seats")
        res, ends = headsup_games(path, games, seed=options.seed, deck=options.deck, backend=options.backend,
                                  progress=options.progress, opponents=opponents)
        games_manifest = {**manifest, "games": games, "strategy": path.name, "postflop": "equilibrium/" + postflop.name}
        write_table(res, folder, "preflop_games", games_manifest)
        write_table(ends, folder, "preflop_game_endings", games_manifest)
        if played is not None:  # the same games with the chart that knows postflop play
            psol, pchart, pm = played
            ppath = folder / "equilibrium-hu-played.toml"
            ppath.write_text(equilibrium_strategy_toml(psol, pchart, postflop, "equilibrium-hu-played",
                                                       PLAYED))
            echo(f"  whole heads-up games: {ppath.name}, the same deals")
            res, ends = headsup_games(ppath, games, seed=options.seed, deck=options.deck, backend=options.backend,
                                      progress=options.progress, opponents=opponents)
            pgames = {**pm, "games": games, "strategy": ppath.name, "postflop": "equilibrium/" + postflop.name}
            write_table(res, folder, "preflop_played_games", pgames)
            write_table(ends, folder, "preflop_played_game_endings", pgames)
    else:
        echo("  no equilibrium/equilibrium_hu_policy.parquet yet: whole games skipped (run the equilibrium study)")
    postflop3 = folder.parent / "equilibrium" / "equilibrium_three_policy.parquet"
    if options.quick:
        echo("  whole three-handed games: not in the quick guide (they play the three-handed chart)")
    elif postflop3.is_file():
        path3 = folder / f"{EQUILIBRIUM3}.toml"
        path3.write_text(equilibrium3_strategy_toml(folder, postflop3, options.deck))  # from the tables just written
        echo(f"  whole three-handed games: {path3.name} in one seat against two of each of {len(HAND_WRITTEN)} "
             f"hand-written strategies, {GAMES3} deals each in every rotation")
        res3, ends3 = threehanded_games(path3, GAMES3, seed=options.seed, deck=options.deck, backend=options.backend,
                                        progress=options.progress)
        games3_manifest = {**manifest3, "games": GAMES3, "strategy": path3.name,
                           "postflop": "equilibrium/" + postflop3.name, **equilibrium3_notes(folder, options.deck),
                           "seating": "one seat of the strategy, two of the opponent; every rotation plays the same deals"}
        write_table(res3, folder, "preflop3_games", games3_manifest)
        write_table(ends3, folder, "preflop3_game_endings", games3_manifest)
        if played3_manifest is not None:  # the same games with the chart that knows postflop play
            ppath3 = folder / f"{EQUILIBRIUM3}-played.toml"
            ppath3.write_text(equilibrium3_strategy_toml(folder, postflop3, options.deck, f"{EQUILIBRIUM3}-played",
                                                         PLAYED3_TABLES))
            echo(f"  whole three-handed games: {ppath3.name}, the same deals")
            res3, ends3 = threehanded_games(ppath3, GAMES3, seed=options.seed, deck=options.deck,
                                            backend=options.backend, progress=options.progress)
            pgames3 = {**played3_manifest, "games": GAMES3, "strategy": ppath3.name,
                       "postflop": "equilibrium/" + postflop3.name,
                       **equilibrium3_notes(folder, options.deck, PLAYED3_TABLES),
                       "seating": games3_manifest["seating"]}
            write_table(res3, folder, "preflop3_played_games", pgames3)
            write_table(ends3, folder, "preflop3_played_game_endings", pgames3)
    else:
        echo("  no equilibrium/equilibrium_three_policy.parquet yet: whole three-handed games skipped")
    return {"manifest": manifest, "tables": _tables(folder), "charts": _charts(folder, PREFLOP_CHART_TITLES)}


STUDIES: tuple[Study, ...] = (
    Study("starting_hands", "Starting hands: equity of every class against 1-9 random hands",
          run_starting_hands),
    Study("streets", "Made hands by street: how often each category turns up", run_streets),
    Study("economy", "Board economics: bonus, penalty and effect cards by street", run_economy),
    Study("fold_vs_check", "The dilemma: fold for free, or check and risk the penalty?",
          run_fold_vs_check, version=4),
    Study("equilibrium", "At equilibrium: when is folding for free right if everyone plays well?",
          run_equilibrium),
    Study("postflop_value", "After the flop: what betting is worth beyond checking down, per game state, pre-flop "
          "level and starting class", run_postflop_value, stored=True, version=2),
    Study("preflop", "Before the flop: the heads-up and three-handed entry charts, and the equilibrium in whole games",
          run_preflop, version=9, depends=("equilibrium", "postflop_value")),
    Study("consistent_chart", "Before the flop, consistent with the flop: the flops of every pre-flop line solved with "
          "the ranges the chart leaves there", run_consistent_chart, stored=True, version=2,
          depends=("postflop_value", "equilibrium")),
    Study("solved_spots", "Solved spots: flop, turn and river play at equilibrium, holding by holding, with "
          "a strategy browser", run_solved_spots, version=7, stored=True),
    Study("end_game", "The end of the game, pot and stack, effect cards: river spots solved in the states a "
          "hand can see", run_end_game, stored=True),
    Study("whole_games", "Which way of playing wins whole games, and how games end", run_whole_games,
          version=3),
    Study("brag", "Three Card Brag: hand odds, equity against 1-16 hands, and blind play", run_brag),
    Study("bluffjack", "Bluffjack: bust odds, and hit or stand against 1-9 opponents", run_bluffjack,
          version=3),
)

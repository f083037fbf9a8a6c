"""``dilemma solve``: run a solver on a known game, a JSON game description, the abstracted
Dilemma Hold'em hand (``dilemma solve dilemma --players 2 --street flop --buckets 10 ...``), or
a heads-up spot card by card (``dilemma solve spot --board Td9d6hQc --oop 66+ --ip QQ-22 ...``).

The command parses options, calls :func:`analysis.solvers.solve` or
:func:`analysis.solvers.abstracted.solve_dilemma` and writes files; bad input raises a
:class:`~analysis.solvers.errors.SolverError`, which the ``dilemma`` entry point
prints as one ``error:`` line (exit code 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from analysis.runners import progress_bar
from analysis.runners.interrupt import Interrupted
from analysis.solvers.errors import SolverError

from ._common import BankOpt, DeckOpt, LevelOpt, RuleOpt, out_folder, table_state

KNOWN_GAMES = ("kuhn", "kuhn3", "leduc", "leduc-iso", "dilemma", "spot", "preflop")
_DILEMMA_ONLY = ("players", "street", "buckets", "sizes", "raise_cap", "deck", "deals",
                 "deals_per_board", "free_fold", "preflop_in", "rule", "bank", "level")
_SPOT_ONLY = ("board", "oop", "ip", "pot", "stack", "bets", "raises", "spot_file", "output_format",
              "threads", "game_rules", "ranges", "lock", "nash_conv", "precision", "tree")
_SHARED = ("deck", "rule", "bank", "level", "free_fold", "players", "raise_cap")
_PREFLOP = ("deck", "rule", "bank", "level", "raise_cap", "players", "deals")
"""Options of the dilemma game that the preflop game takes too."""
"""Options of both the dilemma game and the spot game (the spot's with ``--game dilemma``)."""


def load_game(name: str):  # -> GameTree (import kept lazy)
    """A known game by name (kuhn, kuhn3, leduc, leduc-iso) or a nested-JSON game file."""
    from analysis.solvers.game_tree import tree_from_dict
    from analysis.solvers.known_games import kuhn, leduc

    key = name.strip().lower()
    if key == "kuhn":
        return kuhn(2)
    if key == "kuhn3":
        return kuhn(3)
    if key == "leduc":
        return leduc()
    if key == "leduc-iso":
        return leduc(suit_isomorphic=True)
    path = Path(name)
    if not path.is_file():
        raise SolverError(f"unknown game '{name}': use {', '.join(KNOWN_GAMES)} or a JSON file")
    try:
        spec = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SolverError(f"cannot read game file {path}: {exc}") from None
    return tree_from_dict(spec)


def solve_dilemma_cmd(options: dict, method: str, iterations: int, target: float | None,
                      check_every: int | None, seed: int, state: Path | None, out: Path | None,
                      alternating: bool, echo=typer.echo) -> None:
    """The ``dilemma`` game of ``dilemma solve``: build, solve, print, write."""
    from analysis.solvers.abstracted import DilemmaSpec, build_game, solve_dilemma, write_answers
    from analysis.solvers.abstracted.answers import free_fold_summary, free_fold_table, reach_of
    from analysis.solvers.abstracted.solve import check_run

    options = dict(options)
    rule, bank, level = options.pop("rule", None), options.pop("bank", None), options.pop("level", None)
    if rule:
        from analysis.dilemma.settlement.rules import parse_pairs

        options["rules"] = tuple(parse_pairs(rule).items())
    if bank is not None or level is not None:
        from analysis.dilemma.settlement import Rules

        options["bank"], lvl = table_state(bank or "300,700,500", level)
        options["big_blind"] = Rules.parse(rule or None).blinds[lvl][1]
    spec = DilemmaSpec(**{k: v for k, v in options.items() if v is not None}, seed=seed)
    check_run(spec, method, target)  # bad options fail before the deals are drawn
    echo(spec.describe())
    with progress_bar() as bar:
        game = build_game(spec, state_dir=out, progress=bar)
        from analysis.solvers.protocol import describe

        echo(f"public tree: {describe(game.tree)}; {game.deals.n_deals:,} deals")
        label = f"{method} iterations"

        def check(i: int, n: int, nash_conv: float, change: float) -> None:
            bar(i, n, label)
            if spec.players == 2:
                echo(f"  {i:>9,} / {n:,}  NashConv {nash_conv:.4g} chips "
                     f"({100 * nash_conv / spec.pot:.3g}% of the ${spec.pot} pot)", err=True)
            else:
                echo(f"  {i:>9,} / {n:,}  average strategy change per 1,000 iterations "
                     f"{change:.3g}", err=True)

        r = solve_dilemma(game, method, iterations, target=target, check_every=check_every,
                          seed=seed, state=state, check=check, alternating=alternating)
    speed = r.iterations / r.seconds if r.seconds > 0 else float("nan")
    echo(f"{r.settings.method} x {r.iterations:,} iterations in {r.seconds:.1f} s ({speed:,.1f} it/s)")
    reach = reach_of(r)
    echo("values (chips, net of what each put in): "
         + ", ".join(f"P{p} {v:+.3f}" for p, v in enumerate(reach.values)))
    if spec.players == 2:
        echo(f"NashConv {r.nash_conv:.4g} chips ({100 * r.nash_conv_pot:.3g}% of the pot); "
             "not zero-sum (the bank pays and takes), so NashConv is the exploitability measure")
    else:
        last = r.history["avg_change_per_1000"].dropna()
        echo("three-handed: no exact best response; average strategy change per 1,000 "
             f"iterations {last.iloc[-1] if len(last) else float('nan'):.3g}")
    summary = free_fold_summary(free_fold_table(r, reach))
    echo("fold when nobody has bet (reach-weighted): "
         + ", ".join(f"{row.street} {100 * row.fold_free:.2f}%" for row in summary.itertuples()))
    if out is not None:
        write_answers(r, out, f"dilemma_{spec.players}p_{spec.street}")
        echo(f"tables in {out}/")


class _PreflopChecks:
    """The progress callback of a pre-flop solve: prints each check if asked, keeps the last one so a
    Ctrl-C can say how far the solve got (a pre-flop solve is neither saved nor resumed)."""

    def __init__(self, show: bool, label: str, echo) -> None:  # type: ignore[no-untyped-def]
        self.show, self.label, self.echo = show, label, echo
        self.last: tuple[int, float] | None = None

    def __call__(self, i: int, e: float) -> None:
        self.last = (i, e)
        if self.show:
            self.echo(f"  {i:>6,} iterations  {self.label} {e:.4f} chips", err=True)

    def stopped(self, iterations: int) -> str:
        """What an interrupted solve did and that nothing was saved."""
        where = ("before the first check (the continuation, then the iterations up to the first check)"
                 if self.last is None else f"after {self.last[0]:,} of {iterations:,} iterations ({self.label} "
                 f"{self.last[1]:.4f} chips at the last check)")
        return f"stopped {where}; nothing was saved: a pre-flop solve is neither saved nor resumed"

    def solve(self, solver, spot, method: str | None, iterations: int, target: float | None,  # type: ignore[no-untyped-def]
              check_every: int | None):
        """``solver(spot, ...)`` (heads-up or three-handed) with this callback; Ctrl-C is
        :class:`Interrupted` saying how far it got."""
        try:
            return solver(spot, method=method or "dcfr", iterations=iterations, target_chips=target,
                          check_every=25 if check_every is None else check_every, progress=self)
        except KeyboardInterrupt as exc:
            raise Interrupted(self.stopped(iterations)) from exc


def _first_action_shares(chart) -> str:  # type: ignore[no-untyped-def]
    """The first actor's actions at the root, each with its reach-weighted share of the holdings."""
    root = chart[chart["node"] == 0].assign(w=lambda d: d["reach"] * d["combos"] * d["frequency"])
    shares = root.groupby("action", sort=False)["w"].sum()
    return ", ".join(f"{a} {100 * w / shares.sum():.1f}%" for a, w in shares.items())


def solve_preflop_cmd(options: dict, method: str | None, iterations: int, target: float | None,
                      check_every: int | None, seed: int, out: Path | None, progress: bool, echo=typer.echo) -> None:
    """The ``preflop`` game of ``dilemma solve``: the heads-up pre-flop chart (check-down continuation)."""
    from analysis.core.io import provenance, write_table
    from analysis.solvers.card_level.dilemma_terminals import DilemmaTable
    from analysis.solvers.preflop_hu.solve import PreflopSpot, solve_preflop

    players = 2 if options["players"] is None else options["players"]
    if players not in (2, 3):
        raise SolverError(f"--players {players}: the preflop game is heads-up (2) or three-handed (3)")
    stacks, level = table_state(options["bank"], options["level"])
    table = DilemmaTable.parse(options["deck"], options["rule"], list(stacks), level)
    if players == 3:
        solve_preflop3_cmd(table, options, method, iterations, target, check_every, seed, out, progress, echo)
        return
    if options["deals"] is not None:
        raise SolverError("--deals is an option of the three-handed preflop game (--players 3) and of the dilemma game")
    # `is None`, not `or`: --boards 0 or --raise-cap 0 is refused by the spot, never read as the default
    spot = PreflopSpot(table, boards=2000 if options["boards"] is None else options["boards"], seed=seed,
                       max_raises=3 if options["raise_cap"] is None else options["raise_cap"])

    solver, continuation = solve_preflop, f"check-down over {spot.boards:,} boards (seed {seed})"
    if options.get("postflop_edge") is not None:
        from analysis.studies import consistent_chart as cc
        from analysis.studies.postflop_value import (
            check_fits,
            edged_continuation,
            load_class_edges,
            spot_state,
        )

        if cc.is_line_table(options["postflop_edge"]):  # the consistent chart's: an edge per pre-flop line
            edges, cont, per = cc.load_line_edges(options["postflop_edge"]), cc.line_edged_continuation, " per line"
            cc.check_line_fits(spot, edges)  # another game or tree: one line before the long part
        else:
            edges, cont, per = load_class_edges(options["postflop_edge"]), edged_continuation, ""
            check_fits(spot, edges)

        def solver(spot, **run):  # type: ignore[no-untyped-def] # the continuation inside: Ctrl-C covers it
            return solve_preflop(spot, continuation=cont(spot, edges), **run)

        continuation += f" plus each class's postflop edge{per} from {options['postflop_edge']} ({spot_state(spot)} state)"
    sol = _PreflopChecks(progress, "exploitability", echo).solve(solver, spot, method, iterations, target,
                                                                   check_every)
    e0, e1 = sol.exploitability
    v0, v1 = sol.values()
    cfg = spot.tree_config
    echo(f"pre-flop heads-up, {table.deck_name} deck, bank {'/'.join(map(str, table.bank))}, blinds "
         f"{cfg.small_blind}/{cfg.big_blind}, ${cfg.chips} each; continuation: {continuation}")
    echo(f"{sol.method} x {sol.iterations:,} iterations; exploitability: big blind {e0:.4f}, small blind {e1:.4f} "
         "chips a hand")
    echo(f"values a hand: big blind {v0:+.2f}, small blind {v1:+.2f} chips")
    chart = sol.chart()
    echo("small blind first: " + _first_action_shares(chart))
    if out is not None:
        manifest = provenance(study="preflop", **{**spot.describe(), "continuation": continuation}, method=sol.method,
                              iterations=sol.iterations, exploitability_chips=[e0, e1], values=[v0, v1])
        write_table(chart, out, "preflop_chart", manifest)
        write_table(sol.node_frame(), out, "preflop_holdings", manifest)
        echo(f"tables in {out}/")


def solve_preflop3_cmd(table, options: dict, method: str | None, iterations: int, target: float | None,
                       check_every: int | None, seed: int, out: Path | None, progress: bool, echo=typer.echo) -> None:
    """``dilemma solve preflop --players 3``: the three-handed chart over starting classes."""
    import numpy as np

    from analysis.core.io import provenance, write_table
    from analysis.solvers.preflop3.solve3 import Preflop3Spot, solve_preflop3

    given = {k: options[o] for k, o in (("boards", "boards"), ("deals", "deals"), ("max_raises", "raise_cap"))
             if options[o] is not None}  # `is not None`: 0 is refused by the spot, never read as the default
    spot = Preflop3Spot(table, seed=seed, **given)
    solver, edged = solve_preflop3, ""
    if options.get("postflop_edge") is not None:
        solver = _edged_solver3(spot, options["postflop_edge"])
        edged = (f"; plus each live player's postflop class edge where two see the flop, from "
                 f"{options['postflop_edge']} (three see it: the check-down)")
    sol = _PreflopChecks(progress, "largest exploitability", echo).solve(solver, spot, method, iterations,
                                                                           target, check_every)
    e = sol.exploitability
    v = sol.values()
    cfg = spot.tree_config
    pot = sol.blinds_pot
    echo(f"pre-flop three-handed, {table.deck_name} deck, bank {'/'.join(map(str, table.bank))}, blinds "
         f"{cfg.small_blind}/{cfg.big_blind}, ${cfg.chips:,} each; private states: the {sol.deal.n_classes} starting "
         f"classes (hand effects averaged into the class); continuation: check-down, {spot.boards:,} boards, "
         f"{spot.deals} deal{'s' if spot.deals != 1 else ''} per triple of classes (seed {seed}){edged}")
    echo(f"{sol.method} x {sol.iterations:,} iterations; exploitability: small blind {e[0]:.4f}, big blind {e[1]:.4f}, "
         f"button {e[2]:.4f} chips a hand; NashConv {sol.nash_conv:.4f} chips ({100 * sol.nash_conv / pot:.3g}% of the "
         f"${pot} blinds)")
    echo(f"values a hand: small blind {v[0]:+.2f}, big blind {v[1]:+.2f}, button {v[2]:+.2f} chips")
    cont = sol.continuation

    def errors(se: dict[int, float]) -> str:
        return ", ".join(f"${x:,.1f} at ${lv:,}" for lv, x in sorted(se.items())) if se else "none"

    three = errors(cont.se) if all(np.isfinite(x) for x in cont.se.values()) else "not measured with one deal"
    echo(f"continuation's standard error, by chips each has in: one triple of classes' value (three see the flop) "
         f"{three}; one pair's (two see it, pooled over the folder's class) {errors(cont.se_pair)}")
    chart = sol.chart()
    echo("button first: " + _first_action_shares(chart))
    if out is not None:
        manifest = provenance(study="preflop", **spot.describe(), **({"postflop_edge": str(options["postflop_edge"])}
                                                                     if edged else {}),
                              method=sol.method, iterations=sol.iterations,
                              exploitability_chips=list(e), nash_conv_chips=sol.nash_conv, values=list(v))
        write_table(chart, out, "preflop3_chart", manifest)
        write_table(sol.decisions(), out, "preflop3_decisions", manifest)
        echo(f"tables in {out}/")


def _edged_solver3(spot, path: Path):  # type: ignore[no-untyped-def]
    """``solve_preflop3`` with the class edges of ``path`` added where two see the flop (the table checked
    against ``spot`` first: one error line before the long part; the continuation inside, so Ctrl-C covers it)."""
    from analysis.solvers.preflop3.bet_tree3 import build_preflop_tree3
    from analysis.solvers.preflop3.continuation3 import checkdown3
    from analysis.solvers.preflop3.deal3 import class_deal
    from analysis.solvers.preflop3.solve3 import solve_preflop3
    from analysis.studies import consistent_chart as cc
    from analysis.studies.postflop_edge3 import check_fits3, edged_continuation3
    from analysis.studies.postflop_value import load_class_edges

    if cc.is_line_table(path):
        raise SolverError(f"{path}: a line-edge table holds the heads-up chart's lines; with --players 3 give a "
                          "class-edge table (results/postflop_value/postflop_edge.parquet)")
    edges = load_class_edges(path)
    situations = build_preflop_tree3(spot.tree_config).situations()
    deal = class_deal(spot.table.deck.spec)
    check_fits3(spot, edges, situations, deal.names)

    def solver(spot, **run):  # type: ignore[no-untyped-def]
        checkdown = checkdown3(spot.table, deal, situations, spot.chips, spot.boards, spot.deals, spot.seed)
        return solve_preflop3(spot, continuation=edged_continuation3(spot, edges, checkdown, deal.names), **run)

    return solver


def solve_spot_cmd(options: dict, method: str | None, iterations: int, target: float | None,
                   state: Path | None, out: Path | None, show_progress: bool, echo=typer.echo,
                   seed: int = 0, check_every: int | None = None) -> None:
    """The ``spot`` game of ``dilemma solve``: a card-level spot (heads-up, or three-handed on the
    river or the turn: ``--range R1 --range R2 --range R3``), solved and written. Three-handed
    turn spots run ``mccfr`` by default (one river card drawn per walk from ``seed``)."""
    import numba

    from analysis.runners.interrupt import interruptible
    from analysis.solvers.card_level import (
        CardSolver,
        CardSpot,
        SpotError,
        SpotSolution,
        load_solution,
    )
    from analysis.solvers.card_level.locks import check_resumed_locks, lock_to_model, parse_locks

    fmt = options.pop("output_format") or "text"
    if fmt not in ("text", "json"):
        raise SpotError(f"--format {fmt!r}: choose text or json")
    threads = options.pop("threads")
    nash_conv = options.pop("nash_conv", None)
    if nash_conv not in (None, "auto", "exact", "sampled"):
        raise SpotError(f"--nash-conv {nash_conv!r}: choose exact, sampled or auto")
    precision = options.pop("precision", None) or "float64"
    lock_text = options.pop("lock")
    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    spot = CardSpot.from_options(options.pop("spot_file"), **options)
    locks = parse_locks(lock_text, spot.players)
    turn3 = spot.players == 3 and spot.street == 1
    resumed = state is not None and state.exists()
    method = method or ("mccfr" if turn3 else "dcfr")
    if precision != "float64" and spot.players == 3:
        raise SpotError(f"--precision {precision}: the heads-up solver only (three-handed spots run in float64)")
    target_pct = 0.3 if target is None else target
    if target_pct < 0:
        raise SpotError(f"--target {target_pct}: a % of the pot must be non-negative")
    if turn3:
        from analysis.solvers.card_level.turn3 import SAMPLED_HOLDINGS as turn3_sample
        from analysis.solvers.card_level.turn3 import TurnSolution3, TurnSolver3

        if locks and state is not None:
            raise SpotError("--lock with --state: a locked three-handed turn solve is not saved yet; give one or "
                            "the other")
        if resumed:
            solution = load_solution(state)
            if (not isinstance(solution, TurnSolution3) or solution.spot.describe() != spot.describe()
                    or solution.solver.method != method or solution.solver.seed != seed):
                raise SpotError(f"solution file {state} holds another spot, method or seed; remove it or give "
                                "another --state")
            solver = solution.solver
            if nash_conv in ("exact", "sampled"):  # how NashConv is measured: the file's unless given
                solver.nash_conv_estimate = nash_conv
        else:
            solver = TurnSolver3(spot, method, seed, nash_conv=nash_conv or "auto")
            solution = TurnSolution3(solver)
    elif nash_conv not in (None, "auto", "exact"):
        raise SpotError("--nash-conv sampled: three-handed turn spots only (elsewhere NashConv is exact)")
    elif resumed:
        solution = load_solution(state)
        if solution.spot.describe() != spot.describe() or solution.solver.method != method:
            raise SpotError(f"solution file {state} holds another spot or method; remove it or give another --state")
        held = getattr(solution.solver, "precision", "float64")  # three-handed solvers: float64 only
        if held != precision:
            raise SpotError(f"solution file {state} was solved in {held}; give --precision {held}, remove it or "
                            "give another --state")
        solver = solution.solver
        check_resumed_locks(solver, solution.locks, locks, state)
    elif spot.players == 3:
        from analysis.solvers.card_level.multiway import MultiwaySolution, MultiwaySolver

        solver = MultiwaySolver(spot, method)
        solution = MultiwaySolution(solver)
    else:
        solver = CardSolver(spot, method, isomorphism=not locks, precision=precision)
        solution = SpotSolution(solver)
    if not resumed:  # (a resumed solver has its locks, checked above)
        for player, model in locks.items():
            lock_to_model(solver, player, model)
    say = echo if fmt == "text" else (lambda *a, **k: None)
    game = ("Texas Hold'em rules" if spot.table is None else
            f"Dilemma Hold'em, {spot.table.deck.label} deck, rules {spot.table.rules.label}, bank "
            f"{'/'.join(map(str, spot.table.bank))}, blind level {spot.table.level}"
            + (", free fold" if spot.tree.free_fold else ", no free fold"))
    if locks:
        game += "; locked: " + ", ".join(f"{p} plays {m}" for p, m in locks.items())
    if precision != "float64":
        game += f"; {precision} arithmetic"
    say(f"{game}; {spot.spec.summary}; board {spot.describe()['board']}; pot {spot.pot}, stack {spot.stack}; "
        f"{' vs '.join(str(len(spot.holdings(p)[0])) for p in range(spot.players))} holdings; "
        f"{solver.tree.nodes.shape[0]:,} nodes, {solver.memory_bytes / 1e6:,.1f} MB in arrays")
    if turn3:
        say(f"{method}: " + (f"{solver.per_walk} of {len(solver.river_cards)} river cards drawn per walk, seed {seed}"
                             if solver.sampled else f"every one of the {len(solver.river_cards)} river cards each "
                             "iteration") + ("; NashConv exact over every river card" if solver.nash_conv_estimate == "exact"
                                             else "; NashConv sampled: each player's best-response gain on "
                                             f"{turn3_sample} holdings drawn by weight, with its standard error"))
    measure = solver.exploitability_measure
    with progress_bar() as bar, interruptible() as stop:  # (a bar on a terminal; --progress: a line a check)
        label = f"{method} iterations (target {target_pct:g}% of the pot)"

        def check(i: int, expl: float) -> None:
            bar(i, iterations, label, detail=f"exploitability {100 * expl / spot.pot:.3g}% of the pot")
            if show_progress:
                echo(f"  {i:>7,} / {iterations:,}  exploitability ({measure}) {expl:.4g} chips "
                     f"({100 * expl / spot.pot:.3g}% of the pot)", err=True)

        every = {} if check_every is None else {"check_every": check_every}
        solver.run(target_pct=target_pct, max_iterations=iterations, progress=check, stop=stop, **every)
        if stop.is_set():
            where = (f"the solution is saved in {solution.save(state)}; run the same command again to resume"
                     if state is not None else "nothing was saved (give --state FILE to keep the progress)")
            raise Interrupted(f"stopped after {solver.iterations:,} iterations; {where}")
    if state is not None:
        solution.save(state)
    reached = solution.exploitability_pct <= target_pct
    summary = {**solution.manifest(), "locks": locks, "root": _root_summary(solution),
               "target_pct_pot": target_pct, "target_reached": reached}
    made = solution.summary((), "made_hand")
    if not made.empty:
        summary["root_by_made_hand"] = {
            g: {"share": float(rows.share.iloc[0]), **dict(zip(rows.action, rows.frequency.astype(float), strict=True))}
            for g, rows in made.groupby("group", sort=False)}
    free = solution.fold_or_check() if spot.tree.free_fold else None
    if free is not None:
        from analysis.solvers.card_level.solution import fold_or_check_shares

        summary["fold_or_check"] = fold_or_check_shares(free)
    if fmt == "json":
        echo(json.dumps(summary, sort_keys=True))
    else:
        se = getattr(solver, "nash_conv_se", 0.0) if getattr(solver, "nash_conv_estimate", "exact") == "sampled" else None
        echo(f"{method} x {solver.iterations:,} iterations; exploitability ({measure}) "
             f"{solution.exploitability:.4g}" + ("" if se is None else f" ± {se:.2g}") + " chips "
             f"({solution.exploitability_pct:.3g}" + ("" if se is None else f" ± {100 * se / spot.pot:.2g}")
             + "% of the pot" + ("; the locked players' gains not counted" if locks else "") + "); "
             f"NashConv {solver.nash_conv:.4g} chips")
        if not reached:
            echo(f"the target {target_pct:g}% of the pot is not reached: stopped at the iteration limit "
                 f"(-n {iterations:,}); run again with a larger -n (and --state FILE to go on from here)")
        ev = solution.ev()
        what = "expected share of the pot" if spot.table is None else \
            "expected chips after the settlement less the stack behind at the start"
        echo(f"{what}: " + ", ".join(f"{seat} {value:.3f}" for seat, value in ev.items()))
        echo(f"root ({next(iter(ev))} to act, range-weighted): " + ", ".join(f"{a} {100 * f:.1f}%" for a, f in summary["root"].items()))
        if "root_by_made_hand" in summary:
            echo("root by made hand (share of the range: action frequencies): " + "; ".join(
                f"{g} {100 * row['share']:.0f}%: " + ", ".join(f"{a} {100 * f:.0f}%" for a, f in row.items() if a != "share")
                for g, row in summary["root_by_made_hand"].items()))
        for line, row in summary.get("fold_or_check", {}).items():
            echo(f"fold or check at {line} ({row['player']}, share of the range, tolerance "
                 f"{solution.tolerance:.3g} chips): folds for free {100 * row['folds for free']:.1f}%, "
                 f"checks {100 * row['checks']:.1f}%, indifferent {100 * row['indifferent']:.1f}%; "
                 f"mean regret of folding {row['regret_fold']:.3f}, of checking {row['regret_check']:.3f} chips")
    if out is not None:
        import pandas as pd

        from analysis.core.io import provenance, write_table

        write_table(solution.to_frame(), out, "spot_strategy", provenance(**solution.manifest()))
        groups = pd.concat([solution.summary(line, by) for line in solution.first_street_lines()
                            for by in ("made_hand", "draw", "class")], ignore_index=True)
        write_table(groups, out, "spot_summary", provenance(**solution.manifest()))
        if free is not None:
            write_table(free, out, "spot_fold_or_check", provenance(**solution.manifest()))
        if fmt == "text":
            names = "spot_strategy, spot_summary" + (", spot_fold_or_check" if free is not None else "")
            echo(f"tables in {out}/ ({names}: .csv, .parquet, .manifest.json)")


def _root_summary(solution) -> dict[str, float]:  # SpotSolution (import kept lazy)
    """The first player's range-weighted frequency of each action at the root."""
    table = solution.strategy()
    w = solution.spot.holdings(0)[1]
    freq = (table.to_numpy() * w[:, None]).sum(axis=0) / w.sum()
    return {a: float(f) for a, f in zip(table.columns, freq, strict=True)}


def register(app: typer.Typer) -> None:
    """Add the ``solve`` command to a typer app."""

    @app.command("solve")
    def solve_cmd(
        game: str = typer.Argument(..., help="dilemma, spot, preflop, kuhn, kuhn3, leduc, leduc-iso, or a JSON game "
                                   "file"),
        method: str = typer.Option(None, "--method", "-m",
                                   help="cfr, cfr+, dcfr or mccfr (default cfr+); spot: dcfr (default) or "
                                   "cfr+; three-handed turn spot: mccfr (default), dcfr or cfr+"),
        iterations: int = typer.Option(1000, "--iterations", "-n", min=1, help="total iterations"),
        target: float = typer.Option(None, "--target", help="stop at this exploitability (dilemma: NashConv in "
                                     "chips; spot: in % of the pot, default 0.3: heads-up the mean best-response "
                                     "gain, NashConv / 2, three-handed NashConv; "
                                     "preflop: the largest of the players' best-response gains in chips)"),
        check_every: int = typer.Option(None, "--check-every", help="iterations between checks"),
        seed: int = typer.Option(0, "--seed", help="seed of MCCFR, of the dilemma deal sample and of the preflop continuation's boards "
                          "(and, three-handed, of its deals)"),
        state: Path = typer.Option(None, "--state", help=".npz file to resume from and save to"),
        out: Path = typer.Option(None, "--out", help="folder for the strategy and history tables", callback=out_folder),
        alternating: bool = typer.Option(True, "--alternating/--simultaneous"),
        progress: bool = typer.Option(False, "--progress", help="print every check on stderr"),
        players: int = typer.Option(None, "--players", help="dilemma, spot, preflop: 2 or 3 (spot: one --range each; "
                                    "preflop 3: the three-handed chart over starting classes)"),
        street: str = typer.Option(None, "--street", help="dilemma: first street (flop, turn, river)"),
        buckets: int = typer.Option(None, "--buckets", help="dilemma: strength buckets per street"),
        sizes: str = typer.Option(None, "--sizes", help="dilemma: bet sizes, pot fractions and allin, e.g. 0.5,1,allin"),
        raise_cap: int = typer.Option(None, "--raise-cap", help="dilemma, spot: bets + raises per round (0: none)"),
        deck: DeckOpt = None,
        deals: int = typer.Option(None, "--deals", help="dilemma: sampled deals standing for chance; preflop "
                                  "--players 3: deals per triple of starting classes (8)"),
        boards: int = typer.Option(None, "--boards", help="preflop: boards of the check-down continuation (2000; "
                                   "three-handed: 2000 in the pool)"),
        postflop_edge: Path = typer.Option(None, "--postflop-edge", help="preflop: a class-edge table "
                                           "(results/postflop_value/postflop_edge.parquet or .csv: what each "
                                           "starting class gains over checking down when the flop is played) "
                                           "added to the check-down continuation (--players 3: where two see "
                                           "the flop); or, heads-up, a line-edge table "
                                           "(results/consistent_chart/consistent_line_edges.parquet: an edge per "
                                           "pre-flop line, its last round)"),
        deals_per_board: int = typer.Option(None, "--deals-per-board", help="dilemma: holdings per board"),
        free_fold: bool = typer.Option(None, "--free-fold/--no-free-fold", help="dilemma, spot (--game dilemma, on by default): allow folding when nobody has bet"),
        preflop_in: int = typer.Option(None, "--preflop-in", help="dilemma: chips each player put in before the first street"),
        board: str = typer.Option(None, "--board", help="spot: 3 to 5 board cards, e.g. Td9d6hQc"),
        oop: str = typer.Option(None, "--oop", help="spot: range of the first player (acts first)"),
        ip: str = typer.Option(None, "--ip", help="spot: range of the second player"),
        ranges: list[str] = typer.Option([], "--range", help="spot: one range per player in the order of action "  # noqa: B006
                                         "(instead of --oop/--ip; three for a three-handed river or turn spot)"),
        pot: int = typer.Option(None, "--pot", help="spot: pot at the start"),
        stack: int = typer.Option(None, "--stack", help="spot: effective stack behind"),
        bets: str = typer.Option(None, "--bets", help="spot: bet sizes, e.g. '50%, a' (default)"),
        raises: str = typer.Option(None, "--raises", help="spot: raise sizes, e.g. '100%' (default) or '2.5x'"),
        tree: list[str] = typer.Option([], "--tree", help="spot: any key of a spot file's [tree] table as "  # noqa: B006
                                       "KEY=VALUE, e.g. 'turn.ip.bets=33%, a', 'river.raises=2.5x', "
                                       "add_allin_threshold=1.5, force_allin_threshold=0.15 (repeatable)"),
        spot_file: Path = typer.Option(None, "--spot-file", help="spot: a TOML spot (options override it)"),
        output_format: str = typer.Option(None, "--format", help="spot: text (default) or json"),
        threads: int = typer.Option(None, "--threads", min=1, help="spot: numba threads (results do not change)"),
        nash_conv: str = typer.Option(None, "--nash-conv", help="three-handed turn spot: exact, sampled (each "
                                      "player's best-response gain on holdings drawn by weight, ± its standard "
                                      "error) or auto (default: sampled past a size limit)"),
        precision: str = typer.Option(None, "--precision", help="heads-up spot: float64 (default) or float32 "
                                      "(the solver's rows and arithmetic in float32: about 10% faster a turn "
                                      "iteration; EVs within about 0.003% of the pot of float64's)"),
        lock: list[str] = typer.Option([], "--lock", help="spot: lock a player to a strategy, e.g. "  # noqa: B006
                                       "ip=threshold or ip=abc (an opponent model or engine strategy: shipped "
                                       "name or TOML path); the others best-respond. Three-handed: first, "
                                       "second or third, e.g. --lock second=threshold --lock third=abc"),
        game_rules: str = typer.Option(None, "--game", help="spot: holdem (Texas Hold'em rules, the default) or "
                                       "dilemma (Dilemma Hold'em's settlement: --deck, --rule, --bank, --level, "
                                       "--free-fold/--no-free-fold)"),
        rule: RuleOpt = [],  # noqa: B006 - typer reads the default, never mutates it
        bank: BankOpt = None,
        level: LevelOpt = None,
    ) -> None:
        """Solve a game; print its value, exploitability and NashConv; optionally write tables."""
        from analysis.solvers.protocol import describe
        from analysis.solvers.tree_solver import solve

        dilemma_options = {"players": players, "street": street, "buckets": buckets, "sizes": sizes,
                           "raise_cap": raise_cap, "deck": deck, "deals": deals,
                           "deals_per_board": deals_per_board, "free_fold": free_fold,
                           "preflop_in": preflop_in, "rule": rule or None, "bank": bank,
                           "level": level}
        spot_options = {"board": board, "oop": oop, "ip": ip, "pot": pot, "stack": stack, "bets": bets,
                        "raises": raises, "spot_file": spot_file, "output_format": output_format,
                        "threads": threads, "game_rules": game_rules, "ranges": ranges or None, "lock": lock or None,
                        "nash_conv": nash_conv, "precision": precision, "tree": tree or None}
        key = game.strip().lower()
        if postflop_edge is not None and key != "preflop":
            raise SolverError(f"--postflop-edge is an option of the preflop game, not of '{game}'")
        if key == "spot":
            given = [k for k in _DILEMMA_ONLY if dilemma_options[k] is not None and k not in _SHARED]
            if given:
                raise SolverError(f"--{given[0].replace('_', '-')} is an option of the dilemma game, not of spot")
            shared = {"game": spot_options.pop("game_rules"), "deck": deck, "rules": rule or None, "bank": bank,
                      "level": level, "free_fold": free_fold, "players": players, "raise_cap": raise_cap}
            solve_spot_cmd({**spot_options, **shared}, method, iterations, target, state, out,
                           progress, seed=seed, check_every=check_every)
            return
        given_spot = [k for k in _SPOT_ONLY if spot_options[k] is not None]
        if given_spot:
            raise SolverError(f"--{given_spot[0].replace('_', '-').replace('output-format', 'format').replace('game-rules', 'game')} is an "
                              f"option of the spot game, not of '{game}'")
        if key == "preflop":
            given = [k for k in _DILEMMA_ONLY if dilemma_options[k] is not None and k not in _PREFLOP]
            if given:
                raise SolverError(f"--{given[0].replace('_', '-')} is an option of the dilemma game, not of preflop")
            if state is not None:
                raise SolverError("--state is not an option of preflop (its solve is not saved or resumed)")
            if not alternating:
                raise SolverError("--simultaneous is not an option of preflop (its updates alternate)")
            solve_preflop_cmd({**dilemma_options, "boards": boards, "postflop_edge": postflop_edge}, method,
                              iterations, target, check_every, seed, out, progress)
            return
        if boards is not None:
            raise SolverError(f"--boards is an option of the preflop game, not of '{game}'")
        method = method or "cfr+"
        if key == "dilemma":
            solve_dilemma_cmd(dilemma_options, method, iterations, target, check_every, seed, state,
                              out, alternating)
            return
        given = [k for k in _DILEMMA_ONLY if dilemma_options[k] is not None]
        if given:
            raise SolverError(f"--{given[0].replace('_', '-')} is an option of the dilemma game, "
                              f"not of '{game}'")
        tree = load_game(game)

        def show(i: int, n: int, e: float) -> None:
            typer.echo(f"  {i:>10,} / {n:,}  exploitability {e:.6g}", err=True)

        r = solve(tree, method, iterations, target_exploitability=target, check_every=check_every,
                  seed=seed, state=state, alternating=alternating, progress=show if progress else None)
        speed = r.iterations / r.seconds if r.seconds > 0 else float("nan")
        typer.echo(f"{tree.name}: {describe(tree)}; "
                   f"{r.settings.method} x {r.iterations:,} iterations in {r.seconds:.2f} s "
                   f"({speed:,.0f} it/s)")
        typer.echo("game value: " + ", ".join(f"player {p} {v:+.6f}" for p, v in enumerate(r.game_value)))
        typer.echo(f"exploitability (NashConv / players) {r.exploitability:.6g}; "
                   f"NashConv {r.nash_conv:.6g}")
        if out is not None:
            r.write(out, f"{tree.name}_{r.settings.method}")
            typer.echo(f"tables in {out}/")

"""``dilemma study``: the fold-vs-check studies (one spot, or the whole grid)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path

import typer

from analysis.runners import progress_bar

from ._common import (
    DEFAULT_BANK_TEXT,
    BankOpt,
    DeckOpt,
    LevelOpt,
    RuleOpt,
    SchedulerOpt,
    ThreadsOpt,
    WorkersOpt,
    backend,
    out_folder,
    table_state,
)


class SpotFormat(StrEnum):
    table = "table"
    json = "json"


MAX_OPPONENTS = 9
POLICY_HELP = ("after checking: best_response (to the opponents' model) or a fixed policy "
               "(check_down, check_fold, call_down)")
POSITION_HELP = ("where the hero acts after the flop: first, last, or the number of opponents "
                 "acting before it (they have checked at the decision, by their model)")
VERDICTS = {"check": "CHECK", "fold": "FOLD", "close": "too close to call", "equal": "either"}


def print_spot(res, seed: int, elapsed: float) -> None:
    """A spot's answer as text: the two branches, the verdict, the other continuations on the
    same deals, the option value of later free folds, and the best response's plan."""
    r = res.row
    floats = {"float_format": lambda v: f"{v:9.2f}"}
    typer.echo(f"spot: {res.question.label()} | model {r['model']} | continuation {r['policy']} | "
               f"deck {res.manifest['deck']}")
    typer.echo(res.to_frame().to_string(index=False, **floats))
    typer.echo(f"gap check - fold: {r['gap']:+.2f} ± {r['gap_se']:.2f}  "
               f"(P[check better] = {r['p_check_better']:.3f}) → {VERDICTS[r['decision']]}")
    typer.echo(strength_line(r))
    method = "exact: every opponent holding" if res.manifest["exact"] else f"seed {seed}"
    typer.echo(f"{r['trials']:,} deals ({method}), {elapsed:.1f} s; showdown equity "
               f"{r['equity']:.3f}; folding costs a penalty in {r['fold_pays_share']:.1%} of deals")
    if res.manifest.get("note"):
        typer.echo(res.manifest["note"])
    if len(res.others):
        typer.echo("\nEV(check) on the same deals under each continuation (minus: vs the main one):")
        frame = res.others.drop(columns="cell").rename(columns={"ev_check_se": "se"})
        typer.echo(frame.to_string(index=False, **floats))
    if "fold_free_option_value" in r:
        typer.echo(f"option to fold for free later: worth {r['fold_free_option_value']:+.2f} ± "
                   f"{r['fold_free_option_value_se']:.2f} of EV(check) "
                   f"(EV(check) never folding for free: {r['ev_check_no_free_fold']:.2f})")
    if len(res.plan):
        typer.echo("\nthe best response's plan (strength = share of holdings beaten; reach = "
                   "share of deals):")
        typer.echo(res.plan.to_string(index=False, float_format=lambda v: f"{v:5.2f}"))
    typer.echo(f"continuation: {res.manifest['continuation']}")


def strength_line(r: dict) -> str:
    """The hero's strength on the board (the number every threshold and plan is keyed on)."""
    if r.get("strength") is None or r["strength"] != r["strength"]:
        return ("hero's strength: depends on the random board (the plan below gives the action "
                "by strength: the share of the unseen holdings the hand beats, ties half)")
    spread = (f", {r['strength_min']:.3f} to {r['strength_max']:.3f} over the class's combos"
              if r["strength_max"] > r["strength_min"] else "")
    return (f"hero's strength on this board: {r['strength']:.3f}{spread} (beats that share of "
            f"the holdings it cannot see, ties half); bucket {r['strength_bucket']} of "
            f"{r['buckets']} (0 weakest)")


def parse_int_list(text: str | Iterable[int], what: str) -> tuple[int, ...]:
    """``"1-5"``, ``"1,3,5"`` or ``"40,120"`` to a tuple of ints (errors name the option)."""
    from analysis.studies.fold_vs_check import SpotError

    if not isinstance(text, str):
        return tuple(int(x) for x in text)
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        try:
            if "-" in part:
                a, b = part.split("-", 1)
                out.extend(range(int(a), int(b) + 1))
            elif part:
                out.append(int(part))
        except ValueError:
            raise SpotError(f"{what}: cannot read {part!r} (use e.g. 1-5 or 40,120,300)") from None
    if not out:
        raise SpotError(f"{what}: empty list")
    return tuple(out)


def grid_spec_from_options(*, deck: str, models: str, policy: str, streets: str, opponents: str,
                           pots: str, hands: str, stderr: float, max_trials: int, seed: int,
                           buckets: int = 20, compare: bool = False,
                           rules: Iterable[str] = (), bank: str | None = DEFAULT_BANK_TEXT,
                           level: int | None = None, positions: str = "first",
                           more_opponents: str = "", more_pots: str = "120",
                           position_pots: str = ""):
    """A :class:`GridSpec` from the command's comma-separated options (validated)."""
    from analysis.dilemma.effects import street_code
    from analysis.dilemma.settlement import Rules
    from analysis.dilemma.settlement.rules import parse_pairs
    from analysis.studies.fold_vs_check import GridSpec, SpotError
    from analysis.studies.fold_vs_check.cells import BEST_RESPONSE, parse_position
    from analysis.studies.fold_vs_check.models import load_model, load_policy

    street_list = tuple(s.strip() for s in streets.split(",") if s.strip())
    for s in street_list:
        if street_code(s) not in (1, 2, 3):
            raise SpotError(f"--streets: {s!r} is not flop, turn or river")
    model_list = tuple(m.strip() for m in models.split(",") if m.strip())
    for m in model_list:
        load_model(m)
    if policy != BEST_RESPONSE:
        load_policy(policy)
    if not 2 <= buckets <= 100:
        raise SpotError(f"--buckets: 2 to 100; got {buckets}")
    opp = parse_int_list(opponents, "--opponents")
    if min(opp) < 1 or max(opp) > MAX_OPPONENTS:
        raise SpotError(f"--opponents: 1 to {MAX_OPPONENTS}; got {opponents}")
    more = parse_int_list(more_opponents, "--more-opponents") if more_opponents.strip() else ()
    if more and (min(more) < 1 or max(more) > MAX_OPPONENTS):
        raise SpotError(f"--more-opponents: 1 to {MAX_OPPONENTS}; got {more_opponents}")
    places = tuple(p.strip().lower() for p in positions.split(",") if p.strip())
    if not places:
        raise SpotError("--position: empty list")
    for p in places:  # a count beyond a table's opponents is left out of that table
        parse_position(p, MAX_OPPONENTS)
    rule_pairs = tuple(parse_pairs(list(rules)).items())
    Rules.parse(dict(rule_pairs))  # a bad option fails before any work
    stacks, lvl = table_state(bank, level)
    return GridSpec(deck=deck, models=model_list, policy=policy, streets=street_list,
                    opponents=opp, pots=parse_int_list(pots, "--pots"),
                    hands=tuple(h.strip() for h in hands.split(",") if h.strip()),
                    stderr=stderr, max_trials=max_trials, seed=seed, buckets=buckets,
                    compare=compare, rules=rule_pairs, bank=stacks, level=lvl, positions=places,
                    position_pots=parse_int_list(position_pots, "--position-pots")
                    if position_pots.strip() else (),
                    more_opponents=more, more_pots=parse_int_list(more_pots, "--more-pots") if more else ())


def register(app: typer.Typer) -> None:
    study = typer.Typer(help="Fold for free now, or check and risk the penalty? (RULES §1.6)",
                        no_args_is_help=True)
    app.add_typer(study, name="study")

    @study.command("spot")
    def spot_cmd(
        hand: str = typer.Option(..., "--hand", help='hero\'s cards ("As 10h") or a class ("A10o")'),
        board: str = typer.Option("", "--board", help="board so far (3, 4 or 5 cards); empty: random"),
        street: str = typer.Option(None, "--street", help="flop, turn or river (default: from the board)"),
        opponents: int = typer.Option(1, "--opponents", help="opponents still in (1-9)"),
        position: str = typer.Option("first", "--position", help=POSITION_HELP),
        pot: int = typer.Option(40, "--pot", help="chips in the pot at the decision"),
        stack: int = typer.Option(None, "--stack", help="chips behind each player (default 1000 - share)"),
        model: str = typer.Option("passive", "--model", help="opponents' strategy: an opponent model or an engine strategy (abc, maniac ...), "
                                          "shipped name or TOML path"),
        policy: str = typer.Option("best_response", "--policy", help=POLICY_HELP),
        buckets: int = typer.Option(20, "--buckets", help="strength buckets of the best response (2-100)"),
        train_deals: int = typer.Option(10_000, "--train-deals", min=100,
                                        help="deals the best response is trained on"),
        compare: bool = typer.Option(True, "--compare/--no-compare",
                                     help="also play the fixed policies on the same deals"),
        deck: DeckOpt = "reference",
        rule: RuleOpt = [],  # noqa: B006 - typer reads the default, never mutates it
        bank: BankOpt = DEFAULT_BANK_TEXT,
        level: LevelOpt = None,
        trials: int = typer.Option(None, "--trials", min=1, help="fixed number of trials"),
        stderr: float = typer.Option(1.0, "--stderr", help="stop when the gap's SE <= this ($), more than 0"),
        seed: int = typer.Option(0, "--seed", min=0),
        exact: bool = typer.Option(None, "--exact/--sample",
                                   help="enumerate every opponent holding (river or turn with the "
                                        "cards and board given, 1-2 opponents); default: when "
                                        "estimated to take at most 5 s, else sample"),
        fmt: SpotFormat = typer.Option(SpotFormat.table, "--format"),
        threads: ThreadsOpt = None,
        workers: WorkersOpt = None,
        scheduler: SchedulerOpt = None,
    ) -> None:
        """EV of folding now vs checking and continuing, with the money broken down."""
        from analysis.dilemma.settlement import Rules
        from analysis.studies.fold_vs_check import evaluate_spot

        rules = Rules.parse(rule)
        stacks, lvl = table_state(bank, level)
        start = time.perf_counter()
        with progress_bar(transient=True) as update:
            res = evaluate_spot(hand, board=board, street=street, opponents=opponents, pot=pot,
                                stack=stack, model=model, position=position, policy=policy, deck=deck, rules=rules,
                                bank=stacks, level=lvl, trials=trials,
                                stderr=None if trials else stderr, seed=seed, exact=exact,
                                buckets=buckets, train_deals=train_deals, compare=compare,
                                backend=backend(threads, workers, scheduler), progress=update)
        elapsed = time.perf_counter() - start
        if fmt is SpotFormat.json:
            typer.echo(json.dumps(res.to_dict(), indent=2, default=str))
            return
        print_spot(res, seed, elapsed)

    @study.command("fold-vs-check")
    def grid_cmd(
        deck: DeckOpt = "reference",
        rule: RuleOpt = [],  # noqa: B006 - typer reads the default, never mutates it
        bank: BankOpt = DEFAULT_BANK_TEXT,
        level: LevelOpt = None,
        out: Path = typer.Option(Path("results/fold_vs_check"), "--out", callback=out_folder),
        models: str = typer.Option("passive,threshold", "--models", help="comma-separated opponent strategies (models or engine strategies)"),
        policy: str = typer.Option("best_response", "--policy", help=POLICY_HELP),
        buckets: int = typer.Option(20, "--buckets", help="strength buckets of the best response (2-100)"),
        compare: bool = typer.Option(False, "--compare/--no-compare",
                                     help="also play the fixed policies on every cell's deals"),
        streets: str = typer.Option("flop,turn,river", "--streets"),
        opponents: str = typer.Option("1-5", "--opponents"),
        pots: str = typer.Option("40,120,300", "--pots"),
        positions: str = typer.Option("first", "--position", help="comma-separated: " + POSITION_HELP),
        position_pots: str = typer.Option("", "--position-pots",
                                          help="pots where positions after the first are played (default: all)"),
        more_opponents: str = typer.Option("", "--more-opponents",
                                           help="further opponent counts, played at --more-pots only"),
        more_pots: str = typer.Option("120", "--more-pots", help="the pots of --more-opponents"),
        hands: str = typer.Option("", "--hands", help="comma-separated classes (default: all)"),
        stderr: float = typer.Option(1.0, "--stderr", min=0.01, help="target SE of the gap per cell ($)"),
        max_trials: int = typer.Option(400_000, "--max-trials", min=1000),
        seed: int = typer.Option(0, "--seed", min=0),
        charts: bool = typer.Option(True, "--charts/--no-charts"),
        threads: ThreadsOpt = None,
        workers: WorkersOpt = None,
        scheduler: SchedulerOpt = None,
    ) -> None:
        """The grid: classes × streets × opponents × pots × models; tables, break-even, charts."""
        from ..guide.writers import write_fold_vs_check_study

        spec = grid_spec_from_options(deck=deck, models=models, policy=policy, streets=streets,
                                      opponents=opponents, pots=pots, hands=hands, stderr=stderr,
                                      max_trials=max_trials, seed=seed, buckets=buckets,
                                      compare=compare, rules=rule, bank=bank, level=level,
                                      positions=positions, more_opponents=more_opponents,
                                      more_pots=more_pots, position_pots=position_pots)
        with progress_bar() as update:
            write_fold_vs_check_study(out, spec, charts=charts, echo=typer.echo,
                                      backend=backend(threads, workers, scheduler), progress=update)

"""``dilemma settle HAND.json``: a referee for a table of real players (RULES §1.4-1.5)."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path

import typer


class SettleFormat(StrEnum):
    text = "text"
    json = "json"


def register(app: typer.Typer) -> None:
    @app.command("settle")
    def settle_cmd(
        record: Path = typer.Argument(..., help="hand record (JSON; format in docs/settlement.md)"),
        deck: str | None = typer.Option(
            None,
            "--deck",
            help="deck name (reference, plain, bare) or TOML path; default: the record's deck, else reference",
        ),
        rule: list[str] = typer.Option(
            [], "--rule", help="rule option name=value, e.g. --rule winners=any_pot (repeatable)"
        ),
        fmt: SettleFormat = typer.Option(SettleFormat.text, "--format", help="text or json"),
        line: int | None = typer.Option(
            None, "--line", min=1,
            help="a hand history (JSON lines, docs/hand_history.md): settle the hand on this line"),
    ) -> None:
        """Settle one finished hand: every step with its amounts and rule, then stacks and bank.

        With --line, RECORD is a hand history: the hand on that line is replayed by the referee
        (every action checked) and its end settled step by step."""
        from analysis.dilemma.settlement import check_expected, load_hand_record, settle_record

        if line is not None or record.suffix == ".jsonl":
            from analysis.engine.history import history_record

            hand = history_record(record, line or 1)
        else:
            hand = load_hand_record(record)
        result = settle_record(hand, deck, rule)
        problems = check_expected(result, hand.expected) if hand.expected else []
        if fmt is SettleFormat.json:
            data = result.to_dict()
            data["record"] = str(record)
            if hand.expected is not None:
                data["expected"] = {"matches": not problems, "differences": problems}
            typer.echo(json.dumps(data, indent=2))
        else:
            if hand.comment:
                typer.echo(hand.comment)
            typer.echo(result.to_text())
            if hand.expected is not None:
                typer.echo(
                    "expected result: matches"
                    if not problems
                    else "expected result: DIFFERS: " + "; ".join(problems)
                )
        if problems:
            raise typer.Exit(1)

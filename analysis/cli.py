"""The ``dilemma`` command line. Commands live in ``analysis/commands/``; each module
there has ``register(app)``. The CLI only parses options, calls the API, writes files.

Every way a command can fail ends here as one line on stderr: bad input (a
``LabError``, a click usage error, a file that cannot be read or written) is
``error: ...`` with exit code 2; Ctrl-C is ``interrupted: ...`` (what was saved)
with exit code 130. Never a traceback, never a usage box.
"""

from __future__ import annotations

import re
import signal
import sys
from collections.abc import Sequence

import typer
from typer.core import TyperGroup

from analysis.runners.interrupt import Interrupted
from evaluator.errors import LabError
from evaluator.jit_hooks import when_jit_loaded

from .commands import register_all

# click's exceptions, wherever this typer takes click from (typer >= 0.22 vendors it)
_click = sys.modules[typer.BadParameter.__module__]
UsageError, ClickException = _click.UsageError, _click.ClickException
NoArgsIsHelp = getattr(_click, "NoArgsIsHelpError", ())
Abort = (typer.Abort, *([_click.Abort] if hasattr(_click, "Abort") else []))

NOTHING_SAVED = ("stopped by Ctrl-C; every file written so far is whole, and the same command "
                 "run again resumes from what it saved (commands that keep no state start over)")


class Stopped(BaseException):
    """Ctrl-C, carried past typer's own handling (which would exit 130 silently)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _interrupt_in(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C behind ``exc``: itself, or the cause of a numba dispatcher's SystemError."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


class LabGroup(TyperGroup):
    """Turns a Ctrl-C inside any command into :class:`Stopped` with what was saved."""

    def invoke(self, ctx: typer.Context):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except (KeyboardInterrupt, SystemError) as exc:
            interrupt = _interrupt_in(exc)
            if interrupt is None:
                raise
            message = str(interrupt) if isinstance(interrupt, Interrupted) else NOTHING_SAVED
            raise Stopped(message) from None


app = typer.Typer(
    name="dilemma",
    help="Strategy lab for Dilemma Hold'em, with Texas Hold'em as the baseline.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=LabGroup,
)
register_all(app)


def _plain_help(typer_app: typer.Typer) -> None:
    """Click's plain help everywhere: it wraps long defaults and paths at any width instead
    of cutting them with '…' as rich's boxes do, and prints [brackets] as typed."""
    typer_app.rich_markup_mode = None
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            _plain_help(group.typer_instance)


_plain_help(app)


DASHED_VALUE = re.compile(r"^-[0-9.%(]")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _usage_error(exc: UsageError, args: list[str]) -> str:
    """A click/typer usage error as one line naming the command."""
    where = exc.ctx.command_path.removeprefix("dilemma").strip() if exc.ctx else ""
    message = _one_line(exc.format_message())
    name = getattr(exc, "option_name", None)
    dashed = [a for a in args if name and a.startswith(name) and DASHED_VALUE.match(a)]
    if dashed:  # "-10%(AA)" or "-5": a value, not an option
        message = (f"{dashed[0]!r} starts with '-', so it is read as an option; a weight is more "
                   "than 0% and at most 100%, a count is positive (to pass text that starts with "
                   "'-' anyway, put '--' before it)")
    return f"{where}: {message}" if where else message


def _install_compile_notice() -> None:
    from analysis import compile_notice

    compile_notice.install()


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    from analysis.runners.ledger import finished_runs

    when_jit_loaded(_install_compile_notice)  # numba is imported only by commands that compile
    try:
        with finished_runs() as runs:
            code = app(args=args, prog_name="dilemma", standalone_mode=False)
            code = code if isinstance(code, int) else 0
            if code == 0:  # the results are written: the resume files that fed them go
                runs.remove()
        return code
    except NoArgsIsHelp as exc:  # the help, already printed when typer formats it with rich
        if exc.format_message().strip():
            typer.echo(exc.format_message())
        return 0
    except UsageError as exc:
        typer.echo(f"error: {_usage_error(exc, args)} (see --help)", err=True)
        return 2
    except LabError as exc:
        typer.echo(f"error: {_one_line(str(exc))}", err=True)
        return 2
    except ClickException as exc:  # e.g. a file option that cannot be opened
        typer.echo(f"error: {_one_line(exc.format_message())}", err=True)
        return 2
    except (Stopped, Interrupted) as exc:
        typer.echo(f"interrupted: {exc}", err=True)
        return 130
    except (KeyboardInterrupt, *Abort):
        typer.echo(f"interrupted: {NOTHING_SAVED}", err=True)
        return 130
    except IsADirectoryError as exc:
        typer.echo(f"error: {exc.filename} is a folder, not a file", err=True)
        return 2
    except OSError as exc:
        where = f"cannot use {exc.filename}: " if exc.filename else ""
        typer.echo(f"error: {where}{_one_line(exc.strerror or str(exc))}", err=True)
        return 2


def main() -> None:
    """Entry point: bad input is one line on stderr and exit code 2, never a traceback."""
    code = run()
    # The work is over and its exit code known: a Ctrl-C while the interpreter shuts down
    # (when Python hands SIGINT back to the system) must not kill it silently with -2.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)


if __name__ == "__main__":
    main()

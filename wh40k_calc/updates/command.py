"""``calc data update | status | reset``: the commands, thin (parse, call, render).

Every failure is one ``error:`` line on the standard error and exit code 1 (Ctrl-C: one line
and 130); the previous data is then still in use. The progress bar of an update's downloads is
drawn on the standard error, only when that is a terminal.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from ..optgroup import once_command_class
from ..options import fail, named, nonblank
from ..request import COMMAND_SETTINGS

app = typer.Typer(
    name="data",
    no_args_is_help=True,
    help="The edition-11 datasheets: update them from the game-datacards data, see which "
    "data each faction uses, go back to the shipped data.",
    **COMMAND_SETTINGS,
)


def _home():
    """The user data folder (``WH40K_CALC_HOME`` or the platform's)."""
    from ..catalog import user_home
    from ..sheetnames import DatasheetError

    try:
        return user_home()
    except DatasheetError as exc:
        raise fail(str(exc)) from None


def _note(text: str) -> None:
    """``note: TEXT`` on the standard error (control characters escaped)."""
    from ..terminal import escape_controls

    typer.echo(f"note: {escape_controls(text)}", err=True)


class _Bar:
    """The downloads' progress bar (rich, on the standard error, gone when done): the file
    being downloaded, the files done of all, its bytes."""

    def __init__(self, stream: Any) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[files]}"),
            DownloadColumn(),
            console=Console(file=stream),
            transient=True,
        )
        self.task = self.bar.add_task("downloading", total=None, files="")
        self.bar.start()

    def __call__(self, name: str, done: int, total: int, got: int, expected: int | None) -> None:
        if done >= total:  # downloaded: the datasheets are generated next
            self.bar.update(self.task, description="generating the datasheets", files="")
            return
        self.bar.update(
            self.task,
            description=name,
            files=f"{done + 1}/{total} files",
            completed=got,
            total=expected,
        )

    def stop(self) -> None:
        self.bar.stop()


def _bar() -> _Bar | None:
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        tty = False
    return _Bar(sys.stderr) if tty else None


@app.command("update", cls=once_command_class())
def update_command(
    source: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="URL|DIR",
            help="Where the faction files are: an http(s) address of a folder of them, or a "
            "folder you downloaded (default: the game-datacards data's own address).",
            callback=nonblank("address or folder"),
        ),
    ] = None,
    factions: Annotated[
        list[str] | None,
        typer.Option(
            "--faction",
            metavar="NAME",
            help="Only this faction's file (repeatable; our name, the data's, or the file's: "
            "orks, 'Adeptus Astartes', space_marines).",
            callback=named,
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Replace updated data that has files you changed or added, take data older "
            "than the data in use, take faction files with datasheets that cannot be read "
            "(without those), and take an update that removes more than half of a faction's "
            "datasheets.",
        ),
    ] = False,
) -> None:
    """Download the newest edition-11 faction files, check them, generate their datasheets
    into the user data folder and use them from now on; print what changed.

    Atomic: any failure leaves the data in use as it was.
    """
    from . import UpdateError
    from .render import update_lines
    from .run import update
    from .sources import parse_source

    home = _home()
    bar = None
    try:
        parsed = parse_source(source)
        bar = _bar() if parsed.url is not None else None
        outcome = update(parsed, home, factions or [], force, progress=bar, on_note=_note)
    except UpdateError as exc:
        raise fail(f"{exc}; the data in use is unchanged") from None
    except KeyboardInterrupt:
        raise fail("interrupted; the data in use is unchanged", code=130) from None
    finally:
        if bar is not None:
            bar.stop()
    for line in update_lines(outcome):
        typer.echo(line)


@app.command("status", cls=once_command_class())
def status_command(
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print it as JSON (each faction's data and the folders)."),
    ] = False,
) -> None:
    """Which edition-11 data each faction uses (shipped or updated), its version, date and
    datasheets, and where it is."""
    from . import UpdateError
    from .status import data_status, status_json

    try:
        status = data_status(_home())
    except UpdateError as exc:
        raise fail(str(exc)) from None
    if as_json:
        import json

        sys.stdout.write(json.dumps(status_json(status), indent=1, ensure_ascii=False) + "\n")
        return
    from ..terminal import output_console
    from .render import print_status

    print_status(status, output_console())


@app.command("reset", cls=once_command_class())
def reset_command(
    force: Annotated[
        bool,
        typer.Option("--force", help="Remove it even with files you changed or added in it."),
    ] = False,
) -> None:
    """Remove the updated edition-11 data: the shipped data is used again.

    Refused without --force when the updated data has files that calc data update did not
    write as they are (ones you changed or added).
    """
    from . import UpdateError
    from .reset import reset

    try:
        done = reset(_home(), force, on_note=_note)
    except UpdateError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        raise fail("interrupted; the data in use is unchanged", code=130) from None
    from .render import wrapped

    typer.echo(wrapped(done.message))


def group() -> Any:
    """The click group ``calc data`` runs."""
    command = typer.main.get_group(app)
    command.name = "data"
    return command

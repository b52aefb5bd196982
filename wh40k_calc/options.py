"""Command-line pieces shared by ``calc shoot``/``fight`` and ``calc compare``: the choice
enums, the condition flags and ``--effect``/``--datasheets`` options, and the error exit."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer


class Method(StrEnum):
    """--method."""

    exact = "exact"
    sample = "sample"
    both = "both"


class Reroll(StrEnum):
    """--reroll-hits / --reroll-wounds."""

    ones = "ones"
    fails = "fails"
    all = "all"


class SaveReroll(StrEnum):
    """--reroll-saves."""

    ones = "ones"
    fails = "fails"


class Edition(StrEnum):
    """--edition."""

    ten = "10"
    eleven = "11"


class PrecisionTarget(StrEnum):
    """--precision-target."""

    leader = "leader"
    bodyguard = "bodyguard"


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``error: message`` on stderr and return the Exit to raise."""
    from rich.console import Console

    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"[bold red]error:[/bold red] {message}", markup=True
    )
    return typer.Exit(code)


def catalog(datasheets: list[str] | list[Path] | None):
    """The datasheet catalog for ``--datasheets`` folders (and the environment).

    Raises:
        DatasheetError: a folder does not exist, is a file, or is given as an empty name.
    """
    from .catalog import Catalog
    from .datasheet import DatasheetError

    dirs = []
    for d in datasheets or []:
        if not str(d).strip():
            raise DatasheetError("--datasheets: empty folder name")
        dirs.append(Path(d))
    return Catalog(dirs)


DatasheetsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--datasheets",
        metavar="DIR",
        help="Extra folder of datasheet YAML files (repeatable; also WH40K_CALC_DATASHEETS, "
        "':'-separated). A file named like a shipped one wins.",
    ),
]
EffectOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--effect",
        "-e",
        metavar="NAME",
        help="Named rule or stratagem (repeatable; `calc effects`). Prefix 'attacker:' or "
        "'target:' to pick a side.",
    ),
]


def _flag(name: str, text: str):
    return Annotated[bool, typer.Option(name, help=text)]


HalfRange = _flag("--half-range", "Target within half range (Rapid Fire, Melta).")
Stationary = _flag("--stationary", "Attacker Remained Stationary (Heavy).")
Charged = _flag("--charged", "Attacker made a Charge move this turn (Lance, charge effects).")
Cover = _flag("--cover", "Target has the Benefit of Cover.")
Objective = _flag("--objective", "Target within range of an objective marker.")
Overwatch = _flag("--overwatch", "Snap shooting: only unmodified 6s hit.")
Indirect = _flag(
    "--indirect", "Target not visible: only [INDIRECT FIRE] weapons, -1 to hit, target in cover."
)
Beyond12 = _flag("--beyond-12", 'Target more than 12" away (Conversion).')
Disembarked = _flag("--disembarked", "Attacker disembarked from a TRANSPORT this turn.")


# Names across factions and the attacker's damaged profile (issue 9)
FactionOpt = Annotated[
    str | None,
    typer.Option(
        "--faction",
        metavar="FACTION",
        help="The attacker's faction, for names several factions use (also WH40K_CALC_FACTIONS, "
        "a comma-separated preference list).",
    ),
]
TargetFactionOpt = Annotated[
    str | None,
    typer.Option(
        "--target-faction", metavar="FACTION", help="The target's faction (as --faction)."
    ),
]
WoundsLeftOpt = Annotated[
    int | None,
    typer.Option(
        "--wounds-left",
        min=1,
        help="Wounds the (single-model) attacker has left: its damaged profile applies at or "
        "below the datasheet's threshold.",
    ),
]

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
Stationary = _flag(
    "--stationary",
    "[HEAVY] +1 to hit. Edition 10: the attacker Remained Stationary; edition 11: it is "
    'unengaged, was not set up this turn and no model moved more than 3".',
)
Charged = _flag("--charged", "Attacker made a Charge move this turn (Lance, charge effects).")
Cover = _flag(
    "--cover",
    "Target has the Benefit of Cover against ranged attacks. Edition 10: +1 to armour saves; "
    "edition 11: the attack's BS worsened by 1 (no save bonus).",
)
Objective = _flag("--objective", "Target within range of an objective marker.")
Overwatch = _flag("--overwatch", "Snap shooting: only unmodified 6s hit.")
Indirect = _flag(
    "--indirect",
    "Edition 10 only: target not visible: only [INDIRECT FIRE] weapons (not [TORRENT]), -1 to "
    "hit, unmodified 1-3 fail, target in cover.",
)
PlungingFire = _flag(
    "--plunging-fire",
    "Edition 11: plunging fire: ranged BS improved by 1 (not with an AIRCRAFT attacker or target).",
)
Beyond12 = _flag("--beyond-12", 'Target more than 12" away (Conversion).')
Disembarked = _flag("--disembarked", "Attacker disembarked from a TRANSPORT this turn.")

AddAbilityOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--add-ability",
        metavar="'[WEAPON:] ABILITY'",
        help="Give weapons an ability for this activation: 'lethal hits' (every weapon) or "
        "'Deffgun: sustained hits 1' (repeatable; the better value is kept).",
    ),
]
TargetStealthOpt = Annotated[
    bool,
    typer.Option(
        "--target-stealth",
        help="The target has Stealth (edition 10: -1 to ranged Hit rolls; edition 11: the "
        "Benefit of Cover against ranged attacks).",
    ),
]

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

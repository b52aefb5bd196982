"""The command-line options of ``calc shoot``/``fight`` and ``calc compare``, declared once.

Options that travel together are one typed group each (:mod:`wh40k_calc.optgroup`):
:class:`AttackerOptions` (the attacking unit and the attacker's choices),
:class:`TargetOptions`, :class:`ConditionOptions` (the battlefield condition flags),
:class:`ModifierOptions` (modifiers and re-rolls) and :class:`EngineOptions` (edition, method,
trials, seed, datasheet folders, JSON). ``calc shoot``, ``calc fight`` and ``calc compare`` take
the same groups, and each group builds its part of the Selection in one place. Also here: the
choice enums, ``--effect``, the error exit and the catalog for ``--datasheets``.

Only typer (and msgspec, for the groups) is imported at module level: this module is read on
every start-up. (No ``from
__future__ import annotations`` here: the groups' annotations are read at start-up, and text
annotations would have to be evaluated again.)
"""

from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from msgspec import Struct

from .optgroup import OptionGroup

if TYPE_CHECKING:
    from .selection import Conditions, Modifiers

DEFAULT_EDITION = "10"
DEFAULT_METHOD = "exact"
DEFAULT_SEED = 40_000
MIN_TRIALS = 2  # a standard error needs two trials (one trial's is undefined, not 0)
MAX_TRIALS = 100_000_000


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


def exit_code(exc: BaseException) -> int:
    """The exit code of a refused command: 2 for a usage error (what is wrong whatever the data
    says: an option's form, range or company — ``selection.UsageError``, or an error marked
    ``usage``), 1 for what is found wrong by looking in the data."""
    from .selection import UsageError

    return 2 if isinstance(exc, UsageError) or getattr(exc, "usage", False) else 1


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``error: message`` on stderr and return the Exit to raise. ``message`` is shown
    as written: names from files in it are not read as rich markup; what the player typed,
    quoted in it, is cut to 80 characters (``wording.shorten_quoted``); control characters
    (in a folder's path, say) are shown escaped (``\\x1b``), never obeyed by the terminal."""
    from rich.console import Console
    from rich.text import Text

    from .terminal import escape_controls
    from .wording import shorten_quoted

    Console(stderr=True, highlight=False, soft_wrap=True).print(
        Text.assemble(("error:", "bold red"), " ", escape_controls(shorten_quoted(message)))
    )
    return typer.Exit(code)


def nonblank(what: str) -> Any:
    """The typer ``callback`` of options whose every value is a ``what`` ("name", "folder"):
    see :func:`named`."""

    def check(value: Any) -> Any:
        for text in [value] if isinstance(value, str) else value or ():
            if not str(text).strip():
                raise typer.BadParameter(f"no {what} given ({text!r})")
            if what == "name" and not str(text).isprintable():
                _refuse_controls(str(text))
        return value

    return check


def _refuse_controls(text: str) -> None:
    """Refuse a name holding a control character (ESC, a newline, a bidirectional override:
    no datasheet, faction or effect name may hold one, ``datasheet.holds_control``), shown escaped,
    rather than match it with the character left out.

    Raises:
        typer.BadParameter: ``text`` holds one (a usage error, exit code 2).
    """
    from .datasheet import holds_control
    from .terminal import escape_controls

    if holds_control(text):
        raise typer.BadParameter(
            f"'{escape_controls(text)}' holds a control character, which no name holds"
        )


def named(value: Any) -> Any:
    """The value of a name option or argument (a unit, a Leader, a faction, a loadout, an
    effect, a weapon; ``str``, a list of them, or None when not given), returned as it is: a
    name given empty or blank (``--target-leader ''``) is a usage error whatever the data
    says (exit code 2, as click's own; in a ``calc sequence`` step or an exchange side too).
    Used as the typer ``callback`` of those options (``--datasheets``: the same for a folder).

    Raises:
        typer.BadParameter: an empty or blank name.
    """
    return _name_check(value)


_name_check = nonblank("name")
_folder_check = nonblank("folder")


EDITION_HELP = (
    "Rules edition, and its datasheets (default: WH40K_CALC_EDITION, else the config file's "
    "'edition', else 10)."
)


def warning(message: str) -> None:
    """Print ``warning: message`` on stderr, before the work it is about (``--trials`` far
    beyond the sampler's time budget), as :func:`fail` prints an error
    (:func:`~wh40k_calc.terminal.warning`)."""
    from .terminal import warning as print_warning

    print_warning(message)


def catalog(datasheets: Sequence[str | Path] | None, edition: str = "10"):
    """The datasheet catalog for ``--datasheets`` folders (and the environment), looking in
    ``edition``'s data; a faction in ``WH40K_CALC_FACTIONS`` that no datasheet has is warned
    about on stderr.

    Raises:
        DatasheetError: a folder does not exist, is a file, or is given as an empty name.
    """
    from .catalog import Catalog
    from .sheetnames import DatasheetError

    dirs = []
    for d in datasheets or []:
        if not str(d).strip():
            raise DatasheetError("--datasheets: empty folder name")
        dirs.append(Path(d))
    cat = Catalog(dirs, edition=edition)
    if cat.preferences:
        _warn(cat.preference_warnings())
    return cat


def _warn(lines: list[str]) -> None:
    """``warning: LINE`` on stderr for each line (control characters escaped)."""
    if not lines:
        return
    from rich.console import Console
    from rich.text import Text

    from .terminal import escape_controls

    console = Console(stderr=True, highlight=False, soft_wrap=True)
    for line in lines:
        console.print(Text.assemble(("warning:", "yellow"), " ", escape_controls(line)))


DatasheetsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--datasheets",
        metavar="DIR",
        help="Extra folder of datasheet YAML files (repeatable; also WH40K_CALC_DATASHEETS, "
        "':'-separated). A file named like a shipped one wins.",
        callback=_folder_check,
    ),
]
EditionOpt = Annotated[Edition | None, typer.Option("--edition", help=EDITION_HELP)]
EffectOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--effect",
        "-e",
        metavar="NAME",
        help="Named rule or stratagem (repeatable; `calc effects`). Prefix 'attacker:' or "
        "'target:' to pick a side.",
        callback=named,
    ),
]


def _flag(name: str, text: str) -> Any:
    """typer's information for a flag option (``Annotated[bool, _flag(...)]``)."""
    return typer.Option(name, help=text)


AddAbilityOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--add-ability",
        metavar="'[WEAPON:] ABILITY'",
        help="Give weapons an ability for this activation: 'lethal hits' (every weapon), "
        "'Deffgun: sustained hits 1', or against some targets only: 'lethal hits: vehicle' "
        "(repeatable; the better value is kept).",
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
        callback=named,
    ),
]
TargetFactionOpt = Annotated[
    str | None,
    typer.Option(
        "--target-faction",
        metavar="FACTION",
        help="The target's faction (as --faction).",
        callback=named,
    ),
]
WoundsLeftOpt = Annotated[
    int | None,
    typer.Option(
        "--wounds-left",
        metavar="N",
        min=1,
        help="Wounds the (single-model) attacker has left: its damaged profile applies at or "
        "below the datasheet's threshold.",
    ),
]

# ---------------------------------------------------------------------------------------------
# The groups


class AttackerOptions(OptionGroup, Struct, frozen=True):
    """The attacking unit and the attacker's choices for the activation: datasheet name,
    size, named loadout or explicit weapons ('NAME xN'), attached Leaders, weapon abilities
    added for this activation, faction (for names several factions use), wounds left (a
    damaged single model), weapon order, where [PRECISION] attacks go."""

    attacker: Annotated[
        str,
        typer.Argument(
            metavar="ATTACKER",
            help="Attacking unit (datasheet name or file stem, e.g. lootas).",
            callback=named,
        ),
    ]
    models: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="Attacking unit size: a listed size (default: the smallest), or any other "
            "number up to the largest for a damaged unit.",
        ),
    ] = None
    loadout: Annotated[
        str | None,
        typer.Option(
            metavar="NAME",
            help="Named loadout of the attacker ('default' = as equipped).",
            callback=named,
        ),
    ] = None
    weapon: Annotated[
        list[str] | None,
        typer.Option(
            "--weapon",
            metavar="'NAME xN'",
            help="Exactly which weapons attack: 'NAME xN' (repeatable).",
            callback=named,
        ),
    ] = None
    leader: Annotated[
        list[str] | None,
        typer.Option(
            "--leader",
            metavar="NAME",
            help="Leader (edition 11: or Support) attached to the attacking unit (repeatable).",
            callback=named,
        ),
    ] = None
    add_ability: AddAbilityOpt = None
    faction: FactionOpt = None
    wounds_left: WoundsLeftOpt = None
    order: Annotated[
        str | None, typer.Option(metavar="'A,B'|best", help="Weapon order: 'A,B,...' or 'best'.")
    ] = None
    precision_target: Annotated[
        str | None,
        typer.Option(
            metavar="leader|bodyguard|NAME",
            help="Where [PRECISION] attacks go in an Attached unit: its CHARACTER models (the "
            "default: leader), the Bodyguard, or the CHARACTER model named first.",
            callback=named,
        ),
    ] = None


class TargetOptions(OptionGroup, Struct, frozen=True):
    """The target unit: datasheet name, size (fewer models for a damaged unit), named loadout,
    attached Leaders, allocation order, the wounded model's wounds left, Stealth whatever its
    datasheet says, faction."""

    target: Annotated[
        str, typer.Option("--target", "-t", metavar="NAME", help="Target unit.", callback=named)
    ]
    target_models: Annotated[
        int | None,
        typer.Option(
            metavar="N", help="Target size: a listed size, or fewer models for a damaged unit."
        ),
    ] = None
    target_loadout: Annotated[
        str | None,
        typer.Option(metavar="NAME", help="Named loadout of the target.", callback=named),
    ] = None
    target_leader: Annotated[
        list[str] | None,
        typer.Option(
            "--target-leader",
            metavar="NAME",
            help="Leader (edition 11: or Support) attached to the target (repeatable).",
            callback=named,
        ),
    ] = None
    allocation: Annotated[
        str | None,
        typer.Option(
            metavar="'A,B'|best",
            help="Target's model allocation order, e.g. 'Boy,Boss Nob'; 'best' (edition 11's "
            "default): the defender's best order for each weapon's number of save rolls.",
        ),
    ] = None
    target_wounds_left: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="The target's wounded model (the one allocated first) has N wounds left, e.g. "
            "a damaged Rhino.",
        ),
    ] = None
    target_stealth: TargetStealthOpt = False
    target_faction: TargetFactionOpt = None


class ConditionOptions(OptionGroup, Struct, frozen=True):
    """The battlefield condition flags (:class:`wh40k_calc.selection.Conditions`)."""

    half_range: Annotated[
        bool, _flag("--half-range", "Target within half range (Rapid Fire, Melta).")
    ] = False
    stationary: Annotated[
        bool,
        _flag(
            "--stationary",
            "[HEAVY] +1 to hit. Edition 10: the attacker Remained Stationary; edition 11: it is "
            'unengaged, was not set up this turn and no model moved more than 3".',
        ),
    ] = False
    charged: Annotated[
        bool, _flag("--charged", "Attacker made a Charge move this turn (Lance, charge effects).")
    ] = False
    cover: Annotated[
        bool,
        _flag(
            "--cover",
            "Target has the Benefit of Cover against ranged attacks. Edition 10: +1 to armour "
            "saves; edition 11: the attack's BS worsened by 1 (no save bonus).",
        ),
    ] = False
    objective: Annotated[
        bool, _flag("--objective", "Target within range of an objective marker.")
    ] = False
    overwatch: Annotated[bool, _flag("--overwatch", "Snap shooting: only unmodified 6s hit.")] = (
        False
    )
    indirect: Annotated[
        bool,
        _flag(
            "--indirect",
            "Target not visible: only [INDIRECT FIRE] weapons (not [TORRENT]) shoot, the target in "
            "cover. Edition 10: -1 to hit, unmodified 1-3 fail; edition 11 (indirect shooting): "
            "unmodified 1-5 fail (1-3 with --spotted), no Hit re-rolls.",
        ),
    ] = False
    beyond_12: Annotated[bool, _flag("--beyond-12", 'Target more than 12" away (Conversion).')] = (
        False
    )
    disembarked: Annotated[
        bool, _flag("--disembarked", "Attacker disembarked from a TRANSPORT this turn.")
    ] = False
    plunging_fire: Annotated[
        bool,
        _flag(
            "--plunging-fire",
            "Edition 11: plunging fire: ranged BS improved by 1 (not with an AIRCRAFT attacker or "
            "target).",
        ),
    ] = False
    spotted: Annotated[
        bool,
        _flag(
            "--spotted",
            "Edition 11, with --indirect: the attacker Remained Stationary this turn and the "
            "target is visible to a friendly unit: unmodified 1-3 fail instead of 1-5.",
        ),
    ] = False
    engaged: Annotated[
        bool,
        _flag(
            "--engaged",
            "The attacker is within Engagement Range of enemy units: only its Pistols "
            "([CLOSE-QUARTERS]) shoot, unless it is a MONSTER/VEHICLE, whose other ranged "
            "weapons take -1 to hit (edition 11: close-quarters shooting, 10.06).",
        ),
    ] = False
    target_engaged: Annotated[
        bool,
        _flag(
            "--target-engaged",
            "The target is within Engagement Range of a unit of the attacker's army (with "
            "--engaged: of the attacker): no [BLAST]; edition 11: -1 to hit an engaged "
            "MONSTER/VEHICLE (17.03).",
        ),
    ] = False
    advanced: Annotated[
        bool,
        _flag(
            "--advanced",
            "The attacker made an Advance move this turn: only its [ASSAULT] weapons shoot, "
            "with no Hit-roll penalty (edition 11: assault shooting, 10.05). Not with --engaged.",
        ),
    ] = False

    def build(self) -> "Conditions":
        """The selection's Conditions (same field names)."""
        from msgspec.structs import asdict

        from .selection import Conditions

        return Conditions(**asdict(self))


class ModifierOptions(OptionGroup, Struct, frozen=True):
    """Modifiers and re-rolls anyone can set (:class:`wh40k_calc.selection.Modifiers`):
    attacker side first, then the target's saves, Feel No Pain and Damage."""

    # the ranges are Modifiers' (selection._RANGES): out of range is a usage error (exit 2)
    hit_mod: Annotated[
        int,
        typer.Option(
            metavar="N", min=-6, max=6, help="Hit roll modifier (capped at ±1 with the others)."
        ),
    ] = 0
    wound_mod: Annotated[
        int, typer.Option(metavar="N", min=-6, max=6, help="Wound roll modifier (capped at ±1).")
    ] = 0
    ap_mod: Annotated[
        int,
        typer.Option(
            metavar="N",
            min=-6,
            max=6,
            help="Improve AP by N (1: AP-1 becomes AP-2); a negative N worsens it (AP never "
            "goes above 0).",
        ),
    ] = 0
    damage_mod: Annotated[
        int, typer.Option(metavar="N", min=-20, max=20, help="Add N to each Damage roll.")
    ] = 0
    crit_hit: Annotated[
        int | None,
        typer.Option(metavar="N", min=2, max=6, help="Critical Hit on an unmodified N+."),
    ] = None
    crit_wound: Annotated[
        int | None,
        typer.Option(metavar="N", min=2, max=6, help="Critical Wound on an unmodified N+."),
    ] = None
    reroll_hits: Annotated[
        Reroll | None, typer.Option(case_sensitive=False, help="Re-roll Hit rolls.")
    ] = None
    reroll_wounds: Annotated[
        Reroll | None, typer.Option(case_sensitive=False, help="Re-roll Wound rolls.")
    ] = None
    reroll_damage: Annotated[
        bool,
        typer.Option(
            "--reroll-damage", help="Re-roll a Damage roll when that raises expected damage."
        ),
    ] = False
    invuln: Annotated[
        int | None,
        typer.Option(metavar="N", min=2, max=6, help="Target invulnerable save N+."),
    ] = None
    fnp: Annotated[
        int | None, typer.Option(metavar="N", min=2, max=6, help="Target Feel No Pain N+.")
    ] = None
    fnp_mortal: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            min=2,
            max=6,
            help="Target Feel No Pain N+ against mortal wounds only.",
        ),
    ] = None
    save_mod: Annotated[
        int,
        typer.Option(metavar="N", min=-6, max=6, help="Modifier to the target's saving throws."),
    ] = 0
    reroll_saves: Annotated[
        SaveReroll | None,
        typer.Option(case_sensitive=False, help="Target re-rolls saving throws."),
    ] = None
    damage_reduction: Annotated[
        int,
        typer.Option(
            metavar="N", min=0, max=20, help="Subtract N from each Damage (never below 1)."
        ),
    ] = 0
    half_damage: Annotated[
        bool, typer.Option("--half-damage", help="Halve Damage (before adding or subtracting).")
    ] = False

    def build(self, target_stealth: bool = False) -> "Modifiers":
        """The selection's Modifiers (same field names; choices as their text), with
        ``target_stealth`` from the target options (``--target-stealth`` is a target option).

        Raises:
            SelectionError: a value out of range (named with its option).
        """
        from msgspec.structs import asdict

        from .selection import Modifiers

        values: dict[str, Any] = {
            k: (v.value if isinstance(v, StrEnum) else v) for k, v in asdict(self).items()
        }
        return Modifiers(**values, target_stealth=target_stealth)


class EngineOptions(OptionGroup, Struct, frozen=True):
    """How to resolve and where to look: rules edition, engine, sampler trials and seed,
    datasheet folders, JSON output. None means "not given": the default (or, in ``calc
    compare``, a batch file's value)."""

    edition: Annotated[Edition | None, typer.Option(help=EDITION_HELP)] = None
    method: Annotated[
        Method | None,
        typer.Option(case_sensitive=False, help="exact (default), sample (Monte Carlo) or both."),
    ] = None
    trials: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            min=MIN_TRIALS,
            max=MAX_TRIALS,
            help="Sampler trials, run exactly, 2 or more (default 100000, or fewer if they would "
            "take more than a few seconds).",
        ),
    ] = None
    seed: Annotated[
        int | None,
        typer.Option(metavar="N", min=0, help="Sampler seed (0 or more; default 40000)."),
    ] = None
    datasheets: DatasheetsOpt = None
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON contract object.")] = False
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="Also show what each rule applied adds (exact Shapley values of models "
            "destroyed, wounds lost and damage) and where the damage went (wasted damage).",
        ),
    ] = False

    @property
    def edition_value(self) -> str:
        """The edition to use: --edition, else WH40K_CALC_EDITION, else the config file's,
        else 10 (:func:`wh40k_calc.edition.choose`).

        Raises:
            EditionError: the environment variable or the config file gives another value.
        """
        return self.edition_choice.edition

    @property
    def edition_choice(self):
        """The edition to use and where it comes from (:class:`wh40k_calc.edition.
        EditionChoice`).

        Raises:
            EditionError: the environment variable or the config file gives another value.
        """
        from .edition import choose

        return choose(self.edition.value if self.edition else None)

    @property
    def method_value(self) -> str:
        """The method to use ("exact" unless given)."""
        return self.method.value if self.method else DEFAULT_METHOD

    def sampler_given(self) -> tuple[str, ...]:
        """The sampler options given on the command line (``--trials``, ``--seed``), for the
        note when only the exact engine runs (:func:`wh40k_calc.resolve.sampler_unused_note`)."""
        given = (("--trials", self.trials), ("--seed", self.seed))
        return tuple(name for name, value in given if value is not None)

    @property
    def seed_value(self) -> int:
        """Sampler seed (40,000 unless given)."""
        return DEFAULT_SEED if self.seed is None else self.seed

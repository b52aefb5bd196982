"""The shape of a game-datacards faction file and of each of its datasheets, as the edition-11
importer reads them, checked before anything is converted (``msgspec`` does the checking).

The check is what makes an importer run safe on any file (a ``calc data update`` from a
download or a folder, ``make datasheets-11`` from the shipped data): a field of the wrong type
(a list where a text is read, a number where a list is), or a number the game has that is not
one or is out of its range (a Boy's ``"t": "abc"``, ten Boyz for ``"cost": "-5"`` points), is
one :class:`~.export.ImportFailure` naming the file, the datasheet and the field (``orks.json:
Boyz: stats[0].t is 'abc', not a whole number of 1 or more``), never a traceback further in
nor a value quietly dropped. The importer calls :func:`check_sheet` first and so reads only
values of the kinds below; ``calc data update`` refuses a file with such a datasheet, and
``make datasheets-11`` lists it as refused.

What is checked is only what the importer reads. Unknown fields are ignored (the data has many
the importer does not use: fluff, colours, stratagems). A text is a plain string or a
multilingual object of strings (``{"en": ...}``). A list the importer reads as "none" when
absent may also be ``null``. The numbers, as a JSON number or a text (the data writes texts):

* a statline: Toughness and Wounds a whole number of 1 or more, Leadership and Save a roll
  (``7+``; a Save may be ``-``), Move a distance (``6"``) or ``-``, OC a whole number or ``-``;
* a weapon profile: a range (``24"``, ``Melee``, or ``N/A``/``-`` for none), Attacks, Strength
  and Damage a whole number of 1 or more or dice (``D6+1``, ``2D6``), all four there; the skill
  a roll or ``N/A``/``-``, AP ``0``, ``-N`` or ``-``. A profile of that kind the format still
  cannot hold (a random Strength, no range) is not an error: it is skipped and listed as not
  modelled, as for the shipped data;
* points: each line's ``cost`` and ``models``, both there, whole numbers of 1 or more (no unit
  is free or has no models); ``additionalCost``, where there is one (not ``null``), both its
  ``cost`` and its ``afterSelections``, whole numbers of 1 or more;
* an invulnerable save (``abilities.invul.value``): a roll from ``2+`` to ``6+``, ``-`` or
  none (its note may give the save instead).

A number must also be within the datasheet format's bounds (:mod:`wh40k_calc.datasheet`'s
own types: a Toughness from 1 to 20, an OC from 0 to 100, a Strength from 1 to 40, an AP from
-6 to 0, points up to 100,000 ...), checked here too so that the message names the data's
field (``stats[0].t is '25', out of range (1 to 20)``) rather than the converted datasheet's.
A range beyond the format's 999" (``MAX_RANGE``) is a weapon the format cannot hold (not
modelled), not an error.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, get_args

import msgspec

from .. import datasheet as fmt
from .export import ImportFailure

Text = str | dict[str, str]

# a whole number of 1 or more, with a trailing '+' or '"' as the data writes some, and a
# footnote mark '*' the importer warns about
_POSITIVE = r"^\s*0*[1-9]\d*\s*[+\"*]?\s*$"
_ROLL = r"^\s*0*[1-9]\d*\s*\+?\s*$"  # 7+
_ROLL_OR_NONE = r"^\s*(0*[1-9]\d*\s*\+?|-)?\s*$"  # a Save ('' or '-': none)
_WHOLE = r"^\s*0*[1-9]\d*\s*$"
_NUMBER_OR_NONE = r"^\s*(\d+\s*\+?\s*\"?|-)?\s*$"  # M (6", 20+"), OC
_RANGE = r"(?i)^\s*(0*[1-9]\d*\s*\"?|melee|n/a|-)\s*$"
_DICE = r"(?i)^\s*(0*[1-9]\d*|([1-9]\d*)?\s*D\s*[1-9]\d*(\s*\+\s*\d+)?)\s*$"  # 3, D6+1
_SKILL = r"(?i)^\s*(0*[1-9]\d*\s*\+?|n/a|-)?\s*$"
_AP = r"^\s*(0+|-\s*\d+|-)?\s*$"  # 0, -1 (or - for none)
_INVUL = r"^\s*([2-6]\s*\+?|-)?\s*$"

_ONE_UP = "a whole number of 1 or more"
_DICE_SAID = f"not {_ONE_UP} or dice (D6+1)"
# what each value must be, by field name (as messages say it)
_SAID = {
    "t": f"not {_ONE_UP}",
    "w": f"not {_ONE_UP}",
    "ld": "not a roll (7+)",
    "sv": "not a roll (3+) or '-'",
    "m": "not a distance (6\") or '-'",
    "oc": "not a whole number or '-'",
    "range": 'not a range (24", Melee, N/A)',
    "attacks": _DICE_SAID,
    "strength": _DICE_SAID,
    "damage": _DICE_SAID,
    "skill": "not a roll (3+) or N/A",
    "ap": "not an AP (0, -1, ...)",
    "cost": "not a number of points (a whole number, 1 or more)",
    "models": "not a number of models (a whole number, 1 or more)",
    "afterSelections": f"not {_ONE_UP}",
    "value": "not an invulnerable save (2+ to 6+) or '-'",
}


_One = Annotated[int, msgspec.Meta(ge=1)]  # a value written as a JSON number: 1 or more
Whole = _One | Annotated[str, msgspec.Meta(pattern=_WHOLE)]  # points, numbers of models
Positive = _One | Annotated[str, msgspec.Meta(pattern=_POSITIVE)]  # T, W
Roll = _One | Annotated[str, msgspec.Meta(pattern=_ROLL)]  # Ld
RollOrNone = _One | Annotated[str, msgspec.Meta(pattern=_ROLL_OR_NONE)]  # Sv
NumberOrNone = (
    Annotated[int, msgspec.Meta(ge=0)] | Annotated[str, msgspec.Meta(pattern=_NUMBER_OR_NONE)]
)  # M, OC
Range = _One | Annotated[str, msgspec.Meta(pattern=_RANGE)]
Dice = _One | Annotated[str, msgspec.Meta(pattern=_DICE)]  # A, S, D
Skill = _One | Annotated[str, msgspec.Meta(pattern=_SKILL)]
ArmourPen = Annotated[int, msgspec.Meta(le=0)] | Annotated[str, msgspec.Meta(pattern=_AP)]
InvulValue = Annotated[int, msgspec.Meta(ge=2, le=6)] | Annotated[str, msgspec.Meta(pattern=_INVUL)]


class _Shape(msgspec.Struct, kw_only=True):
    """Unknown fields are ignored; a field with a default may be absent (the importer assumes
    that default), one without must be there."""


class Stat(_Shape, kw_only=True):
    name: Text = ""
    m: NumberOrNone = ""
    t: Positive
    sv: RollOrNone = ""
    w: Positive
    ld: Roll
    oc: NumberOrNone = ""


class Profile(_Shape, kw_only=True):
    name: Text = ""
    range: Range
    attacks: Dice
    skill: Skill = ""
    strength: Dice
    ap: ArmourPen = ""
    damage: Dice
    keywords: list[Text] | None = None


class Weapon(_Shape):
    profiles: list[Profile] | None = None


class Points(_Shape, kw_only=True):
    cost: Whole
    models: Whole
    keyword: Text | None = None
    detachment: Text | None = None


class Named(_Shape):
    name: Text | None = None


class Described(_Shape):
    name: Text | None = None
    description: Text | None = None


class Primarch(_Shape):
    name: Text | None = None
    abilities: list[Described] | None = None


class Invul(_Shape):
    value: InvulValue | None = None
    info: Text | None = None


class Damaged(_Shape):
    range: Text | None = None
    description: Text | None = None


class Abilities(_Shape):
    core: list[Named] = []
    faction: list[Named] = []
    other: list[Described] | None = None
    wargear: list[Described] | None = None
    special: list[Described] | None = None
    primarch: list[Primarch] | None = None
    invul: Invul | None = None
    damaged: Damaged | None = None


class OptionItem(_Shape):
    name: Text | None = None


class WargearOption(_Shape):
    instruction: Text | None = None
    options: list[OptionItem] | None = None


class AddedCost(_Shape):
    cost: Whole
    afterSelections: Whole


class Sheet(_Shape):
    name: Text | None = None
    legends: bool | str | None = None
    composition: list[Text] | None = None
    stats: list[Stat] | None = None
    keywords: list[Text] | None = None
    factions: list[Text] | None = None
    rangedWeapons: list[Weapon] | None = None
    meleeWeapons: list[Weapon] | None = None
    abilities: Abilities | None = None
    loadout: Text | None = None
    wargear: list[Text] | None = None
    wargearOptions: list[WargearOption] | None = None
    points: list[Points] | None = None
    additionalCost: AddedCost | None = None
    leader: Text | None = None


class RuleText(_Shape):
    text: Text | None = None


class ArmyRule(_Shape):
    name: Text | None = None
    rules: list[RuleText] = []


class Rules(_Shape):
    army: list[ArmyRule] | None = None


class FactionShape(_Shape, kw_only=True):
    """The top of a faction file (its datasheets are checked one by one: :func:`check_sheet`)."""

    name: Text | None = None
    parent_name: Text | None = None
    rules: Rules | None = None
    datasheets: list[dict[str, Any]]


_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_PATH_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _value_at(raw: object, path: str) -> object:
    """The value at a msgspec error path (``.stats[0].t``) of ``raw`` (None: not there)."""
    for key, index in _PATH_PART.findall(path):
        try:
            raw = raw[int(index)] if index else raw[key]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return None
    return raw


def _said(exc: msgspec.ValidationError, raw: object) -> str:
    """A msgspec error in words: the field, and what is wrong with it."""
    m = _AT.match(str(exc))
    what, path = (m.group("what"), (m.group("path") or "")) if m else (str(exc), "")
    field = path.lstrip(".") or "the top"
    if what.startswith("Expected `str` matching regex") or re.match(r"^Expected `int` [<>]=", what):
        said = _SAID.get(field.rsplit(".", 1)[-1], "out of range")
        return f"{field} is {_value_at(raw, path)!r}, {said}"
    missing = re.match(r"^Object missing required field `(.+)`$", what)
    if missing:
        return f"{field} has no {missing.group(1)!r}"
    got = re.match(r"^Expected `(.+)`, got `(.+)`$", what)
    if got:
        return f"{field}: {_kinds(got.group(2))} where {_kinds(got.group(1))} belongs"
    return f"{field}: {what}"


_KINDS = {"str": "a text", "object": "an object", "array": "a list", "int": "a whole number",
          "float": "a number", "bool": "true or false", "null": "null"}  # fmt: skip


def _kinds(kinds: str) -> str:
    """msgspec's ``str | object | null`` in words (``null`` left out of a choice)."""
    names = [k.strip() for k in kinds.split("|")]
    names = [k for k in names if k != "null"] or names
    return " or ".join(_KINDS.get(k, k) for k in names)


_MARKED = re.compile(r"^\s*(-?)\s*(\d+)\s*[+\"*]?\s*$")  # 5, '7+', '-2' (not dice, '-')


def _whole(value: object) -> int | None:
    """The whole number a checked value is (None: dice, ``-``, ``N/A`` or none)."""
    if isinstance(value, int):
        return value
    m = _MARKED.match(value) if isinstance(value, str) else None
    return int(m.group(1) + m.group(2)) if m else None


def _numbers(sheet: Sheet) -> list[tuple[str, object, Any]]:
    """Each number of a checked datasheet that the datasheet format bounds: (the field as
    messages name it, its value, the format's type)."""
    out: list[tuple[str, object, Any]] = []
    for i, st in enumerate(sheet.stats or []):
        at = f"stats[{i}]"
        out += [(f"{at}.t", st.t, fmt.Toughness), (f"{at}.w", st.w, fmt.Wounds)]
        out += [(f"{at}.sv", st.sv, fmt.Save), (f"{at}.ld", st.ld, fmt.Leadership)]
        out += [(f"{at}.oc", st.oc, fmt.Control)]
    for key, weapons in (
        ("rangedWeapons", sheet.rangedWeapons),
        ("meleeWeapons", sheet.meleeWeapons),
    ):
        for i, weapon in enumerate(weapons or []):
            for j, p in enumerate(weapon.profiles or []):
                at = f"{key}[{i}].profiles[{j}]"
                out += [(f"{at}.strength", p.strength, fmt.Strength)]
                out += [(f"{at}.skill", p.skill, fmt.Skill), (f"{at}.ap", p.ap, fmt.ArmourPen)]
    out += [
        (f"points[{i}].cost", line.cost, fmt.Points) for i, line in enumerate(sheet.points or [])
    ]
    if sheet.additionalCost is not None:
        out.append(("additionalCost.cost", sheet.additionalCost.cost, fmt.Points))
        out.append(
            ("additionalCost.afterSelections", sheet.additionalCost.afterSelections, fmt.After)
        )
    return out


def _out_of_bounds(sheet: Sheet) -> str | None:
    """The first number of ``sheet`` outside the datasheet format's bounds, in words."""
    for field, value, kind in _numbers(sheet):
        n = _whole(value)
        meta = get_args(kind)[1]
        if n is not None and not meta.ge <= n <= meta.le:
            return f"{field} is {value!r}, out of range ({meta.ge} to {meta.le})"
    return None


def check_sheet(raw: dict[str, Any], label: str) -> None:
    """Check one datasheet's shape (see the module docstring).

    Args:
        raw: the datasheet as the faction file has it (a JSON object).
        label: how messages name it (``orks.json: Boyz``).

    Raises:
        ImportFailure: ``LABEL: FIELD ...`` for the first field that is wrong.
    """
    try:
        sheet = msgspec.convert(raw, Sheet)
    except msgspec.ValidationError as exc:
        raise ImportFailure(f"{label}: {_said(exc, raw)}") from None
    wrong = _out_of_bounds(sheet)
    if wrong:
        raise ImportFailure(f"{label}: {wrong}")


def check_faction(raw: dict[str, Any], label: str) -> None:
    """Check the top of a faction file: its name, parent, army rules and that each datasheet
    is an object.

    Raises:
        ImportFailure: ``LABEL: FIELD ...`` for the first field that is wrong.
    """
    try:
        msgspec.convert(raw, FactionShape)
    except msgspec.ValidationError as exc:
        raise ImportFailure(f"{label}: {_said(exc, raw)}") from None

"""The shape of a game-datacards faction file and of each of its datasheets, as the edition-11
importer reads them, checked before anything is converted (``msgspec`` does the checking).

The check is what makes an importer run safe on any file (a ``calc data update`` from a
download or a folder): a field of the wrong type (a list where a text is read, a number where a
list is), or a statline characteristic that is not a number (a Boy's ``"t": "abc"``), is one
:class:`~.export.ImportFailure` naming the file, the datasheet and the field
(``orks.json: Boyz: stats[0].t is 'abc', not a number``), never a traceback further in.

What is checked is only what the importer reads. Unknown fields are ignored (the data has many
the importer does not use: fluff, colours, stratagems). A text is a plain string or a
multilingual object of strings (``{"en": ...}``). A list the importer reads as "none" when
absent may also be ``null``. Values the importer already tolerates with a note are only checked
for their type: a weapon profile it cannot hold is skipped and listed as not modelled (a random
Strength), an unreadable points line or added cost is skipped with a warning, an invulnerable
save it cannot read is not imported. A statline's characteristics have no such way out, so
their values are checked: Toughness, Wounds and Leadership numbers (``5``, ``7+``), a Save,
Move and OC number or ``-``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import msgspec

from .export import ImportFailure

Text = str | dict[str, str]

# a characteristic: a whole number (with a trailing '+' or '"' as the data writes them, and a
# footnote mark '*' the importer warns about), or '-' where the game has none
_NUMBER = r"^\s*\d+\s*[+\"*]?\s*$"
_NUMBER_OR_NONE = r"^\s*(\d+\s*\+?\s*\"?|-)?\s*$"
_SAID = {"t": "not a number", "w": "not a number", "ld": "not a number"}  # else number or '-'

Number = int | Annotated[str, msgspec.Meta(pattern=_NUMBER)]
NumberOrNone = int | Annotated[str, msgspec.Meta(pattern=_NUMBER_OR_NONE)]
Value = int | str  # a value the importer reads with a way out (a note) when it cannot


class _Shape(msgspec.Struct, kw_only=True):
    """Unknown fields are ignored; every field has the default the importer assumes."""


class Stat(_Shape, kw_only=True):
    name: Text = ""
    m: NumberOrNone = ""
    t: Number
    sv: NumberOrNone = ""
    w: Number
    ld: Number
    oc: NumberOrNone = ""


class Profile(_Shape):
    name: Text = ""
    range: Value = ""
    attacks: Value = ""
    skill: Value = ""
    strength: Value = ""
    ap: Value = ""
    damage: Value = ""
    keywords: list[Text] | None = None


class Weapon(_Shape):
    profiles: list[Profile] | None = None


class Points(_Shape):
    cost: Value | None = None
    models: Value | None = None
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
    value: Value | None = None
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
    cost: Value | None = None
    afterSelections: Value | None = None


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
    if what.startswith("Expected `str` matching regex"):
        said = _SAID.get(field.rsplit(".", 1)[-1], "not a number or '-'")
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


def check_sheet(raw: dict[str, Any], label: str) -> None:
    """Check one datasheet's shape (see the module docstring).

    Args:
        raw: the datasheet as the faction file has it (a JSON object).
        label: how messages name it (``orks.json: Boyz``).

    Raises:
        ImportFailure: ``LABEL: FIELD ...`` for the first field that is wrong.
    """
    try:
        msgspec.convert(raw, Sheet)
    except msgspec.ValidationError as exc:
        raise ImportFailure(f"{label}: {_said(exc, raw)}") from None


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

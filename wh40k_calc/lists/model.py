"""An army list as its export says it, before anything is looked up: one immutable value.

Every reader (:mod:`wh40k_calc.lists`) gives an :class:`ArmyList`: the list's name, faction,
detachments, edition (when the export states it), points, and its units in list order. A unit
is what the list names and counts, spelled as the list spells it: its name, points (as
displayed, enhancement included), its models by model type (:class:`ListedModels`, with the
weapons and wargear each type carries, counted across the models of that type), its
enhancement, whether it is the Warlord, and how it is attached (:class:`Attachment`) when the
list says. Nothing here knows our datasheets: telling weapons from wargear, model types from
each other and units from allies of another faction is the resolver's job
(:mod:`wh40k_calc.lists.resolve`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


class ListError(ValueError):
    """An input that is not an army list we can read (empty, binary, too large, truncated or
    another kind of file); the message is one line naming the input and what is wrong."""


class LineError(ListError):
    """A text export's line that its builder does not write where it stands (a unit heading
    the reader cannot read, text after the closing line, a second list); ``line`` is its
    1-based number, which the message names too."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


class UnitCountError(ListError):
    """A unit of a list read with more models than any size of its datasheet; the message
    names the unit (its line in a text export) but not the input, which the caller adds."""


class EditionConflict(ListError):
    """An edition given explicitly (``--edition``) that the list contradicts: the list states
    its own edition (``ArmyList.edition``); the message names both, but not the input, which
    the caller adds. A usage error."""


Counted = tuple[tuple[str, int], ...]  # (name as the list spells it, how many), in list order
# A reader's item before merging: (name, how many) or (name, how many, its 1-based text line)
Item = tuple[str, int] | tuple[str, int, int | None]


def whole_count(obj: dict[str, Any], key: str, what: str = "", least: int = 0) -> int:
    """The count field ``key`` of an element of a JSON or XML export (``number``,
    ``quantity``) as an int: a whole number of at least ``least`` (an XML attribute's
    digits; ``9.0`` is 9); missing, it counts 1.

    Raises:
        ListError: anything else (a negative count, ``2.5``, ``true``, null, text), naming
            ``key`` and what holds it (``what``: "model 'Boy'"; empty: the unit itself); the
            reader adds the input and the unit.
    """
    if key not in obj:
        return 1
    value = obj[key]
    n: float | None = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        n = value
    elif isinstance(value, str):
        try:
            n = float(value.strip())
        except ValueError:
            n = None
    if n is None or not math.isfinite(n) or n != int(n) or n < least:
        shown = json.dumps(value) if not isinstance(value, (dict, list)) else type(value).__name__
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        where = f"{what}: " if what else ""
        raise ListError(f"{where}{key!r} is {shown}; a count is a whole number of at least {least}")
    return int(n)


def merge_counts(items: Sequence[Item]) -> Counted:
    """Items (:data:`Item`) with the same spelling added up, in order of first appearance."""
    out: dict[str, int] = {}
    for name, n, *_ in items:
        out[name] = out.get(name, 0) + n
    return tuple(out.items())


def at_lines(lines: Sequence[int], fallback: int | None = None) -> str:
    """A message's prefix naming text lines: "line 15: ", "lines 9, 10: "; with no lines,
    ``fallback``'s ("line 8: ", a unit's heading) or nothing (a JSON or XML export)."""
    if not lines:
        return f"line {fallback}: " if fallback is not None else ""
    return f"line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}: "


def item_lines(items: Sequence[Item]) -> tuple[tuple[str, int], ...]:
    """(name, 1-based text line) of each item that says its line, in order (a name on two
    lines twice)."""
    return tuple((it[0], line) for it in items if len(it) > 2 and (line := it[2]) is not None)


def listed_models(
    name: str | None, count: int, items: Sequence[Item], line: int | None = None
) -> ListedModels:
    """``count`` models of type ``name`` (on text line ``line``) carrying ``items`` (merged
    by spelling, each item's line kept)."""
    return ListedModels(name, count, merge_counts(items), line=line, lines=item_lines(items))


def with_items(models: ListedModels, items: Sequence[Item]) -> ListedModels:
    """``models`` also carrying ``items`` (a unit's own wargear given to its first model
    type), their lines kept."""
    from ..records import replace

    return replace(
        models,
        weapons=merge_counts([*models.weapons, *items]),
        lines=models.lines + item_lines(items),
    )


@dataclass(frozen=True)
class ListedModels:
    """``count`` models of one model type: ``name`` as the list calls it (None where the list
    does not name model types: the unit's models as a whole), and the weapons and wargear
    they carry, counted across those ``count`` models. In a text export, ``line`` is the
    1-based line that names the model type (None: no such line) and ``lines`` each weapon's
    spelling with a line it is named on (a spelling on two lines twice)."""

    name: str | None
    count: int
    weapons: Counted = ()
    line: int | None = field(default=None, compare=False)
    lines: tuple[tuple[str, int], ...] = field(default=(), compare=False)

    def lines_of(self, weapon: str) -> tuple[int, ...]:
        """The text lines that name ``weapon`` (as the list spells it), in order, once each."""
        return tuple(dict.fromkeys(n for w, n in self.lines if w == weapon))


@dataclass(frozen=True)
class Attachment:
    """How the list attaches a unit: ``role`` "leader" (a CHARACTER unit attached to a
    Bodyguard) or "bodyguard"; ``group`` the Attached unit it belongs to (units of one group
    form one Attached unit; None where the list gives no pairing); ``label`` the list's own
    words ("Leader (Character)", "Leading Khorne Berzerkers[1]")."""

    role: str
    group: str | None
    label: str = ""


@dataclass(frozen=True)
class ListedUnit:
    """One unit of the list (an attached Leader is a unit of its own).

    ``points``: the unit's cost as displayed, enhancement included (None: the list gives
    none); ``models``: its models by model type; ``ally``: the list marks it as an allied unit
    (an "Allied Units" section or category, an allied force), ``faction`` the faction the
    list gives it (None: the list's); ``section``: the list's section heading it was under;
    ``markers``: other lines the list attaches to it that are not equipment (detachment
    keywords such as "Houndpack Lance Character"); ``line``: the 1-based line of a text export
    its heading is on (None: a JSON or XML export).
    """

    name: str
    points: int | None
    models: tuple[ListedModels, ...]
    enhancement: str | None = None
    enhancement_points: int | None = None
    warlord: bool = False
    attachment: Attachment | None = None
    ally: bool = False
    faction: str | None = None
    section: str | None = None
    markers: tuple[str, ...] = ()
    line: int | None = field(default=None, compare=False)

    @property
    def model_count(self) -> int:
        """Models in the unit, over every model type."""
        return sum(m.count for m in self.models)

    @property
    def weapons(self) -> Counted:
        """Every weapon and wargear entry, counted across the whole unit (same spelling
        added up)."""
        return merge_counts([w for m in self.models for w in m.weapons])

    def lines_of(self, weapon: str) -> tuple[int, ...]:
        """The text lines that name ``weapon`` (as the list spells it) in this unit, in
        order, once each; none: a JSON or XML export."""
        return tuple(dict.fromkeys(n for m in self.models for n in m.lines_of(weapon)))

    def where(self, weapon: str | None = None) -> str:
        """A message's prefix naming where the unit (or ``weapon`` in it) is written: "line
        15: ", "lines 9, 10: " (a weapon named on two lines), the heading's line where the
        weapon's is not known, or nothing (a JSON or XML export)."""
        return at_lines(self.lines_of(weapon) if weapon is not None else (), self.line)


@dataclass(frozen=True)
class ArmyList:
    """A whole list: ``format`` the reader's name for the export ("gw-app",
    "newrecruit-wtc-compact", ...), ``name`` (None: the list has none), ``faction`` as the
    list names it, ``detachments`` in list order, ``edition`` ("10" or "11") only where the
    export states it (``edition_reason`` says how), ``points`` the list's total and
    ``points_limit`` its battle size's, ``units`` in list order, ``notes`` what the reader
    noticed (a total that does not add up), ``units_stated`` the number of units the
    export's header states (None: it states none; only New Recruit's WTC header does)."""

    format: str
    name: str | None
    faction: str | None
    detachments: tuple[str, ...]
    units: tuple[ListedUnit, ...]
    points: int | None = None
    points_limit: int | None = None
    edition: str | None = None
    edition_reason: str | None = None
    notes: tuple[str, ...] = field(default=())
    units_stated: int | None = field(default=None, compare=False)

    def with_notes(self) -> ArmyList:
        """This list with a note when its stated total differs from its units' points, and one
        when the number of units its header states (``units_stated``: New Recruit's ``NUMBER
        OF UNITS``, an attached Leader a unit of its own) is not the number it holds (the
        Leader named only where the list attaches one)."""
        from ..records import replace

        notes = list(self.notes)
        listed = [u.points for u in self.units if u.points is not None]
        if self.points is not None and listed and sum(listed) != self.points:
            notes.append(
                f"the list says {self.points:,} points but its units add up to {sum(listed):,}"
            )
        held = len(self.units)
        if self.units_stated is not None and self.units_stated != held:
            leader = any(
                u.attachment is not None and u.attachment.role == "leader" for u in self.units
            )
            why = " (an attached Leader counted as a unit of its own)" if leader else ""
            notes.append(f"the list says {self.units_stated:,} units but it holds {held:,}{why}")
        return self if len(notes) == len(self.notes) else replace(self, notes=tuple(notes))

"""Miracle dice given with ``--effect``: the options of a record that lets a unit substitute dice
rolls with dice of known value (Adepta Sororitas: Acts of Faith; Army of Faith: Sacred Rites).

The rule (Acts of Faith, both editions): before a dice roll is made for the unit, the player may
replace one of its dice with a Miracle dice from the pool; the Miracle dice's value counts as an
unmodified roll of that value, and each Miracle dice is used once; the unit may do it once per
phase (Sacred Rites: twice). The pool is the player's, so the player says what it holds for this
activation: the values (``--effect acts-of-faith:6``; two with Sacred Rites,
``--effect sacred-rites:6,5``) and, optionally, which rolls they may replace (``hit``, ``wound``,
``damage`` for the unit's own attacks; ``save`` when it is the target): without one the
calculator picks the roll and the weapon where the value adds most (``rules/miracle.py``).

This module reads and checks those options (:func:`miracle_options`); a record takes them when
one of its changes has ``miracle_dice`` (:func:`miracle_limit`). A value out of 1-6, more values
than the rule allows, or none at all is a usage error (:class:`MiracleDiceError`, exit code 2).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from msgspec import Struct

if TYPE_CHECKING:
    from .effect_schema import Record

# The rolls a Miracle dice may replace in an attack sequence, by the side the unit is on.
ATTACKER_ROLLS = ("hit", "wound", "damage")
TARGET_ROLLS = ("save",)
ROLLS = (*ATTACKER_ROLLS, *TARGET_ROLLS)
ROLL_NAMES = {
    "hit": "Hit roll",
    "wound": "Wound roll",
    "damage": "Damage roll",
    "save": "saving throw",
}

# What the options mean, as `calc effects` lists them.
HELP: dict[str, str] = {
    "1-6": "the value of a Miracle dice held (ID:6; with Sacred Rites up to two: ID:6,5); it "
    "replaces one die before it is rolled, as an unmodified roll of that value, never re-rolled",
    "hit": "substitute a Hit roll of the unit's attacks (without hit/wound/damage/save: the "
    "calculator picks the roll and weapon where the value adds most)",
    "wound": "substitute a Wound roll of the unit's attacks",
    "damage": "substitute a Damage roll of the unit's attacks (a D3 is a D6 halved, rounding "
    "up; sampled, not computed exactly)",
    "save": "substitute a saving throw of the unit when it is the target",
}


class MiracleDiceError(LookupError):
    """Miracle dice options that cannot be used: a value out of 1-6, none given, more than the
    rule allows. A usage error (``usage``: exit code 2), as an option value out of range."""

    usage = True


class MiracleDice(Struct, frozen=True):
    """The Miracle dice the player gave: their ``values`` (1-6, in the order given) and the
    ``rolls`` they may replace (empty: any the side can use; see :data:`ROLLS`)."""

    values: tuple[int, ...]
    rolls: tuple[str, ...] = ()

    def allowed(self, side: str) -> tuple[str, ...]:
        """The rolls the dice may replace for ``side`` ("attacker" or "target")."""
        mine = ATTACKER_ROLLS if side == "attacker" else TARGET_ROLLS
        return tuple(r for r in mine if not self.rolls or r in self.rolls)


def miracle_limit(record: Record) -> int:
    """How many Miracle dice the record lets the unit use in a phase (its largest
    ``miracle_dice`` change), 0 for a record without one."""
    return max((c.miracle_dice or 0 for c in record.changes), default=0)


def is_value(option: str) -> bool:
    """Whether an option is written as a number (a Miracle dice's value, in range or not:
    ``6``, ``-1``, ``6.5``)."""
    return re.fullmatch(r"[-+]?\d+(?:[.,]\d*)?|[-+]?[.,]\d+", option.strip()) is not None


def miracle_options(text: str, name: str, options: tuple[str, ...], limit: int) -> MiracleDice:
    """The Miracle dice of ``--effect text`` (rule ``name``, ``options`` as given, in order:
    as written or slugged), for a rule allowing ``limit`` of them.

    Raises:
        MiracleDiceError: a value out of 1-6, no value, more values than ``limit``, a roll
            named twice.
    """
    values: list[int] = []
    rolls: list[str] = []
    for o in options:
        if is_value(o):
            v = int(o) if o.strip().lstrip("+").isdigit() else 0
            if not 1 <= v <= 6:
                raise MiracleDiceError(
                    f"--effect {text}: a Miracle dice is 1 to 6 (the D6 rolled when it was "
                    f"gained), not {o}"
                )
            values.append(v)
        elif (r := o.strip().lower()) in ROLLS and r not in rolls:
            rolls.append(r)
    if not values:
        bare = text.rsplit(":", 1)[0] if options else text
        raise MiracleDiceError(
            f"--effect {text}: give the value of the Miracle dice the unit uses, e.g. "
            f"{bare}:6 (the calculator cannot know the pool)"
        )
    if len(values) > limit:
        allowed = "one Act of Faith" if limit == 1 else f"{limit} Acts of Faith"
        more = " (Sacred Rites, Army of Faith: up to two)" if limit == 1 else ""
        raise MiracleDiceError(
            f"--effect {text}: {name} lets a unit perform {allowed} per phase{more}: "
            f"{len(values)} Miracle dice given"
        )
    return MiracleDice(tuple(values), tuple(rolls))

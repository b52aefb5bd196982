"""The conditions a selection's plan cannot read, so that runs differing only in them share one
plan (``resolve.planned``: a batch runs the same units with and without ``--charged`` in the
Fight phase, and the second run would make the same plan, weapon profiles and activations
again).

A condition is listed in :data:`READ_ONLY_THROUGH` for a phase only once every reader of it in
the rules layer has been found, and each is one of two kinds:

* an effect's conditions (``when.Facts``, read by ``when.why_not`` for the records and changes
  of effects: a datasheet's unit rule, a Leader's, an ``--effect`` given, an army or
  detachment rule or a stratagem, which come only as ``--effect``);
* a weapon ability of the condition's :data:`~.reads.READS` row (``reads``): after a Charge
  move [LANCE] adds 1 to the Wound roll (``wound``; seeds README, 24.21).

``--charged`` in the Fight phase has no other reader: the idle notes (``idle``) and Stealth
and the other notes that only words need are made only with ``words`` (``plan(sel,
words=False)`` leaves them out), the phase's idle conditions of a fight do not include it
(``idle._IDLE``), ``--explain``'s players read it with words, and ``calc exchange`` sets it
per turn on the selection it plans. So where no effect can apply (none given, none added by
``--add-ability``, no unit rule found for either unit in this edition, Leaders included) and
no weapon of the attacking unit has [LANCE], or an ability against some keywords only (which
may be [LANCE] against this target: 24.01), the plan with ``--charged`` is the plan without
it, field by field, and every activation it builds is the same
(``tests/test_shared_work.py`` compares shared plans with fresh ones on units with each
reader, and fails with any part of this test left out).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import reads
from .activation import built_unit
from .applied import datasheet_rules

if TYPE_CHECKING:
    from ..selection import Selection
    from ..units import Unit

# condition -> the phase in which its only readers are the effects and its READS row's
# abilities (see the module docstring; a condition is added here only after the same audit)
READ_ONLY_THROUGH = {"charged": "fight"}


def unread_conditions(sel: Selection, words: bool) -> tuple[str, ...]:
    """The conditions set in ``sel`` that its plan (``plan(sel, words=words)``) cannot read
    (see the module docstring): none with ``words`` (the notes name a condition with no
    effect), with an ``--effect`` or ``--add-ability`` given, or where either unit names a
    unit rule this edition has an effect for; else those of :data:`READ_ONLY_THROUGH` for the
    phase that no weapon of the attacking unit (Leaders included) reads through its ability
    or may read through an ability against some keywords only.

    Raises:
        SelectionError: a unit that cannot be built (as ``plan`` raises).
    """
    if words or sel.effects or sel.added_abilities:
        return ()
    cond = sel.conditions
    wanted = [
        c for c, phase in READ_ONLY_THROUGH.items() if sel.phase == phase and getattr(cond, c)
    ]
    if not wanted:
        return ()
    attacker = built_unit(sel.attacker, "attacker", sel.edition)
    target = built_unit(sel.target, "target", sel.edition)
    return _unread(sel, attacker, target, wanted)


def _unread(sel: Selection, attacker: Unit, target: Unit, wanted: list[str]) -> tuple[str, ...]:
    """:func:`unread_conditions` of the built units: none where a unit rule of either is found
    (``applied.datasheet_rules``, kept per unit), else those of ``wanted`` that no weapon of
    ``attacker`` reads."""
    requested, _ = datasheet_rules(sel, attacker, target)
    if requested:  # an effect may apply, and its conditions read any condition
        return ()
    weapons = [w for g in attacker.all_groups for w in g.weapons]  # Leaders' too
    out = []
    for c in wanted:
        row = reads.reading(sel.edition, c, reads.READS)
        if row is None:
            continue
        if any(row.has(w.abilities) or w.abilities.conditional for w in weapons):
            continue
        out.append(c)
    return tuple(out)

"""Conditions of the activation and the notes that explain them (Core rules: Stealth, Blast;
edition 11: 24.33 Stealth, 24.05 [BLAST], 24.06 [CLEAVE]): whether the target has Stealth, what
Stealth does here, and the weapon abilities this edition reads differently or not at all.

The rules these notes describe act elsewhere (Stealth in the Hit roll or the Benefit of Cover:
``hit`` and the edition's :meth:`~.edition.Edition.ranged_hit_terms`; [BLAST] and [CLEAVE X]
in the attack dice: ``attacks``); options that change nothing at all are ``idle``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..selection import Selection
    from ..units import Unit
    from .edition import Edition
    from .plan import GroupOptions
    from .situation import Situation


def has_stealth(sel: Selection, target: Unit) -> bool:
    """Stealth (a unit ability; issue 9: "only while *every* model of the unit has it", so an
    Attached unit whose Leader lacks it has none), or ``--target-stealth``."""
    return sel.modifiers.target_stealth or all(g.profile.stealth for g in target.all_groups)


def stealth_notes(s: Situation, groups: list[GroupOptions]) -> list[str]:
    """In shooting: what Stealth does against the ranged weapons that can attack (the
    edition's :meth:`~.edition.Edition.stealth_note`), or that the unit has none because not
    every model has it."""
    sel, target = s.sel, s.target
    if sel.phase != "shooting":
        return []
    if has_stealth(sel, target):
        ranged = {w.name: w for g in groups for o in g.options for w in o.weapons}
        return [s.edition.stealth_note(target, [w for w in ranged.values() if not w.is_melee])]
    if any(g.profile.stealth for g in target.all_groups):
        return [f"Stealth: not every model of {target.name} has it, so the unit has none"]
    return []


def cleave_not_modelled(edition: Edition, sel: Selection, groups: list[GroupOptions]) -> list[str]:
    """In a fight: the weapons whose [CLEAVE X] this edition does not apply (10th edition:
    an edition-11 ability), for ``not_modelled``."""
    if sel.phase != "fight":
        return []
    out = []
    for g in groups:
        for opt in g.options:
            for w in opt.weapons:
                if w.abilities.cleave and not edition.cleave_bonus(w.abilities):
                    item = f"{w.name}: [cleave {w.abilities.cleave}] (edition 11 only)"
                    if item not in out:
                        out.append(item)
    return out


def blast_x_notes(edition: Edition, groups: list[GroupOptions]) -> list[str]:
    """A datasheet weapon with [BLAST X] in an edition that has only [BLAST] (edition 10: +1
    attack per five models, whatever X)."""
    out = []
    for w in (w for g in groups for opt in g.options for w in opt.weapons):
        blast = w.abilities.blast
        if blast > 1 and edition.blast_bonus(w.abilities) != blast:
            note = (
                f"{w.name}: [BLAST {blast}] is edition 11's [BLAST X]; edition {edition.name} "
                "applies [BLAST] (+1 attack per five models in the target)"
            )
            if note not in out:
                out.append(note)
    return out

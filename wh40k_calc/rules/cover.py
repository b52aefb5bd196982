"""The Benefit of Cover for one attack, worked out in one place for every rule that reads it:
the saving throw (10th edition: +1 to the armour save, ``save``), the BS (edition 11: worsened
by 1, the edition's ``ranged_hit_terms``) and the conditions of effect records
(``target_in_cover``, ``when``).

The model (Core rules: Benefit of Cover, [INDIRECT FIRE], [IGNORES COVER]; edition 11: 13.08
Benefit Of Cover, 10.07 Indirect Shooting, 24.18 [IGNORES COVER], 24.33 Stealth): only a
ranged attack without [IGNORES COVER] gets it, and it counts once whatever gives it. It is
given by ``--cover``, by an effect that gives the target cover, or to an [INDIRECT FIRE]
attack made with ``--indirect`` (the target not visible). Whether Stealth gives it is the
edition's answer (:meth:`~.edition.Edition.stealth_gives_cover`): in edition 11 it does
(24.33); in 10th edition Stealth is a -1 to the Hit roll instead, not the Benefit of Cover.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

from .conditions import has_stealth

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from ..datasheet import Weapon
    from ..selection import Selection
    from ..units import Unit
    from .edition import Edition
    from .situation import Situation


class CoverSources(Struct, frozen=True):
    """What may give the target the Benefit of Cover in one activation, before the attack is
    known: ``given`` (``--cover``), ``stealth`` (the target has Stealth: every model, or
    ``--target-stealth``), ``indirect`` (``--indirect`` in the Shooting phase), ``cover_fx``
    and ``stealth_fx`` (an effect gives the target cover or Stealth)."""

    given: bool = False
    stealth: bool = False
    indirect: bool = False
    cover_fx: bool = False
    stealth_fx: bool = False


def cover_sources(sel: Selection, target: Unit) -> CoverSources:
    """The :class:`CoverSources` of a selection against ``target``, before any effect's
    (``Changes.cover`` adds those)."""
    cond = sel.conditions
    return CoverSources(
        given=cond.cover,
        stealth=has_stealth(sel, target),
        indirect=cond.indirect and sel.phase == "shooting",
    )


def benefit_of_cover(
    edition: Edition,
    src: CoverSources,
    *,
    ranged: bool,
    ignores_cover: bool,
    indirect_fire: bool,
) -> bool:
    """Whether the target has the Benefit of Cover against one attack (see the module
    docstring): ``ranged`` and ``ignores_cover`` ([IGNORES COVER]) of the attack,
    ``indirect_fire``: its weapon has [INDIRECT FIRE]."""
    if not ranged or ignores_cover:
        return False
    if src.given or src.cover_fx or (src.indirect and indirect_fire):
        return True
    return (src.stealth or src.stealth_fx) and edition.stealth_gives_cover()


def attack_in_cover(s: Situation, w: Weapon, ab: WeaponAbilities) -> bool:
    """:func:`benefit_of_cover` of ``w``'s attacks in the activation ``s`` (``ab``: the
    weapon's abilities after effects): the sources ``s.changes.cover`` gathered once (the
    selection's and its effects')."""
    return benefit_of_cover(
        s.edition,
        s.changes.cover,
        ranged=not w.is_melee,
        ignores_cover=ab.ignores_cover,
        indirect_fire=ab.indirect_fire,
    )

"""One activation as the rule modules read it: the edition, the selection, both units and the
effects that apply, gathered once by ``rules.activation.plan`` and passed to every step of the
attack sequence (``attacks``, ``hit``, ``wound``, ``save``, ``damage``) instead of five
arguments each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

if TYPE_CHECKING:
    from ..selection import Selection
    from ..units import Unit
    from .applied import Applied
    from .changes import Changes
    from .edition import Edition


class Situation(Struct, frozen=True, eq=False):  # compared by identity: one per plan
    """The activation being resolved.

    Attributes:
        edition: the edition's answers (:class:`~wh40k_calc.rules.edition.Edition`).
        sel: the selection: phase, conditions, modifiers, the player's options.
        attacker: the attacking unit as built (an attached Leader's models included, granted
            abilities given: ``rules.added``).
        target: the target unit as built.
        applied: the effects that apply, by side (``rules.applied``).
        changes: their changes under the variant being built (``rules.changes``; the
            builder makes one Situation per variant).
    """

    edition: Edition
    sel: Selection
    attacker: Unit
    target: Unit
    applied: Applied
    changes: Changes

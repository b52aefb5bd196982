"""Shooting after an Advance move (``--advanced``): which weapons a unit that Advanced this turn
shoots, and the selections that cannot go with it. Beside :mod:`.engaged`, which picks the
weapons of a unit shooting while engaged, and in its shape: a filter of each model group's
ranged weapons, the note naming those left out, the refusal when none is left.

The model, both editions:

* **Who shoots.** A unit that Advanced cannot shoot this turn (10th edition: Core rules,
  Advance Moves, seed 000) unless it has [ASSAULT] weapons: the 10th-edition Core rules'
  Assault ability (the seeds README names it without printing it) keeps a unit that Advanced
  and has models equipped with Assault weapons eligible to shoot; edition 11, 24.04 [ASSAULT]
  and 10.05 Assault Shooting: eligible when unengaged, having made an advance move this turn,
  with one or more [ASSAULT] weapons (10.04 Normal Shooting needs a unit that did not
  advance). A selection with no [ASSAULT] weapon is refused with the reason.
* **Which weapons.** Only [ASSAULT] weapons make attacks (10th edition: Assault, "only" its
  Assault weapons; 10.05: "You can only select [ASSAULT] weapons"). An ability counts however
  the weapon has it: its datasheet, ``--add-ability`` (applied to the unit before the weapons
  are read), or an effect's grant (``assault_ok``). A model's Pistols and other ranged weapons
  are still chosen between as usual among the [ASSAULT] ones.
* **Rules that let the unit shoot anyway.** Some faction rules make a unit eligible to shoot in
  a turn in which it Advanced without granting [ASSAULT] (edition 11's Devastator Doctrine,
  Thrill Seekers): under such a rule (an effect's ``shoots_after_advance`` change, read by
  ``assault_ok`` too) every ranged weapon it covers shoots, as in Normal Shooting, with no
  Hit-roll modifier (none of those rules gives one).
* **No Hit-roll modifier.** Neither edition's text gives one for shooting after an Advance
  (10th edition's Assault ability has none, unlike the previous edition's -1; 10.05 has
  none), so none is applied.
* **Not engaged.** An Advance move never ends within Engagement Range of enemy models (10th
  edition: Core rules, Advance Moves and Engagement Range; edition 11, 09.06 Advance Move:
  after moving the unit must be unengaged), and assault shooting needs an unengaged unit
  (10.05) while close-quarters shooting needs one that did not advance (10.06): ``--advanced``
  with ``--engaged`` is refused.
* **Not in Overwatch.** Fire Overwatch is used in the opponent's turn (10th edition: the
  stratagem's opponent's Movement or Charge phase, seed 000; edition 11: 15.08, end of the
  opponent's Movement phase), while a unit Advances in its own Movement phase: it has not
  Advanced in the turn it fires Overwatch, so ``--advanced`` with ``--overwatch`` is refused
  in both. The other selections an edition refuses with it are its own
  answer (:meth:`~.edition.Edition.advanced_refusal`).

Effects read the same flag: a record's ``advanced`` condition (``rules.when``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..datasheet import Weapon
    from ..selection import Selection
    from ..units import ModelGroup, Unit
    from .edition import Edition

NOT_ASSAULT = "not [ASSAULT]"


def advanced_refusal(edition: Edition, sel: Selection) -> str | None:
    """Why ``--advanced`` cannot go with the selection's other conditions, or None: with
    ``--engaged`` or ``--overwatch`` in both editions (module docstring), else the edition's own
    (:meth:`~.edition.Edition.advanced_refusal`). Only in the Shooting phase (in a fight the
    flag is noted as having no effect, ``rules.idle``)."""
    if sel.phase != "shooting" or not sel.conditions.advanced:
        return None
    if sel.conditions.engaged:
        return (
            "--advanced with --engaged: a unit that made an Advance move this turn is not "
            "within Engagement Range of enemy units (an Advance move cannot end there: Core "
            "rules, Advance Moves; edition 11: 09.06, and assault shooting, 10.05, needs an "
            "unengaged unit, close-quarters shooting, 10.06, one that did not advance): drop "
            "one of them"
        )
    if sel.conditions.overwatch:
        return (
            "--advanced with --overwatch: a unit fires Overwatch in the opponent's turn (10th "
            "edition: Fire Overwatch, in the opponent's Movement or Charge phase; edition 11: "
            "15.08, at the end of the opponent's Movement phase), and it makes its Advance "
            "moves in its own Movement phase, so it has not Advanced that turn: drop one of "
            "them"
        )
    return edition.advanced_refusal(sel)


def advanced_weapons(
    sel: Selection,
    g: ModelGroup,
    ranged: list[Weapon],
    assault_ok: Callable[[ModelGroup, Weapon], bool] | None,
) -> tuple[list[Weapon], list[str]]:
    """The ranged weapons of group ``g`` that shoot after an Advance (``ranged``: those that
    could shoot otherwise; ``assault_ok(g, w)``: an effect gives ``w`` [ASSAULT] or lets the
    unit shoot with it after Advancing, ``shoots_after_advance``) and why each
    other one does not. Unchanged without ``--advanced`` or outside the Shooting phase."""
    if sel.phase != "shooting" or not sel.conditions.advanced:
        return ranged, []
    ok = [w.abilities.assault or (assault_ok is not None and assault_ok(g, w)) for w in ranged]
    kept = [w for w, y in zip(ranged, ok, strict=True) if y]
    why = [f"{w.name}: {NOT_ASSAULT}" for w, y in zip(ranged, ok, strict=True) if not y]
    return kept, why


def dropped_note(why: list[str]) -> str:
    """The note naming the weapons :func:`advanced_weapons` left out, with the rule."""
    names = ", ".join(dict.fromkeys(w.split(":")[0] for w in why))
    return (
        f"advanced (--advanced): {names} cannot shoot: after an Advance move only [ASSAULT] "
        "weapons shoot (Core rules: Advance Moves, Assault; edition 11: assault shooting, 10.05)"
    )


def refusal(attacker: Unit, why: list[str]) -> str:
    """Why a unit that Advanced has nothing to shoot with: none of its ranged weapons here
    (those selected, ``why``: :func:`advanced_weapons`'s reasons) has [ASSAULT]."""
    names = ", ".join(dict.fromkeys(w.split(":")[0] for w in why))
    return (
        f"{attacker.name} cannot shoot after an Advance move (--advanced): only a unit with "
        "[ASSAULT] weapons shoots then, and only with those (Core rules: Advance Moves, "
        f"Assault; edition 11: assault shooting, 10.05), and none of its weapons here has "
        f"[ASSAULT] ({names}): give it with --add-ability or an --effect that grants it, apply "
        "an --effect that lets the unit shoot after Advancing (e.g. the Devastator Doctrine), "
        "or drop --advanced"
    )

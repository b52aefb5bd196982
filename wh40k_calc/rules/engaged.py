"""Shooting while engaged: which weapons a unit within Engagement Range of enemy units shoots
(``--engaged``), what a target within Engagement Range of the attacker's army cannot be shot
with (``--target-engaged``), and the notes and refusals of both. The Hit-roll penalties are
the edition's answers (:meth:`~.edition.Edition.engaged_hit_terms`), asked from ``rules.hit``.

The model, shared by both editions where their texts agree:

* **Who shoots.** A unit within Engagement Range shoots only if it is a MONSTER/VEHICLE unit or
  has Pistols (10th edition, Core rules: Pistol — seed 000 — and Big Guns Never Tire, which the
  seeds do not print; edition 11, 10.06 Close-Quarters Shooting: engaged, no Advance move this
  turn — ``--engaged`` with ``--advanced`` is refused, :mod:`.advanced` — and one or more
  [CLOSE-QUARTERS] weapons or a MONSTER/VEHICLE unit; [PISTOL] is the same ability, 24.07 and
  the seeds README). Otherwise the selection is refused with the reason.
* **Which weapons.** A model that is not a MONSTER/VEHICLE shoots its Pistols only (Core rules:
  Pistol: "it can only resolve attacks using its Pistols"; 10.06: "You can only select
  [CLOSE-QUARTERS] weapons"); a MONSTER/VEHICLE model shoots all its ranged weapons.
* **Which target.** A non-MONSTER/VEHICLE unit can only target enemy units it is engaged with
  (Core rules: Pistol; 10.06), so ``--engaged`` implies ``--target-engaged`` for it
  (:func:`target_engaged`, with a note). A MONSTER/VEHICLE unit may shoot another, unengaged
  unit: then give ``--engaged`` alone; ``--engaged --target-engaged`` says the target is one of
  the units it is engaged with.
* **[BLAST].** Never against a target within Engagement Range of units of the attacker's army,
  its own included (10th edition, Core rules: Blast, seeds 000 and 001; edition 11, 10.06: a
  MONSTER/VEHICLE model's [BLAST] weapon still cannot target a unit its unit is engaged with,
  and 17.03: engaged MONSTER/VEHICLE units can be targeted, excluding [BLAST] attacks — 04.02
  allows no other engaged target). Such weapons are left out with a note, unless an effect
  permits them (``blast_at_engaged``).

Edition differences (the penalties and the consistency checks) are in ``edition10`` and
``edition11``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..notes import OptionNote

if TYPE_CHECKING:
    from ..datasheet import Weapon
    from ..selection import Selection
    from ..units import ModelGroup, Unit

BIG = frozenset({"MONSTER", "VEHICLE"})


def is_big(g: ModelGroup) -> bool:
    """Whether the models of ``g`` are MONSTER or VEHICLE models (their profile's keywords or
    their datasheet's; each set asked apart, not joined: a batch asks it for every weapon)."""
    return not (BIG.isdisjoint(g.profile.keywords) and BIG.isdisjoint(g.datasheet.all_keywords()))


def big_unit(unit: Unit) -> bool:
    """Whether ``unit`` is a MONSTER/VEHICLE unit (it has either keyword)."""
    return bool(BIG & unit.keywords)


def target_engaged(sel: Selection, attacker: Unit) -> bool:
    """Whether the target is within Engagement Range of the attacker's army in this
    Shooting-phase activation: ``--target-engaged``, or ``--engaged`` when a model group of the
    attacker is not MONSTER/VEHICLE (such models can only target units their unit is engaged
    with: Core rules: Pistol; 10.06 Close-Quarters Shooting)."""
    if sel.phase != "shooting":
        return False
    cond = sel.conditions
    return cond.target_engaged or (cond.engaged and not all(is_big(g) for g in attacker.groups))


def engaged_weapons(
    sel: Selection,
    attacker: Unit,
    g: ModelGroup,
    ranged: list[Weapon],
    blast_ok: Callable[[ModelGroup, Weapon], bool] | None,
) -> tuple[list[Weapon], list[str]]:
    """The ranged weapons of group ``g`` that can shoot here and why each other one cannot
    (``ranged``: the group's ranged weapons that could shoot otherwise; ``blast_ok(g, w)``: an
    effect lets ``w`` shoot a target engaged with the attacker). Unchanged when neither flag
    acts. See the module docstring for the rules."""
    if sel.phase != "shooting":
        return ranged, []
    kept, why = list(ranged), []
    if sel.conditions.engaged and not is_big(g):
        dropped = [w for w in kept if not w.abilities.pistol]
        kept = [w for w in kept if w.abilities.pistol]
        why += [f"{w.name}: not a Pistol" for w in dropped]
    if target_engaged(sel, attacker):
        ok = blast_ok if sel.conditions.engaged and blast_ok is not None else None
        blast = [w for w in kept if w.abilities.blast and not (ok is not None and ok(g, w))]
        kept = [w for w in kept if w not in blast]
        why += [f"{w.name}: [BLAST]" for w in blast]
    return kept, why


def dropped_note(why: list[str]) -> str:
    """The note naming the weapons :func:`engaged_weapons` left out, with the rules."""
    pistols = [w.split(":")[0] for w in why if w.endswith("not a Pistol")]
    blasts = [w.split(":")[0] for w in why if w.endswith("[BLAST]")]
    out = []
    if pistols:
        out.append(
            f"engaged (--engaged): {', '.join(dict.fromkeys(pistols))} cannot shoot: a model that "
            "is not a MONSTER/VEHICLE shoots only its Pistols while engaged (Core rules: Pistol; "
            "edition 11: [CLOSE-QUARTERS] weapons, 10.06)"
        )
    if blasts:
        out.append(
            f"the target is engaged: {', '.join(dict.fromkeys(blasts))} cannot shoot it: [BLAST] "
            "weapons never target a unit within Engagement Range of the attacker's army (Core "
            "rules: Blast; edition 11: 10.06, 17.03)"
        )
    return "; ".join(out)


def refusal(attacker: Unit, why: list[str]) -> str:
    """Why an engaged attacker (or one shooting an engaged target) has no weapon to shoot."""
    if any(w.endswith("not a Pistol") for w in why) and not any(w.endswith("[BLAST]") for w in why):
        return (
            f"{attacker.name} cannot shoot while engaged (--engaged): only a MONSTER/VEHICLE unit "
            "or Pistols shoot then (Core rules: Pistol; edition 11: close-quarters shooting, "
            "10.06, needs [CLOSE-QUARTERS] weapons or a MONSTER/VEHICLE unit), and it has "
            "neither"
        )
    return f"{attacker.name} has no ranged weapon that can shoot here: {dropped_note(why)}"


def implied_note(sel: Selection, attacker: Unit) -> list[str]:
    """The note that ``--engaged`` implies ``--target-engaged`` for this attacker."""
    cond = sel.conditions
    if cond.engaged and not cond.target_engaged and target_engaged(sel, attacker):
        return [
            OptionNote(
                "--engaged",
                f"the target is taken to be a unit {attacker.name} is engaged with (a model "
                "that is not a MONSTER/VEHICLE can target no other: Core rules: Pistol; 10.06)",
            )
        ]
    return []

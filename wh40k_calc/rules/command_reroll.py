"""Command Re-roll (core stratagem, seed 000: "You re-roll that roll, test or saving throw"):
which weapon the calculator keeps it for.

The engines spend it on the kept weapon's first failed Wound roll of an attack's own hit that
the Wound roll table did not re-roll already (Core rules: Re-rolls: "You can never re-roll a
dice more than once"; never on Sustained Hits' extra hits, and Lethal Hits' automatic wounds
roll no die). So it is worth keeping only for a weapon with such a roll: one whose failed Wound
rolls are all re-rolled already ([TWIN-LINKED], ``--reroll-wounds fails``) gains nothing.
"""

from __future__ import annotations

import numpy as np

from ..profile import CRIT, FAIL, HIT, AttackProfile, TargetProfile
from ..records import replace
from . import common as c


def reroll_gain(p: AttackProfile, target: TargetProfile) -> float:
    """What the Command Re-roll adds to weapon ``p``, in expected effective damage against the
    first model its attacks go to (DESIGN.md: per-die choices are valued so): P(at least one
    of its attacks' own Wound rolls fails without being re-rolled) x the value of a fresh
    Wound roll. 0 when every failed Wound roll is re-rolled already, or a wound adds nothing.
    """
    first = _first_model(p, target)
    values = c.wound_values(p.vs[first.kind], first.W, p.devastating)
    table = p.wound
    unrerolled_fail = (
        sum(1 for f in range(1, 7) if table.outcome[f] == FAIL and not table.reroll[f]) / 6
    )
    fresh = sum(values[table.outcome[f]] for f in range(1, 7)) / 6
    if p.hit is None:  # [TORRENT]: every attack's hit rolls to wound
        rolls = 1.0
    else:
        ph = p.hit.probabilities(3)
        rolls = float(ph[HIT] + (0.0 if p.lethal else ph[CRIT]))
    chance = rolls * unrerolled_fail
    attacks = p.attack_pmf(target.models)
    none = float(np.dot(attacks, (1.0 - chance) ** np.arange(len(attacks))))
    return (1.0 - none) * fresh


def keep_command_reroll(
    profiles: list[AttackProfile], target: TargetProfile
) -> tuple[list[AttackProfile], tuple[str, ...]]:
    """``profiles`` with the Command Re-roll kept for the weapon where :func:`reroll_gain` is
    largest (the first of equals), said in its ``choices``; and notes: when it can add
    nothing to any weapon, no weapon keeps it and a note says why."""
    gains = [reroll_gain(p, target) for p in profiles]
    best = int(np.argmax(gains)) if gains else 0
    if not gains or gains[best] <= 1e-12:
        return profiles, (_unused(profiles),)
    name = profiles[best].name
    chosen = replace(
        profiles[best],
        command_reroll=True,
        choices=(
            *profiles[best].choices,
            f"{name}: Command Re-roll kept for its first failed Wound roll not re-rolled "
            "already (the weapon where it adds most)",
        ),
    )
    return [chosen if i == best else p for i, p in enumerate(profiles)], ()


def _unused(profiles: list[AttackProfile]) -> str:
    """Why the Command Re-roll is not used."""
    rerolled = all(
        p.wound.reroll[f] for p in profiles for f in range(1, 7) if p.wound.outcome[f] == FAIL
    )
    why = (
        "every failed Wound roll here is re-rolled already (e.g. [TWIN-LINKED]), and a die is "
        "never re-rolled twice"
        if rerolled
        else "a re-rolled Wound roll could add no damage here"
    )
    return f"Command Re-roll: not used: the calculator spends it on a failed Wound roll, and {why}"


def _first_model(p: AttackProfile, target: TargetProfile):
    """The model ``p``'s attacks are allocated to first."""
    if p.precision and target.characters:
        return target.characters[0]
    return target.bodyguard[0] if target.bodyguard else target.characters[0]

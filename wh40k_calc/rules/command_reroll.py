"""Command Re-roll (core stratagem, seed 000: "You re-roll that roll, test or saving throw"; 15.02)
and the rules that re-roll one Hit, Wound or Damage roll: which weapon the calculator keeps
each for (:func:`keep_single_rerolls`: the weapon where it adds most, one re-roll per weapon).

The engines spend it on the kept weapon's first failed Wound roll of an attack's own hit that
the Wound roll table did not re-roll already (Core rules: Re-rolls: "You can never re-roll a
dice more than once"; never on Sustained Hits' extra hits, and Lethal Hits' automatic wounds
roll no die). So it is worth keeping only for a weapon with such a roll: one whose failed Wound
rolls are all re-rolled already ([TWIN-LINKED], ``--reroll-wounds fails``) gains nothing.

The rules that change one roll's result to an unmodified 6 (``single_six``: Forged in Battle,
Artisan, Gift of Foresight, Pledge of Unholy Fortune) take the same machinery with
``SingleReroll.face`` 6: the change is made just after the roll is seen, so the calculator
spends it on the kept weapon's first failed Hit roll (or Wound roll of an attack's own hit),
whether the roll was re-rolled already or not (changing a result is not a re-roll), and the
roll becomes a 6: a Critical Hit (Lethal Hits, Sustained Hits) or a Critical Wound
(Devastating Wounds, an automatic wound against any T). A failed roll is the best use: turning
a miss into a 6 adds a Critical Hit's worth, turning a normal hit into one only the
difference. Not modelled: using it on a normal hit (or wound) when no roll of the weapon
fails, on Sustained Hits' extra hits' Wound rolls, or on a saving throw (the target side).
"""

from __future__ import annotations

import numpy as np
from msgspec import Struct

from ..profile import CRIT, FAIL, HIT, MISS, AttackProfile, TargetModel, TargetProfile
from ..records import replace
from . import common as c


def reroll_gain(p: AttackProfile, target: TargetProfile, face: int = 0) -> float:
    """What the Command Re-roll adds to weapon ``p``, in expected effective damage against the
    first model its attacks go to (DESIGN.md: per-die choices are valued so): P(at least one
    of its attacks' own Wound rolls fails without being re-rolled) x the value of a fresh
    Wound roll. 0 when every failed Wound roll is re-rolled already, or a wound adds nothing.
    ``face`` 1-6: what turning its first failed Wound roll (re-rolled or not) into that
    unmodified result adds instead (``single_six``).
    """
    first = first_model(p, target)
    values = c.wound_values(p.vs[first.kind], first.W, p.devastating)
    table = p.wound
    if face:
        unrerolled_fail = float(table.probabilities(3)[FAIL])
        fresh = float(values[table.outcome[face]] - values[FAIL])
    else:
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


class SingleReroll(Struct, frozen=True):
    """One roll an effect lets the player re-roll (or change) once in the activation:
    ``roll`` ("hit", "wound" or "damage"), the effect's ``name``, and the weapon profiles
    (``weapons``, by name) it may be spent on (its scope and conditions). ``face`` 0: a
    re-roll; 1-6: the roll's result is changed to that unmodified value after it is seen
    (``single_six``). ``also``: other kinds of roll it may be spent on instead (one roll in
    all: "one Hit roll or one Wound roll"), the calculator picking the kind and weapon."""

    roll: str
    name: str
    weapons: frozenset[str]
    face: int = 0
    also: tuple[str, ...] = ()


def hit_gain(p: AttackProfile, target: TargetProfile, face: int = 0) -> float:
    """What one Hit re-roll adds to weapon ``p``, in expected effective damage against the
    first model its attacks go to: P(at least one of its Hit rolls fails without being
    re-rolled) x the value of a fresh Hit roll. 0 without a Hit roll ([TORRENT]). ``face``
    1-6: what turning its first failed Hit roll (re-rolled or not) into that unmodified
    result adds instead (``single_six``)."""
    if p.hit is None:
        return 0.0
    values = hit_values(p, target)
    table = p.hit
    if face:
        fail = float(table.probabilities(3)[MISS])
        fresh = values[table.outcome[face]]
    else:
        fail = sum(1 for f in range(1, 7) if table.outcome[f] == MISS and not table.reroll[f]) / 6
        fresh = sum(values[table.outcome[f]] for f in range(1, 7)) / 6
    return at_least(p.attack_pmf(target.models), fail) * fresh


def hit_values(p: AttackProfile, target: TargetProfile) -> tuple[float, float, float]:
    """The expected effective damage of a missed, a normal and a Critical Hit of weapon ``p``
    against the first model its attacks go to (a Critical Hit: Lethal Hits' automatic wound or
    a Wound roll, with Sustained Hits' extra hits)."""
    first = first_model(p, target)
    v = c.wound_values(p.vs[first.kind], first.W, p.devastating)
    pw = p.wound.probabilities(3)
    per_hit = float(sum(pw[i] * v[i] for i in range(3)))
    sus = float(np.dot(np.arange(len(p.sustained)), p.sustained)) if p.sustained is not None else 0
    crit = (v[1] if p.lethal else per_hit) + sus * per_hit
    return (0.0, per_hit, crit)


def at_least(attacks: np.ndarray, chance: float, k: int = 1) -> float:
    """P(at least ``k`` of the attacks, ``attacks`` their number's distribution, do something
    each does with probability ``chance``, independently)."""
    from math import comb

    total = 0.0
    for a, pa in enumerate(attacks):
        if pa and a >= k:
            below = sum(comb(a, i) * chance**i * (1 - chance) ** (a - i) for i in range(k))
            total += pa * (1.0 - below)
    return float(total)


def damage_gain(p: AttackProfile, target: TargetProfile) -> float:
    """What one Damage re-roll adds to weapon ``p`` (roughly: for picking the weapon): P(at
    least one of its attacks makes a Damage roll) x what re-rolling a result below a fresh
    roll's value adds to one roll against the first model (W capping the damage). 0 for a
    fixed Damage, or one every roll of which is re-rolled already."""
    first = first_model(p, target)
    vs = p.vs[first.kind]
    table = vs.damage
    if len(set(table.final)) < 2 or table.reroll:
        return 0.0
    values = [min(d, first.W) for d in table.final]
    fresh = sum(q * v for q, v in zip(table.probs, values, strict=True))
    better = sum(q * max(v, fresh) for q, v in zip(table.probs, values, strict=True))
    ph = 1.0 if p.hit is None else float(1 - p.hit.probabilities(3)[MISS])
    pw = float(1 - p.wound.probabilities(3)[FAIL])
    q = ph * pw * vs.save_fail_probability
    attacks = p.attack_pmf(target.models)
    none = float(np.dot(attacks, (1.0 - q) ** np.arange(len(attacks))))
    return (1.0 - none) * (better - fresh)


def keep_single_rerolls(
    profiles: list[AttackProfile],
    target: TargetProfile,
    rerolls: list[SingleReroll],
    with_damage_reroll,
) -> tuple[list[AttackProfile], tuple[str, ...]]:
    """``profiles`` with each of ``rerolls`` kept for the weapon of its scope where it adds
    most (:func:`reroll_gain`, :func:`hit_gain`, :func:`damage_gain`; the first of equals; a
    weapon keeps one at most), said in its ``choices``; notes for those no weapon can use.
    ``with_damage_reroll(profile)`` rebuilds a profile whose Damage table re-rolls (its first
    such roll only: ``AttackProfile.reroll_one_damage``)."""
    out = list(profiles)
    notes: list[str] = []
    taken: set[int] = set()
    for r in rerolls:
        options = [
            (gain_of(roll, p, target, r.face), i, roll)
            for roll in (r.roll, *r.also)
            for i, p in enumerate(out)
            if p.name in r.weapons and i not in taken
        ]
        best = max(options, key=lambda o: o[0], default=None)  # the first of equals
        if best is None or best[0] <= 1e-12:
            kinds = " or ".join(k.capitalize() for k in (r.roll, *r.also))
            if r.roll == "wound" and r.name == "Command Re-roll":
                notes.append(_unused(out))
            elif r.face:
                notes.append(
                    f"{r.name}: not used: no {kinds} roll here that an unmodified {r.face} "
                    "could improve (or every weapon that could keeps another single roll)"
                )
            else:
                notes.append(
                    f"{r.name}: not used: no {kinds} roll here that re-rolling "
                    "once could improve (or every weapon that could keeps another re-roll)"
                )
            continue
        _, i, roll = best
        taken.add(i)
        p = out[i]
        if r.face:
            said = f"its first failed {roll.capitalize()} roll, changed to an unmodified {r.face}"
        else:
            said = {
                "wound": "its first failed Wound roll not re-rolled already",
                "hit": "its first failed Hit roll not re-rolled already",
                "damage": "its first Damage roll below a fresh roll's worth",
            }[roll]
        if roll == "wound":
            p = replace(p, command_reroll=True, single_face=r.face)
        elif roll == "hit":
            p = replace(p, reroll_one_hit=True, single_face=r.face)
        else:
            p = with_damage_reroll(p)
        out[i] = replace(
            p,
            choices=(
                *p.choices,
                f"{p.name}: {r.name} kept for {said} (the weapon where it adds most)",
            ),
        )
    return out, tuple(notes)


def gain_of(roll: str, p: AttackProfile, target: TargetProfile, face: int = 0) -> float:
    """What one single roll of kind ``roll`` ("hit", "wound", "damage"; ``face``: see
    :class:`SingleReroll`) adds to weapon ``p`` (:func:`hit_gain`, :func:`reroll_gain`,
    :func:`damage_gain`)."""
    if roll == "damage":
        return damage_gain(p, target)
    return (hit_gain if roll == "hit" else reroll_gain)(p, target, face)


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


def first_model(p: AttackProfile, target: TargetProfile) -> TargetModel:
    """The model ``p``'s attacks are allocated to first."""
    if p.precision and target.characters:
        return target.characters[0]
    return target.bodyguard[0] if target.bodyguard else target.characters[0]

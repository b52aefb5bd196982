"""Rule pieces both editions share: roll tables, the Wound roll table, saving throws, Damage,
Feel No Pain, and the optimal re-roll choices.

Each function returns plain profile pieces (:class:`~wh40k_calc.profile.RollTable`,
:class:`~wh40k_calc.profile.DamageTable`) and cites the rule it implements.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache
from math import ceil

import numpy as np

from ..dice import Dice, thin
from ..profile import (
    CRIT,
    CRIT_WOUND,
    FAIL,
    HIT,
    MISS,
    SAVE_FAILED,
    SAVED,
    WOUND,
    DamageTable,
    RollTable,
    VsModel,
)


def cap(modifier: int, limit: int = 1) -> int:
    """A roll modifier capped at ``-limit .. +limit`` (Core rules: Hit Roll, Wound Roll)."""
    return max(-limit, min(limit, modifier))


def wound_needed(strength: int, toughness: int) -> int:
    """The Wound roll needed (seeds README, Wound roll table): S >= 2T: 2+; S > T: 3+;
    S == T: 4+; S < T: 5+; S <= T/2: 6+."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def hit_outcomes(
    skill: int,
    modifier: int,
    crit_on: int,
    snap: bool,
    fail_up_to: int = 1,
    snap_on: int = 6,
) -> tuple[int, ...]:
    """Outcome (MISS/HIT/CRIT) of each unmodified Hit roll 1-6 (Core rules: Hit Roll).

    An unmodified 1 always fails (with ``fail_up_to`` 3, an unmodified 1-3: seeds README,
    [INDIRECT FIRE]); an unmodified ``crit_on``+ is a Critical Hit and always hits; otherwise
    the roll plus the (already capped) ``modifier`` must reach ``skill``. With ``snap`` (Fire
    Overwatch, snap shooting; 15.09) only an unmodified 6 hits, whatever the BS, the modifiers
    or a lower Critical Hit threshold; an effect may let snap shooting hit on an unmodified
    ``snap_on``+ instead: those results hit, and are Critical Hits from ``crit_on`` (a 6
    always is).
    """
    if snap:
        crit = min(crit_on, 6)
        return (MISS, *(MISS if f < snap_on else CRIT if f >= crit else HIT for f in range(1, 7)))
    return _success_table(skill, modifier, crit_on, fail_up_to)


def wound_outcomes(needed: int, modifier: int, crit_on: int) -> tuple[int, ...]:
    """Outcome (FAIL/WOUND/CRIT_WOUND) of each unmodified Wound roll 1-6 (Core rules: Wound
    Roll; Anti: an unmodified ``crit_on``+ is a Critical Wound and always wounds)."""
    return _success_table(needed, modifier, crit_on)


@lru_cache(maxsize=1024)  # pure, of a few small numbers: a batch asks the same tables 2,000 times
def _success_table(
    needed: int, modifier: int, crit_on: int, fail_up_to: int = 1
) -> tuple[int, ...]:
    """Outcome class of each unmodified D6 (index 1-6) of a Hit or Wound roll: 0 (MISS/FAIL)
    on a 1 (on 1 to ``fail_up_to``), 2 (CRIT/CRIT_WOUND) on ``crit_on``+, 1 (HIT/WOUND) when
    roll + modifier reaches ``needed``, else 0."""
    out = [FAIL]
    for f in range(1, 7):
        if f <= fail_up_to:
            out.append(FAIL)
        elif f >= crit_on:
            out.append(CRIT_WOUND)
        elif f + modifier >= needed:
            out.append(WOUND)
        else:
            out.append(FAIL)
    return tuple(out)


def save_outcomes(needed: int, modifier: int) -> tuple[int, ...]:
    """Outcome (SAVE_FAILED/SAVED) of each unmodified saving throw 1-6 (Core rules: Saving
    Throw): an unmodified 1 always fails; otherwise roll + ``modifier`` >= ``needed`` saves.
    ``needed`` 7 is a model with no save: only a +1 makes a 6 save."""
    out = [SAVE_FAILED]
    for f in range(1, 7):
        out.append(SAVED if f != 1 and f + modifier >= needed else SAVE_FAILED)
    return tuple(out)


def reroll_faces(
    outcome: Sequence[int],
    mode: str | None,
    failed: Sequence[int],
    values: Sequence[float] | None = None,
) -> tuple[bool, ...]:
    """Which unmodified results are re-rolled (Core rules: Re-rolls: re-rolls happen before
    modifiers and a die is re-rolled at most once).

    Args:
        outcome: outcome class per face (index 1-6).
        mode: None, "ones" (re-roll a 1), "fails" (re-roll results whose outcome is in
            ``failed``), or "all" (the player may re-roll any result: re-roll exactly those
            whose value is below a fresh roll's expected value).
        failed: outcome classes counted as failures.
        values: expected effective damage of each outcome class (needed for "all").
    """
    if mode is None:
        return (False,) * 7
    if mode == "ones":
        return (False, True, False, False, False, False, False)
    if mode == "fails":
        return (False, *[outcome[f] in failed for f in range(1, 7)])
    if mode == "all":
        assert values is not None
        fresh = sum(values[outcome[f]] for f in range(1, 7)) / 6
        return (False, *[values[outcome[f]] < fresh - 1e-12 for f in range(1, 7)])
    raise ValueError(f"unknown re-roll mode {mode!r}")


def rerolled(
    outcomes: tuple[int, ...],
    mode: str | None,
    failed: int,
    values: tuple[float, ...],
    roll: str,
    notes: list[str],
) -> RollTable:
    """A Hit or Wound roll's table: each face's outcome and whether it is re-rolled (Core
    rules: Re-rolls; :func:`reroll_faces`): under ``mode``, a 1 ("ones"), the faces whose
    outcome is ``failed`` ("fails"), or those worth less than a fresh roll by ``values``, the
    expected value of each outcome ("all"). The sentence naming the faces re-rolled (``roll``:
    ``NAME: Hit roll``) goes in ``notes``."""
    table = RollTable(outcomes, reroll_faces(outcomes, mode, (failed,), values))
    said = describe_rerolls(roll, table, mode)
    if said:
        notes.append(said)
    return table


def stronger(a: str | None, b: str | None) -> str | None:
    """The more generous of two re-roll permissions (None < ones < fails < all)."""
    order = [None, "ones", "fails", "all"]
    return a if order.index(a) >= order.index(b) else b


def describe_rerolls(kind: str, table: RollTable, mode: str | None) -> str | None:
    """A sentence for ``choices`` naming the results re-rolled under "all"."""
    if mode != "all":
        return None
    faces = table.rerolled_faces
    if not faces:
        return f"{kind}: no result re-rolled (a fresh roll would not be better)"
    return f"{kind}: re-rolled unmodified {', '.join(str(f) for f in faces)}"


def fnp_chance(x: int | None) -> float:
    """P(one point is ignored) for Feel No Pain X+ (None: no Feel No Pain)."""
    if x is None:
        return 0.0
    return max(0, 7 - x) / 6


def best_of(*values: int | None) -> int | None:
    """The best (lowest) of several X+ values, ignoring None."""
    present = [v for v in values if v is not None]
    return min(present) if present else None


def choose_save(armour: RollTable, invuln: RollTable | None) -> tuple[RollTable, bool]:
    """The defender's choice of armour or invulnerable save (Core rules: Invulnerable Saves):
    the one less likely to fail. Returns (table, used_invulnerable)."""
    if invuln is None:
        return armour, False
    pa = armour.probabilities(2)[SAVE_FAILED]
    pi = invuln.probabilities(2)[SAVE_FAILED]
    return (invuln, True) if pi < pa - 1e-12 else (armour, False)


def damage_outcomes(
    dice: Dice, extra: Dice | tuple[Dice, ...] | None
) -> tuple[tuple[float, ...], list[tuple[int, int]]]:
    """The Damage roll's outcomes: probabilities and (damage roll, extra roll) value pairs.
    ``extra`` is what is added that is itself rolled ([MELTA D3], an effect's +D3 Damage;
    several are summed); constants fold in later."""
    d = dice.pmf
    e = np.ones(1)
    for x in (extra,) if isinstance(extra, Dice) else (extra or ()):
        e = np.convolve(e, x.pmf)
    probs, pairs = [], []
    for (i, p), (j, q) in itertools.product(enumerate(d), enumerate(e)):
        if p * q:
            probs.append(p * q)
            pairs.append((i, j))
    return tuple(probs), pairs


def final_damage(
    rolled: int, bonus: int, halve: bool, add: int, reduce: int, halve_after_adding: bool = False
) -> int:
    """Damage after modifiers: ``rolled`` (the D roll), ``bonus`` ([MELTA X], effects' +D) and
    ``add`` (``--damage-mod``: added if positive, subtracted if negative), halved with
    ``halve``, less ``reduce``; never below 1.

    10th edition (seeds README): halving (rounding up) comes before adding or subtracting.
    Edition 11 (``halve_after_adding``; 02.02.01 Applying Modifiers): additions first, then
    division, then subtractions, and fractions are rounded up after all of them; "D cannot be
    less than 1"."""
    if not halve_after_adding:
        d = ceil(rolled / 2) if halve else rolled
        return max(1, d + bonus + add - reduce)
    up = rolled + bonus + max(add, 0)
    down = reduce + max(-add, 0)
    return max(1, ceil((up / 2 if halve else up) - down))


def effective_value(damage_pmf: np.ndarray, keep: float, cap_wounds: int) -> float:
    """Expected damage that counts against one model: points kept by Feel No Pain (each
    independently with probability ``keep``), capped at ``cap_wounds`` (DESIGN.md: the
    per-die choices maximise this)."""
    kept = thin(damage_pmf, keep)
    return float(np.dot(np.minimum(np.arange(len(kept)), cap_wounds), kept))


@lru_cache(maxsize=1024)  # a batch makes the same few tables thousands of times (immutable)
def damage_table(
    dice: Dice,
    melta: Dice | tuple[Dice, ...] | None,
    halve: bool,
    add: int,
    reduce: int,
    reroll: bool,
    keep: float,
    max_wounds: int,
    label: str,
    halve_after_adding: bool = False,
) -> DamageTable:
    """A Damage roll: outcomes, their final damage (:func:`final_damage`; the edition says
    where halving comes, ``halve_after_adding``), and (with ``reroll``) the outcomes re-rolled
    (``melta``: what is added to the roll, [MELTA X] and effects' +D, one or several) against
    a model with each number of wounds left: those whose effective damage is below a fresh
    roll's (DESIGN.md: per-die choices)."""
    added = (melta,) if isinstance(melta, Dice) else (melta or ())
    melta_const = sum(x.bonus for x in added if x.is_constant)
    melta_dice = tuple(x for x in added if not x.is_constant)
    probs, pairs = damage_outcomes(dice, melta_dice)
    final = tuple(
        final_damage(i, j + melta_const, halve, add, reduce, halve_after_adding) for i, j in pairs
    )
    rr: tuple[frozenset[int], ...] = ()
    if reroll:
        sets = []
        for w in range(max_wounds + 1):
            cap_w = w if w else max_wounds
            vals = [effective_value(_point(f), keep, cap_w) for f in final]
            fresh = sum(p * v for p, v in zip(probs, vals, strict=True))
            sets.append(frozenset(i for i, v in enumerate(vals) if v < fresh - 1e-12))
        rr = tuple(sets)
    return DamageTable(probs, final, rr, label, _substituted_faces(dice, melta_dice, pairs))


def _substituted_faces(
    dice: Dice, melta_dice: tuple[Dice, ...], pairs: list[tuple[int, int]]
) -> tuple[int, ...]:
    """The outcome of the Damage roll when its die is replaced by a D6 result of 1-6
    (``DamageTable.faces``): for a roll of one D6 or one D3 (Core rules: Dice; edition 11:
    01.05 Dice: a D3 is a D6 halved, rounding up) plus a constant, with nothing else rolled;
    empty otherwise (a fixed Damage, 2D6, a rolled bonus such as [MELTA D3])."""
    if dice.count != 1 or dice.sides not in (3, 6) or melta_dice:
        return ()
    value = [(ceil(f / 2) if dice.sides == 3 else f) + dice.bonus for f in range(1, 7)]
    return tuple(pairs.index((v, 0)) for v in value)


def _point(d: int) -> np.ndarray:
    out = np.zeros(d + 1)
    out[d] = 1.0
    return out


@lru_cache(maxsize=1024)  # pure, of immutable records: each kind's values worked out once
def wound_values(vs: VsModel, wounds: int, devastating: bool) -> tuple[float, float, float]:
    """Expected effective damage of a failed, a successful and a Critical Wound roll against
    the first model the attack would be allocated to (``vs`` its saves and damage, ``wounds``
    its W; DESIGN.md: per-die choices maximise it): failed save x damage through Feel No Pain,
    capped at W; with [DEVASTATING WOUNDS] a Critical Wound's mortal wounds take no save."""
    dmg = vs.damage.pmf(wounds)
    normal = vs.save_fail_probability * effective_value(dmg, 1 - vs.fnp, wounds)
    devast = effective_value(vs.devastating_damage.pmf(wounds), 1 - vs.fnp_mortal, wounds)
    return (0.0, normal, devast if devastating else normal)


__all__ = [
    "CRIT",
    "CRIT_WOUND",
    "FAIL",
    "HIT",
    "MISS",
    "SAVED",
    "SAVE_FAILED",
    "WOUND",
    "best_of",
    "cap",
    "choose_save",
    "damage_table",
    "describe_rerolls",
    "effective_value",
    "final_damage",
    "fnp_chance",
    "hit_outcomes",
    "reroll_faces",
    "rerolled",
    "save_outcomes",
    "stronger",
    "wound_needed",
    "wound_outcomes",
    "wound_values",
]

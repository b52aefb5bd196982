"""Acts of Faith (Adepta Sororitas army rule, both editions) and Sacred Rites (Army of Faith
detachment rule, edition 11): which rolls the Miracle dice the player holds replace.

The rule: before a dice roll is made for the unit, it may replace one die with a Miracle dice
from the pool, whose value counts as an unmodified roll of it (every modifier still applies);
each Miracle dice is used once, one Act of Faith per phase (Sacred Rites: two), a roll of
several dice has one of them replaced. The player gives the values (``--effect
acts-of-faith:6``; :mod:`wh40k_calc.miracle_dice`). Since the choice is made before the die is
rolled, it is never conditioned on that die's result: a weapon's first Hit roll, first Wound
roll, first Damage roll or (the unit being the target) the first saving throw against one
weapon's wounds takes the value (``profile.Substituted``; the engines read only that).

A value is kept for the roll and weapon where it adds most (:func:`keep_miracle_dice`), valued
as the single re-rolls are (``command_reroll``: expected effective damage against the first
model the attacks go to; for a saving throw, the damage it spares): one value after another,
the largest gain first, a second value on the same roll of the same weapon valued on that
weapon making a second such roll. A value that adds nothing anywhere (a 1 on a Hit roll) is
not used, said in a note: performing an Act of Faith is the player's option. The defender's
die goes on the first saving throw of one weapon's attacks (a slight underestimate next to a
defender who spends it on the first save whatever the weapon), and the attacker's choices are
scored without it (:func:`attackers_view`): the attacker declares its attacks before any save.
The rule lists the rolls a Miracle dice may replace (Advance, Battle-shock, Charge, Damage,
Hit, saving throw, Wound, in both editions' data): never an Attacks roll.

Decided here (the rule text is silent): a substituted die is not re-rolled (the Miracle dice's
value "cannot be changed or re-rolled"; a re-roll of it could only undo the player's choice), so
a weapon that keeps a single re-roll (Command Re-roll, a rule's one Hit or Damage re-roll) takes
no Miracle dice; a saving throw is replaced only by a value that passes against every kind of
model the weapon's attacks may be allocated to (then it saves one wound outright); a Damage roll
only where it is one D6 or one D3 plus a constant (a D3 is a D6 halved, rounding up: Core rules,
Dice; 01.05), and the exact engine declines it (sampled).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from msgspec import Struct

from ..miracle_dice import ROLL_NAMES, MiracleDice, miracle_options
from ..profile import (
    CRIT,
    CRIT_WOUND,
    FAIL,
    HIT,
    MISS,
    WOUND,
    AttackProfile,
    Substituted,
    TargetProfile,
)
from ..records import replace
from ..selection import effect_error
from . import common as c
from .command_reroll import at_least, first_model, hit_values

if TYPE_CHECKING:
    from ..datasheet import Weapon
    from ..profile import Activation
    from ..units import ModelGroup
    from .changes import Piece
    from .situation import Situation

_FIELD = {"hit": "hits", "wound": "wounds", "damage": "damage", "save": "saves"}


class Miracle(Struct, frozen=True):
    """The Miracle dice one side holds: for ``side`` ("attacker": its attacks' Hit, Wound and
    Damage rolls; "target": its saving throws), the rule's ``name`` and ``--effect`` ``text``,
    the ``dice`` and the weapon profiles (``weapons``, by name) whose rolls they may replace."""

    side: str
    name: str
    text: str
    dice: MiracleDice
    weapons: frozenset[str]


def miracle_requests(
    s: Situation, origins: dict[str, tuple[ModelGroup, Weapon, int]]
) -> list[Miracle]:
    """The Miracle dice of the effects acting (``miracle_dice`` changes), at most one set per
    side, with the attacking weapons (``origins``: profile name -> model group, weapon) they may
    be used on.

    Raises:
        EffectUsageError: more values than the rules acting allow, or only rolls named that
            the side the unit is on cannot use (a saving throw when it attacks).
        EffectError: both units may use the dice given (the rolls named do not say whose).
    """
    fx = s.changes
    out: list[Miracle] = []
    by_side: dict[str, list[Piece]] = {}
    for side in ("attacker", "target"):
        pieces = fx.fields(side, "miracle_dice")
        if pieces:
            by_side[side] = pieces
    if len(by_side) == 2:  # both units may: the rolls named say whose dice these are
        for side in ("attacker", "target"):
            if not _dice(by_side[side], side, s.sel.effects).allowed(side):
                del by_side[side]
                break
        if len(by_side) == 2:
            text = _text(by_side["attacker"])
            raise effect_error(
                f"--effect {text}: both units may perform Acts of Faith here; name the roll to "
                "say whose Miracle dice these are (hit, wound or damage for the attacker's, "
                "save for the target's)",
                s.sel.effects,
                text,
            )
    for side, pieces in by_side.items():
        dice = _dice(pieces, side, s.sel.effects)
        text, name = _text(pieces), " and ".join(dict.fromkeys(p.name for p in pieces))
        if not dice.allowed(side):
            wanted = " or ".join(ROLL_NAMES[r] for r in dice.rolls)
            where = "the target" if side == "attacker" else "attacking"
            raise effect_error(
                f"--effect {text}: a {wanted} is replaced only when the unit is {where}: here "
                f"it is {'attacking' if side == 'attacker' else 'the target'}",
                s.sel.effects,
                text,
                usage=True,
            )
        weapons = frozenset(
            pname
            for pname, (g, w, _) in origins.items()
            if any(p in pieces for p in _pieces(s, side, w, g))
        )
        out.append(Miracle(side, name, text, dice, weapons))
    return out


def _pieces(s: Situation, side: str, w: Weapon, g: ModelGroup) -> list[Piece]:
    fx = s.changes
    a = fx.attack(w, g)
    return fx.attacker("miracle_dice", a) if side == "attacker" else fx.target("miracle_dice", a)


def _text(pieces: list[Piece]) -> str:
    """The ``--effect`` as the player wrote it (the first record's), for messages."""
    a = pieces[0].active
    return f"{a.effect.id}:{','.join(a.given)}" if a.given else a.effect.id


def _dice(pieces: list[Piece], side: str, effects: tuple[str, ...] = ()) -> MiracleDice:
    """The dice the side's Miracle records were given, within the largest limit of them
    (Acts of Faith and Sacred Rites named together: two)."""
    limit = max(int(p.value) for p in pieces)  # type: ignore[call-overload]
    given: list[str] = []
    seen: set[tuple] = set()
    for p in pieces:
        key = p.active.key
        if key not in seen:
            seen.add(key)
            given += list(p.active.given)
    name = " and ".join(dict.fromkeys(p.active.effect.rule for p in pieces))
    text = _text(pieces)
    try:
        return miracle_options(text, name, tuple(given), limit)
    except LookupError as exc:
        raise effect_error(str(exc), effects, text, usage=True) from None


# ---- choosing the rolls ------------------------------------------------------------------------


def keep_miracle_dice(
    profiles: list[AttackProfile], target: TargetProfile, miracles: list[Miracle]
) -> tuple[list[AttackProfile], tuple[str, ...]]:
    """``profiles`` with each side's Miracle dice kept for the rolls and weapons where they add
    most (:func:`gain`; the first of equals), said in the weapon's ``choices``; notes for the
    dice not used (nothing to gain, or only on weapons that keep a single re-roll).

    (:func:`check_named_rolls` refuses, for the whole plan, rolls named that no weapon of the
    unit's makes.)
    """
    out = list(profiles)
    notes: list[str] = []
    for m in miracles:
        rolls = m.dice.allowed(m.side)
        scope = [i for i, p in enumerate(out) if p.name in m.weapons]
        able = [r for r in rolls if any(_makes(out[i], r) for i in scope)]
        free = [i for i in scope if not _keeps_reroll(out[i])]
        left = list(m.dice.values)
        while left:
            best = (1e-12, -1, "", -1)
            for j, v in enumerate(left):
                for r in able:
                    for i in free:
                        g = gain(out[i], target, r, v)
                        if g > best[0]:
                            best = (g, j, r, i)
            _, j, r, i = best
            if j < 0:
                break
            v = left.pop(j)
            out[i] = _substitute(out[i], r, v, m, len(rolls) == 1)
        if left:  # one note for every value left (two 1s: "of 1 and 1")
            one = len(left) == 1
            why = (
                f"the weapons that could use {'it' if one else 'them'} keep a single re-roll "
                "(a die replaced is never re-rolled)"
                if len(free) < len(scope) and any(_makes(out[i], r) for i in scope for r in able)
                else f"{'it adds nothing' if one else 'neither adds anything'} to any "
                + " or ".join(ROLL_NAMES[r] for r in rolls)
                + " here"
            )
            values = " and ".join(str(v) for v in left)
            notes.append(f"{m.name}: the Miracle dice of {values} not used: {why}")
    return out, tuple(notes)


def attackers_view(act: Activation) -> Activation:
    """``act`` without the defender's Miracle dice (its saving throws replaced), for scoring
    the attacker's choices (weapons, variants, weapon order): the attacker declares its attacks
    before the defender rolls a save, so a die the defender will place where it adds most
    (:func:`keep_miracle_dice`) cannot steer them. ``act`` itself when it has none."""
    weapons = []
    for p in act.weapons:
        sub = p.substituted
        if sub is not None and sub.saves:
            sub = replace(sub, saves=())
            p = replace(p, substituted=sub if sub else None)
        weapons.append(p)
    if all(a is b for a, b in zip(weapons, act.weapons, strict=True)):
        return act
    return replace(act, weapons=tuple(weapons))


def check_named_rolls(s: Situation, weapons: list[Weapon]) -> frozenset[str]:
    """Refuse Miracle dice whose rolls named no weapon that may attack (``weapons``: of every
    weapon option) makes: a Hit roll with [TORRENT] weapons only, a Damage roll where every
    Damage is fixed or rolls more than one die (2D6). The side and the values are checked too
    (:func:`miracle_requests`).

    Returns:
        The sides that hold the dice (Sisters against Sisters with ``save`` named: the
        target's alone), for the report's Effects line.

    Raises:
        EffectUsageError: as said, or as :func:`miracle_requests`.
    """
    origins = {w.name: (None, w, 0) for w in weapons}
    requests = miracle_requests(s, origins)  # type: ignore[arg-type]
    for m in requests:
        rolls = m.dice.allowed(m.side)
        if not m.dice.rolls or m.side == "target":
            continue
        mine = [w for w in weapons if w.name in m.weapons]
        if not any(_weapon_makes(w, r) for w in mine for r in rolls):
            wanted = " or ".join(ROLL_NAMES[r] for r in rolls)
            raise effect_error(
                f"--effect {m.text}: no weapon of the unit here makes a {wanted} to replace"
                + (
                    " (its Damage is fixed, or more than one die)"
                    if rolls == ("damage",)
                    else " ([TORRENT] weapons hit automatically)"
                    if rolls == ("hit",)
                    else ""
                ),
                s.sel.effects,
                m.text,
                usage=True,
            )
    return frozenset(m.side for m in requests)


def miracle_only_sides(
    sides: dict[str, list[str]], changes, holding: frozenset[str]
) -> dict[str, list[str]]:
    """``sides`` (effect id -> the sides it acts for) without the sides that do not hold the
    Miracle dice (``holding``: :func:`check_named_rolls`) for the records whose every change
    is ``miracle_dice`` (Acts of Faith, Sacred Rites: they do nothing else there)."""
    only = {
        p.active.effect.id
        for side in ("attacker", "target")
        for p in changes.fields(side, "miracle_dice")
        if all(ch.miracle_dice for ch in p.active.effect.changes)
    }
    return {
        eid: [x for x in ss if x in holding] if eid in only else ss for eid, ss in sides.items()
    }


def _weapon_makes(w: Weapon, roll: str) -> bool:
    """Whether a datasheet weapon's attacks make a roll of this kind a die can replace."""
    if roll == "hit":
        return not w.abilities.torrent
    if roll == "damage":
        return w.D.count == 1 and w.D.sides in (3, 6)
    return True


def _keeps_reroll(p: AttackProfile) -> bool:
    return p.command_reroll or p.reroll_one_hit or p.reroll_one_damage


def _makes(p: AttackProfile, roll: str) -> bool:
    """Whether weapon ``p``'s attacks make a roll of this kind that a die can replace."""
    if roll == "hit":
        return p.hit is not None
    if roll == "damage":
        return all(len(v.damage.faces) == 6 for v in p.vs)
    if roll == "save":
        return any(v.save is not None for v in p.vs)
    return True


def _substitute(p: AttackProfile, roll: str, v: int, m: Miracle, single: bool) -> AttackProfile:
    """``p`` with one more of its ``roll`` rolls fixed at ``v``, said in its choices
    (``single``: the only kind of roll the dice could replace)."""
    sub = p.substituted or Substituted()
    field = _FIELD[roll]
    sub = replace(sub, **{field: (*getattr(sub, field), v)})
    nth = len(getattr(sub, field))
    which = {1: "first", 2: "second"}.get(nth, f"{nth}th")
    against = " against its attacks" if roll == "save" else ""
    why = "the weapon where it adds most" if single else "the roll and weapon where it adds most"
    said = (
        f"{p.name}: {m.name}: a Miracle dice of {v} replaces the {which} "
        f"{ROLL_NAMES[roll]}{against} ({why})"
    )
    return replace(p, substituted=sub, choices=(*p.choices, said))


def gain(p: AttackProfile, target: TargetProfile, roll: str, v: int) -> float:
    """What a Miracle dice of value ``v`` on weapon ``p``'s next ``roll`` not yet replaced adds,
    in expected effective damage against the first model its attacks go to (for a saving throw
    of the target's, the damage it spares): P(the weapon makes that many such rolls) x (the
    worth of the fixed result - that of a roll, re-rolls included). 0 where it cannot help."""
    sub = p.substituted or Substituted()
    k = len(getattr(sub, _FIELD[roll])) + 1
    attacks = p.attack_pmf(target.models)
    first = first_model(p, target)
    vs = p.vs[first.kind]
    if roll == "hit":
        if p.hit is None:
            return 0.0
        values = hit_values(p, target)
        mean = float(np.dot(p.hit.probabilities(3), values))
        return at_least(attacks, 1.0, k) * (values[p.hit.outcome[v]] - mean)
    ph = np.array([0.0, 1.0, 0.0]) if p.hit is None else p.hit.probabilities(3)
    pw = p.wound.probabilities(3)
    if roll == "wound":
        values = c.wound_values(vs, first.W, p.devastating)
        mean = float(np.dot(pw, values))
        rolls = float(ph[HIT] + (ph[CRIT] if not p.lethal or p.sustained is not None else 0.0))
        return at_least(attacks, rolls, k) * (values[p.wound.outcome[v]] - mean)
    if roll == "damage":
        table = vs.damage
        if len(table.faces) != 6:
            return 0.0
        keep = 1 - vs.fnp
        fresh = c.effective_value(table.pmf(first.W), keep, first.W)
        fixed = min(table.final[table.face_outcome(v)], first.W) * keep
        q = float(1 - ph[MISS]) * float(1 - pw[FAIL]) * vs.save_fail_probability
        return at_least(attacks, q, k) * (fixed - fresh)
    # a saving throw against p's wounds: it saves one wound outright, if it always passes
    if not p.save_passes(v):
        return 0.0
    normal = pw[WOUND] + (0.0 if p.devastating else pw[CRIT_WOUND])
    q = float(1 - ph[MISS]) * float(normal)
    return at_least(attacks, q, k) * c.wound_values(vs, first.W, p.devastating)[WOUND]

"""Damage and Feel No Pain (Core rules: Inflict Damage, Feel No Pain, Melta, Mortal Wounds;
edition 11: 05.04 Inflict Damage, 05.04.02 Modifying Damage, 24.12 Feel No Pain, 24.25
[MELTA]): what one failed save does to one kind of target model.

Damage is the weapon's D, plus [MELTA X] within half range, halved (the model's ability or
``--half-damage``) — in 10th edition before anything is added or subtracted, in edition 11
after the additions and before the subtractions (02.02.01 Applying Modifiers:
:meth:`~.edition.Edition.halve_after_adding`) — reduced by the model's and the target's
abilities, never below 1 (:func:`~wh40k_calc.rules.common.damage_table`); each point
may then be ignored by Feel No Pain, of which a model can have several kinds (against every
attack, against mortal wounds only, against Psychic Attacks only). :func:`vs_model` joins this
with the saving throw (``save``) into the piece the engines read per kind of model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dice import Dice
from ..kept import Kept
from ..profile import DamageTable, VsModel
from . import common as c
from .changes import names, total
from .cover import attack_in_cover
from .save import save_table

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from .changes import Attack
    from .situation import Situation
    from .target import Kind


def feel_no_pain(
    s: Situation, ab: WeaponAbilities, k: Kind, attack: Attack | None
) -> tuple[int | None, int | None]:
    """Feel No Pain X+ (None: none) of a model of kind ``k`` against an attack's normal damage
    and against mortal wounds (Core rules: Feel No Pain; the best one counts): the model's,
    the target's effects' and ``--fnp`` / ``--fnp-mortal``; one "against Psychic Attacks"
    counts for a [PSYCHIC] weapon's (``ab``) damage of both kinds, one "against mortal wounds"
    for mortal wounds only. ``attack`` None: mortal wounds outside an attack (before it)."""
    mods, fx = s.sel.modifiers, s.changes

    def best(field: str) -> list[int]:
        got = fx.target(field, attack, bearer=k.bearer, target_models=k.alive)
        return [int(p.value) for p in got]  # type: ignore[call-overload]

    psychic = [k.fnp_psychic, *best("fnp_psychic")] if ab.psychic else []
    normal = c.best_of(k.fnp, mods.fnp, *best("fnp"), *psychic)
    mortal = c.best_of(normal, mods.fnp_mortal, k.fnp_mortal, *best("fnp_mortal"))
    return normal, mortal


VS_KEPT = 1024
_VS: Kept[tuple, VsModel] = Kept(VS_KEPT)

# Everything vs_model (with save_table, feel_no_pain, attack_in_cover and the tables they make)
# reads where no effect has a change (``s.changes`` has no piece), by name: the parts of
# vs_key's key, in its order. A new input of any of them joins this list and the key
# (``tests/test_shared_work.py`` changes each part alone and checks that the key changes).
VS_INPUTS = (
    "cover",  # 10th edition's +1 save: the edition, attack_in_cover (--cover, Stealth, ...)
    "ap",  # the weapon's AP improved by ap_improve, never above 0
    "weapon.D",
    "fnp_psychic",  # the model's Feel No Pain against Psychic Attacks, for a [PSYCHIC] weapon
    "melta",  # [MELTA X]'s X where it adds (within half range, a ranged attack), else None
    "mortal_damage",  # [DEVASTATING WOUNDS] where they are mortal wounds unallocated (24.10)
    "edition.halve_after_adding",
    "kind.W",
    "kind.Sv",
    "kind.invuln",  # against this weapon's kind of attack
    "kind.fnp",
    "kind.fnp_mortal",
    "kind.damage_reduction",
    "kind.half_damage",
    "modifiers.save_mod",
    "modifiers.reroll_saves",
    "modifiers.fnp",
    "modifiers.fnp_mortal",
    "modifiers.damage_reduction",
    "modifiers.half_damage",
    "modifiers.damage_mod",
    "modifiers.reroll_damage",
    "reroll",
)


def vs_key(
    s: Situation, attack: Attack, ab: WeaponAbilities, ap_improve: int, k: Kind, reroll: bool
) -> tuple | None:
    """The key :func:`vs_model` is kept by, one part per name of :data:`VS_INPUTS` in its
    order, or None where an effect has a change in the activation (``s.changes`` holds a
    piece: then the target's and the attacker's effects are read, per attack and model kind,
    and nothing is kept). A batch meets the same weapons against the same model kinds run
    after run, under conditions and at unit sizes the save and the Damage do not read."""
    fx = s.changes
    if fx.by:
        return None
    w, e = attack.weapon, s.edition
    mods = s.sel.modifiers
    return (
        e.cover_improves_save() and attack_in_cover(s, w, ab),
        min(0, w.AP - ap_improve),
        w.D,
        k.fnp_psychic if ab.psychic else None,
        _melta(s, attack, ab),
        ab.devastating_wounds and not e.devastating_allocated(),
        e.halve_after_adding(),
        k.W,
        k.Sv,
        k.invuln(w.is_melee),
        k.fnp,
        k.fnp_mortal,
        k.damage_reduction,
        k.half_damage,
        mods.save_mod,
        mods.reroll_saves,
        mods.fnp,
        mods.fnp_mortal,
        mods.damage_reduction,
        mods.half_damage,
        mods.damage_mod,
        mods.reroll_damage,
        reroll,
    )


def vs_model(
    s: Situation,
    attack: Attack,
    ab: WeaponAbilities,
    ap_improve: int,
    k: Kind,
    label: str = "",
    notes: list[str] | None = None,
    reroll: bool = False,
) -> VsModel:
    """:func:`made_vs_model`, made once per process for each :func:`vs_key` where no effect
    has a change (a VsModel is frozen: the one kept is shared; without effects it writes no
    note)."""
    key = vs_key(s, attack, ab, ap_improve, k, reroll)
    if key is None:
        return made_vs_model(s, attack, ab, ap_improve, k, label, notes, reroll)
    got = _VS.get(key)
    if got is None:
        got = _VS.put(key, made_vs_model(s, attack, ab, ap_improve, k, label, notes, reroll))
    return got


def made_vs_model(
    s: Situation,
    attack: Attack,
    ab: WeaponAbilities,
    ap_improve: int,
    k: Kind,
    label: str = "",
    notes: list[str] | None = None,
    reroll: bool = False,
) -> VsModel:
    """What ``attack``'s attacks (abilities ``ab`` after effects, AP improved by
    ``ap_improve``) do to a model of kind ``k`` once they wound it: its saving throw
    (:func:`~.save.save_table`), the Damage roll and the chances that Feel No Pain ignores a
    point of normal damage and of a mortal wound.

    Damage (02.02.01 Modifiers, in their order): set to N first where a target effect says so
    (the lowest); then [MELTA X] within half range and the attacker's Damage changes (numbers
    or dice) added, halving (the model's, ``--half-damage``, a target effect) — in 10th
    edition before the additions, in edition 11 after them
    (:meth:`~.edition.Edition.halve_after_adding`) — and reductions (``--damage-reduction``,
    the model's, the target's effects, a negative change) subtracted, never below 1; the
    harmful ones (reductions, halving, a negative ``--damage-mod``) dropped where the attacks
    ignore harmful Damage modifiers. Re-rolled
    with ``--reroll-damage`` or an effect, where that raises the effective damage against a
    model of ``k.W`` wounds (``reroll``: the table says which results a re-roll takes, for a
    weapon that keeps a single Damage re-roll).

    With [DEVASTATING WOUNDS] in an edition whose Critical Wounds inflict mortal wounds
    without the attack being allocated (edition 11, 24.10:
    :meth:`~.edition.Edition.devastating_allocated`), their number is the weapon's D with
    the same additions, but of the target's rules only those acting before allocation (an
    effect's ``before_allocation``: when the attack targets the unit, 04.02.02, 04.01.04);
    the model's own reductions, ``--damage-reduction`` and ``--half-damage`` act on
    allocation and do not count (``VsModel.mortal_damage``)."""
    sel, fx, w = s.sel, s.changes, attack.weapon
    mods = sel.modifiers
    save = save_table(s, attack, ab, ap_improve, k)
    fnp, fnp_m = feel_no_pain(s, ab, k, attack)

    # the target's changes to the Damage, each field read once (also for the mortal wounds)
    got = {f: fx.target(f, attack, bearer=k.bearer, target_models=k.alive) for f in _TARGET_DAMAGE}
    reduce = mods.damage_reduction + k.damage_reduction + total(got["damage_reduction"])
    halve = mods.half_damage or k.half_damage or bool(got["half_damage"])
    sets = [int(p.value) for p in got["damage_set"]]  # type: ignore[call-overload]
    adds = [mods.damage_mod] if mods.damage_mod else []
    extra: list[Dice] = []
    for p in fx.attacker("damage", attack):
        if isinstance(p.value, int):
            adds.append(p.value)
        else:
            extra.append(Dice.parse(p.value))  # type: ignore[arg-type]
    ignores = fx.ignores(attack, "damage")
    if ignores:
        if notes is not None and (reduce or halve or any(a < 0 for a in adds)):
            who = " and ".join(names(fx.attacker("ignore_harmful", attack)))
            notes.append(f"{label}: {who}: ignored the modifiers that lower its Damage")
        reduce, halve, adds = 0, False, [a for a in adds if a > 0]
    melta = _melta(s, attack, ab)
    if melta is not None:
        extra.insert(0, melta)
    rerolled = reroll or mods.reroll_damage or bool(fx.attacker("reroll_damage", attack))
    keep = 1 - c.fnp_chance(fnp)

    def table(sets: list[int], halve: bool, reduce: int) -> DamageTable:
        dice = Dice.parse(min(sets)) if sets else w.D
        add = sum(a for a in adds if a > 0)  # additions; a negative one is a subtraction
        reduce -= sum(a for a in adds if a < 0)
        return c.damage_table(
            dice,
            tuple(extra) if extra else None,
            halve,
            add,
            reduce,
            rerolled,
            keep,
            k.W,
            str(dice),
            s.edition.halve_after_adding(),
        )

    dmg = table(sets, halve, reduce)
    mortal = None
    if ab.devastating_wounds and not s.edition.devastating_allocated():
        # 24.10: the weapon's D, changed only by the target's rules that act before allocation
        early = [p for f in _TARGET_DAMAGE for p in got[f] if p.change.before_allocation]
        kept = [] if ignores else early  # a Damage set to N is kept, as above
        m = table(
            [int(p.value) for p in early if p.change.damage_set is not None],  # type: ignore[call-overload]
            any(p.change.half_damage for p in kept),
            total(p for p in kept if p.change.damage_reduction is not None),
        )
        mortal = None if m == dmg else m
    return VsModel(save, dmg, c.fnp_chance(fnp), c.fnp_chance(fnp_m), mortal)


def _melta(s: Situation, attack: Attack, ab: WeaponAbilities) -> Dice | None:
    """The Damage [MELTA X] adds to ``attack`` (within half range, ranged), or None."""
    melta = ab.melta
    if melta is None or not s.sel.conditions.half_range or attack.weapon.is_melee:
        return None
    return melta


# the target's changes to the Damage of the attacks it takes (effect_schema.Change)
_TARGET_DAMAGE = ("damage_set", "half_damage", "damage_reduction")

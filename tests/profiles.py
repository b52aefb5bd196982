"""Builders of resolved profiles for the engine tests (agreement, properties, sampler, benches).

The tables come from the rules layer's own helpers (``wh40k_calc.rules.common``), so a profile
built here is the one the rules layer would build for the same numbers: Hit and Wound tables
with Critical thresholds, modifiers and re-roll masks; the armour or invulnerable save the
defender would choose (cover, AP); a Damage table with its per-wounds-left re-rolls.

Typical use::

    kinds = (Kind(W=1, Sv=5), Kind(W=2, Sv=4, name="Nob"))
    target = unit(kinds, [(0, 9), (1, 1)])
    gun = weapon(kinds, A=2, skill=4, S=5, T=5, AP=-1, D="D3", sustained="1")
    act = Activation((gun,), target)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numpy as np

from wh40k_calc.dice import Dice
from wh40k_calc.profile import (
    Activation,
    AttackProfile,
    HazardProfile,
    MortalWounds,
    RollTable,
    TargetModel,
    TargetProfile,
    VsModel,
)
from wh40k_calc.rules import common as c


@dataclass(frozen=True)
class Kind:
    """One kind of target model: W, armour save, invulnerable save, Feel No Pain (X+, None:
    none) and Feel No Pain against mortal wounds only."""

    W: int = 1
    Sv: int = 4
    invuln: int | None = None
    fnp: int | None = None
    fnp_mortal: int | None = None
    name: str = "model"


def vs_model(
    k: Kind,
    *,
    AP: int = 0,
    D: str | int = 1,
    cover: bool = False,
    save_mod: int = 0,
    reroll_saves: str | None = None,
    reroll_damage: bool = False,
    damage_mod: int = 0,
    reduce: int = 0,
    halve: bool = False,
    melta: str | int | None = None,
) -> VsModel:
    """What one attack does to one kind (Core rules: Saving Throw, Invulnerable Saves, Benefit
    of Cover, Damage, Feel No Pain), as ``rules.damage.vs_model`` builds it."""
    if cover and k.Sv <= 3 and AP == 0:
        cover = False
    armour_o = c.save_outcomes(k.Sv, min(AP + (1 if cover else 0) + save_mod, 1))
    armour = RollTable(armour_o, c.reroll_faces(armour_o, reroll_saves, (c.SAVE_FAILED,)))
    inv = None
    if k.invuln is not None:
        io = c.save_outcomes(k.invuln, min(save_mod, 1))
        inv = RollTable(io, c.reroll_faces(io, reroll_saves, (c.SAVE_FAILED,)))
    table, _ = c.choose_save(armour, inv)
    save = None if all(table.outcome[f] == c.SAVE_FAILED for f in range(1, 7)) else table
    fnp = c.fnp_chance(k.fnp)
    fnp_m = c.fnp_chance(c.best_of(k.fnp, k.fnp_mortal))
    dmg = c.damage_table(
        Dice.parse(D),
        Dice.parse(melta) if melta is not None else None,
        halve,
        damage_mod,
        reduce,
        reroll_damage,
        1 - fnp,
        k.W,
        str(D),
    )
    return VsModel(save, dmg, fnp, fnp_m)


def weapon(
    kinds: Sequence[Kind],
    name: str = "gun",
    *,
    models: int = 1,
    A: str | int = 1,
    skill: int | None = 4,
    S: int = 4,
    T: int = 4,
    AP: int = 0,
    D: str | int = 1,
    hit_mod: int = 0,
    wound_mod: int = 0,
    crit_hit: int = 6,
    anti: int = 6,
    reroll_hits: str | None = None,
    reroll_wounds: str | None = None,
    sustained: str | int | None = None,
    lethal: bool = False,
    devastating: bool = False,
    blast: bool = False,
    precision: bool = False,
    precision_mortals: bool | None = None,
    snap: bool = False,
    cover: bool = False,
    save_mod: int = 0,
    reroll_saves: str | None = None,
    reroll_damage: bool = False,
    damage_mod: int = 0,
    reduce: int = 0,
    halve: bool = False,
    melta: str | int | None = None,
    ranged: bool = True,
) -> AttackProfile:
    """One weapon profile against a target made of ``kinds`` (``skill`` None: [TORRENT];
    ``anti``: Critical Wound on an unmodified ``anti``+; ``sustained``: [SUSTAINED HITS X];
    ``precision_mortals``: whether Devastating Wounds mortal wounds follow [PRECISION] too,
    by default as the attacks do (10th edition))."""
    vs = tuple(
        vs_model(
            k,
            AP=AP,
            D=D,
            cover=cover,
            save_mod=save_mod,
            reroll_saves=reroll_saves,
            reroll_damage=reroll_damage,
            damage_mod=damage_mod,
            reduce=reduce,
            halve=halve,
            melta=melta,
        )
        for k in kinds
    )
    sus = Dice.parse(sustained) if sustained is not None else None
    values = _values(vs[0], kinds[0].W, S, T, sus, lethal, devastating)
    hit = None
    if skill is not None:
        outcomes = c.hit_outcomes(skill, c.cap(hit_mod), crit_hit, snap)
        hit = RollTable(outcomes, c.reroll_faces(outcomes, reroll_hits, (c.MISS,), values["hit"]))
    w_out = c.wound_outcomes(c.wound_needed(S, T), c.cap(wound_mod), anti)
    wound = RollTable(w_out, c.reroll_faces(w_out, reroll_wounds, (c.FAIL,), values["wound"]))
    return AttackProfile(
        name=name,
        models=models,
        attacks=Dice.parse(A).pmf,
        hit=hit,
        wound=wound,
        vs=vs,
        blast=1 if blast else 0,
        sustained=sus.pmf if sus is not None else None,
        lethal=lethal,
        devastating=devastating,
        precision=precision,
        precision_mortals=precision if precision_mortals is None else precision_mortals,
        ranged=ranged,
    )


def _values(
    vs: VsModel, W: int, S: int, T: int, sus: Dice | None, lethal: bool, devastating: bool
) -> dict[str, tuple[float, ...]]:
    """Expected effective damage of each Hit and Wound outcome against the first model (as
    ``rules.common.wound_values`` and ``rules.hit.hit_values``): what a re-roll-anything
    choice maximises."""
    dmg = vs.damage.pmf(W)
    normal = vs.save_fail_probability * c.effective_value(dmg, 1 - vs.fnp, W)
    devast = c.effective_value(dmg, 1 - vs.fnp_mortal, W)
    v_wound = (0.0, normal, devast if devastating else normal)
    wo = c.wound_outcomes(c.wound_needed(S, T), 0, 6)
    per_hit = sum(v_wound[wo[f]] for f in range(1, 7)) / 6
    extra = sus.mean if sus is not None else 0.0
    crit_hit = (normal if lethal else per_hit) + extra * per_hit
    return {"hit": (0.0, per_hit, crit_hit), "wound": v_wound}


Group = tuple[int, int] | tuple[int, int, tuple[int, int] | None]


def _models(kinds: Sequence[Kind], groups: Sequence[Group]) -> list[TargetModel]:
    out = []
    for g in groups:
        kind, count = g[0], g[1]
        below = g[2] if len(g) > 2 else None
        k = kinds[kind]
        out += [TargetModel(k.name, k.W, kind, below) for _ in range(count)]
    return out


def unit(
    kinds: Sequence[Kind],
    bodyguard: Sequence[Group],
    characters: Sequence[Group] = (),
    name: str = "target",
) -> TargetProfile:
    """A target unit: ``bodyguard`` and ``characters`` are (kind index, count[, kind_below])
    groups in allocation order; ``kind_below`` = (N, other kind index) makes those models of
    the other kind while the unit has fewer than N models."""
    return TargetProfile(
        name,
        tuple(_models(kinds, bodyguard)),
        tuple(_models(kinds, characters)),
        tuple(k.name for k in kinds),
    )


def grenade(kinds: Sequence[Kind]) -> MortalWounds:
    """GRENADE: six D6, each 4+ one mortal wound (Binomial(6, 1/2))."""
    count = np.array([comb(6, k) / 64 for k in range(7)])
    return MortalWounds("Grenade", count, _fnp_mortal(kinds))


def bloody_stampede(kinds: Sequence[Kind]) -> MortalWounds:
    """Bloody Stampede: D6; 1: nothing; 2-3: 1 mortal wound; 4-5: D3; 6: D3+3."""
    out = np.zeros(7)
    out[0] += 1 / 6
    out[1] += 2 / 6
    for k in (1, 2, 3):
        out[k] += 2 / 6 / 3
        out[k + 3] += 1 / 6 / 3
    return MortalWounds("Bloody Stampede", out, _fnp_mortal(kinds))


def _fnp_mortal(kinds: Sequence[Kind]) -> tuple[float, ...]:
    return tuple(c.fnp_chance(c.best_of(k.fnp, k.fnp_mortal)) for k in kinds)


def hazard(
    tests: int,
    carriers: Sequence[Kind],
    groups: Sequence[Group],
    *,
    spill: bool = False,
    mortal_wounds: str | int = 3,
    fail_probability: float = 1 / 6,
) -> HazardProfile:
    """Hazardous tests against the attacking models ``groups`` of ``carriers``: 10th edition
    by default (fail on a 1, 3 mortal wounds on one carrier); edition 11: ``spill=True``,
    ``mortal_wounds=1``, ``fail_probability=2/6``."""
    track = unit(carriers, groups, name="attacker")
    fnp = tuple(c.fnp_chance(k.fnp) for k in carriers)
    return HazardProfile(
        tests, fail_probability, Dice.parse(mortal_wounds), track, fnp, spill=spill
    )


def activation(
    weapons: AttackProfile | Sequence[AttackProfile],
    target: TargetProfile,
    before: Sequence[MortalWounds] = (),
    hazard_profile: HazardProfile | None = None,
) -> Activation:
    """An activation of one or more weapons (resolved in the given order)."""
    if isinstance(weapons, AttackProfile):
        weapons = (weapons,)
    return Activation(tuple(weapons), target, tuple(before), hazard_profile)


# ---------------------------------------------------------------------------------------------
# Shipped datasheets through the rules layer


def selection(
    attacker: str,
    target: str,
    *,
    phase: str = "shooting",
    models: int | None = None,
    target_models: int | None = None,
    loadout: str | None = None,
    target_loadout: str | None = None,
    target_leaders: Sequence[str] = (),
    effects: Sequence[str] = (),
    conditions: dict | None = None,
    modifiers: dict | None = None,
    edition: str = "10",
    added: Sequence[tuple[str, str]] = (),
    data: str = "10",
    wounds_left: int | None = None,
    weapons: Sequence[tuple[str, int]] = (),
):
    """A :class:`~wh40k_calc.selection.Selection` of shipped datasheets, by name; ``added``
    holds (weapon or "*", ability) pairs as ``--add-ability`` gives them; ``data``: the
    edition whose datasheets are looked up (the rules edition is ``edition``);
    ``wounds_left``: the attacker's, as ``--wounds-left``; ``weapons``: (name, models) pairs,
    as ``--weapon``."""
    from wh40k_calc.catalog import Catalog
    from wh40k_calc.selection import AddedAbility, Conditions, Modifiers, Selection, UnitChoice

    cat = Catalog(use_env=False, edition=data)
    return Selection(
        phase=phase,
        attacker=UnitChoice(cat.find(attacker), models, loadout, tuple(weapons)),
        target=UnitChoice(
            cat.find(target),
            target_models,
            target_loadout,
            (),
            tuple(cat.find(n) for n in target_leaders),
        ),
        conditions=Conditions(**(conditions or {})),
        modifiers=Modifiers(**(modifiers or {})),
        effects=tuple(effects),
        edition=edition,
        added_abilities=tuple(AddedAbility(w, a) for w, a in added),
        attacker_wounds_left=wounds_left,
    )


def main_job(**kw) -> Activation:
    """The main job: 5 Lootas shoot 10 Boyz (``kw``: sizes and options for variants)."""
    from wh40k_calc.resolve import resolve

    return resolve(selection("lootas", "boyz", **kw), "exact").activation


# ---------------------------------------------------------------------------------------------
# Exact vs sampled


def _var(dist: np.ndarray) -> float:
    x = np.arange(len(dist))
    mean = float(np.dot(x, dist))
    return max(float(np.dot(x * x, dist)) - mean * mean, 0.0)


def _padded(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = max(len(a), len(b))
    return np.pad(a, (0, n - len(a))), np.pad(b, (0, n - len(b)))


DISTRIBUTIONS = {
    "models_destroyed_distribution": "models_destroyed",
    "wounds_lost_distribution": "wounds_lost",
    "damage_distribution": "damage",
}


def disagreements(exact, sample, z: float = 5.0) -> list[str]:
    """Every figure where the sampled ``sample`` is more than ``z`` standard errors from the
    ``exact`` one; empty when they agree.

    The standard error comes from the exact distribution where it is known: sqrt(p(1-p)/n)
    for a probability (kill table, distribution entries, characters destroyed, P(attacker loses
    at least one)); sqrt(Var/n) for the totals whose distribution the exact engine gives
    (models destroyed, wounds lost, damage). For the other means (per weapon, the other totals,
    attacker losses, the damage wasted where the sampler counted it) it is the sampler's own.
    Every SE is floored at 1/n, so figures that are exactly 0 or 1 are compared too (one stray
    trial is 1/n).
    """
    n = sample.trials
    floor = 1.0 / n
    out: list[str] = []

    def check(label: str, e: float, s: float, se: float) -> None:
        se = max(float(se), floor)
        dev = abs(float(e) - float(s)) / se
        if not dev <= z:  # also catches NaN
            out.append(f"{label}: exact {e:.6g}, sampled {s:.6g}, SE {se:.3g}: {dev:.1f} SE")

    def binomial(p: float) -> float:
        p = min(max(float(p), 0.0), 1.0)
        return float(np.sqrt(p * (1 - p) / n))

    if len(exact.weapons) != len(sample.weapons):
        out.append(f"weapon rows: exact {len(exact.weapons)}, sampled {len(sample.weapons)}")
    for we, ws in zip(exact.weapons, sample.weapons, strict=False):
        if we.name != ws.name or we.count != ws.count:
            out.append(f"weapon row: exact {we.name} x{we.count}, sampled {ws.name} x{ws.count}")
        for f, e in we.expected.items():
            check(f"{we.name}.{f}", e, ws.expected[f], ws.standard_error.get(f, 0.0))
        for f, e in we.wasted.items() if ws.wasted else ():  # run_sample(waste=True)
            check(f"{we.name}.wasted.{f}", e, ws.wasted[f], ws.wasted_se.get(f, 0.0))

    exact_var = {total: _var(getattr(exact, d)) for d, total in DISTRIBUTIONS.items()}
    se_sample = sample.standard_error["expected"]
    for f, e in exact.expected.items():
        se = np.sqrt(exact_var[f] / n) if f in exact_var else se_sample.get(f, 0.0)
        check(f"total.{f}", e, sample.expected[f], se)

    for k, (e, s) in enumerate(
        zip(*_padded(exact.kill_table, sample.kill_table), strict=True), start=1
    ):
        check(f"kill_table[>={k}]", e, s, binomial(e))
    for d in DISTRIBUTIONS:
        for i, (e, s) in enumerate(
            zip(*_padded(getattr(exact, d), getattr(sample, d)), strict=True)
        ):
            check(f"{d}[{i}]", e, s, binomial(e))
    for i, (e, s) in enumerate(
        zip(exact.characters_destroyed, sample.characters_destroyed, strict=True)
    ):
        check(f"characters_destroyed[{i}]", e, s, binomial(e))
    se_wasted = sample.standard_error.get("wasted", {})
    for f, e in exact.wasted.items() if sample.wasted else ():
        check(f"total.wasted.{f}", e, sample.wasted[f], se_wasted.get(f, 0.0))
    se_losses = sample.standard_error.get("attacker_losses", {})
    for f, e in exact.attacker_losses.items():
        se = binomial(e) if f == "at_least_one" else se_losses.get(f, 0.0)
        check(f"attacker_losses.{f}", e, sample.attacker_losses[f], se)
    return out

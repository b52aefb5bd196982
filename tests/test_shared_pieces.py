"""Pieces of a weapon's profile and of the exact engine's work made once per process and
shared (issue 21, batches, eighth round): what one model kind's saves and Damage are against
a weapon (``rules.damage.vs_model``, kept by :func:`~wh40k_calc.rules.damage.vs_key`), a
weapon's per-attack kernel and its attacks (``engine.memo.per_attack``, ``attacks_of``), and
the engine's weapon parts (``memo.of_objects``) kept while other kept values are made. Each
shared result is checked against the one made afresh; each key against every input it names.
An attacking unit's weapon options (``rules.weapons.weapon_options``) are kept too.
"""

from __future__ import annotations

import copy
import shlex
from types import SimpleNamespace

import numpy as np
import pytest
from test_shared_work import COMMANDS, _profiles, _same_profiles

from wh40k_calc import profile
from wh40k_calc.dice import Dice
from wh40k_calc.engine import memo, wounds
from wh40k_calc.options import catalog
from wh40k_calc.profile import RollTable, attack_pmf
from wh40k_calc.records import replace
from wh40k_calc.request import parse_request
from wh40k_calc.rules import attacks, damage, weapons
from wh40k_calc.rules.activation import built_unit

# More selections whose saves and Damage differ in one thing each: [MELTA] at half range and
# not, [DEVASTATING WOUNDS] in both editions, Feel No Pain and Damage changes given.
MORE = [
    "shoot cadian-shock-troops --models 10 --loadout meltagun -t carnifexes --fnp 5",
    "shoot cadian-shock-troops --models 10 --loadout meltagun -t carnifexes "
    "--fnp-mortal 5 --half-range",
    "shoot cadian-shock-troops --models 10 --loadout meltagun -t carnifexes --damage-reduction 1",
    "shoot cadian-shock-troops --models 10 --loadout meltagun -t carnifexes "
    "--half-damage --edition 11",
    "shoot leman-russ-battle-tank -t intercessor-squad --reroll-damage",
    "shoot leman-russ-battle-tank -t intercessor-squad --damage-mod 1 --save-mod 1",
    "shoot leman-russ-battle-tank -t intercessor-squad --reroll-saves fails --invuln 5",
    "shoot leman-russ-battle-tank -t intercessor-squad --edition 11 --cover",
    "shoot leman-russ-battle-tank -t intercessor-squad --edition 11 --half-damage",
]


def _selection(cat, line: str):
    return parse_request(shlex.split(line)).selection(cat)


def test_shared_saves_and_damage_are_those_made_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    cat = catalog(None)
    lines = COMMANDS + MORE
    sels = [_selection(cat, line) for line in lines]
    made: list[int] = []
    making = damage.made_vs_model

    def counted(*args, **kwargs):
        made.append(1)
        return making(*args, **kwargs)

    asked: list[int] = []

    def vs_model(*args, **kwargs):
        asked.append(1)
        return damage.vs_model(*args, **kwargs)

    monkeypatch.setattr(damage, "made_vs_model", counted)
    monkeypatch.setattr(attacks, "vs_model", vs_model)
    attacks._SHARED.clear()
    damage._VS.clear()
    shared = [_profiles(s) for s in sels]
    assert 0 < len(made) < len(asked)  # some shared (82 of 130 made)
    monkeypatch.setattr(damage, "vs_key", lambda *args: None)  # nothing shared
    attacks._SHARED.clear()
    damage._VS.clear()
    for line, s, got in zip(lines, sels, shared, strict=True):
        _same_profiles(got, _profiles(s), line)


class _Edition:
    """An edition's answers that vs_key reads, each set by hand."""

    def __init__(self, **answers: bool) -> None:
        self.answers = {"cover": True, "dev": True, "halve": False, "stealth": False} | answers

    def cover_improves_save(self) -> bool:
        return self.answers["cover"]

    def devastating_allocated(self) -> bool:
        return self.answers["dev"]

    def halve_after_adding(self) -> bool:
        return self.answers["halve"]

    def stealth_gives_cover(self) -> bool:
        return self.answers["stealth"]


def _captured() -> dict:
    """The arguments of one vs_model call of a plain selection (no effect: shared)."""
    cat = catalog(None)
    sel = _selection(cat, "shoot leman-russ-battle-tank -t intercessor-squad")
    calls: list[tuple] = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(damage, "vs_key", lambda *args: calls.append(args))
        attacks._SHARED.clear()
        _profiles(sel)
    attacks._SHARED.clear()
    s, attack, ab, ap_improve, k, reroll = calls[0]
    assert not s.changes.by
    return {
        "s": replace(s, edition=_Edition()),
        "attack": attack,
        "ab": ab,
        "ap_improve": ap_improve,
        "k": k,
        "reroll": reroll,
    }


def _with(base: dict, **changes) -> dict:
    return base | changes


def _sel(base: dict, **fields) -> dict:
    s = base["s"]
    return _with(base, s=replace(s, sel=replace(s.sel, **fields)))


def _mods(base: dict, **fields) -> dict:
    return _sel(base, modifiers=replace(base["s"].sel.modifiers, **fields))


def _weapon(base: dict, **fields) -> dict:
    a = base["attack"]
    return _with(base, attack=replace(a, weapon=replace(a.weapon, **fields)))


def _edition(base: dict, **answers: bool) -> dict:
    return _with(base, s=replace(base["s"], edition=_Edition(**answers)))


def _kind(base: dict, **fields) -> dict:
    return _with(base, k=replace(base["k"], **fields))


def _ab(base: dict, **fields) -> dict:
    return _with(base, ab=replace(base["ab"], **fields))


def _cover(base: dict) -> dict:
    """``--cover`` switched, in the selection and in the cover sources its Changes gathered
    from it (``Changes.cover``: the situation as a plan with it would make it)."""
    b = _sel(
        base, conditions=replace(base["s"].sel.conditions, cover=not base["s"].sel.conditions.cover)
    )
    s = b["s"]
    fx = copy.copy(s.changes)
    fx.cover = replace(fx.cover, given=s.sel.conditions.cover)
    return _with(b, s=replace(s, changes=fx))


def _mutations(b: dict) -> dict:
    """One changed set of arguments per name of VS_INPUTS, changing only that input."""
    k, w = b["k"], b["attack"].weapon
    melta = _ab(_sel(b, conditions=replace(b["s"].sel.conditions, half_range=True)), melta=None)
    return {
        "cover": _cover(b),
        "ap": _weapon(b, AP=w.AP - 1),
        "weapon.D": _weapon(b, D=Dice.parse("D6+7")),
        "fnp_psychic": _kind(_ab(b, psychic=True), fnp_psychic=4),
        "melta": _with(melta, ab=replace(melta["ab"], melta=Dice.parse("2"))),
        "mortal_damage": _edition(_ab(b, devastating_wounds=True), dev=False),
        "edition.halve_after_adding": _edition(b, halve=True),
        "kind.W": _kind(b, W=k.W + 1),
        "kind.Sv": _kind(b, Sv=k.Sv - 1),
        "kind.invuln": _kind(b, invuln_ranged=(k.invuln_ranged or 7) - 1),
        "kind.fnp": _kind(b, fnp=(k.fnp or 7) - 1),
        "kind.fnp_mortal": _kind(b, fnp_mortal=(k.fnp_mortal or 7) - 1),
        "kind.damage_reduction": _kind(b, damage_reduction=k.damage_reduction + 1),
        "kind.half_damage": _kind(b, half_damage=not k.half_damage),
        "modifiers.save_mod": _mods(b, save_mod=1),
        "modifiers.reroll_saves": _mods(b, reroll_saves="ones"),
        "modifiers.fnp": _mods(b, fnp=5),
        "modifiers.fnp_mortal": _mods(b, fnp_mortal=5),
        "modifiers.damage_reduction": _mods(b, damage_reduction=1),
        "modifiers.half_damage": _mods(b, half_damage=True),
        "modifiers.damage_mod": _mods(b, damage_mod=1),
        "modifiers.reroll_damage": _mods(b, reroll_damage=True),
        "reroll": _with(b, reroll=not b["reroll"]),
    }


def _key(a: dict) -> tuple | None:
    return damage.vs_key(a["s"], a["attack"], a["ab"], a["ap_improve"], a["k"], a["reroll"])


def test_each_input_of_the_saves_and_damage_changes_their_key() -> None:
    base = _captured()
    assert base["attack"].weapon.AP < 0 and not base["attack"].weapon.is_melee
    mutations = _mutations(base)
    assert list(mutations) == list(damage.VS_INPUTS)  # every input named is changed here
    key = _key(base)
    assert key is not None and len(key) == len(damage.VS_INPUTS)
    for name, changed in mutations.items():
        assert _key(changed) != key, name


def test_saves_and_damage_are_not_shared_where_an_effect_has_a_change() -> None:
    base = _captured()
    fx = SimpleNamespace(by={("target", "fnp"): [object()]}, cover_fx=False, stealth_fx=False)
    assert _key(_with(base, s=replace(base["s"], changes=fx))) is None


def test_kept_weapon_parts_outlast_other_kept_values() -> None:
    """of_objects' entries stay while of_kept makes new values (it once dropped them all on
    each value it made, so that a batch's weapon parts were put together again)."""
    memo.clear()
    made: list[int] = []
    obj = np.zeros(3)

    def part(o):
        made.append(1)
        return o.sum()

    memo.of_objects(part, (obj,), ())
    memo.of_kept(lambda a: a.sum(), np.ones(2))  # a value not kept yet
    memo.of_objects(part, (obj,), ())
    assert made == [1]


def _lootas():
    cat = catalog(None)
    attacks._SHARED.clear()
    profiles = _profiles(_selection(cat, "shoot lootas --models 10 -t boyz"))
    attacks._SHARED.clear()
    return profiles[0]


def test_per_attack_kernel_shared_across_what_it_does_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ap = _lootas()
    made: list[int] = []
    making = memo.per_attack_kernel

    def counted(p):
        made.append(1)
        return making(p)

    monkeypatch.setattr(memo, "per_attack_kernel", counted)
    memo.clear()
    alike = [
        ap,
        replace(ap, models=ap.models + 1),
        replace(ap, attacks=np.concatenate([[0.0], ap.attacks])),
        replace(ap, blast=1),
        replace(ap, command_reroll=True),
        replace(ap, precision=True),
    ]
    for p in alike:
        memo.joint(p, 10, lambda a: a)
        memo.cost(p, 10)
    assert made == [1]
    better = RollTable((0, 0, 1, 1, 1, 1, 2))
    other = [
        replace(ap, hit=None),
        replace(ap, hit=better),
        replace(ap, wound=better),
        replace(ap, sustained=np.array([0.0, 1.0])),
        replace(ap, sustained=np.array([0.0, 0.0, 1.0])),
        replace(ap, lethal=not ap.lethal),
        replace(ap, devastating=not ap.devastating),
    ]
    for p in other:  # each its own, and the kernel made afresh
        k, hits = memo.per_attack(p)
        k0, hits0 = making(p)
        np.testing.assert_array_equal(k, k0)
        assert hits == hits0
    assert len(made) == 1 + len(other)


def test_attacks_shared_across_what_they_do_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    ap = _lootas()
    blast = replace(ap, blast=1)
    same = [(p, 10) for p in (ap, replace(ap, hit=None), replace(ap, lethal=True))]
    others = [
        (replace(ap, models=ap.models + 1), 10),
        (replace(ap, attacks=np.concatenate([[0.0], ap.attacks])), 10),
        (blast, 10),
        (blast, 14),  # the same bracket of five: kept
        (blast, 15),
    ]
    want = [p.attack_pmf(n) for p, n in same + others]  # made afresh, before counting
    made: list[int] = []

    def counted(per, models, bonus):
        made.append(1)
        return attack_pmf(per, models, bonus)

    monkeypatch.setattr(memo, "attack_pmf", counted)
    monkeypatch.setattr(profile, "attack_pmf", counted)  # AttackProfile.attack_pmf's
    memo.clear()
    got = [memo.attacks_of(p, n) for p, n in same + others]
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
    assert len(made) == 5  # ap's, another count, other attacks, two brackets of Blast
    memo.joint(replace(ap, hit=None), 10, lambda a: a)  # the counts read the kept attacks
    assert len(made) == 5
    monkeypatch.setattr(memo, "attack_pmf", attack_pmf)
    monkeypatch.setattr(profile, "attack_pmf", attack_pmf)
    p2, meta = wounds.wound_joint(ap, 10)
    p2k, metak = wounds.wound_joint(ap, 10, memo.per_attack(ap), memo.attacks_of(ap, 10))
    np.testing.assert_array_equal(p2, p2k)
    assert meta == metak


# Weapon options under each condition they read, and a --weapon named.
OPTIONS = [
    "shoot knight-paladin --weapon 'ironstorm missile pod' -t intercessor-squad --indirect",
    "shoot intercessor-squad -t boyz --advanced",
    "shoot leman-russ-battle-tank -t intercessor-squad --target-engaged",
    "shoot boyz --models 10 --weapon slugga -t intercessor-squad",
]


def test_kept_weapon_options_are_those_made_afresh() -> None:
    cat = catalog(None)
    lines = COMMANDS + MORE + OPTIONS
    weapons._OPTIONS.clear()
    kept = []
    for line in lines:
        sel = _selection(cat, line)
        attacker = built_unit(sel.attacker, "attacker", sel.edition)
        kept.append((sel, attacker, weapons.weapon_options(sel, attacker)))
    assert 0 < len(weapons._OPTIONS) < len(lines)  # some shared
    for line, (sel, attacker, got) in zip(lines, kept, strict=True):
        assert got == weapons.made_weapon_options(sel, attacker), line
        assert weapons.weapon_options(sel, attacker) == got, line

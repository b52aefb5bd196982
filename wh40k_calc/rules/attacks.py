"""The attacks each weapon makes, and each weapon's attack profile assembled (Core rules: Making
Attacks, Rapid Fire, Blast, Extra Attacks; edition 11: 04.01 Select Weapons, 04.03 Resolve
Attacks, 24.05 [BLAST], 24.06 [CLEAVE], 24.11 [EXTRA ATTACKS], 24.30 [RAPID FIRE]).

The weapons the attacking models use (``rules.weapons``: pistols or other weapons, which melee
weapon, which profile) are gathered here into one :class:`~wh40k_calc.profile.AttackProfile`
per datasheet weapon, in the datasheets' weapon order; each profile is the weapon taken
through the attack sequence once: its attack dice (here), the saving throw and Damage against
each kind of target model (``save``, ``damage``), the Wound roll (``wound``) and the Hit roll
(``hit``), the later steps first because the re-roll choices of each roll compare what its
outcomes are worth downstream (DESIGN.md: per-die choices).
"""

from __future__ import annotations

from collections import Counter
from operator import itemgetter
from typing import TYPE_CHECKING

import numpy as np

from ..dice import Dice
from ..kept import HashedKey, Kept
from ..profile import AttackProfile
from ..records import replace
from ..selection import Selection, selection_key
from . import common as c
from . import reads
from .changes import Attack, total
from .damage import vs_model
from .engaged import is_big
from .hit import hit_table, hit_values
from .wound import wound_table

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from ..datasheet import Datasheet, Weapon
    from ..profile import TargetProfile
    from ..units import ModelGroup, Unit
    from .situation import Situation
    from .target import Kind


def weapon_profiles(
    s: Situation,
    used: list[tuple[ModelGroup, Weapon, int]],
    kinds: list[Kind],
    tprofile: TargetProfile,
    variant: int,
    made: dict[tuple, AttackProfile] | None = None,
    origins: dict[str, tuple[ModelGroup, Weapon, int]] | None = None,
) -> list[AttackProfile]:
    """One profile per (datasheet, weapon) of the weapons ``used`` ((model group, weapon,
    models) triples), in the datasheets' weapon order, against the target's model ``kinds``
    and ``tprofile``; ``s`` is the situation of the variant (index ``variant``) being built.

    A weapon named on two datasheets of the unit (a Leader's and the Bodyguard's) is labelled
    with its datasheet. [PRECISION] weapons say in ``choices`` where their attacks go.
    ``made`` keeps those already made for this selection (by weapon, group, label, first
    model kind and variant: all else is the selection's and the variant's; the number of
    models only counts, :func:`attack_profile`, so a kept profile is used with another);
    ``origins``
    gets each profile's (model group, weapon, models) by its name."""
    sel = s.sel
    sheets: dict[str, int] = {}  # a datasheet key's first place in the unit
    for i, ds in enumerate(s.attacker.datasheets):
        sheets.setdefault(ds.key, i)
    ranked = []  # (place in the unit, (datasheet key, weapon key), group, weapon, models)
    for g, w, n in used:
        ds = g.datasheet
        key: tuple = (ds.key, w.key)  # each name normalised once
        ranked.append(((sheets[key[0]], _weapon_places(ds)[key[1]]), key, g, w, n))
    ranked.sort(key=itemgetter(0))  # stable: the order used, within a place
    merged: dict[tuple[str, str], list] = {}
    for _, key, g, w, n in ranked:
        if key in merged:
            merged[key][1] += n
        else:
            merged[key] = [w, n, g]
    named: dict[str, int] = {}
    for w, _, _ in merged.values():
        named[w.name] = named.get(w.name, 0) + 1
    chars = list(tprofile.characters)
    if tprofile.precision_pick is not None:  # the CHARACTER model the player named
        chars.insert(0, chars.pop(tprofile.precision_pick))
    out = []
    for w, n, g in merged.values():
        label = w.name if named[w.name] == 1 else f"{w.name} ({g.datasheet.name})"
        precise = w.abilities.precision and sel.precision_target != "bodyguard"
        first = chars[0].kind if precise and chars else tprofile.bodyguard[0].kind
        if origins is not None:
            origins[label] = (g, w, n)
        key = (id(w), id(g), label, first, variant)  # the models only count: replaced
        if made is not None and key in made:
            kept = made[key]
            out.append(kept if kept.models == n else replace(kept, models=n))
            continue
        prof = shared_profile(s, w, g, n, label, kinds, first)
        if w.abilities.precision and chars:
            who = list(dict.fromkeys(m.name for m in chars))
            said = (
                f"{label}: {s.edition.precision_sentence(who)}"
                if precise
                else f"{label}: [PRECISION] attacks kept on the Bodyguard "
                "(--precision-target bodyguard)"
            )
            prof = replace(prof, choices=(*prof.choices, said))
        if made is not None:
            made[key] = prof
        out.append(prof)
    return out


_PLACES: Kept[int, tuple[Datasheet, dict[str, int]]] = Kept(512)  # see _weapon_places


def _weapon_places(ds: Datasheet) -> dict[str, int]:
    """Each weapon key's first place in ``ds``'s weapons (weapons may carry added abilities:
    matched by key), found once per datasheet object (kept with it, so its id is not reused
    while kept)."""
    kept = _PLACES.get(id(ds))
    if kept is not None and kept[0] is ds:
        return kept[1]
    first: dict[str, int] = {}
    for i, x in enumerate(ds.weapons):
        first.setdefault(x.key, i)
    _PLACES.put(id(ds), (ds, first))
    return first


SHARED_KEPT = 2048
_SHARED: Kept[tuple, tuple[Situation, ModelGroup, AttackProfile]] = Kept(SHARED_KEPT)


def shared_profile(
    s: Situation,
    w: Weapon,
    g: ModelGroup | None,
    n: int,
    label: str,
    kinds: list[Kind],
    first: int,
) -> AttackProfile:
    """:func:`attack_profile`, each made once per process where no effect has a change here
    (``s.changes`` empty): a batch runs the same weapons at other unit sizes and in other
    loadouts, against the same targets under the same conditions. The key
    (:func:`shared_key`) is everything the profile reads: the whole selection but the
    attacker's number of models and their equipment (the profile reads them only through its
    model group, and the number of models only counts: ``models``), the edition, the weapon,
    its model group's keywords and datasheet and whether it is MONSTER or VEHICLE, the
    attacking unit's keywords and whether all or any of its groups are, the target (the unit
    built) with its model kinds and keywords, the label and the kind attacked first. A rule
    that comes to read more of the attacking unit in a weapon's profile adds it to the key
    (``tests/test_shared_profiles.py`` compares shared and fresh profiles). At most
    SHARED_KEPT are kept (all dropped when full); the kept situation holds the datasheets
    and units the key names by identity."""
    key = shared_key(s, w, g, label, kinds, first)
    if key is None:
        return attack_profile(s, w, g, n, label, kinds, first)
    kept = _SHARED.get(key)
    if kept is None:
        assert g is not None
        kept = _SHARED.put(key, (s, g, attack_profile(s, w, g, n, label, kinds, first)))
    prof = kept[2]
    return prof if prof.models == n else replace(prof, models=n)


def shared_key(
    s: Situation, w: Weapon, g: ModelGroup | None, label: str, kinds: list[Kind], first: int
) -> tuple | None:
    """The key of :func:`shared_profile` (None: not shared, an effect has a change here, or
    the weapon has no model group)."""
    if s.changes.by or g is None:
        return None
    if _SITUATION[0] is not s:  # the situation's own parts, once for its every weapon
        a = s.attacker
        _SITUATION[:] = [
            s,
            (
                type(s.edition),
                a.keywords,
                _bigness(a),
                id(s.target),
                s.applied.facts.target_keywords,
            ),
        ]
    edition, keywords, bigness, target, target_keywords = _SITUATION[1]
    return (
        edition,
        _weapon_selection_part(s, w),
        w,
        g.profile.keywords,
        id(g.datasheet),
        is_big(g),
        keywords,
        bigness,
        target,
        target_keywords,
        tuple(kinds),
        label,
        first,
    )


_SITUATION: list = [None, None]  # the last situation keyed (kept alive: its id), its parts


_BIGNESS: Kept[int, tuple[Unit, tuple[bool, bool]]] = Kept(512)  # see _bigness


def _bigness(unit: Unit) -> tuple[bool, bool]:
    """(whether every model group of ``unit`` is MONSTER or VEHICLE, whether any is), found
    once per unit object (kept by its identity with the unit itself, so that the id is not
    reused while kept: a batch plans the same built units again and again)."""
    kept = _BIGNESS.get(id(unit))
    if kept is not None and kept[0] is unit:
        return kept[1]
    big = [is_big(x) for x in unit.groups]
    found = (all(big), any(big))
    _BIGNESS.put(id(unit), (unit, found))
    return found


# the last selection keyed: itself (kept alive: its id), its key, its parts by the conditions
# set false (:func:`_weapon_selection_part`), and per edition the READS rows of the conditions
# it sets
_LAST: list = [None, None, {}, {}]

_CONDITIONS = Selection.__struct_fields__.index("conditions")


def _weapon_selection_part(s: Situation, w: Weapon) -> HashedKey:
    """``selection_key(s.sel, attacker_models=False)`` (made once for the weapons of one
    selection in turn: the last selection is kept, and matched by identity) with the
    conditions weapon ``w``'s profile cannot read set false (``reads.read_through``: the
    table of the conditions read only through an ability), so that runs under conditions it
    ignores share its profile; all of them kept where no condition is set that way, where
    some effect may act (an effect's conditions or changes may read any condition) or where
    the weapon has abilities against some keywords only (which may be one of those). Each
    distinct part is made (and hashed) once per selection."""
    sel = s.sel
    if _LAST[0] is not sel:
        _LAST[:] = [sel, selection_key(sel, attacker_models=False), {}, {}]
    edition = s.edition.name
    rows = _LAST[3].get(edition)
    if rows is None:  # the READS rows whose condition the selection sets
        cond = sel.conditions
        rows = _LAST[3][edition] = tuple(
            r for r in reads.read_through(edition) if getattr(cond, r.condition)
        )
    unread: tuple[str, ...] = ()
    ab = w.abilities
    if rows and not (ab.conditional or s.applied.every_active()):
        phase, melee = sel.phase, w.is_melee
        unread = tuple(r.condition for r in rows if not r.read_by(ab, phase, melee))
    parts = _LAST[2]
    part = parts.get(unread)
    if part is None:
        whole = _LAST[1]
        if unread:
            changed = replace(sel.conditions, **dict.fromkeys(unread, False))
            whole = (*whole[:_CONDITIONS], changed, *whole[_CONDITIONS + 1 :])
        part = parts[unread] = HashedKey(whole)
    return part


def attack_profile(
    s: Situation,
    w: Weapon,
    g: ModelGroup | None,
    n: int,
    label: str,
    kinds: list[Kind],
    first: int,
    *,
    once_damage: bool = False,
) -> AttackProfile:
    """The :class:`AttackProfile` of weapon ``w`` carried by ``n`` models of ``g``, named
    ``label``, through the attack sequence (Core rules: Making Attacks): its S, the T it is
    against and its abilities after effects (:func:`strength_and_abilities`), the attacks, the
    saves and Damage against each model kind of ``kinds``, the Wound roll, the Hit roll.

    Rolls are re-rolled where that raises the expected damage against the model kind
    ``first`` (an index into ``kinds``: the first the attacks are allocated to). Choice
    sentences (re-rolls, Lethal Hits, [PSYCHIC], harmful modifiers ignored) go in
    ``choices``. ``once_damage``: its Damage tables say which results a re-roll would take
    (the weapon keeps a single Damage re-roll: ``command_reroll.keep_single_rerolls``)."""
    sel, melee = s.sel, w.is_melee
    notes: list[str] = []
    attack, ab = strength_and_abilities(s, w, g, label, notes)
    ab = ab.against(s.target.keywords)  # 24.01: abilities granted with keywords (effects)
    ap_improve = ap_improvement(s, attack)
    a_pmf = attack_dice(s, attack, ab)
    vs = tuple(
        vs_model(s, attack, ab, ap_improve, k, label, notes, reroll=once_damage) for k in kinds
    )
    v_wound = c.wound_values(vs[first], kinds[first].W, ab.devastating_wounds)
    wounds = wound_table(s, attack, ab, v_wound, label, notes)
    values, lethal = hit_values(s, ab, wounds, v_wound, label, notes)
    hits = None
    if not ab.torrent:
        hits = hit_table(s, attack, ab, values, label, notes)
    precise = ab.precision and sel.precision_target != "bodyguard"
    edition = s.edition
    return AttackProfile(
        name=label,
        models=n,
        attacks=a_pmf,
        hit=hits,
        wound=wounds,
        vs=vs,
        blast=edition.cleave_bonus(ab) if melee else edition.blast_bonus(ab),
        sustained=ab.sustained_hits.pmf if ab.sustained_hits is not None else None,
        lethal=lethal,
        devastating=ab.devastating_wounds,
        precision=precise,
        precision_mortals=precise and edition.precision_mortals(),
        ranged=not melee,
        choices=tuple(dict.fromkeys(notes)),
    )


def strength_and_abilities(
    s: Situation, w: Weapon, g: ModelGroup | None, label: str, notes: list[str]
) -> tuple[Attack, WeaponAbilities]:
    """The weapon's attacks with their S and the T they are against, and the weapon's
    abilities after the effects: S plus the attacker's S changes (harmful ones dropped where
    an effect lets it ignore them), never below 1 (02.02.01 Modifiers); T as the edition names
    it (``Edition.toughness``), or that of most of the target's models where a target effect
    says so (:func:`majority_toughness`), plus the target's T changes and the attacker's
    changes to the target's T, never below 1; abilities granted (those a choice picks
    included), read once S and T are known (a condition "S greater than T")."""
    fx = s.changes
    attack = fx.attack(w, g)
    bonus = [p for p in fx.attacker("strength", attack)]
    if fx.ignores(attack, "strength"):
        dropped = [p for p in bonus if int(p.value) < 0]  # type: ignore[call-overload]
        bonus = [p for p in bonus if p not in dropped]
        if dropped:
            notes.append(f"{label}: ignored {' and '.join(p.name for p in dropped)} (S)")
    strength = max(1, w.S + total(bonus))
    base = (
        majority_toughness(s.target)
        if fx.unit("target", "toughness_majority")
        else s.edition.toughness(s.target)
    )
    tough = base + total(fx.unit("target", "toughness"))
    tough += total(fx.attacker("target_toughness", attack))
    attack = replace(attack, strength=strength, toughness=max(1, tough))
    texts = [str(p.value) for p in fx.attacker("ability", attack)]
    texts += [str(p.value) for p in fx.attacker("choose_ability", attack)]
    ab = w.abilities.with_texts(texts) if texts else w.abilities
    return attack, ab


def majority_toughness(target: Unit) -> int:
    """The Toughness most of ``target``'s models have (its Bodyguard's in an Attached unit, as
    the Wound roll against an Attached unit reads its Bodyguard: Core rules: LEADER; 05.02.01),
    the highest of those tied for most: the T a rule such as Kill Team (Deathwatch, both
    editions) makes the Wound rolls use against a unit of mixed Toughness."""
    groups = target.bodyguard or target.groups
    counts: Counter[int] = Counter()
    for g in groups:
        counts[g.profile.T] += g.count
    most = max(counts.values())
    return max(t for t, n in counts.items() if n == most)


def ap_improvement(s: Situation, attack: Attack) -> int:
    """How much the attack's AP is improved: ``--ap-mod`` plus the attacker's AP changes (a
    negative ``--ap-mod`` dropped where an effect lets the attacks ignore harmful AP
    modifiers)."""
    mod = s.sel.modifiers.ap_mod
    if mod < 0 and s.changes.ignores(attack, "ap"):
        mod = 0
    return mod + total(s.changes.attacker("ap", attack))


def attack_dice(s: Situation, attack: Attack, ab: WeaponAbilities) -> np.ndarray:
    """Distribution of one model's attacks with the weapon (index = attacks): its A, or the A
    an effect sets it to (the best of several); the roll that determines A re-rolled where an
    effect allows it (:func:`reroll_attacks`); plus [RAPID FIRE X] within half range (Core
    rules: Rapid Fire) and the effects' A changes (numbers or dice), never below 1 (02.02.01).
    [EXTRA ATTACKS] weapons keep their A unless a change names them (``changes.in_scope``).
    [BLAST] and [CLEAVE X] add theirs in the engines (they count the target's models when the
    attacks are made: ``AttackProfile.blast``)."""
    sel, fx, w = s.sel, s.changes, attack.weapon
    base = w.A
    sets = [Dice.parse(p.value) for p in fx.attacker("attacks_set", attack)]  # type: ignore[arg-type]
    if sets:
        base = max(sets, key=lambda d: d.mean)
    a_pmf = base.pmf
    if fx.attacker("reroll_attacks", attack):
        a_pmf = reroll_attacks(a_pmf)
    modified = bool(sets)
    if ab.rapid_fire is not None and sel.conditions.half_range and not w.is_melee:
        a_pmf = np.convolve(a_pmf, ab.rapid_fire.pmf)
    shift = 0
    for p in fx.attacker("attacks", attack):
        modified = True
        if isinstance(p.value, int):
            shift += p.value
        else:
            a_pmf = np.convolve(a_pmf, Dice.parse(p.value).pmf)  # type: ignore[arg-type]
    if shift or modified:
        moved = np.zeros(max(len(a_pmf) + shift, 2))
        for v, p in enumerate(a_pmf):
            moved[max(v + shift, 0)] += p
        if base.max_value >= 1:  # A cannot be less than 1 (02.02.01)
            moved[1] += moved[0]
            moved[0] = 0.0
        a_pmf = np.trim_zeros(moved, "b") if moved[-1] == 0 else moved
    return a_pmf


def reroll_attacks(pmf: np.ndarray) -> np.ndarray:
    """The A roll re-rolled when it is below its mean (the player's choice that maximises the
    expected attacks; Core rules: Re-rolls: the whole roll, once). A fixed A is unchanged."""
    values = np.arange(len(pmf))
    mean = float(np.dot(values, pmf))
    low = values < mean - 1e-12
    again = float(pmf[low].sum())
    out = np.where(low, 0.0, pmf) + again * pmf
    return out

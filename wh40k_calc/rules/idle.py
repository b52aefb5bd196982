"""What the player asked for that changes nothing in this activation, said in the notes instead
of being dropped without a word: a condition no weapon or rule here reads, a Hit-roll option
with no Hit roll to change, re-rolls snap shooting forbids, cover every weapon ignores, a
target option the target already betters, a granted ability that cannot act.

Each check reads the weapons that can attack (every option of every model group) and the
effects applied; the rules themselves stay where they are (the rule modules and the edition's
answers, :class:`~wh40k_calc.rules.edition.Edition`): these notes only report their outcome.

Each finding (:class:`Idle`) also names the options it is about (a condition or modifier by
its field name, an ``--add-ability`` as ``added:N``) and whether the option stays without
effect whatever other option, effect or weapon ability is switched off (``lasting``): a
condition no weapon reads stays unread when weapons lose abilities, but a re-roll that snap
shooting forbids counts again without ``--overwatch``. ``--explain`` leaves the lasting ones
out of its players (:func:`lasting_idle`). Where ``--indirect`` limits the weapons that may
shoot, switching it off brings others in, so only the findings that read no weapon last.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from msgspec import Struct

from ..abilities import Ability, WeaponAbilities, parse_ability
from ..datasheet import Weapon, norm_name
from ..dice import Dice, constant
from ..effect_schema import change_field, change_side
from ..notes import OptionNote, options_note
from ..records import replace
from ..selection import Selection
from ..units import Unit
from . import common as c
from .added import added_kinds, answers_to, torrent_cannot_have
from .applied import Active, Applied, OptionHint
from .plan import GroupOptions, IdleEffect
from .reads import IGNORES, ability_field, read_through, reading
from .when import bearer_groups

if TYPE_CHECKING:
    from .changes import Attack, Changes, Piece
    from .edition import Edition

# abilities only one kind of attack reads here (Core rules: [RAPID FIRE], [MELTA], [HEAVY],
# [INDIRECT FIRE], [IGNORES COVER] (the Benefit of Cover is against ranged attacks),
# [CONVERSION], [BLAST]; seeds README: [CLEAVE X] is a melee ability)
RANGED_ONLY = ("rapid fire", "melta", "heavy", "indirect fire", "ignores cover", "conversion",
               "blast")  # fmt: skip
MELEE_ONLY = ("cleave",)
NO_EFFECT = ("assault", "one shot")  # they change nothing in one attack sequence
ZERO = constant(0)


class Idle(Struct, frozen=True):
    """One finding: its ``note``, the ``options`` it is about (Conditions/Modifiers field
    names, ``added:N`` for the N-th ``--add-ability``), whether it holds whatever else is
    switched off (``lasting``), and whether it reads the weapons that may attack
    (``reads_weapons``: not lasting when ``--indirect`` limits them)."""

    note: str
    options: tuple[str, ...]
    lasting: bool = True
    reads_weapons: bool = True


def idle_findings(
    edition: Edition,
    sel: Selection,
    target: Unit,
    groups: list[GroupOptions],
    applied: Applied,
) -> list[Idle]:
    """The options and conditions that have no effect on this activation (``groups``: the
    attacker's weapon options; ``applied``: the effects that apply), found once for
    :func:`idle_notes` and :func:`lasting_idle`."""
    weapons = list(dict.fromkeys(w for g in groups for o in g.options for w in o.weapons))
    return [
        *_conditions(edition, sel, weapons, applied),
        *_hit_roll(edition, sel, weapons, applied),
        *_damage(sel, weapons, applied),
        *_cover(edition, sel, target, weapons, applied),
        *_target_options(sel, target, weapons, applied),
        *_added(edition, sel, weapons),
        *_repeated(sel, applied),
    ]


def idle_notes(findings: list[Idle]) -> list[str]:
    """Notes on options and conditions that have no effect on this activation (``findings``:
    :func:`idle_findings`)."""
    return [f.note for f in findings]


def lasting_idle(sel: Selection, findings: list[Idle]) -> frozenset[str]:
    """The options (as :class:`Idle` names them) with no effect on this activation whatever
    other option, effect or weapon ability is switched off (``findings``:
    :func:`idle_findings`): ``--explain`` does not count them among its players. The
    phase's idle conditions (:func:`idle_phase_notes`) included."""
    limited = sel.phase == "shooting" and sel.conditions.indirect
    out = {
        o for f in findings if f.lasting and not (limited and f.reads_weapons) for o in f.options
    }
    out.update(c for c in _IDLE[sel.phase] if getattr(sel.conditions, c))
    return frozenset(out)


def _changes(
    applied: Applied, side: str, field: str, always: bool = False
) -> list[tuple[str, object]]:
    """(effect name, value) of every change of ``field`` on ``side`` that may act, whatever
    its scope and conditions (``always``: only those with neither, of effects always
    applied)."""
    out = []
    for a in applied.fixed if always else applied.every_active():
        rec = a.effect.record
        for ch in rec.changes:
            if change_side(rec, ch) == side == a.side and change_field(ch) == field:
                plain = ch.when is None and ch.weapons == "all" and not ch.named
                plain = plain and not (ch.weapons_with or ch.weapons_without or ch.bearer_only)
                if plain or not always:
                    out.append((a.effect.name, getattr(ch, field)))
    return out


def _reads(applied: Applied, condition: str) -> bool:
    """Whether a record or change that may act has ``condition`` among its conditions."""
    for a in applied.every_active():
        rec = a.effect.record
        whens = [rec.when, *(ch.when for ch in rec.changes)]
        if any(w is not None and getattr(w, condition) is not None for w in whens):
            return True
    return False


def _granted_texts(applied: Applied) -> list[str]:
    """Every ability an attacker's effect may grant (always, by choice, or conditionally)."""
    texts = [str(v) for _, v in _changes(applied, "attacker", "ability")]
    for _, v in _changes(applied, "attacker", "choose_ability"):
        texts += [str(t) for t in cast("tuple[str, ...]", v or ())]
    return [t.lower() for t in texts]


def _conditions(
    edition: Edition, sel: Selection, weapons: list[Weapon], applied: Applied
) -> list[Idle]:
    """A condition of the activation's phase that no weapon or rule here reads: one the
    edition's weapons read only through an ability (``reads.read_through``) with no weapon
    here that has one (on its datasheet or granted by an effect) and no effect reading it, or
    one only effects read."""
    melee = sel.phase == "fight"
    own = [w.abilities for w in weapons if w.is_melee == melee]
    granted = {_key(parse_ability(t)) for t in _granted_texts(applied)}
    readers = {  # condition -> (something reads it, what would)
        r.condition: (
            any(r.has(ab) for ab in own) or bool(granted & set(r.abilities)),
            f"no weapon here has {r.names}",
        )
        for r in read_through(edition.name)
        if r.phase == sel.phase
    }
    if sel.phase == "shooting":
        readers["objective"] = (False, "no rule here reads it (Dat's Our Loot! does)")
    else:
        readers["disembarked"] = (False, "no rule here reads it (Rush to the Fray does)")
    out = []
    for name, (read, why) in readers.items():
        if getattr(sel.conditions, name) and not read and not _reads(applied, name):
            out.append(
                Idle(OptionNote(f"--{name.replace('_', '-')}", f"no effect: {why}"), (name,))
            )
    return out


def _key(ab: Ability) -> str:
    """An ability's key, that of the ability a conditional one gives ([LANCE: INFANTRY])."""
    return cast("tuple[Ability, str]", ab.value)[0].key if ab.key == "conditional" else ab.key


def _hit_roll(
    edition: Edition, sel: Selection, weapons: list[Weapon], applied: Applied
) -> list[Idle]:
    """Hit-roll options with no Hit roll to change ([TORRENT]), and Hit-roll re-rolls under
    snap shooting or indirect shooting where the edition forbids them (15.09 Snap Shooting,
    10.07 Indirect Shooting: "You cannot re-roll hit rolls"; under ``--indirect`` every weapon
    that shoots has [INDIRECT FIRE])."""
    mods, cond = sel.modifiers, sel.conditions
    rolled = [w for w in weapons if not w.abilities.torrent]
    out = []
    asked = [
        f"--{name.replace('_', '-')}"
        for name in ("hit_mod", "reroll_hits", "crit_hit")
        if getattr(mods, name)
    ]
    if asked and weapons and not rolled:
        out.append(
            Idle(
                options_note(
                    asked, "no effect: no Hit roll is made (every weapon here has [TORRENT])"
                ),
                tuple(n for n in ("hit_mod", "reroll_hits", "crit_hit") if getattr(mods, n)),
                lasting=not sel.added_abilities,  # [TORRENT] may be granted
            )
        )
    snap = (
        cond.overwatch
        or bool(_changes(applied, "attacker", "snap_shooting"))
        or bool(_changes(applied, "attacker", "snap_hit_on"))
    )
    indirect = cond.indirect and not edition.indirect_rerolls_allowed()
    if sel.phase != "shooting" or not ((snap and not edition.snap_rerolls_allowed()) or indirect):
        return out
    if not any(not w.is_melee for w in rolled):
        return out
    why = (
        "when snap shooting (15.09 Snap Shooting)"
        if snap and not edition.snap_rerolls_allowed()
        else "in indirect shooting (10.07 Indirect Shooting)"
    )
    sources = [f"--reroll-hits {mods.reroll_hits}"] if mods.reroll_hits else []
    sources += list(dict.fromkeys(n for n, _ in _changes(applied, "attacker", "reroll_hits")))
    if sources:
        said = f"no effect: Hit rolls cannot be re-rolled {why}"
        out.append(
            Idle(
                OptionNote("--reroll-hits", f"{mods.reroll_hits}: {said}", " ")
                if sources == [f"--reroll-hits {mods.reroll_hits}"]
                else f"{' and '.join(sources)}: {said}",
                ("reroll_hits",) if mods.reroll_hits else (),
                lasting=False,  # they count again without snap or indirect shooting
            )
        )
    return out


def _damage(sel: Selection, weapons: list[Weapon], applied: Applied) -> list[Idle]:
    """Damage options with nothing to act on: ``--reroll-damage`` with no Damage roll (every
    Damage characteristic fixed, [MELTA X] included where it adds); ``--damage-reduction`` /
    ``--half-damage`` when no attack can do more than 1 Damage (Damage is never reduced below
    1); ``--fnp-mortal`` when nothing here inflicts mortal wounds on the target."""
    mods = sel.modifiers
    out: list[Idle] = []
    if not weapons:
        return out
    damage = [(w.D, _melta(sel, w)) for w in weapons]
    if mods.reroll_damage and all(d.is_constant and m.is_constant for d, m in damage):
        out.append(
            Idle(
                OptionNote(
                    "--reroll-damage",
                    "no effect: no weapon here has a random Damage characteristic",
                ),
                ("reroll_damage",),
            )
        )
    most = max(d.max_value + m.max_value for d, m in damage) + mods.damage_mod
    reducing = [
        option
        for option, on in (
            ("--damage-reduction", mods.damage_reduction),
            ("--half-damage", mods.half_damage),
        )
        if on
    ]
    if reducing and most <= 1:
        out.append(
            Idle(
                options_note(
                    reducing,
                    "no effect: no attack here has more than 1 Damage (Damage is never reduced "
                    "below 1)",
                ),
                tuple(n for n in ("damage_reduction", "half_damage") if getattr(mods, n)),
                lasting=False,  # an effect's or a negative --damage-mod's Damage may be why
            )
        )
    if mods.fnp_mortal is not None and not _mortal_wounds(weapons, applied):
        out.append(
            Idle(
                OptionNote(
                    "--fnp-mortal",
                    f"{mods.fnp_mortal}: no effect: nothing here inflicts mortal wounds on the "
                    "target (no [DEVASTATING WOUNDS] weapon or mortal-wound rule)",
                    " ",
                ),
                ("fnp_mortal",),
            )
        )
    return out


def _melta(sel: Selection, w: Weapon) -> Dice:
    """The Damage [MELTA X] adds to ``w`` here (0 unless a ranged weapon at half range)."""
    melta = w.abilities.melta
    return melta if melta is not None and sel.conditions.half_range and not w.is_melee else ZERO


def _mortal_wounds(weapons: list[Weapon], applied: Applied) -> bool:
    """Whether anything here can inflict mortal wounds on the target: [DEVASTATING WOUNDS]
    (on a weapon or granted by an effect) or an effect's mortal-wound roll (Grenade)."""
    return (
        any(w.abilities.devastating_wounds for w in weapons)
        or any("devastating" in t for t in _granted_texts(applied))
        or bool(_changes(applied, "attacker", "mortal_wounds"))
    )


def _cover(
    edition: Edition, sel: Selection, target: Unit, weapons: list[Weapon], applied: Applied
) -> list[Idle]:
    """``--cover`` that some or every attack does not get (Core rules: Benefit of Cover: not
    against [IGNORES COVER], and as a save bonus not for a save of 3+ or better against AP 0;
    seeds README for edition 11, where cover worsens BS: nothing for [TORRENT] or [PSYCHIC]:
    :func:`cover_unused`)."""
    ranged = [w for w in weapons if not w.is_melee]
    if sel.phase != "shooting" or not sel.conditions.cover or not ranged:
        return []
    counted = [w for w in ranged if not w.abilities.ignores_cover]
    as_save = counted if edition.cover_improves_save() else []
    unused = cover_unused(ranged, edition.name)
    out = [_cover_idle(unused, sel)] if unused else []
    if not as_save:  # edition 11: BS worsened
        return out
    worsen = sum(int(v) for _, v in _changes(applied, "target", "ap_worsen", True))  # type: ignore[call-overload]
    ap0 = all(min(0, w.AP - sel.modifiers.ap_mod + worsen) == 0 for w in as_save)
    if ap0 and all(g.profile.Sv <= 3 for g in target.all_groups):
        out = [
            Idle(
                OptionNote(
                    "--cover",
                    "no effect: the Benefit of Cover does not improve a save of 3+ or better "
                    "against AP 0",
                ),
                ("cover",),
                lasting=False,  # AP may be another without --ap-mod or a target effect
            )
        ]
    return out


def _cover_idle(unused: str, sel: Selection) -> Idle:
    """The finding of :func:`cover_unused`'s words: of no effect only when no weapon gets
    the cover (and lasting unless an ability granted for this activation is why)."""
    idle = unused.startswith("no effect")
    return Idle(
        OptionNote("--cover", unused),
        ("cover",) if idle else (),
        lasting=idle and not sel.added_abilities,
    )


def cover_unused(weapons: list[Weapon], edition: str) -> str:
    """What a note on cover adds about ``weapons`` (ranged) that do not get it in ``edition``
    (the abilities that ignore cover there: ``reads``'s cover row; in edition 11, where cover
    worsens BS, [TORRENT], which makes no Hit roll, and [PSYCHIC], which may ignore a BS
    modifier, too): "no effect here: every weapon has [IGNORES COVER]", "not against Deffgun
    ([IGNORES COVER])", or "" when all get it. A weapon counts under the first of them it
    has."""
    row = reading(edition, "cover", IGNORES)
    keys = row.abilities if row is not None else ()
    by: dict[str, list[str]] = {k: [] for k in keys}
    for w in weapons:
        first = next((k for k in keys if getattr(w.abilities, ability_field(k))), None)
        if first is not None:
            by[first].append(w.name)
    named = [(f"[{k.upper()}]", names) for k, names in by.items() if names]
    if not named:
        return ""
    if sum(len(n) for _, n in named) == len(weapons):
        return f"no effect here: every weapon has {' or '.join(x for x, _ in named)}"
    parts = [f"{', '.join(n)} ({x})" for x, n in named]
    return f"not against {'; '.join(parts)}"


def _target_options(
    sel: Selection, target: Unit, weapons: list[Weapon], applied: Applied
) -> list[Idle]:
    """Target-side options that change nothing: ``--target-stealth`` in a fight,
    ``--precision-target`` with no [PRECISION] weapon, ``--invuln`` / ``--fnp`` no better than
    what every model already has."""
    mods = sel.modifiers
    out = []
    if mods.target_stealth and sel.phase == "fight":
        stealth = "no effect in the Fight phase (Stealth is against ranged attacks)"
        out.append(
            Idle(OptionNote("--target-stealth", stealth), ("target_stealth",), reads_weapons=False)
        )
    given = sel.precision_given or sel.precision_target != "leader"
    if given and not any(w.abilities.precision for w in weapons):
        out.append(
            Idle(
                OptionNote(
                    "--precision-target",
                    f"{sel.precision_target}: no effect: no weapon here has [PRECISION]",
                    " ",
                ),
                (),
            )
        )
    elif given and sel.precision_target in ("leader", "bodyguard"):
        from .target import is_character

        if not any(is_character(g) for g in target.all_groups):
            out.append(
                Idle(
                    OptionNote(
                        "--precision-target",
                        f"{sel.precision_target}: no effect: {target.name} has no CHARACTER model",
                        " ",
                    ),
                    (),
                )
            )
    melee = sel.phase == "fight"
    own_invuln = [
        c.best_of(
            g.profile.invuln_against(melee),
            *(int(v) for _, v in _changes(applied, "target", "invuln", True)),  # type: ignore[call-overload]
        )
        for g in target.all_groups
    ]
    if mods.invuln is not None and all(x is not None and x <= mods.invuln for x in own_invuln):
        out.append(
            Idle(
                OptionNote(
                    "--invuln",
                    f"{mods.invuln}: no effect: every model of {target.name} has an "
                    f"invulnerable save of {mods.invuln}+ or better",
                    " ",
                ),
                ("invuln",),
                lasting=not _changes(applied, "target", "invuln"),  # an effect's may better it
                reads_weapons=False,
            )
        )
    own_fnp = [g.profile.feel_no_pain for g in target.all_groups]
    if mods.fnp is not None and all(x is not None and x <= mods.fnp for x in own_fnp):
        out.append(
            Idle(
                OptionNote(
                    "--fnp",
                    f"{mods.fnp}: no effect: every model of {target.name} has Feel No Pain "
                    f"{mods.fnp}+ or better",
                    " ",
                ),
                ("fnp",),
                reads_weapons=False,
            )
        )
    return out


def _added(edition: Edition, sel: Selection, weapons: list[Weapon]) -> list[Idle]:
    """``--add-ability`` grants that cannot act: on a weapon that does not attack here, an
    ability this edition does not model ([CLEAVE X] in 10th edition), one the attacks of this
    phase do not read, or one with no effect on an attack sequence."""
    out = []
    for i, a in enumerate(sel.added_abilities):
        given = repr(a.ability if a.weapon == "*" else f"{a.weapon}: {a.ability}")
        to = [w for w in weapons if a.weapon == "*" or norm_name(a.weapon) in answers_to(w)]
        key = parse_ability(a.ability).key
        why = None  # what the note says after the option and the ability given
        if not to:
            why = f"{a.weapon} does not attack in this activation"
        elif key == "cleave" and not edition.cleave_bonus(WeaponAbilities(cleave=1)):
            why = (
                f"[CLEAVE X] is an edition-11 ability, not modelled in edition {edition.name} "
                "(as a datasheet's [CLEAVE X]; --edition 11 applies it)"
            )
        elif key in MELEE_ONLY and not any(w.is_melee for w in to):
            why = "a melee ability: no effect on ranged attacks"
        elif key in RANGED_ONLY and all(w.is_melee for w in to):
            why = "a ranged ability: no effect on melee attacks"
        elif key == "assault" and sel.phase == "shooting" and sel.conditions.advanced:
            pass  # lets the weapon shoot after the Advance move (rules.advanced)
        elif key == "assault" and sel.phase == "shooting":
            why = (
                "no effect without --advanced ([ASSAULT] lets a weapon shoot after an Advance move)"
            )
        elif key in NO_EFFECT:
            why = "no effect on one activation"
        elif edition.name == "11" and any(torrent_cannot_have(w, a.ability) for w in to):
            names = ", ".join(dict.fromkeys(w.name for w in to if w.abilities.torrent))
            why = (
                f"not given to {names}: [TORRENT] weapons cannot have [INDIRECT FIRE] or "
                "[PRECISION] (24.37.01)"
            )
            if not all(torrent_cannot_have(w, a.ability) for w in to):
                # the other weapons still take it: still a player
                out.append(Idle(OptionNote("--add-ability", f"{given}: {why}", " "), ()))
                why = None
        if why is not None:
            out.append(Idle(OptionNote("--add-ability", f"{given}: {why}", " "), (f"added:{i}",)))
    return out


def _repeated(sel: Selection, applied: Applied) -> list[Idle]:
    """An ``--effect`` or ``--add-ability`` given again where it adds nothing: a rule applies
    once (``applied.repeated``: the names of one rule, :func:`~.applied.apply_effects`; the
    seed's core rules: the same Stratagem once a phase, an Aura once to a unit), and so does a
    weapon ability ("multiple instances of the same weapon ability are not cumulative", 24.02;
    the same ability for the same weapons, any case or spacing: ``lethal hits`` twice). Each
    ``--add-ability`` after the first of its kind is ``added:N`` (lasting: ``--explain`` does
    not count it)."""
    out = [
        Idle(
            OptionNote(
                "--effect",
                f"{name} is named {len(texts)} times ({', '.join(texts)}): a rule applies once",
            ),
            (),
        )
        for name, texts in applied.repeated
    ]
    for first, *more in added_kinds(sel.added_abilities).values():
        if more:
            given = [sel.added_abilities[i] for i in (first, *more)]
            texts = [
                repr(a.ability if a.weapon == "*" else f"{a.weapon}: {a.ability}") for a in given
            ]
            out.append(
                Idle(
                    OptionNote(
                        "--add-ability",
                        f"{texts[0]} is named {len(texts)} times ({', '.join(texts)}): an "
                        "ability applies once",
                    ),
                    tuple(f"added:{i}" for i in more),
                )
            )
    return out


def idle_phase_notes(sel: Selection) -> list[str]:
    """A note on the conditions given that only the other kind of attack reads (``--cover`` in
    a fight, ``--charged`` in shooting)."""
    idle = [f"--{c.replace('_', '-')}" for c in _IDLE[sel.phase] if getattr(sel.conditions, c)]
    if not idle:
        return []
    what = "ranged" if sel.phase == "fight" else "melee"
    return [options_note(idle, f"no effect in this phase (only {what} attacks use it)")]


# conditions that only ranged (in the Fight phase) or only melee (in shooting) attacks read
_IDLE = {
    "fight": (
        "half_range",
        "stationary",
        "cover",
        "objective",
        "overwatch",
        "indirect",
        "beyond_12",
        "plunging_fire",
        "engaged",
        "target_engaged",
        "advanced",
    ),
    "shooting": ("charged", "disembarked"),
}


def idle_effects(
    applied: Applied,
    variants: Iterable[Changes],
    groups: list[GroupOptions],
    attacker: Unit,
    target: Unit,
    hints: Iterable[OptionHint] = (),
) -> list[IdleEffect]:
    """The effects applied that change nothing in this activation (``variants``: the changes
    of each variant, the first one's first; ``groups``: the weapons that may attack), each
    with its "no effect" note: an effect is idle when no change of it, in any variant it acts
    in, has an attack in its scope that meets its conditions (``Changes.why_idle``). A
    named effect's note reads ``--effect ID: no effect: ...``; a datasheet's own rule's names
    the rule and its datasheet. A datasheet's own rule that would act with an option
    ``hints`` name (:func:`acting_hints`) is ``hinted``: its hint line says it
    (:func:`hint_lines`), so its note is not shown as well. None without an effect applied
    (``applied.members``: most of a batch's activations)."""
    if not applied.members:
        return []
    hints = list(hints)
    bearers, names = _bearers(target), (attacker.name, target.name)
    everyone = {a.key for a in applied.every_active()}
    hinted: dict[tuple, set[str]] = {}  # active key -> the options its hints name
    for h in hints:
        hinted.setdefault(h.key, set()).add(h.option)
    found: dict[tuple, tuple[list[str], bool]] = {}  # active key -> (whys, by_state)
    explained: set[tuple] = set()  # idle keys that would act with a hinted option
    acting: set[tuple] = set()
    attacks: list[Attack] = []
    for n, ch in enumerate(variants):
        if n > 0 and acting >= everyone:
            break  # every effect acts: no other variant to read
        if not ch.by:
            continue  # no change to read (most activations: no attack list made either)
        if not attacks:  # every variant has the same bearers: the same attacks
            attacks = _attacks(ch, groups)
        for pieces in ch.by.values():
            for p in pieces:
                key = p.active.key
                if key in acting:
                    continue
                idle = ch.why_idle(p, attacks, bearers, names)
                if idle is None:
                    acting.add(key)
                    found.pop(key, None)
                    continue
                whys, by_state = found.setdefault(key, ([], False))
                if _acts_with(ch, p, hinted.get(key, ()), attacks, bearers, names):
                    explained.add(key)
                elif idle[0] not in whys:
                    whys.append(idle[0])
                found[key] = (whys, by_state or idle[1])
    actives = {a.key: a for a in applied.every_active()}
    out = []
    for (eid, side), keys in applied.members.items():
        if not keys or any(k not in found for k in keys):
            continue
        reason = "; or ".join(found[keys[0]][0])
        a = actives[keys[0]]
        if a.explicit:
            head = f"--effect {eid}"
        else:
            who = a.owner.name if a.owner is not None else a.effect.faction_name
            head = f"{a.effect.name} ({who} unit rule)"
        by_state = any(found[k][1] for k in keys)
        reason = reason.replace("--effect ID:", f"--effect {eid}:")
        acts = _other_halves_acting(applied, found, eid, side)
        said = f"the {side}'s half has no effect" if acts else "no effect"
        also = f" (its {' and '.join(acts)} half acts)" if acts else ""
        told = any(k in explained for k in keys)
        note = (
            OptionNote("--effect", f"{eid}: {said}: {reason}{also}", " ")
            if a.explicit
            else f"{head}: {said}: {reason}{also}"
        )
        partly = _partly(a)
        if told:  # the hint's one line: no effect without the options it names
            ways = " or ".join(f"{h.flag} (for when {h.means})" for h in hints if h.key in keys)
            more = "partly modelled; " if partly else ""
            note = f"{a.effect.name} ({who} unit ability): {more}no effect here without {ways}"
        elif partly:  # one line on the rule, where the datasheet says it is partly modelled
            note = f"{a.effect.name} ({who} unit ability): partly modelled; {said}: {reason}"
        out.append(IdleEffect(eid, side, note, by_state, told, partly))
    return out


def _partly(a: Active) -> str:
    """The ``not_modelled`` line of datasheet rule ``a`` when its datasheet lists it as partly
    modelled on its side (``Name (partly)``: ``rules.applied``'s unit rules), else ""."""
    if a.explicit or a.owner is None:
        return ""
    own = a.owner.not_modelled_attacker if a.side == "attacker" else a.owner.not_modelled_target
    name = f"{a.effect.name} (partly)"
    return f"{name} ({a.owner.name} unit ability)" if name in own else ""


def acting_hints(
    hints: list[OptionHint], first: Changes, groups: list[GroupOptions], target: Unit
) -> list[OptionHint]:
    """The ``hints`` (:func:`~wh40k_calc.rules.applied.option_hints`) whose option would make
    a change of its rule act here (``first``: the first variant's changes; ``groups``: the
    weapons that may attack): a part for ranged attacks in the Fight phase is no news."""
    if not hints:
        return []
    bearers, names = _bearers(target), ("", "")
    attacks = _attacks(first, groups)
    pieces = [p for ps in first.by.values() for p in ps]
    return [
        h
        for h in hints
        if any(
            p.active.key == h.key and _acts_with(first, p, {h.option}, attacks, bearers, names)
            for p in pieces
        )
    ]


def _bearers(target: Unit) -> bool:
    """Whether the target has a bearer model (``Changes.why_idle``)."""
    return bool(bearer_groups(target))


def _attacks(ch: Changes, groups: list[GroupOptions]) -> list[Attack]:
    """Every weapon that may attack, with its model group, once each."""
    made = (ch.attack(w, g.group) for g in groups for o in g.options for w in o.weapons)
    return list(dict.fromkeys(made))


def _acts_with(
    ch: Changes,
    p: Piece,
    options: Iterable[str],
    attacks: list[Attack],
    bearers: bool,
    names: tuple[str, str],
) -> bool:
    """Whether piece ``p``, whose change asks for an option the player did not give, would
    act given that option, when it is one of ``options`` (``Changes.why_idle``)."""
    want = p.change.when.option if p.change.when is not None else None
    if want is None or want not in options or want in p.active.options:
        return False
    given = replace(p, active=replace(p.active, options=p.active.options | {want}))
    return ch.why_idle(given, attacks, bearers, names) is None


def hint_lines(hints: list[OptionHint], idle: list[IdleEffect], applied: Applied) -> list[str]:
    """The ``not_modelled`` lines of the options datasheets' own rules ask for (``hints``:
    :func:`acting_hints`): one per option for a rule that acts here without it
    (:meth:`~wh40k_calc.rules.applied.OptionHint.line`), and for a rule that acts only with
    them (``idle`` lists it ``hinted``) its note, one line saying it has no effect here
    without them, where it does not stand in for its datasheet's ``(partly)`` line
    (``replaces``: the plan puts it there)."""
    wholly = {k for i in idle if i.hinted for k in applied.members.get((i.id, i.side), ())}
    out = [h.line() for h in hints if h.key not in wholly]
    return out + [i.note for i in idle if i.hinted and not i.replaces]


def _other_halves_acting(applied: Applied, found: dict, eid: str, side: str) -> list[str]:
    """The other sides of effect ``eid`` applied here that act (a `both` record's other half:
    Waaagh!'s target half when its attacker half has nothing to change)."""
    return [
        other
        for (e, other), keys in applied.members.items()
        if e == eid and other != side and keys and any(k not in found for k in keys)
    ]

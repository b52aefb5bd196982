"""Which weapons attack: each model group's options in the phase (pistols or other ranged
weapons, one melee weapon plus [EXTRA ATTACKS], one profile of a multi-profile weapon), and the
order in which profiles are resolved."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from ..datasheet import Weapon, norm_name
from ..fuzzy import did_you_mean
from ..kept import Kept
from ..notes import OptionNote
from ..profile import AttackProfile
from ..selection import (
    NothingAfterAdvanceError,
    OptionError,
    OptionUsageError,
    Selection,
    SelectionError,
    WeaponsError,
)
from ..units import ModelGroup, Unit
from . import advanced
from .engaged import dropped_note, engaged_weapons, implied_note, is_big, refusal
from .plan import GroupOptions, Option

OPTIONS_KEPT = 512
_OPTIONS: Kept[tuple, tuple[Unit, tuple[GroupOptions, ...], tuple[str, ...]]] = Kept(OPTIONS_KEPT)


def weapon_options(
    sel: Selection,
    attacker: Unit,
    mortal_only: bool = False,
    blast_ok: Callable[[ModelGroup, Weapon], bool] | None = None,
    assault_ok: Callable[[ModelGroup, Weapon], bool] | None = None,
) -> tuple[list[GroupOptions], list[str]]:
    """The ways each model group of the attacker can attack in this phase (Core rules:
    Pistol; seeds README: weapons a model uses, [EXTRA ATTACKS]), and notes. ``mortal_only``:
    the attacker's effects inflict mortal wounds before the attacks (a stratagem's roll in the
    Shooting phase, as Skulls Beget Blood's), so a unit with no weapon for the phase still has
    something to resolve: no options then, and a note says so. Shooting while engaged or at
    an engaged target (``--engaged``, ``--target-engaged``: :mod:`~wh40k_calc.rules.engaged`)
    leaves out the weapons that cannot shoot then, with a note; ``blast_ok(group, weapon)``:
    an effect lets that [BLAST] weapon shoot a target engaged with the attacker. After an
    Advance move (``--advanced``: :mod:`~wh40k_calc.rules.advanced`) only [ASSAULT] weapons
    shoot, the others left out with a note; ``assault_ok(group, weapon)``: an effect gives
    that weapon [ASSAULT].

    Without ``blast_ok`` and ``assault_ok`` (no effect acts), made once per process for the
    attacking unit object and all it reads of the selection: the phase, ``--indirect``,
    ``--advanced``, ``--engaged``, ``--target-engaged`` and the weapons named with
    ``--weapon`` (a batch plans the same units under other conditions and against other
    targets again and again; kept with the unit, so its id is not reused while kept; each
    caller gets its own lists; errors are not kept).

    Raises:
        SelectionError: no weapon can attack (and no effect inflicts mortal wounds); an engaged
            attacker with neither Pistols nor the MONSTER/VEHICLE keyword, or one that
            Advanced with no [ASSAULT] weapon, with the reason.
    """
    if blast_ok is not None or assault_ok is not None:
        return made_weapon_options(sel, attacker, mortal_only, blast_ok, assault_ok)
    cond = sel.conditions
    key = (
        id(attacker),
        sel.phase,
        cond.indirect,
        cond.advanced,
        cond.engaged,
        cond.target_engaged,
        sel.attacker.weapons,
        mortal_only,
    )
    kept = _OPTIONS.get(key)
    if kept is None or kept[0] is not attacker:
        groups, notes = made_weapon_options(sel, attacker, mortal_only)
        kept = _OPTIONS.put(key, (attacker, tuple(groups), tuple(notes)))
    return list(kept[1]), list(kept[2])


def made_weapon_options(
    sel: Selection,
    attacker: Unit,
    mortal_only: bool = False,
    blast_ok: Callable[[ModelGroup, Weapon], bool] | None = None,
    assault_ok: Callable[[ModelGroup, Weapon], bool] | None = None,
) -> tuple[list[GroupOptions], list[str]]:
    """:func:`weapon_options` made afresh."""
    notes: list[str] = implied_note(sel, attacker)
    out: list[GroupOptions] = []
    engaged_why: list[str] = []
    advanced_why: list[str] = []
    for g in attacker.groups:
        if sel.phase == "shooting":
            opts, why, not_assault = _ranged_options(g, sel, attacker, blast_ok, assault_ok)
            engaged_why += why
            advanced_why += not_assault
        else:
            opts = _melee_options(g)
        if opts:
            out.append(
                GroupOptions(g, tuple(opts), "shoots" if sel.phase == "shooting" else "fights with")
            )
    if sel.phase == "shooting" and sel.conditions.indirect:
        ranged = [w for g in attacker.groups for w in g.weapons if not w.is_melee]
        blind = sorted({w.name for w in ranged if not w.abilities.indirect_fire})
        if blind:
            notes.append(
                f"the target is not visible (--indirect): {', '.join(blind)} "
                "cannot shoot it (no [INDIRECT FIRE])"
            )
        torrent = sorted({w.name for w in ranged if _indirect_torrent(w)})
        if torrent:
            notes.append(
                f"the target is not visible (--indirect): {', '.join(torrent)} cannot shoot it "
                "([TORRENT] weapons cannot make Indirect Fire attacks)"
            )
    bare = [g for g in attacker.groups if not g.weapons]  # equipped with nothing
    if len(bare) < len(attacker.groups):  # (all of them: the error below says so)
        notes += [_carries_nothing(g) for g in bare]
    named = _named_idle(sel, attacker)
    if not out and named:
        whys = [why for why, _, _ in named]
        in_file = "; ".join(file_why for _, _, file_why in named)  # a batch file's words
        raise WeaponsError("--weapon " + "; --weapon ".join(whys), in_file)
    # (with --indirect, the notes above already name the weapons that cannot shoot)
    notes += [
        OptionNote("--weapon", f"{why} (it does not attack here)", " ")
        for why, wrong, _ in named
        if wrong
    ]
    if advanced_why and out:
        notes.append(advanced.dropped_note(advanced_why))
    if advanced_why and not out and not (mortal_only and not named):
        raise NothingAfterAdvanceError(advanced.refusal(attacker, advanced_why))
    if engaged_why and out:
        notes.append(dropped_note(engaged_why))
    if engaged_why and not out and not (mortal_only and not named):
        raise SelectionError(refusal(attacker, engaged_why))
    if not out and mortal_only and not named:
        what = "ranged" if sel.phase == "shooting" else "melee"
        notes.append(f"{attacker.name} has no {what} weapon: only the effects' mortal wounds")
        return out, notes
    if not out:
        what = "ranged" if sel.phase == "shooting" else "melee"
        extra = (
            " with [INDIRECT FIRE] (and not [TORRENT])"
            if sel.phase == "shooting" and sel.conditions.indirect
            else ""
        )
        known = _available(sel, attacker)
        if len(bare) == len(attacker.groups):
            known = ": its datasheet equips its models with no weapon" + known
        raise SelectionError(f"{attacker.name} has no {what} weapon{extra} to attack with{known}")
    return out, notes


def _carries_nothing(g: ModelGroup) -> str:
    """The note for a model type its datasheet equips with no weapon at all."""
    if g.count == 1:
        return (
            f"1 {g.label} carries no weapon (its datasheet equips it with none): it does not attack"
        )
    return (
        f"{g.count:,} {g.label} models carry no weapon (their datasheet equips them with none): "
        "they do not attack"
    )


def _can_attack(w: Weapon, sel: Selection) -> bool:
    """Whether ``w`` attacks in this phase: a ranged weapon in shooting (with ``--indirect``, an
    [INDIRECT FIRE] weapon without [TORRENT]), a melee weapon in a fight."""
    if sel.phase == "fight":
        return w.is_melee
    if sel.conditions.indirect:
        return not w.is_melee and w.abilities.indirect_fire and not w.abilities.torrent
    return not w.is_melee


def _available(sel: Selection, attacker: Unit) -> str:
    """The datasheet's weapons that can attack here, which ``--weapon`` can pick, as a
    clause."""
    names = [f"'{w.name}'" for ds in attacker.datasheets for w in ds.weapons if _can_attack(w, sel)]
    if not names:
        return ""
    return f"; its datasheet has {', '.join(dict.fromkeys(names))}: pick them with --weapon"


def _named_idle(sel: Selection, attacker: Unit) -> list[tuple[str, bool, str]]:
    """Why each weapon named with ``--weapon`` that cannot attack here does not (the selected
    weapon is the problem, not the datasheet), e.g. "Fist: a melee weapon, which does not
    shoot: use calc fight"; whether the reason is the phase (a melee weapon in shooting, a
    ranged one in a fight) rather than ``--indirect``; and the reason in a batch file's words
    ("... which does not shoot: give the run phase: fight")."""
    if not sel.attacker.weapons:
        return []
    body = attacker.datasheets[0]  # the Bodyguard's: --weapon names its weapons only
    named = {w.key for name, _ in sel.attacker.weapons if (w := body.weapon(name)) is not None}
    out = []
    for w in dict.fromkeys(w for g in attacker.groups for w in g.weapons):
        if _can_attack(w, sel) or w.key not in named:
            continue
        wrong = w.is_melee != (sel.phase == "fight")
        file_why = None
        if sel.phase == "fight":
            why = "a ranged weapon, which does not fight: use calc shoot"
            file_why = "a ranged weapon, which does not fight: give the run phase: shooting"
        elif w.is_melee:
            why = "a melee weapon, which does not shoot: use calc fight"
            file_why = "a melee weapon, which does not shoot: give the run phase: fight"
        else:
            why = (
                "[TORRENT] weapons cannot make Indirect Fire attacks"
                if w.abilities.indirect_fire
                else "with --indirect only [INDIRECT FIRE] weapons shoot, and it has none"
            )
            able = [x.name for ds in attacker.datasheets for x in ds.weapons if _can_attack(x, sel)]
            why += f" ({attacker.name}'s that can: {', '.join(dict.fromkeys(able)) or 'none'})"
        out.append((f"{w.name}: {why}", wrong, f"{w.name}: {file_why or why}"))
    return list(dict.fromkeys(out))


def _ranged_options(
    g: ModelGroup,
    sel: Selection,
    attacker: Unit,
    blast_ok: Callable[[ModelGroup, Weapon], bool] | None,
    assault_ok: Callable[[ModelGroup, Weapon], bool] | None = None,
) -> tuple[list[Option], list[str], list[str]]:
    """The ways group ``g`` can shoot, why weapons were left out by the engaged rules, and
    why by the rule of shooting after an Advance move."""
    ranged = [w for w in g.weapons if not w.is_melee]
    if sel.conditions.indirect:  # seeds README, [INDIRECT FIRE]: not with [TORRENT]
        ranged = [w for w in ranged if w.abilities.indirect_fire and not w.abilities.torrent]
    ranged, not_assault = advanced.advanced_weapons(sel, g, ranged, assault_ok)
    ranged, why = engaged_weapons(sel, attacker, g, ranged, blast_ok)
    if not ranged:
        return [], why, not_assault
    vehicle = is_big(g)
    pistols = [w for w in ranged if w.abilities.pistol]
    others = [w for w in ranged if not w.abilities.pistol]
    sets = [ranged] if vehicle or not pistols or not others else [others, pistols]
    opts: list[Option] = []
    for s in sets:
        for combo in _profile_combos(s):
            opts.append(Option(tuple(combo), ", ".join(w.name for w in combo)))
    return opts, why, not_assault


def _indirect_torrent(w: Weapon) -> bool:
    """An [INDIRECT FIRE] weapon that also has [TORRENT], which "cannot make Indirect Fire
    attacks" (seeds README, [INDIRECT FIRE], current 10th-edition text; edition 11, 24.37.01:
    [TORRENT] weapons cannot have [INDIRECT FIRE])."""
    return w.abilities.indirect_fire and w.abilities.torrent


def _melee_options(g: ModelGroup) -> list[Option]:
    melee = [w for w in g.weapons if w.is_melee]
    extra = [w for w in melee if w.abilities.extra_attacks]
    main = [w for w in melee if not w.abilities.extra_attacks]
    if not main:
        return [Option(tuple(extra), ", ".join(w.name for w in extra))] if extra else []
    seen: list[str] = []
    opts = []
    for w in main:
        if w.key in seen:
            continue
        seen.append(w.key)
        opts.append(Option((w, *extra), ", ".join(x.name for x in (w, *extra))))
    return opts


def ordered(profiles: list[AttackProfile], order: tuple[str, ...] | None) -> list[AttackProfile]:
    """``profiles`` in the order ``order`` names (prefixes allowed), the rest after.

    Raises:
        OptionError: of ``--order`` (a batch file names its ``order`` field): a name that
            matches no profile (with suggestions), or only profiles named before ("named
            twice").
    """
    if not order:
        return profiles
    out: list[AttackProfile] = []
    for name in order:
        hits = [
            p
            for p in profiles
            if norm_name(p.name) == norm_name(name) or norm_name(p.name).startswith(norm_name(name))
        ]
        if not hits:
            why = (
                f"no weapon {name!r} attacks here"
                + did_you_mean(name, [p.name for p in profiles])
                + f" (weapons: {', '.join(p.name for p in profiles)})"
            )
            raise OptionError(f"--order: {why}", "--order", why)  # a batch file: its `order`
        if all(p in out for p in hits):
            said = (
                f"{hits[0].name} is named twice"
                if norm_name(name) == norm_name(hits[0].name)
                else f"{name!r} names {hits[0].name} again"
            )
            why = f"{said}; name each weapon once"
            # the same name twice is wrong whatever the data (exit code 2): see order.py
            same = norm_name(name) == norm_name(hits[0].name)
            raise (OptionUsageError if same else OptionError)(f"--order: {why}", "--order", why)
        for p in hits:
            if p not in out:
                out.append(p)
    return out + [p for p in profiles if p not in out]


def _profile_combos(weapons: list[Weapon]) -> list[list[Weapon]]:
    """All ways to pick one profile of each multi-profile weapon ("Before selecting targets
    for this weapon, select one of its profiles"). A model carrying several copies of such a
    weapon fires every copy with the picked profile."""
    families: dict[str, list[Weapon]] = {}
    plain: list[Weapon] = []
    for w in weapons:
        if w.profile_of:
            families.setdefault(norm_name(w.profile_of), []).append(w)
        else:
            plain.append(w)
    if not families:
        return [weapons]
    options = []
    for members in families.values():
        distinct = list(dict.fromkeys(members))
        copies = max(members.count(p) for p in distinct)
        options.append([[p] * copies for p in distinct])
    return [plain + [w for chosen in pick for w in chosen] for pick in itertools.product(*options)]

"""What ``--explain`` switches on and off: the rules applied in an activation that can change its
result (the *players* of the attribution), and the Selection with some of them switched off.

A player is what a player would name, one each:

* ``effect``: each ``--effect`` as given (``--effect waaagh``, ``--effect target:waaagh``);
  switched off by leaving it out of the selection (and, where it is also a unit rule of a
  datasheet, that rule too: one rule, one player).
* ``unit rule``: each unit rule the datasheets name that applies (Dat's Our Loot!, a target's
  defensive ability); switched off by ``Selection.without_rules``.
* ``condition``: each condition flag set (``--charged``, ``--stationary``, ``--cover``, ...);
  switched off by setting it False.
* ``modifier``: each modifier option set (``--hit-mod 1``, ``--reroll-wounds ones``,
  ``--fnp 5``, ``--target-stealth``, ...); switched off by its default.
* ``added ability``: each ``--add-ability``; switched off by leaving it out.
* ``weapon ability``: each ability a weapon used in the activation has on its datasheet
  (``Deffgun [HEAVY]``) that can act here; switched off by ``Selection.without_abilities``,
  which takes it off that weapon profile before anything reads the weapon (``rules.added``),
  so a grant of the same ability by an effect or ``--add-ability`` still holds.

Not players: options and conditions with no effect whatever else is switched off
(``rules.idle``'s lasting findings, ``Plan.idle``); weapon abilities that cannot act here
(:func:`_can_act`: [HEAVY] without ``--stationary``, [LANCE] without a Charge move, [ANTI-X]
against a target without X, ...); abilities that decide which weapons attack ([PISTOL],
[CLOSE-QUARTERS], [EXTRA ATTACKS], [INDIRECT FIRE]) or act only on the attacker
([HAZARDOUS]); [TORRENT], which a weapon with no BS or WS to roll cannot be without (an
``--add-ability torrent`` is a player); abilities that change nothing in one activation or
are not modelled. An
effect whose conditions a switched-off condition no longer meets (Hack and Slash without
``--charged``) is left out of that subset (``Selection.skip_unmet``): without the charge, the
stratagem cannot be used.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..abilities import MODELLED, Ability, parse_ability, split_abilities
from ..datasheet import norm_name
from ..records import field_defaults, replace
from ..selection import AddedAbility, Conditions, Modifiers, Selection
from .reads import read_through

if TYPE_CHECKING:
    from ..datasheet import Weapon
    from ..profile import Activation
    from .plan import Plan

KINDS = ("effect", "unit rule", "condition", "modifier", "added ability", "weapon ability")
# abilities that decide which weapons attack, act on the attacker only, or that the weapon
# cannot be without ([TORRENT]: no BS or WS to roll with): never players
NOT_PLAYERS = (
    "pistol",
    "close-quarters",
    "extra attacks",
    "indirect fire",
    "hazardous",
    "torrent",
    "assault",
)


@dataclass(frozen=True)
class Player:
    """One rule applied in an activation: ``name`` as the player gives it (``--effect
    waaagh``, ``--charged``, ``--hit-mod 1``, ``Dat's Our Loot!``, ``Deffgun [HEAVY]``),
    ``kind`` one of :data:`KINDS`, and ``key``, what :func:`switched_off` reads: (kind,
    what), e.g. ("condition", "charged"), ("weapon ability", "Deffgun", "heavy")."""

    name: str
    kind: str
    key: tuple


def players(sel: Selection, plan: Plan, act: Activation) -> list[Player]:
    """The players of the activation ``act`` (the one the player's choices made from
    ``plan`` for ``sel``), ordered by kind (:data:`KINDS`) and, within a kind, by the
    selection's own fields or the weapons' order, never by the order the options were given
    in; each name once."""
    out: list[Player] = []
    given = {text: _effect_ids(sel, plan, text) for text in dict.fromkeys(sel.effects)}
    for text in sorted(given, key=lambda t: (given[t], t)):
        out.append(Player(f"--effect {text}", "effect", ("effect", text, given[text])))
    defaults = _default_rules(sel, plan)
    explicit = {i for ids in given.values() for i in ids}
    for eid in plan.effects:
        if eid in defaults and eid not in explicit:
            out.append(Player(defaults[eid], "unit rule", ("unit rule", eid)))
    for name in field_defaults(Conditions):
        if getattr(sel.conditions, name) and name not in plan.idle:
            out.append(Player(_option(name), "condition", ("condition", name)))
    for name, default in field_defaults(Modifiers).items():
        value = getattr(sel.modifiers, name)
        if value != default and name not in plan.idle:
            shown = "" if value is True else f" {value}"
            out.append(Player(_option(name) + shown, "modifier", ("modifier", name)))
    for i, a in enumerate(sel.added_abilities):
        if f"added:{i}" not in plan.idle:
            added = a.ability if a.weapon == "*" else f"{a.weapon}: {a.ability}"
            out.append(Player(f"--add-ability {added!r}", "added ability", ("added ability", i)))
    for w, ab in _weapon_abilities(sel, plan, act):
        name = f"{w.name} [{ab.text.upper()}]"
        out.append(Player(name, "weapon ability", ("weapon ability", w.name, ab.text)))
    first: dict[str, Player] = {}  # each name once, where it first comes
    for p in out:
        first.setdefault(p.name, p)
    return list(first.values())


def switched_off(sel: Selection, off: Iterable[Player]) -> Selection:
    """``sel`` with the players ``off`` switched off (see the module's list); explicit
    effects whose conditions are then not met are left out rather than refused."""
    effects, rules, conditions, modifiers = list(sel.effects), list(sel.without_rules), {}, {}
    added, removed = list(range(len(sel.added_abilities))), list(sel.without_abilities)
    defaults = field_defaults(Modifiers)
    for p in off:
        kind = p.key[0]
        if kind == "effect":
            effects = [e for e in effects if e != p.key[1]]
            rules += p.key[2]  # also a unit rule of a datasheet: one rule, one player
        elif kind == "unit rule":
            rules.append(p.key[1])
        elif kind == "condition":
            conditions[p.key[1]] = False
        elif kind == "modifier":
            modifiers[p.key[1]] = defaults[p.key[1]]
        elif kind == "added ability":
            added = [i for i in added if i != p.key[1]]
        elif kind == "weapon ability":
            removed.append(AddedAbility(p.key[1], p.key[2]))
        else:
            raise ValueError(f"unknown kind of player {kind!r}")
    return replace(
        sel,
        effects=tuple(effects),
        without_rules=tuple(dict.fromkeys(rules)),
        conditions=replace(sel.conditions, **conditions),
        modifiers=replace(sel.modifiers, **modifiers),
        added_abilities=tuple(sel.added_abilities[i] for i in added),
        without_abilities=tuple(dict.fromkeys(removed)),
        skip_unmet=True,
    )


def _option(field_name: str) -> str:
    return "--" + field_name.replace("_", "-")


def _effect_ids(sel: Selection, plan: Plan, text: str) -> tuple[str, ...]:
    """The ids of the records ``--effect TEXT`` names here (a choice rule's every option);
    none when it names none (the rules layer refuses the selection itself)."""
    from ..effects import find, parse_request
    from .applied import unit_keys

    units = {
        "attacker": (plan.attacker.name, unit_keys(plan.attacker)),
        "target": (plan.target.name, unit_keys(plan.target)),
    }
    try:
        found = find(parse_request(text), sel.edition, units)
    except LookupError:
        return ()
    return tuple(dict.fromkeys(e.id for e in found.effects))


def _default_rules(sel: Selection, plan: Plan) -> dict[str, str]:
    """The unit rules both units' datasheets name (applied by default): id to printed name."""
    from .applied import datasheet_rules

    requested, _ = datasheet_rules(replace(sel, without_rules=()), plan.attacker, plan.target)
    return {e.id: e.name for e, *_ in requested}


def _weapon_abilities(sel: Selection, plan: Plan, act: Activation) -> list[tuple[Weapon, Ability]]:
    """(weapon, ability) for each ability the datasheet gives a weapon profile used in
    ``act`` that can act here (:func:`_can_act`), in the activation's weapon order."""
    used = {p.name for p in act.weapons}
    out: list[tuple[Weapon, Ability]] = []
    seen: set[tuple[str, str]] = set()
    for name in (p.name for p in act.weapons):
        for g in plan.groups:
            ds = g.group.datasheet
            for o in g.options:
                for w in o.weapons:
                    if name not in (w.name, f"{w.name} ({ds.name})") or name not in used:
                        continue
                    own = next((x for x in ds.weapons if x.key == w.key), None)
                    for item in own.ability_texts if own is not None else ():
                        for piece in split_abilities(item):
                            ab = parse_ability(piece)
                            if (w.name, ab.text) in seen or not _can_act(ab, w, sel, plan, act):
                                continue
                            seen.add((w.name, ab.text))
                            out.append((w, ab))
    return out


def _can_act(ab: Ability, w: Weapon, sel: Selection, plan: Plan, act: Activation) -> bool:
    """Whether a weapon's own ability can change this activation's result, whatever else is
    switched off (players only switch things off): each ability's own trigger (the
    conditions read only through an ability: ``reads.read_through``; Core rules: Anti,
    Blast, Precision; seeds README: [IGNORES COVER], [CLEAVE X]; [PSYCHIC] only against Feel
    No Pain against Psychic Attacks, or in edition 11 where its attacks ignore harmful
    modifiers). In doubt, it is a player."""
    from . import get_rules

    if ab.status != MODELLED or ab.key in NOT_PLAYERS:
        return False
    cond, ranged = sel.conditions, not w.is_melee
    shooting = sel.phase == "shooting"
    key = ab.key
    through = [r for r in read_through(sel.edition) if key in r.abilities]
    if through:  # [HEAVY], [RAPID FIRE X], [MELTA X], [CONVERSION], [LANCE]: their condition
        return any(
            r.read_by(w.abilities, sel.phase, w.is_melee) and getattr(cond, r.condition)
            for r in through
        )
    if key == "anti":
        keyword, _ = cast("tuple[str, int]", ab.value)
        return norm_name(keyword) in {norm_name(k) for k in plan.target.keywords}
    if key == "precision":
        return bool(act.target.characters)
    if key == "blast":
        return ranged and act.target.models >= 5
    if key == "cleave":
        edition = get_rules(sel.edition).edition
        return not ranged and act.target.models >= 5 and bool(edition.cleave_bonus(w.abilities))
    # an effect on the target may give it cover or Feel No Pain against Psychic Attacks
    target_effects = any("target" in sides for sides in plan.effect_sides.values())
    if key == "ignores cover":  # Stealth gives cover in edition 11 only (rules.cover)
        stealth = get_rules(sel.edition).edition.stealth_gives_cover() and (
            sel.modifiers.target_stealth or any(g.profile.stealth for g in plan.target.all_groups)
        )
        covered = cond.cover or cond.indirect or stealth or target_effects
        return shooting and ranged and covered
    if key == "psychic":
        return (
            get_rules(sel.edition).edition.psychic_ignores_harmful()
            or any(g.profile.feel_no_pain_psychic for g in plan.target.all_groups)
            or target_effects
        )
    return True  # [TWIN-LINKED], [SUSTAINED HITS X], [LETHAL HITS], [DEVASTATING WOUNDS]

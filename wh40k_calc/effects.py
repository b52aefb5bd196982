"""Named army rules, detachment rules, stratagems and unit rules, as declarative records.

Each :class:`Effect` says what it changes, on which side (the attacking unit or the target),
in which phase, under which conditions (keywords, a Charge move, ...) and where its text is.
The rules layer reads these fields; adding an effect is adding a record here. An effect whose
conditions are not met is refused with the reason (``check``), never applied silently.
"""

from __future__ import annotations

from msgspec import Struct

from .datasheet import norm_rule
from .fuzzy import did_you_mean

SEED_000 = "seeds/000 (Orks – Boyz page)"
SEED_001 = "seeds/001 (Orks – Lootas page)"
SEED_004 = "seeds/004 (World Eaters – Lord Invocatus page)"
# publications, as players name them (``calc effects`` shows these, not our seed files)
CORE = "Core Rules"
ORKS = "Codex: Orks"
WORLD_EATERS = "Codex: World Eaters"


class Effect(Struct, frozen=True):
    """One named rule.

    Conditions: ``phases`` where it can apply; ``needs_charged``/``needs_disembarked``;
    ``attacker_keywords``/``target_keywords`` (the unit must have one of them);
    ``attacker_requires`` (the attacking unit must have all of them);
    ``target_excludes`` (it must have none); ``min_target_models``; ``editions`` (the rules
    editions whose text we have for it: a core stratagem file 004 does not print is "10" only).

    Attacker-side changes: ``melee_strength``, ``melee_attacks`` (not [EXTRA ATTACKS]
    weapons), ``melee_ap`` (improvement), ``melee_abilities``, ``melee_abilities_vs``
    ((KEYWORD, abilities): only against a target with KEYWORD), ``choose_melee_ability``
    (the player picks one; the calculator picks the best), ``melee_crit_hit``,
    ``ranged_reroll_hits``/``ranged_reroll_hits_objective`` (re-roll permissions, the second
    against a target within range of an objective marker), ``reroll_wounds`` and
    ``reroll_wounds_10`` (with 10 or more models), ``snap_shooting``, ``mortal_wounds``
    (name of a mortal-wound roll inflicted before the attacks), ``command_reroll``.

    Target-side changes: ``invuln`` and ``invuln_10`` (X+ while the unit has 10 or more
    models), ``cover``, ``wound_mod``, ``wound_mod_if_stronger`` (only when the attack's S is
    greater than the unit's T), ``damage_reduction``, ``fnp_mortal``, ``fnp_psychic``,
    ``hit_mod`` (added to the Hit rolls of attacks against the unit, inside the +-1 cap) and
    ``ap_worsen`` (worsens the attack's AP by N, never above 0).
    """

    id: str
    name: str
    kind: str
    source: str
    summary: str
    side: str
    publication: str = ""
    phases: tuple[str, ...] = ("shooting", "fight")
    needs_charged: bool = False
    needs_disembarked: bool = False
    default: bool = False
    attacker_keywords: tuple[str, ...] = ()
    attacker_requires: tuple[str, ...] = ()
    target_keywords: tuple[str, ...] = ()
    target_excludes: tuple[str, ...] = ()
    attacker_excludes_titanic_target: bool = False
    no_attack_effect: bool = False
    editions: tuple[str, ...] = ("10", "11")
    # attacker side
    melee_strength: int = 0
    melee_attacks: int = 0
    melee_ap: int = 0
    melee_abilities: tuple[str, ...] = ()
    melee_abilities_vs: tuple[str, tuple[str, ...]] | None = None
    choose_melee_ability: tuple[str, ...] = ()
    melee_crit_hit: int | None = None
    ranged_reroll_hits: str | None = None
    ranged_reroll_hits_objective: str | None = None
    reroll_wounds: str | None = None
    reroll_wounds_10: str | None = None
    snap_shooting: bool = False
    mortal_wounds: str | None = None
    command_reroll: bool = False
    # target side
    invuln: int | None = None
    invuln_10: int | None = None
    cover: bool = False
    wound_mod: int = 0
    wound_mod_if_stronger: int = 0
    damage_reduction: int = 0
    fnp_mortal: int | None = None
    fnp_psychic: int | None = None
    hit_mod: int = 0
    ap_worsen: int = 0

    @property
    def applies_to_attacker(self) -> bool:
        """True when the effect changes the attacking unit's attacks."""
        return self.side in ("attacker", "both")

    @property
    def applies_to_target(self) -> bool:
        """True when the effect changes the target's defence."""
        return self.side in ("target", "both")


EFFECTS: tuple[Effect, ...] = (
    Effect(
        "waaagh",
        "Waaagh!",
        "army rule",
        SEED_000 + ", FACTION: Waaagh!",
        "melee weapons +1 S and +1 A (attacker); 5+ invulnerable save (target)",
        "both",
        publication=ORKS,
        attacker_keywords=("ORKS",),
        target_keywords=("ORKS",),
        melee_strength=1,
        melee_attacks=1,
        invuln=5,
    ),
    Effect(
        "get-stuck-in",
        "Get Stuck In",
        "detachment rule (War Horde)",
        SEED_000,
        "melee weapons have [SUSTAINED HITS 1]",
        "attacker",
        publication=ORKS,
        phases=("fight",),
        attacker_keywords=("ORKS",),
        melee_abilities=("sustained hits 1",),
    ),
    Effect(
        "belligerent-boarders",
        "Belligerent Boarders",
        "detachment rule (Ramship Raiders)",
        SEED_001,
        "-1 to the Wound roll when the attack's S is greater than the target's T",
        "target",
        publication="Boarding Actions",
        target_keywords=("ORKS",),
        target_excludes=("GROTS",),
        wound_mod_if_stronger=-1,
    ),
    Effect(
        "ard-as-nails",
        "'Ard as Nails",
        "stratagem (War Horde)",
        SEED_001,
        "-1 to the Wound roll of attacks that target the unit",
        "target",
        publication=ORKS,
        target_keywords=("ORKS",),
        target_excludes=("GROTS", "MONSTER", "VEHICLE"),
        wound_mod=-1,
    ),
    Effect(
        "go-to-ground",
        "Go to Ground",
        "core stratagem",
        SEED_000 + ", GO TO GROUND",
        "6+ invulnerable save and the Benefit of Cover",
        "target",
        publication=CORE,
        phases=("shooting",),
        target_keywords=("INFANTRY",),
        invuln=6,
        cover=True,
        editions=("10",),
    ),
    Effect(
        "unbridled-carnage",
        "Unbridled Carnage",
        "stratagem (War Horde)",
        SEED_001,
        "melee attacks: an unmodified Hit roll of 5+ is a Critical Hit",
        "attacker",
        publication=ORKS,
        phases=("fight",),
        attacker_keywords=("ORKS",),
        melee_crit_hit=5,
    ),
    Effect(
        "competitive-streak",
        "Competitive Streak",
        "stratagem (Green Tide)",
        SEED_000,
        "re-roll Wound rolls of 1; with 10 or more models, re-roll the Wound roll",
        "attacker",
        publication=ORKS,
        phases=("fight",),
        attacker_keywords=("BOYZ",),
        reroll_wounds="ones",
        reroll_wounds_10="all",
    ),
    Effect(
        "fight-proppa",
        "Fight Proppa",
        "stratagem (Taktikal Brigade)",
        SEED_001,
        "melee weapons gain [SUSTAINED HITS 1] or [LETHAL HITS] (the better is chosen)",
        "attacker",
        publication="Grotmas Calendar: Orks – Taktikal Brigade",
        phases=("fight",),
        attacker_keywords=("INFANTRY", "MOUNTED"),
        attacker_requires=("ORKS",),
        choose_melee_ability=("sustained hits 1", "lethal hits"),
    ),
    Effect(
        "fire-overwatch",
        "Fire Overwatch",
        "core stratagem",
        SEED_000 + ", FIRE OVERWATCH",
        "snap shooting: only an unmodified Hit roll of 6 hits",
        "attacker",
        publication=CORE,
        phases=("shooting",),
        snap_shooting=True,
        attacker_excludes_titanic_target=True,
    ),
    Effect(
        "grenade",
        "Grenade",
        "core stratagem",
        SEED_000 + ", GRENADE",
        "before shooting: six D6, each 4+ inflicts 1 mortal wound",
        "attacker",
        publication=CORE,
        phases=("shooting",),
        attacker_keywords=("GRENADES",),
        mortal_wounds="grenade",
        editions=("10",),
    ),
    Effect(
        "command-re-roll",
        "Command Re-roll",
        "core stratagem",
        SEED_000 + ", COMMAND RE-ROLL",
        "one failed Wound roll re-rolled, of the weapon where that adds most",
        "attacker",
        publication=CORE,
        command_reroll=True,
    ),
    Effect(
        "hack-and-slash",
        "Hack and Slash",
        "stratagem (Berzerker Warband)",
        SEED_004 + ", HACK AND SLASH",
        "melee weapons: AP improved by 1 after a Charge move",
        "attacker",
        publication=WORLD_EATERS,
        phases=("fight",),
        needs_charged=True,
        attacker_keywords=("WORLD EATERS",),
        melee_ap=1,
    ),
    Effect(
        "relentless-rage",
        "Relentless Rage",
        "detachment rule (Berzerker Warband)",
        SEED_004 + ", Relentless Rage",
        "after a Charge move: melee weapons +1 A and +2 S",
        "attacker",
        publication=WORLD_EATERS,
        phases=("fight",),
        needs_charged=True,
        attacker_keywords=("WORLD EATERS",),
        melee_attacks=1,
        melee_strength=2,
    ),
    Effect(
        "martial-excellence",
        "Martial Excellence (Blessings of Khorne)",
        "army rule",
        SEED_004 + ", Blessings of Khorne",
        "melee weapons have [SUSTAINED HITS 1]",
        "attacker",
        publication=WORLD_EATERS,
        phases=("fight",),
        attacker_keywords=("WORLD EATERS",),
        melee_abilities=("sustained hits 1",),
    ),
    Effect(
        "warp-blades",
        "Warp Blades (Blessings of Khorne)",
        "army rule",
        SEED_004 + ", Blessings of Khorne",
        "melee weapons have [LETHAL HITS]",
        "attacker",
        publication=WORLD_EATERS,
        phases=("fight",),
        attacker_keywords=("WORLD EATERS",),
        melee_abilities=("lethal hits",),
    ),
    Effect(
        "decapitating-strikes",
        "Decapitating Strikes (Blessings of Khorne)",
        "army rule",
        SEED_004 + ", Blessings of Khorne",
        "melee attacks that target an INFANTRY unit have [DEVASTATING WOUNDS]",
        "attacker",
        publication=WORLD_EATERS,
        phases=("fight",),
        attacker_keywords=("WORLD EATERS",),
        melee_abilities_vs=("INFANTRY", ("devastating wounds",)),
    ),
    Effect(
        "frenzied-resilience",
        "Frenzied Resilience",
        "stratagem (Berzerker Warband)",
        SEED_004 + ", FRENZIED RESILIENCE",
        "-1 to the Damage characteristic of attacks allocated to the unit",
        "target",
        publication=WORLD_EATERS,
        phases=("fight",),
        target_keywords=("WORLD EATERS",),
        damage_reduction=1,
    ),
    Effect(
        "rush-to-the-fray",
        "Rush to the Fray",
        "detachment rule (Goretrack Onslaught)",
        SEED_004 + ", Rush to the Fray",
        "after disembarking from a TRANSPORT this turn: melee weapons have [LANCE]",
        "attacker",
        publication=WORLD_EATERS,
        phases=("fight",),
        needs_disembarked=True,
        attacker_keywords=("WORLD EATERS",),
        melee_abilities=("lance",),
    ),
    Effect(
        "enraged-abjuration",
        "Enraged Abjuration (Blood Tithe)",
        "detachment rule (Khorne Daemonkin)",
        SEED_004 + ", Blood Tithe",
        "Feel No Pain 5+ against Psychic Attacks and mortal wounds",
        "target",
        publication=WORLD_EATERS,
        target_keywords=("BLOOD LEGIONS", "WORLD EATERS"),
        fnp_mortal=5,
        fnp_psychic=5,
    ),
    Effect(
        "boon-of-blood",
        "Boon of Blood (Blood Tithe)",
        "detachment rule (Khorne Daemonkin)",
        SEED_004 + ", Blood Tithe",
        "4+ invulnerable save",
        "target",
        publication=WORLD_EATERS,
        target_keywords=("BLOOD LEGIONS",),
        invuln=4,
    ),
    Effect(
        "bloody-stampede",
        "Bloody Stampede",
        "unit rule (Lord Invocatus)",
        SEED_004 + ", Bloody Stampede",
        "after a Charge move: D6; 2-3: 1 mortal wound, 4-5: D3, 6: D3+3",
        "attacker",
        publication=WORLD_EATERS,
        phases=("fight",),
        needs_charged=True,
        attacker_keywords=("LORD INVOCATUS",),
        mortal_wounds="bloody-stampede",
    ),
    Effect(
        "mob-mentality",
        "Mob Mentality",
        "detachment rule (Green Tide)",
        SEED_000,
        "6+ invulnerable save; 5+ while the unit has 10 or more models",
        "target",
        publication=ORKS,
        target_keywords=("BOYZ",),
        invuln=6,
        invuln_10=5,
    ),
    Effect(
        "dats-our-loot",
        "Dat's Our Loot!",
        "unit rule (Lootas)",
        SEED_001,
        "ranged attacks re-roll Hit rolls of 1; against a target within range of an "
        "objective marker (--objective), re-roll the Hit roll",
        "attacker",
        publication=ORKS,
        phases=("shooting",),
        attacker_keywords=("LOOTAS",),
        default=True,
        ranged_reroll_hits="ones",
        ranged_reroll_hits_objective="all",
    ),
    Effect(
        "get-da-good-bitz",
        "Get Da Good Bitz",
        "unit rule (Boyz)",
        SEED_000,
        "objective control only: no effect on attacks",
        "attacker",
        publication=ORKS,
        default=True,
        no_attack_effect=True,
    ),
    Effect(
        "fire-riders",
        "Fire Riders",
        "unit rule (Lord Invocatus)",
        SEED_004,
        "movement only: no effect on attacks",
        "attacker",
        publication=WORLD_EATERS,
        default=True,
        no_attack_effect=True,
    ),
)

UNIT_ABILITY = "datasheet unit abilities (generated datasheets' rules)"


def _unit_abilities() -> tuple[Effect, ...]:
    """Defensive datasheet abilities the importer recognises ("each time a [ranged/melee]
    attack targets this unit, subtract 1 from the Hit roll", ...), each for every attack, for
    ranged attacks only (the Shooting phase) and for melee attacks only (the Fight phase)."""
    kinds = (
        ("", "", ("shooting", "fight")),
        ("-ranged", "ranged ", ("shooting",)),
        ("-melee", "melee ", ("fight",)),
    )
    forms = (
        ("unit-hit-minus-1", "-1 to the Hit roll of {}attacks against it", {"hit_mod": -1}),
        ("unit-wound-minus-1", "-1 to the Wound roll of {}attacks against it", {"wound_mod": -1}),
        (
            "unit-wound-minus-1-vs-stronger",
            "-1 to the Wound roll of {}attacks against it whose S is greater than its T",
            {"wound_mod_if_stronger": -1},
        ),
        ("unit-ap-worsen-1", "{}attacks against it have their AP worsened by 1", {"ap_worsen": 1}),
    )
    out = []
    for base, summary, changes in forms:
        for suffix, kind, phases in kinds:
            text = summary.format(kind)
            out.append(
                Effect(
                    base + suffix,
                    text[:1].upper() + text[1:],
                    "unit ability",
                    UNIT_ABILITY,
                    text,
                    "target",
                    publication="the unit's datasheet",
                    phases=phases,
                    **changes,  # type: ignore[arg-type]
                )
            )
    return tuple(out)


EFFECTS = EFFECTS + _unit_abilities()

_BY_ID = {e.id: e for e in EFFECTS}


class UnknownEffectError(LookupError):
    """No effect has this name; the message suggests the closest."""


def lookup(name: str) -> Effect:
    """The effect called ``name`` (id or printed name, any case and punctuation).

    Raises:
        UnknownEffectError: with the closest names and a pointer to `calc effects`.
    """
    key = norm_rule(name)
    if key in _BY_ID:
        return _BY_ID[key]
    for e in EFFECTS:
        if norm_rule(e.name) == key:
            return e
    raise UnknownEffectError(
        f"unknown effect {name!r}"
        + did_you_mean(name, list(_BY_ID))
        + " (`calc effects` lists them)"
    )


def check(
    effect: Effect,
    phase: str,
    charged: bool,
    disembarked: bool,
    attacker_kw: frozenset[str],
    target_kw: frozenset[str],
) -> str | None:
    """Why ``effect`` cannot apply here, or None when it can (its own conditions: phase,
    Charge move, disembarking, keywords). Default unit rules are checked the same way."""
    if phase not in effect.phases:
        where = " or ".join(effect.phases)
        return f"{effect.name} applies in the {where} phase only"
    if effect.needs_charged and not charged:
        return f"{effect.name} needs a unit that made a Charge move this turn (add --charged)"
    if effect.needs_disembarked and not disembarked:
        return (
            f"{effect.name} needs a unit that disembarked from a TRANSPORT this turn "
            "(add --disembarked)"
        )
    if effect.attacker_excludes_titanic_target and "TITANIC" in target_kw:
        return f"{effect.name} cannot target a TITANIC unit"
    if (
        effect.side == "attacker"
        and effect.attacker_keywords
        and not (set(effect.attacker_keywords) & attacker_kw)
    ):
        return f"{effect.name} needs an attacking unit with {' or '.join(effect.attacker_keywords)}"
    missing = [k for k in effect.attacker_requires if k not in attacker_kw]
    if effect.side == "attacker" and missing:
        return f"{effect.name} needs an attacking unit with {' and '.join(missing)}"
    if effect.side == "target":
        if effect.target_keywords and not set(effect.target_keywords) & target_kw:
            return f"{effect.name} needs a target unit with {' or '.join(effect.target_keywords)}"
        if set(effect.target_excludes) & target_kw:
            return (
                f"{effect.name} cannot be used on a "
                f"{'/'.join(sorted(set(effect.target_excludes) & target_kw))} unit"
            )
    if effect.side == "both":
        att = not effect.attacker_keywords or bool(set(effect.attacker_keywords) & attacker_kw)
        tgt = not effect.target_keywords or bool(set(effect.target_keywords) & target_kw)
        if not att and not tgt:
            either = sorted(set(effect.attacker_keywords) | set(effect.target_keywords))
            return f"{effect.name} needs an attacker or target with {' or '.join(either)}"
    return None

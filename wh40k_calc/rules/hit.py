"""The Hit roll (Core rules: Hit Roll, Critical Hits, Sustained Hits, Lethal Hits, Heavy;
edition 11: 05.01 Hit Rolls, 05.01.01 Critical Hits and Critical Wounds, 24.23 [LETHAL HITS],
24.36 [SUSTAINED HITS], 15.09 Snap Shooting): the table of one weapon's Hit roll (what each
unmodified result does, which results are re-rolled) and what a hit and a Critical Hit are
worth to the re-roll choices.

What decides a Hit roll besides the dice are changes to the attack's BS/WS characteristic and
modifiers to the roll, each kept with its source (:class:`HitTerms`) so that edition rules can
drop some of them. Two kinds of change are kept apart because the rules treat them apart:

* a **characteristic change** (edition 11's Benefit of cover worsens BS by 1, plunging fire
  improves it by 1): the changes are summed and the BS is then kept within 2+..6+ (13.08,
  22.05; 02.02.01: BS cannot be 1+ or 7+); they are not Hit-roll modifiers, so the ±1 cap does
  not include them;
* a **Hit-roll modifier** (--hit-mod, [HEAVY], 10th-edition Stealth, [INDIRECT FIRE], shooting
  while engaged or at an engaged MONSTER/VEHICLE): summed,
  then capped at ±1 (Core rules: Hit Roll).

[PSYCHIC] in edition 11 lets the attacker ignore any of them (24.29 [PSYCHIC]); the
calculator ignores exactly the harmful ones (:meth:`HitTerms.without_harmful`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

from ..records import replace
from . import common as c
from .changes import names
from .common import cap
from .cover import attack_in_cover
from .engaged import is_big
from .unit_abilities import damaged_hit_mod

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities
    from ..profile import RollTable
    from .changes import Attack
    from .situation import Situation


class Term(Struct, frozen=True):
    """One change: ``what`` names its source for the report ("the Benefit of Cover",
    "--hit-mod", "[HEAVY]"); ``value`` is in the player's favour when positive (a Hit-roll
    modifier of +1, or a BS improved by 1 = ``value`` +1)."""

    what: str
    value: int


class HitTerms(Struct, frozen=True):
    """The characteristic changes (``skill``) and Hit-roll modifiers (``roll``) of one attack,
    and ``fail_up_to``: unmodified results up to this always fail (1; 3 for 10th edition's
    [INDIRECT FIRE]; 5, or 3, in edition 11's indirect shooting)."""

    skill: tuple[Term, ...] = ()
    roll: tuple[Term, ...] = ()
    fail_up_to: int = 1

    def add_skill(self, what: str, value: int) -> HitTerms:
        """A copy with one more BS/WS change (``value`` +1: improved by 1)."""
        return replace(self, skill=(*self.skill, Term(what, value)))

    def add_roll(self, what: str, value: int) -> HitTerms:
        """A copy with one more Hit-roll modifier."""
        return replace(self, roll=(*self.roll, Term(what, value)))

    def characteristic(self, base: int) -> int:
        """The BS/WS needed after the changes: summed, then kept within 2+..6+."""
        return max(2, min(6, base - sum(t.value for t in self.skill)))

    def modifier(self) -> int:
        """The Hit-roll modifier: the sum, capped at ±1."""
        return cap(sum(t.value for t in self.roll))

    def without_harmful(self) -> tuple[HitTerms, list[str]]:
        """A copy without the changes that make the attack worse, and what was dropped (24.29
        [PSYCHIC]: any or all modifiers to the attack's BS or WS and to its Hit roll can be
        ignored; 02.02.02: the helpful ones may be kept)."""
        dropped = [t for t in (*self.skill, *self.roll) if t.value < 0]
        kept = replace(
            self,
            skill=tuple(t for t in self.skill if t.value > 0),
            roll=tuple(t for t in self.roll if t.value > 0),
        )
        return kept, [describe(t, t in self.skill) for t in dropped]


def describe(t: Term, characteristic: bool) -> str:
    """``"the Benefit of Cover (BS worsened by 1)"``, ``"--hit-mod (-1 to the Hit roll)"``."""
    if characteristic:
        how = "improved" if t.value > 0 else "worsened"
        return f"{t.what} (BS {how} by {abs(t.value)})"
    return f"{t.what} ({t.value:+d} to the Hit roll)"


def hit_terms(s: Situation, attack: Attack, ab: WeaponAbilities) -> HitTerms:
    """BS/WS changes and Hit-roll modifiers of a weapon's attacks (Core rules: Hit Roll,
    Heavy; edition 11's [HEAVY] (24.16) gives the same +1 when ``--stationary`` says its
    three conditions hold): ``--hit-mod``; the attacker's damaged profile (``--wounds-left``);
    the attacker's effects (Hit-roll modifiers, BS/WS improvements); the target's effects
    that change the Hit roll of attacks against it; for ranged attacks [HEAVY] +1 with
    ``--stationary``, then the edition's (:meth:`~.edition.Edition.ranged_hit_terms`:
    Stealth, cover, [INDIRECT FIRE], plunging fire), then its penalties for shooting while
    engaged or at an engaged target (:meth:`~.edition.Edition.engaged_hit_terms`; an effect's
    ``ignore_engaged_penalty`` lifts the first)."""
    sel, fx, w = s.sel, s.changes, attack.weapon
    terms = HitTerms()
    if sel.modifiers.hit_mod:
        terms = terms.add_roll("--hit-mod", sel.modifiers.hit_mod)
    damaged, _ = damaged_hit_mod(sel, s.attacker)  # the attacker's damaged profile
    if damaged:
        terms = terms.add_roll("its damaged profile", damaged)
    for p in fx.attacker("hit_mod", attack):
        terms = terms.add_roll(p.name, int(p.value))  # type: ignore[call-overload]
    for p in fx.attacker("skill", attack):
        terms = terms.add_skill(p.name, int(p.value))  # type: ignore[call-overload]
    for p in fx.target("hit_mod", attack):  # "subtract 1 from the Hit roll" against it
        terms = terms.add_roll(p.name, int(p.value))  # type: ignore[call-overload]
    if w.is_melee:
        return terms
    if ab.heavy and sel.conditions.stationary:
        terms = terms.add_roll("[HEAVY]", 1)
    covered = attack_in_cover(s, w, ab)
    terms = s.edition.ranged_hit_terms(terms, sel, s.attacker, s.target, ab, covered, fx.stealth_fx)
    if sel.phase == "shooting" and (sel.conditions.engaged or sel.conditions.target_engaged):
        g = attack.group
        big = is_big(g) if g is not None else all(is_big(x) for x in s.attacker.groups)
        lifted = bool(fx.attacker("ignore_engaged_penalty", attack))
        terms = s.edition.engaged_hit_terms(terms, sel, s.attacker, s.target, big, ab, lifted)
    return terms


def _terms(
    s: Situation, attack: Attack, ab: WeaponAbilities, label: str, notes: list[str]
) -> HitTerms:
    """:func:`hit_terms`; with [PSYCHIC] where the edition lets it, or an effect that lets
    the attacks ignore harmful Hit-roll or BS/WS modifiers, the harmful ones dropped (said in
    ``notes``; 02.02.02 Ignore Modifiers: the player may keep the helpful ones)."""
    terms = hit_terms(s, attack, ab)
    if ab.psychic and s.edition.psychic_ignores_harmful():
        terms, dropped = terms.without_harmful()
        if dropped:
            notes.append(f"{label}: [PSYCHIC]: ignored {' and '.join(dropped)}")
    fx = s.changes
    roll, skill = fx.ignores(attack, "hit"), fx.ignores(attack, "skill")
    if roll or skill:
        kept = replace(
            terms,
            roll=tuple(t for t in terms.roll if t.value > 0 or not roll),
            skill=tuple(t for t in terms.skill if t.value > 0 or not skill),
        )
        dropped = [
            describe(t, t in terms.skill)
            for t in (*terms.skill, *terms.roll)
            if t not in (*kept.skill, *kept.roll)
        ]
        if dropped:
            who = " and ".join(names(fx.attacker("ignore_harmful", attack)))
            notes.append(f"{label}: {who}: ignored {' and '.join(dropped)}")
        terms = kept
    return terms


def hit_table(
    s: Situation,
    attack: Attack,
    ab: WeaponAbilities,
    hit_values: tuple[float, float, float],
    label: str,
    notes: list[str],
) -> RollTable:
    """The Hit roll (Core rules: Hit Roll) of a weapon that makes one (not [TORRENT]).

    The BS/WS (the weapon's, or the best an effect sets it to), the edition's BS/WS changes
    and modifiers (:func:`hit_terms`; [PSYCHIC] or an effect may drop the harmful ones);
    Critical Hits on ``--crit-hit``, [CONVERSION] beyond 12" or an effect's threshold (the
    lowest), but never below a target effect's floor; snap shooting (Fire Overwatch, an
    effect: only an unmodified 6 hits, or the X+ an effect gives), and re-rolls
    (``--reroll-hits``, effects: the most generous) of the faces where re-rolling gains
    against ``hit_values`` (the expected value of a miss, a hit and a Critical Hit:
    :func:`hit_values`), where the edition allows them (15.09 Snap Shooting; 10.07 Indirect
    Shooting). ``ab``: the weapon's abilities after effects; ``label`` names the weapon in the
    sentences that go in ``notes``."""
    w = attack.weapon
    assert w.skill is not None
    sel, fx = s.sel, s.changes
    cond, mods, melee = sel.conditions, sel.modifiers, w.is_melee
    terms = _terms(s, attack, ab, label, notes)
    skill = w.skill
    sets = [int(p.value) for p in fx.attacker("skill_set", attack)]  # type: ignore[call-overload]
    if sets:
        skill = min(sets)  # 02.02.01: a value set first, then the modifiers
    crit = 6
    if mods.crit_hit:
        crit = min(crit, mods.crit_hit)
    if ab.conversion and cond.beyond_12 and not melee:
        crit = min(crit, 4)
    for p in fx.attacker("crit_hit", attack):
        crit = min(crit, int(p.value))  # type: ignore[call-overload]
    for p in fx.target("crit_hit_against", attack):
        crit = max(crit, int(p.value))  # type: ignore[call-overload]
    snap_on = [6] if cond.overwatch or fx.attacker("snap_shooting", attack) else []
    snap_on += [int(p.value) for p in fx.attacker("snap_hit_on", attack)]  # type: ignore[call-overload]
    snap = bool(snap_on) and not melee
    outcomes = c.hit_outcomes(
        terms.characteristic(skill),
        terms.modifier(),
        crit,
        snap,
        terms.fail_up_to,
        min(snap_on) if snap else 6,
    )
    mode = mods.reroll_hits
    for p in fx.attacker("reroll_hits", attack):
        mode = c.stronger(mode, str(p.value))
    if snap and not s.edition.snap_rerolls_allowed():
        mode = None
    if cond.indirect and ab.indirect_fire and not s.edition.indirect_rerolls_allowed():
        mode = None
    return c.rerolled(outcomes, mode, c.MISS, hit_values, f"{label}: Hit roll", notes)


def hit_values(
    s: Situation,
    ab: WeaponAbilities,
    wound_table: RollTable,
    v_wound: tuple[float, ...],
    label: str,
    notes: list[str],
) -> tuple[tuple[float, float, float], bool]:
    """The expected value of a miss, a hit and a Critical Hit (which the Hit roll's re-rolls
    compare), and whether Lethal Hits' automatic wound is taken.

    A hit rolls to wound (``wound_table``, whose outcomes are worth ``v_wound``: a failed,
    normal and Critical Wound); a Critical Hit adds [SUSTAINED HITS X]'s extra hits and, with
    [LETHAL HITS], wounds automatically where the edition says so (Core rules: Sustained Hits,
    Lethal Hits; 24.23 [LETHAL HITS]: the player's choice, whose sentence goes in
    ``notes``)."""
    pw = wound_table.probabilities(3).tolist()  # floats: the same sums, without numpy's scalars
    per_hit = float(sum(pw[i] * v_wound[i] for i in range(3)))
    sus = ab.sustained_hits.mean if ab.sustained_hits is not None else 0.0
    lethal = False
    if ab.lethal_hits:
        lethal, said = s.edition.lethal_hits({"auto": v_wound[c.WOUND], "roll": per_hit}, label)
        if said:
            notes.append(said)
    return (0.0, per_hit, (v_wound[c.WOUND] if lethal else per_hit) + sus * per_hit), lethal

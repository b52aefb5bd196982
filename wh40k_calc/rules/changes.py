"""The changes of the effects that apply, as each step of the attack sequence asks for them.

:class:`Changes` holds every change (:class:`Piece`) of the effects acting under one variant
(``rules.applied``), by side and field. A step asks for one field against one weapon's attacks
(:class:`Attack`) and, for the target's defence, one kind of target model: it gets the pieces
whose scope takes that weapon (``weapons``, ``named``, ``weapons_with`` / ``weapons_without``,
``excluding_extra_attacks``, ``bearer_only``) and whose conditions hold there (the record's and
the change's own ``when``: ``rules.when``). What a field's value does is the step's: the ±1 cap
of the Hit and Wound roll modifiers (``hit``, ``wound``), the best invulnerable save, Feel No
Pain, re-roll and Critical threshold, the sum of S, A, AP and Damage changes (``attacks``,
``save``, ``damage``).

Scope, attacker side: the attacking weapon; ``bearer_only`` the weapons of the bearer (for a
unit rule a datasheet names, that datasheet's models; else the unit's first CHARACTER: a
CHARACTER unit's own models, else the first Leader attached; in a unit of one model without a
CHARACTER, that model: ``rules.when.bearer_groups``). Target
side: the attacking weapon again (``weapons: ranged`` is "ranged attacks against it"), and
``bearer_only`` the target's bearer models only (a change to the whole roll, such as a Hit roll
modifier or T, only when the bearer is the whole target).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

import msgspec
from msgspec import Struct

from ..datasheet import norm_name
from ..effect_schema import change_field, change_side, excludes_extra_attacks
from ..records import replace
from .added import answers_to
from .when import Context, Facts, why_not

if TYPE_CHECKING:
    from ..datasheet import Weapon
    from ..effect_schema import Change, When
    from ..units import ModelGroup
    from .applied import Active, Applied, Variant


class Piece(Struct, frozen=True):
    """One change of one acting effect: the ``active`` effect, the change's ``index`` in its
    record, the ``change``, its ``field`` and ``value`` (a ``choose_ability`` change's value is
    the ability picked)."""

    active: Active
    index: int
    change: Change
    field: str
    value: object

    @property
    def name(self) -> str:
        """The effect's name, for notes."""
        return self.active.effect.name


class Attack(Struct, frozen=True):
    """One weapon's attacks as scopes and conditions read them: the ``weapon``, the attacking
    model ``group``, whether it is the ``bearer``'s, the attack's ``strength`` and the
    ``toughness`` it is against (None until known: S and T are worked out first)."""

    weapon: Weapon
    group: ModelGroup | None = None
    bearer: bool = False
    strength: int | None = None
    toughness: int | None = None


def ability_keys(w: Weapon) -> set[str]:
    """The ability names a weapon has (``torrent``, ``rapid fire``, ``anti-infantry``...), for
    ``weapons_with`` / ``weapons_without``."""
    from ..abilities import parse_ability

    out = set()
    for t in w.abilities.texts:
        a = parse_ability(t)
        out.add(a.key)
        if a.key == "anti" and isinstance(a.value, tuple):
            out.add(f"anti-{a.value[0].lower()}")
    if w.abilities.extra_attacks:
        out.add("extra attacks")
    return out


def in_scope(c: Change, w: Weapon, extra_attacks_fixed: bool = True) -> bool:
    """Whether change ``c`` takes weapon ``w`` (``weapons``, ``named``, ``weapons_with``,
    ``weapons_without``, [EXTRA ATTACKS] left alone where the change says so or by default for
    changes to A where the edition keeps their A, ``extra_attacks_fixed``:
    :func:`~wh40k_calc.effect_schema.excludes_extra_attacks`)."""
    if c.weapons == "melee" and not w.is_melee:
        return False
    if c.weapons == "ranged" and w.is_melee:
        return False
    names = answers_to(w)
    named = bool(c.named) and any(norm_name(n) in names for n in c.named or ())
    if c.named and not named:
        return False
    if c.weapons_with or c.weapons_without:
        keys = ability_keys(w)
        wanted = {" ".join(t.lower().split()) for t in c.weapons_with or ()}
        unwanted = {" ".join(t.lower().split()) for t in c.weapons_without or ()}
        if wanted and not wanted & keys:
            return False
        if unwanted & keys:
            return False
    fixed = excludes_extra_attacks(c, extra_attacks_fixed)
    return not (fixed and w.abilities.extra_attacks and not named)


class Changes:
    """The changes acting under one variant (see the module docstring). ``facts``: the
    conditions' facts; ``bearers``: the attacker's bearer groups (:func:`bearer_groups`);
    ``extra_attacks_fixed``: the edition keeps the A of [EXTRA ATTACKS] weapons from changes
    that do not name them (``Edition.extra_attacks_fixed``)."""

    def __init__(
        self,
        applied: Applied,
        variant: Variant | None,
        bearers: frozenset[int],
        extra_attacks_fixed: bool = True,
    ):
        self.facts: Facts = applied.facts
        self.bearers = bearers
        self.extra_attacks_fixed = extra_attacks_fixed
        picked = applied.picked_abilities(variant)
        self.by: dict[tuple[str, str], list[Piece]] = {}
        self.actives = applied.actives(variant)
        for a in self.actives:
            for i, c in enumerate(a.effect.changes):
                if change_side(a.effect.record, c) != a.side:
                    continue
                field = change_field(c)
                value = getattr(c, field)
                if field == "choose_ability":
                    value = picked.get((a.key, i))
                    if value is None:
                        continue
                self.by.setdefault((a.side, field), []).append(Piece(a, i, c, field, value))
        # the effects giving the target cover, and those giving it Stealth (``rules.cover``
        # decides what each gives); for the conditions (``target_in_cover``) a record's own
        # cover never counts (Masters of Camouflage: "the Benefit of Cover for any other
        # reason"); none counted while they are gathered
        self.cover_by: tuple[tuple, ...] = ()
        self.stealth_by: tuple[tuple, ...] = ()
        stealth = self.unit("target", "stealth")
        cover = self.unit("target", "cover")
        self.stealth_fx = bool(stealth)
        self.cover_fx = bool(cover)
        self.cover_by = tuple(dict.fromkeys(p.active.effect.identity for p in cover))
        self.stealth_by = tuple(dict.fromkeys(p.active.effect.identity for p in stealth))
        # what may give the target the Benefit of Cover, these effects' included (the
        # selection's sources, ``Facts.cover``, as they are where none gives it cover or
        # Stealth): read for each weapon and kind of model
        self.cover = self.facts.cover
        if cover or stealth:
            self.cover = replace(self.cover, cover_fx=self.cover_fx, stealth_fx=self.stealth_fx)

    def fields(self, side: str, field: str) -> list[Piece]:
        """Every piece of ``field`` on ``side``, whatever its scope and conditions."""
        return self.by.get((side, field), [])

    def _holds(self, p: Piece, ctx: Context) -> bool:
        return self._why(p, ctx) is None

    def _why(self, p: Piece, ctx: Context, name: str = "", drop: tuple[str, ...] = ()):
        """Why piece ``p``'s conditions (its record's, then its change's) fail where ``ctx``
        reads them (the reason, ``name`` first), or None; ``drop``: conditions left unread."""
        e = p.active.effect
        cover = any(k != e.identity for k in self.cover_by)
        stealth = any(k != e.identity for k in self.stealth_by)
        ctx = replace(
            ctx,
            options=p.active.options,
            leading=p.active.leading,
            cover_fx=cover,
            stealth_fx=stealth,
        )
        sides = (p.active.side,) if e.side == "both" else ("attacker", "target")
        record, own = _without(e.when, drop), _without(p.change.when, drop)
        return why_not(record, self.facts, ctx, name, keyword_sides=sides) or why_not(
            own, self.facts, ctx, name
        )

    def why_idle(
        self, p: Piece, attacks: list[Attack], target_bearers: bool, names: tuple[str, str]
    ) -> tuple[str, bool] | None:
        """Whether piece ``p`` can act at all in this activation (``attacks``: every weapon
        that may attack, with its model group; ``target_bearers``: the target has a bearer
        model; ``names``: the attacker's and the target's): None when some attack in its
        scope (or the activation, for a change with no weapon scope) meets its conditions,
        the target's defence read at each model count as its models die; else why not, in
        words ("it needs ..."), and whether only conditions on the target's state at the
        activation's start are why (``calc sequence`` reads them per state). Per-attack S
        against T is taken to hold (it depends on the roll's target model)."""
        side, c = p.active.side, p.change
        if side == "target" and c.bearer_only and not target_bearers:
            return (
                f"it is for the bearer, and {names[1]} has no bearer (a CHARACTER: "
                "--target-leader attaches one)"
            ), False
        if p.field in ("cover", "stealth") and not any(not a.weapon.is_melee for a in attacks):
            return "the Benefit of Cover and Stealth are against ranged attacks only", False
        scoped: list[Attack | None]
        if p.field in UNIT_FIELDS or not attacks:
            scoped = [None]
        else:
            scoped = [
                a
                for a in attacks
                if in_scope(c, a.weapon, self.extra_attacks_fixed)
                and (side != "attacker" or not c.bearer_only or _bears(p, a))
            ]
            mortal_first = bool(self.fields("attacker", "mortal_wounds"))
            if side == "target" and mortal_first and _unscoped(c):
                scoped.append(None)  # mortal wounds inflicted before the attacks
            if not scoped:
                return _scope_words(p, attacks, names[0]), False
        counts: list[int | None] = [None]
        if side == "target" and _reads_models(p):
            counts += list(range(self.facts.target.models - 1, 0, -1))
        contexts = [self._context(side, a, n) for a in scoped for n in counts]
        if any(self._why(p, x, drop=PER_ATTACK) is None for x in contexts):
            return None
        why = self._why(p, contexts[0], "it", PER_ATTACK) or "it cannot act here"
        by_state = any(self._why(p, x, drop=PER_ATTACK + STATE) is None for x in contexts)
        return why, by_state

    def _context(self, side: str, a: Attack | None, target_models: int | None) -> Context:
        if a is None:
            return Context(side, target_models=target_models)
        w = a.weapon
        return Context(
            side,
            group=a.group,
            bearer=a.bearer,
            ranged=not w.is_melee,
            ignores_cover=w.abilities.ignores_cover,
            indirect_fire=w.abilities.indirect_fire,
            strength=a.strength,
            toughness=a.toughness,
            target_models=target_models,
            damage=unmodified_damage(w),
        )

    def attacker(self, field: str, a: Attack) -> list[Piece]:
        """The attacker's pieces of ``field`` that take ``a``'s weapon and hold for it."""
        pieces = self.by.get(("attacker", field)) if self.by else None  # most runs: no effect
        if not pieces:  # most fields have none: no context to make
            return []
        ctx = self._context("attacker", a, None)
        return [
            p
            for p in pieces
            if in_scope(p.change, a.weapon, self.extra_attacks_fixed)
            and (not p.change.bearer_only or _bears(p, a))
            and self._holds(p, ctx)
        ]

    def target(
        self,
        field: str,
        a: Attack | None,
        bearer: bool | None = None,
        target_models: int | None = None,
    ) -> list[Piece]:
        """The target's pieces of ``field`` against ``a``'s attacks (None: not an attack,
        mortal wounds before the attacks: only unscoped pieces) on a model that is the bearer
        or not (``bearer``; None: the whole unit, which is the bearer only when every model
        is), with ``target_models`` alive (None: as the activation starts)."""
        pieces = self.by.get(("target", field)) if self.by else None  # most runs: no effect
        if not pieces:  # most fields have none: no context to make
            return []
        whole = self.facts.target_all_bearer if bearer is None else bearer
        ctx = self._context("target", a, target_models)
        out = []
        for p in pieces:
            c = p.change
            if a is None and (c.weapons != "all" or c.named or c.weapons_with or c.weapons_without):
                continue
            if a is not None and not in_scope(c, a.weapon, self.extra_attacks_fixed):
                continue
            if c.bearer_only and not whole:
                continue
            if self._holds(p, ctx):
                out.append(p)
        return out

    def unit(self, side: str, field: str) -> list[Piece]:
        """Pieces of ``field`` on ``side`` read for the whole activation (no weapon): mortal
        wounds, keywords, the target's T and W."""
        pieces = self.by.get((side, field)) if self.by else None  # most runs: no effect
        if not pieces:
            return []
        ctx = self._context(side, None, None)
        out = []
        for p in pieces:
            if side == "target" and p.change.bearer_only and not self.facts.target_all_bearer:
                continue
            if self._holds(p, ctx):
                out.append(p)
        return out

    def ignores(self, a: Attack, what: str) -> bool:
        """Whether ``a``'s attacks ignore harmful modifiers to ``what`` (``ignore_harmful``)."""
        if not self.by.get(("attacker", "ignore_harmful")):  # most activations have none
            return False
        return any(
            what in cast("tuple[str, ...]", p.value or ())
            for p in self.attacker("ignore_harmful", a)
        )

    def attack(self, w: Weapon, group: ModelGroup | None) -> Attack:
        """The :class:`Attack` of weapon ``w`` used by ``group``."""
        return Attack(w, group, group is not None and id(group) in self.bearers)


# fields read for the whole activation, with no weapon (``Changes.unit``, a +W change)
UNIT_FIELDS = frozenset(
    {"mortal_wounds", "fights_first", "grant_keyword", "stealth", "cover", "toughness",
     "toughness_majority", "wounds"}
)  # fmt: skip
PER_ATTACK = ("strength_above_toughness", "strength_below_toughness")
STATE = (
    "target_below_starting_strength",
    "target_below_half_strength",
    "target_min_models",
    "target_max_models",
    "unit_min_models",
)


def _without(when: When | None, drop: tuple[str, ...]) -> When | None:
    """``when`` with the conditions ``drop`` left out."""
    if when is None or not drop or all(getattr(when, f) is None for f in drop):
        return when
    return msgspec.structs.replace(when, **dict.fromkeys(drop))


def _unscoped(c: Change) -> bool:
    """A change with no weapon scope (it acts outside an attack too)."""
    return c.weapons == "all" and not (c.named or c.weapons_with or c.weapons_without)


def _reads_models(p: Piece) -> bool:
    """Whether ``p``'s conditions read the target's model count (its defence, as models die)."""
    whens = (p.active.effect.when, p.change.when)
    return any(w is not None and any(getattr(w, f) is not None for f in STATE) for w in whens)


def _scope_words(p: Piece, attacks: list[Attack], attacker: str) -> str:
    """Why no attack here is in ``p``'s scope, in words."""
    c = p.change
    kinds = {a.weapon.is_melee for a in attacks}
    if c.weapons == "melee" and True not in kinds:
        return "it changes melee attacks only"
    if c.weapons == "ranged" and False not in kinds:
        return "it changes ranged attacks only"
    if c.bearer_only and p.active.side == "attacker" and not any(a.bearer for a in attacks):
        return (
            f"it is for the bearer's attacks, and {attacker} has no bearer (a CHARACTER: "
            "--leader attaches one)"
        )
    if c.bearer_only and p.active.side == "attacker":
        return "it is for the bearer's weapons, and none of them is in its scope here"
    if c.named:
        return f"it changes {', '.join(c.named)} only, which do not attack here"
    if c.weapons_with:
        return f"it changes weapons with [{'], ['.join(c.weapons_with).upper()}] only"
    if c.weapons_without:
        return f"every weapon attacking here has [{'], ['.join(c.weapons_without).upper()}]"
    return "no weapon attacking here is in its scope"


def unmodified_damage(w: Weapon) -> int | None:
    """The Damage characteristic of ``w`` as its profile prints it, when it is a fixed number
    (``weapon_damage`` conditions: "an unmodified Damage characteristic of 1"); None for a
    random one (D3, D6+1), which is no number until it is rolled."""
    d = w.D
    return int(d.bonus) if d.is_constant else None


def _bears(p: Piece, a: Attack) -> bool:
    """Whether ``a``'s attacks are the bearer's for piece ``p``: a datasheet's own rule's
    bearer is that datasheet's models (a Leader's own, or its Bodyguard's); any other's, the
    unit's bearer (:func:`~wh40k_calc.rules.when.bearer_groups`)."""
    owner = p.active.owner
    if owner is not None:
        return a.group is not None and a.group.datasheet is owner
    return a.bearer


def total(pieces: Iterable[Piece]) -> int:
    """The sum of integer values (S, AP, modifiers)."""
    return sum(int(p.value) for p in pieces if isinstance(p.value, int))


def names(pieces: Iterable[Piece]) -> list[str]:
    """The effects' names, each once."""
    return list(dict.fromkeys(p.name for p in pieces))

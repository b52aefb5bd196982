"""The target as allocation sees it (Core rules: Allocating Attacks, LEADER, [PRECISION];
edition 11: 05.03 Save Rolls (Create Groups, Allocation Order), 19.02 Attacking Attached
Units, 24.22 Leader, 24.34 Support, 24.28 [PRECISION]): the kinds of target model that saves
and damage tell apart, the order models take attacks in, and where the target starts.

The edition says which models are protected and how they group
(:meth:`~.edition.Edition.split_tracks`, :meth:`~.edition.Edition.group_key`); the player may
reorder them (``--allocation``, ``--precision-target``: ``rules.order``). The result is the
:class:`~wh40k_calc.profile.TargetProfile` both engines allocate against
(``engine/allocation.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from msgspec import Struct

from ..effect_schema import change_field, change_side
from ..kept import Kept
from ..profile import TargetModel, TargetProfile, TargetStates
from ..records import replace
from ..selection import OptionError, OptionUsageError
from . import common as c
from .order import precision_named, reorder
from .when import bearer_groups, state_thresholds

if TYPE_CHECKING:
    from ..datasheet import ModelProfile
    from ..selection import Selection
    from ..units import ModelGroup, Unit
    from .edition import Edition
    from .situation import Situation


class Kind(Struct, frozen=True, cache_hash=True):
    """One kind of target model as saves and damage see it: its W (its effects' +W
    included), Sv, invulnerable save against ranged attacks and against melee attacks (X means
    X+, None: none; a model may have one for one kind of attack only, or a better one against
    one kind: Howling Banshees), and the datasheet's defensive abilities (Feel No Pain X+
    against everything, against mortal wounds only, against Psychic Attacks only; Damage
    reduced by N or halved); whether it is the bearer of the target's enhancement
    (``bearer``) and, where the target's effects depend on how many models it has, a model
    count of the bracket it stands for (``alive``: the effects' conditions are read there)."""

    name: str
    W: int
    Sv: int
    invuln_ranged: int | None
    invuln_melee: int | None
    fnp: int | None
    cover_capable: bool = True
    fnp_mortal: int | None = None
    fnp_psychic: int | None = None
    damage_reduction: int = 0
    half_damage: bool = False
    bearer: bool = False
    alive: int | None = None

    def invuln(self, melee: bool) -> int | None:
        """The invulnerable save against a melee attack (``melee``) or a ranged one."""
        return self.invuln_melee if melee else self.invuln_ranged


# the target's defence changes read per kind of model (save, Damage, Feel No Pain)
PER_KIND = (
    "invuln",
    "fnp",
    "fnp_mortal",
    "fnp_psychic",
    "damage_reduction",
    "half_damage",
    "ap_worsen",
    "save_mod",
    "reroll_saves",
    "damage_set",
    "save_set",
    "save_improve",
    "armour_save_mod",
)


def brackets(s: Situation) -> list[int]:
    """The target model counts (descending) below which its defence changes may differ, from
    the conditions of every target-side change that may act (``rules.when``: model counts,
    below Starting Strength, Below Half-strength)."""
    found: set[int] = set()
    for a in s.applied.every_active():
        if a.side != "target":
            continue
        rec = a.effect.record
        per_kind = [
            ch
            for ch in rec.changes
            if change_side(rec, ch) == "target" and change_field(ch) in PER_KIND
        ]
        if not per_kind:
            continue
        found |= state_thresholds(rec.when, s.applied.facts, "target")
        for ch in per_kind:
            found |= state_thresholds(ch.when, s.applied.facts, "target")
    return sorted((n for n in found if n >= 1), reverse=True)


TargetParts = tuple[list[Kind], TargetProfile, list[str], list[str], tuple[int, ...]]

SHARED_KEPT = 256
_SHARED: Kept[tuple, tuple[Unit, TargetParts]] = Kept(SHARED_KEPT)  # see target_profile


def target_profile(s: Situation, precise: bool) -> TargetParts:
    """:func:`made_target_profile`, made once per process where no effect may act
    (:func:`shared_key`): a batch runs many attackers, under other conditions, against the
    same few targets. Each caller gets its own lists. At most SHARED_KEPT are kept (all
    dropped when full); the kept entry holds the target unit its key names by identity;
    errors are not kept.

    Raises:
        SelectionError: as :func:`made_target_profile`.
    """
    key = shared_key(s, precise)
    if key is None:
        return made_target_profile(s, precise)
    kept = _SHARED.get(key)
    if kept is None:
        kept = _SHARED.put(key, (s.target, made_target_profile(s, precise)))
    kinds, profile, order, roles, listing = kept[1]
    return list(kinds), profile, list(order), list(roles), listing


def shared_key(s: Situation, precise: bool) -> tuple | None:
    """The key of :func:`target_profile`'s kept parts: everything
    :func:`made_target_profile` reads where no effect may act (no target-side change, so no
    +W and no bracket of model counts): the edition, the target unit (by identity), the
    phase (which attacks the edition's groups are for), ``--invuln``, ``--allocation``,
    ``--precision-target`` (read only with ``precise``) and ``precise``. None: not shared
    (an effect may act: its changes and conditions are read)."""
    if s.changes.by or s.applied.every_active():
        return None
    sel = s.sel
    return (
        type(s.edition),
        id(s.target),
        sel.phase,
        sel.modifiers.invuln,
        sel.allocation,
        sel.precision_target if precise else None,
        precise,
    )


def made_target_profile(s: Situation, precise: bool) -> TargetParts:
    """The target's model kinds, its :class:`TargetProfile`, its allocation order (model
    names), the role of each of its CHARACTER models (:func:`character_role`) and, per model
    of the profile (Bodyguard, then CHARACTER models), the index of its group in
    ``target.groups`` (``Plan.target_groups``).

    Each model's kind carries its own defence (its invulnerable saves by kind of attack:
    ``ModelProfile.invuln_against``) and ``--invuln``; the target's effects act per
    kind in the save and Damage steps (``save``, ``damage``), so a kind also says whether the
    model is the bearer of a ``bearer_only`` effect and, where an effect's conditions read the
    target's model count (a 5+ invulnerable save "while the unit has 10 or more models"), which
    bracket of counts it stands for: a model is of another kind once fewer models remain
    (``TargetModel.kind_below``). +W effects add to W. ``precise``: some weapon has
    [PRECISION] (else ``--precision-target NAME`` is not looked up: it has no effect, a note
    says so).

    Raises:
        SelectionError: an ``--allocation`` or ``--precision-target`` naming no model of the
            target, or a protected CHARACTER model before another model.
    """
    sel, target, fx = s.sel, s.target, s.changes
    mods = sel.modifiers
    cuts = brackets(s)
    tops = [cuts[0] if cuts else None] + [n - 1 for n in cuts]  # one count per bracket
    bearers = _target_bearers(target)
    kinds: list[Kind] = []
    index: dict[tuple, int] = {}

    def kind_for(g: ModelGroup, alive: int | None) -> int:
        p = g.profile
        bearer = id(g) in bearers
        extra = sum(int(cast(int, x.value)) for x in fx.target("wounds", None, bearer=bearer))
        key = (_defence(p, None), bearer, alive, extra)
        if key not in index:
            index[key] = len(kinds)
            base = _defence(p, mods.invuln)
            kinds.append(replace(base, W=max(1, p.W + extra), bearer=bearer, alive=alive))
        return index[key]

    melee = sel.phase == "fight"  # 04.01: every attack of a fight is melee, of shooting ranged
    bodyguard_groups, character_groups = s.edition.split_tracks(target, melee)
    if isinstance(sel.allocation, tuple) and sel.allocation:  # model names (not "best")
        bodyguard_groups, character_groups = reorder(
            sel.allocation, bodyguard_groups, character_groups, target.name
        )
    named = None
    if precise and sel.precision_target not in ("leader", "bodyguard"):
        named = precision_named(sel.precision_target, character_groups, target.name)
    bg: list[TargetModel] = []
    ch: list[TargetModel] = []
    group_ids = _group_ids(s.edition, bodyguard_groups, melee)
    for groups, out in ((bodyguard_groups, bg), (character_groups, ch)):
        for g in groups:
            gid = group_ids.get(id(g), -1)
            # the group's kinds, once (the same for each of its models)
            top = kind_for(g, tops[0])
            below = tuple((n, kind_for(g, rep)) for n, rep in zip(cuts, tops[1:], strict=True))
            kept = tuple(b for b in below if b[1] != top) or None
            model = TargetModel(g.profile.name, kinds[top].W, top, _one(kept), gid)
            out.extend([model] * g.count)
    profile = TargetProfile(
        target.name,
        tuple(bg),
        tuple(ch),
        tuple(k.name for k in kinds),
        precision_one_group=s.edition.precision_one_group(),
        precision_pick=None if named is None else _model_index(character_groups, named),
    )
    order = [m.name for m in bg] + [m.name for m in ch]
    roles = [character_role(g) for g in character_groups for _ in range(g.count)]
    place: dict[int, int] = {}  # each group's first place in target.groups, by identity
    for i, x in enumerate(target.groups):
        place.setdefault(id(x), i)
    listing = tuple(
        place[id(g)] for g in (*bodyguard_groups, *character_groups) for _ in range(g.count)
    )
    return kinds, profile, order, roles, listing


def _one(below: tuple[tuple[int, int], ...] | None):
    """``kind_below`` as ``TargetModel`` takes it: one (N, kind) pair, or several."""
    if below is None:
        return None
    return below[0] if len(below) == 1 else below


def _target_bearers(target: Unit) -> frozenset[int]:
    """The target's bearer groups (ids): its first CHARACTER datasheet's CHARACTER models, or
    its only model (:func:`~.when.bearer_groups`)."""
    return bearer_groups(target)


def _group_ids(edition: Edition, groups: list[ModelGroup], melee: bool) -> dict[int, int]:
    """Allocation group number of each Bodyguard model group (by ``id``): consecutive groups
    with the same :meth:`~.edition.Edition.group_key` (against melee attacks with ``melee``)
    share one."""
    out: dict[int, int] = {}
    prev, n = None, -1
    for g in groups:
        key = edition.group_key(g, melee)
        if n < 0 or key != prev:
            n += 1
        out[id(g)] = n
        prev = key
    return out


def wounded_start(sel: Selection, target: TargetProfile) -> TargetStates | None:
    """``--target-wounds-left N``: the target's first model in allocation order (the one a
    wounded model is: allocated first, seeds README "Allocating attacks"; 05.03) has N wounds
    left; None without the option.

    Raises:
        OptionUsageError: N below 1 (exit code 2).
        OptionError: N is not 1 .. W - 1 of that model.
    """
    n = sel.target_wounds_left
    if n is None:
        return None
    first = (*target.bodyguard, *target.characters)[0]
    opt = "--target-wounds-left"
    if n < 1:  # no model is left with fewer than 1 wound, whatever its W: a usage error
        why = "a model left with no wounds is destroyed: give 1 or more"
        raise OptionUsageError(f"{opt} {n}: {why} (or --target-models for fewer models)", opt, why)
    if first.W == 1:
        why = f"{first.name}, the model allocated first, has W1 and cannot be left wounded"
        raise OptionError(f"{opt} {n}: {why}", opt, why)
    if not 1 <= n < first.W:
        why = f"{first.name}, the model allocated first, has W{first.W}; give 1 to {first.W - 1}"
        raise OptionError(
            f"{opt} {n}: {why} (a model at 0 is destroyed: use --target-models for fewer models)",
            opt,
            f"{n}: {why} (a model at 0 is destroyed: give the target fewer models)",
        )
    return TargetStates.wounded_first(target, n)


def is_character(g: ModelGroup) -> bool:
    """True for a CHARACTER model (its own keywords or its datasheet's)."""
    return "CHARACTER" in (g.profile.keywords | g.datasheet.all_keywords())


def character_role(g: ModelGroup) -> str:
    """How the output names a CHARACTER model of the target: "Leader" or "Support" for an
    attached character (Core rules: LEADER; edition 11, 24.22 Leader / 24.34 Support), else
    "CHARACTER" (edition 11: a CHARACTER model of the unit's own datasheet is a group of its
    own, Save Rolls: Create Groups)."""
    if g.support:
        return "Support"
    return "Leader" if g.character else "CHARACTER"


def _defence(p: ModelProfile, extra: int | None) -> Kind:
    """The :class:`Kind` of a model profile, with ``extra`` (``--invuln``, an invulnerable save
    against every attack) besides its own."""
    return Kind(
        p.name,
        p.W,
        p.Sv,
        c.best_of(p.invuln_against(False), extra),
        c.best_of(p.invuln_against(True), extra),
        p.feel_no_pain,
        fnp_mortal=p.feel_no_pain_mortal,
        fnp_psychic=p.feel_no_pain_psychic,
        damage_reduction=p.damage_reduction,
        half_damage=p.half_damage,
    )


def _model_index(groups: list[ModelGroup], group: ModelGroup) -> int:
    """Index of ``group``'s first model in the models that ``groups`` list in order."""
    return sum(g.count for g in groups[: groups.index(group)])

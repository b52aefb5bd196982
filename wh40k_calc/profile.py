"""The resolved attack profile: where the rules end and the engines begin.

The rules layer (``wh40k_calc.rules``) turns datasheets, conditions and effects into these
plain numbers; the exact engine and the sampler read only these. Nothing here knows a keyword
or an ability by name: a Hit roll is a table of what each unmodified face does and which faces
are re-rolled; a Damage roll is a dice expression, a map from rolled value to damage, and the
values re-rolled for each number of wounds the model has left.
"""

from __future__ import annotations

import numpy as np
from msgspec import Struct

from .dice import Dice
from .records import compared_without

# Outcome classes of a Hit roll, a Wound roll and a saving throw.
MISS, HIT, CRIT = 0, 1, 2
FAIL, WOUND, CRIT_WOUND = 0, 1, 2
SAVE_FAILED, SAVED = 0, 1


# RollTable.probabilities by (outcome, reroll, classes): at most 7^6 x 2^6 x a few tables exist
_PROBABILITIES: dict[tuple, np.ndarray] = {}


class RollTable(Struct, frozen=True, cache_hash=True):
    """One D6 roll with an optional single re-roll.

    ``outcome[f]`` is the outcome class of an unmodified result ``f`` (index 1-6; index 0 is
    unused) after modifiers; ``reroll[f]`` says whether a first result ``f`` is re-rolled (the
    second result stands: a die is never re-rolled twice, Core rules: Re-rolls).
    """

    outcome: tuple[int, ...]
    reroll: tuple[bool, ...] = (False,) * 7

    def __post_init__(self) -> None:
        if len(self.outcome) != 7 or len(self.reroll) != 7:
            raise ValueError("RollTable needs 7 entries (index 0 unused)")

    def probabilities(self, classes: int = 3) -> np.ndarray:
        """P(each outcome class) after the re-roll, as a float array of length ``classes``
        (a new array: worked out once per table and number of classes, then copied)."""
        key = (self.outcome, self.reroll, classes)
        if key not in _PROBABILITIES:
            _PROBABILITIES[key] = self._probabilities(classes)
        return _PROBABILITIES[key].copy()

    def _probabilities(self, classes: int) -> np.ndarray:
        fresh = np.zeros(classes)
        for f in range(1, 7):
            fresh[self.outcome[f]] += 1 / 6
        out = np.zeros(classes)
        for f in range(1, 7):
            if self.reroll[f]:
                out += fresh / 6
            else:
                out[self.outcome[f]] += 1 / 6
        return out

    @property
    def rerolled_faces(self) -> list[int]:
        """The unmodified results that are re-rolled."""
        return [f for f in range(1, 7) if self.reroll[f]]

    def face_probabilities(self) -> np.ndarray:
        """P(the result that stands is ``f``), index 1-6 (index 0 unused, 0): a first result
        the table re-rolls is replaced by a fresh one."""
        again = sum(self.reroll[1:]) / 6
        out = np.array([0.0] + [(0.0 if self.reroll[f] else 1 / 6) for f in range(1, 7)])
        out[1:] += again / 6
        return out


ALWAYS_FAILS = RollTable((0,) * 7)


class Substituted(Struct, frozen=True, cache_hash=True):
    """Dice of one weapon profile's attacks whose unmodified results are fixed before they are
    rolled (a die replaced by one of known value: the value counts as an unmodified roll of it,
    so every modifier still applies and the die is never re-rolled).

    ``hits``: the results of its first Hit rolls, one per attack in order (no more than the
    attacks made); ``wounds``: of its first Wound rolls, whichever hits make them (an attack's
    own hit or Sustained Hits' extra hits: the rolls are alike, so which ones is immaterial);
    ``saves``: of the first saving throws against its normal wounds, each a result that passes
    against every kind of target model (``AttackProfile.save_passes``), so each one saves one
    wound outright; ``damage``: of its first Damage rolls, each read through the Damage table's
    ``faces`` (the sampler's only: the exact engine declines it). Each tuple holds 0 to 6 values
    in 1-6.
    """

    hits: tuple[int, ...] = ()
    wounds: tuple[int, ...] = ()
    saves: tuple[int, ...] = ()
    damage: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        for faces in (self.hits, self.wounds, self.saves, self.damage):
            if any(not 1 <= f <= 6 for f in faces):
                raise ValueError(f"a substituted die is 1 to 6, not {faces}")

    def __bool__(self) -> bool:
        return bool(self.hits or self.wounds or self.saves or self.damage)


class DamageTable(Struct, frozen=True, cache_hash=True):
    """A Damage roll against one kind of model.

    The roll has outcomes ``0 .. n-1`` with probabilities ``probs`` (for a plain D6, outcome
    ``i`` is a roll of ``i + 1``; with [MELTA D3] an outcome is a pair of rolls); ``final[i]`` is
    the damage outcome ``i`` inflicts after every modifier (halving, +X, -X, never below 1).
    ``reroll[w]`` is the set of outcomes re-rolled when the model the attack is allocated to
    has ``w`` wounds left (index 0 unused; an empty tuple: no re-roll allowed).
    ``faces[f - 1]`` is the outcome of the roll when its die is substituted by a result ``f``
    (:class:`Substituted`; for a D3, the D6 halved rounding up): empty where the Damage is
    fixed or rolls more than one die.
    """

    probs: tuple[float, ...]
    final: tuple[int, ...]
    reroll: tuple[frozenset[int], ...] = ()
    label: str = ""
    faces: tuple[int, ...] = ()

    def face_outcome(self, face: int) -> int:
        """The outcome of a roll one of whose dice is substituted by the result ``face`` (1-6)
        (``faces[face - 1]``; see :class:`Substituted`).

        Raises:
            ValueError: the roll has no such outcome (``faces`` empty: a fixed Damage, or a
                roll of several dice).
        """
        if len(self.faces) != 6:
            raise ValueError(f"no substituted Damage roll for {self.label or 'this Damage'}")
        return self.faces[face - 1]

    def rerolls_for(self, wounds_left: int) -> frozenset[int]:
        """Outcomes re-rolled against a model with ``wounds_left`` wounds."""
        if not self.reroll:
            return frozenset()
        return self.reroll[max(0, min(wounds_left, len(self.reroll) - 1))]

    def pmf(self, wounds_left: int = 1) -> np.ndarray:
        """Distribution of the final damage (index = damage) against a model with
        ``wounds_left`` wounds, re-rolls included."""
        raw = np.asarray(self.probs, dtype=float)
        again = self.rerolls_for(wounds_left)
        after = raw.copy()
        if again:
            idx = sorted(again)
            p_again = float(raw[idx].sum())
            after[idx] = 0.0
            after = after + p_again * raw
        out = np.zeros(max(self.final) + 1)
        np.add.at(out, np.asarray(self.final), after)
        return out

    @property
    def max_damage(self) -> int:
        """Largest damage one roll can inflict."""
        return max(self.final)


class VsModel(Struct, frozen=True, cache_hash=True):
    """What one attack does against one kind of target model.

    ``save`` is the saving throw table (None: no save can be made); ``damage`` the Damage of
    an attack allocated to the model; ``fnp`` and ``fnp_mortal`` are the probabilities that one
    point of normal damage, and one mortal wound, is ignored by Feel No Pain;
    ``mortal_damage`` the number of mortal wounds a [DEVASTATING WOUNDS] Critical Wound
    inflicts, where it differs from ``damage`` (edition 11, 24.10: the weapon's D, which the
    target's rules acting on allocation do not change), else None.
    """

    save: RollTable | None
    damage: DamageTable
    fnp: float = 0.0
    fnp_mortal: float = 0.0
    mortal_damage: DamageTable | None = None

    @property
    def devastating_damage(self) -> DamageTable:
        """The mortal wounds of a [DEVASTATING WOUNDS] Critical Wound (Core rules: Devastating
        Wounds; edition 11: 24.10), as a Damage table."""
        return self.damage if self.mortal_damage is None else self.mortal_damage

    @property
    def save_fail_probability(self) -> float:
        """P(the saving throw fails)."""
        if self.save is None:
            return 1.0
        return float(self.save.probabilities(2)[SAVE_FAILED])

    def save_fails_on(self, face: int) -> bool:
        """Whether a save roll whose result stands at ``face`` (1-6) fails."""
        return self.save is None or self.save.outcome[face] == SAVE_FAILED


class AttackProfile(Struct, frozen=True):
    """One weapon profile used by ``models`` models in one activation.

    Attributes:
        name: weapon name, as reported.
        models: number of models attacking with it.
        attacks: distribution of one model's number of attacks (index = attacks), before Blast.
        blast: extra attacks per model for every five models in the target unit when selected
            ([BLAST], or in melee edition 11's [CLEAVE X]).
        hit: the Hit roll table, or None when attacks hit automatically ([TORRENT]).
        sustained: distribution of the extra hits a Critical Hit scores (index = hits), or None.
        lethal: a Critical Hit wounds automatically (not a Critical Wound).
        wound: the Wound roll table (outcomes FAIL, WOUND, CRIT_WOUND).
        devastating: a Critical Wound inflicts mortal wounds equal to the damage, after all
            normal damage, and they never spill over to another model.
        precision: attacks are allocated to the CHARACTER models of an Attached unit first.
        precision_mortals: the mortal wounds of its devastating Critical Wounds are allocated
            the same way (10th edition; in edition 11 they follow 06.02 Mortal Wounds).
        command_reroll: its first failed Wound roll (of an attack's own hit, not already
            re-rolled) is re-rolled once per activation (Command Re-roll).
        reroll_one_hit: its first failed Hit roll not already re-rolled is re-rolled once
            per activation (a rule's single Hit re-roll).
        single_face: what the roll its single Hit or Wound roll (``reroll_one_hit``,
            ``command_reroll``) is spent on becomes: 0, a fresh roll (a re-roll: spent on the
            first failed roll its table did not re-roll already); 1-6, that unmodified result,
            the change made after the roll is seen (a rule that turns one roll into an
            unmodified 6: spent on the first failed roll, re-rolled already or not).
        reroll_one_damage: its first Damage roll that its Damage table would re-roll
            (``DamageTable.reroll``) is re-rolled, once per activation; every other Damage
            roll stands (a rule's single Damage re-roll; the sampler's only: the exact engine
            declines it).
        substituted: dice of its attacks whose results are fixed before they are rolled
            (:class:`Substituted`); never together with a single re-roll (the engines
            refuse it: :meth:`check_substituted`).
        vs: one :class:`VsModel` per target model kind (``TargetProfile.kinds`` order).
        ranged: True for ranged attacks (reported only).
        choices: sentences for the report (re-roll choices made); the engines ignore them.
    """

    name: str
    models: int
    attacks: np.ndarray
    hit: RollTable | None
    wound: RollTable
    vs: tuple[VsModel, ...]
    blast: int = 0
    sustained: np.ndarray | None = None
    lethal: bool = False
    devastating: bool = False
    precision: bool = False
    precision_mortals: bool = False
    command_reroll: bool = False
    reroll_one_hit: bool = False
    single_face: int = 0
    reroll_one_damage: bool = False
    substituted: Substituted | None = None
    ranged: bool = True
    choices: tuple[str, ...] = ()

    __eq__, __hash__ = compared_without("attacks", "sustained", "choices")

    def check_substituted(self) -> None:
        """Refuse what the engines cannot resolve of ``substituted``.

        Raises:
            ValueError: substituted dice together with a single re-roll (``command_reroll``,
                ``reroll_one_hit``, ``reroll_one_damage``), a substituted saving throw that
                does not pass against every kind of target model (:meth:`save_passes`), or a
                substituted Damage roll where a Damage table has no ``faces``.
        """
        sub = self.substituted
        if not sub:
            return
        if self.command_reroll or self.reroll_one_hit or self.reroll_one_damage:
            raise ValueError(f"{self.name}: substituted dice and a single re-roll on one weapon")
        if sub.damage and any(len(v.damage.faces) != 6 for v in self.vs):
            raise ValueError(f"{self.name}: its Damage roll has no single die to substitute")
        for f in sub.saves:
            if not self.save_passes(f):
                raise ValueError(
                    f"{self.name}: a substituted saving throw of {f} does not always pass"
                )

    def save_passes(self, face: int) -> bool:
        """Whether a saving throw whose unmodified result is ``face`` (1-6), not re-rolled,
        passes against every kind of target model (a model with no save fails it)."""
        return all(v.save is not None and v.save.outcome[face] == SAVED for v in self.vs)

    def attack_pmf(self, models_at_selection: int) -> np.ndarray:
        """Distribution of the total attacks of all ``models`` models, Blast included."""
        per = self.attacks
        bonus = self.blast * (models_at_selection // 5)
        if bonus:
            per = np.concatenate([np.zeros(bonus), per])
        out = np.ones(1)
        for _ in range(self.models):
            out = np.convolve(out, per)
        return out


class TargetModel(Struct, frozen=True, cache_hash=True):
    """One model of the target unit: its name, W and kind (index into ``AttackProfile.vs``).

    ``kind_below`` = (N, other kind): while the unit has fewer than N models, the model is of
    the other kind (rules such as "5+ invulnerable save while the unit has 10 or more models");
    several such pairs, N descending, each one applying below its N (the last that applies
    wins): a kind for each bracket of model counts.
    ``group`` numbers its allocation group (edition 11, Save Rolls: Create Groups): consecutive
    Bodyguard models with the same number form one group; -1 lets the engines group
    consecutive models of the same name, W and kind. Every CHARACTER model of
    ``TargetProfile.characters`` is a group of its own.
    """

    name: str
    W: int
    kind: int
    kind_below: tuple[int, int] | tuple[tuple[int, int], ...] | None = None
    group: int = -1

    @property
    def kinds_below(self) -> tuple[tuple[int, int], ...]:
        """``kind_below`` as (N, kind) pairs, N descending."""
        kb = self.kind_below
        if kb is None:
            return ()
        if isinstance(kb[0], int):
            return (kb,)
        return tuple(sorted(kb, key=lambda t: -t[0]))


class TargetProfile(Struct, frozen=True, cache_hash=True):
    """The target unit as allocation sees it.

    ``bodyguard`` lists its models in allocation order (for a unit that is not an Attached unit,
    every model); ``characters`` the CHARACTER models of an Attached unit, in allocation order;
    ``kinds`` names the model kinds that ``AttackProfile.vs`` is indexed by.
    ``precision_one_group``: a [PRECISION] attack goes to one CHARACTER group, picked when the
    weapon starts, and to the unit's usual allocation once that group is destroyed (edition 11,
    24.28 [PRECISION]); False: to any CHARACTER model while one remains (10th edition).
    ``precision_pick``: index into ``characters`` of the CHARACTER model the player named for
    [PRECISION] attacks (``--precision-target NAME``): it takes them while it lives, even when
    another one is wounded (None: the calculator picks).
    """

    name: str
    bodyguard: tuple[TargetModel, ...]
    characters: tuple[TargetModel, ...] = ()
    kinds: tuple[str, ...] = ()
    precision_one_group: bool = False
    precision_pick: int | None = None

    @property
    def models(self) -> int:
        """Number of models in the unit."""
        return len(self.bodyguard) + len(self.characters)

    @property
    def wounds(self) -> int:
        """Total wounds of the unit."""
        return sum(m.W for m in self.bodyguard) + sum(m.W for m in self.characters)


class Group(Struct, frozen=True):
    """One allocation group: ``count`` models of the target listing (Bodyguard models, then
    CHARACTER models) from index ``start``, each with ``W`` wounds."""

    name: str
    start: int
    count: int
    W: int
    character: bool

    @property
    def wounds(self) -> int:
        """Total wounds of the group."""
        return self.count * self.W


def allocation_groups(target: TargetProfile) -> tuple[Group, ...]:
    """The target's allocation groups: consecutive Bodyguard models with the same
    ``TargetModel.group`` (or, where it is -1, the same name, W and kind), then one group per
    CHARACTER model."""
    runs: list[list] = []  # [first model's name, start, count, W] of each run of models

    def key_of(m: TargetModel) -> tuple:
        return ("g", m.group) if m.group >= 0 else ("m", m.name, m.W, m.kind, m.kind_below)

    prev = None
    for i, m in enumerate(target.bodyguard):
        key = key_of(m)
        if runs and key == prev:
            run = runs[-1]
            run[2] += 1
            run[3] = max(run[3], m.W)
        else:
            runs.append([m.name, i, 1, m.W])
        prev = key
    out = [Group(name, start, n, W, False) for name, start, n, W in runs]
    base = len(target.bodyguard)
    out += [Group(m.name, base + i, 1, m.W, True) for i, m in enumerate(target.characters)]
    return tuple(out)


def group_shape(target: TargetProfile) -> tuple[GroupShape, ...]:
    """The key of the target's states (:class:`~wh40k_calc.profile.TargetStates`)."""
    return shape_of(allocation_groups(target))


def shape_of(groups: tuple[Group, ...]) -> tuple[GroupShape, ...]:
    """:func:`group_shape` of a target whose :func:`allocation_groups` are ``groups``."""
    return tuple(GroupShape(g.name, g.W, g.count, g.character) for g in groups)


class GroupShape(Struct, frozen=True):
    """One allocation group as a target state is keyed: the name of its first model, its
    models' W, how many models it has, and whether it is a CHARACTER group."""

    name: str
    W: int
    models: int
    character: bool


class TargetStates(Struct, frozen=True):
    """States of one target unit, keyed by its model structure, not by any one activation.

    ``shape`` lists the unit's allocation groups (Bodyguard groups in listing order, then one
    per CHARACTER model); ``lost[i, g]`` is the wounds group ``g`` has lost in state ``i``
    (models ``0 .. lost // W - 1`` of the group destroyed, the next one wounded by
    ``lost % W``). ``weights[i]`` is the probability of state ``i`` (a distribution, from or
    for the exact engine); None means one state per sampler trial, in trial order.
    """

    shape: tuple[GroupShape, ...]
    lost: np.ndarray
    weights: np.ndarray | None = None

    __eq__, __hash__ = compared_without("lost", "weights")

    def __post_init__(self) -> None:
        if self.lost.ndim != 2 or self.lost.shape[1] != len(self.shape):
            raise ValueError("TargetStates.lost must be (states, groups)")
        if self.weights is not None and len(self.weights) != len(self.lost):
            raise ValueError("TargetStates.weights needs one entry per state")

    @property
    def models_destroyed(self) -> np.ndarray:
        """Models destroyed in each state (int array)."""
        ws = np.array([g.W for g in self.shape], dtype=np.int64)
        return (self.lost // ws).sum(axis=1) if len(self.shape) else np.zeros(len(self.lost))

    @property
    def wounds_lost(self) -> np.ndarray:
        """Wounds lost in each state (int array)."""
        return self.lost.sum(axis=1)

    @classmethod
    def wounded_first(cls, target: TargetProfile, wounds_left: int) -> TargetStates:
        """The unit with its first model in allocation order (a Bodyguard model if any) left
        with ``wounds_left`` wounds, every other model unharmed.

        Raises:
            ValueError: ``wounds_left`` is not 1 .. W - 1 of that model.
        """
        groups = allocation_groups(target)
        first = groups[0]
        if not 1 <= wounds_left < first.W:
            raise ValueError(f"wounds left {wounds_left} is not 1 to {first.W - 1}")
        lost = np.zeros((1, len(groups)), dtype=np.int64)
        lost[0, 0] = first.W - wounds_left
        return cls(group_shape(target), lost, np.ones(1))


class OrderPolicy(Struct, frozen=True):
    """The defender's allocation orders (edition 11, 05.03 Allocation Order), chosen once and
    read by both engines.

    ``orders`` are preference orders of the target's allocation groups (indices into the
    groups listed by ``TargetStates.shape``; a group with a wounded model still goes first, as
    05.03 requires). ``tables[j]`` gives, for weapon ``j``, the index into ``orders`` used when
    it has ``n`` save rolls and ``m`` Devastating Wounds mortal-wound crits:
    ``tables[j][min(n, N), min(m, M)]``; None means ``orders[0]`` whatever the counts.
    ``probabilities[j]`` (same shape) is P(n, m) when the policy was chosen, for reporting.
    """

    orders: tuple[tuple[int, ...], ...]
    tables: tuple[np.ndarray | None, ...]
    probabilities: tuple[np.ndarray | None, ...] = ()

    __eq__, __hash__ = compared_without("tables", "probabilities")

    def index(self, weapon: int, n: np.ndarray, m: np.ndarray | int = 0) -> np.ndarray:
        """Order index per entry for weapon ``weapon`` with counts ``n`` (and ``m``)."""
        table = self.tables[weapon] if weapon < len(self.tables) else None
        n = np.asarray(n)
        if table is None:
            return np.zeros(n.shape, dtype=np.int64)
        ni = np.minimum(n, table.shape[0] - 1)
        mi = np.minimum(np.asarray(m), table.shape[1] - 1)
        return table[ni, mi].astype(np.int64)


class MortalWounds(Struct, frozen=True):
    """Mortal wounds inflicted outside the attack sequence (a Grenade, Bloody Stampede): their
    count distribution; applied one at a time, they spill over from model to model.
    ``fnp`` gives, per target model kind, the probability that one is ignored."""

    name: str
    count: np.ndarray
    fnp: tuple[float, ...] = ()

    __eq__, __hash__ = compared_without("count")


class HazardProfile(Struct, frozen=True):
    """Hazardous tests on the attacking unit after it has attacked.

    ``tests`` tests are taken, each failing with ``fail_probability``; each failure inflicts
    ``mortal_wounds`` mortal wounds. With ``spill`` False (10th edition) they go to one model
    carrying a Hazardous weapon and the rest are lost when it is destroyed; with ``spill`` True
    (edition 11) they are allocated to the unit one at a time. ``carriers`` is the allocation
    track of the models that can be selected (wounded first is implied by the track order);
    ``groups`` gives, per model of ``carriers``, the index of its group in the attacking unit
    (``Unit.groups``; -1 for a model standing by with ``--weapon``), for carrying the unit's
    own state (``calc exchange``); the engines ignore it.
    """

    tests: int
    fail_probability: float
    mortal_wounds: Dice
    carriers: TargetProfile
    fnp: tuple[float, ...]
    spill: bool = False
    groups: tuple[int, ...] = ()


class Activation(Struct, frozen=True):
    """Everything one unit's shooting or fighting resolves into: the weapon profiles in the
    order they are resolved, the target, mortal wounds inflicted before the attacks, the
    Hazardous tests after them, and how the target resolves saves and allocation.

    Attributes:
        start: the target's state before the activation (None: unharmed); a distribution for
            the exact engine, per trial (or a distribution to draw from) for the sampler.
        lowest_first: the save rolls of one weapon profile are rolled together and resolved
            from the lowest result to the highest, each against the allocation group current
            when it is resolved (edition 11, 05.04 Inflict Damage); False: one at a time, each
            against the model it is allocated to (10th edition).
        best_allocation: the defender declares, per weapon profile and number of save rolls,
            the allocation order (edition 11, 05.03) that minimises expected models destroyed,
            then wounds lost; False: the listed order (``TargetProfile``) for every weapon.
        policy: the orders chosen (filled in by the exact engine; the sampler only reads it).
        notes: what the rules layer has to say about these profiles (for the output's notes;
            the engines ignore it), e.g. a Command Re-roll no weapon can use.
    """

    weapons: tuple[AttackProfile, ...]
    target: TargetProfile
    before: tuple[MortalWounds, ...] = ()
    hazard: HazardProfile | None = None
    start: TargetStates | None = None
    lowest_first: bool = False
    best_allocation: bool = False
    policy: OrderPolicy | None = None
    notes: tuple[str, ...] = ()

    __eq__, __hash__ = compared_without("start", "policy", "notes")

"""What the rules layer hands to the resolver: the attacker's weapon options, the target, and a
builder that turns one set of choices into an :class:`~wh40k_calc.profile.Activation`.

The player's whole-activation choices (pistols or other weapons, which melee weapon, which
profile of a weapon, an ability a stratagem lets them pick, the order of weapons) are left open
here; ``wh40k_calc.resolve`` tries them and keeps the best.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec import Struct, field

from ..datasheet import Weapon
from ..profile import Activation
from ..records import replace
from ..units import ModelGroup, Unit
from .when import StateSplit


class Option(Struct, frozen=True):
    """One way a model group can attack: the weapons each of its models uses."""

    weapons: tuple[Weapon, ...]
    label: str


class GroupOptions(Struct, frozen=True):
    """The options of one attacking model group (``options[0]`` is the default)."""

    group: ModelGroup
    options: tuple[Option, ...]
    what: str  # e.g. "fights with", "shoots"


class IdleEffect(Struct, frozen=True):
    """An effect that applies (its record's conditions hold) but whose every change is out
    of scope or unmet here: its ``id`` and ``side`` as the report lists them, the ``note``
    saying why, and whether only the target's state at the activation's start is why
    (``by_state``: a sequence step reading its start states may still use it). ``hinted``:
    a datasheet's own rule that would act with an option it asks for
    (:class:`~wh40k_calc.rules.applied.OptionHint`): ``note`` then says it has no effect
    here without it, a line of ``not_modelled`` rather than a note
    (``rules.idle.hint_lines``). ``replaces``: the ``not_modelled`` line of a datasheet's
    own rule that is partly modelled (``Name (partly) (Datasheet unit ability)``), which
    ``note`` stands in for there (one line on the rule, not one in each list)."""

    id: str
    side: str
    note: str
    by_state: bool = False
    hinted: bool = False
    replaces: str = ""

    @property
    def shown(self) -> bool:
        """Whether ``note`` goes among the notes (neither hinted nor in ``not_modelled``)."""
        return not (self.hinted or self.replaces)


class Plan(Struct, frozen=True):
    """An activation with its choices still open, made once by ``rules.activation.plan``
    (frozen: ``records.replace`` makes a changed copy, as a sequence step's start does).

    ``build(picks, variant, order)`` gives the activation for one option index per group, one
    variant index (the options of choice rules and the abilities effects let the players
    choose: ``variants`` says each in words, ``variant_defender`` the defender's part of each,
    whose fewest models destroyed the defender picks) and a weapon order (None: the
    datasheet's). ``character_roles``: "Leader", "Support" or "CHARACTER" for each CHARACTER
    model of the target, in the order of ``TargetProfile.characters``. ``target_groups``: for
    each model of the target's profile (``TargetProfile.bodyguard``, then ``characters``), the
    index of its group in ``target.groups`` (which models a state of the target leaves alive,
    for ``calc exchange``). ``idle``: the options that have no effect here whatever else is
    switched off (``rules.idle.lasting_idle``), which ``--explain`` does not count.
    ``fights_first``: the names of the effects that give the attacking unit Fights First here
    (``calc exchange`` reads them for the Fight phase order); ``fights_first_by_state``: a
    Fights First change's conditions read the attacking unit's state (its models, wounds, a
    CHARACTER alive), so the exchange reads it per state. ``unmet``: the ``--effect`` names
    left out because their conditions are not met here (only with ``Selection.skip_unmet``),
    as ``(the name as given, why)``.
    """

    attacker: Unit
    target: Unit
    groups: list[GroupOptions]
    variants: list[tuple[str, ...]]
    build: Callable[[tuple[int, ...], int, tuple[str, ...] | None], Activation]
    variant_defender: list[tuple[int, ...]] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)
    effect_sides: dict[str, list[str]] = field(default_factory=dict)
    effects_both: list[str] = field(default_factory=list)  # ids of effects for either side
    effect_options: dict[str, list[str]] = field(default_factory=dict)  # id -> options given
    choices: list[str] = field(default_factory=list)
    not_modelled: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    allocation_order: list[str] = field(default_factory=list)
    character_roles: list[str] = field(default_factory=list)  # per TargetProfile.characters
    target_groups: tuple[int, ...] = ()  # per model of the TargetProfile: its group's index
    idle: frozenset[str] = frozenset()
    state_split: StateSplit | None = None  # target-state conditions read per start state
    fights_first: tuple[str, ...] = ()  # the effects that give the attacker Fights First
    fights_first_by_state: bool = False  # a Fights First condition reads the unit's state
    unmet: tuple[tuple[str, str], ...] = ()  # --effect names left out (Selection.skip_unmet)
    effect_order: list[str] = field(default_factory=list)  # every effect applied, idle too
    effect_sides_all: dict[str, list[str]] = field(default_factory=dict)
    idle_effects: tuple[IdleEffect, ...] = ()

    def reading_states(self) -> Plan:
        """The plan as a sequence step that reads the target's state per start state reports
        it (``Plan.state_split``): the effects idle only for the target's state at the
        activation's start listed as applied again, without their notes."""
        back = [i for i in self.idle_effects if i.by_state]
        if not back:
            return self
        kept = tuple(i for i in self.idle_effects if not i.by_state)
        effects, sides = acting_ids(self.effect_order, self.effect_sides_all, kept)
        gone = {i.note for i in back if i.shown}
        notes = [n for n in self.notes if n not in gone]
        again = {i.note: i.replaces for i in back if i.replaces}  # the datasheet's line again
        not_modelled = [again.get(n, n) for n in self.not_modelled]
        return replace(
            self,
            effects=effects,
            effect_sides=sides,
            idle_effects=kept,
            notes=notes,
            not_modelled=not_modelled,
        )


def acting_ids(
    ids: list[str], sides: dict[str, list[str]], idle: tuple[IdleEffect, ...] | list[IdleEffect]
) -> tuple[list[str], dict[str, list[str]]]:
    """The effect ids and their sides (``Applied.ids``, ``Applied.sides``) without the
    halves ``idle`` lists (an id with no side left is left out)."""
    if not sides:  # no effect applied
        return [], {}
    gone = {(i.id, i.side) for i in idle}
    out_sides = {eid: [s for s in ss if (eid, s) not in gone] for eid, ss in sides.items()}
    out_sides = {eid: ss for eid, ss in out_sides.items() if ss}
    return [eid for eid in ids if eid in out_sides], out_sides

"""The attacking unit's own Hazardous losses, carried in its state.

The rules layer resolves the Hazardous tests into a :class:`~wh40k_calc.profile.HazardProfile`
(how many tests, the chance each fails, the mortal wounds of a failure, who can take them and
their Feel No Pain, and whether they spill over). The engines report its expected losses
from an unharmed unit; an exchange needs the unit's state after them, from the state it
attacked in. So the tests are turned here into an activation of their own against the unit
itself, which the engines resolve from that state as any other ("start from this state, hand
back the state"):

* 10th edition (Core rules: Hazardous; ``spill`` False): each failed test inflicts its mortal
  wounds on one model equipped with a Hazardous weapon — one that has lost wounds first, then
  one that is not a CHARACTER, then a CHARACTER — and what that model cannot take is lost. That
  is one normal-damage wound per failed test (no save; Feel No Pain per point) allocated among
  the carriers only, wounded model first: the unit's models that carry such a weapon, as a unit
  of their own (in 10th edition each group of models equipped alike is an allocation group, so
  the carriers are whole groups of the unit's state).
* Edition 11 (06.03 Hazard Rolls; ``spill`` True): the mortal wounds are allocated to the whole
  unit as 06.02 Mortal Wounds, one at a time, spilling over: mortal wounds before any attack,
  against the unit as it is attacked.

Nothing here reads a rule: only the profile's numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from ..profile import (
    Activation,
    AttackProfile,
    DamageTable,
    HazardProfile,
    MortalWounds,
    RollTable,
    TargetProfile,
    TargetStates,
    VsModel,
    allocation_groups,
    group_shape,
)
from ..records import replace
from .track import Track

HAZARD = "Hazardous"
ALWAYS_WOUNDS = RollTable((0, 1, 1, 1, 1, 1, 1))


@dataclass(frozen=True)
class HazardStep:
    """The Hazardous tests of one attack class as an activation against its own unit:
    ``act`` is resolved from the unit's state restricted to the columns ``columns`` (its
    allocation groups that can take the mortal wounds), and its final states are written back
    into them."""

    act: Activation
    columns: tuple[int, ...]
    shape: tuple

    def start(self, lost: np.ndarray, weights: np.ndarray | None = None) -> TargetStates:
        """The states ``lost`` (rows of the whole unit) as this activation's start."""
        return TargetStates(self.shape, np.asarray(lost)[:, list(self.columns)], weights)

    def written_back(self, lost: np.ndarray, final: np.ndarray) -> np.ndarray:
        """Rows of the whole unit: ``lost`` (one row per entry of ``final``) with the columns
        this activation changes set from ``final``."""
        out = np.array(lost, dtype=np.int64, copy=True)
        out[:, list(self.columns)] = final
        return out


def hazard_step(
    track: Track, alive: tuple[int, ...], hz: HazardProfile | None
) -> HazardStep | None:
    """The Hazardous tests ``hz`` of the unit ``track`` attacking with ``alive`` models per
    group, as a :class:`HazardStep` (None: no test is taken).

    Raises:
        ValueError: the carriers are not whole allocation groups of the unit (10th edition), or
            the profile does not say which groups carry (the exchange then cannot carry them).
    """
    if hz is None or hz.tests == 0:
        return None
    if len(hz.groups) != len(hz.carriers.bodyguard) or any(g < 0 for g in hz.groups):
        raise ValueError("the Hazardous profile does not say which models take the wounds")
    full = [i for i, n in enumerate(alive) if n > 0]  # Unit.surviving keeps the order
    track_groups = [full[g] for g in hz.groups]  # per model of the carriers' track
    fnp_of = dict(zip(track_groups, (hz.fnp[m.kind] for m in hz.carriers.bodyguard), strict=True))
    models = (*track.profile.bodyguard, *track.profile.characters)
    groups = allocation_groups(track.profile)
    if hz.spill:  # the whole unit, in its own allocation order
        columns = tuple(range(len(groups)))
    else:  # the carriers, in the order they are selected
        columns = tuple(dict.fromkeys(_column(track, groups, g, fnp_of) for g in track_groups))
    kinds: list[float] = []
    kind_of: dict[int, int] = {}

    def remapped(i: int, group: int):
        unit_group = track.listing[i]
        if unit_group not in kind_of:
            kind_of[unit_group] = len(kinds)
            kinds.append(fnp_of.get(unit_group, 0.0))
        return replace(models[i], kind=kind_of[unit_group], kind_below=None, group=group)

    n_bg = len(track.profile.bodyguard)
    picked = [
        (k, i) for k in columns for i in range(groups[k].start, groups[k].start + groups[k].count)
    ]
    if hz.spill:
        bodyguard = tuple(remapped(i, models[i].group) for _, i in picked if i < n_bg)
        characters = tuple(remapped(i, models[i].group) for _, i in picked if i >= n_bg)
    else:  # one track, the CHARACTER carriers already last in it; each column a group
        bodyguard = tuple(remapped(i, columns.index(k)) for k, i in picked)
        characters = ()
    profile = TargetProfile(
        f"{track.profile.name} (own Hazardous tests)",
        bodyguard,
        characters,
        tuple(f"kind {k}" for k in range(len(kinds))),
    )
    shape = group_shape(profile)
    if [(g.W, g.models) for g in shape] != [
        (track.shape[k].W, track.shape[k].models) for k in columns
    ]:
        raise ValueError("the carriers' allocation groups differ from the unit's")
    fails = _fails(hz)
    if hz.spill:
        count = _compound(fails, hz.mortal_wounds.pmf)
        act = Activation((), profile, before=(MortalWounds(HAZARD, count, tuple(kinds)),))
    else:
        pmf = np.asarray(hz.mortal_wounds.pmf, dtype=float)
        values = [v for v in range(len(pmf)) if pmf[v] > 0]
        damage = DamageTable(tuple(float(pmf[v]) for v in values), tuple(values))
        vs = tuple(VsModel(None, damage, fnp) for fnp in kinds)
        weapon = AttackProfile(HAZARD, 1, fails, None, ALWAYS_WOUNDS, vs)
        act = Activation((weapon,), profile)
    return HazardStep(act, columns, shape)


def _column(track: Track, groups, unit_group: int, carrier: dict) -> int:
    """The allocation group (state column) of the unit's model group ``unit_group``.

    Raises:
        ValueError: its allocation group holds models that do not carry a Hazardous weapon.
    """
    for k, g in enumerate(groups):
        members = [track.listing[i] for i in range(g.start, g.start + g.count)]
        if unit_group in members:
            if any(m not in carrier for m in members):
                raise ValueError(
                    f"{g.name}: only some models of an allocation group carry a Hazardous weapon"
                )
            return k
    raise ValueError(f"no allocation group holds the unit's group {unit_group}")


def _fails(hz: HazardProfile) -> np.ndarray:
    """Distribution of the number of failed tests."""
    n, p = hz.tests, hz.fail_probability
    return np.array([comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)])


def _compound(fails: np.ndarray, per: np.ndarray) -> np.ndarray:
    """Distribution of the sum of ``k`` draws of ``per``, ``k`` drawn from ``fails``."""
    out = np.zeros(1)
    power = np.ones(1)
    for p in fails:
        if len(out) < len(power):
            out = np.concatenate([out, np.zeros(len(power) - len(out))])
        out[: len(power)] += p * power
        power = np.convolve(power, per)
    return out

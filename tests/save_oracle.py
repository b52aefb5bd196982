"""An independent oracle for edition 11's save rolls (05.04 Inflict Damage): every die of a small
case enumerated in exact fractions. It shares nothing with the engines; the tests compare the
engines' distributions with it.

A unit is a list of :class:`G` groups in allocation order. Save rolls are made together, sorted
and resolved lowest first, each against the first group with a model left (its wounded model
first; excess damage lost; "when the whole unit is destroyed, the remaining results are lost");
then the mortal wounds of Devastating Wounds, one model at most each.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction as F

from profiles import Kind, activation, unit, weapon

from wh40k_calc.profile import CRIT_WOUND, FAIL, WOUND, RollTable
from wh40k_calc.records import replace


@dataclass(frozen=True)
class G:
    """A group for the brute force: ``count`` models of ``W``; a save roll succeeds on a
    result of ``save``+ (never on a 1; 7: no save); ``fnp`` X+ per point (None: none);
    ``fnp_mortal`` for mortal wounds."""

    count: int
    W: int
    save: int
    fnp: int | None = None
    fnp_mortal: int | None = None


def _points(damage: dict[int, F], fnp: int | None) -> dict[int, F]:
    """Points that get through Feel No Pain (one D6 per point, ignored on X+)."""
    keep = F(1) if fnp is None else F(fnp - 1, 6)
    out: dict[int, F] = defaultdict(F)
    for d, p in damage.items():
        for k in range(d + 1):
            out[k] += p * math.comb(d, k) * keep**k * (1 - keep) ** (d - k)
    return out


def _hit(state: tuple, groups: list[G], points: int) -> tuple:
    """``points`` to the current model (see :func:`_current`); excess lost. ``state`` = per
    group (models destroyed, wounds lost by the next model)."""
    state = list(state)
    i = _current(tuple(state), groups)
    if i is not None:
        dead, lost = state[i]
        lost += points
        if lost >= groups[i].W:
            dead, lost = dead + 1, 0
        state[i] = (dead, lost)
    return tuple(state)


def _current(state: tuple, groups: list[G]) -> int | None:
    """The group the next result meets: one with a wounded model first (05.03: "that group
    must be first in the allocation order"), else the first with a model left."""
    for i, g in enumerate(groups):
        if state[i][0] < g.count and state[i][1] > 0:
            return i
    for i, g in enumerate(groups):
        if state[i][0] < g.count:
            return i
    return None


def brute_force(
    groups: list[G],
    attacks: int,
    wound: dict[str, F],
    damage: dict[int, F],
    reroll_ones: bool = False,
) -> dict[tuple, F]:
    """Distribution of the final per-group state after ``attacks`` attacks, each ending as
    ``wound`` says ("save": a wound that takes a save roll, "mortal": a Devastating Wounds
    critical wound, "none"), the save rolls resolved lowest first (05.04), then the mortal
    wounds (each its Damage, one model at most)."""
    out: dict[tuple, F] = defaultdict(F)
    for ends in itertools.product(wound, repeat=attacks):
        p_ends = math.prod((wound[e] for e in ends), start=F(1))
        got = resolve_counts(groups, ends.count("save"), ends.count("mortal"), damage, reroll_ones)
        for st, p in got.items():
            out[st] += p_ends * p
    return out


def resolve_counts(
    groups: list[G],
    n: int,
    m: int,
    damage: dict[int, F],
    reroll_ones: bool = False,
    start: tuple | None = None,
) -> dict[tuple, F]:
    """Distribution of the final per-group state after exactly ``n`` save rolls (lowest
    first) and then ``m`` Devastating Wounds mortal-wound hits, from ``start`` (per group
    (models destroyed, wounds lost by the next model); default unharmed)."""
    out: dict[tuple, F] = defaultdict(F)
    start = start or tuple((0, 0) for _ in groups)
    first = groups[_current(start, groups)]
    # each die: the first result, re-rolled on a 1 if the current group may re-roll
    faces: dict[int, F] = defaultdict(F)
    for f in range(1, 7):
        if f == 1 and reroll_ones and first.save < 7:
            for f2 in range(1, 7):
                faces[f2] += F(1, 36)
        else:
            faces[f] += F(1, 6)
    for dice in itertools.product(faces, repeat=n):
        p_dice = math.prod((faces[f] for f in dice), start=F(1))
        states = {start: p_dice}
        for f in sorted(dice):
            nxt: dict[tuple, F] = defaultdict(F)
            for st, p in states.items():
                i = _current(st, groups)
                if i is None or (f != 1 and f >= groups[i].save):
                    nxt[st] += p  # unit destroyed (lost) or saved
                    continue
                for pts, q in _points(damage, groups[i].fnp).items():
                    nxt[_hit(st, groups, pts)] += p * q
            states = nxt
        for _ in range(m):
            nxt = defaultdict(F)
            for st, p in states.items():
                i = _current(st, groups)
                if i is None:
                    nxt[st] += p
                    continue
                fnp = groups[i].fnp_mortal or groups[i].fnp
                for pts, q in _points(damage, fnp).items():
                    nxt[_hit(st, groups, pts)] += p * q
            states = nxt
        for st, p in states.items():
            out[st] += p
    return out


def models_dist(dist: dict[tuple, F], groups: list[G]) -> list[float]:
    total = sum(g.count for g in groups)
    out = [0.0] * (total + 1)
    for st, p in dist.items():
        out[sum(d for d, _ in st)] += float(p)
    return out


def wounds_dist(dist: dict[tuple, F], groups: list[G]) -> list[float]:
    total = sum(g.count * g.W for g in groups)
    out = [0.0] * (total + 1)
    for st, p in dist.items():
        out[sum(d * g.W + lost for (d, lost), g in zip(st, groups, strict=True))] += float(p)
    return out


def engine_case(
    groups: list[G],
    attacks: int,
    wound: dict[str, F],
    D: str,
    reroll_ones: bool = False,
    precision_first: bool = False,
):
    """The same case as profiles: a [TORRENT] weapon whose Wound roll table gives "save" on
    1-k, "mortal" on the rest (or the "none" outcome on a 1), exactly ``attacks`` attacks."""
    kinds = tuple(
        Kind(W=g.W, Sv=g.save, fnp=g.fnp, fnp_mortal=g.fnp_mortal, name=f"g{i}")
        for i, g in enumerate(groups)
    )
    sixths = {k: int(v * 6) for k, v in wound.items()}
    outcome = [FAIL]
    outcome += [FAIL] * sixths.get("none", 0)
    outcome += [WOUND] * sixths.get("save", 0)
    outcome += [CRIT_WOUND] * sixths.get("mortal", 0)
    assert len(outcome) == 7
    gun = weapon(
        kinds,
        A=attacks,
        skill=None,
        D=D,
        reroll_saves="ones" if reroll_ones else None,
        devastating="mortal" in wound,
        precision=precision_first,
    )
    gun = replace(gun, wound=RollTable(tuple(outcome)))
    if precision_first:  # the first group is a CHARACTER the [PRECISION] attacks go to
        target = unit(kinds, [(i, g.count) for i, g in enumerate(groups) if i], [(0, 1)])
    else:
        target = unit(kinds, [(i, g.count) for i, g in enumerate(groups)])
    return replace(activation(gun, target), lowest_first=True)


SAVE = {"save": F(1)}

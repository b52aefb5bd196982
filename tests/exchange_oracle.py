"""An independent exchange for the tests: a small Markov chain over both units' models, written
from the rules text with its own dice arithmetic and exact fractions, attack by attack. It
shares no code with the program.

10th edition, as the seeds give it: each attack is a Hit roll (an unmodified 1 fails, a 6
hits, else the roll plus its modifier against BS/WS), a Wound roll (S against T: 2+ at
double, 3+ above, 4+ equal, 5+ below, 6+ at half or less; 1 fails), and a saving throw (the
roll plus AP against Sv; 1 fails); an attack that gets through is allocated to a wounded model
of the unit if there is one, else to the first model alive in the allocation order (attached
CHARACTER models last), and loses it up to D wounds (no spill). A unit attacks with its models
alive; a lone model at or below its damaged profile's wounds attacks with its Hit modifier.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction as F


@dataclass(frozen=True)
class Weapon:
    A: int
    skill: int
    S: int
    AP: int
    D: int


@dataclass(frozen=True)
class Model:
    """One model: its W, T, Sv and its one weapon (None: none it can use here)."""

    name: str
    W: int
    T: int
    Sv: int
    weapon: Weapon | None


@dataclass(frozen=True)
class Unit:
    """``models`` in allocation order; ``groups``: the models of each weapon profile, in the
    order the profiles are resolved; ``damaged``: (wounds left, Hit modifier) of a lone
    model's damaged profile."""

    models: tuple[Model, ...]
    groups: tuple[tuple[int, ...], ...]  # models using one weapon profile, in resolution order
    damaged: tuple[int, int] | None = None

    def start(self, wounded_first: int | None = None) -> tuple[int, ...]:
        left = [m.W for m in self.models]
        if wounded_first is not None:
            left[0] = wounded_first
        return tuple(left)


def p_hit(skill: int, mod: int) -> F:
    good = [f for f in range(1, 7) if f != 1 and (f == 6 or f + max(-1, min(1, mod)) >= skill)]
    return F(len(good), 6)


def p_wound(s: int, t: int) -> F:
    if s >= 2 * t:
        need = 2
    elif s > t:
        need = 3
    elif s == t:
        need = 4
    elif 2 * s <= t:
        need = 6
    else:
        need = 5
    return F(7 - need, 6)


def p_unsaved(sv: int, ap: int) -> F:
    saved = [f for f in range(2, 7) if f + ap >= sv]
    return 1 - F(len(saved), 6)


def allocated(left: tuple[int, ...], unit: Unit) -> int | None:
    """The model an attack that got through is allocated to: a wounded one, else the first
    alive (the models are listed in allocation order)."""
    for i, (w, m) in enumerate(zip(left, unit.models, strict=True)):
        if 0 < w < m.W:
            return i
    return next((i for i, w in enumerate(left) if w > 0), None)


def attacks(attacker: Unit, left: tuple[int, ...]) -> list[Weapon]:
    """Every attack the unit makes with the models alive in ``left``, in resolution order,
    each as its weapon; a lone damaged model's Hit modifier folded into its skill."""
    alive = [i for i, w in enumerate(left) if w > 0]
    mod = 0
    if attacker.damaged is not None and len(alive) == 1 and left[alive[0]] <= attacker.damaged[0]:
        mod = attacker.damaged[1]
    out = []
    for group in attacker.groups:
        for i in group:
            w = attacker.models[i].weapon
            if left[i] > 0 and w is not None:
                out += [Weapon(w.A, w.skill - mod, w.S, w.AP, w.D)] * w.A
    return out


def attack_once(
    dist: dict[tuple[int, ...], F], weapon: Weapon, target: Unit
) -> dict[tuple[int, ...], F]:
    out: dict[tuple[int, ...], F] = {}
    for left, p in dist.items():
        i = allocated(left, target)
        if i is None:
            out[left] = out.get(left, 0) + p
            continue
        m = target.models[i]
        hit = p_hit(weapon.skill, 0)
        through = hit * p_wound(weapon.S, m.T) * p_unsaved(m.Sv, weapon.AP)
        hurt = list(left)
        hurt[i] = max(0, left[i] - weapon.D)
        hurt_t = tuple(hurt)
        out[hurt_t] = out.get(hurt_t, 0) + p * through
        out[left] = out.get(left, 0) + p * (1 - through)
    return out


def exchange(a: Unit, b: Unit, order: list, start_a=None, start_b=None):
    """The joint distribution {(A's wounds left per model, B's): probability} after the
    activations ``order`` ("a" or "b", the side acting; or (side, Unit): that side acting
    with that unit's weapons for this activation, e.g. a charge's bonus, its models the
    same), each made only while both units have a model alive; and per activation (P(made),
    expected attacks, expected models of the other unit destroyed by it)."""
    units = {"a": a, "b": b}
    joint = {(start_a or a.start(), start_b or b.start()): F(1)}
    steps = []
    cache_runs: dict = {}
    for entry in order:
        side, acting = entry if isinstance(entry, tuple) else (entry, units[entry])
        other = "b" if side == "a" else "a"
        new: dict = {}
        made = F(0)
        n_attacks = F(0)
        destroyed = F(0)
        for (la, lb), p in joint.items():
            mine, theirs = (la, lb) if side == "a" else (lb, la)
            if not any(mine) or not any(theirs):
                new[(la, lb)] = new.get((la, lb), 0) + p
                continue
            made += p
            sig = tuple(attacks(acting, mine))
            n_attacks += p * len(sig)
            key = (side, sig, theirs)
            if key not in cache_runs:
                dist = {theirs: F(1)}
                for w in sig:
                    dist = attack_once(dist, w, units[other])
                cache_runs[key] = dist
            for after, q in cache_runs[key].items():
                destroyed += p * q * (sum(1 for w in theirs if w) - sum(1 for w in after if w))
                pair = (mine, after) if side == "a" else (after, mine)
                new[pair] = new.get(pair, 0) + p * q
        joint = new
        steps.append((made, n_attacks, destroyed))
    return joint, steps


def models_left_joint(joint) -> dict[tuple[int, int], F]:
    out: dict[tuple[int, int], F] = {}
    for (la, lb), p in joint.items():
        key = (sum(1 for w in la if w), sum(1 for w in lb if w))
        out[key] = out.get(key, 0) + p
    return out


def wounds_left(joint, side: str) -> F:
    i = 0 if side == "a" else 1
    return sum((p * sum(pair[i]) for pair, p in joint.items()), F(0))

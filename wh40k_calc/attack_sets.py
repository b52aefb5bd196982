"""Which of the weapons a model carries may attack together (``--weapon``'s attacking sets).

A model *carries* weapons (its equipment option: :mod:`wh40k_calc.composition`); a weapon
with several profiles (``Plasma gun – standard`` and ``Plasma gun – supercharge``, tied by
their ``profile_of``) is one weapon, listed once a copy as all its profiles. In one activation
a model *attacks* with a set of profiles that the rules allow, in both editions:

- **One profile a weapon.** Each weapon with several profiles attacks with one of them, each
  copy its own (10th edition, seed 000: "select one of its profiles to make attacks with",
  for this weapon; seeds README, weapons a model uses: one profile per attack sequence;
  edition 11, 04.01.03 Multiple Weapon Profiles: the player selects one profile of each
  selected weapon, a different one for each model if they like).
- **Pistols or the others.** A model with Pistols shoots its Pistols or its other ranged
  weapons, not both, unless it is a MONSTER or VEHICLE model (10th edition, Core rules:
  Pistol, seed 000; edition 11, 24.07 [CLOSE-QUARTERS], with [PISTOL] the same ability,
  24.27, and 04.01.02 Sidearms).
- **One melee weapon.** A model fights with one of its melee weapons, besides all its
  [EXTRA ATTACKS] weapons (seeds README: weapons a model uses and [EXTRA ATTACKS]; edition
  11, 04.01 Select Weapons: "one melee weapon", and 24.11 [EXTRA ATTACKS]). A model with two
  copies of one melee weapon fights with one of them.

Ranged and melee weapons attack in different phases, so a set joins one ranged choice and one
melee choice. Every subset of an allowed set is allowed, so only the largest sets are kept:
``--weapon`` may name fewer weapons than a model could use. :class:`Counting` says which of the
three rules apply (all of them for ``--weapon``; none, and weapons counted once whatever their
profiles, for an army list's carried wargear; one left out at a time to find which rule
refuses a request).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import product

from msgspec import Struct
from msgspec.structs import replace

from .datasheet import Datasheet, ModelProfile, Weapon, norm_name

BIG = frozenset({"MONSTER", "VEHICLE"})  # models exempt from the Pistol rule

WeaponSet = frozenset[tuple[str, int]]  # key -> how many of it one model uses, as pairs


class Counting(Struct, frozen=True):
    """How :mod:`~wh40k_calc.composition` counts the named weapons. ``attacking``: keys are
    profiles (``Weapon.key``) that attack, each model's carried weapons turned into the sets
    it may attack with under the rules switched on below; False: keys are weapons (a
    multi-profile weapon's ``profile_of``, normalised) that models carry (an army list's
    wargear). ``one_profile``, ``pistols_or_others`` and ``one_melee`` are the three rules of
    the module docstring."""

    attacking: bool = True
    one_profile: bool = True
    pistols_or_others: bool = True
    one_melee: bool = True

    def without(self, rule: str) -> Counting:
        """The same counting with ``rule`` (a field name) switched off."""
        return replace(self, **{rule: False})


ATTACKING = Counting()
UNRULED = Counting(True, False, False, False)  # profiles, each copy firing all of them
CARRYING = Counting(False, False, False, False)
RULES = ("one_profile", "pistols_or_others", "one_melee")


class Weapons:
    """A datasheet's weapons grouped by weapon: ``key_of[profile key]`` -> the weapon's key
    (``norm_name(profile_of)`` for a profile of a multi-profile weapon, else its own key),
    ``profiles[weapon key]`` -> its profiles in datasheet order, ``name[weapon key]`` -> the
    weapon's name as printed (a multi-profile weapon's ``profile_of``)."""

    def __init__(self, ds: Datasheet) -> None:
        self.key_of: dict[str, str] = {}
        self.profiles: dict[str, list[Weapon]] = {}
        self.name: dict[str, str] = {}
        for w in ds.weapons:
            if w.key in self.key_of:
                continue
            k = norm_name(w.profile_of) if w.profile_of else w.key
            self.key_of[w.key] = k
            self.profiles.setdefault(k, []).append(w)
            self.name.setdefault(k, w.profile_of or w.name)

    def weapon(self, key: str) -> str:
        """The weapon key of profile ``key`` (an unknown key stands for itself)."""
        return self.key_of.get(key, key)

    def copies(self, keys: Iterable[str]) -> Counter[str]:
        """How many of each weapon an equipment list (profile keys, each copy listing all its
        profiles) holds: a plain weapon's repeats, a multi-profile weapon's most repeated
        profile."""
        per = Counter(keys)
        out: Counter[str] = Counter()
        for k, n in per.items():
            w = self.weapon(k)
            out[w] = max(out[w], n)
        return out

    def one_a_model(self) -> set[str]:
        """The weapons a model counts once however many it holds: those all of whose profiles
        are melee without [EXTRA ATTACKS] (a model fights with one melee weapon)."""
        return {
            k
            for k, ps in self.profiles.items()
            if all(p.is_melee and not p.abilities.extra_attacks for p in ps)
        }


def is_big(ds: Datasheet, model: ModelProfile) -> bool:
    """Whether ``model`` is a MONSTER or VEHICLE model (its own or its unit's keywords), which
    the Pistol rule exempts."""
    return bool(BIG & (model.keywords | ds.all_keywords()))


def attack_sets(
    weapons: Weapons,
    carried: Iterable[tuple[str, int]],
    wanted: set[str],
    big: bool,
    counting: Counting = ATTACKING,
) -> list[WeaponSet]:
    """The largest sets of the ``wanted`` profiles (profile keys) that one model carrying
    ``carried`` ((weapon key, copies) pairs) may attack with, as (profile key, how many)
    pairs, in a fixed order; ``big``: a MONSTER/VEHICLE model. Empty sets are left out.
    ``counting`` switches rules off (see :class:`Counting`; a rule off lets the model use
    every profile of each copy, its Pistols with its other guns, every melee weapon once)."""
    ranged: list[tuple[int, list[Weapon]]] = []
    main: list[list[Weapon]] = []
    extra: list[tuple[int, list[Weapon]]] = []
    for k, n in carried:
        ps = [p for p in weapons.profiles.get(k, []) if p.key in wanted]
        shoot = [p for p in ps if not p.is_melee]
        if shoot:
            ranged.append((n, shoot))
        if any(p.is_melee and not p.abilities.extra_attacks for p in ps):
            main.append([p for p in ps if p.is_melee and not p.abilities.extra_attacks])
        if any(p.is_melee and p.abilities.extra_attacks for p in ps):
            extra.append((n, [p for p in ps if p.is_melee and p.abilities.extra_attacks]))
    one = counting.one_profile
    sides = [lambda p: p.abilities.pistol, lambda p: not p.abilities.pistol]
    if big or not counting.pistols_or_others:
        sides = [lambda p: True]
    shots: list[Counter[str]] = []
    for side in sides:
        per = [_profiles(n, [p.key for p in ps if side(p)], one) for n, ps in ranged]
        shots += [sum(pick, Counter()) for pick in product(*per)]
    extras = [
        sum(pick, Counter())
        for pick in product(*(_profiles(n, [p.key for p in ps], one) for n, ps in extra))
    ]
    each = [_profiles(1, [p.key for p in ps], one) for ps in main]
    if counting.one_melee:
        mains = [c for ways in each for c in ways] or [Counter()]
    else:
        mains = [sum(pick, Counter()) for pick in product(*each)]
    found = {frozenset((r + m + e).items()) for r in shots for m in mains for e in extras}
    found.discard(frozenset())
    return _largest(sorted(found, key=lambda s: sorted(s)))


def _profiles(copies: int, keys: list[str], one: bool) -> list[Counter[str]]:
    """The ways ``copies`` copies of one weapon attack with its profiles ``keys``: each copy
    one profile (``one``), as many of each profile as copies pick it; else every copy with
    every profile. No profile: the one way of not attacking with it."""
    if not keys:
        return [Counter()]
    if not one or len(keys) == 1:
        return [Counter({k: copies for k in keys})]
    out: list[Counter[str]] = []
    for split in product(range(copies + 1), repeat=len(keys) - 1):
        if sum(split) <= copies:
            counts = [*split, copies - sum(split)]
            out.append(Counter({k: n for k, n in zip(keys, counts, strict=True) if n}))
    return out


def _largest(sets: list[WeaponSet]) -> list[WeaponSet]:
    """``sets`` without those another set covers (as many of every profile or more)."""
    as_dicts = [dict(s) for s in sets]
    out = []
    for i, s in enumerate(as_dicts):
        covered = any(
            j != i and t != s and all(t.get(k, 0) >= n for k, n in s.items())
            for j, t in enumerate(as_dicts)
        )
        if not covered:
            out.append(sets[i])
    return out

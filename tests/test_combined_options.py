"""Separate wargear options taken together by one model (wh40k_calc/composition/combined.py).

The rule (10th edition and edition 11 alike): a model may take each of its datasheet's wargear
options; the items of one option are alternatives (one of them); an option that replaces X
needs the model to carry X (so two options never take away the same weapon), and one that adds
Y to a model "equipped with X" needs X kept. Our generated loadout entries carry the option's
number (``option``) and, for such additions, ``needs``. Checked here:

- figures worked by hand from the datasheet numbers for combinations now accepted (a Redemptor
  Dreadnought's onslaught gatling cannon and twin storm bolter, both editions);
- alternatives of one option, and options taking away the same weapon, still refused with the
  reason (both editions where the unit exists);
- the per-unit option limits, and each entry's own count, held across combinations;
- the search against a brute-force enumeration written here (every model's options taken one
  after the other, then every way to equip the unit), on a synthetic datasheet and real ones.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import cli

from wh40k_calc.attack_sets import CARRYING
from wh40k_calc.catalog import Catalog
from wh40k_calc.composition import MAX_COMBINED, assign, explain
from wh40k_calc.datasheet import Datasheet, DatasheetError, ModelProfile, load_datasheet, norm_name

CAT = Catalog(use_env=False, home=None)


def _find(name: str, edition: str) -> Datasheet:
    return CAT.find(name, "Space Marines", edition)


def _json(*args: str) -> dict:
    res = cli(*args, "--json", "--method", "exact")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _refusal(*args: str) -> str:
    res = cli(*args)
    assert res.exit_code == 1, res.output
    return " ".join(res.output.split())


# ---------------------------------------------------------------------------------------------
# Newly accepted, with figures worked by hand


@pytest.mark.parametrize("edition", ["10", "11"])
def test_redemptor_gatling_cannon_and_twin_storm_bolter(edition: str) -> None:
    """Redemptor Dreadnought: "This model's heavy flamer can be replaced with 1 onslaught gatling
    cannon" and "... twin fragstorm grenade launcher can be replaced with 1 twin storm bolter"
    are separate options, each alone accepted before, together refused ("can carry only 1").
    By hand, at 10 Boyz (T5) beyond half range: the cannon A8 at BS 3+ hits 8 x 4/6 = 16/3 and
    wounds (S5 against T5: 4+) 16/3 x 1/2 = 8/3; the twin storm bolter A2 (Rapid Fire 2 only
    at half range) hits 2 x 4/6 = 4/3 and wounds (S4: 5+, twin-linked re-rolls the Wound roll)
    4/3 x (1/3 + 2/3 x 1/3) = 20/27."""
    out = _json(
        *("shoot", "redemptor-dreadnought", "--edition", edition, "--target", "boyz"),
        *("--weapon", "Onslaught gatling cannon", "--weapon", "Twin storm bolter"),
    )
    rows = {w["name"]: w for w in out["weapons"]}
    assert set(rows) == {"Onslaught gatling cannon", "Twin storm bolter"}
    gatling, bolter = rows["Onslaught gatling cannon"], rows["Twin storm bolter"]
    assert gatling["count"] == 1 and bolter["count"] == 1
    assert gatling["expected"]["attacks"] == pytest.approx(8)
    assert gatling["expected"]["hits"] == pytest.approx(float(Fraction(16, 3)))
    assert gatling["expected"]["wounds"] == pytest.approx(float(Fraction(8, 3)))
    assert bolter["expected"]["attacks"] == pytest.approx(2)
    assert bolter["expected"]["hits"] == pytest.approx(float(Fraction(4, 3)))
    assert bolter["expected"]["wounds"] == pytest.approx(float(Fraction(20, 27)))
    assert out["expected"]["attacks"] == pytest.approx(10)


@pytest.mark.parametrize("edition", ["10", "11"])
def test_redemptor_all_three_swaps_and_its_rocket_pod(edition: str) -> None:
    """All three swaps at once (they replace three different weapons) and the added Icarus
    rocket pod (a choice): the macro plasma incinerator's standard profile D6+1 attacks, 4.5
    on average, and 2 more from [BLAST] against 10 models (one for every 5), and the pod D3,
    2 on average; 8 + 2 + 6.5 + 2 = 18.5 attacks."""
    out = _json(
        *("shoot", "redemptor-dreadnought", "--edition", edition, "--target", "boyz"),
        *("--weapon", "Onslaught gatling cannon", "--weapon", "Twin storm bolter"),
        *("--weapon", "Macro plasma incinerator – standard", "--weapon", "Icarus rocket pod"),
    )
    rows = {w["name"].lower(): w["expected"]["attacks"] for w in out["weapons"]}
    assert rows["macro plasma incinerator – standard"] == pytest.approx(6.5)
    assert rows["icarus rocket pod"] == pytest.approx(2)
    assert out["expected"]["attacks"] == pytest.approx(18.5)


def test_sergeant_grenade_launcher_and_power_fist() -> None:
    """Edition 11 Intercessor Squad: "For every 5 models, 1 model equipped with a bolt rifle can
    be equipped with 1 Astartes grenade launcher" and "The Intercessor Sergeant's close combat
    weapon can be replaced with one of the following: ... power fist ..." are separate options:
    the Sergeant carries both (he keeps his bolt rifle). Edition 10's curated file has the
    pair as a loadout (``sergeant-grenade-launcher-power-fist``)."""
    for edition in ("10", "11"):
        ds = _find("Intercessor Squad", edition)
        gl = _weapon_key(ds, "Astartes grenade launcher")
        fist = _weapon_key(ds, "Power fist")
        rifle = _weapon_key(ds, "Bolt rifle")
        sergeant = {"Intercessor Sergeant": 1}
        want = {gl: 1, fist: 1, rifle: 1}
        assert assign(ds, sergeant, want, 5, counting=CARRYING) is not None, edition
        # the whole unit of 5: the Sergeant's pair and 4 bolt rifles, one grenade launcher
        unit = {"Intercessor Sergeant": 1, "Intercessor": 4}
        assert assign(ds, unit, {gl: 1, fist: 1, rifle: 5}, 5, counting=CARRYING) is not None


# ---------------------------------------------------------------------------------------------
# Still refused, with the reason


@pytest.mark.parametrize("edition", ["10", "11"])
def test_a_swap_and_the_weapon_it_takes_away_are_refused(edition: str) -> None:
    """The onslaught gatling cannon replaces the heavy flamer: never both on one Redemptor; the
    macro plasma incinerator replaces the heavy onslaught gatling cannon."""
    base = ("shoot", "redemptor-dreadnought", "--edition", edition, "--target", "boyz")
    msg = _refusal(*base, "--weapon", "Onslaught gatling cannon", "--weapon", "Heavy flamer")
    assert "can carry only 1 of Onslaught gatling cannon and Heavy flamer at once" in msg
    assert msg.endswith("(loadout onslaught-gatling-cannon takes away the Heavy flamer)")
    ds = _find("Redemptor Dreadnought", edition)
    mpi = next(w.name for w in ds.weapons if w.name.lower().startswith("macro plasma"))
    msg = _refusal(*base, "--weapon", mpi, "--weapon", "Heavy onslaught gatling cannon")
    assert "can carry only 1 of" in msg and "Heavy onslaught gatling cannon x1 need 2" in msg
    assert "takes away the Heavy onslaught gatling cannon" in msg


@pytest.mark.parametrize("edition", ["10", "11"])
def test_alternatives_of_one_option_are_refused(edition: str) -> None:
    """The Sergeant's bolt rifle becomes a hand flamer *or* a plasma pistol (one option), his
    close combat weapon a power fist *or* a thunder hammer: never two of one option. Edition
    11 names the option; edition 10's curated file has no option numbers (its pairs are
    hand-made loadouts), so only the count is said."""
    base = ("--edition", edition, "--target", "boyz")
    pistol = "Plasma pistol – standard" if edition == "10" else "Plasma pistol – Standard"
    msg = _refusal(
        "shoot", "intercessor-squad", *base, "--weapon", "Hand flamer", "--weapon", pistol
    )
    assert f"can carry only 1 of Hand flamer and {pistol} at once" in msg
    assert "(Intercessor Sergeant ×1)" in msg
    msg = _refusal(
        "fight", "intercessor-squad", *base, "--weapon", "Power fist", "--weapon", "Thunder hammer"
    )
    assert "can carry only 1 of Power fist and Thunder hammer at once" in msg
    if edition == "11":
        assert msg.endswith(
            "(power-fist and thunder-hammer are items of one wargear option: a model takes one)"
        )


def test_an_addition_needs_the_weapon_it_is_added_beside() -> None:
    """Edition 11: the grenade launcher is for a model equipped with a bolt rifle: a Sergeant
    whose bolt rifle became a plasma pistol (another option) cannot take it."""
    ds = _find("Intercessor Squad", "11")
    gl = _weapon_key(ds, "Astartes grenade launcher")
    pistol = _weapon_key(ds, "Plasma pistol")
    sergeant = {"Intercessor Sergeant": 1}
    assert assign(ds, sergeant, {gl: 1}, 5, counting=CARRYING) is not None
    assert assign(ds, sergeant, {pistol: 1}, 5, counting=CARRYING) is not None
    assert assign(ds, sergeant, {gl: 1, pistol: 1}, 5, counting=CARRYING) is None
    why = explain(ds, sergeant, {gl: 1, pistol: 1}, 5, "the Sergeant", CARRYING)
    assert why.startswith("the Sergeant can carry only 1 of Astartes grenade launcher and Plasma")


def test_the_option_limit_holds_across_combinations() -> None:
    """Edition 11: one grenade launcher for every 5 models, whether the Sergeant's (with his
    power fist) or an Intercessor's: 5 models take 1, refused 2 naming the option; 10 take 2."""
    ds = _find("Intercessor Squad", "11")
    gl = _weapon_key(ds, "Astartes grenade launcher")
    fist = _weapon_key(ds, "Power fist")
    five = {"Intercessor Sergeant": 1, "Intercessor": 4}
    assert assign(ds, five, {gl: 2, fist: 1}, 5, counting=CARRYING) is None
    why = explain(ds, five, {gl: 2, fist: 1}, 5, "this unit of 5 models", CARRYING)
    assert why.startswith(
        "this unit of 5 models can give only 1 model (1 for every 5 models) one of the loadouts "
        "astartes-grenade-launcher and intercessor-sergeant-astartes-grenade-launcher"
    )
    ten = {"Intercessor Sergeant": 1, "Intercessor": 9}
    assert assign(ds, ten, {gl: 2, fist: 1}, 10, counting=CARRYING) is not None
    assert assign(ds, ten, {gl: 3, fist: 1}, 10, counting=CARRYING) is None


# ---------------------------------------------------------------------------------------------
# Reading: old datasheets unchanged, ``needs`` checked

PLAIN = """name: Plain
faction: Testers
models:
  - {name: Walker, M: 6, T: 9, Sv: 3, W: 10, Ld: 6, OC: 3, keywords: [VEHICLE],
     equipped: [gun, flamer, fist]}
sizes:
  - {models: {Walker: 1}, points: 100}
weapons:
  - {name: Gun, range: 24, A: 2, skill: 3, S: 6, AP: 0, D: 1}
  - {name: Flamer, range: 12, A: D6, skill: null, S: 4, AP: 0, D: 1, abilities: [torrent]}
  - {name: Cannon, range: 36, A: 3, skill: 3, S: 9, AP: -2, D: 3}
  - {name: Bolter, range: 24, A: 2, skill: 3, S: 4, AP: 0, D: 1}
  - {name: Fist, range: melee, A: 4, skill: 3, S: 12, AP: -2, D: 3}
loadouts:
  cannon:
    - {model: Walker, equipped: [cannon, flamer, fist]%s}
  bolter:
    - {model: Walker, equipped: [gun, bolter, fist]%s}
"""


def _plain(tmp_path: Path, first: str = "", second: str = "") -> Datasheet:
    path = tmp_path / "plain.yaml"
    path.write_text(PLAIN % (first, second), encoding="utf-8")
    return load_datasheet(path)


def test_entries_without_option_numbers_are_not_combined(tmp_path: Path) -> None:
    """A file written before ``option`` (a hand-written one): its loadouts stay alternatives."""
    ds = _plain(tmp_path)
    assert assign(ds, {"Walker": 1}, {"cannon": 1, "bolter": 1}, 1) is None
    numbered = _plain(tmp_path, ", option: 1", ", option: 2")
    assert assign(numbered, {"Walker": 1}, {"cannon": 1, "bolter": 1}, 1) is not None
    one = _plain(tmp_path, ", option: 1", ", option: 1")  # one option's two items
    assert assign(one, {"Walker": 1}, {"cannon": 1, "bolter": 1}, 1) is None


def test_needs_are_weapons_the_entry_keeps(tmp_path: Path) -> None:
    with pytest.raises(DatasheetError) as info:
        _plain(tmp_path, ", option: 1, needs: [gun]")
    assert "loadouts.cannon[0].needs" in str(info.value) and "plain.yaml" in str(info.value)
    with pytest.raises(DatasheetError) as info:
        _plain(tmp_path, ", option: 0")
    assert "option" in str(info.value)


def test_the_combination_bound() -> None:
    """The search is bounded (the README says how): a model type gets at most 64 combinations,
    the fewer options first."""
    assert MAX_COMBINED == 64


# ---------------------------------------------------------------------------------------------
# The search against brute force

SYNTHETIC = """name: Combiners
faction: Testers
models:
  - {name: Trooper, M: 6, T: 4, Sv: 4, W: 1, Ld: 7, OC: 1, equipped: [pistol, rifle, knife]}
  - {name: Leader, M: 6, T: 4, Sv: 4, W: 1, Ld: 7, OC: 1, equipped: [pistol, rifle, knife]}
sizes:
  - {models: {Trooper: 4, Leader: 1}, points: 50}
  - {models: {Trooper: 9, Leader: 1}, points: 100}
weapons:
  - {name: Pistol, range: 12, A: 1, skill: 4, S: 4, AP: 0, D: 1, abilities: [pistol]}
  - {name: Rifle, range: 24, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Plasma, range: 12, A: 1, skill: 4, S: 7, AP: -2, D: 1, abilities: [pistol]}
  - {name: Flamer, range: 12, A: D6, skill: null, S: 4, AP: 0, D: 1, abilities: [torrent]}
  - {name: Cannon, range: 36, A: 1, skill: 4, S: 9, AP: -2, D: 3}
  - {name: Launcher, range: 36, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Knife, range: melee, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Sword, range: melee, A: 2, skill: 3, S: 5, AP: -2, D: 1}
  - {name: Fist, range: melee, A: 2, skill: 4, S: 8, AP: -2, D: 2}
  - {name: Grenade, range: 6, A: 1, skill: 4, S: 6, AP: -1, D: 1}
loadouts:
  plasma:
    - {model: Trooper, count: 1, equipped: [plasma, rifle, knife], option: 1}
  flamer:
    - {model: Trooper, count: 1, per_models: 5, equipped: [pistol, flamer, knife], option: 2}
  cannon:
    - {model: Trooper, count: 1, per_models: 5, equipped: [pistol, cannon, knife], option: 2}
  launcher:
    - {model: Trooper, count: 1, per_models: 5, equipped: [pistol, rifle, launcher, knife],
       option: 3, needs: [rifle]}
  leader-launcher:
    - {model: Leader, count: 1, equipped: [pistol, rifle, launcher, knife], option: 3,
       needs: [rifle]}
  swords:
    - {model: Trooper, count: 2, equipped: [pistol, rifle, sword], option: 4}
  leader-fist:
    - {model: Leader, count: 1, equipped: [pistol, rifle, fist], option: 5}
  leader-sword:
    - {model: Leader, count: 1, equipped: [pistol, rifle, sword], option: 5}
  leader-flamer:
    - {model: Leader, count: 1, equipped: [pistol, flamer, knife], option: 6}
  grenade:
    - {model: Trooper, count: 1, equipped: [pistol, rifle, knife, grenade], option: 7}
  trooper-fist:
    - {model: Trooper, count: 1, equipped: [pistol, rifle, fist], option: 7}
  leader-cannon:
    - {model: Leader, count: 1, equipped: [pistol, cannon, knife], option: 8}
  pistol-flamer:
    - {model: Trooper, count: 1, equipped: [flamer, rifle, knife], option: 9}
option_limits:
  - {loadouts: [flamer, cannon], models: 1, per_models: 5}
  - {loadouts: [launcher, leader-launcher], models: 1, per_models: 5}
"""


def _weapon_key(ds: Datasheet, name: str) -> str:
    """A weapon's key as an army list counts it: a multi-profile weapon by its ``profile_of``."""
    for w in ds.weapons:
        if norm_name(w.profile_of or w.name) == norm_name(name):
            return norm_name(w.profile_of) if w.profile_of else w.key
    raise AssertionError(name)


def _held(ds: Datasheet, keys: tuple[str, ...] | Counter) -> Counter:
    """Weapon copies of an equipment list, as an army list counts what a model carries: a
    plain weapon's repeats (a melee weapon's too: two options may each give a Sergeant an
    Astartes chainsword, and he fights with one), a multi-profile weapon's most repeated
    profile."""
    per: Counter = Counter()
    for k, n in Counter(keys).items():
        w = ds.weapon(k)
        assert w is not None
        key = norm_name(w.profile_of) if w.profile_of else w.key
        per[key] = max(per[key], n)
    return per


def _model_ends(ds: Datasheet, m: ModelProfile, size: int) -> list[tuple[Counter, frozenset]]:
    """Every equipment one model of kind ``m`` may end with: its options taken one after the
    other (each at most once, one item of it), an item taking away only weapons it still has
    from its default equipment (what it adds, one more copy where another option added it
    already: two options' items are each the model's), and what an item needs kept still
    there at the end; an entry without an option number alone. Returns
    (weapons held, the loadout entries taken, by (loadout, index))."""
    default = Counter(m.equipped)
    by_option: dict[int, list] = {}
    alone = []
    for lname, entries in ds.loadouts.items():
        for i, e in enumerate(entries):
            if norm_name(e.model) != m.key or (e.min_unit_size or 0) > size:
                continue
            if e.models_for(size) == 0:
                continue
            if e.option is None:
                alone.append(((lname, i), e))
            else:
                by_option.setdefault(e.option, []).append(((lname, i), e))
    ends: list[tuple[Counter, frozenset]] = [(default, frozenset())]
    ends += [(Counter(e.equipped), frozenset([ref])) for ref, e in alone]

    def walk(options: list[int], left: Counter, gained: Counter, taken: tuple) -> None:
        if not options:
            if taken and all(all(left[k] for k in e.needs) for _, e in taken):
                ends.append((left + gained, frozenset(ref for ref, _ in taken)))
            return
        first, rest = options[0], options[1:]
        walk(rest, left, gained, taken)
        for ref, e in by_option[first]:
            new = Counter(e.equipped)
            out, into = default - new, new - default
            if any(left[k] < n for k, n in out.items()):
                continue
            walk(rest, left - out, gained + into, (*taken, (ref, e)))

    walk(sorted(by_option), default, Counter(), ())
    return ends


def _achievable(ds: Datasheet, counts: dict[str, int], size: int, keys: list[str]) -> set:
    """Every vector of ``keys`` counts that some way of equipping the whole unit carries, each
    entry within its count and each option limit within its models."""
    limits = [(set(lim.loadouts), lim.models_for(size)) for lim in ds.option_limits]
    per_type = []
    for m in ds.models:
        n = counts.get(m.name, 0)
        if not n:
            continue
        caps = {
            (lname, i): e.models_for(size)
            for lname, es in ds.loadouts.items()
            for i, e in enumerate(es)
        }
        ends = []  # (weapons of keys held, entries taken, option limits used) of each end
        for held, taken in _model_ends(ds, m, size):
            carried = _held(ds, tuple(held.elements()))
            in_limits = tuple(int(bool({ref[0] for ref in taken} & names)) for names, _ in limits)
            ends.append((tuple(carried[k] for k in keys), taken, in_limits))
        capped = sorted(ref for ref, cap in caps.items() if cap is not None)
        # model by model: every (weapons held, models taking each capped entry, models in
        # each option limit) the first k models can reach, each within its entries' counts
        states = {((0,) * len(keys), (0,) * len(capped), (0,) * len(limits))}
        for _ in range(n):
            states = {
                (
                    tuple(a + b for a, b in zip(vec, held, strict=True)),
                    tuple(u + (ref in taken) for u, ref in zip(used, capped, strict=True)),
                    tuple(a + b for a, b in zip(pooled, in_limits, strict=True)),
                )
                for vec, used, pooled in states
                for held, taken, in_limits in ends
                if all(u + (ref in taken) <= caps[ref] for u, ref in zip(used, capped, strict=True))
            }
        per_type.append({(vec, pooled) for vec, _, pooled in states})
    out = set()
    for combo in itertools.product(*per_type):
        pooled = [sum(p[1][i] for p in combo) for i in range(len(limits))]
        if all(x <= most for x, (_, most) in zip(pooled, limits, strict=True)):
            out.add(tuple(sum(p[0][i] for p in combo) for i in range(len(keys))))
    return out


def _agree(ds: Datasheet, counts: dict[str, int], size: int, names: list[str], most: int) -> int:
    keys = [_weapon_key(ds, n) for n in names]
    can = _achievable(ds, counts, size, keys)
    checked = 0
    for values in itertools.product(range(most + 1), repeat=len(keys)):
        want = {k: v for k, v in zip(keys, values, strict=True) if v}
        if not want:
            continue
        brute = any(all(c >= v for c, v in zip(vec, values, strict=True)) for vec in can)
        got = assign(ds, counts, want, size, counting=CARRYING)
        assert (got is not None) == brute, (ds.name, want)
        checked += 1
    return checked


def test_search_agrees_with_brute_force_synthetic(tmp_path: Path) -> None:
    path = tmp_path / "combiners.yaml"
    path.write_text(SYNTHETIC, encoding="utf-8")
    ds = load_datasheet(path)
    counts = {"Trooper": 4, "Leader": 1}
    names = ["plasma", "flamer", "cannon", "launcher", "sword", "fist", "grenade"]
    assert _agree(ds, counts, 5, names, 1) == 2**7 - 1
    assert _agree(ds, counts, 5, ["plasma", "sword", "launcher", "flamer"], 2) == 3**4 - 1
    assert _agree(ds, counts, 5, ["rifle", "launcher", "cannon"], 3) == 4**3 - 1
    few = {"Trooper": 1, "Leader": 1}  # two models: what one model combines shows
    assert _agree(ds, few, 5, names, 1) == 2**7 - 1
    assert _agree(ds, few, 5, ["flamer", "cannon", "launcher", "sword"], 2) == 3**4 - 1
    assert _agree(ds, {"Trooper": 1}, 5, names, 2) == 3**7 - 1


def test_synthetic_figures_by_hand(tmp_path: Path) -> None:
    """Worked out from the file: the Trooper's plasma (1 model) and swords (2 models) combine
    on one model, but the plasma's count still caps it at 1; the launcher needs a rifle, so
    not with a flamer on one model; a Leader takes a fist and a launcher together."""
    path = tmp_path / "combiners.yaml"
    path.write_text(SYNTHETIC, encoding="utf-8")
    ds = load_datasheet(path)
    troopers = {"Trooper": 4}
    assert assign(ds, troopers, {"plasma": 1, "sword": 1}, 5, counting=CARRYING) is not None
    assert assign(ds, troopers, {"plasma": 2}, 5, counting=CARRYING) is None
    assert assign(ds, troopers, {"sword": 3}, 5, counting=CARRYING) is None
    one = {"Trooper": 1}
    assert assign(ds, one, {"plasma": 1, "sword": 1, "cannon": 1}, 5, counting=CARRYING)
    # the launcher needs the rifle: with the flamer that keeps it (option 9), not with the
    # cannon that takes it away (option 2)
    assert assign(ds, one, {"flamer": 1, "launcher": 1}, 5, counting=CARRYING)
    assert assign(ds, one, {"cannon": 1, "launcher": 1}, 5, counting=CARRYING) is None
    # the grenade and the fist are one option's items, though neither takes away the other's
    assert assign(ds, one, {"grenade": 1, "sword": 1}, 5, counting=CARRYING)
    assert assign(ds, one, {"grenade": 1, "fist": 1}, 5, counting=CARRYING) is None
    # two options taking away the same rifle: not on one model
    assert assign(ds, {"Leader": 1}, {"flamer": 1, "cannon": 1}, 5, counting=CARRYING) is None
    # a flamer for the rifle (option 2) and one for the pistol (option 9): two on one model,
    # a third nowhere (option 2's limit is 1 model of 5, option 9's count 1)
    assert assign(ds, one, {"flamer": 2}, 5, counting=CARRYING)
    assert assign(ds, one, {"flamer": 2, "rifle": 1}, 5, counting=CARRYING) is None
    assert assign(ds, {"Trooper": 4}, {"flamer": 3}, 5, counting=CARRYING) is None
    assert assign(ds, {"Trooper": 2}, {"flamer": 2}, 5, counting=CARRYING)
    leader = {"Leader": 1}
    assert assign(ds, leader, {"fist": 1, "launcher": 1}, 5, counting=CARRYING)
    assert assign(ds, leader, {"fist": 1, "sword": 1}, 5, counting=CARRYING) is None
    assert assign(ds, leader, {"fist": 1, "flamer": 1}, 5, counting=CARRYING)
    assert assign(ds, leader, {"flamer": 1, "launcher": 1}, 5, counting=CARRYING) is None


@pytest.mark.parametrize(
    ("edition", "name", "counts", "size", "weapons", "most"),
    [
        (
            "10",
            "Redemptor Dreadnought",
            {"Redemptor Dreadnought": 1},
            1,
            [
                "Onslaught gatling cannon",
                "Twin storm bolter",
                "Macro plasma incinerator",
                "Heavy flamer",
                "Heavy onslaught gatling cannon",
                "Twin fragstorm grenade launcher",
            ],
            1,
        ),
        (
            "11",
            "Redemptor Dreadnought",
            {"Redemptor Dreadnought": 1},
            1,
            [
                "Onslaught gatling cannon",
                "Twin storm bolter",
                "Macro plasma incinerator",
                "Heavy flamer",
                "Heavy onslaught gatling cannon",
                "Twin fragstorm grenade launcher",
            ],
            1,
        ),
        (
            "11",
            "Intercessor Squad",
            {"Intercessor Sergeant": 1, "Intercessor": 4},
            5,
            [
                "Astartes grenade launcher",
                "Power fist",
                "Plasma pistol",
                "Hand flamer",
                "Bolt rifle",
                "Astartes chainsword",
            ],
            2,
        ),
    ],
)
def test_search_agrees_with_brute_force_on_real_datasheets(
    edition: str, name: str, counts: dict[str, int], size: int, weapons: list[str], most: int
) -> None:
    ds = _find(name, edition)
    assert any(e.option for es in ds.loadouts.values() for e in es), "no option numbers"
    assert _agree(ds, counts, size, weapons, most) == (most + 1) ** len(weapons) - 1


# ---------------------------------------------------------------------------------------------
# "All models ... can each ...": every model of the type or none (``whole``), generated in both
# editions, and checked for army lists too


def test_all_models_options_are_generated_whole() -> None:
    from wh40k_calc.importers.loadouts import parse_option

    every = parse_option(
        "All models in this unit can each have their gauss blaster replaced with 1 tesla carbine."
    )
    some = parse_option(
        "Any number of models can each have their gauss blaster replaced with 1 tesla carbine."
    )
    assert every is not None and every.whole and every.count is None
    assert some is not None and not some.whole and some.count is None


@pytest.mark.parametrize(("edition", "unit"), [("10", "Immortals"), ("11", "Immortals")])
def test_whole_generated_loadouts_are_all_or_none(edition: str, unit: str) -> None:
    """Immortals: "All models in this unit can each have their gauss blaster replaced with 1
    tesla carbine": 10 tesla carbines, or 10 gauss blasters, never 5 of each."""
    base = ("shoot", unit, "--edition", edition, "--target", "boyz")
    msg = _refusal(*base, "--weapon", "Gauss blaster x5", "--weapon", "Tesla carbine x5")
    assert msg.endswith(
        "--weapon: Immortals: the loadout 'tesla-carbine' is for every Immortal or none (all "
        "models of the unit swap together), so the unit cannot have Gauss blaster (its default "
        "equipment) and Tesla carbine (loadout 'tesla-carbine')"
    )
    out = _json(*base, "--weapon", "Tesla carbine x10")
    assert [(w["name"], w["count"]) for w in out["weapons"]] == [("Tesla carbine", 10)]


def test_edition_11_termagants_swap_together() -> None:
    """The fresh trial's case: edition 11's generated Termagants took 5 devourers beside 5
    fleshborers."""
    base = ("shoot", "termagants", "--edition", "11", "--target", "boyz")
    msg = _refusal(*base, "--weapon", "Termagant devourer x5", "--weapon", "Fleshborer x5")
    assert "are each for every Termagant or none" in msg
    assert "cannot have Fleshborer (its default equipment) and Termagant devourer" in msg


@pytest.mark.parametrize(
    ("edition", "axe"), [("10", "Heavy plasma axe – strike"), ("11", "Heavy plasma axe")]
)
@pytest.mark.parametrize("mauls", [3, 4])
def test_cthonian_beserks_swap_their_axes_together(edition: str, axe: str, mauls: int) -> None:
    """Cthonian Beserks: "All models in this unit can each have their heavy plasma axe
    replaced with 1 concussion maul". The fresh trial's 3 mauls and 2 axes (4 and 1) were
    accepted: the mole grenade launcher's option lists the axe its model keeps, which read as
    another way to carry an axe. 5 mauls (all of them) still fight."""
    base = ("fight", "cthonian beserks", "--edition", edition, "--models", "5")
    weapons = ("--weapon", f"Concussion maul x{mauls}", "--weapon", f"{axe} x{5 - mauls}")
    msg = _refusal(*base, "--target", "boyz", *weapons)
    assert msg.endswith(
        "--weapon: Cthonian Beserks: the loadout 'concussion-maul' is for every Cthonian "
        f"Beserk or none (all models of the unit swap together), so the unit cannot have {axe} "
        "(its default equipment) and Concussion maul (loadout 'concussion-maul')"
    )
    out = _json(*base, "--target", "boyz", "--weapon", "Concussion maul x5")
    assert [(w["name"], w["count"]) for w in out["weapons"]] == [("Concussion maul", 5)]


def test_army_lists_check_whole_loadouts() -> None:
    """An army list with 5 Termagant devourers and 5 fleshborers (the curated Termagants'
    ``whole`` devourers) is over the wargear limits, said with ``--weapon``'s reason; 10 of
    either is not."""
    from test_lists_resolve import _gw

    from wh40k_calc.lists.detect import parse_bytes
    from wh40k_calc.lists.resolve import resolve_army

    def row(devourers: int, fleshborers: int):
        text = "Termagants (60 Points)\n  • 10x Termagant\n"
        if devourers:
            text += f"     ◦ {devourers}x Termagant devourer\n"
        if fleshborers:
            text += f"     ◦ {fleshborers}x Fleshborer\n"
        return resolve_army(parse_bytes(_gw(text, "Tyranids"), "t"), CAT).units[0]

    mixed = row(5, 5)
    assert mixed.beyond_options == (
        "the loadouts 'devourers' and 'spinefists' are each for every Termagant or none (all "
        "models of the unit swap together), so the unit cannot have Fleshborer (its default "
        "equipment) and Termagant devourer (loadout 'devourers')",
    )
    assert any("is over our data's wargear limits" in w for w in mixed.warnings)
    assert row(10, 0).beyond_options == () and row(0, 10).beyond_options == ()


SHIPPED = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_every_way_one_model_takes_separate_options_is_accepted() -> None:
    """Over both editions' generated datasheets with option numbers: every equipment one model
    reaches by taking its options one after the other (:func:`_model_ends`, the brute force's
    own) is accepted by the search for that one model, counted as an army list counts what it
    carries, at the largest size (no false refusals). Entries with ``replaces`` or
    ``instead_of`` are left out (the brute force takes every entry from ``equipped``)."""
    checked = 0
    for folder in ("datasheets-generated", "datasheets-generated-11"):
        for path in sorted((SHIPPED / folder).rglob("*.yaml")):
            if "unit-rules" in path.parts:
                continue
            ds = load_datasheet(path)
            entries = [e for es in ds.loadouts.values() for e in es]
            if not any(e.option for e in entries):
                continue
            largest = max(ds.sizes, key=lambda s: s.total)
            if any(lim.models_for(largest.total) == 0 for lim in ds.option_limits):
                continue
            for m in ds.models:
                mine = [e for e in entries if norm_name(e.model) == m.key]
                if not largest.count(m.name) or any(e.replaces or e.instead_of for e in mine):
                    continue
                for held, taken in _model_ends(ds, m, largest.total):
                    if len(taken) < 2:
                        continue
                    want = {k: n for k, n in _held(ds, tuple(held.elements())).items() if n}
                    got = assign(ds, {m.name: 1}, want, largest.total, counting=CARRYING)
                    assert got is not None, (path.name, m.name, sorted(taken))
                    checked += 1
    assert checked > 1000, checked

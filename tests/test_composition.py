"""``--weapon`` checks the unit's composition (wh40k_calc/composition/, units.build_unit).

The rule we implement (DATASHEET_FORMAT.md, equipment and loadouts): a model uses a combination
of weapons only if one of its equipment options lists them together — its model type's
``equipped`` or a loadout entry's ``equipped`` for its type — as many of each as the option
lists; a loadout entry's ``count`` caps how many models take it, ``min_unit_size`` the units it
applies to. The search is checked against a brute-force enumeration of every way to give each
model one option, and the refusals against counts worked out by hand.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from helpers import SWEEP, sample
from typer.testing import CliRunner

from wh40k_calc.attack_sets import CARRYING
from wh40k_calc.catalog import Catalog, _load_cached
from wh40k_calc.cli import app
from wh40k_calc.composition import assign, wanted_by_kits
from wh40k_calc.datasheet import Datasheet, Weapon, load_datasheet
from wh40k_calc.selection import SelectionError, UnitChoice
from wh40k_calc.units import ModelGroup, _equip, build_unit

CAT = Catalog(use_env=False, home=None)
LOOTAS = CAT.find("lootas")


def refused(choice: UnitChoice) -> str:
    with pytest.raises(SelectionError) as info:
        build_unit(choice, "attacker")
    return str(info.value)


def test_lootas_twelve_weapons_in_ten_models_refused() -> None:
    """The fresh-user trial: 8 Deffguns, 2 Big shootas and 2 Rokkit launchas. Lootas carry
    Deffguns; only the 2 Spanners carry a Big shoota (default) or a Rokkit launcha (loadout),
    never both (no option lists the two together): 4 such weapons need 4 Spanners."""
    specs = (("Deffgun", 8), ("Big shoota", 2), ("Rokkit launcha", 2))
    assert refused(UnitChoice(LOOTAS, 10, None, specs)) == (
        "--weapon: this unit of 10 models can carry only 2 of Big shoota and Rokkit launcha "
        "at once (Spanner ×2); Big shoota x2 and Rokkit launcha x2 need 4"
    )
    assert refused(UnitChoice(LOOTAS, None, None, specs)) == (
        "--weapon: no listed size of Lootas can carry them: the largest (10 models) can carry "
        "only 2 of Big shoota and Rokkit launcha at once (Spanner ×2); Big shoota x2 and "
        "Rokkit launcha x2 need 4"
    )


def test_lootas_one_spanner_each_way_accepted() -> None:
    """One Spanner keeps its Big shoota, the other takes a Rokkit launcha (any number of
    Spanners may swap): 8 + 1 + 1 weapons on 10 models."""
    specs = (("Deffgun", 8), ("Big shoota", 1), ("Rokkit launcha", 1))
    unit = build_unit(UnitChoice(LOOTAS, None, None, specs), "attacker")
    got = [(g.profile.name, g.count, [w.name for w in g.weapons]) for g in unit.groups]
    assert got == [
        ("Loota", 8, ["Deffgun"]),
        ("Spanner", 1, ["Big shoota"]),
        ("Spanner", 1, ["Rokkit launcha"]),
    ]
    assert unit.models == 10


def test_cli_refuses_with_the_reason() -> None:
    res = CliRunner().invoke(
        app,
        [
            *("shoot", "lootas", "--target", "boyz", "--models", "10"),
            *("--weapon", "Deffgun x8", "--weapon", "Big shoota x2"),
            *("--weapon", "Rokkit launcha x2"),
        ],
    )
    assert res.exit_code == 1
    assert "Big shoota x2 and Rokkit launcha x2 need 4" in res.output
    assert "Traceback" not in res.output


def test_a_model_carrying_two_of_a_weapon() -> None:
    """A Land Raider lists two godhammer lascannons: one model carries both (x2 accepted, as
    one group of 1 model with two lascannons), not three."""
    raider = CAT.find("land raider")
    unit = build_unit(UnitChoice(raider, None, None, (("Godhammer lascannon", 2),)), "attacker")
    assert [(g.count, len(g.weapons)) for g in unit.groups] == [(1, 2)]
    assert refused(UnitChoice(raider, None, None, (("Godhammer lascannon", 3),))) == (
        "--weapon: no listed size of Land Raider can carry them: the largest (1 model) can "
        "carry only 2 of Godhammer lascannon (Land Raider ×1, 2 in all); Godhammer lascannon "
        "x3 needs 3"
    )


def test_loadout_counts_cap_the_models() -> None:
    """Intercessor Squad: "for every 5 models, 1 model with a bolt rifle can also take an
    Astartes grenade launcher" (loadouts with count 1, and count 2 from 10 models)."""
    squad = CAT.find("intercessor squad")
    frag = "Astartes grenade launcher – frag"
    msg = refused(UnitChoice(squad, 5, None, ((frag, 2),)))
    # the Sergeant carries a bolt rifle too: the option's limit (1 model for every 5) is why
    assert msg.startswith(
        "--weapon: this unit of 5 models can give only 1 model (1 for every 5 models) one of "
        "the loadouts grenade-launcher, "
    )
    assert msg.endswith(f"(one wargear option); {frag} x2 needs it on 2 models")
    unit = build_unit(UnitChoice(squad, None, None, ((frag, 2),)), "attacker")
    assert unit.models == 10 and [g.count for g in unit.groups] == [2]


# ---------------------------------------------------------------------------------------------
# The search against brute force

SYNTHETIC = """name: Testers
faction: Testers
models:
  - {name: Trooper, M: 6, T: 4, Sv: 4, W: 1, Ld: 7, OC: 1, equipped: [rifle]}
  - {name: Gunner, M: 6, T: 4, Sv: 4, W: 1, Ld: 7, OC: 1, equipped: [cannon, rifle]}
sizes:
  - {models: {Trooper: 3, Gunner: 2}, points: 50}
weapons:
  - {name: Rifle, range: 24, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Cannon, range: 24, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Flamer, range: 12, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Launcher, range: 36, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Missile, range: 48, A: 1, skill: 4, S: 4, AP: 0, D: 1}
loadouts:
  flamers:
    - {model: Trooper, equipped: [flamer]}
  one-launcher:
    - {model: Trooper, count: 1, equipped: [launcher, rifle]}
  twin-flamers:
    - {model: Gunner, count: 1, equipped: [flamer, flamer]}
"""
# Missile: no option lists it, so any model may carry it with anything else.


def _synthetic(tmp_path: Path) -> Datasheet:
    path = tmp_path / "testers.yaml"
    path.write_text(SYNTHETIC, encoding="utf-8")
    return load_datasheet(path)


def _brute_force(ds: Datasheet, counts: dict[str, int], need: dict[str, int]) -> bool:
    """Every way to give each model one option (respecting the counts), written out."""
    per_type = []
    for m in ds.models:
        opts = [(m.equipped, None)]
        opts += [
            (e.equipped, e.count) for es in ds.loadouts.values() for e in es if e.model == m.name
        ]
        per_type.append((counts[m.name], opts))
    models = [(t, i) for t, (n, _) in enumerate(per_type) for i in range(n)]
    choices = [range(len(per_type[t][1])) for t, _ in models]
    for pick in itertools.product(*choices):
        used: dict[tuple[int, int], int] = {}
        carried: dict[str, int] = {}
        for (t, _), j in zip(models, pick, strict=True):
            used[(t, j)] = used.get((t, j), 0) + 1
            for k in per_type[t][1][j][0]:
                carried[k] = carried.get(k, 0) + 1
        if any(
            per_type[t][1][j][1] is not None and n > per_type[t][1][j][1]
            for (t, j), n in used.items()
        ):
            continue
        if all(carried.get(k, 0) >= n for k, n in need.items()):
            return True
    return False


def test_search_agrees_with_brute_force(tmp_path: Path) -> None:
    ds = _synthetic(tmp_path)
    counts = {"Trooper": 3, "Gunner": 2}
    keys = ["rifle", "cannon", "flamer", "launcher"]
    checked = 0
    for values in itertools.product(range(4), range(3), range(5), range(3)):
        need = {k: n for k, n in zip(keys, values, strict=True) if n}
        if not need:
            continue
        got = assign(ds, counts, need, 5)
        assert (got is not None) == _brute_force(ds, counts, need), need
        if got is not None:  # the assignment carries exactly what was asked
            for k, n in need.items():
                assert sum(models * each for _, models, each in got[k]) == n
        checked += 1
    assert checked == 4 * 3 * 5 * 3 - 1


def test_weapon_no_option_lists_goes_to_any_model(tmp_path: Path) -> None:
    ds = _synthetic(tmp_path)
    assert assign(ds, {"Trooper": 3, "Gunner": 2}, {"missile": 5, "rifle": 5}, 5) is not None


def test_two_flamers_on_one_gunner(tmp_path: Path) -> None:
    """The twin-flamers option lists the flamer twice: one Gunner carries two (a group of one
    model with two flamers); 3 Troopers + 1 Gunner carry at most 5."""
    ds = _synthetic(tmp_path)
    unit = build_unit(UnitChoice(ds, None, None, (("Flamer", 5),)), "attacker")
    assert [(g.profile.name, g.count, len(g.weapons)) for g in unit.groups] == [
        ("Trooper", 3, 1),
        ("Gunner", 1, 2),
    ]
    assert refused(UnitChoice(ds, None, None, (("Flamer", 6),))) == (
        "--weapon: no listed size of Testers can carry them: the largest (5 models) can carry "
        "only 5 of Flamer (Trooper ×3, Gunner ×1, 2 in all); Flamer x6 needs 6"
    )


# ---------------------------------------------------------------------------------------------
# No false refusals on the shipped data


def _one_attack_set(g: ModelGroup) -> list[Weapon]:
    """One set of a group's weapons its models may attack with, by the rules text (10th
    edition: Core rules: Pistol, "select one of its profiles"; seeds README, weapons a model
    uses; edition 11: 04.01, 04.01.03, 24.07, 24.11), worked out here: the ranged weapons other
    than Pistols (all of them for a MONSTER or VEHICLE; the Pistols when there is nothing
    else), each copy of a multi-profile weapon with its first profile, and the first melee
    weapon without [EXTRA ATTACKS] with every [EXTRA ATTACKS] weapon."""
    big = {"MONSTER", "VEHICLE"} & (g.profile.keywords | g.datasheet.all_keywords())
    ranged = [w for w in g.weapons if not w.is_melee]
    others = [w for w in ranged if not w.abilities.pistol]
    shot = ranged if big or not others else others
    main = [w for w in g.weapons if w.is_melee and not w.abilities.extra_attacks]
    extra = [w for w in g.weapons if w.is_melee and w.abilities.extra_attacks]
    first: dict[tuple[str, bool], str] = {}
    out = []
    for w in [*shot, *main[:1], *extra]:
        family = (w.profile_of or w.key, w.is_melee)
        if first.setdefault(family, w.key) == w.key:
            out.append(w)
    return out


@pytest.mark.sweep
def test_every_shipped_equipment_is_accepted() -> None:
    """Each datasheet's default equipment and each loadout, at every listed size, is accepted:
    carried (every weapon, by weapon, as an army list counts it) and attacking (one attack
    set of each group, :func:`_one_attack_set`, with --weapon's counts). Before the rules of
    which weapons attack together were checked, this asked for every profile of every weapon
    at once (a Pistol and a boltgun, both profiles of a plasma gun, on one model), which the
    rules text forbids."""
    checked = 0
    # make test: a fixed sample of the datasheets (every faction, every curated file); make
    # test-slow: all of them
    entries = CAT.entries()
    curated = [str(e.path) for e in entries if e.kind == "curated"]
    for e in sample(entries, 6, key=lambda e: str(e.path), group=lambda e: e.faction, keep=curated):
        ds = _load_cached(e.path)
        for loadout in [None, *ds.loadouts]:
            for size in ds.sizes:
                counts = dict(size.composition)
                try:
                    groups = _equip(ds, counts, loadout, size.total)
                except SelectionError:
                    continue  # a loadout this size cannot take
                need: dict[str, int] = {}
                for g in groups:
                    for w in _one_attack_set(g):
                        need[w.key] = need.get(w.key, 0) + g.count
                assert assign(ds, counts, need, size.total) is not None, (ds.name, loadout)
                kits = [(g.count, tuple(w.key for w in g.weapons)) for g in groups]
                carried = wanted_by_kits(ds, kits)
                fits = assign(ds, counts, carried, size.total, counting=CARRYING)
                assert fits is not None, (ds.name, loadout)
                checked += 1
    assert checked > (5000 if SWEEP else 5000 // 6)  # the sample: about one datasheet in six


BY_COUNT = """name: Squad
faction: Testers
models:
  - name: Trooper
    M: 6
    T: 4
    Sv: 4
    W: 1
    Ld: 7
    OC: 1
    equipped: [rifle, knife]
    equipped_by_count:
      - {count: 1, equipped: [rifle, heavy bolter]}
sizes:
  - {models: {Trooper: 5}, points: 50}
weapons:
  - {name: Rifle, range: 24, A: 1, skill: 4, S: 4, AP: 0, D: 1}
  - {name: Heavy bolter, range: 36, A: 3, skill: 4, S: 5, AP: -1, D: 2}
  - {name: Knife, range: melee, A: 1, skill: 4, S: 3, AP: 0, D: 1}
"""


def test_equipment_of_some_models_only(tmp_path: Path) -> None:
    """ "1 Trooper is equipped with a rifle and a heavy bolter" (equipped_by_count): one model
    carries the heavy bolter; all five carry a rifle (four by ``equipped``, one by the count);
    the knife only the four."""
    path = tmp_path / "squad.yaml"
    path.write_text(BY_COUNT, encoding="utf-8")
    ds = load_datasheet(path)
    ok = build_unit(UnitChoice(ds, None, None, (("Rifle", 5), ("Heavy bolter", 1))), "attacker")
    assert sum(g.count for g in ok.groups if g.weapons[0].name == "Rifle") == 5
    assert refused(UnitChoice(ds, None, None, (("Heavy bolter", 2),))) == (
        "--weapon: no listed size of Squad can carry them: the largest (5 models) can carry "
        "only 1 of Heavy bolter (Trooper ×1); Heavy bolter x2 needs 2"
    )
    assert refused(UnitChoice(ds, None, None, (("Knife", 5),))) == (
        "--weapon: no listed size of Squad can carry them: the largest (5 models) can carry "
        "only 4 of Knife (Trooper ×4); Knife x5 needs 5"
    )


@pytest.mark.parametrize("edition", ["10", "11"])
def test_two_separate_options_offering_one_weapon_add_up(edition: str) -> None:
    """Battle Sisters Squad: two separate wargear options each let 1 Battle Sister swap her
    boltgun for one of a list that holds a meltagun and an artificer-crafted storm bolter
    (edition 10: datasheet 000000903's options 3 and 4; edition 11 the same two), so a unit
    of 10 may field 2 meltaguns (or 2 storm bolters), never 3. Both were refused with "can
    carry only 1 of Meltagun": the same swap in two loadouts kept the larger cap, 1."""

    def shoot(*weapons: str) -> object:
        return CliRunner().invoke(
            app,
            [
                *("shoot", "battle-sisters-squad", "--edition", edition),
                *("--target", "leman russ battle tank"),
                *(a for w in weapons for a in ("--weapon", w)),
            ],
        )

    for special in ("meltagun", "artificer-crafted storm bolter"):
        res = shoot(f"{special} x2", "boltgun x8")
        assert res.exit_code == 0, res.output
    res = shoot("meltagun x3", "boltgun x7")
    assert res.exit_code == 1
    assert "can carry only 2 of Meltagun" in res.output and "Meltagun x3 needs 3" in res.output


def test_a_refusal_names_the_optional_kind_that_carries_the_weapon() -> None:
    """Edition 11's Victrix Honour Guard: only its optional Chapter Champion (fielded in place
    of a Victrix Honour Guard, at most 1) carries blades of honour, so 2 are refused naming the
    Chapter Champion; the refusal blamed "(Victrix Honour Guard ×1)", a model kind that has
    none."""
    res = CliRunner().invoke(
        app,
        [
            *("shoot", "victrix honour guard", "--edition", "11", "--target", "boyz"),
            *("--weapon", "blades of honour x2"),
        ],
    )
    assert res.exit_code == 1
    assert (
        "can carry only 1 of Blades of honour (Chapter Champion ×1); Blades of honour x2 needs 2"
        in res.output.replace("\n", " ")
    ), res.output

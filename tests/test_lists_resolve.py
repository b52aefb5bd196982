"""Resolving a list to our datasheets: units by name (the catalog's rules, then the folds a
list needs, each said), factions and allies, sizes and damaged sizes, model types, weapons
and wargear, Attached units as the list says, the default loadout where nothing matched,
detachment effects, the edition, and the summary. Each expected value is what the list and
our datasheets say, read by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli

from wh40k_calc.catalog import Catalog
from wh40k_calc.lists.detect import parse_bytes, read_list
from wh40k_calc.lists.model import UnitCountError
from wh40k_calc.lists.resolve import resolve_army
from wh40k_calc.selection import SelectionError, UnitChoice
from wh40k_calc.units import build_unit

DATA = Path(__file__).parent / "data" / "lists"


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return Catalog(use_env=False, home=None)


# the app's last line: without it, a list whose units fall short of its total is cut short
APP_FOOTER = "\n\nExported with App Version: v2.3.0 (1), Data Version: v912\n"


def _gw(units: str, faction: str = "Orks", extra: str = "") -> bytes:
    """A list in the app's text layout (edition 10: no Detachment Points)."""
    head = f"T (100 Points)\n\n{faction}\nStrike Force (2000 Points)\nWar Horde\n\n{extra}"
    return (head + "OTHER DATASHEETS\n\n" + units + APP_FOOTER).encode()


def _row(resolved, name: str):
    return next(u for u in resolved.units if u.listed[0].name == name)


def _groups(choice) -> dict[str, list[tuple[int, list[str]]]]:
    """The built unit as model name -> [(models, weapon names)]."""
    out: dict[str, list] = {}
    for g in build_unit(choice, "attacker").groups:
        out.setdefault(g.profile.name, []).append((g.count, sorted(w.name for w in g.weapons)))
    return out


def test_the_waaagh_as_listed(cat: Catalog) -> None:
    r = resolve_army(read_list(str(DATA / "waaagh.gw-app.txt")), cat)
    assert r.edition == "11" and "Detachment Points" in r.edition_source
    assert r.summary() == "5/5 units, 16/17 weapons resolved (1 wargear line not weapons)"
    assert not r.complete
    boss = r.units[0]
    assert boss.name == "Boyz led by Warboss" and boss.positions == (1, 2)
    assert boss.points == 95 + 85 and boss.models == 11
    assert _groups(boss.choice) == {
        "Boy": [(9, ["Choppa", "Slugga"])],
        "Boss Nob": [(1, ["Power klaw", "Slugga"])],
        # not its Big choppa; the edition-11 Warboss (data 912) carries "Twin sluggas"
        "Warboss": [(1, ["Kombi-weapon", "Power klaw", "Twin sluggas"])],
    }
    lootas = _row(r, "Lootas")
    assert _groups(lootas.choice) == {
        "Loota": [(4, ["Close combat weapon", "Deffgun"])],
        "Spanner": [(1, ["Big shoota", "Close combat weapon"])],
    }
    banner = next(w for w in lootas.weapons if w.listed == "Waaagh! banner")
    assert banner.status == "wargear"
    trukk = _row(r, "Trukk")
    ball = next(w for w in trukk.weapons if w.listed == "Wrecking ball")
    assert ball.status == "unresolved" and "Wreckin’ ball" in ball.candidates  # never taken
    assert _groups(trukk.choice) == {"Trukk": [(1, ["Big shoota", "Spiked wheels"])]}
    dread = _row(r, "Deff Dread")
    assert _groups(dread.choice) == {
        "Deff Dread": [(1, ["Big shoota", "Big shoota", "Dread klaw", "Dread klaw", "Stompy feet"])]
    }


def test_every_format_of_the_waaagh_resolves_alike(cat: Catalog) -> None:
    """The same army in every format becomes the same units with the same weapons (an
    Attached unit where the format says so)."""
    import yaml

    formats = yaml.safe_load((DATA / "waaagh.expected.yaml").read_text(encoding="utf-8"))
    seen = set()
    for name in formats["formats"]:
        # one edition's datasheets for all (some formats say edition 11, the others do not)
        r = resolve_army(read_list(str(DATA / name)), cat, "11")
        assert r.unit_counts()["unresolved"] == 0, name
        models: dict[str, str] = {}  # model type -> its groups, over every row
        for u in r.units:
            for model, groups in _groups(u.choice).items():
                models[model] = str(groups)
        seen.add(tuple(sorted(models.items())))
        attached = [u for u in r.units if u.attached]
        assert len(attached) == (1 if formats["formats"][name]["attached"] else 0), name
    assert len(seen) == 1


def test_unit_name_folds_are_said(cat: Catalog) -> None:
    units = (
        "Killa Kan (50 Points)\n  • 1x Kan klaw\n\nNob (30 Points)\n  • 1x Power klaw\n\n"
        "Big Mek Dakkarig (135 Points)\n  • 1x Blitzkannon\n"
    )
    r = resolve_army(parse_bytes(_gw(units), "t"), cat)
    kans = _row(r, "Killa Kan")
    assert kans.status == "resolved" and kans.name == "Killa Kans"
    assert kans.folds == ("'Killa Kan' read as 'Killa Kans' (as the plural)",)
    nob = _row(r, "Nob")
    assert nob.status == "resolved" and nob.name == "Nobz"
    assert nob.folds == ("'Nob' read as 'Nobz' (as the plural)",)
    mek = _row(r, "Big Mek Dakkarig")  # none of ours: unresolved, the closest names said
    assert mek.status == "unresolved" and mek.choice is None
    assert "Big Mek" in mek.candidates and "did you mean" in (mek.reason or "")


def test_suggestions_come_from_the_edition_the_list_resolves_in(cat: Catalog) -> None:
    """A misspelt unit of an edition-11 list (the edition read from its Detachment Points)
    is answered from the edition-11 datasheets: Big Mek Dakkarig is one
    (datasheets-generated-11/orks/big-mek-dakkarig.yaml), Big Mek on Warbike only edition 10's
    (datasheets-generated/orks/big-mek-on-warbike.yaml)."""
    text = (  # the app's edition-11 layout: a detachment with its Detachment Points
        "T (135 Points)\n\nOrks\nWar Horde (1 Detachment Points)\nStrike Force (2,000 Points)"
        "\n\nCHARACTERS\n\nBig Mek Dakarig (135 Points)\n  • 1x Blitzkannon\n" + APP_FOOTER
    )
    r = resolve_army(parse_bytes(text.encode(), "t"), cat)
    assert r.edition == "11" and r.edition_source != "--edition"
    mek = _row(r, "Big Mek Dakarig")
    assert mek.status == "unresolved"
    assert mek.candidates[0] == "Big Mek Dakkarig"
    assert "Big Mek on Warbike" not in mek.candidates


def test_the_emperors_champion_in_a_black_templars_list(cat: Catalog) -> None:
    units = "Emperor's Champion (100 Points)\n  • 1x Bolt pistol\n  • 1x Black Sword\n"
    r = resolve_army(parse_bytes(_gw(units, "Black Templars"), "t"), cat)
    (champ,) = r.units
    assert champ.status == "resolved"
    assert (
        champ.folds[0] == "\"Emperor's Champion\" read as 'The Emperor’s Champion' (adding 'The')"
    )
    sword = next(w for w in champ.weapons if w.listed == "Black Sword")
    assert sword.weapons == ("Black Sword – strike", "Black Sword – sweep")  # both profiles
    assert r.faction.faction == "Space Marines" and r.faction.keyword == "BLACK TEMPLARS"


def test_a_chapters_list_refuses_another_chapters_datasheet(cat: Catalog) -> None:
    units = "Emperor's Champion (100 Points)\n  • 1x Bolt pistol\n"
    r = resolve_army(parse_bytes(_gw(units, "Space Wolves"), "t"), cat)
    (champ,) = r.units
    assert champ.status == "unresolved"
    assert "Black Templars datasheet; the list is Space Wolves" in (champ.reason or "")


def test_another_factions_unit_is_never_taken_unless_asked(cat: Catalog) -> None:
    units = "Khorne Berzerkers (90 Points)\n  • 10x Khorne Berzerker\n     ◦ 10x Chainblade\n"
    data = _gw(units)
    r = resolve_army(parse_bytes(data, "t"), cat)
    (row,) = r.units
    assert row.status == "unresolved" and "not an Orks datasheet" in (row.reason or "")
    assert set(row.candidates) == {
        "Chaos Space Marines/Khorne Berzerkers",
        "World Eaters/Khorne Berzerkers",
    }
    r = resolve_army(parse_bytes(data, "t"), cat, allies=("World Eaters",))
    (row,) = r.units
    assert row.status == "ally" and row.faction == "World Eaters"


def _allied_nurglings(faction: str) -> bytes:
    text = _gw("", faction).decode().removesuffix(APP_FOOTER) + (
        "ALLIED UNITS\n\nNurglings (40 Points)\n  • 3x Nurgling Swarm\n"
        "     ◦ 3x Diseased claws and teeth\n" + APP_FOOTER
    )
    return text.encode()


def test_allies_the_list_marks(cat: Catalog) -> None:
    """Nurglings are a datasheet of Chaos Daemons and of Death Guard. An army may include
    another faction's units only as an army rule allows (edition-11 data 912): a Chaos
    Knights army Chaos Daemons units (Daemonic Pact, the Chaos Daemons' army rule), and none
    of Death Guard; so a Chaos Knights list's allied Nurglings are Chaos Daemons (the trial:
    unresolved, "give --allies"). An Orks army has no such rule: still unresolved, with the
    choices, until --allies says which."""
    r = resolve_army(parse_bytes(_allied_nurglings("Chaos Knights"), "t"), cat)
    (row,) = r.units
    assert row.status == "ally" and row.faction == "Chaos Daemons"
    assert row.folds[0] == (
        "'Nurglings' read as Chaos Daemons/Nurglings: an ally of a Chaos Knights army by "
        "Daemonic Pact (Chaos Daemons army rule)"
    )
    r = resolve_army(parse_bytes(_allied_nurglings("Orks"), "t"), cat)
    (row,) = r.units
    assert row.status == "unresolved"  # Chaos Daemons and Death Guard both have Nurglings
    assert "several factions" in (row.reason or "") and "--allies" in (row.reason or "")
    r = resolve_army(parse_bytes(_allied_nurglings("Orks"), "t"), cat, allies=("Chaos Daemons",))
    (row,) = r.units
    assert row.status == "ally" and row.faction == "Chaos Daemons"
    r = resolve_army(  # --allies wins over the rules
        parse_bytes(_allied_nurglings("Chaos Knights"), "t"), cat, allies=("Death Guard",)
    )
    assert r.units[0].status == "ally" and r.units[0].faction == "Death Guard"


def test_the_ally_rules_as_data() -> None:
    """The pairs, by hand from the army rules (edition-11 data 912): Daemonic Pact for Chaos
    Knights and the Heretic Astartes factions; Dreadblades for the other Chaos factions;
    Freeblades and Assigned Agents for Imperium factions; the Drukhari's Harlequins and
    Anhrathe; the Cults of the Dark Gods; Brood Brothers only with its detachment."""
    from wh40k_calc.lists.allies import ally_factions

    assert ally_factions("Chaos Knights") == ("Chaos Daemons",)
    assert ally_factions("Death Guard") == ("Chaos Daemons", "Chaos Knights")
    assert ally_factions("Chaos Space Marines") == (
        "Chaos Daemons",
        "Chaos Knights",
        "World Eaters",
        "Thousand Sons",
        "Death Guard",
        "Emperor’s Children",
    )
    assert ally_factions("Chaos Daemons") == ("Chaos Knights",)
    assert ally_factions("Space Marines") == ("Imperial Knights", "Imperial Agents")
    assert ally_factions("Imperial Knights") == ("Imperial Agents",)
    assert ally_factions("Drukhari") == ("Aeldari",)
    assert ally_factions("Genestealer Cults") == ()
    assert ally_factions("Genestealer Cults", ("Brood Brothers Auxilia",)) == ("Astra Militarum",)
    assert ally_factions("Orks") == () and ally_factions(None) == ()


def test_sizes_damaged_and_impossible(cat: Catalog) -> None:
    units = (
        "Boyz (80 Points)\n  • 1x Boss Nob\n     ◦ 1x Big choppa\n"
        "  • 14x Boy\n     ◦ 14x Choppa\n\n"
        "Lootas (200 Points)\n  • 11x Loota\n     ◦ 11x Deffgun\n  • 1x Spanner\n"
        "     ◦ 1x Big shoota\n"
    )
    boyz_only = units.split("Lootas")[0]
    r = resolve_army(parse_bytes(_gw(boyz_only), "t"), cat)
    boyz = _row(r, "Boyz")
    assert boyz.status == "resolved"
    assert any("no 15-model size (sizes 10, 20)" in w for w in boyz.warnings)
    assert build_unit(boyz.choice, "attacker").models == 15
    assert build_unit(boyz.choice, "attacker").starting_strength == 20
    # 12 Lootas, more than the largest size (10): the list is refused naming the line (it
    # was an unresolved unit and the army ran without it)
    line = 1 + _gw(units).decode().splitlines().index("Lootas (200 Points)")
    with pytest.raises(UnitCountError) as info:
        resolve_army(parse_bytes(_gw(units), "t"), cat)
    assert str(info.value) == (
        f"line {line}: 'Lootas' counts 12 models, more than any size of Lootas (sizes 5, 10); "
        "a count is a whole number from 1 up to the largest size's"
    )


def test_the_lists_composition_where_the_data_has_another(cat: Catalog) -> None:
    units = (
        "Boyz (80 Points)\n  • 2x Boss Nob\n     ◦ 2x Power klaw\n  • 8x Boy\n     ◦ 8x Choppa\n"
    )
    r = resolve_army(parse_bytes(_gw(units), "t"), cat)
    (boyz,) = r.units
    assert any("the list's models (8 Boy, 2 Boss Nob)" in w for w in boyz.warnings)
    assert _groups(boyz.choice) == {
        "Boy": [(8, ["Choppa"])],
        "Boss Nob": [(2, ["Power klaw"])],
    }


def test_an_attachment_our_data_refuses_is_two_units(cat: Catalog) -> None:
    units = (
        "Attached unit 1\n\nWarboss (75 Points)\n  • Attached as: Leader (Character)\n"
        "  • 1x Big choppa\n\nLootas (50 Points)\n  • Attached as: Bodyguard\n"
        "  • 4x Loota\n     ◦ 4x Deffgun\n  • 1x Spanner\n     ◦ 1x Big shoota\n"
    )
    r = resolve_army(parse_bytes(_gw(units), "t"), cat)
    assert [u.name for u in r.units] == ["Warboss", "Lootas"]
    assert all("our data refuses it (Warboss cannot lead Lootas" in u.warnings[0] for u in r.units)


def test_nothing_matched_takes_the_default_loadout(cat: Catalog) -> None:
    units = "Trukk (65 Points)\n  • 1x Spiked ram\n  • 1x Grabbin' klaw\n"
    r = resolve_army(parse_bytes(_gw(units), "t"), cat)
    (trukk,) = r.units
    assert trukk.default_loadout
    assert "no listed weapon is one of ours: it takes its default loadout" in trukk.warnings[0]
    assert _groups(trukk.choice) == {"Trukk": [(1, ["Big shoota", "Spiked wheels"])]}


def test_model_type_folds(cat: Catalog) -> None:
    units = (
        "Boyz (80 Points)\n  • 1x Nob\n     ◦ 1x Power klaw\n"
        "  • 9x Boyz w/ shoota\n     ◦ 9x Shoota\n     ◦ 9x Close combat weapon\n"
    )
    r = resolve_army(parse_bytes(_gw(units), "t"), cat)
    (boyz,) = r.units
    assert "Boyz: model 'Nob' read as Boss Nob" in boyz.folds
    assert (
        "Boyz: model 'Boyz w/ shoota' read as Boy (a loadout suffix dropped, as the singular)"
        in boyz.folds
    )
    assert _groups(boyz.choice) == {
        "Boy": [(9, ["Close combat weapon", "Shoota"])],
        "Boss Nob": [(1, ["Power klaw"])],
    }


def test_detachment_effects_and_edition(cat: Catalog) -> None:
    r = resolve_army(read_list(str(DATA / "waaagh.gw-app-flat.txt")), cat)
    assert r.edition == "10" and r.edition_source == "the default"
    assert r.effects.attacker == ("get-stuck-in",)  # War Horde's rule (attacker side)
    r = resolve_army(read_list(str(DATA / "waaagh.gw-app-flat.txt")), cat, edition="11")
    assert r.edition == "11" and r.edition_source == "--edition"
    r = resolve_army(read_list(str(DATA / "waaagh.gw-app.txt")), cat, edition="11")
    assert r.edition == "11" and not any("--edition" in n for n in r.notes)
    r = resolve_army(read_list(str(DATA / "waaagh.gw-app.txt")), cat)  # not given: the list's
    assert r.edition == "11" and r.edition_source.startswith("the list's")


def test_an_explicit_edition_the_list_contradicts_is_refused(cat: Catalog) -> None:
    """The fresh trial: ``--edition 10`` on an edition-11 list ran edition 11 with a note and
    exit 0. An option the player gave that the list contradicts is a usage error (exit 2)
    naming both editions; without ``--edition`` the list's edition is followed (above)."""
    from wh40k_calc.lists.model import EditionConflict

    with pytest.raises(
        EditionConflict, match="--edition 10 contradicts the list, which is an edition-11 list"
    ):
        resolve_army(read_list(str(DATA / "waaagh.gw-app.txt")), cat, edition="10")
    result = cli("army", DATA / "waaagh.gw-app.txt", "--show", "--edition", "10")
    assert result.exit_code == 2
    assert "--edition 10 contradicts the list, which is an edition-11 list" in result.output
    assert "give --edition 11" in result.output
    assert cli("army", DATA / "waaagh.gw-app.txt", "--show", "--edition", "11").exit_code == 0


def test_strict_exits_non_zero_when_something_did_not_resolve() -> None:
    result = cli("army", DATA / "waaagh.gw-app.txt", "--show", "--strict")
    assert result.exit_code == 1
    assert "--strict: not everything resolved (5/5 units, 16/17 weapons resolved" in result.output
    assert cli("army", DATA / "waaagh.gw-app.txt", "--show").exit_code == 0


def test_list_effects_come_from_the_effect_files() -> None:
    """The records of the list's faction and edition (effects/): a detachment's rules that
    change attacks, those that protect the unit listed as unused, an enhancement found by
    name (its kind in brackets dropped), none for a detachment without records."""
    from wh40k_calc.lists.effects_for import enhancement_effect, list_effects

    got = list_effects(("War Horde",), ("Proper Killy (Upgrade)",), "Orks", "11")
    assert "get-stuck-in" in got.attacker
    assert "enhancement Proper Killy (Upgrade) (no effect of ours)" not in got.not_modelled
    e = enhancement_effect("Proper Killy (Upgrade)", "Orks", "11")
    assert e is not None and e.id == "proper-killy" and e.edition == "11"
    green = list_effects(("Green Tide",), (), "Orks", "10")
    assert any(u.startswith("mob-mentality (Green Tide)") for u in green.unused)
    none = list_effects(("No Such Detachment",), (), "Orks", "11")
    assert none.not_modelled == ("detachment No Such Detachment (no effect of ours)",)
    assert list_effects(("War Horde",), (), "Unknown Faction", "11").attacker == ()


# ---------------------------------------------------------------------------------------------
# Weapon counts against the datasheet's wargear limits (the fresh trial: 5 assault cannons on
# Wolf Guard Terminators were taken without a word)


def _lootas(kmb: int) -> bytes:
    return _gw(
        "Lootas (100 Points)\n  • 8x Loota\n     ◦ 8x Deffgun\n     ◦ 8x Close combat weapon\n"
        f"  • 2x Spanner\n     ◦ {kmb}x Kustom mega-blasta\n     ◦ 2x Close combat weapon\n"
    )


def test_more_of_a_weapon_than_the_wargear_options_allow_is_said(cat: Catalog) -> None:
    """Seeds 001 (Lootas): a unit of 10 is 8 Lootas and 2 Spanners, and only a Spanner's big
    shoota may become a kustom mega-blasta, so at most 2 of them. Three are said (the reason
    is ``--weapon``'s, word for word), used as listed, and make the list incomplete; two are
    not said."""
    r = resolve_army(parse_bytes(_lootas(3), "t"), cat)
    (lootas,) = r.units
    why = (
        "this unit of 10 models can carry only 2 of Kustom mega-blasta (Spanner ×2); "
        "Kustom mega-blasta x3 needs 3"
    )
    assert lootas.status == "resolved" and lootas.beyond_options == (why,)
    assert any(why in w and "used as listed" in w for w in lootas.warnings)
    assert not r.complete and "1 unit over the wargear limits" in r.summary()
    assert _groups(lootas.choice)["Spanner"] == [
        (1, ["Close combat weapon", "Kustom mega-blasta", "Kustom mega-blasta"]),
        (1, ["Close combat weapon", "Kustom mega-blasta"]),
    ]
    lootas_ds = cat.find("Lootas", "Orks")
    specs = (("Deffgun", 8), ("Kustom mega-blasta", 3))
    with pytest.raises(SelectionError) as info:  # the same refusal as --weapon's
        build_unit(UnitChoice(lootas_ds, 10, None, specs), "attacker")
    assert str(info.value) == "--weapon: " + why
    fine = resolve_army(parse_bytes(_lootas(2), "t"), cat)
    assert fine.units[0].beyond_options == () and fine.complete


GUNZ = """name: Test Gunz
faction: Orks
keywords: [INFANTRY]
faction_keywords: [ORKS]
models:
  - {name: Gun Boy, M: 6, T: 4, Sv: 5, W: 1, Ld: 7, OC: 1, equipped: [slugga, choppa]}
sizes:
  - {models: {Gun Boy: 5}, points: 50}
  - {models: {Gun Boy: 10}, points: 100}
weapons:
  - {name: Slugga, range: 12, A: 1, skill: 5, S: 4, AP: 0, D: 1, abilities: [pistol]}
  - {name: Big gun, range: 36, A: 3, skill: 5, S: 5, AP: 0, D: 1}
  - {name: Choppa, range: melee, A: 3, skill: 3, S: 4, AP: -1, D: 1}
loadouts:
  big-gun:
    - {model: Gun Boy, count: 1, equipped: [big gun, choppa]}
  big-guns:
    - {model: Gun Boy, count: 2, min_unit_size: 10, equipped: [big gun, choppa]}
"""


def _gunz(models: int, guns: int) -> bytes:
    return _gw(
        f"Test Gunz (50 Points)\n  • {models}x Gun Boy\n     ◦ {guns}x Big gun\n"
        f"     ◦ {models - guns}x Slugga\n     ◦ {models}x Choppa\n"
    )


@pytest.mark.parametrize(
    ("models", "guns", "most"),
    [(10, 2, None), (10, 3, 2), (5, 1, None), (5, 2, 1), (4, 2, 1)],
)
def test_wargear_limits_of_a_hand_written_datasheet(
    tmp_path: Path, models: int, guns: int, most: int | None
) -> None:
    """A hand-written datasheet: one Gun Boy may take a big gun, two in a unit of 10 (a
    loadout's ``count`` and ``min_unit_size``). A 4-model list is a damaged unit of 5 (its
    Starting Strength 5: one big gun). A choppa on every model is not over any limit (the
    models' own equipment)."""
    (tmp_path / "test-gunz.yaml").write_text(GUNZ, encoding="utf-8")
    mine = Catalog([tmp_path], use_env=False, home=None)
    r = resolve_army(parse_bytes(_gunz(models, guns), "t"), mine)
    (gunz,) = r.units
    assert gunz.status == "resolved"
    if most is None:
        assert gunz.beyond_options == () and r.complete
    else:
        assert gunz.beyond_options == (
            f"this unit of {models} models can carry only {most} of Big gun (Gun Boy ×{most}); "
            f"Big gun x{guns} needs {guns}",
        )
        assert not r.complete


def test_strict_refuses_a_unit_over_its_wargear_limits(tmp_path: Path) -> None:
    path = tmp_path / "lootas.txt"
    path.write_bytes(_lootas(3))
    shown = cli("army", path, "--show")
    assert shown.exit_code == 0
    assert "over our data's wargear limits" in " ".join(shown.output.split())
    strict = cli("army", path, "--show", "--strict")
    assert strict.exit_code == 1
    assert "1 unit over the wargear limits" in " ".join(strict.output.split())
    out = json.loads(cli("army", path, "--show", "--json").stdout)["resolution"]
    assert out["complete"] is False
    assert out["units"][0]["beyond_options"] == [
        "this unit of 10 models can carry only 2 of Kustom mega-blasta (Spanner ×2); "
        "Kustom mega-blasta x3 needs 3"
    ]
    path.write_bytes(_lootas(2))
    assert cli("army", path, "--show", "--strict").exit_code == 0


CHAOS_KNIGHTS = (
    Path(__file__).resolve().parents[2] / "shared" / "rosters" / "nr-gw-style-chaos-knights"
)


@pytest.mark.skipif(not CHAOS_KNIGHTS.is_dir(), reason=f"needs {CHAOS_KNIGHTS}")
def test_the_chaos_knights_roster_s_allies_are_its_expected_factions(cat: Catalog) -> None:
    """The real export's allied units (Beasts of Nurgle, 2x Nurglings) resolve to the faction
    its expected.yaml gives each (read from the list by hand: Chaos Daemons), unaided."""
    import yaml

    expected = yaml.safe_load((CHAOS_KNIGHTS / "expected.yaml").read_text(encoding="utf-8"))
    r = resolve_army(read_list(str(CHAOS_KNIGHTS / "list.txt")), cat)
    allied = [u for u in expected["units"] if u.get("allied_or_other_faction")]
    assert len(allied) == 3
    rows = [u for u in r.units if u.status == "ally"]
    assert [(u.listed[0].name, u.faction) for u in rows] == [
        (u["name"], u["faction"]) for u in allied
    ]
    assert r.unit_counts()["unresolved"] == 0

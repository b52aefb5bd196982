"""Finding datasheets by name or file stem, user folders, suggestions (catalog.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wh40k_calc.catalog import ENV_VAR, SHIPPED, Catalog, UnknownUnitError
from wh40k_calc.datasheet import DatasheetError
from wh40k_calc.fuzzy import suggest_names

LOOTAS_YAML = (SHIPPED / "orks" / "lootas.yaml").read_text(encoding="utf-8")


def lootas_variant(points: int, name: str = "Lootas") -> str:
    """The shipped Lootas file with other points (and maybe another name)."""
    text = LOOTAS_YAML.replace("points: 50}", f"points: {points}}}")
    assert text != LOOTAS_YAML
    return text.replace("name: Lootas\n", f"name: {name}\n")


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)


# ---------------------------------------------------------------------------------------------
# Shipped datasheets


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("lootas", "Lootas"),
        ("boyz", "Boyz"),
        ("warboss", "Warboss"),
        ("lord-invocatus", "Lord Invocatus"),
        ("intercessor-squad", "Intercessor Squad"),
    ],
)
def test_find_by_stem(query: str, name: str) -> None:
    ds = Catalog().find(query)
    assert ds.name == name
    assert ds.path is not None and ds.path.stem == query


@pytest.mark.parametrize(
    "query",
    ["Lord Invocatus", "LORD INVOCATUS", "lord_invocatus", "Lord-Invocatus", "lord invocatus!"],
)
def test_find_by_name_ignoring_case_and_punctuation(query: str) -> None:
    assert Catalog().find(query).name == "Lord Invocatus"


def test_find_ignores_surrounding_spaces_and_case() -> None:
    assert Catalog().find("  LOOTAS ").name == "Lootas"
    assert Catalog().find("Intercessor Squad").name == "Intercessor Squad"


@pytest.mark.parametrize(("query", "suggested"), [("lootaz", "Lootas"), ("boy", "Boyz")])
def test_unknown_name_suggests(query: str, suggested: str) -> None:
    with pytest.raises(UnknownUnitError) as info:
        Catalog().find(query)
    err = info.value
    assert suggested in err.suggestions
    assert err.suggestions[0] == suggested
    assert err.name == query
    assert repr(query) in str(err)
    assert "did you mean" in str(err)
    assert repr(suggested) in str(err)


def test_unknown_name_without_any_close_match() -> None:
    with pytest.raises(UnknownUnitError) as info:
        Catalog().find("xyzzy")
    assert info.value.suggestions == []
    assert "did you mean" not in str(info.value)


def test_unknown_unit_error_is_a_lookup_error() -> None:
    assert issubclass(UnknownUnitError, LookupError)


def test_entries_list_shipped_units_with_factions() -> None:
    entries = Catalog().entries()
    # names repeat across factions (Cadian Shock Troops in Astra Militarum and Genestealer
    # Cults): the hand-written files are the ones listed here
    by_name = {e.name: e for e in entries if e.kind == "curated"}
    expected = {
        "Boyz": "Orks",
        "Lootas": "Orks",
        "Warboss": "Orks",
        "Lord Invocatus": "World Eaters",
        "Intercessor Squad": "Space Marines",
        "Rhino": "Space Marines",
        "Necron Warriors": "Necrons",
        "Termagants": "Tyranids",
        "Knight Paladin": "Imperial Knights",
        "Custodian Guard": "Adeptus Custodes",
        "Cadian Shock Troops": "Astra Militarum",
    }
    for name, faction in expected.items():
        assert name in by_name, name
        assert by_name[name].faction == faction, name
        assert by_name[name].shipped
        assert by_name[name].path.is_file()
    assert len(entries) >= 16
    assert len({(e.faction, e.name) for e in entries}) == len(entries)


# ---------------------------------------------------------------------------------------------
# User folders


def test_user_folder_file_named_like_a_shipped_one_wins(tmp_path: Path) -> None:
    (tmp_path / "lootas.yaml").write_text(lootas_variant(999), encoding="utf-8")
    cat = Catalog([tmp_path])
    ds = cat.find("lootas")
    assert ds.sizes[0].points == 999
    assert ds.path == tmp_path / "lootas.yaml"
    assert cat.find("Lootas").sizes[0].points == 999
    # listed once, as the user's
    lootas = [e for e in cat.entries() if e.name == "Lootas"]
    assert len(lootas) == 1 and not lootas[0].shipped
    # without the folder the shipped file is found
    assert Catalog().find("lootas").sizes[0].points == 50


def test_user_folder_in_subfolders_and_yml(tmp_path: Path) -> None:
    sub = tmp_path / "orks" / "more"
    sub.mkdir(parents=True)
    (sub / "flash-gitz.yml").write_text(lootas_variant(80, "Flash Gitz"), encoding="utf-8")
    cat = Catalog([tmp_path])
    assert cat.find("flash gitz").sizes[0].points == 80
    assert cat.find("Flash-Gitz").name == "Flash Gitz"


def test_user_file_with_the_name_of_a_shipped_unit_wins_everywhere(tmp_path: Path) -> None:
    (tmp_path / "my-lootas.yaml").write_text(lootas_variant(999), encoding="utf-8")
    cat = Catalog([tmp_path])
    listed = [e for e in cat.entries() if e.name == "Lootas"]
    assert len(listed) == 1 and listed[0].path == tmp_path / "my-lootas.yaml"
    assert cat.find("Lootas").sizes[0].points == 999


def test_find_by_name_in_a_user_folder(tmp_path: Path) -> None:
    (tmp_path / "unit-a.yaml").write_text(lootas_variant(70, '"Big Gunz"'), encoding="utf-8")
    assert Catalog([tmp_path]).find("big gunz").sizes[0].points == 70


def test_comment_after_the_name_line(tmp_path: Path) -> None:
    (tmp_path / "unit-b.yaml").write_text(
        lootas_variant(40, "Gretchin  # the runts"), encoding="utf-8"
    )
    cat = Catalog([tmp_path], shipped=None)
    assert [e.name for e in cat.entries()] == ["Gretchin"]
    assert cat.find("Gretchin").sizes[0].points == 40


def test_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    (one / "lootas.yaml").write_text(lootas_variant(111), encoding="utf-8")
    (two / "deff-gunz.yaml").write_text(lootas_variant(222, "Deff Gunz"), encoding="utf-8")
    monkeypatch.setenv(ENV_VAR, f"{one}{os.pathsep}{two}")
    cat = Catalog()
    assert cat.find("lootas").sizes[0].points == 111
    assert cat.find("Deff Gunz").sizes[0].points == 222
    assert one in cat.user_dirs and two in cat.user_dirs
    # use_env=False ignores it
    assert Catalog(use_env=False).find("lootas").sizes[0].points == 50


def test_command_line_folder_comes_before_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli, env = tmp_path / "cli", tmp_path / "env"
    cli.mkdir()
    env.mkdir()
    (cli / "lootas.yaml").write_text(lootas_variant(1), encoding="utf-8")
    (env / "lootas.yaml").write_text(lootas_variant(2), encoding="utf-8")
    monkeypatch.setenv(ENV_VAR, str(env))
    assert Catalog([cli]).find("lootas").sizes[0].points == 1


def test_missing_folder_is_a_datasheet_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(DatasheetError) as info:
        Catalog([missing])
    assert str(missing) in str(info.value)


def test_missing_folder_in_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "gone"
    monkeypatch.setenv(ENV_VAR, str(missing))
    with pytest.raises(DatasheetError) as info:
        Catalog()
    assert str(missing) in str(info.value)


def test_broken_file_does_not_break_finding_another_unit(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("name: Broken\nmodels: [\n", encoding="utf-8")
    (tmp_path / "latin.yaml").write_bytes("name: Caf\u00e9\nmodels: x\n".encode("latin-1"))
    (tmp_path / "invalid.yaml").write_text("name: Invalid\nmodels: []\n", encoding="utf-8")
    (tmp_path / "good-one.yaml").write_text(lootas_variant(60, "Good One"), encoding="utf-8")
    cat = Catalog([tmp_path])
    assert cat.find("lootas").name == "Lootas"  # shipped, by stem
    assert cat.find("warboss").name == "Warboss"
    assert cat.find("Good One").sizes[0].points == 60  # user's, by stem
    with pytest.raises(UnknownUnitError):
        cat.find("nothing like it")
    names = {e.name for e in cat.entries()}
    assert {"Broken", "Invalid", "Good One", "Lootas"} <= names


def test_the_broken_file_asked_for_is_reported(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: Broken\nmodels: [\n", encoding="utf-8")
    with pytest.raises(DatasheetError) as info:
        Catalog([tmp_path]).find("broken")
    assert str(broken) in str(info.value)
    assert "line" in str(info.value) and "column" in str(info.value)


def test_invalid_file_asked_for_by_name_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "some-file.yaml"
    bad.write_text("name: Weird Boyz\nmodels: []\nsizes: []\n", encoding="utf-8")
    with pytest.raises(DatasheetError) as info:
        Catalog([tmp_path]).find("Weird Boyz")
    assert str(bad) in str(info.value)


def test_only_the_shipped_folder_is_optional(tmp_path: Path) -> None:
    (tmp_path / "good-one.yaml").write_text(lootas_variant(60, "Good One"), encoding="utf-8")
    cat = Catalog([tmp_path], shipped=None)
    assert [e.name for e in cat.entries()] == ["Good One"]
    with pytest.raises(UnknownUnitError):
        cat.find("lootas")


def test_suggest_names() -> None:
    names = ["default", "kustom-mega-blastas", "rokkit-launchas", "mixed-spanners"]
    assert suggest_names("kustom", names)[0] == "kustom-mega-blastas"
    assert suggest_names("Rokkit Launchas", names)[0] == "rokkit-launchas"
    assert suggest_names("zzzzzz", names) == []


# ---------------------------------------------------------------------------------------------
# Several of the user's files for one unit


def _two_files(tmp_path: Path) -> Path:
    """``sub/x.yaml`` (55 pts) and ``x.yaml`` (52 pts), both Testers/X, in one folder."""
    text = lootas_variant(52, "X").replace("faction: Orks\n", "faction: Testers\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.yaml").write_text(text.replace("points: 52}", "points: 55}"))
    (tmp_path / "x.yaml").write_text(text)
    return tmp_path


NOTE = "Testers/X is defined by 2 files; using sub/x.yaml (first in search order), not x.yaml"


def test_duplicate_user_files_are_noted(tmp_path: Path) -> None:
    """The search order is kept (sub/x.yaml sorts first) and said."""
    cat = Catalog([_two_files(tmp_path)], use_env=False, home=None)
    ds = cat.find("x")
    assert ds.sizes[0].points == 55
    assert cat.duplicate_notes([ds]) == (NOTE,)
    # a user's file replacing a shipped one is by design: no note
    (tmp_path / "lootas.yaml").write_text(lootas_variant(60))
    cat = Catalog([tmp_path], use_env=False, home=None)
    assert cat.duplicate_notes([cat.find("lootas")]) == ()


def test_duplicate_user_files_noted_in_the_output(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    folder = str(_two_files(tmp_path))
    res = CliRunner().invoke(app, ["shoot", "x", "-t", "boyz", "--datasheets", folder, "--json"])
    assert res.exit_code == 0, res.output
    assert NOTE in json.loads(res.stdout)["notes"]
    res = CliRunner().invoke(app, ["compare", "x", "-t", "x", "--datasheets", folder, "--json"])
    assert res.exit_code == 0, res.output
    assert NOTE in json.loads(res.stdout)[0]["notes"]


# ---------------------------------------------------------------------------------------------
# Folder links and the scan's bound (fresh-user trial: a link loop hung every command)


def test_a_folder_link_loop_is_read_once(tmp_path: Path) -> None:
    """``sub/up -> ..`` used to list the same file through every path up to the system's link
    limit (41 files "defining" one unit); each real folder is now visited once."""
    (tmp_path / "x.yaml").write_text(lootas_variant(55, "X"), encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to("..")
    cat = Catalog([tmp_path], use_env=False, home=None, shipped=None)
    assert [e.path for e in cat.entries()] == [tmp_path / "x.yaml"]
    assert cat.duplicate_notes([cat.find("x")]) == ()


def test_two_link_loops_end(tmp_path: Path) -> None:
    """``a -> .`` and ``b -> .`` made the walk exponential (2^40 paths); now one visit."""
    (tmp_path / "x.yaml").write_text(lootas_variant(55, "X"), encoding="utf-8")
    (tmp_path / "a").symlink_to(".")
    (tmp_path / "b").symlink_to(".")
    cat = Catalog([tmp_path], use_env=False, home=None, shipped=None)
    assert [e.name for e in cat.entries()] == ["X"]


def test_a_folder_with_too_many_entries_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--datasheets /`` walked the whole file system; a folder with more entries than the
    bound is refused, naming it (the bound lowered here to keep the test small)."""
    from helpers import cli

    import wh40k_calc.catalog as catalog

    monkeypatch.setattr(catalog, "MAX_SCAN_ENTRIES", 30)
    for i in range(20):
        (tmp_path / f"d{i}").mkdir()
        (tmp_path / f"d{i}" / "note.txt").write_text("")
    with pytest.raises(DatasheetError, match="more than 30 files and folders") as info:
        Catalog([tmp_path], use_env=False, home=None).entries()
    assert str(tmp_path) in str(info.value)
    res = cli("shoot", "lootas", "-t", "boyz", dirs=[tmp_path])
    assert res.exit_code == 1
    assert f"{tmp_path}: more than 30 files and folders" in res.output
    monkeypatch.setattr(catalog, "MAX_SCAN_ENTRIES", 40)  # 20 folders + 20 files: read
    assert Catalog([tmp_path], use_env=False, home=None).find("lootas").name == "Lootas"


def _spellings() -> dict[str, str]:
    """The Lootas file at 999 points written in ways YAML reads alike (a fresh-user trial:
    each was listed under its file stem only, so the shipped Lootas silently won)."""
    import json

    import yaml

    text = lootas_variant(999)
    data = yaml.safe_load(text)
    body = "".join(line + "\n" for line in text.splitlines() if not line.startswith("#"))
    return {
        "byte-order mark": "\ufeff" + text,
        "quoted key": body.replace("name: Lootas\n", '"name": Lootas\n', 1),
        "space before the colon": body.replace("name: Lootas\n", "name : Lootas\n", 1),
        "indented": "".join("  " + line + "\n" for line in body.splitlines()),
        "flow mapping (JSON)": json.dumps(data),
    }


@pytest.mark.parametrize("how", list(_spellings()))
def test_a_users_file_is_found_by_its_name_however_yaml_spells_it(tmp_path: Path, how: str):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "my-lootas.yaml").write_text(_spellings()[how], encoding="utf-8")
    ds = Catalog([folder]).find("Lootas")
    assert ds.path == folder / "my-lootas.yaml"
    assert ds.sizes[0].points == 999


def test_control_characters_in_names_are_refused_and_never_printed_raw(tmp_path: Path):
    """A fresh-user trial: a datasheet named "Loo\\x1b[2Jtas" cleared the screen when listed
    or shot with. Its names (unit, models, weapons) must be printable text: the file is
    invalid, saying why, and `calc units` shows the name escaped."""
    from typer.testing import CliRunner

    from wh40k_calc.cli import app

    (tmp_path / "l.yaml").write_text(
        LOOTAS_YAML.replace("name: Lootas\n", 'name: "Loo\\x1b[2Jtas"\n'), encoding="utf-8"
    )
    from wh40k_calc.catalog import MalformedUnitNameError
    from wh40k_calc.datasheet import load_datasheet

    with pytest.raises(DatasheetError, match="name: must not contain control characters"):
        load_datasheet(tmp_path / "l.yaml")
    # asked for by that name: refused as no name may hold one (never folded to "Lootas")
    with pytest.raises(MalformedUnitNameError, match="holds a control character"):
        Catalog([tmp_path]).find("Loo\x1b[2Jtas")
    res = CliRunner().invoke(app, ["units", "loo", "--datasheets", str(tmp_path)])
    assert "\x1b" not in res.output
    assert "Loo\\x1b[2Jtas" in res.output
    res = CliRunner().invoke(app, ["units", "--check", "--datasheets", str(tmp_path)])
    assert res.exit_code == 1 and "\x1b" not in res.output
    assert "must not contain control characters" in res.output


def test_units_text_matches_names_not_factions() -> None:
    """``calc units knight`` lists the units named like "knight" (the README: TEXT filters by
    name), not every unit of the Imperial and Chaos Knights; a text with ``/`` matches
    ``Faction/Name``; ``--faction`` filters by faction."""
    from helpers import cli_json

    names = [e["name"] for e in cli_json("units", "knight")]
    assert "Armiger Warglaive" not in names  # an Imperial Knights unit, not named like it
    assert "Knight Paladin" in names and "Knight Tyrant" in names
    assert all(any(w.lower().startswith(("knight", "night")) for w in n.split()) for n in names)
    rows = cli_json("units", "world eaters/berzerkers")
    assert [(e["faction"], e["name"]) for e in rows] == [("World Eaters", "Khorne Berzerkers")]
    knights = cli_json("units", "--faction", "imperial knights")
    assert "Armiger Warglaive" in [e["name"] for e in knights]


GENERATED_11 = Path(__file__).resolve().parents[1] / "datasheets-generated-11"


def _stems(folder: str, start: str) -> set[str]:
    """The shipped edition-11 files of a faction folder whose names start so (the oracle: the
    files themselves, not the listing)."""
    return {p.stem for p in (GENERATED_11 / folder).glob(f"{start}*.yaml")}


@pytest.mark.parametrize(
    ("text", "folder", "start"),
    [
        ("space marines/death company", "blood-angels", "death-company"),
        ("Space Marines/Death Company", "blood-angels", "death-company"),
        ("adeptus astartes/death company", "blood-angels", "death-company"),
        ("blood angels/death company", "blood-angels", "death-company"),
        ("space marines/wolf guard", "space-wolves", "wolf-guard"),
        ("space marines/sanguinary", "blood-angels", "sanguinary"),
    ],
)
def test_units_faction_text_takes_the_chapters_under_space_marines(
    text: str, folder: str, start: str
) -> None:
    """README: the chapters with datasheets of their own in edition 11 belong to Space
    Marines (``Space Marines/Death Company Marines`` finds the Blood Angels unit), and the
    data's name for it (Adeptus Astartes) is taken too; so ``calc units
    "space marines/death company"`` lists the Blood Angels' Death Company units (the trial:
    "no datasheet name is like ...")."""
    from helpers import cli_json

    rows = cli_json("units", text, "--edition", "11")
    assert _stems(folder, start) <= {Path(e["file"]).stem for e in rows}
    assert {Path(e["file"]).parent.name for e in rows} == {folder}  # "The Sanguinor" is alike
    assert len(rows) == len({e["file"] for e in rows})  # each once


def test_units_chapter_in_edition_10_is_space_marines() -> None:
    """Edition 10 files the chapters' units under Space Marines (no Blood Angels faction), and
    a look-up takes ``Blood Angels/NAME`` as Space Marines' (``Catalog._named_faction``): so
    does ``calc units`` (it said "no datasheet name is like ...")."""
    from helpers import cli_json

    generated = Path(__file__).resolve().parents[1] / "datasheets-generated" / "space-marines"
    for text, start in (
        ("blood angels/death company", "death-company"),
        ("space wolves/wolf guard", "wolf-guard"),
    ):
        rows = cli_json("units", text, "--edition", "10")
        assert {p.stem for p in generated.glob(f"{start}*.yaml")} <= {
            Path(e["file"]).stem for e in rows
        }
        assert {e["faction"] for e in rows} == {"Space Marines"}


def test_units_faction_option_takes_the_chapters() -> None:
    """``--faction "space marines"`` (or the data's "Adeptus Astartes") lists the chapters'
    own datasheets of edition 11 as well, as a unit look-up with that faction finds them."""
    from helpers import cli_json

    for faction in ("space marines", "adeptus astartes"):
        rows = cli_json("units", "--faction", faction, "--edition", "11")
        files = {Path(e["file"]).stem for e in rows}
        assert _stems("blood-angels", "death-company") <= files
        assert _stems("space-wolves", "") <= files and _stems("space-marines", "") <= files
    wolves = cli_json("units", "--faction", "space wolves", "--edition", "11")
    assert {Path(e["file"]).stem for e in wolves} == _stems("space-wolves", "")


@pytest.mark.parametrize("typed", ["l o o t a s", "lootäs", "ＬＯＯＴＡＳ", "LOOTAS!", "Lóótás"])
def test_spellings_of_a_name_are_taken(typed: str) -> None:
    """Case, spaces, punctuation, accents and character width are ignored (README): these
    are spellings of "Lootas", taken as it."""
    assert Catalog().find(typed).name == "Lootas"


@pytest.mark.parametrize("typed", ["lootasж", "lootas中", "lootaz"])
def test_a_name_with_another_letter_is_only_suggested(typed: str) -> None:
    """A letter that has no plain form is a letter, not an accent: "lootasж" is not Lootas
    (it was, its "ж" dropped), only suggested."""
    with pytest.raises(UnknownUnitError, match="did you mean 'Lootas'"):
        Catalog().find(typed)

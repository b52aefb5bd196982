"""A fresh-user trial's findings on the command line, each checked against the message or exit
code the player should get (written here by hand, not read back from the program)."""

from __future__ import annotations

import os
from pathlib import Path

from helpers import cli, cli_json, write_datasheet

WIDE = {"COLUMNS": "300"}  # one line per message
SHARED = Path(__file__).resolve().parents[2] / "shared"


def error_line(result) -> str:
    lines = [x for x in result.output.splitlines() if x.startswith("error:")]
    assert len(lines) == 1, result.output
    return lines[0]


# --- calc effects --detachment: a misspelling that only the other edition has one like ---


def test_a_misspelt_detachment_of_the_other_edition_is_suggested() -> None:
    ten = cli("effects", "--detachment", "dred mob", "--edition", "10", env=WIDE)
    assert ten.exit_code == 1
    assert error_line(ten) == (
        "error: --detachment 'dred mob': no such detachment here; "
        "did you mean 'Dread Mob' (edition 11)?"
    )
    eleven = cli("effects", "--detachment", "dred mob", "--edition", "11", env=WIDE)
    assert error_line(eleven).endswith("did you mean 'Dread Mob'?")
    right = cli("effects", "--detachment", "dread mob", "--edition", "10", env=WIDE)
    assert error_line(right).endswith("edition 11 has it (add --edition 11)")
    nothing = cli("effects", "--detachment", "xyzzy", "--edition", "10", env=WIDE)
    assert error_line(nothing) == "error: --detachment 'xyzzy': no such detachment here"


# --- calc compare FOLDER / PIPE: said to be one, not read as an attacker's name ---

GIVE = "(give a batch file, e.g. examples/lootas-loadouts.yaml, or attacker names with --target)"


def test_a_folder_or_pipe_given_to_compare_is_said_to_be_one(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "adir"
    folder.mkdir()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for args in ([str(folder)], [str(folder), "--target", "boyz"]):
        result = cli("compare", *args, env=WIDE)
        assert result.exit_code == 1
        assert error_line(result) == f"error: {folder}: is a folder, not a batch file {GIVE}"
    for args in ([str(fifo)], [str(fifo), "lootas", "--target", "boyz"]):
        result = cli("compare", *args, env=WIDE)
        assert result.exit_code == 1
        assert error_line(result) == (
            f"error: {fifo}: not a regular file (a device or a pipe), not a batch file {GIVE}"
        )
    monkeypatch.chdir(tmp_path)  # bare words naming the current folder's entries
    for word, kind in (("adir", "a folder"), ("fifo", "a device or a pipe")):
        for args in ([word], [word, "--target", "boyz"]):
            result = cli("compare", *args, env=WIDE)
            assert result.exit_code == 1
            assert error_line(result) == (
                f"error: {word}: {kind} here, not a batch file, and no unit has that name {GIVE}"
            )
    (tmp_path / "lootas").mkdir()  # a folder named like a unit does not hide the unit
    result = cli("compare", "lootas", "--target", "boyz", env=WIDE)
    assert result.exit_code == 0, result.output


# --- calc units --check: datasheet-named entries that are no regular file are invalid ---


def test_pipes_devices_and_dangling_links_are_listed_as_unreadable(tmp_path: Path) -> None:
    """A FIFO and a link to /dev/zero would hang or never end if opened: the check must name
    them, not call the folder valid (nor hang: the run is in-process, a hang fails the run)."""
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    check = cli("units", "--check", dirs=[tmp_path], env=WIDE)
    assert check.exit_code == 1
    lines = check.output.splitlines()
    for stem, why in (
        ("fifo", "not a regular file (a named pipe); not read"),
        ("zero", "not a regular file (a device); not read"),
        ("gone", "a link to nothing (its target does not exist)"),
    ):
        at = next(i for i, x in enumerate(lines) if x.startswith(f"{stem}  "))
        assert lines[at + 1].strip() == why
    assert lines[-1].endswith(", 3 invalid")
    listed = cli("units", "--datasheets", str(tmp_path), env=WIDE)
    assert listed.exit_code == 0
    assert "fifo.yaml (unreadable: 'calc units --check' says why)" in listed.output
    unknown = cli("shoot", "zero", "--target", "boyz", dirs=[tmp_path], env=WIDE)
    assert unknown.exit_code == 1
    assert "3 datasheet files of those folders could not be read" in unknown.output


# --- a name of several factions' units: only an option the command has is suggested ---

BERZERKERS = (
    "{!r} is a datasheet of several factions: Chaos Space Marines/Khorne "
    "Berzerkers, World Eaters/Khorne Berzerkers (alike but for the faction, whose rules act for "
    "the unit); give one of these names{} (or list the factions you play in "
    "WH40K_CALC_FACTIONS)"
)


def test_an_ambiguous_name_suggests_the_commands_own_option(tmp_path: Path) -> None:
    env = {**WIDE, "WH40K_CALC_FACTIONS": ""}
    by = ", or the faction with {}".format
    cases = [
        (["show", "khorne berzerkers"], "", by("--faction")),
        (["shoot", "khorne berzerkers", "-t", "boyz"], "", by("--faction")),
        (["shoot", "boyz", "-t", "khorne berzerkers"], "", by("--target-faction")),
        (["compare", "khorne berzerkers", "-t", "boyz"], "attacker: ", by("--faction")),
        (["exchange", "--side-a", "fight boyz", "--side-b", "fight khorne-berzerkers"],
         "--side-b 'fight khorne-berzerkers': ", by("--faction")),
    ]  # fmt: skip
    batch = tmp_path / "b.yaml"
    batch.write_text("runs:\n  - attacker: khorne berzerkers\n    targets: [boyz]\n")
    cases.append(([str(batch)], f"{batch}:2: run 'khorne berzerkers': attacker: ", ""))
    for args, before, option in cases:
        if args[0] == str(batch):
            args = ["compare", *args]
        result = cli(*args, env=env)
        assert result.exit_code == 1, result.output
        typed = "khorne-berzerkers" if args[0] == "exchange" else "khorne berzerkers"
        assert error_line(result) == "error: " + before + BERZERKERS.format(typed, option)
    # and the option suggested is one the command takes
    shown = cli("show", "khorne berzerkers", "--faction", "world eaters", env=env)
    assert shown.exit_code == 0, shown.output


# --- far faction matches are left out, as for unit names ---


def test_a_misspelt_faction_suggests_only_the_close_one() -> None:
    from wh40k_calc.fuzzy import suggest

    result = cli("shoot", "lootas", "-t", "boyz", "--faction", "orcs", env=WIDE)
    assert result.exit_code == 1
    assert "(--faction); did you mean 'Orks'? (factions: " in error_line(result)
    env = {**WIDE, "WH40K_CALC_FACTIONS": "World Eaters,Orcs"}
    warned = cli("shoot", "khorne berzerkers", "-t", "boyz", env=env)
    assert warned.exit_code == 0
    assert (
        "warning: WH40K_CALC_FACTIONS: unknown faction 'Orcs', ignored; did you mean 'Orks'?\n"
        in warned.output
    )
    # the one rule for every name: a close second is still offered, a far one is not
    assert suggest("shootaz", ["shootas", "big-shoota"]) == ["shootas", "big-shoota"]
    assert suggest("orcs", ["Orks", "Unaligned Forces"]) == ["Orks"]


# --- --target rhino in edition 11: two factions' Rhinos that a calculation tells apart ---


def test_rhino_in_edition_11_is_refused_saying_how_the_two_differ() -> None:
    """Grey Knights' Rhino costs 70 points, the Space Marines' 65 (the points per 100 of a
    comparison differ), the Grey Knights' may take an additional storm bolter (its model's
    choices: the data prints that option for it alone) and carries a rule not modelled; their
    factions' rules differ too: so not one datasheet to the calculation, and the player says
    which."""
    result = cli("shoot", "lootas", "-t", "rhino", "--edition", "11", env=WIDE)
    assert result.exit_code == 1
    assert error_line(result) == (
        "error: 'rhino' is a datasheet of several factions: Grey Knights/Rhino, Space "
        "Marines/Rhino (they differ in sizes or points, models and rules not modelled); give "
        "one of these names, or the faction with --target-faction (or list the factions you "
        "play in WH40K_CALC_FACTIONS)"
    )
    ten = cli("shoot", "lootas", "-t", "rhino", "--edition", "10", env=WIDE)
    assert ten.exit_code == 0  # one Rhino there: the curated Space Marines file
    said = cli("shoot", "lootas", "-t", "rhino", "--target-faction", "space marines",
               "--edition", "11", env=WIDE)  # fmt: skip
    assert said.exit_code == 0, said.output


def test_compare_refuses_a_bad_target_before_computing_anything() -> None:
    for args in (
        ["compare", "lootas", "--target", "boyz", "--target", "rhino", "--target", "bozy"],
        ["compare", "--army", str(SHARED / "rosters/nr-wtc-compact-orks/list.txt"),
         "--target", "boyz", "--target", "rhino", "--target", "bozy"],
    ):  # fmt: skip
        if "--army" in args and not SHARED.is_dir():
            continue
        result = cli(*args, "--edition", "11", env=WIDE)
        assert result.exit_code == 1
        assert result.stdout == ""  # no table of the other targets first
        errors = [x for x in result.stderr.splitlines() if x.startswith("error:")]
        assert [e.split(":")[1] for e in errors] == [" --target rhino", " --target bozy"]


# --- exit codes: usage errors 2 (click's convention), errors found in the data 1 ---


def test_conflicting_options_and_missing_arguments_exit_2(tmp_path: Path) -> None:
    example = str(Path(__file__).resolve().parents[1] / "examples/lootas-loadouts.yaml")
    csv = str(tmp_path / "out.csv")
    usage = [
        ["compare", "lootas", "-t", "boyz", "--json", "--csv", csv],
        ["compare", "lootas", "-t", "boyz", "--csv", ""],
        ["compare", example, "--target", "boyz"],
        ["compare", "lootas", "--army", example, "--target", "boyz"],
        ["compare", "--army", example],
        ["compare", "lootas"],
        ["compare"],
        ["compare", example, "lootas", "-t", "boyz"],
        ["import", "lootas", "--all", "--csv", str(tmp_path)],
        ["import", "--csv", str(tmp_path)],
        ["import", "lootas", "--csv", str(tmp_path), "--out", ""],
        ["shoot", "lootas", "-t", "boyz", "--effect", "acts-of-faith:7"],
    ]
    for args in usage:
        result = cli(*args, env=WIDE)
        assert result.exit_code == 2, (args, result.output)
    data = [  # names looked up and found wanting
        ["shoot", "lootas", "-t", "boyz", "--effect", "waaagh:7"],
        ["shoot", "lootas", "-t", "bozy"],
        ["compare", "lootas", "-t", "bozy"],
    ]
    for args in data:
        result = cli(*args, env=WIDE)
        assert result.exit_code == 1, (args, result.output)
    assert not Path(csv).exists()


# --- batch errors name the file's field, not the option it stands for ---


def test_batch_errors_name_the_order_field(tmp_path: Path) -> None:
    batch = tmp_path / "b.yaml"
    batch.write_text(
        "runs:\n"
        "  - name: twice\n"  # line 2
        "    attacker: lootas\n"
        "    targets: [boyz]\n"
        "    order: [Deffgun, Deffgun]\n"  # line 5
        "  - name: step\n"
        "    sequence:\n"
        "      - {attacker: lootas, order: [Deffgnu]}\n"
        "    targets: [boyz]\n"
        "  - name: quoted\n"
        "    sequence: ['shoot lootas --order Deffgun,Deffgun']\n"
        "    targets: [boyz]\n"
        "  - name: added\n"
        "    attacker: lootas\n"
        "    targets: [boyz]\n"
        "    add_abilities: ['letal hits']\n"
    )
    result = cli("compare", str(batch), env=WIDE)
    assert result.exit_code == 1
    errors = sorted(x for x in result.output.splitlines() if x.startswith("error:"))
    assert errors == sorted([
        f"error: {batch}:5: run 'twice' against boyz: order: Deffgun is named twice; name each "
        "weapon once",
        f"error: {batch}:8: run 'step' against boyz: step 1: order: no weapon 'Deffgnu' attacks "
        "here; did you mean 'Deffgun'? (weapons: Deffgun, Big shoota)",
        # a quoted step is a command line: its option is named
        f"error: {batch}:11: run 'quoted' against boyz: step 1 ('shoot lootas --order "
        "Deffgun,Deffgun'): --order: Deffgun is named twice; name each weapon once",
        f"error: {batch}:16: run 'added': add_abilities[0]: 'letal hits' is not a weapon ability "
        "it accepts; did you mean 'lethal hits'?",
    ])  # fmt: skip
    top = tmp_path / "top.yaml"
    top.write_text("order: [Deffgun, Deffgun]\nruns:\n  - attacker: lootas\n    targets: [boyz]\n")
    result = cli("compare", str(top), env=WIDE)
    assert error_line(result) == (
        f"error: {top}:1: run 'lootas' against boyz: (top level) order: Deffgun is named twice; "
        "name each weapon once"
    )


# --- smaller findings ---


def test_a_target_only_effect_is_marked_target() -> None:
    out = cli("shoot", "lootas", "-t", "boyz", "--effect", "ard-as-nails", env=WIDE).output
    assert "Effects: ard-as-nails (target), dats-our-loot\n" in out


def test_a_datasheet_file_given_as_a_unit_points_to_datasheets(tmp_path: Path) -> None:
    gun = {"name": "Gun", "range": 24, "A": 2, "skill": 4, "S": 4, "AP": 0, "D": 1}
    path = write_datasheet(tmp_path, "P9 Gun", [gun])
    result = cli("shoot", str(path), "-t", "boyz", env=WIDE)
    assert result.exit_code == 1
    line = error_line(result)  # (what was typed is cut to 80 characters in the message)
    assert line.startswith("error: unknown unit '")
    assert line.endswith(
        f"'; it is a datasheet file: give its folder with --datasheets {tmp_path} and the "
        "unit's name (its name: line, or the file's stem 'p9-gun')"
    )


def test_import_out_naming_a_file_says_so(tmp_path: Path) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("mine\n")
    for out, said in ((afile, f"--out {afile}"), (afile / "x", f"--out {afile / 'x'}: {afile}")):
        result = cli("import", "burna boyz", "--csv", str(tmp_path), "--out", str(out), env=WIDE)
        assert result.exit_code == 1
        assert result.output.strip() == (
            f"error: {said} is a file, not a folder (give the folder to write the files in)"
        )
    assert afile.read_text() == "mine\n"


def test_a_detachment_given_by_some_words_of_its_name() -> None:
    """A fresh-user trial: ``--detachment gladius`` was refused with "did you mean 'Gladius
    Task Force'?". Words of one detachment's name, as written, name it; words several
    detachments have are refused with them; a misspelling is still suggested, not taken."""
    short = cli_json("effects", "--detachment", "gladius", "--edition", "11")
    full = cli_json("effects", "--detachment", "Gladius Task Force", "--edition", "11")
    assert short == full and len(full) > 0
    assert all("Gladius Task Force" in e["detachments"] for e in short)
    several = cli("effects", "--detachment", "task force", "--edition", "11", env=WIDE)
    assert several.exit_code == 1
    every = cli_json("effects", "--edition", "11")
    task_forces = {d for e in every for d in e["detachments"] if d.endswith(" Task Force")}
    assert len(task_forces) > 1
    assert f"no such detachment here ({len(task_forces)} match its words); did you mean " in (
        error_line(several)
    )
    misspelt = cli("effects", "--detachment", "dred mob", "--edition", "11", env=WIDE)
    assert misspelt.exit_code == 1 and error_line(misspelt).endswith("did you mean 'Dread Mob'?")

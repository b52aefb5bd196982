"""Exit codes, one rule for every command (README, "Exit codes"): what is wrong whatever the
data says (an option's form or range, a missing argument, options that do not go together, an
empty name) exits 2, as click's own usage errors do; what is found wrong by looking in the data
(an unknown unit or effect, malformed YAML, an impossible selection) exits 1. Never a
traceback; always a message on stderr."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli

BAD_YAML = "name: [unclosed\n"
ORKS_LIST = Path(__file__).resolve().parents[1] / "examples" / "orks-list.txt"  # shipped
SHOOT = ("shoot", "lootas", "--target", "boyz")
FIGHT = ("fight", "boyz", "--target", "lootas")

USAGE = [
    # shoot and fight: empty names, bad values, missing arguments, flags that do not go together
    (*SHOOT, "--target-leader", ""),
    (*SHOOT, "--target-leader", "  "),
    (*SHOOT, "--leader", ""),
    (*SHOOT, "--precision-target", ""),  # was silently the default (exit 0)
    (*SHOOT, "--effect", "waaagh:"),  # was exit 1
    (*SHOOT, "--effect", ""),
    (*SHOOT, "--effect", "a:b:c"),
    (*SHOOT, "--effect", "/waaagh"),
    (*SHOOT, "--effect", "acts-of-faith:7"),
    (*SHOOT, "--target-faction", ""),
    (*SHOOT, "--faction", ""),
    (*SHOOT, "--loadout", ""),
    (*SHOOT, "--weapon", ""),
    (*SHOOT, "--order", ","),
    (*SHOOT, "--weapon", "Deffgun x2", "--loadout", "default"),
    (*SHOOT, "--hit-mod", "99"),
    (*SHOOT, "--models", "many"),
    (*SHOOT, "--target", "boyz", "--target", "rhino"),
    (*SHOOT, "--datasheets", ""),
    ("shoot", "", "--target", "boyz"),
    ("shoot", "   ", "--target", "boyz"),
    ("shoot", "lootas", "--target", ""),
    (*SHOOT, "--weapon", "Deffgun x0"),
    (*SHOOT, "--allocation", ""),
    (*SHOOT, "--models", "0"),
    (*SHOOT, "--target-models", "-3"),
    (*SHOOT, "--engaged", "--advanced"),
    (*SHOOT, "--overwatch", "--advanced"),
    (*SHOOT, "--edition", "9"),
    ("fight", "", "--target", "lootas"),
    ("shoot", "lootas"),
    ("shoot",),
    (*FIGHT, "--target-leader", ""),
    (*FIGHT, "--effect", "waaagh:"),
    (*FIGHT, "--crit-hit", "7"),
    ("fight",),
    # sequence: a step's words, or the sequence's own options
    ("sequence", "shoot lootas --leader ''", "--target", "boyz"),
    ("sequence", "shoot lootas --effect waaagh:", "--target", "boyz"),
    ("sequence", "shoot lootas --precision-target ''", "--target", "boyz"),
    ("sequence", "shoot lootas -t rhino", "--target", "boyz"),
    ("sequence", "shoot lootas", "--target", "boyz", "--target-leader", ""),
    ("sequence", "", "--target", "boyz"),
    ("sequence", "--target", "boyz", "shoot ''"),
    ("sequence", "--target", "boyz", "shoot lootas --weapon ''"),
    ("sequence", "shoot lootas"),
    # exchange
    ("exchange", "--side-a", "shoot lootas --leader ''", "--side-b", "fight boyz --charged"),
    ("exchange", "--side-a", "shoot lootas --effect waaagh:", "--side-b", "fight boyz"),
    ("exchange", "--side-a", "shoot lootas", "--side-b", "fight boyz", "--rounds", "0"),
    ("exchange", "--side-a", "", "--side-b", "shoot lootas"),
    ("exchange", "--side-a", "shoot ''", "--side-b", "fight boyz"),
    ("exchange", "--side-a", "shoot lootas"),
    # compare
    ("compare",),
    ("compare", "lootas"),
    ("compare", "", "--target", "boyz"),
    ("compare", "lootas", "--target", ""),
    ("compare", "lootas", "--target", "boyz", "--effect", "waaagh:"),  # was exit 1
    ("compare", "lootas", "--target", "boyz", "--leader", ""),
    ("compare", "lootas", "--target", "boyz", "--json", "--csv", "x.csv"),
    ("compare", "lootas", "--target", "boyz", "--csv", ""),
    # army
    ("army",),
    ("army", str(ORKS_LIST), "--target", ""),
    ("army", str(ORKS_LIST), "--phase", "dance", "--target", "boyz"),
    # show, units, effects, import, data
    ("show",),
    ("show", ""),  # was exit 1 (unknown unit '')
    ("show", "lootas", "--faction", ""),
    ("units", "--faction", ""),
    ("units", "--edition", "12"),
    ("effects", "--faction", ""),
    ("effects", "waaagh", "--edition", "12"),  # was exit 1
    ("effects", "--kind", "bogus"),  # was exit 1
    ("effects", "--edition", "9"),
    ("import",),
    ("import", ""),
    ("import", "lootas", "--all"),
    ("data", "nothing"),
    ("data", "status", "--bogus"),
    # a second fresh-user trial's
    (*SHOOT, "--add-ability", ""),
    (*SHOOT, "--add-ability", "sustained hits 0"),
    (*SHOOT, "--add-ability", "zap hits"),  # the core abilities are a fixed list
    ("shoot", "orks/", "--target", "boyz"),
    ("shoot", "/lootas", "--target", "boyz"),
    ("army", "", "--target", "boyz"),
    ("data", "update", "--faction", ""),
    ("data", "update", "--from", ""),
    ("shoot", "lootas", "--target", "rhino", "--target-wounds-left", "0"),
    ("shoot", "lootas", "--target", "boyz", "--target-wounds-left", "-1"),
    (*SHOOT, "--edition", "11", "--engaged", "--stationary"),
    (*SHOOT, "--order", "Deffgun,Deffgun"),
    (*SHOOT, "--allocation", "Boy,Boy"),
    # a third fresh-user trial's: empty paths (typer read '' as '.'), --models 0 in compare
    ("import", "lootas", "--csv", ""),  # was exit 1 (no Datasheets.csv in the current folder)
    ("import", "--all", "--csv", " "),
    ("compare", "--army", "", "--target", "boyz"),  # was exit 1 (": is a folder")
    ("compare", "lootas", "--target", "boyz", "--models", "0"),  # was exit 1 (a run's error)
    ("compare", "lootas", "--target", "boyz", "--models", "5", "--models", "-1"),
]

DATA = [
    ("shoot", "nosuch", "--target", "boyz"),
    ("shoot", "lootas", "--target", "nosuch"),
    (*SHOOT, "--models", "99"),  # a size Lootas cannot have
    (*SHOOT, "--effect", "no-such-effect"),
    (*SHOOT, "--effect", "waaagh:7"),  # an option the record lacks
    (*SHOOT, "--weapon", "Lascannon x1"),
    (*SHOOT, "--loadout", "nosuch"),
    (*SHOOT, "--target-faction", "Orcs"),
    (*FIGHT, "--leader", "lootas"),  # cannot lead Boyz
    ("sequence", "shoot nosuch", "--target", "boyz"),
    ("exchange", "--side-a", "shoot nosuch", "--side-b", "fight boyz --charged"),
    ("compare", "nosuch", "--target", "boyz"),
    ("compare", "BAD.yaml"),  # malformed YAML
    ("army", "BAD.yaml", "--target", "boyz"),  # not a list any reader takes
    ("show", "nosuch"),
    ("units", "--faction", "zzz"),
    ("units", "--datasheets", "BADDIR", "--check"),  # a malformed datasheet file
    ("effects", "zzz-nothing-like-it"),
    ("import", "lootas", "--csv", "NODIR"),
]


def run(args: tuple[str, ...], tmp_path: Path):
    """``calc ARGS`` with BAD.yaml, BADDIR and NODIR made real (in ``tmp_path``)."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_YAML)
    folder = tmp_path / "sheets"
    folder.mkdir()
    (folder / "broken.yaml").write_text(BAD_YAML)
    names = {"BAD.yaml": str(bad), "BADDIR": str(folder), "NODIR": str(tmp_path / "none")}
    return cli(*(names.get(a, a) for a in args))


@pytest.mark.parametrize("args", USAGE, ids=lambda a: " ".join(a)[:60])
def test_usage_errors_exit_2(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run(args, tmp_path)
    assert res.exit_code == 2, (res.stdout, res.stderr)
    assert res.stderr.strip() and "Traceback" not in res.stderr


@pytest.mark.parametrize("args", DATA, ids=lambda a: " ".join(a)[:60])
def test_data_errors_exit_1(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run(args, tmp_path)
    assert res.exit_code == 1, (res.stdout, res.stderr)
    if "--check" in args:  # the invalid files are its listing, on standard output
        assert "broken.yaml" in res.stdout and "1 invalid" in res.stdout
    else:
        assert res.stderr.startswith("error: "), res.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            (*SHOOT, "--target-leader", ""),
            "Invalid value for '--target-leader': no name given ('')",
        ),
        ((*SHOOT, "--precision-target", ""), "'--precision-target': no name given ('')"),
        ((*SHOOT, "--effect", "waaagh:"), "no option after ':' (write 'waaagh' alone, or waaagh:"),
        (("show", ""), "Invalid value for 'name': no name given ('')"),
        (("import", "lootas", "--csv", ""), "Invalid value for '--csv': no folder given ('')"),
        (
            ("compare", "--army", "", "--target", "boyz"),
            "Invalid value for '--army': no file given ('')",
        ),
        (
            ("compare", "lootas", "--target", "boyz", "--models", "0"),
            "error: --models 0: a unit cannot have 0 models (give 1 or more",
        ),
        (
            ("sequence", "shoot lootas --leader ''", "-t", "boyz"),
            """step 1 ("shoot lootas --leader ''"): Invalid value for '--leader': no name""",
        ),
    ],
)
def test_the_messages_say_what_is_wrong(args, message, tmp_path):
    res = run(args, tmp_path)
    assert message in " ".join(res.stderr.split()), res.stderr


def test_a_batch_runs_own_words_are_that_runs_error(tmp_path):
    """In a batch file a step's words that do not parse are that run's error, named by its
    line (the file is data: exit code 1 once every run is done), the other runs resolved."""
    batch = tmp_path / "runs.yaml"
    batch.write_text(
        "targets: [boyz]\nruns:\n"
        "  - name: ok\n    attacker: lootas\n"
        "  - name: a\n    sequence: [\"shoot lootas --effect 'waaagh:'\"]\n"
        "  - name: b\n    sequence: [\"shoot lootas --precision-target ''\"]\n"
        "  - name: c\n    sequence: [\"shoot lootas --target-leader ''\"]\n"
    )
    res = cli("compare", batch)
    assert res.exit_code == 1, res.stderr
    err = " ".join(res.stderr.split())
    assert "run 'a' against boyz: step 1" in err and "--effect 'waaagh:': no option after" in err
    assert "run 'b': step 1: Invalid value for '--precision-target': no name given" in err
    assert "run 'c': step 1:" in err and "--target-leader" in err
    assert "ok" in res.stdout


def test_a_batch_runs_models_0_is_that_runs_error(tmp_path):
    """A batch file's ``models: 0`` is that run's error (the file is data: exit code 1 once
    the other runs are done), where the command line's ``--models 0`` is a usage error (2)."""
    batch = tmp_path / "runs.yaml"
    batch.write_text(
        "targets: [boyz]\nruns:\n"
        "  - name: ok\n    attacker: lootas\n"
        "  - name: none\n    attacker: {name: lootas, models: 0}\n"
    )
    res = cli("compare", batch)
    assert res.exit_code == 1, res.stderr
    assert "run 'none': attacker.models: must be at least 1, not 0" in res.stderr
    assert "ok" in res.stdout


def test_an_unknown_target_faction_names_its_own_option():
    """`--target-faction nope` once said "(--faction)" (a fresh-user trial)."""
    result = cli("shoot", "lootas", "--target", "boyz", "--target-faction", "nope")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: unknown faction 'nope' (--target-faction)")

"""``calc data update``, ``status`` and ``reset`` (issue 17, item 5), for real: a local HTTP
server on 127.0.0.1 (``tests/data_server.py``, the standard library's ``http.server`` in a
thread) serves faction files, and the command downloads them over TCP; nothing of the network
layer is mocked.

The faction files are either tiny ones built here (Orks with Boyz, Necrons with Necron Warriors,
in the game-datacards shape) or, where ``/work/shared`` is present, copies of data 912 changed
here into a "913" with one changed statline and one changed points value. Every expected change
is the one the test made to the file (by hand), never the code's own output.

Each failure (no network, 404, a redirect loop, a body cut short, a cut or invalid JSON, a file
of another game, a file over the cap, a full disk, Ctrl-C, an interrupted run's leftovers) is
checked to exit non-zero with one line on the standard error and to leave the data in use
before as it was: :func:`assert_still` looks the units up again and finds the same version and
points, and no temporary folder is left behind.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from data_server import DataServer, data_server, drip, file, no_length, redirect, short, silent
from data_server import stall as stall_route
from helpers import cli

from wh40k_calc.importers.gdc import MAX_FILE_BYTES
from wh40k_calc.updates import UpdateError, fetch, run, sources
from wh40k_calc.updates.run import update
from wh40k_calc.updates.sources import Source
from wh40k_calc.updates.userset import LOCK

SHARED_912 = Path(__file__).resolve().parents[2] / "shared" / "data" / "game-datacards-11e-912"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user data folder (conftest gives each test its own), with no proxy in the way of
    127.0.0.1."""
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.delenv("WH40K_CALC_EDITION", raising=False)
    return Path(os.environ["WH40K_CALC_HOME"])


@pytest.fixture(autouse=True)
def _whole_factions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tiny faction files built here stand for whole factions: the first update replaces
    data 912's 58 Orks datasheets with one, which the check of an update removing most of a
    faction (tested in tests/test_update_removals.py) would refuse; it is off here."""
    monkeypatch.setattr(run, "MAX_REMOVED_SHARE", 1.0)


@pytest.fixture
def server():
    with data_server() as s:
        yield s


def calc(*args: str | Path, code: int = 0):
    """``calc ARGS`` in-process (tests/helpers.cli), with the exit code checked."""
    result = cli(*args)
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    return result


# ---------------------------------------------------------------------------------------------
# Faction files of the game-datacards shape, built here


def _weapon(name: str, range_: str, attacks: str, skill: str, s: str, ap: str) -> dict:
    return {
        "name": {"en": name},
        "range": range_,
        "attacks": attacks,
        "skill": skill,
        "strength": s,
        "ap": ap,
        "damage": "1",
        "keywords": [],
    }


def _sheet(unit: str, model: str, t: str, w: str, sv: str, points: str, weapons: list) -> dict:
    ranged = [{"profiles": [p]} for p in weapons if p["range"] != "Melee"]
    melee = [{"profiles": [p]} for p in weapons if p["range"] == "Melee"]
    names = ", ".join(p["name"]["en"].lower() for p in weapons)
    stat = {"name": {"en": model}, "m": '6"', "t": t, "sv": sv, "w": w, "ld": "7+", "oc": "2"}
    return {
        "name": {"en": unit},
        "keywords": [{"en": "Infantry"}],
        "stats": [stat],
        "rangedWeapons": ranged,
        "meleeWeapons": melee,
        "abilities": {},
        "composition": [{"en": f"**10 {unit}**"}],
        "loadout": {"en": f"**Every model is equipped with:** {names}."},
        "points": [{"cost": points, "models": "10", "keyword": None, "detachment": None}],
    }


def orks(version: int = 913, boy_w: str = "1", points: str = "70", game: str = "40k-11e") -> dict:
    """Orks with one datasheet, Boyz: 10 Boys (T5 W``boy_w`` Sv5+) with a slugga (S4) and a
    choppa, ``points`` for the 10."""
    slugga = _weapon("Slugga", '12"', "1", "5+", "4", "0")
    choppa = _weapon("Choppa", "Melee", "3", "3+", "4", "-1")
    return {
        "id": "orks-id",
        "name": {"en": "Orks"},
        "source": game,
        "compatibleDataVersion": version,
        "updated": "2026-09-01T00:00:00Z",
        "datasheets": [_sheet("Boyz", "Boy", "5", boy_w, "5+", points, [slugga, choppa])],
    }


def necrons(version: int = 913) -> dict:
    """Necrons with one datasheet, Necron Warriors (T4 W1 Sv4+), 100 points for 10."""
    gauss = _weapon("Gauss flayer", '24"', "1", "4+", "4", "0")
    return {
        "id": "necrons-id",
        "name": {"en": "Necrons"},
        "source": "40k-11e",
        "compatibleDataVersion": version,
        "updated": "2026-09-01T00:00:00Z",
        "datasheets": [_sheet("Necron Warriors", "Necron Warrior", "4", "1", "4+", "100", [gauss])],
    }


def body(data: dict) -> bytes:
    return json.dumps(data).encode()


def listing(*names: str, version: int | None = None) -> bytes:
    """The data project's own list of its faction files (``index.json``)."""
    raw: dict = {"schemaVersion": 1, "source": "40k-11e", "factions": []}
    raw["factions"] = [{"id": n, "file": n} for n in names]
    if version is not None:
        raw["compatibleDataVersion"] = version
    return json.dumps(raw).encode()


def serve(server: DataServer, files: dict[str, dict | bytes], listed: bool = True) -> None:
    """Serve the faction files (and, with ``listed``, an ``index.json`` listing them)."""
    server.serve_files({n: d if isinstance(d, bytes) else body(d) for n, d in files.items()})
    if listed:
        server.routes["/index.json"] = file(listing(*files))


def boyz() -> dict:
    return json.loads(calc("show", "boyz", "--edition", "11", "--json").stdout)


def leftovers(home: Path) -> list[str]:
    """The temporary folders of updates in the user data folder ``home``."""
    names = (p.name for p in home.iterdir())
    return sorted(n for n in names if n.startswith(".datasheets-11.") and n != LOCK)


def first_update(server: DataServer, home: Path) -> None:
    """Update to the tiny Orks and Necrons of data 913 (Boyz 70 points, Boy W1)."""
    serve(server, {"orks.json": orks(), "necrons.json": necrons()})
    calc("data", "update", "--from", server.url)
    assert_still(home)


def assert_still(home: Path, version: int = 913, points: int = 70) -> None:
    """The data in use is the update's: Boyz of data ``version`` at ``points``, no temporary
    folder left, the status saying so."""
    data = boyz()
    assert data["data"]["version"] == version
    assert data["sizes"][0]["points"] == points
    assert leftovers(home) == []
    status = json.loads(calc("data", "status", "--json").stdout)
    mine = {f["faction"]: (f["set"], f["version"]) for f in status["factions"]}
    assert mine["Orks"] == ("updated", version)


def one_line_error(result, *words: str) -> str:
    """The failure's standard error: one ``error:`` line holding ``words``."""
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err, err
    for w in words:
        assert w in err, (w, err)
    assert "the data in use is unchanged" in err
    return err


# ---------------------------------------------------------------------------------------------
# A working update, and the data in use from then on


def test_update_from_a_local_server_then_show_and_shoot_use_it(server, home: Path) -> None:
    assert boyz()["data"]["version"] == 912  # the shipped data before
    serve(server, {"orks.json": orks(), "necrons.json": necrons()})
    out = calc("data", "update", "--from", server.url).stdout
    assert out.startswith(f"Updated the edition-11 data from {server.url}: 2 faction files")
    assert server.requests == ["/index.json", "/orks.json", "/necrons.json"]  # as listed
    assert_still(home)
    # the first line of an activation names the new data version
    text = calc("shoot", "boyz", "--target", "necron warriors", "--edition", "11").stdout
    assert "· data 913 ·" in " ".join(text.splitlines()[:2])
    # a second data version with one statline and one points value changed
    serve(server, {"orks.json": orks(914, boy_w="3", points="80"), "necrons.json": necrons(914)})
    out = calc("data", "update", "--from", server.url).stdout.splitlines()
    at = out.index("Orks (data 913 → 914): 1 changed")
    assert out[at : at + 3] == [
        "Orks (data 913 → 914): 1 changed",
        "  Boyz: Boy W 1→3; 10 models 70→80 pts",
        "No datasheet changed (data 913 → 914): Necrons.",
    ]
    assert_still(home, 914, 80)
    assert boyz()["models"][0]["W"] == 3


def test_nothing_written_when_nothing_differs(server, home: Path) -> None:
    first_update(server, home)
    record = (home / "datasheets-11" / "update.json").read_text(encoding="utf-8")
    out = calc("data", "update", "--from", server.url).stdout
    assert out.startswith("The edition-11 data is up to date")
    assert (home / "datasheets-11" / "update.json").read_text(encoding="utf-8") == record


@pytest.mark.skipif(not SHARED_912.is_dir(), reason=f"reads the data 912 in {SHARED_912}")
def test_a_modified_copy_of_data_912_served_as_913(server, home: Path) -> None:
    """Data 912's Orks and Space Marines files, changed here: 10 Boyz 75 → 80 points, the
    Intercessor statline T4 → T5 (one statline in the data, for both of the unit's models)."""
    files = {}
    for name in ("orks.json", "space_marines.json"):
        data = json.loads((SHARED_912 / name).read_text(encoding="utf-8"))
        data["compatibleDataVersion"] = 913
        for sheet in data["datasheets"]:
            if sheet["name"]["en"] == "Boyz":
                [ten] = [p for p in sheet["points"] if p["models"] == "10"]
                assert ten["cost"] == "75"
                ten["cost"] = "80"
            if sheet["name"]["en"] == "Intercessor Squad":
                assert sheet["stats"][0]["t"] == "4"
                sheet["stats"][0]["t"] = "5"
        files[name] = data
    before = json.loads(
        calc("shoot", "boyz", "--target", "intercessor squad", "--edition", "11", "--json").stdout
    )
    serve(server, files)
    out = calc("data", "update", "--from", server.url).stdout
    assert "Orks (data 912 → 913): 1 changed\n  Boyz: 10 models 75→80 pts\n" in out
    assert (
        "Space Marines (data 912 → 913): 1 changed\n"
        "  Intercessor Squad: Intercessor T 4→5; Intercessor Sergeant T 4→5\n"
    ) in out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert boyz()["sizes"][0]["points"] == 80
    after = json.loads(
        calc("shoot", "boyz", "--target", "intercessor squad", "--edition", "11", "--json").stdout
    )
    # Boyz' slugga is S4: it wounds T4 on 4+ (1/2) and T5 on 5+ (1/3)
    for result, p in ((before, 1 / 2), (after, 1 / 3)):
        slugga = result["expected"]
        assert slugga["wounds"] == pytest.approx(slugga["hits"] * p, rel=1e-9)
    assert after["attacker"]["data"]["version"] == 913
    text = calc("shoot", "intercessor squad", "--target", "boyz", "--edition", "11").stdout
    assert "· data 913 ·" in " ".join(text.splitlines()[:2])
    status = json.loads(calc("data", "status", "--json").stdout)
    by = {f["faction"]: (f["set"], f["version"], f["datasheets"]) for f in status["factions"]}
    assert by["Orks"] == ("updated", 913, 58) and by["Space Marines"][:2] == ("updated", 913)
    assert by["Necrons"][:2] == ("shipped", 912)
    assert status["updated"]["source"] == server.url


def test_status_text_and_reset(server, home: Path) -> None:
    text = calc("data", "status").stdout
    assert text.startswith("Edition-11 data in use: data 912 · 29 factions: 0 updated, 29 shipped")
    calc("data", "reset")  # nothing to reset: says so, exit 0
    first_update(server, home)
    text = calc("data", "status").stdout
    assert "2 updated, 27 shipped" in text.splitlines()[0]
    assert f"from {server.url} on " in text
    [orks_row] = [line for line in text.splitlines() if "│ Orks " in line]
    assert [cell.strip() for cell in orks_row.split("│")[1:6]] == [
        "Orks", "updated", "913", "2026-09-01", "1"
    ]  # fmt: skip
    out = calc("data", "reset").stdout
    assert out.startswith("Removed the updated edition-11 data (2 factions, data 913)")
    assert not (home / "datasheets-11").exists()
    assert boyz()["data"]["version"] == 912


def test_a_partial_update_keeps_the_other_updated_factions(server, home: Path) -> None:
    first_update(server, home)
    server.routes.clear()
    serve(server, {"orks.json": orks(914, points="80")}, listed=False)  # no list: the known names
    out = calc("data", "update", "--from", server.url, "--faction", "orks").stdout
    assert "Orks (data 913 → 914): 1 changed" in out and "Necrons" not in out
    assert server.requests[-2:] == ["/index.json", "/orks.json"]
    status = json.loads(calc("data", "status", "--json").stdout)
    by = {f["faction"]: (f["set"], f["version"]) for f in status["factions"]}
    assert by["Orks"] == ("updated", 914) and by["Necrons"] == ("updated", 913)


def test_update_from_a_folder(tmp_path: Path, home: Path) -> None:
    folder = tmp_path / "downloaded"
    folder.mkdir()
    (folder / "orks.json").write_text(json.dumps(orks()), encoding="utf-8")
    (folder / "keywords.json").write_text('{"keywords": []}', encoding="utf-8")  # not a faction
    out = "".join(calc("data", "update", "--from", folder).stdout.split())
    # compared without white space: the lines are at most 80 columns, so a temporary path
    # longer than a line (as under pytest-xdist) is folded inside
    said = f"Updated the edition-11 data from {folder}: 1 faction file (data 913)."
    assert "".join(said.split()) in out
    assert_still(home)


def test_an_unknown_faction_is_refused_with_suggestions(server, home: Path) -> None:
    serve(server, {"orks.json": orks()}, listed=False)
    err = one_line_error(calc("data", "update", "--from", server.url, "--faction", "orcs", code=1))
    assert "did you mean 'Orks'" in err


# ---------------------------------------------------------------------------------------------
# What the user wrote is not replaced or removed without --force; older data neither


def test_files_the_user_changed_are_kept_without_force(server, home: Path) -> None:
    first_update(server, home)
    mine = home / "datasheets-11" / "orks" / "boyz.yaml"
    mine.write_text(mine.read_text(encoding="utf-8").replace("points: 70", "points: 65"), "utf-8")
    serve(server, {"orks.json": orks(914), "necrons.json": necrons(914)})
    err = one_line_error(calc("data", "update", "--from", server.url, code=1))
    assert "orks/boyz.yaml (changed)" in err and "--force" in err
    assert boyz()["sizes"][0]["points"] == 65
    err = calc("data", "reset", code=1).stderr
    assert "orks/boyz.yaml (changed)" in err and "--force" in err
    calc("data", "update", "--from", server.url, "--force")
    assert boyz()["data"]["version"] == 914
    (home / "datasheets-11" / "notes.txt").write_text("mine", encoding="utf-8")
    assert "notes.txt (added)" in calc("data", "reset", code=1).stderr
    calc("data", "reset", "--force")
    assert boyz()["data"]["version"] == 912


def test_older_data_is_refused_without_force(server, home: Path) -> None:
    first_update(server, home)
    serve(server, {"orks.json": orks(912, points="60")})
    err = one_line_error(calc("data", "update", "--from", server.url, code=1))
    assert "is data 912, older than the 913 in use for Orks; --force" in err
    assert_still(home)
    calc("data", "update", "--from", server.url, "--force")
    assert boyz()["sizes"][0]["points"] == 60


def test_a_second_update_at_once_is_refused(server, home: Path) -> None:
    first_update(server, home)
    import fcntl

    with (home / LOCK).open("a+b") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        err = one_line_error(calc("data", "update", "--from", server.url, code=1))
        assert "another `calc data update` or `calc data reset` is running" in err
    assert_still(home)


# ---------------------------------------------------------------------------------------------
# Failures: one line, exit code non-zero, the data in use before still working


def test_connection_refused(server, home: Path) -> None:
    first_update(server, home)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = calc("data", "update", "--from", f"http://127.0.0.1:{port}/", code=1)
    one_line_error(result, f"cannot reach 127.0.0.1:{port} (Connection refused")
    assert_still(home)


def test_a_404(server, home: Path) -> None:
    first_update(server, home)
    server.routes.clear()
    server.routes["/index.json"] = file(listing("orks.json", "necrons.json"))
    server.routes["/necrons.json"] = file(body(necrons(914)))
    result = calc("data", "update", "--from", server.url, code=1)
    one_line_error(result, f"{server.url}orks.json: 404 Not Found")
    assert_still(home)


def test_a_redirect_loop_and_too_many_redirects(server, home: Path) -> None:
    first_update(server, home)
    server.routes["/orks.json"] = redirect("/orks.json")  # to itself
    result = calc("data", "update", "--from", server.url, code=1)
    one_line_error(result, "orks.json: a redirect loop or too many redirects (more than 5)")
    for i in range(7):  # a chain of 7 different addresses
        server.routes[f"/r{i}"] = redirect(f"/r{i + 1}")
    server.routes["/orks.json"] = redirect("/r0")
    server.routes["/r7"] = file(body(orks(914)))
    one_line_error(calc("data", "update", "--from", server.url, code=1), "too many redirects")
    server.routes["/orks.json"] = redirect("ftp://127.0.0.1/orks.json")
    one_line_error(calc("data", "update", "--from", server.url, code=1), "redirected to a ftp")
    assert_still(home)
    # a redirect or two is followed
    server.routes["/orks.json"] = redirect("/r6")
    calc("data", "update", "--from", server.url)
    assert boyz()["data"]["version"] == 914


def test_a_body_shorter_than_its_content_length(server, home: Path) -> None:
    first_update(server, home)
    whole = body(orks(914))
    server.routes["/orks.json"] = short(whole[:100], len(whole))
    result = calc("data", "update", "--from", server.url, code=1)
    one_line_error(result, f"orks.json: the download was cut short (100 of {len(whole):,} bytes)")
    assert_still(home)


def test_a_cut_json_and_an_invalid_one(server, home: Path) -> None:
    first_update(server, home)
    server.routes["/orks.json"] = file(body(orks(914))[:-30])  # complete download, cut JSON
    args = ("data", "update", "--from", server.url)
    one_line_error(calc(*args, code=1), "orks.json: not a JSON file")
    server.routes["/orks.json"] = file(b"<html>rate limited</html>")
    one_line_error(calc(*args, code=1), "orks.json: not a JSON file")
    server.routes["/orks.json"] = file(b'{"name": "Orks"}')  # JSON, not a faction file
    one_line_error(calc(*args, code=1), "not a faction file")
    assert_still(home)


def test_a_file_of_another_game(server, home: Path) -> None:
    first_update(server, home)
    server.routes["/orks.json"] = file(body(orks(914, game="40k-10e")))
    result = calc("data", "update", "--from", server.url, code=1)
    one_line_error(
        result,
        "orks.json: 'source' '40k-10e': not a faction file of the 11th edition (its 'source' "
        "is '40k-11e')",
    )
    assert_still(home)


def test_a_file_without_its_game(server, home: Path) -> None:
    """A fresh-user trial: a faction file with no ``source`` was said "a file of None"."""
    first_update(server, home)
    raw = orks(914)
    del raw["source"]
    server.routes["/orks.json"] = file(body(raw))
    result = calc("data", "update", "--from", server.url, code=1)
    one_line_error(
        result,
        "orks.json: no 'source' field: not a faction file of the 11th edition (its 'source' is "
        "'40k-11e')",
    )
    assert_still(home)


def test_a_file_over_the_cap(server, home: Path) -> None:
    first_update(server, home)
    server.routes["/orks.json"] = short(b"", MAX_FILE_BYTES + 1)  # announced: refused unread
    one_line_error(
        calc("data", "update", "--from", server.url, code=1),
        f"orks.json: {MAX_FILE_BYTES + 1:,} bytes, larger than a faction file can be",
    )
    server.routes["/orks.json"] = no_length(MAX_FILE_BYTES + 100_000)  # not announced
    one_line_error(
        calc("data", "update", "--from", server.url, code=1),
        f"orks.json: more than {MAX_FILE_BYTES:,} bytes",
    )
    assert_still(home)


def test_files_over_the_cap_in_all(server, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first_update(server, home)
    monkeypatch.setattr(sources, "MAX_TOTAL_BYTES", len(body(necrons())) + 10)
    result = calc("data", "update", "--from", server.url, code=1)
    one_line_error(result, "bytes in all (at orks.json); stopped")
    assert_still(home)


def test_a_server_that_does_not_answer_or_is_too_slow(
    server, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_update(server, home)
    monkeypatch.setattr(fetch, "TIMEOUT", 0.3)
    server.routes["/orks.json"] = silent(server.release)
    one_line_error(calc("data", "update", "--from", server.url, code=1), "no answer from 127.0.0.1")
    monkeypatch.setattr(fetch, "DEADLINE", 0.3)
    server.routes["/orks.json"] = drip(body(orks(914)), 0.05)
    result = calc("data", "update", "--from", server.url, code=1)
    one_line_error(result, "orks.json: not downloaded within 0.3 s")
    assert_still(home)


def _in_child(home: Path, *args: str, prelude: str = "") -> subprocess.Popen:
    """``calc ARGS`` in a process of its own (``python -c``), after ``prelude``."""
    code = (
        "import sys\n"
        f"{prelude}\n"
        "from wh40k_calc.cli import main\n"
        f"sys.argv = ['calc', *{list(args)!r}]\n"
        "main()\n"
    )
    env = {**os.environ, "WH40K_CALC_HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs RLIMIT_FSIZE (POSIX)")
def test_a_full_disk(server, home: Path) -> None:
    """The system refuses to write past a file size limit (``RLIMIT_FSIZE``, set in the child
    process before it runs ``calc``; SIGXFSZ ignored so the write fails with EFBIG, as a full
    disk fails with ENOSPC): the downloaded file cannot be written."""
    first_update(server, home)
    big = orks(914)
    big["padding"] = "x" * 200_000  # a field the importer does not read: a 200 kB file
    server.routes["/orks.json"] = file(body(big))
    prelude = (
        "import resource, signal\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))"
    )
    child = _in_child(home, "data", "update", "--from", server.url, prelude=prelude)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 1, (out, err)
    assert err.strip().count("\n") == 0 and "cannot write the new data in" in err
    assert "File too large" in err and "the data in use is unchanged" in err
    assert_still(home)


@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0,
    reason="run as root, who can write to a read-only folder: the refusal cannot happen",
)
def test_a_read_only_user_data_folder(server, home: Path) -> None:
    first_update(server, home)
    serve(server, {"orks.json": orks(914), "necrons.json": necrons(914)})
    home.chmod(0o555)
    try:
        one_line_error(calc("data", "update", "--from", server.url, code=1), "cannot write")
    finally:
        home.chmod(0o755)
    assert_still(home)


def test_ctrl_c_from_the_progress_callback(server, home: Path) -> None:
    first_update(server, home)
    serve(server, {"orks.json": orks(914), "necrons.json": necrons(914)})

    def progress(name: str, done: int, total: int, got: int, expected: int | None) -> None:
        if got:  # once the first bytes are in
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        update(Source(url=server.url), home, progress=progress)
    assert_still(home)


@pytest.mark.skipif(os.name == "nt", reason="sends SIGINT")
def test_ctrl_c_in_the_middle_of_a_download(server, home: Path) -> None:
    first_update(server, home)
    started = threading.Event()
    server.routes["/orks.json"] = stall_route(body(orks(914)), started, server.release)
    # the child marks the moment its download of orks.json has read bytes of the body: the
    # signal comes in the middle of the download however busy the machine (not after a sleep)
    mark = home.parent / f"{home.name}-orks-bytes-read"
    prelude = (
        "import http.client\n"
        "read1 = http.client.HTTPResponse.read1\n"
        "def marked(self, *args):\n"
        "    data = read1(self, *args)\n"
        "    if data and str(getattr(self, 'url', '')).endswith('/orks.json'):\n"
        f"        open({str(mark)!r}, 'a').close()\n"
        "    return data\n"
        "http.client.HTTPResponse.read1 = marked\n"
    )
    child = _in_child(home, "data", "update", "--from", server.url, prelude=prelude)
    assert started.wait(30), "the download did not start"
    deadline = time.monotonic() + 30
    while not mark.exists():
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the child read nothing of the stalled body"
        time.sleep(0.01)
    assert [p for p in home.iterdir() if p.name.startswith(".datasheets-11.new-")]
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130, (out, err)
    assert err.strip() == "error: interrupted; the data in use is unchanged"
    assert_still(home)


@pytest.mark.skipif(os.name == "nt", reason="sends SIGKILL")
def test_leftovers_of_a_killed_run_are_cleaned_up_by_the_next(server, home: Path) -> None:
    first_update(server, home)
    started = threading.Event()
    server.routes["/orks.json"] = stall_route(body(orks(914)), started, server.release)
    child = _in_child(home, "data", "update", "--from", server.url)
    assert started.wait(30)
    child.kill()  # no chance to clean up
    child.communicate(timeout=30)
    assert len(leftovers(home)) == 1
    assert "an interrupted update left 1 folder" in calc("data", "status").stdout
    assert boyz()["data"]["version"] == 913  # readers never look at it
    server.routes["/orks.json"] = file(body(orks(914)))
    result = calc("data", "update", "--from", server.url)
    assert "note: removed 1 folder an interrupted update left in" in result.stderr
    assert leftovers(home) == []
    assert boyz()["data"]["version"] == 914


def test_a_swap_broken_off_between_its_renames_is_put_back(server, home: Path) -> None:
    """A run stopped after moving the set in use aside and before renaming the new one into
    place (the only moment without a set): the next run, even one that fails, puts the set
    back."""
    first_update(server, home)
    os.replace(home / "datasheets-11", home / ".datasheets-11.old-0123456789ab")
    (home / ".datasheets-11.new-xyz").mkdir()
    assert boyz()["data"]["version"] == 912  # meanwhile: the shipped data, not half a set
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = calc("data", "update", "--from", f"http://127.0.0.1:{port}/", code=1)
    assert "note: put back the data in use before an interrupted update" in result.stderr
    assert_still(home)


def test_an_empty_or_foreign_source_is_refused(tmp_path: Path, home: Path) -> None:
    one_line_error(calc("data", "update", "--from", "ftp://example.org/", code=1), "only http")
    one_line_error(calc("data", "update", "--from", tmp_path / "nowhere", code=1), "does not exist")
    (tmp_path / "empty").mkdir()
    one_line_error(calc("data", "update", "--from", tmp_path / "empty", code=1), "no faction file")
    assert not (home / "datasheets-11").exists() and leftovers(home) == []


def test_errors_are_update_errors() -> None:
    with pytest.raises(UpdateError, match="only http and https"):
        sources.parse_source("file:///tmp/x")
    assert sources.parse_source("http://h/x").url == "http://h/x/"
    assert sources.parse_source(None).url == sources.DEFAULT_URL


def test_a_broken_updated_set_says_how_to_go_back(server, home: Path) -> None:
    first_update(server, home)
    (home / "datasheets-11" / "index.json").write_text("{", encoding="utf-8")
    err = calc("data", "status", code=1).stderr
    assert "not a datasheet index" in err and "`calc data reset --force` removes" in err
    assert "index.json (changed)" in calc("data", "reset", code=1).stderr
    calc("data", "reset", "--force")
    assert boyz()["data"]["version"] == 912


def test_the_changes_fit_the_terminal(server, home: Path) -> None:
    first_update(server, home)
    serve(server, {"orks.json": orks(914, boy_w="3", points="80"), "necrons.json": necrons(914)})
    result = cli("data", "update", "--from", server.url, env={"COLUMNS": "40"})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(len(line) <= 40 for line in lines), lines
    assert "  Boyz: Boy W 1→3; 10 models 70→80 pts" in lines  # 38 characters


def test_the_progress_bar_takes_the_update_s_calls() -> None:
    """The bar (drawn only on a terminal, so not in the commands run above) takes the calls
    the downloads make, and the last one, when every file is in."""
    import io

    from wh40k_calc.updates.command import _Bar

    stream = io.StringIO()
    bar = _Bar(stream)
    bar("orks.json", 0, 2, 1000, 4000)
    assert bar.bar.tasks[0].description == "orks.json"
    assert bar.bar.tasks[0].fields["files"] == "1/2 files"
    assert (bar.bar.tasks[0].completed, bar.bar.tasks[0].total) == (1000, 4000)
    bar("necrons.json", 2, 2, 0, None)
    assert bar.bar.tasks[0].description == "generating the datasheets"
    bar.stop()

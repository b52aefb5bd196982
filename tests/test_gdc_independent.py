"""40 random datasheets of the edition-11 data (game-datacards 912), read by this test's own
small reader of the JSON, against what ``calc show FACTION/NAME --edition 11 --json`` says:
every statline, every weapon profile (range, A, BS/WS, S, AP, D and its keywords as ability
strings) and the points of every unit size.

The reader shares nothing with the importer: it takes the faction files' fields as the data
README describes them (``stats``, ``rangedWeapons``/``meleeWeapons`` of ``profiles``,
``points``) and names each unit as the data does (its faction by the data's own name, e.g.
"Adeptus Astartes/Intercessor Squad", which the calculator must accept). Skipped without
``../shared``.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wh40k_calc.cli import app

GDC = Path(__file__).resolve().parents[2] / "shared/data/game-datacards-11e-912"
SAMPLE = 40
SEED = 912


def en(v) -> str:
    return v.get("en", "") if isinstance(v, dict) else (v or "")


def key(text: str) -> str:
    """Case and punctuation ignored (hyphens of any kind, apostrophes, dashes)."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def number(text: str) -> int | str:
    """'4+' -> 4, '-1' -> -1, 'D6+1' -> 'D6+1', '-' -> 0."""
    t = text.strip().rstrip('"').rstrip("+")
    if t in ("-", ""):
        return 0
    return int(t) if re.fullmatch(r"-?\d+", t) else t.upper()


def sheets() -> list[tuple[str, dict]]:
    out = []
    for path in sorted(GDC.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(raw.get("datasheets"), list):
            out += [(en(raw["name"]), d) for d in raw["datasheets"]]
    return out


def show(faction: str, name: str) -> dict:
    result = CliRunner().invoke(app, ["show", f"{faction}/{name}", "--edition", "11", "--json"])
    assert result.exit_code == 0, (faction, name, result.output)
    return json.loads(result.stdout)


def statline(s: dict) -> tuple:
    move = s["m"].strip().rstrip('"')
    return (
        None if move == "-" else number(move),
        number(s["t"]),
        number(s["sv"]),
        number(s["w"]),
        number(s["ld"]),
        number(s["oc"]),
    )


def profiles(d: dict):
    for side in ("rangedWeapons", "meleeWeapons"):
        for w in d.get(side) or []:
            for p in w["profiles"]:
                yield side == "meleeWeapons", p


def holdable(p: dict) -> bool:
    """A profile the datasheet format can hold: a numeric S and a range of 0-999" or Melee."""
    rng = p["range"].strip().rstrip('"')
    ok_range = rng.lower() == "melee" or (rng.isdigit() and int(rng) <= 999)
    return ok_range and p["strength"].strip().isdigit()


def ability(text: str) -> str:
    t = text.replace("\u2011", "-").replace("\u2010", "-").replace("\u2019", "'")
    return " ".join(t.lower().split())


@pytest.fixture(scope="module")
def sample() -> list[tuple[str, dict]]:
    if not GDC.is_dir():
        pytest.skip(f"the edition-11 data is not here ({GDC})")
    return random.Random(SEED).sample(sheets(), SAMPLE)


def test_forty_random_datasheets_match_the_data(sample) -> None:
    for faction, d in sample:
        name = en(d["name"])
        got = show(faction, name)
        assert key(got["name"]) == key(name)
        assert got["data"]["version"] == 912 and got["editions"] == ["11"]
        # statlines: every model type's characteristics
        want_stats = {statline(s) for s in d["stats"]}
        have_stats = {(m["M"], m["T"], m["Sv"], m["W"], m["Ld"], m["OC"]) for m in got["models"]}
        assert want_stats == have_stats, name
        # weapons: every profile the format can hold, with its keywords as abilities
        have = {key(w["name"]): w for w in got["weapons"]}
        for melee, p in profiles(d):
            if not holdable(p):
                continue
            k = key(en(p["name"]))  # a melee profile named as a ranged one is '... (melee)'
            w = (have.get(k + "melee") or have.get(k)) if melee else have.get(k)
            assert w is not None, (name, en(p["name"]), sorted(have))
            rng = p["range"].strip().rstrip('"')
            assert w["range"] == ("melee" if melee else int(rng)), (name, w)
            skill = p["skill"].strip()
            assert w["skill"] == (None if skill.upper() == "N/A" else number(skill)), (name, w)
            assert (w["A"], w["S"], w["AP"], w["D"]) == (
                number(p["attacks"]),
                number(p["strength"]),
                number(p["ap"]),
                number(p["damage"]),
            ), (name, w)
            assert w["abilities"] == [ability(k) for k in p["keywords"]], (name, w)
        # points: each size's cost (the plain costs; keyword and detachment costs are extra)
        want_points = {
            int(p["models"]): int(p["cost"])
            for p in d["points"]
            if not p.get("keyword") and not p.get("detachment")
        }
        have_points = {sum(s["models"].values()): s["points"] for s in got["sizes"]}
        assert want_points == have_points, name

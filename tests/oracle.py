"""Helpers for the rules tests: drive the CLI as a black box and compute values independently.

Nothing here asks the calculator for an expected value. The CLI is run in-process with typer's
CliRunner; datasheets are written on the fly (one-weapon attackers, simple targets) or read from
``tests/data/oracle``. Expected values are worked out in the tests by hand (exact fractions) or
with the icepool dice library; :func:`allocate` is a small, independent model of 10th-edition
damage allocation (wounded model first, excess normal damage lost) used to get exact kill
tables for a stream of attacks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool
import pytest
import yaml
from typer.testing import CliRunner

from wh40k_calc.cli import app

DATA = Path(__file__).resolve().parent / "data" / "oracle"
TOL = 1e-6  # the JSON carries 6 decimals of an exact engine: never compare more loosely


def approx(value: float | Fraction) -> Any:
    """``pytest.approx`` with the one tolerance these tests allow (absolute 1e-6)."""
    return pytest.approx(float(value), abs=TOL, rel=0)


# --------------------------------------------------------------------------------------------
# Driving the CLI


def invoke(args: Sequence[str], dirs: Iterable[Path] = ()) -> Any:
    """Run ``calc ARGS --datasheets DATA [--datasheets D ...]`` in-process; return the Result."""
    full = [str(a) for a in args] + ["--datasheets", str(DATA)]
    for d in dirs:
        full += ["--datasheets", str(d)]
    return CliRunner().invoke(app, full)


def run(command: str, attacker: str, target: str, *flags: Any, dirs: Iterable[Path] = ()) -> dict:
    """Run ``calc COMMAND ATTACKER --target TARGET FLAGS --json`` and return the parsed JSON."""
    result = invoke([command, attacker, "--target", target, "--json", *flags], dirs)
    assert result.exit_code == 0, (result.exit_code, result.stdout, result.stderr, result.exception)
    return json.loads(result.stdout)


def shoot(attacker: str, target: str, *flags: Any, dirs: Iterable[Path] = ()) -> dict:
    return run("shoot", attacker, target, *flags, dirs=dirs)


def fight(attacker: str, target: str, *flags: Any, dirs: Iterable[Path] = ()) -> dict:
    return run("fight", attacker, target, *flags, dirs=dirs)


def refused(command: str, attacker: str, target: str, *flags: Any, dirs: Iterable[Path] = ()):
    """Run a selection that must be refused: non-zero exit, a message, no traceback."""
    result = invoke([command, attacker, "--target", target, "--json", *flags], dirs)
    assert result.exit_code not in (0, None), result.stdout
    # A refusal is a clean exit (typer.Exit / SystemExit), not an escaped exception.
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    text = result.stdout + result.stderr
    assert "Traceback" not in text
    assert text.strip(), "no reason given"
    return result


def weapon_row(out: dict, name: str | None = None) -> dict:
    """The ``expected`` block of one weapon (the only one when ``name`` is None)."""
    rows = out["weapons"]
    if name is None:
        assert len(rows) == 1, [r["name"] for r in rows]
        return rows[0]["expected"]
    matches = [r for r in rows if r["name"].lower() == name.lower()]
    assert len(matches) == 1, [r["name"] for r in rows]
    return matches[0]["expected"]


def check_row(row: Mapping[str, float], **expected: float | Fraction) -> None:
    """Compare named fields of a result row with independent values (abs 1e-6)."""
    got = {k: row[k] for k in expected}
    want = {k: float(v) for k, v in expected.items()}
    assert got == {k: approx(v) for k, v in expected.items()}, f"got {got}, expected {want}"


# --------------------------------------------------------------------------------------------
# Datasheets written on the fly


def weapon(
    name: str = "Gun",
    *,
    range: int | str = 24,
    A: int | str = 1,
    skill: int | None = 4,
    S: int = 4,
    AP: int = 0,
    D: int | str = 1,
    abilities: Sequence[str] = (),
) -> dict:
    return {
        "name": name,
        "range": range,
        "A": A,
        "skill": skill,
        "S": S,
        "AP": AP,
        "D": D,
        "abilities": list(abilities),
    }


def melee(name: str = "Blade", **kw: Any) -> dict:
    return weapon(name, range="melee", **kw)


def model(
    name: str,
    *,
    T: int = 4,
    Sv: int = 4,
    W: int = 1,
    invuln: int | None = None,
    invuln_ranged_only: bool = False,
    feel_no_pain: int | None = None,
    keywords: Sequence[str] = (),
    equipped: Sequence[str] = (),
) -> dict:
    m: dict[str, Any] = {
        "name": name,
        "M": 6,
        "T": T,
        "Sv": Sv,
        "W": W,
        "Ld": 7,
        "OC": 1,
        "equipped": [e.lower() for e in equipped],
    }
    if invuln is not None:
        m["invuln"] = invuln
    if invuln_ranged_only:
        m["invuln_ranged_only"] = True
    if feel_no_pain is not None:
        m["feel_no_pain"] = feel_no_pain
    if keywords:
        m["keywords"] = list(keywords)
    return m


def write_unit(
    folder: Path,
    stem: str,
    *,
    models: Sequence[tuple[dict, int]],
    weapons: Sequence[dict] = (),
    keywords: Sequence[str] = ("INFANTRY",),
    faction_keywords: Sequence[str] = ("TESTERS",),
    rules: Sequence[str] | None = None,
    points: int = 100,
) -> str:
    """Write ``folder/stem.yaml`` (one size: the given model counts; for both rules editions)
    and return ``stem``."""
    sheet: dict[str, Any] = {
        "name": stem.replace("-", " ").title(),
        "faction": "Testers",
        "keywords": list(keywords),
        "faction_keywords": list(faction_keywords),
        "models": [m for m, _ in models],
        "sizes": [{"models": {m["name"]: n for m, n in models}, "points": points}],
        "weapons": list(weapons),
        "source": "tests/oracle.py (written by a test)",
        "edition": [10, 11],  # a test unit of our own: for both rules editions
    }
    if rules is not None:
        sheet["rules"] = list(rules)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.yaml").write_text(yaml.safe_dump(sheet, sort_keys=False))
    return stem


def write_sheet(
    folder: Path, name: str, m: dict, count: int, *keywords: str, **fields: Any
) -> None:
    """Write ``folder/<name in lower case>.yaml``: a unit of ``count`` models ``m`` of faction
    Testers at 10 points a model, with the keywords INFANTRY and ``keywords`` and any other
    datasheet ``fields`` (weapons, leader_of, support_of, ...)."""
    sheet = {
        "name": name,
        "faction": "Testers",
        "keywords": ["INFANTRY", *keywords],
        "models": [m],
        "sizes": [{"models": {m["name"]: count}, "points": 10 * count}],
        "edition": [10, 11],  # a test unit of our own: for both rules editions
        **fields,
    }
    (folder / f"{name.lower()}.yaml").write_text(yaml.safe_dump(sheet, sort_keys=False))


def attacker(
    folder: Path,
    *weapons: dict,
    models: int = 1,
    stem: str = "oracle-attacker",
    keywords: Sequence[str] = ("INFANTRY",),
    faction_keywords: Sequence[str] = ("TESTERS",),
    W: int = 1,
    rules: Sequence[str] | None = None,
) -> str:
    """A unit of ``models`` identical models, each equipped with every weapon given."""
    m = model("Gunner", W=W, equipped=[w["name"] for w in weapons])
    return write_unit(
        folder,
        stem,
        models=[(m, models)],
        weapons=weapons,
        keywords=keywords,
        faction_keywords=faction_keywords,
        rules=rules,
    )


def target(
    folder: Path,
    *,
    models: int = 10,
    stem: str = "oracle-target",
    keywords: Sequence[str] = ("INFANTRY",),
    faction_keywords: Sequence[str] = ("TESTERS",),
    **stats: Any,
) -> str:
    """A unit of ``models`` identical models with the given T/Sv/W/invuln/... (no weapons)."""
    return write_unit(
        folder,
        stem,
        models=[(model("Dummy", **stats), models)],
        keywords=keywords,
        faction_keywords=faction_keywords,
    )


# --------------------------------------------------------------------------------------------
# Independent arithmetic


def d6_at_least(n: int) -> Fraction:
    """P(one D6 shows n or more), n clamped to the faces: d6_at_least(7) == 0."""
    return Fraction(max(0, min(6, 7 - n)), 6)


def as_dist(die: icepool.Die | int | Mapping[int, Fraction]) -> dict[int, Fraction]:
    """An icepool die (or a constant, or a mapping) as {outcome: exact probability}."""
    if isinstance(die, int):
        return {die: Fraction(1)}
    if not isinstance(die, icepool.Die):  # (a Die is itself a Mapping of quantities)
        return dict(die)
    total = die.denominator()
    return {int(o): Fraction(q, total) for o, q in die.items()}


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((Fraction(k) * p for k, p in dist.items()), Fraction(0))


PerAttack = Mapping[Any, Fraction] | Callable[[int, int], Mapping[Any, Fraction]]


def allocate(
    attacks: icepool.Die | int | Mapping[int, Fraction],
    per_attack: PerAttack,
    wounds: Sequence[int],
    mortal: Mapping[int, Fraction] | None = None,
    mortal_first: bool = False,
) -> dict[tuple[int, int], Fraction]:
    """Exact joint distribution of (models destroyed, wounds lost) for one weapon's attacks.

    ``attacks``: the number of attacks (a die or a constant). ``per_attack``: what one attack
    does, the attacks being independent: ``{d: p}`` for d points of normal damage to the model
    it is allocated to (0: nothing), ``{("dev", d): p}`` for a Devastating Wounds critical
    wound inflicting d mortal wounds, resolved after all normal damage and not spilling; or a
    function ``(index of the model next in line, wounds left on it) -> that mapping`` (for
    models with different saves, or choices a player makes seeing the target).
    ``wounds``: the target's models, in the order the defender allocates. ``mortal``: a
    distribution of mortal wounds that spill from model to model, inflicted after everything
    else, or before the attacks with ``mortal_first``.
    """
    return allocate_streams([(attacks, per_attack)], wounds, mortal, mortal_first)


def allocate_streams(
    streams: Sequence[tuple[icepool.Die | int | Mapping[int, Fraction], PerAttack]],
    wounds: Sequence[int],
    mortal: Mapping[int, Fraction] | None = None,
    mortal_first: bool = False,
) -> dict[tuple[int, int], Fraction]:
    """:func:`allocate` for several weapons resolved one after the other (the target's state
    carries over from one weapon to the next; Devastating Wounds wait until all of them).

    10th-edition rules modelled (seeds README, "Allocating attacks"; core rules, Mortal
    Wounds, Devastating Wounds): a model that has lost wounds takes the next attack; excess
    damage of an attack (and of a Devastating Wounds attack's mortal wounds) is lost; other
    mortal wounds spill over to the next model.
    """
    n_models = len(wounds)
    State = tuple[int, int, int, int]  # model in line, wounds left on it, destroyed, lost

    def packet(state: State, dmg: int) -> State:
        i, left, dead, lost = state
        if dmg == 0 or i >= n_models:
            return state
        taken = min(dmg, left)
        if taken == left:  # destroyed; the rest of this attack is lost
            j = i + 1
            return (j, wounds[j] if j < n_models else 0, dead + 1, lost + taken)
        return (i, left - taken, dead, lost + taken)

    def spill(state: State, mw: int) -> State:
        for _ in range(mw):
            state = packet(state, 1)
        return state

    def add(acc: dict, key: Any, p: Fraction) -> None:
        acc[key] = acc.get(key, Fraction(0)) + p

    start: State = (0, wounds[0], 0, 0)
    # state: (allocation state, pending Devastating Wounds packets, sorted)
    cur: dict[Any, Fraction] = {(start, ()): Fraction(1)}
    if mortal is not None and mortal_first:
        cur = {}
        for mw, pm in mortal.items():
            add(cur, (spill(start, mw), ()), pm)

    for attacks, per_attack in streams:
        after_weapon: dict[Any, Fraction] = {}
        for n, pn in as_dist(attacks).items():
            run = {key: p * pn for key, p in cur.items()}
            for _ in range(n):
                nxt: dict[Any, Fraction] = {}
                for (s, pending), ps in run.items():
                    outcomes = per_attack(s[0], s[1]) if callable(per_attack) else per_attack
                    for outcome, po in outcomes.items():
                        if isinstance(outcome, tuple):
                            add(nxt, (s, tuple(sorted((*pending, outcome[1])))), ps * po)
                        else:
                            add(nxt, (packet(s, outcome), pending), ps * po)
                run = nxt
            for key, p in run.items():
                add(after_weapon, key, p)
        cur = after_weapon

    final: dict[State, Fraction] = {}
    for (s, pending), ps in cur.items():
        for d in pending:
            s = packet(s, d)
        add(final, s, ps)

    if mortal is not None and not mortal_first:
        after: dict[State, Fraction] = {}
        for s, ps in final.items():
            for mw, pm in mortal.items():
                add(after, spill(s, mw), ps * pm)
        final = after

    out: dict[tuple[int, int], Fraction] = {}
    for (_, _, dead, lost), ps in final.items():
        add(out, (dead, lost), ps)
    return out


def marginal(joint: Mapping[tuple[int, int], Fraction], index: int) -> dict[int, Fraction]:
    """One coordinate of :func:`allocate`'s result: 0 = models destroyed, 1 = wounds lost."""
    out: dict[int, Fraction] = {}
    for key, p in joint.items():
        out[key[index]] = out.get(key[index], Fraction(0)) + p
    return out


def dist_list(dist: Mapping[int, Fraction], length: int) -> list[Fraction]:
    """{k: p} as a list indexed by k, of the given length."""
    assert max(dist) < length
    return [dist.get(k, Fraction(0)) for k in range(length)]

"""Fights First given by an effect (``fights_first``, wh40k_calc/effect_schema.py) in the Fight
phase order of ``calc exchange`` (10th edition: Core rules, Fights First; edition 11: 24.13
Fights First, 12.04 Fight Step), and what ``calc fight`` says of it (nothing changes in one
unit's attacks). Values by hand.

The duel (tests/data/exchange): the Fencer (W3, rapier A2 WS3+ S4 D1) and the Brute (W4, maul
A3 WS4+ S5 AP-1 D2; at 1-2 wounds left -1 to its Hit rolls). Against each other the rapier's
attacks each take 1 wound with 2/3 x 1/3 x 2/3 = 4/27, the maul's 2 wounds with 1/2 x 2/3 x
2/3 = 2/9 (4/27 when damaged: hits on 5+). The Brute cannot be destroyed in one Fight phase
(two 1-damage attacks, 4 wounds); the Fencer is destroyed by two of the maul's three attacks.
Who fights first decides how often: when the Fencer strikes first and both its attacks get
through, the Brute fights back damaged.

When both sides or neither have Fights First, the 10th edition starts the phase with the side
whose turn it is not (Core rules, Fight phase), edition 11 with the side whose turn it is
(12.04): :func:`tie_lead` says it here, written from the rules, not taken from the program."""

from __future__ import annotations

from fractions import Fraction as F
from functools import partial
from pathlib import Path

import pytest
import yaml
from helpers import cli, cli_json

DATA = Path(__file__).parent / "data" / "exchange"
as_json = partial(cli_json, "exchange", dirs=[DATA], env={"COLUMNS": "80"})


def _two_or_more_of_three(p: F) -> F:
    return 1 - (1 - p) ** 3 - 3 * p * (1 - p) ** 2


def other(side: str) -> str:
    return "b" if side == "a" else "a"


def tie_lead(active: str, edition: str) -> str:
    """The side that fights first when both or neither have Fights First."""
    return other(active) if edition == "10" else active


def lead(active: str, ff: dict[str, bool], edition: str) -> str:
    """The side that fights first in a Fight phase: the one side with Fights First, else the
    tie's lead."""
    have = [s for s in "ab" if ff[s]]
    return have[0] if len(have) == 1 else tie_lead(active, edition)


def a_leads_ties(edition: str) -> str:
    """``--first`` for a one-turn exchange whose ties side A leads: A's turn in edition 11, B's
    in the 10th edition."""
    return "b" if edition == "10" else "a"


def fencer_destroyed(first: str) -> F:
    """P(the Fencer is destroyed) after one Fight phase in which side ``first`` fights first
    (A: the Fencer, B: the Brute), by hand."""
    rapier, maul, damaged = F(4, 27), F(2, 9), F(4, 27)
    if first == "b":
        return _two_or_more_of_three(maul)
    both = rapier * rapier  # the Brute is left on 2 wounds: damaged
    return both * _two_or_more_of_three(damaged) + (1 - both) * _two_or_more_of_three(maul)


def ff(**when) -> dict:
    """A detachment rule that gives Fights First (with record conditions ``when``)."""
    out = {"id": "ff", "name": "Quickness", "kind": "detachment", "summary": "s"}
    out.update(side="attacker", changes=[{"fights_first": True}])
    if when:
        out["when"] = when
    return out


def test_the_order_decides_the_duel_by_hand():
    """The hand values differ with the order (else the tests below could not fail)."""
    assert fencer_destroyed("a") != fencer_destroyed("b")


@pytest.mark.parametrize("edition", ["10", "11"])
def test_fights_first_from_an_effect_fights_before_the_side_that_leads_a_tie(fx, edition):
    """Nobody charges, in the turn where side A leads a tie (B's turn in the 10th edition,
    A's in edition 11): without the effect A fights first; the Brute with Fights First fights
    first instead, and P(Fencer destroyed) is the Brute-first value."""
    fx(ff(attacker_keywords=["BRUTE"]))
    base = ["--side-a", "fight fencer", "--turns", "1", "--edition", edition]
    base += ["--first", a_leads_ties(edition)]
    plain = as_json(*base, "--side-b", "fight brute")
    assert [a["side"] for a in plain["activations"]] == ["a", "b"]
    assert plain["result"]["p_destroyed"]["a"] == pytest.approx(float(fencer_destroyed("a")))
    out = as_json(*base, "--side-b", "fight brute --effect ff")
    assert [a["side"] for a in out["activations"]] == ["b", "a"]
    first = out["activations"][0]
    assert first["fights_first"] and first["fights_first_by"] == ["Quickness"]
    assert out["result"]["p_destroyed"]["a"] == pytest.approx(float(fencer_destroyed("b")))
    assert out["result"]["p_destroyed"]["b"] == pytest.approx(0.0)
    assert any("has Fights First (Quickness)" in n for n in out["notes"])


def test_both_with_fights_first_edition_11_the_active_player_selects_first(fx):
    """12.04 Resolve Fights First Combats: starting with the player whose turn it is. The
    Fencer charges (Fights First, its turn) and the Brute has Fights First from the effect:
    the Fencer fights first; ``--fight-first b`` picks the Brute instead."""
    fx(ff(attacker_keywords=["BRUTE"]))
    base = ["--side-a", "fight fencer --charged", "--side-b", "fight brute --effect ff"]
    out = as_json(*base, "--turns", "1", "--edition", "11")
    assert [a["side"] for a in out["activations"]] == ["a", "b"]
    assert all(a["fights_first"] for a in out["activations"])
    assert out["result"]["p_destroyed"]["a"] == pytest.approx(float(fencer_destroyed("a")))
    picked = as_json(*base, "--turns", "1", "--edition", "11", "--fight-first", "b")
    assert [a["side"] for a in picked["activations"]] == ["b", "a"]
    assert picked["result"]["p_destroyed"]["a"] == pytest.approx(float(fencer_destroyed("b")))


def test_both_with_fights_first_edition_10_the_player_whose_turn_it_is_not_selects_first(fx):
    """10th edition, Core rules, Fight phase: the Fights First step starts with the player
    whose turn it is not. The Fencer charges (Fights First, its turn) and the Brute has Fights
    First from the effect: the Brute fights first; ``--fight-first a`` picks the Fencer."""
    fx(ff(attacker_keywords=["BRUTE"]))
    base = ["--side-a", "fight fencer --charged", "--side-b", "fight brute --effect ff"]
    out = as_json(*base, "--turns", "1", "--edition", "10")
    assert [a["side"] for a in out["activations"]] == ["b", "a"]
    assert all(a["fights_first"] for a in out["activations"])
    assert out["result"]["p_destroyed"]["a"] == pytest.approx(float(fencer_destroyed("b")))
    picked = as_json(*base, "--turns", "1", "--edition", "10", "--fight-first", "a")
    assert [a["side"] for a in picked["activations"]] == ["a", "b"]
    assert picked["result"]["p_destroyed"]["a"] == pytest.approx(float(fencer_destroyed("a")))


@pytest.mark.parametrize("edition", ["10", "11"])
def test_fights_first_in_every_fight_phase_its_conditions_hold(fx, edition):
    """Two turns: the effect gives the Brute Fights First in both Fight phases, its own turn
    (B's) and A's; without it, each phase starts with the tie's lead (10th edition: the side
    whose turn it is not; edition 11: the side whose turn it is)."""
    fx(ff(attacker_keywords=["BRUTE"]))
    base = ["--side-a", "fight fencer", "--turns", "2", "--edition", edition]
    plain = as_json(*base, "--side-b", "fight brute")
    leads = [tie_lead("a", edition), tie_lead("b", edition)]
    assert leads == (["b", "a"] if edition == "10" else ["a", "b"])
    assert [a["side"] for a in plain["activations"]] == [s for x in leads for s in (x, other(x))]
    out = as_json(*base, "--side-b", "fight brute --effect ff")
    assert [a["side"] for a in out["activations"]] == ["b", "a", "b", "a"]


def test_a_condition_on_the_unit_as_the_side_gives_it(fx):
    """ "Fights First while below its Starting Strength": a Warband of 3 given with 2 models
    has it (it fights before the active Fencer); at full strength it does not."""
    rule = ff(attacker_keywords=["WARBAND"])
    rule["changes"] = [{"fights_first": True, "when": {"attacker_below_starting_strength": True}}]
    fx(rule)
    base = ["--side-a", "fight fencer", "--turns", "1", "--edition", "11"]
    full = as_json(*base, "--side-b", "fight warband --effect ff")
    assert [a["side"] for a in full["activations"]] == ["a", "b"]
    fewer = as_json(*base, "--side-b", "fight warband --models 2 --effect ff")
    assert [a["side"] for a in fewer["activations"]] == ["b", "a"]


@pytest.mark.parametrize("edition", ["10", "11"])
def test_calc_fight_says_fights_first_changes_nothing_there(fx, edition):
    """One unit's attacks are the same with Fights First: the figures do not move, and a
    note says why."""
    fx(ff(attacker_keywords=["BRUTE"]))
    args = ["fight", "brute", "--target", "fencer", "--edition", edition]
    plain = cli_json(*args, dirs=[DATA])
    out = cli_json(*args, "--effect", "ff", dirs=[DATA])
    assert out["weapons"][0]["expected"] == plain["weapons"][0]["expected"]
    assert any("Fights First (Quickness) changes the order" in n for n in out["notes"])
    text = cli(*args, "--effect", "ff", dirs=[DATA], env={"COLUMNS": "100"})
    assert "Fights First" in text.stdout


HEAD = "schema: 1\nedition: 11\nfaction: Orks\ndata: {source: game-datacards, version: 912}\n"


@pytest.mark.parametrize(
    ("change", "side", "message"),
    [
        ("{fights_first: false}", "attacker", "fights_first: write true"),
        ("{fights_first: true, weapons: melee}", "attacker", "fights_first is not a weapon's"),
        ("{fights_first: true}", "target", "an attacker-side change in a target-side record"),
        ("{fights_first: true, bearer_only: true}", "attacker", "is the unit's, not one model's"),
    ],
)
def test_malformed_fights_first_is_refused_at_load(tmp_path, change, side, message):
    from wh40k_calc.effect_schema import EffectFileError, load_effect_file

    p = tmp_path / "orks.yaml"
    body = f"effects:\n  - {{id: x, name: X, kind: army, summary: s, side: {side}, "
    p.write_text(HEAD + body + f"changes: [{change}]}}\n", encoding="utf-8")
    with pytest.raises(EffectFileError) as e:
        load_effect_file(p)
    assert message in str(e.value)


# ---- Fights First read per state: the order of a Fight phase decided by the units' states ----


@pytest.mark.parametrize("edition", ["10", "11"])
def test_fights_first_below_starting_strength_orders_each_fight_phase_per_state(fx, edition):
    """ "Fights First while below its Starting Strength" on the Warband (3 Raiders, W1 T4 Sv5+,
    knife A1 WS4+ S3) against the Fencer, three turns from A's. In each Fight phase the
    Warband has Fights First exactly in the states where it has lost a model; elsewhere
    neither has it and the tie's lead fights first. 10th edition: turn 1 (A's) B first (the
    Warband is whole: a tie, led by B whose turn it is not); turn 2 (B's) per state, A where
    the Warband is whole; turn 3 (A's) B either way. Edition 11: turn 1 A; turn 2 B either
    way; turn 3 per state, A where whole. The oracle (tests/exchange_oracle.py) runs each
    turn from each state in that state's order (:func:`lead`)."""
    from exchange_oracle import Model, Unit, Weapon, exchange, models_left_joint

    rule = ff(attacker_keywords=["WARBAND"])
    rule["changes"] = [{"fights_first": True, "when": {"attacker_below_starting_strength": True}}]
    fx(rule)
    fencer = Unit((Model("Fencer", 3, 4, 4, Weapon(2, 3, 4, 0, 1)),), ((0,),))
    raider = Model("Raider", 1, 4, 5, Weapon(1, 4, 3, 0, 1))
    warband = Unit((raider,) * 3, ((0, 1, 2),))
    dist = {(fencer.start(), warband.start()): F(1)}
    listed, shares = [], []  # per turn: the side listed first (full strength), how often it led
    for t in range(3):
        active = "a" if t % 2 == 0 else "b"
        full = lead(active, {"a": False, "b": False}, edition)
        listed.append(full)
        new: dict = {}
        alive = led = F(0)
        for (la, lb), p in dist.items():
            first = lead(active, {"a": False, "b": sum(1 for w in lb if w) < 3}, edition)
            if any(la) and any(lb):
                alive += p
                led += p if first == full else 0
            after, _ = exchange(fencer, warband, [first, other(first)], start_a=la, start_b=lb)
            for pair, q in after.items():
                new[pair] = new.get(pair, 0) + p * q
        dist = new
        shares.append(led / alive)
    assert listed == (["b", "a", "b"] if edition == "10" else ["a", "b", "a"])
    per_state = 1 if edition == "10" else 2  # the turn whose order the states decide
    assert 0 < shares[per_state] < 1 and all(shares[t] == 1 for t in range(3) if t != per_state)
    want = models_left_joint(dist)
    out = as_json(
        "--side-a", "fight fencer", "--side-b", "fight warband --effect ff",
        "--turns", "3", "--edition", edition, "--method", "both", "--trials", "40000",
    )  # fmt: skip
    exact = out["result"]
    for i, row in enumerate(exact["joint_models_left"]):
        for j, p in enumerate(row):
            assert p == pytest.approx(float(want.get((i, j), 0)), abs=1e-9), (i, j)
    # each turn lists its activations in the order of full strength, and the notes say how
    # often the first listed side led
    for t in range(3):
        acts = [a for a in out["activations"] if a["turn"] == t + 1]
        assert [a["side"] for a in acts] == [listed[t], other(listed[t])]
        note = next(n for n in acts[0]["notes"] if "fights first in" in n)
        side = listed[t].upper()
        assert f"side {side} fights first in {float(shares[t]):.2%} of the exchanges" in note
    # the sampler, run the same way per trial, agrees within its standard errors
    sample = out["sample"]["result"]
    for side in "ab":
        se = sample["standard_error"]["p_destroyed"][side]
        assert abs(sample["p_destroyed"][side] - exact["p_destroyed"][side]) < 4 * se + 1e-9


# ---- a datasheet's own Fights First ability ----------------------------------------------------

SHARED = Path(__file__).resolve().parents[2] / "shared"
CSV_DIR = SHARED / "data" / "wahapedia-10e-2025-07"
GDC_DIR = SHARED / "data" / "game-datacards-11e-912"


def test_the_importers_read_the_core_ability_as_a_unit_rule():
    """Howling Banshees have the core Fights First ability in both exports: the importers
    name the ``fights-first`` unit rule (a record giving ``fights_first``, no attack change)."""
    if not (CSV_DIR / "Datasheets.csv").is_file() or not (GDC_DIR / "aeldari.json").is_file():
        pytest.skip(f"needs {SHARED} (the datasheet exports)")
    from wh40k_calc.datasheet import parse_datasheet
    from wh40k_calc.importers.unit_rules import fights_first_body
    from wh40k_calc.importers.wahapedia import import_unit

    data, _ = import_unit(CSV_DIR, "Howling Banshees", None)
    assert "fights-first" in parse_datasheet(data, "<banshees>").rules
    assert fights_first_body()["changes"] == [{"fights_first": True}]
    shipped = Path(__file__).resolve().parents[1] / "datasheets-generated-11"
    sheet = yaml.safe_load((shipped / "aeldari" / "howling-banshees.yaml").read_text())
    assert "fights-first" in sheet["rules"]


def _quick_brute(tmp_path: Path) -> Path:
    """The Brute of the duel with ``rules: [fights-first]`` (a datasheet's own ability)."""
    sheet = yaml.safe_load((DATA / "brute.yaml").read_text())
    sheet.update(name="Quick Brute", rules=["fights-first"])
    folder = tmp_path / "sheets"
    folder.mkdir()
    (folder / "quick-brute.yaml").write_text(yaml.safe_dump(sheet, sort_keys=False))
    return folder


UNIT_FF = {
    "id": "fights-first",
    "name": "Fights First",
    "kind": "unit",
    "default": True,
    "summary": "s",
    "side": "attacker",
    "changes": [{"fights_first": True}],
}


@pytest.mark.parametrize("edition", ["10", "11"])
def test_a_datasheets_own_fights_first_orders_the_duel(tmp_path, fx, edition):
    """The Brute whose datasheet has Fights First fights first without being named, in the
    turn where side A would lead a tie: P(Fencer destroyed) is the Brute-first value by
    hand."""
    fx(UNIT_FF)
    folder = _quick_brute(tmp_path)
    out = cli_json(
        "exchange", "--side-a", "fight fencer", "--side-b", "fight 'quick brute'",
        "--turns", "1", "--edition", edition, "--first", a_leads_ties(edition),
        dirs=[DATA, folder],
    )  # fmt: skip
    assert [a["side"] for a in out["activations"]] == ["b", "a"]
    assert out["activations"][0]["fights_first_by"] == ["Fights First"]
    assert out["result"]["p_destroyed"]["a"] == pytest.approx(float(fencer_destroyed("b")))


def test_an_attached_unit_has_it_only_when_every_model_has_it():
    """Edition 11, 24.13: Howling Banshees led by Jain Zar (who has the ability too) have
    Fights First and fight before the Intercessors in the Intercessors' turn; led by an
    Autarch (who has not) they do not, and the Intercessors, whose turn it is, fight first."""
    if not (GDC_DIR / "aeldari.json").is_file():
        pytest.skip(f"needs {SHARED} (the datasheet exports)")
    base = ["exchange", "--side-a", "fight 'Intercessor Squad'", "--turns", "1"]
    base += ["--edition", "11", "--method", "sample", "--trials", "200"]
    with_zar = cli_json(*base, "--side-b", "fight 'Howling Banshees' --leader 'Jain Zar'")
    assert [a["side"] for a in with_zar["activations"]] == ["b", "a"]
    autarch = cli_json(*base, "--side-b", "fight 'Howling Banshees' --leader Autarch")
    assert [a["side"] for a in autarch["activations"]] == ["a", "b"]
    notes = [n for a in autarch["activations"] for n in a["notes"]]
    assert any("Autarch lacks it" in n for n in notes)

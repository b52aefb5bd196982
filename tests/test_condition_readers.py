"""The table of which weapon ability reads which condition (``rules.reads``) against what the
rules do: for every condition, every weapon ability and both editions and phases, a one-weapon
unit is planned with the condition and without it, and the attack profiles compared (the
oracle: the rule modules themselves, which never read the table; the notes, ``--explain``
and the shared-profile key do, so profiles are made afresh here).

A weapon with an ability is "special" for a condition when switching the condition on does
something else to it than to the same weapon without the ability (changes its profile where
the plain one stays the same, or the reverse, or lets it attack where the plain one is
refused, or the reverse). The table must list exactly the special pairs, each with its kind:
``READS`` (the plain weapon unchanged, this one changed), ``IGNORES`` (the plain one changed,
this one not) or ``CHOOSES`` (one of them refused).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import write_datasheet

from wh40k_calc.abilities import MALFORMED, NOT_MODELLED, SPECS
from wh40k_calc.datasheet import Datasheet, load_datasheet
from wh40k_calc.records import replace
from wh40k_calc.resolve import activation_key
from wh40k_calc.rules import EDITIONS, attacks, get_rules, reads
from wh40k_calc.selection import Conditions, Selection, SelectionError, UnitChoice

# one text of every ability the calculator knows (a new ability must be added here)
TEXTS = {
    "rapid fire": "rapid fire 1",
    "blast": "blast",
    "twin-linked": "twin-linked",
    "devastating wounds": "devastating wounds",
    "sustained hits": "sustained hits 1",
    "ignores cover": "ignores cover",
    "torrent": "torrent",
    "heavy": "heavy",
    "hazardous": "hazardous",
    "assault": "assault",
    "psychic": "psychic",
    "one shot": "one shot",
    "anti": "anti-infantry 4+",
    "melta": "melta 2",
    "lethal hits": "lethal hits",
    "precision": "precision",
    "extra attacks": "extra attacks",
    "indirect fire": "indirect fire",
    "lance": "lance",
    "conversion": "conversion",
    "pistol": "pistol",
    "close-quarters": "close-quarters",
    "cleave": "cleave 1",
}
CONDITIONS = Conditions.__struct_fields__
PHASES = ("shooting", "fight")


def test_every_ability_known_has_a_text_here() -> None:
    known = {s.key for s in SPECS if s.status not in (NOT_MODELLED, MALFORMED)}
    assert known == set(TEXTS)


def _sheet(
    folder: Path, stem: str, keywords: list[str], n: int, weapons: list[dict], **stats: object
) -> Datasheet:
    path = write_datasheet(folder, stem, weapons, models=n, model="Trooper", keywords=keywords,
                           faction_keywords=["TESTERS"], stats=stats)  # fmt: skip
    return load_datasheet(path)


class Units:
    """The datasheets of the checks, written once: five attackers of one weapon (A2 BS/WS 4+
    S4 AP-1 D2, with one ability or none) and the targets."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.made: dict[tuple[str, str], Datasheet] = {}
        self.targets = {
            "infantry": _sheet(folder, "infantry", ["INFANTRY"], 10, []),
            "monster": _sheet(folder, "monster", ["MONSTER"], 3, [], T=9, Sv=3, W=8),
        }

    def attacker(self, phase: str, text: str) -> Datasheet:
        if (phase, text) not in self.made:
            weapon = {
                "name": "Gun",
                "range": "melee" if phase == "fight" else 24,
                "A": 2,
                "skill": 4,
                "S": 4,
                "AP": -1,
                "D": 2,
                "abilities": [text] if text else [],
            }
            stem = f"attacker-{len(self.made)}"
            self.made[phase, text] = _sheet(self.folder, stem, ["INFANTRY"], 5, [weapon])
        return self.made[phase, text]


@pytest.fixture(scope="module")
def units(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Units]:
    """The units, with every profile made afresh: the profiles shared across runs are keyed
    by the table itself (``attacks.shared_key``), which would hide a rule that disagrees."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(attacks, "shared_key", lambda *args: None)
        yield Units(tmp_path_factory.mktemp("readers"))


def _state(units: Units, edition: str, phase: str, text: str, cond: Conditions, target: str):
    """The activation's attack profiles as numbers (names and sentences left out), or
    "refused" when the selection is impossible."""
    sel = Selection(
        phase=phase,
        attacker=UnitChoice(units.attacker(phase, text)),
        target=UnitChoice(units.targets[target]),
        edition=edition,
        conditions=cond,
    )
    try:
        plan = get_rules(edition).plan(sel)
        act = plan.build(tuple(0 for _ in plan.groups), 0, None)
    except SelectionError:
        return "refused"
    weapons = tuple(replace(w, name="Gun", choices=()) for w in act.weapons)
    return activation_key(replace(act, weapons=weapons, notes=()))


def _effect(units: Units, edition: str, phase: str, text: str, condition: str, target: str):
    """What switching ``condition`` on does to the weapon with ``text``: "refused",
    "changed" or "same"."""
    off = _state(units, edition, phase, text, Conditions(), target)
    on = _state(units, edition, phase, text, replace(Conditions(), **{condition: True}), target)
    if on == "refused" or off == "refused":
        return "refused" if on == "refused" else "allowed"
    return "same" if on == off else "changed"


KIND = {  # (the plain weapon's effect, the special one's) each kind of row allows
    reads.READS: {("same", "changed")},
    reads.IGNORES: {("changed", "same")},
    reads.CHOOSES: {("refused", "changed"), ("refused", "same"), ("same", "refused")},
}


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_table_lists_exactly_the_abilities_that_read_each_condition(
    units: Units, edition: str, phase: str
) -> None:
    """An INFANTRY attacker and target (the case the table gives)."""
    wrong = []
    for condition in CONDITIONS:
        plain = _effect(units, edition, phase, "", condition, "infantry")
        for key, text in TEXTS.items():
            mine = _effect(units, edition, phase, text, condition, "infantry")
            rows = [
                r
                for r in reads.readers(edition)
                if r.condition == condition and r.phase == phase and key in r.abilities
            ]
            if mine != plain and not rows:
                wrong.append(f"{condition} {key}: {plain} -> {mine}, not in the table")
            for r in rows:
                if (plain, mine) not in KIND[r.how]:
                    wrong.append(f"{condition} {key}: {plain} -> {mine}, the table says {r.how}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("edition", EDITIONS)
def test_conditions_read_through_an_ability_whatever_the_target(units: Units, edition: str):
    """The READS rows (the profiles shared across runs rely on them) against a MONSTER
    target too: the plain weapon is the same with the condition, the reader's changes."""
    for r in reads.read_through(edition):
        assert _effect(units, edition, r.phase, "", r.condition, "monster") == "same", r
        for key in r.abilities:
            assert _effect(units, edition, r.phase, TEXTS[key], r.condition, "monster") == (
                "changed"
            ), (r, key)


def test_a_lance_weapon_shooting_after_a_charge_is_unchanged(units: Units) -> None:
    """No Charge move comes before the Shooting phase in a turn: a ranged [LANCE] weapon
    shoots the same with --charged (the notes say so: "only melee attacks use it")."""
    for edition in EDITIONS:
        assert _effect(units, edition, "shooting", "lance", "charged", "infantry") == "same"


def test_cover_note_names_the_psychic_weapons_edition_11_leaves_uncovered(units: Units):
    """Edition 11: cover worsens BS, a modifier a [PSYCHIC] attack may ignore (24.29), so the
    profile is the same with --cover (the table check) and the note says none is covered."""
    sel = Selection(
        phase="shooting",
        attacker=UnitChoice(units.attacker("shooting", "psychic")),
        target=UnitChoice(units.targets["infantry"]),
        edition="11",
        conditions=Conditions(cover=True),
    )
    notes = get_rules("11").plan(sel).notes
    assert "--cover: no effect here: every weapon has [PSYCHIC]" in notes


def test_the_phase_notes_say_each_row_is_of_its_phase_only() -> None:
    """``idle``'s "no effect in this phase" lists name every row's condition for the other
    phase (a fight says --half-range changes nothing, shooting says --charged does not)."""
    from wh40k_calc.rules import idle

    other = {"shooting": "fight", "fight": "shooting"}
    for edition in EDITIONS:
        for r in reads.readers(edition):
            assert r.condition in idle._IDLE[other[r.phase]], (edition, r)
            assert r.condition not in idle._IDLE[r.phase], (edition, r)

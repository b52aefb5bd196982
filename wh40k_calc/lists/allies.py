"""Which factions an army may take allied units from: the army rules that let an army include
units of another faction, encoded as data (:data:`ALLY_RULES`), and :func:`ally_factions`,
which a list's allied units are looked up in when the list does not say their faction.

Each rule is one faction's army rule (or a detachment's), as the edition-11 data states it
(game-datacards data 912, the factions' army rules; the core rules say nothing of allies): an
army of one of ``armies`` (the keyword the rule asks every model to have, as our factions)
may include units of ``allies``, only those with one of ``unit_keywords`` where the rule names
some, only with ``detachment`` where it is a detachment's rule:

* Daemonic Pact (Chaos Daemons): CHAOS KNIGHTS or HERETIC ASTARTES armies, Chaos Daemons
  units.
* Dreadblades (Chaos Knights): CHAOS armies, a TITANIC Chaos Knight or War Dogs.
* Freeblades (Imperial Knights): IMPERIUM armies, a TITANIC Imperial Knight or Armigers.
* Assigned Agents (Agents of the Imperium): IMPERIUM armies, Agents of the Imperium units.
* Corsairs and Travelling Players (Drukhari): Drukhari armies, HARLEQUINS and ANHRATHE units
  (Aeldari datasheets).
* Cults of the Dark Gods (Chaos Space Marines): Chaos Space Marines armies, Khorne
  Berzerkers, Rubric Marines, Plague Marines and Noise Marines.
* Brood Brothers (Genestealer Cults, its Brood Brothers Auxilia detachment): Astra Militarum
  units.

So a Chaos Knights army's Nurglings (a datasheet of both Chaos Daemons and Death Guard) are
Chaos Daemons: no rule lets it take Death Guard units. The edition-10 army rules are not in
our reference material, so these are used for edition-10 lists too; they only choose among
the factions that have a datasheet of the name, and a list (its allied force's faction) or
``--allies`` that says otherwise wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..datasheet import Datasheet, norm_name

HERETIC_ASTARTES = (
    "Chaos Space Marines",
    "Death Guard",
    "Thousand Sons",
    "World Eaters",
    "Emperor’s Children",
)
CHAOS = (*HERETIC_ASTARTES, "Chaos Daemons", "Chaos Knights")
IMPERIUM = (
    "Space Marines",
    "Space Wolves",
    "Blood Angels",
    "Dark Angels",
    "Black Templars",
    "Deathwatch",
    "Astra Militarum",
    "Adepta Sororitas",
    "Adeptus Custodes",
    "Adeptus Mechanicus",
    "Adeptus Titanicus",
    "Grey Knights",
    "Imperial Agents",
    "Imperial Knights",
)


@dataclass(frozen=True)
class AllyRule:
    """One army rule letting an army include another faction's units: its ``name``, the
    faction whose rule it is (``source``), the ``armies`` (our factions) it is for, the
    ``allies`` faction, the ``unit_keywords`` an allied datasheet must have one of (empty:
    any), and the ``detachment`` it needs (None: any)."""

    name: str
    source: str
    armies: tuple[str, ...]
    allies: str
    unit_keywords: tuple[str, ...] = ()
    detachment: str | None = None


ALLY_RULES: tuple[AllyRule, ...] = (
    AllyRule(
        "Daemonic Pact", "Chaos Daemons", ("Chaos Knights", *HERETIC_ASTARTES), "Chaos Daemons"
    ),
    AllyRule(
        "Dreadblades",
        "Chaos Knights",
        tuple(f for f in CHAOS if f != "Chaos Knights"),
        "Chaos Knights",
        ("TITANIC", "WAR DOG"),
    ),
    AllyRule(
        "Freeblades",
        "Imperial Knights",
        tuple(f for f in IMPERIUM if f != "Imperial Knights"),
        "Imperial Knights",
        ("TITANIC", "ARMIGER"),
    ),
    AllyRule(
        "Assigned Agents",
        "Imperial Agents",
        tuple(f for f in IMPERIUM if f != "Imperial Agents"),
        "Imperial Agents",
    ),
    AllyRule(
        "Corsairs and Travelling Players",
        "Drukhari",
        ("Drukhari",),
        "Aeldari",
        ("HARLEQUINS", "ANHRATHE"),
    ),
    *(
        AllyRule("Cults of the Dark Gods", "Chaos Space Marines", ("Chaos Space Marines",), f, (k,))
        for f, k in (
            ("World Eaters", "KHORNE BERZERKERS"),
            ("Thousand Sons", "RUBRIC MARINES"),
            ("Death Guard", "PLAGUE MARINES"),
            ("Emperor’s Children", "NOISE MARINES"),
        )
    ),
    AllyRule(
        "Brood Brothers",
        "Genestealer Cults",
        ("Genestealer Cults",),
        "Astra Militarum",
        detachment="Brood Brothers Auxilia",
    ),
)


def ally_rules(army: str | None, detachments: tuple[str, ...] = ()) -> list[AllyRule]:
    """The rules of :data:`ALLY_RULES` that let an army of our faction ``army`` (None: none)
    with ``detachments`` (the list's) include another faction's units, in table order."""
    if army is None:
        return []
    key = norm_name(army)
    chosen = {norm_name(d) for d in detachments}
    return [
        r
        for r in ALLY_RULES
        if key in {norm_name(a) for a in r.armies}
        and (r.detachment is None or norm_name(r.detachment) in chosen)
    ]


def ally_factions(army: str | None, detachments: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The factions an army of ``army`` may take allied units from (see :func:`ally_rules`),
    each once, in table order."""
    return tuple(dict.fromkeys(r.allies for r in ally_rules(army, detachments)))


def allowed(rules: list[AllyRule], ds: Datasheet) -> AllyRule | None:
    """The first of ``rules`` that lets the army include datasheet ``ds`` (its faction is the
    rule's allies and it has one of the rule's unit keywords, where it names some), or None."""
    for r in rules:
        if norm_name(r.allies) != norm_name(ds.faction):
            continue
        if not r.unit_keywords or set(r.unit_keywords) & ds.all_keywords():
            return r
    return None

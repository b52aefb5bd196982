"""Faction names: ours (what players call a faction, the same in both editions) and the names
the data uses for the same faction.

The 10th-edition export and the calculator say "Space Marines", "Chaos Space Marines", "Chaos
Daemons", "Aeldari", "Imperial Agents"; the edition-11 data (game-datacards) names those
factions "Adeptus Astartes", "Heretic Astartes", "Legiones Daemonica", "Asuryani" and "Agents of
the Imperium". Datasheets are filed under our names; the data's names are accepted wherever a
faction is named (``--faction``, ``FACTION/UNIT``, ``WH40K_CALC_FACTIONS``).

Edition 11 also gives Blood Angels, Dark Angels, Space Wolves, Black Templars and Deathwatch
faction files of their own, each with ``parent_name: Adeptus Astartes``: they keep their own
names here (a player says "Blood Angels"), and :data:`PARENTS` records that they belong to Space
Marines, so that ``Space Marines/Death Company Marines`` finds the Blood Angels datasheet (see
:mod:`wh40k_calc.catalog`). The names are facts of the data; nothing else lives here.
"""

from __future__ import annotations

# the data's faction name -> ours
DATA_NAMES: dict[str, str] = {
    "Adeptus Astartes": "Space Marines",
    "Heretic Astartes": "Chaos Space Marines",
    "Legiones Daemonica": "Chaos Daemons",
    "Asuryani": "Aeldari",
    "Agents of the Imperium": "Imperial Agents",
}

# a faction of its own in the edition-11 data -> the faction it belongs to (ours)
PARENTS: dict[str, str] = {
    "Blood Angels": "Space Marines",
    "Dark Angels": "Space Marines",
    "Space Wolves": "Space Marines",
    "Black Templars": "Space Marines",
    "Deathwatch": "Space Marines",
}


def our_name(data_name: str) -> str:
    """Our name for a faction the data names ``data_name`` (itself when we use the data's)."""
    name = " ".join(data_name.split())
    return DATA_NAMES.get(name, name)


def aliases() -> dict[str, str]:
    """Every other name of a faction -> ours (the data's names)."""
    return dict(DATA_NAMES)

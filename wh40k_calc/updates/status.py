"""Which edition-11 data each faction uses (``calc data status``, and the "before" of an
update): the shipped set or the user data folder's updated one, its data version and date,
how many datasheets, and where they are.

The catalog decides which set gives a faction (:meth:`~wh40k_calc.catalog.Catalog.generated_sets`:
the updated set for the factions it has, the shipped one for the others); this module reads
the ``files`` and ``units`` of those sets' ``index.json`` to say so faction by faction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..catalog import GENERATED_11, INDEX, Catalog
from ..sheetnames import DatasheetError, norm_name
from . import UpdateError
from .userset import Record, leftovers, read_record, target


@dataclass(frozen=True)
class FactionData:
    """One faction's edition-11 data in use: its name (ours and the data's), the faction it
    belongs to (a chapter's: Space Marines), its faction file, which set (``kind``: "shipped"
    or "updated") and that set's folder, the data version and date, and its units as
    (name, file relative to the folder)."""

    faction: str
    data_faction: str
    parent: str | None
    file: str
    kind: str
    folder: Path
    version: int | str
    date: str
    units: tuple[tuple[str, str], ...]

    @property
    def count(self) -> int:
        """How many datasheets the faction has in that set."""
        return len(self.units)


@dataclass(frozen=True)
class DataStatus:
    """The edition-11 data in use: each faction's (sorted by name), the shipped folder, the
    updated set's folder and record (None: no updated set; a record None: a set not written by
    ``calc data update``), and an interrupted run's leftovers."""

    factions: tuple[FactionData, ...]
    shipped: Path
    updated: Path | None
    record: Record | None
    leftovers: tuple[Path, ...]

    @property
    def versions(self) -> list[int | str]:
        """The data versions in use, sorted (as the indexes give them: numbers)."""
        found = {str(f.version): f.version for f in self.factions}
        return [found[k] for k in sorted(found, key=lambda v: (len(v), v))]


def _index(folder: Path, hint: str = "") -> dict:
    try:
        raw = json.loads((folder / INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UpdateError(f"{folder / INDEX}: not a datasheet index ({exc}){hint}") from None
    if not isinstance(raw, dict):
        raise UpdateError(f"{folder / INDEX}: not a datasheet index{hint}")
    return raw


def factions_in_use(home: Path, shipped: Path = GENERATED_11) -> list[FactionData]:
    """Each faction's edition-11 data in use with the user data folder ``home``: from its
    updated set where that has the faction, else from the shipped set ``shipped``.

    Raises:
        UpdateError: an index is not readable.
    """
    try:
        sets = Catalog(
            use_env=False, home=home / "datasheets", generated_11=shipped
        ).generated_sets("11")
    except DatasheetError as exc:
        hint = (
            "; `calc data reset --force` removes the updated data" if target(home).exists() else ""
        )
        raise UpdateError(f"{exc}{hint}") from None
    out = []
    for g in sets:
        raw = _index(g.folder, "" if g.shipped else "; `calc data reset --force` removes it")
        units: dict[str, list[tuple[str, str]]] = {}
        for u in raw.get("units", []):
            units.setdefault(norm_name(u["faction"]), []).append((u["name"], u["file"]))
        for f in raw.get("files", []):
            key = norm_name(str(f.get("faction", "")))
            if g.factions is not None and key not in g.factions:
                continue
            out.append(
                FactionData(
                    faction=str(f["faction"]),
                    data_faction=str(f.get("data_faction") or f["faction"]),
                    parent=f.get("parent"),
                    file=str(f.get("file", "")),
                    kind="shipped" if g.shipped else "updated",
                    folder=g.folder,
                    version=f.get("version", ""),
                    date=str(f.get("date", "")),
                    units=tuple(units.get(key, ())),
                )
            )
    return sorted(out, key=lambda f: norm_name(f.faction))


def data_status(home: Path, shipped: Path = GENERATED_11) -> DataStatus:
    """The edition-11 data in use with the user data folder ``home``.

    Raises:
        UpdateError: an index is not readable.
    """
    where = target(home)
    updated = where if (where / INDEX).is_file() else None
    return DataStatus(
        factions=tuple(factions_in_use(home, shipped)),
        shipped=shipped,
        updated=updated,
        record=read_record(where) if updated is not None else None,
        leftovers=tuple(leftovers(home)),
    )


def status_json(status: DataStatus) -> dict:
    """``calc data status --json``: ``{"edition": "11", "versions": [...], "shipped": folder,
    "updated": {folder, source, when} or null, "factions": [{faction, data_faction, parent,
    file, set, version, date, datasheets, folder}], "leftovers": [folder]}`` (``set``:
    "shipped" or "updated")."""
    updated = None
    if status.updated is not None:
        rec = status.record
        updated = {
            "folder": str(status.updated),
            "source": rec.source if rec else None,
            "when": rec.when if rec else None,
        }
    return {
        "edition": "11",
        "versions": status.versions,
        "shipped": str(status.shipped),
        "updated": updated,
        "factions": [
            {
                "faction": f.faction,
                "data_faction": f.data_faction,
                "parent": f.parent,
                "file": f.file,
                "set": f.kind,
                "version": f.version,
                "date": f.date,
                "datasheets": f.count,
                "folder": str(f.folder),
            }
            for f in status.factions
        ],
        "leftovers": [str(p) for p in status.leftovers],
    }

"""Reading the edition-11 faction files of the community data project game-datacards
(``shared/data/README.md``: its ``datasources`` repository, folder ``11th/gdc/``).

One JSON file per faction: ``name`` (the data's faction name, e.g. "Adeptus Astartes"),
``parent_name`` (for a chapter with a file of its own), ``compatibleDataVersion`` (the data
version, 912) and ``updated`` (its date) at the top, then ``datasheets``. Text fields are
multilingual objects (``{"en": ...}``) holding markdown (``**bold**``, bullets such as ``■``);
names may spell a hyphen as a non-breaking one (U+2011). :func:`read_faction_file` checks the
shape and reads one file; the text helpers give plain English text and names as typed. Nothing
here knows the datasheet format.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..factions import PARENTS, our_name
from .export import ImportFailure, clean_name, html_to_text

SOURCE = "game-datacards"  # the data project, as ``data.source`` names it
GAME = "40k-11e"  # the game and edition every faction file and datasheet is for
MAX_FILE_BYTES = 20_000_000  # a faction file is about 1 MB; anything far larger is not one


@dataclass(frozen=True)
class FactionFile:
    """One faction file: where it is, the data's faction name and ours, the faction it belongs
    to (ours; None unless a chapter's file), the data version and date, its datasheets (raw)
    and its army rules (name -> plain text)."""

    path: Path
    data_name: str
    faction: str
    parent: str | None
    version: int | str
    updated: str
    datasheets: list[dict[str, Any]] = field(repr=False)
    army_rules: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def date(self) -> str:
        """The data version's date, ``2026-07-23``."""
        return self.updated[:10]


def text(value: object) -> str:
    """The English text of a multilingual field (``{"en": ...}``), a plain string as it is,
    anything else ''."""
    if isinstance(value, dict):
        value = value.get("en", "")
    return value if isinstance(value, str) else ""


_BULLETS = re.compile(r"\s*[\u25a0\u25aa\u25e6\u25ab\u2022]\s*")  # ■ ▪ ◦ ▫ •
_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u00a0": " "})


def plain(markdown: str) -> str:
    """Plain text of a markdown (or HTML) field: emphasis marks dropped, each bullet item on a
    line of its own, hyphens as typed, runs of spaces collapsed."""
    t = html_to_text(markdown.replace("<", "&lt;").replace("\n", "<br>"))
    t = t.translate(_HYPHENS).replace("*", "")
    t = _BULLETS.sub("\n", t)
    lines = (" ".join(line.split()) for line in t.splitlines())
    return "\n".join(line for line in lines if line)


def gdc_name(value: object) -> str:
    """A unit, model, weapon or keyword name as typed: composed Unicode, hyphens as '-',
    emphasis marks dropped, single spaces; the data's own casing and apostrophes kept."""
    name = unicodedata.normalize("NFC", text(value)).translate(_HYPHENS).replace("*", "")
    return clean_name(name)


def _load(path: Path) -> dict[str, Any]:
    """The JSON object of one file.

    Raises:
        ImportFailure: unreadable, larger than :data:`MAX_FILE_BYTES`, not JSON or not an
            object.
    """
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImportFailure(
                f"{path}: {size:,} bytes, larger than a faction file can be "
                f"({MAX_FILE_BYTES:,}); not read"
            )
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ImportFailure(f"cannot read {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise ImportFailure(f"{path}: not a JSON file ({exc})") from None
    if not isinstance(raw, dict):
        raise ImportFailure(f"{path}: not a faction file (the top is not an object)")
    return raw


def is_faction_file(raw: dict[str, Any]) -> bool:
    """Whether a JSON object is a faction file (it has datasheets), not one of the folder's
    other files (core rules, FAQs, keywords)."""
    return isinstance(raw.get("datasheets"), list)


def read_faction_file(path: Path) -> FactionFile:
    """One faction file, its shape checked.

    Raises:
        ImportFailure: unreadable or not JSON; not a faction file (no ``datasheets`` list, no
            faction ``name``); a file of another game or edition (``source`` is not
            ``40k-11e``); a field of the wrong shape (:func:`.gdc_shape.check_faction`: a
            datasheet that is not an object, army rules that are not a list); no data
            version.
    """
    raw = _load(path)
    if not is_faction_file(raw):
        raise ImportFailure(f"{path}: not a faction file (no 'datasheets' list)")
    if raw.get("source") != GAME:
        source = raw.get("source")
        said = "no 'source' field" if source is None else f"'source' {source!r}"
        raise ImportFailure(
            f"{path}: {said}: not a faction file of the 11th edition (its 'source' is {GAME!r})"
        )
    from .gdc_shape import check_faction

    check_faction(raw, str(path))
    data_name = " ".join(text(raw.get("name")).split())
    if not data_name:
        raise ImportFailure(f"{path}: the faction file names no faction ('name')")
    version = raw.get("compatibleDataVersion")
    if not isinstance(version, int | str) or isinstance(version, bool) or not str(version):
        raise ImportFailure(f"{path}: no data version ('compatibleDataVersion')")
    updated = raw.get("updated")
    faction = our_name(data_name)
    parent_name = raw.get("parent_name")
    parent = our_name(text(parent_name)) if parent_name else PARENTS.get(faction)
    sheets = raw["datasheets"]  # each an object (checked)
    return FactionFile(
        path=path,
        data_name=data_name,
        faction=faction,
        parent=parent,
        version=version,
        updated=updated if isinstance(updated, str) else "",
        datasheets=sheets,
        army_rules=_army_rules(raw.get("rules")),
    )


def _army_rules(rules: object) -> dict[str, str]:
    """The faction's army rules (``rules.army``): name -> plain text."""
    out: dict[str, str] = {}
    army = rules.get("army") if isinstance(rules, dict) else None
    for rule in army if isinstance(army, list) else []:
        if not isinstance(rule, dict):
            continue
        parts = [plain(text(r.get("text"))) for r in rule.get("rules", []) if isinstance(r, dict)]
        out[gdc_name(rule.get("name"))] = "\n".join(p for p in parts if p)
    return out


def faction_files(src_dir: Path) -> list[Path]:
    """The faction files of a folder (``*.json`` with datasheets), sorted by file name.

    Raises:
        ImportFailure: the folder is missing or a file; it holds no faction file; a JSON file
            that cannot be read.
    """
    src = Path(src_dir)
    if not src.exists():
        raise ImportFailure(
            f"{src}: the folder does not exist; pass the folder of the edition-11 faction "
            "files (game-datacards)"
        )
    if not src.is_dir():
        raise ImportFailure(f"{src}: is a file, not a folder of faction files")
    found = [p for p in sorted(src.glob("*.json")) if p.is_file() and is_faction_file(_load(p))]
    if not found:
        raise ImportFailure(f"{src}: no faction file here (JSON files with 'datasheets')")
    return found

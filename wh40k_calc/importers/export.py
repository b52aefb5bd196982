"""Reading the 10th-edition datasheet CSV export (``shared/data/README.md``).

The export is a folder of pipe-separated files, UTF-8 with a byte-order mark, every line ending
in ``|``, with HTML inside text fields and ids as zero-padded strings. :class:`Export` reads
each file once and groups its rows by datasheet id; the text helpers turn HTML fields into
plain text and names into file names. Nothing here knows the datasheet format.
"""

from __future__ import annotations

import csv
import functools
import html
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

from ..abilities import split_abilities


class ImportFailure(ValueError):
    """A datasheet that cannot be imported: unknown or ambiguous name, unreadable export, or a
    result that does not fit the datasheet format. The message says what to do instead."""


# ---------------------------------------------------------------------------------------------
# Text helpers


class _TextParser(HTMLParser):
    _BREAKS = frozenset({"br", "li", "p", "ul", "div"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_to_text(text: str) -> str:
    """Plain text of an HTML fragment: tags dropped, entities decoded, ``<br>``/``<li>`` as
    line breaks, runs of spaces collapsed."""
    parser = _TextParser()
    parser.feed(text)
    parser.close()
    raw = html.unescape("".join(parser.parts)).replace("\xa0", " ")
    lines = (" ".join(line.split()) for line in raw.splitlines())
    return "\n".join(line for line in lines if line)


# Cyrillic letters that the export sometimes types instead of the Latin ones they look like
# ("Сombi-bolter" with a Cyrillic С): names are read with the Latin letter.
_HOMOGLYPHS = str.maketrans("АВСЕНКМОРТХасеорху", "ABCEHKMOPTXaceopxy")


def clean_name(text: str) -> str:
    """A name as printed, with single spaces and Latin letters for their Cyrillic look-alikes."""
    return " ".join(text.translate(_HOMOGLYPHS).split())


def weapon_abilities(description: str) -> list[str]:
    """The ability texts of a wargear row's ``description`` field, lower case, in order.

    ``'<a href=...>anti-infantry 4+</a>, one shot'`` gives ``['anti-infantry 4+', 'one shot']``.
    """
    text = html_to_text(description).replace("\n", ", ")
    return [" ".join(part.lower().split()) for part in split_abilities(text)]


def slug(text: str) -> str:
    """File-name form of a unit or faction name: ``T’au Empire`` -> ``tau-empire``,
    ``Kâhl`` -> ``kahl``."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = text.lower().replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


# ---------------------------------------------------------------------------------------------
# Reading the export


def read_table(csv_dir: Path, filename: str) -> list[dict[str, str]]:
    """All rows of one export file as dicts keyed by the header's column names.

    Raises:
        ImportFailure: the file is missing or unreadable.
    """
    path = Path(csv_dir) / filename
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            reader = csv.reader(fh, delimiter="|", quoting=csv.QUOTE_NONE)
            header = next(reader, [])
            while header and header[-1] == "":
                header.pop()
            return [dict(zip(header, row, strict=False)) for row in reader if any(row)]
    except OSError as exc:
        raise ImportFailure(f"cannot read {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ImportFailure(f"{path}: not a CSV export file ({exc})") from None


class Export:
    """The export folder: every file read once (when first needed), rows grouped by id."""

    def __init__(self, csv_dir: Path) -> None:
        self.dir = Path(csv_dir)
        if not self.dir.exists():
            raise ImportFailure(
                f"{self.dir}: the folder does not exist; pass the folder of the 10th-edition "
                "CSV export"
            )
        if not self.dir.is_dir():
            raise ImportFailure(
                f"{self.dir}: is a file, not a folder; pass the folder of the 10th-edition CSV "
                "export"
            )
        if not (self.dir / "Datasheets.csv").is_file():
            raise ImportFailure(
                f"{self.dir}: no Datasheets.csv here; pass the folder of the "
                "10th-edition CSV export"
            )
        self.sheets = read_table(self.dir, "Datasheets.csv")
        self.by_id = {d["id"]: d for d in self.sheets}
        self.factions = {f["id"]: f["name"] for f in read_table(self.dir, "Factions.csv")}
        self._grouped: dict[str, dict[str, list[dict[str, str]]]] = {}

    def rows(self, filename: str, sheet_id: str, key: str = "datasheet_id") -> list[dict[str, str]]:
        """Rows of ``filename`` whose ``key`` column is ``sheet_id``, in file order; [] when
        the file is not in the folder (the optional files: abilities, options)."""
        cache_key = f"{filename}:{key}"
        if cache_key not in self._grouped:
            groups: dict[str, list[dict[str, str]]] = {}
            if (self.dir / filename).is_file():
                for row in read_table(self.dir, filename):
                    groups.setdefault(row.get(key, ""), []).append(row)
            self._grouped[cache_key] = groups
        return self._grouped[cache_key].get(sheet_id, [])

    @functools.cached_property
    def abilities(self) -> dict[str, dict[str, str]]:
        """Abilities.csv rows (core and faction abilities) by id; {} when missing."""
        if not (self.dir / "Abilities.csv").is_file():
            return {}
        return {r["id"]: r for r in read_table(self.dir, "Abilities.csv")}

    @functools.cached_property
    def keywords(self) -> frozenset[str]:
        """Every keyword of the export (unit and faction keywords, in capitals)."""
        return (
            frozenset(
                " ".join(html_to_text(r["keyword"]).upper().split())
                for r in read_table(self.dir, "Datasheets_keywords.csv")
                if r.get("keyword", "").strip()
            )
            if (self.dir / "Datasheets_keywords.csv").is_file()
            else frozenset()
        )

    @functools.cached_property
    def sources(self) -> dict[str, dict[str, str]]:
        """Source.csv rows (publications) by id; {} when missing."""
        if not (self.dir / "Source.csv").is_file():
            return {}
        return {r["id"]: r for r in read_table(self.dir, "Source.csv")}

    def source_name(self, source_id: str) -> str:
        """Publication name and version of a ``source_id`` (Source.csv), or ''."""
        row = self.sources.get(source_id)
        if row is None:
            return ""
        kind = row.get("type", "").strip()
        name = row.get("name", "").strip()
        if kind in ("Codex", "Index"):
            name = f"{kind}: {name}"
        version = row.get("version", "").strip()
        errata = row.get("errata_date", "").split(" ")[0]
        if version:
            return f"{name} (version {version})"
        return f"{name} (errata {errata})" if errata else name

    def faction_label(self, faction_id: str) -> str:
        """``Astra Militarum (AM)``."""
        return f"{self.factions.get(faction_id, faction_id)} ({faction_id})"


@functools.lru_cache(maxsize=2)
def load_export(csv_dir: str) -> Export:
    """The export at ``csv_dir`` (an absolute path), read once per process."""
    return Export(Path(csv_dir))

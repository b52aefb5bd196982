"""Import one datasheet from the 10th-edition datasheet CSV export.

The export (``shared/data/README.md``) is a folder of pipe-separated files, UTF-8 with a
byte-order mark, every line ending in ``|``, with HTML inside text fields. :func:`import_unit`
turns one datasheet into a dict that follows the datasheet YAML contract (DATASHEET_FORMAT.md,
part 1) and a list of warnings for what it could not work out; :func:`to_yaml` writes it out.
Wargear options are not imported: the ``loadouts`` of a generated file are left to a human.
"""

from __future__ import annotations

import csv
import difflib
import functools
import html
import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from ..abilities import split_abilities
from ..datasheet import DatasheetError, norm_name, parse_datasheet
from ..dice import Dice, DiceError


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


def _singular_word(word: str) -> str:
    low = word.lower()
    if len(low) <= 3:
        return word
    if low.endswith("ies"):
        return word[:-3] + "y"
    if low.endswith("men"):
        return word[:-3] + "man"
    if low.endswith("olves"):
        return word[:-3] + "f"
    if low.endswith("ives"):
        return word[:-3] + "fe"
    if re.search(r"(x|ch|sh|ss)es$|oes$", low):
        return word[:-2]
    if re.search(r"[^aeiouz]z$", low):
        return word[:-1]
    if low.endswith("s") and not re.search(r"(ss|us|is)$", low):
        return word[:-1]
    return word


def _singular(name: str) -> str:
    """Singular of a plural model name: Boyz, Lootas, Carnifexes, Guardsmen; in names with
    'with', both halves (``Intercessors with plasma incinerators``)."""
    parts = name.split(" with ")
    out = []
    for part in parts:
        head, _, last = part.rpartition(" ")
        last = _singular_word(last)
        out.append(f"{head} {last}" if head else last)
    return " with ".join(out)


def _key(name: str) -> str:
    """Matching key of a model or weapon name: every word singular, case and punctuation
    ignored, a trailing 'model' dropped."""
    name = re.sub(r"\s+models?$", "", name.strip(), flags=re.IGNORECASE)
    return norm_name(" ".join(_singular_word(w) for w in name.split()))


def _same_name(a: str, b: str) -> bool:
    """Names equal ignoring case, punctuation and plural endings."""
    return norm_name(a) == norm_name(b) or _key(a) == _key(b)


def _find(name: str, candidates: list[str]) -> int | None:
    """Index of the candidate that is ``name`` (plural tolerant), or else the only candidate
    containing it or contained in it (``Sword Brother`` / ``Primaris Sword Brother``)."""
    key = _key(name)
    for i, c in enumerate(candidates):
        if _same_name(name, c):
            return i
    near = [
        i
        for i, c in enumerate(candidates)
        if key and _key(c) and (key in _key(c) or _key(c) in key)
    ]
    return near[0] if len(near) == 1 else None


_SMALL_WORDS = frozenset({"of", "the", "and", "with", "in", "on", "a"})


def _nice_case(name: str) -> str:
    """``BOSS NOB`` -> ``Boss Nob``; names already in mixed case are kept."""
    name = " ".join(name.split())
    if name != name.upper():
        return name
    words = name.lower().split(" ")
    return " ".join(
        w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words)
    )


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


class _Export:
    """The export folder: every file read once, rows grouped by datasheet id."""

    def __init__(self, csv_dir: Path) -> None:
        self.dir = Path(csv_dir)
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
        """Rows of ``filename`` whose ``key`` column is ``sheet_id``, in file order."""
        cache_key = f"{filename}:{key}"
        if cache_key not in self._grouped:
            groups: dict[str, list[dict[str, str]]] = {}
            for row in read_table(self.dir, filename):
                groups.setdefault(row.get(key, ""), []).append(row)
            self._grouped[cache_key] = groups
        return self._grouped[cache_key].get(sheet_id, [])

    def source_name(self, source_id: str) -> str:
        """Publication name and version of a ``source_id`` (Source.csv), or ''."""
        if not (self.dir / "Source.csv").is_file():
            return ""
        for row in read_table(self.dir, "Source.csv"):
            if row.get("id") == source_id:
                kind = row.get("type", "").strip()
                name = row.get("name", "").strip()
                if kind in ("Codex", "Index"):
                    name = f"{kind}: {name}"
                version = row.get("version", "").strip()
                errata = row.get("errata_date", "").split(" ")[0]
                if version:
                    return f"{name} (version {version})"
                return f"{name} (errata {errata})" if errata else name
        return ""


@functools.lru_cache(maxsize=2)
def _export(csv_dir: str) -> _Export:
    return _Export(Path(csv_dir))


# ---------------------------------------------------------------------------------------------
# Finding the datasheet


def _faction_label(export: _Export, faction_id: str) -> str:
    return f"{export.factions.get(faction_id, faction_id)} ({faction_id})"


def _find_sheet(
    export: _Export, name: str, faction: str | None
) -> tuple[dict[str, str], list[str]]:
    key = norm_name(name)
    matches = [d for d in export.sheets if norm_name(d["name"]) == key]
    warnings: list[str] = []
    if faction:
        fkey = norm_name(faction)
        known = {
            fid
            for fid, fname in export.factions.items()
            if norm_name(fid) == fkey or norm_name(fname) == fkey
        }
        if not known:
            close = difflib.get_close_matches(faction, list(export.factions.values()), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise ImportFailure(
                f"unknown faction {faction!r}{hint} (factions: "
                f"{', '.join(sorted(export.factions.values()))})"
            )
        in_faction = [d for d in matches if d["faction_id"] in known]
        if matches and not in_faction:
            where = ", ".join(sorted({_faction_label(export, d["faction_id"]) for d in matches}))
            raise ImportFailure(f"{name!r} is not a datasheet of {faction}; it exists in: {where}")
        matches = in_faction
    if not matches:
        raise ImportFailure(f"no datasheet named {name!r}{_suggest(export, name, faction)}")
    faction_ids = sorted({d["faction_id"] for d in matches})
    if len(faction_ids) > 1:
        where = ", ".join(_faction_label(export, f) for f in faction_ids)
        raise ImportFailure(
            f"{name!r} exists in several factions: {where}; choose one with --faction (name or id)"
        )
    if len(matches) > 1:
        warnings.append(
            f"{len(matches)} datasheets named {matches[0]['name']!r} "
            f"(ids {', '.join(d['id'] for d in matches)}); imported the first"
        )
    return matches[0], warnings


def _suggest(export: _Export, name: str, faction: str | None) -> str:
    names = sorted({d["name"] for d in export.sheets})
    lowered = {n.lower(): n for n in names}
    close = [
        lowered[c] for c in difflib.get_close_matches(name.lower(), list(lowered), n=5, cutoff=0.6)
    ]
    key = norm_name(name)
    contains = [n for n in names if key and key in norm_name(n) and n not in close]
    picks = (close + contains)[:6]
    return f"; did you mean: {', '.join(picks)}?" if picks else ""


# ---------------------------------------------------------------------------------------------
# Weapons


@dataclass
class _Weapon:
    data: dict[str, object]
    melee: bool
    base: str  # the name loadouts use for it: "Plasma pistol" for "Plasma pistol – standard"
    group: int


_DASH_RE = re.compile(r"\s+[\u2013\u2014-]\s+")


def _int(text: str) -> int:
    m = re.match(r"^\s*([+-]?\d+)", text)
    if not m:
        raise ValueError(f"not a number: {text!r}")
    return int(m.group(1))


def _dice_or_int(text: str) -> int | str:
    text = text.strip().upper().replace(" ", "")
    if text.isdigit():
        return int(text)
    Dice.parse(text)  # raises DiceError for anything else
    return text


def _weapon_row(row: dict[str, str]) -> tuple[dict[str, object], bool]:
    melee = row["type"].strip().lower() == "melee" or row["range"].strip().lower() == "melee"
    skill_text = row["BS_WS"].strip().upper()
    data: dict[str, object] = {
        "name": " ".join(row["name"].split()),
        "range": "melee" if melee else _range(row["range"]),
        "A": _dice_or_int(row["A"]),
        "skill": None if skill_text in ("", "N/A", "-") else _int(skill_text),
        "S": _strength(row["S"]),
        "AP": -abs(_int(row["AP"])),
        "D": _dice_or_int(row["D"]),
    }
    abilities = weapon_abilities(row["description"])
    if abilities:
        data["abilities"] = abilities
    return data, melee


def _range(text: str) -> int:
    inches = _int(text)
    if not 0 <= inches <= 240:
        raise ValueError(f"range {inches} is outside the format's 0-240")
    return inches


def _strength(text: str) -> int:
    if not text.strip().isdigit():
        raise ValueError(f"strength {text.strip()!r} is not a number (the format needs one)")
    return int(text)


def _weapons(rows: list[dict[str, str]], warnings: list[str]) -> list[_Weapon]:
    out: list[_Weapon] = []
    group = -1
    group_sizes: dict[int, int] = {}
    for row in rows:
        if row.get("line_in_wargear", "1").strip() in ("", "1") or group < 0:
            group += 1
        group_sizes[group] = group_sizes.get(group, 0) + 1
        name = " ".join(row["name"].split())
        try:
            data, melee = _weapon_row(row)
        except (ValueError, DiceError) as exc:
            warnings.append(f"weapon {name!r} skipped: {exc}")
            continue
        out.append(_Weapon(data, melee, name, group))
    _name_profiles(out, group_sizes)
    _dedupe(out, warnings)
    return out


def _name_profiles(weapons: list[_Weapon], group_sizes: dict[int, int]) -> None:
    """Profiles of one weapon (rows of one wargear line named 'X – standard', 'X – supercharge')
    get ``profile_of: X``; their names use an en dash."""
    members: dict[tuple[int, str], list[_Weapon]] = {}
    for w in weapons:
        parts = _DASH_RE.split(str(w.data["name"]), maxsplit=1)
        if group_sizes[w.group] > 1 and len(parts) == 2:
            w.base = parts[0].strip()
            w.data["name"] = f"{w.base} \u2013 {parts[1].strip()}"
            members.setdefault((w.group, w.base), []).append(w)
    for (_, base), ws in members.items():
        if len(ws) < 2:
            ws[0].base = str(ws[0].data["name"])
            continue
        clash = any(
            _same_name(str(o.data["name"]), base) and o.melee != ws[0].melee
            for o in weapons
            if o not in ws
        )
        label = f"{base} ({'melee' if ws[0].melee else 'ranged'})" if clash else base
        for w in ws:
            w.data["profile_of"] = label


def _dedupe(weapons: list[_Weapon], warnings: list[str]) -> None:
    """Unique names: a melee weapon sharing a ranged weapon's name gets ' (melee)'."""
    ranged = {norm_name(str(w.data["name"])) for w in weapons if not w.melee}
    for w in weapons:
        if w.melee and norm_name(str(w.data["name"])) in ranged:
            w.data["name"] = f"{w.data['name']} (melee)"
    seen: dict[str, _Weapon] = {}
    for w in list(weapons):
        key = norm_name(str(w.data["name"]))
        if key not in seen:
            seen[key] = w
            continue
        if seen[key].data == w.data:
            weapons.remove(w)
            continue
        n = 2
        while f"{key}{n}" in seen:
            n += 1
        warnings.append(
            f"two different weapons named {w.data['name']!r}; the second is "
            f"renamed '{w.data['name']} ({n})'"
        )
        w.data["name"] = f"{w.data['name']} ({n})"
        seen[f"{key}{n}"] = w


def _resolve_item(item: str, weapons: list[_Weapon]) -> list[str] | None:
    """Weapon names for one printed equipment item (``2 godhammer lascannons``), or None."""
    m = re.match(r"^(\d+)\s*x?\s+(.+)$", item.strip(), re.IGNORECASE)
    count, text = (int(m.group(1)), m.group(2)) if m else (1, item.strip())
    names = [str(w.data["name"]) for w in weapons if _same_name(w.base, text)]
    return names * max(count, 1) if names else None


# ---------------------------------------------------------------------------------------------
# Models, unit composition and sizes


@dataclass
class _Model:
    name: str
    low: int
    high: int
    stats: dict[str, str] | None = None
    keywords: list[str] = field(default_factory=list)
    equipped: list[str] | None = None


_Entries = list[tuple[str, int, int]]  # (model name, min, max) of one composition line


_ENTRY_RE = re.compile(r"^(\d+)(?:\s*[-\u2010\u2011\u2013]\s*(\d+))?\s+(.+)$")


def _entries(text: str) -> _Entries:
    """``'1 Spanner and 4 Lootas'`` -> [('Spanner', 1, 1), ('Loota', 4, 4)]."""
    text = re.sub(r"\s*[\u2013-]\s*EPIC HERO\s*$", "", text).strip().rstrip(".*:").strip()
    out = []
    for part in re.split(r"(?:,|\s+and)\s+(?=\d)", text):
        m = _ENTRY_RE.match(part.strip().rstrip("*").strip())
        if not m:
            return []
        low = int(m.group(1))
        high = int(m.group(2) or low)
        name = m.group(3).strip()
        out.append((_singular(name) if high > 1 else name, low, high))
    return out


def _composition(rows: list[dict[str, str]], warnings: list[str]) -> list[_Entries]:
    """Alternatives (separated by 'OR' lines) of (model name, min, max) entries."""
    alts: list[_Entries] = [[]]
    for row in rows:
        text = html_to_text(row["description"]).split("\n")[0].strip()
        if text.lower().rstrip(":") == "or":
            alts.append([])
            continue
        if re.search(r"\bmaximum\b", text, re.IGNORECASE):
            continue  # "10 MODELS MAXIMUM": the sizes say it already
        found = _entries(text)
        if found:
            alts[-1].extend(found)
        elif text and not re.match(r"^[A-Z][\w\s\u2019'-]*$", text):
            warnings.append(f"unit composition line not understood: {text!r}")
        elif text:
            alts[-1].append((text, 1, 1))  # a model named without a count: one of it
    return [a for a in alts if a]


def _models(
    export: _Export, sheet: dict[str, str], warnings: list[str]
) -> tuple[list[_Model], list[_Entries]]:
    lines = sorted(export.rows("Datasheets_models.csv", sheet["id"]), key=lambda r: _int(r["line"]))
    alts = _composition(export.rows("Datasheets_unit_composition.csv", sheet["id"]), warnings)
    models: list[_Model] = []
    for alt in alts:
        for name, low, high in alt:
            known = next((m for m in models if _same_name(m.name, name)), None)
            if known:
                known.low, known.high = min(known.low, low), max(known.high, high)
            else:
                models.append(_Model(name, low, high))
    if not models:
        warnings.append("unit composition not found; one model per statline line")
        models = [_Model(_nice_case(r["name"]), 1, 1) for r in lines]
    for m in models:
        found = _find(m.name, [r["name"] for r in lines])
        line = lines[found] if found is not None else None
        if line is None and len(lines) == 1:
            line = lines[0]
        if line is None:
            line = next((r for r in lines if norm_name(r["name"]) == "othermodels"), None)
        if line is None and lines:
            warnings.append(f"no statline named {m.name!r}; used {_nice_case(lines[0]['name'])!r}")
            line = lines[0]
        m.stats = line
    for r in lines:
        if (
            len(lines) > 1
            and norm_name(r["name"]) != "othermodels"
            and not any(_same_name(r["name"], m.name) for m in models)
        ):
            warnings.append(
                f"statline {_nice_case(r['name'])!r} is not in the unit composition; not imported"
            )
    return [m for m in models if m.stats is not None], alts


def _statline(m: _Model, warnings: list[str]) -> dict[str, object]:
    row = m.stats or {}
    move = row["M"].strip().replace('"', "")
    out: dict[str, object] = {
        "name": m.name,
        "M": int(move) if move.isdigit() else (0 if move in ("-", "") else move),
        "T": _int(row["T"]),
        "Sv": 7 if row["Sv"].strip() in ("-", "") else _int(row["Sv"]),
        "W": _int(row["W"]),
        "Ld": _int(row["Ld"]),
        "OC": _int(row["OC"]),
    }
    if "*" in row["T"]:
        warnings.append(f"{m.name}: toughness {row['T']!r} has a footnote; imported as {out['T']}")
    inv = row["inv_sv"].strip()
    if inv not in ("", "-"):
        out["invuln"] = _int(inv)
        note = html_to_text(row.get("inv_sv_descr", ""))
        if re.search(r"against ranged attacks", note, re.IGNORECASE):
            out["invuln_ranged_only"] = True
        elif note:
            warnings.append(f"{m.name}: invulnerable save note not modelled: {note!r}")
    return out


def _sizes(
    export: _Export,
    sheet: dict[str, str],
    models: list[_Model],
    alts: list[_Entries],
    warnings: list[str],
) -> list[dict[str, object]]:
    rows = export.rows("Datasheets_models_cost.csv", sheet["id"])
    plain = [r for r in rows if "(" not in r["description"]]
    if plain and len(plain) < len(rows):
        skipped = sorted({html_to_text(r["description"]) for r in rows if r not in plain})
        warnings.append(f"points for special cases not imported: {'; '.join(skipped)}")
        rows = plain
    sizes = []
    for row in rows:
        text = html_to_text(row["description"])
        try:
            points = _int(row["cost"])
        except ValueError:
            warnings.append(f"size {text!r} skipped: points {row['cost']!r}")
            continue
        m = re.match(r"^(\d+)\s+models?\b", text)
        counts = _counts(int(m.group(1)), models, alts) if m else _explicit(text, models)
        if counts is None:
            warnings.append(f"size {text!r} not understood; skipped")
            continue
        sizes.append({"models": counts, "points": points})
    return sizes


def _counts(total: int, models: list[_Model], alts: list[_Entries]) -> dict[str, int]:
    """Per-model counts of a unit of ``total`` models: minimums first, then the remainder to the
    most numerous (rank-and-file) model, then to the others in order."""
    entries = next(
        (a for a in alts if sum(e[1] for e in a) <= total <= sum(e[2] for e in a)),
        alts[0] if alts else [(m.name, m.low, m.high) for m in models],
    )
    counts: dict[str, int] = {}
    limits: dict[str, int] = {}
    for name, low, high in entries:
        found = _find(name, [m.name for m in models])
        if found is not None:
            model = models[found]
            counts[model.name] = counts.get(model.name, 0) + low
            limits[model.name] = limits.get(model.name, 0) + high
    left = total - sum(counts.values())
    for name in sorted(counts, key=lambda n: -limits[n]):
        add = min(left, limits[name] - counts[name])
        counts[name] += add
        left -= add
    if left > 0 and counts:
        first = max(counts, key=lambda n: limits[n])
        counts[first] += left
    return {n: c for n, c in counts.items() if c > 0}


def _explicit(text: str, models: list[_Model]) -> dict[str, int] | None:
    counts: dict[str, int] = {}
    for name, low, _ in _entries(text):
        found = _find(name, [m.name for m in models])
        if found is None:
            return None
        model = models[found]
        counts[model.name] = counts.get(model.name, 0) + low
    return counts or None


# ---------------------------------------------------------------------------------------------
# Keywords and default equipment


def _keywords(
    export: _Export, sheet: dict[str, str], models: list[_Model], warnings: list[str]
) -> tuple[list[str], list[str]]:
    unit: list[str] = []
    faction: list[str] = []
    for row in export.rows("Datasheets_keywords.csv", sheet["id"]):
        kw = " ".join(html_to_text(row["keyword"]).upper().split())
        if not kw:
            continue
        if row["is_faction_keyword"].strip().lower() == "true":
            if kw not in faction:
                faction.append(kw)
            continue
        who = re.sub(r"\s+(ONLY|MODELS?)$", "", " ".join(row["model"].upper().split()))
        target = None
        if who not in ("", "ALL") and len(models) > 1:
            found = _find(who, [m.name for m in models])
            target = models[found] if found is not None else None
            if target is None:
                warnings.append(
                    f"keyword {kw} is for {row['model'].strip()!r}, not a model of "
                    "this unit: kept as a unit keyword"
                )
        if target is not None:
            if kw not in target.keywords:
                target.keywords.append(kw)
        elif kw not in unit:
            unit.append(kw)
    return unit, faction


_SUBJECT_RE = re.compile(
    r"^(?:(?P<q>every other|every|each|the|an|a|one other|one|\d+ other|\d+|other)\s+)?"
    r"(?P<who>.+?)\s+(?:is|are)\s+(?:both\s+)?(?P<add>additionally\s+)?equipped with$",
    re.IGNORECASE,
)


@dataclass
class _Block:
    """One '<b>Every X is equipped with:</b> a; b.' paragraph of the loadout field."""

    who: str
    quantity: str  # '' for every model named, else 'one', '2', 'one other'...
    additional: bool
    items: list[str]


def _blocks(loadout: str, warnings: list[str]) -> list[_Block]:
    out = []
    if "<b>" not in loadout.lower():  # a few sheets print the subject without bold
        loadout = re.sub(r"^(.*?equipped with:)", r"<b>\1</b>", loadout.strip(), flags=re.I)
    for m in re.finditer(r"<b>(.*?)</b>(.*?)(?=<b>|$)", loadout, re.DOTALL | re.IGNORECASE):
        head = html_to_text(m.group(1))
        body = html_to_text(re.split(r"<br\s*/?>|<i>|<p>", m.group(2))[0])
        subject, _, rest = head.partition(":")
        text = re.split(r"\.(?:\s|$)", f"{rest} {body}".strip())[0].strip().rstrip(".")
        sm = _SUBJECT_RE.match(subject.strip())
        if not sm:
            if "note" not in subject.lower() and subject.strip() != "*":
                warnings.append(f"loadout line not understood: {head!r}")
            continue
        q = (sm.group("q") or "").lower()
        items = [] if text.lower() == "nothing" else re.split(r"\s*[;,]\s*", text)
        out.append(
            _Block(
                sm.group("who").strip(),
                "" if q in ("every", "each", "the", "a", "an", "every other", "other") else q,
                bool(sm.group("add")),
                [i for i in items if i],
            )
        )
    return out


def _equipment(
    loadout: str, models: list[_Model], weapons: list[_Weapon], warnings: list[str]
) -> None:
    """Fill each model's ``equipped`` from the datasheet's ``loadout`` field. Paragraphs for
    every model of a kind come first; those for some of them ('One X is equipped with') give a
    model's equipment only when nothing else does."""
    blocks = _blocks(loadout, warnings)
    for block in sorted(blocks, key=lambda b: bool(b.quantity)):
        if block.who.lower() in ("model", "this model", "models"):
            targets = models
        else:
            parts = [
                re.sub(r"^(every|each|the)\s+", "", p, flags=re.IGNORECASE)
                for p in re.split(r"\s+and\s+", block.who)
            ]
            found = [_find(p, [m.name for m in models]) for p in parts]
            targets = [models[i] for i in found if i is not None]
            if not targets and len(models) == 1:
                targets = models
        if not targets:
            warnings.append(f"loadout names {block.who!r}, not a model of this unit; skipped")
            continue
        names: list[str] = []
        for item in block.items:
            resolved = _resolve_item(item, weapons)
            if resolved is None:
                warnings.append(
                    f"equipment {item!r} ({block.who}) matches no weapon profile; skipped"
                )
            else:
                names.extend(resolved)
        listed = "; ".join(block.items)
        for target in targets:
            if block.additional:
                target.equipped = (target.equipped or []) + names
            elif not block.quantity:
                target.equipped = names
            elif target.equipped is None:
                target.equipped = names
                warnings.append(
                    f"only {block.quantity} {target.name} carry {listed}: imported as "
                    f"every {target.name}'s equipment"
                )
            else:
                warnings.append(
                    f"{block.quantity} {target.name} carry {listed}: not imported (add "
                    "a loadout by hand)"
                )
    for target in models:
        if target.equipped is None:
            if len(models) == 1:
                target.equipped = list(dict.fromkeys(str(w.data["name"]) for w in weapons))
                warnings.append(
                    f"default equipment of {target.name} not found: every weapon of "
                    "the datasheet assigned"
                )
            else:
                target.equipped = []
                warnings.append(f"default equipment of {target.name} not found")


# ---------------------------------------------------------------------------------------------
# The whole datasheet


def import_unit(csv_dir: Path, name: str, faction: str | None = None) -> tuple[dict, list[str]]:
    """Convert one datasheet of the CSV export into datasheet-format data.

    Args:
        csv_dir: the export folder (holds ``Datasheets.csv`` and the others).
        name: the datasheet's name; case and punctuation are ignored.
        faction: a faction name or id (``Astra Militarum``, ``AM``) for names that several
            factions use.

    Returns:
        ``(data, warnings)``: ``data`` is accepted by :func:`wh40k_calc.datasheet.parse_datasheet`;
        ``warnings`` lists what was guessed or left out, one sentence each.

    Raises:
        ImportFailure: the export cannot be read; the name is unknown (with suggestions) or used
            by several factions (listing them); the faction is unknown; or the result does not
            fit the datasheet format (e.g. more than 50 wounds).
    """
    export = _export(str(Path(csv_dir).resolve()))
    sheet, warnings = _find_sheet(export, name, faction)
    faction_name = export.factions.get(sheet["faction_id"], sheet["faction_id"])

    wargear = export.rows("Datasheets_wargear.csv", sheet["id"])
    if not wargear:
        twin = next(
            (
                d
                for d in export.sheets
                if d["name"] == sheet["name"]
                and d is not sheet
                and export.rows("Datasheets_wargear.csv", d["id"])
            ),
            None,
        )
        if twin is not None:
            wargear = export.rows("Datasheets_wargear.csv", twin["id"])
            warnings.append(
                f"no weapons listed under this faction: weapons taken from the "
                f"{_faction_label(export, twin['faction_id'])} datasheet {twin['id']}"
            )
    weapons = _weapons(wargear, warnings)
    models, alts = _models(export, sheet, warnings)
    if not models:
        raise ImportFailure(f"{sheet['name']} ({sheet['id']}): no model statline in the export")
    unit_kw, faction_kw = _keywords(export, sheet, models, warnings)
    _equipment(sheet.get("loadout", ""), models, weapons, warnings)
    sizes = _sizes(export, sheet, models, alts, warnings)
    if not sizes:
        largest = max(models, key=lambda m: m.high)
        sizes = [
            {"models": {m.name: m.low for m in models if m.low} or {largest.name: 1}, "points": 0}
        ]
        warnings.append("no points in the export: one size with 0 points")
    # allocation order: rank-and-file (most numerous) first, CHARACTER models last
    models.sort(key=lambda m: ("CHARACTER" in m.keywords, -m.high))
    for size in sizes:
        counts = size["models"]
        size["models"] = {m.name: counts[m.name] for m in models if m.name in counts}

    model_data = []
    for m in models:
        row = _statline(m, warnings)
        if m.keywords:
            row["keywords"] = m.keywords
        row["equipped"] = m.equipped or []
        model_data.append(row)
    leaders = [
        export.by_id[r["attached_id"]]["name"]
        for r in export.rows("Datasheets_leader.csv", sheet["id"], key="leader_id")
        if r["attached_id"] in export.by_id
    ]
    publication = export.source_name(sheet.get("source_id", ""))
    data: dict[str, object] = {
        "name": sheet["name"],
        "faction": faction_name,
        "keywords": unit_kw,
        "faction_keywords": faction_kw,
        "models": model_data,
        "sizes": sizes,
        "weapons": [w.data for w in weapons],
    }
    if leaders:
        data["leader_of"] = list(dict.fromkeys(leaders))
    data["source"] = (
        f"{export.dir.name} CSV export, datasheet {sheet['id']} ({faction_name} "
        f"\u2013 {sheet['name']})" + (f", {publication}" if publication else "")
    )
    try:
        parse_datasheet(data, f"<{sheet['name']}>")
    except DatasheetError as exc:
        raise ImportFailure(
            f"{sheet['name']} ({sheet['id']}) does not fit the datasheet format: {exc}"
        ) from None
    return data, warnings


# ---------------------------------------------------------------------------------------------
# YAML output


_WIDTH = 100


def _scalar(value: object) -> str:
    """One scalar as YAML text, quoted where a flow context needs it."""
    import yaml  # lazy: only needed when a file is written

    text = yaml.safe_dump([value], default_flow_style=True, allow_unicode=True, width=1 << 30)
    return text.strip()[1:-1]  # drop the list's brackets


def _atoms(value: object) -> list[str]:
    """Flow-style text of ``value`` cut where a line may break (after each ', ')."""
    if isinstance(value, dict | list):
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
        atoms: list[str] = []
        for key, item in items:
            sub = _atoms(item)
            if key is not None:
                sub[0] = f"{_scalar(key)}: {sub[0]}"
            atoms.extend(sub)
        if not atoms:
            return [opening + closing]
        atoms[0] = opening + atoms[0]
        atoms[-1] += closing
        return atoms
    return [_scalar(value)]


def _flow(prefix: str, value: object, indent: int) -> list[str]:
    """``prefix`` then ``value`` in flow style, wrapped at ``_WIDTH`` columns: between its
    entries where possible, inside an entry (an ability list) only when it is too long."""
    if not isinstance(value, dict | list) or not value:
        return [prefix + _atoms(value)[0]]
    items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
    entries = []
    for key, item in items:
        atoms = _atoms(item)
        if key is not None:
            atoms[0] = f"{_scalar(key)}: {atoms[0]}"
        entries.append(atoms)
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    entries[0][0] = opening + entries[0][0]
    entries[-1][-1] += closing
    cont = " " * (indent + 3)
    lines = [prefix]
    for n, atoms in enumerate(entries):
        sep = ", " if n else ""
        whole = ", ".join(atoms)
        if len(lines[-1]) + len(sep) + len(whole) <= _WIDTH:
            lines[-1] += sep + whole
            continue
        if n:
            lines[-1] += ","
            lines.append(cont)
        for i, atom in enumerate(atoms):
            if i and len(lines[-1]) + 2 + len(atom) > _WIDTH:
                lines[-1] += ","
                lines.append(cont + atom)
            else:
                lines[-1] += (", " if i else "") + atom
    return lines


def _block(key: str, value: object, indent: int) -> list[str]:
    pad = " " * indent
    head = f"{pad}{_scalar(key)}:"
    if isinstance(value, dict) and value:
        return [head] + [line for k, v in value.items() for line in _block(k, v, indent + 2)]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        lines = [head]
        for item in value:
            if key == "models":  # one block mapping per model, short lists inline
                for i, (k, v) in enumerate(item.items()):
                    sub = _block(k, v, indent + 4)
                    sub[0] = (f"{pad}  - " if i == 0 else f"{pad}    ") + sub[0].lstrip()
                    lines.extend(sub)
            else:
                lines.extend(_flow(f"{pad}  - ", item, indent + 4))
        return lines
    return _flow(head + " ", value, indent + 2)


def to_yaml(data: dict, header: str | None = None) -> str:
    """Datasheet data as readable YAML: one block per model, one line per weapon, unit size and
    loadout entry (wrapped at 100 columns), short lists inline, keys in the order given.
    ``header`` lines become ``#`` comments at the top. ``yaml.safe_load`` gives ``data`` back.
    """
    lines = [f"# {line}".rstrip() for line in (header or "").splitlines()]
    for key, value in data.items():
        lines.extend(_block(key, value, 0))
    return "\n".join(lines) + "\n"

"""Weapon profiles of one datasheet from the export's wargear rows, and the weapon names that a
piece of printed equipment stands for.

Rows of one wargear line are the profiles of one weapon ('Plasma pistol – standard' and
'– supercharge'): they get ``profile_of``. A melee weapon named like a ranged one is suffixed
' (melee)' so that names stay unique in the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..datasheet import MAX_RANGE, norm_name
from ..dice import Dice, DiceError
from .export import clean_name, weapon_abilities
from .names import NearMatch, near_match, same_name


@dataclass
class ImportedWeapon:
    """One profile: ``data`` in the datasheet format; ``base`` is the name equipment lists use
    for it ("Plasma pistol" for "Plasma pistol – standard"); ``group`` its wargear line."""

    data: dict[str, object]
    melee: bool
    base: str
    group: int

    @property
    def name(self) -> str:
        """The profile's name in the file."""
        return str(self.data["name"])


DASH_RE = re.compile(r"\s+[\u2013\u2014-]\s+")


def to_int(text: str) -> int:
    """The leading integer of ``text`` (``'4+'`` -> 4, ``'-1'`` -> -1).

    Raises:
        ValueError: no number.
    """
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
        "name": clean_name(row["name"]),
        "range": "melee" if melee else _range(row["range"]),
        "A": _dice_or_int(row["A"]),
        "skill": None if skill_text in ("", "N/A", "-") else to_int(skill_text),
        "S": _strength(row["S"]),
        "AP": -abs(to_int(row["AP"])),
        "D": _dice_or_int(row["D"]),
    }
    abilities = weapon_abilities(row["description"])
    if abilities:
        data["abilities"] = abilities
    return data, melee


def _range(text: str) -> int:
    inches = to_int(text)
    if not 0 <= inches <= MAX_RANGE:
        raise ValueError(f"range {inches} is outside the format's 0-{MAX_RANGE}")
    return inches


def _strength(text: str) -> int:
    if not text.strip().isdigit():
        raise ValueError(f"strength {text.strip()!r} is not a number (the format needs one)")
    return int(text)


def read_weapons(rows: list[dict[str, str]], warnings: list[str]) -> list[ImportedWeapon]:
    """The weapon profiles of a datasheet's wargear rows, in order; a row that the format
    cannot hold is skipped with a warning."""
    out: list[ImportedWeapon] = []
    group = -1
    group_sizes: dict[int, int] = {}
    for row in rows:
        if row.get("line_in_wargear", "1").strip() in ("", "1") or group < 0:
            group += 1
        group_sizes[group] = group_sizes.get(group, 0) + 1
        name = clean_name(row["name"])
        try:
            data, melee = _weapon_row(row)
        except (ValueError, DiceError) as exc:
            warnings.append(f"weapon {name!r} skipped: {exc}")
            continue
        out.append(ImportedWeapon(data, melee, name, group))
    _name_profiles(out, group_sizes)
    _dedupe(out, warnings)
    return out


def _name_profiles(weapons: list[ImportedWeapon], group_sizes: dict[int, int]) -> None:
    """Profiles of one weapon (rows of one wargear line named 'X – standard', 'X – supercharge')
    get ``profile_of: X``; their names use an en dash."""
    members: dict[tuple[int, str], list[ImportedWeapon]] = {}
    for w in weapons:
        parts = DASH_RE.split(w.name, maxsplit=1)
        if group_sizes[w.group] > 1 and len(parts) == 2:
            w.base = parts[0].strip()
            w.data["name"] = f"{w.base} \u2013 {parts[1].strip()}"
            members.setdefault((w.group, w.base), []).append(w)
    for (_, base), ws in members.items():
        if len(ws) < 2:
            ws[0].base = ws[0].name
            continue
        clash = any(
            same_name(o.name, base) and o.melee != ws[0].melee for o in weapons if o not in ws
        )
        label = f"{base} ({'melee' if ws[0].melee else 'ranged'})" if clash else base
        for w in ws:
            w.data["profile_of"] = label


def _dedupe(weapons: list[ImportedWeapon], warnings: list[str]) -> None:
    """Unique names: a melee weapon sharing a ranged weapon's name gets ' (melee)'."""
    ranged = {norm_name(w.name) for w in weapons if not w.melee}
    for w in weapons:
        if w.melee and norm_name(w.name) in ranged:
            w.data["name"] = f"{w.name} (melee)"
    seen: dict[str, ImportedWeapon] = {}
    for w in list(weapons):
        k = norm_name(w.name)
        if k not in seen:
            seen[k] = w
            continue
        if seen[k].data == w.data:
            weapons.remove(w)
            continue
        n = 2
        while f"{k}{n}" in seen:
            n += 1
        warnings.append(
            f"two different weapons named {w.name!r}; the second is renamed '{w.name} ({n})'"
        )
        w.data["name"] = f"{w.name} ({n})"
        seen[f"{k}{n}"] = w


_COUNT_RE = re.compile(r"^(\d+)\s*x?\s+(.+)$", re.IGNORECASE)


def split_count(item: str) -> tuple[int, str]:
    """``'2 godhammer lascannons'`` -> (2, 'godhammer lascannons'); no number means 1."""
    m = _COUNT_RE.match(item.strip())
    return (max(int(m.group(1)), 1), m.group(2)) if m else (1, item.strip())


def resolve_item(
    item: str, weapons: list[ImportedWeapon], near: list[NearMatch] | None = None
) -> list[str] | None:
    """Weapon names for one printed equipment item (``2 godhammer lascannons``): every profile
    of the weapon, once per copy; None when no weapon has that name. A differently spelt match
    (:func:`~wh40k_calc.importers.names.near_match`) is used when nothing matches exactly and
    is appended to ``near`` when given (None: exact matches only)."""
    count, text = split_count(item)
    names = [w.name for w in weapons if same_name(w.base, text)]
    if not names and near is not None:
        match = near_match(text, list(dict.fromkeys(w.base for w in weapons)))
        if match is not None:
            near.append(match)
            names = [w.name for w in weapons if w.base == match.weapon]
    return names * count if names else None

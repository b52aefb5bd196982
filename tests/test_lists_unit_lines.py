"""What ``calc army`` says of a whole unit names the unit's line in the list file, as what it
says of one weapon names the weapon's (issue 21's leftovers): over our data's wargear limits
(Seeds 001, Lootas: only a Spanner's big shoota may become a kustom mega-blasta, so 2 in a
unit of 10; the list gives 3), below the smallest size (a Tactical Squad of 4: sizes 10),
models other than the data's size. ``--strict`` names the units it refuses as a whole with
their lines, and the JSON gives each listed unit's line. Lines are counted by hand in the
texts below."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import cli

LOOTAS = (
    "T (100 Points)\n"  # 1
    "\n"
    "Orks\n"
    "Strike Force (2000 Points)\n"
    "War Horde\n"  # 5
    "\n"
    "OTHER DATASHEETS\n"
    "\n"
    "Lootas (100 Points)\n"  # 9: the unit
    "  • 8x Loota\n"
    "     ◦ 8x Deffgun\n"
    "     ◦ 8x Close combat weapon\n"
    "  • 2x Spanner\n"
    "     ◦ {kmb}x Kustom mega-blasta\n"  # 14
    "     ◦ 2x Close combat weapon\n"
    "\n\nExported with App Version: v2.3.0 (1), Data Version: v912\n"
)

TACTICAL = (
    "Test (140 Points)\n"  # 1
    "\n"
    "Space Marines\n"
    "Gladius Task Force (1 Detachment Points)\n"
    "Strike Force (2,000 Points)\n"  # 5
    "\n"
    "BATTLELINE\n"
    "\n"
    "Tactical Squad (140 Points)\n"  # 9: the unit
    "  • 1x Tactical Sergeant\n"
    "     ◦ 1x Bolt pistol\n"
    "     ◦ 1x Boltgun\n"
    "     ◦ 1x Close combat weapon\n"
    "  • 3x Tactical Marine\n"
    "     ◦ 3x Boltgun\n"
    "     ◦ 3x Bolt pistol\n"
    "     ◦ 3x Close combat weapon\n"
    "\n"
    "Exported with App Version: v2.3.0 (1), Data Version: v912\n"
)

OVER = (
    "line 9: Lootas is over our data's wargear limits: this unit of 10 models can carry only 2 "
    "of Kustom mega-blasta (Spanner ×2); Kustom mega-blasta x3 needs 3. The list's weapons are "
    "used as listed (--strict refuses them)"
)


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "list.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_unit_over_its_wargear_limits_names_its_line(tmp_path: Path) -> None:
    path = _file(tmp_path, LOOTAS.format(kmb=3))
    shown = cli("army", path, "--show")
    assert shown.exit_code == 0
    assert OVER in " ".join(shown.output.split())
    out = json.loads(cli("army", path, "--show", "--json").stdout)["resolution"]
    unit = out["units"][0]
    assert OVER in unit["warnings"]
    assert unit["listed"][0]["line"] == 9
    strict = cli("army", path, "--show", "--strict")
    assert strict.exit_code == 1
    assert strict.stderr.strip().endswith("; line 9: Lootas (over the wargear limits)")
    within = cli("army", _file(tmp_path, LOOTAS.format(kmb=2)), "--show", "--strict")
    assert within.exit_code == 0 and "line 9: Lootas" not in within.output


def test_a_unit_below_its_smallest_size_names_its_line(tmp_path: Path) -> None:
    path = _file(tmp_path, TACTICAL)
    shown = cli("army", path, "--show")
    assert shown.exit_code == 0
    assert (
        "line 9: Tactical Squad has 4 models, fewer than its smallest size (sizes 10)"
    ) in " ".join(shown.output.split())
    strict = cli("army", path, "--show", "--strict")
    assert strict.exit_code == 1
    assert "; line 9: Tactical Squad (below the smallest size)" in strict.stderr


def test_a_list_without_lines_names_none() -> None:
    """The same unit as a JSON or XML export gives it (no text lines): said without a line,
    and ``--strict``'s words name the unit alone."""
    from dataclasses import replace

    from wh40k_calc.catalog import Catalog
    from wh40k_calc.lists.detect import parse_bytes
    from wh40k_calc.lists.resolve import resolve_army

    army = parse_bytes(LOOTAS.format(kmb=3).encode(), "t")
    r = resolve_army(army, Catalog())
    assert r.units[0].listed[0].line == 9 and OVER in r.units[0].warnings
    assert r.unit_faults() == ["line 9: Lootas (over the wargear limits)"]
    bare = replace(army, units=tuple(replace(u, line=None) for u in army.units))
    r = resolve_army(bare, Catalog())
    assert OVER.removeprefix("line 9: ") in r.units[0].warnings
    assert r.unit_faults() == ["Lootas (over the wargear limits)"]

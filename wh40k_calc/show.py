"""``calc show``: one datasheet as rich tables (statlines, sizes, weapons, loadouts, rules)."""

from __future__ import annotations

from .datasheet import Datasheet


def render_datasheet(ds: Datasheet, console) -> None:
    """Print ``ds`` the way a datasheet page reads; every name from the file is printed as
    written (not read as rich markup)."""
    from rich.table import Table
    from rich.text import Text

    console.print(Text.assemble((ds.name, "bold"), f" · {ds.faction}"))
    kw = ", ".join(sorted(ds.keywords))
    fkw = ", ".join(sorted(ds.faction_keywords))
    console.print(Text.assemble(("Keywords: ", "dim"), kw, ("  Faction: ", "dim"), fkw))

    models = Table(title="Models (allocation order)", title_justify="left")
    for col in ("Model", "M", "T", "Sv", "W", "Ld", "OC", "Invuln", "FNP", "Equipped"):
        models.add_column(col)
    for m in ds.models:
        inv = f"{m.invuln}++" + (" (ranged)" if m.invuln_ranged_only else "") if m.invuln else "—"
        models.add_row(
            Text(m.name),
            f'{m.M}"',
            str(m.T),
            f"{m.Sv}+" if m.Sv < 7 else "—",
            str(m.W),
            f"{m.Ld}+",
            str(m.OC),
            inv,
            f"{m.feel_no_pain}+" if m.feel_no_pain else "—",
            Text(", ".join(_weapon_name(ds, k) for k in m.equipped)),
        )
    console.print(models)

    sizes = Table(title="Unit sizes", title_justify="left")
    sizes.add_column("Models")
    sizes.add_column("Composition")
    sizes.add_column("Points", justify="right")
    for s in ds.sizes:
        composition = ", ".join(f"{n} {name}" for name, n in s.composition)
        sizes.add_row(str(s.total), Text(composition), str(s.points))
    console.print(sizes)

    weapons = Table(title="Weapons", title_justify="left")
    for col in ("Weapon", "Range", "A", "BS/WS", "S", "AP", "D", "Abilities"):
        weapons.add_column(col)
    for w in ds.weapons:
        weapons.add_row(
            Text(w.name + (f" ({w.profile_of} profile)" if w.profile_of else "")),
            "Melee" if w.range is None else f'{w.range}"',
            str(w.A),
            "N/A" if w.skill is None else f"{w.skill}+",
            str(w.S),
            str(w.AP),
            str(w.D),
            Text(", ".join(w.ability_texts)),
        )
    console.print(weapons)

    if ds.loadouts:
        lo = Table(title="Loadouts (--loadout NAME; 'default' = as equipped)", title_justify="left")
        lo.add_column("Loadout")
        lo.add_column("Changes")
        for name, entries in ds.loadouts.items():
            parts = [
                f"{'all' if e.count is None else e.count} {e.model}: "
                f"{', '.join(_weapon_name(ds, k) for k in e.equipped)}"
                + (f" (unit of {e.min_unit_size}+)" if e.min_unit_size else "")
                for e in entries
            ]
            lo.add_row(Text(name), Text("; ".join(parts)))
        console.print(lo)
    if ds.rules:
        console.print(Text.assemble(("Unit rules: ", "dim"), ", ".join(ds.rules)))
    if ds.leader_of:
        console.print(Text.assemble(("Leader of: ", "dim"), ", ".join(ds.leader_of)))
    if ds.source:
        console.print(Text.assemble(("Source: ", "dim"), ds.source))


def _weapon_name(ds: Datasheet, key: str) -> str:
    w = ds.weapon(key)
    return w.name if w else key

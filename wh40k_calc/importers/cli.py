"""The ``calc import`` command: datasheets from the 10th-edition CSV export into YAML files."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

_REPO = Path(__file__).resolve().parents[2]
_BUNDLED_EXPORT = _REPO.parent / "shared" / "data" / "wahapedia-10e-2025-07"


def default_csv_dir() -> Path | None:
    """The export folder to use without ``--csv``: ``$WH40K_CALC_CSV``, else the shared copy
    next to the repository if it exists, else None."""
    env = os.environ.get("WH40K_CALC_CSV")
    if env:
        return Path(env)
    return _BUNDLED_EXPORT if _BUNDLED_EXPORT.is_dir() else None


def import_command(
    names: Annotated[
        list[str],
        typer.Argument(metavar="NAME...", help="Datasheet names, e.g. 'Intercessor Squad'."),
    ],
    csv_dir: Annotated[
        Path | None,
        typer.Option(
            "--csv",
            metavar="DIR",
            help="Folder of the CSV export (default: $WH40K_CALC_CSV, or "
            "../shared/data/wahapedia-10e-2025-07 next to the repository).",
        ),
    ] = None,
    faction: Annotated[
        str | None,
        typer.Option(
            "--faction",
            metavar="NAME",
            help="Faction name or id, for names that several factions use.",
        ),
    ] = None,
    out: Annotated[
        Path,
        typer.Option("--out", metavar="DIR", help="Folder to write <faction>/<unit>.yaml into."),
    ] = Path("datasheets-user"),
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing files.")] = False,
) -> None:
    """Import datasheets from the 10th-edition CSV export and write them as YAML files.

    Exits with code 1 if any name is unknown or ambiguous, or a file exists without --force.
    """
    from .wahapedia import ImportFailure, import_unit, slug, to_yaml

    source = csv_dir or default_csv_dir()
    if source is None:
        typer.echo("error: no CSV export found; pass --csv DIR or set WH40K_CALC_CSV", err=True)
        raise typer.Exit(1)
    failed = False
    for name in dict.fromkeys(names):  # a name given twice is imported once
        try:
            data, warnings = import_unit(source, name, faction)
        except ImportFailure as exc:
            typer.echo(f"error: {exc}", err=True)
            failed = True
            continue
        path = out / slug(str(data["faction"])) / f"{slug(str(data['name']))}.yaml"
        if path.exists() and not force:
            typer.echo(f"error: {path} exists; pass --force to overwrite it", err=True)
            failed = True
            continue
        header = (
            f"Imported by `calc import` from the {data['source']}.\n"
            "Loadouts (wargear options) are not imported; check the file against the "
            "datasheet."
        )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(to_yaml(data, header=header), encoding="utf-8")
        except OSError as exc:
            typer.echo(f"error: cannot write {path}: {exc.strerror or exc}", err=True)
            failed = True
            continue
        typer.echo(f"wrote {path}")
        for warning in warnings:
            typer.echo(f"  warning: {warning}", err=True)
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the ``import`` command to ``app`` (the calculator's typer application)."""
    app.command("import")(import_command)

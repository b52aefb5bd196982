"""The ``calc import`` command: datasheets from the 10th-edition CSV export into YAML files in
the user data folder (or ``--out``), which every command searches."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from ..options import named, nonblank

CSV_VAR = "WH40K_CALC_CSV"


def default_csv_dir() -> Path | None:
    """The export folder to use without ``--csv``: ``$WH40K_CALC_CSV``, else None."""
    env = os.environ.get(CSV_VAR, "").strip()
    return Path(env) if env else None


def _say(line: str, err: bool = False) -> None:
    """Print one line, its control characters (a path's ESC) escaped, as every error is."""
    from ..terminal import escape_controls

    typer.echo(escape_controls(line), err=err)


def _fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``error: message`` and return the Exit to raise (2: a usage error)."""
    _say(f"error: {message}", err=True)
    return typer.Exit(code)


def import_command(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="NAME...",
            help="Datasheet names, e.g. 'Intercessor Squad' (or --all).",
            callback=named,
        ),
    ] = None,
    all_units: Annotated[
        bool, typer.Option("--all", help="Import every datasheet of the export.")
    ] = False,
    csv_dir: Annotated[
        str | None,  # text, not a Path: typer reads '' as the current folder
        typer.Option(
            "--csv",
            metavar="DIR",
            help=f"Folder of the CSV export (default: ${CSV_VAR}).",
            callback=nonblank("folder"),
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
        str | None,  # text, not a Path: '' would be the current folder
        typer.Option(
            "--out",
            metavar="DIR",
            help="Folder to write <faction>/<unit>.yaml into (default: the user data folder, "
            "which every command searches).",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing files.")] = False,
    replace_curated: Annotated[
        bool,
        typer.Option(
            "--replace-curated",
            help="Also import units that have a curated shipped datasheet (hand-made loadouts "
            "and rules); the imported file then replaces it.",
        ),
    ] = False,
) -> None:
    """Import datasheets from the 10th-edition CSV export and write them as YAML files.

    Units with a curated shipped datasheet are skipped (and listed) unless --replace-curated
    is given. Exits with code 1 if any name is unknown or ambiguous, or a file exists without
    --force.
    """
    from ..catalog import user_datasheets
    from ..datasheet import DatasheetError

    if out is not None and not out.strip():
        raise _fail("--out: give a folder name, e.g. --out my-datasheets (without --out: the user "
                    "data folder)", 2)  # fmt: skip
    if all_units and names:
        raise _fail("give datasheet names or --all (not both)", 2)
    if not all_units and not names:
        raise _fail("give datasheet names or --all", 2)
    source = Path(csv_dir) if csv_dir is not None else default_csv_dir()
    if source is None:
        raise _fail(
            f"no CSV export given: pass --csv DIR or set {CSV_VAR} (the folder of the public "
            "10th-edition datasheet export; see the README)"
        )
    try:
        target = Path(out) if out is not None else user_datasheets()
    except DatasheetError as exc:  # WH40K_CALC_HOME names a file
        raise _fail(str(exc)) from None
    taken = next((p for p in (target, *target.parents) if p.exists()), None)
    if out is not None and taken is not None and not taken.is_dir():
        which = f"--out {out}" + ("" if taken == target else f": {taken}")
        raise _fail(f"{which} is a file, not a folder (give the folder to write the files in)")
    curated = {} if replace_curated else _curated()
    if all_units:
        _import_all(source, target, force, curated)
    else:
        _import_names(list(names or []), source, faction, target, force, curated)


def _curated() -> dict[tuple[str, str], Path]:
    """(faction, name), normalised -> file of each curated shipped datasheet."""
    from ..catalog import Catalog

    catalog = Catalog(use_env=False, home=None, generated=None)
    return {e.identity: e.path for e in catalog.entries() if e.kind == "curated"}


def _identity(name: str, faction: str) -> tuple[str, str]:
    from ..datasheet import norm_name

    return norm_name(faction), norm_name(name)


def _say_skipped(
    skipped: list[str], out: Path, files: list[Path], before: set[Path] | None = None
) -> None:
    """List the units skipped for their curated datasheet, and older imports of them in
    ``out``: those that still replace it, and those (in ``before``) that this import removed
    (``calc import --all`` removes the files its previous run wrote and this one does not)."""
    if not skipped:
        return
    typer.echo(
        f"skipped {len(skipped)} unit{'s' if len(skipped) != 1 else ''} with a curated shipped "
        f"datasheet (hand-made loadouts and rules, which an imported file would replace): "
        f"{', '.join(skipped)}; pass --replace-curated to import "
        f"{'it' if len(skipped) == 1 else 'them'} too"
    )
    for path in files:
        if path.is_file():
            typer.echo(
                f"  note: {path} (an earlier import) still replaces the curated datasheet; "
                "delete it to use the curated one"
            )
        elif before and path in before:
            _say(f"  removed {path} (an earlier import of it)")


def _import_all(source: Path, out: Path, force: bool, curated: dict[tuple[str, str], Path]) -> None:
    from .export import ImportFailure
    from .generate import generate, write

    try:
        gen = generate(source, how="Imported by `calc import --all`")
    except ImportFailure as exc:
        raise _fail(str(exc)) from None
    skipped = [e for e in gen.index if _identity(e["name"], e["faction"]) in curated]
    for e in skipped:
        del gen.files[e["file"]]
    gen.index = [e for e in gen.index if e not in skipped]
    before = {out / e["file"] for e in skipped if (out / e["file"]).is_file()}
    existing = [rel for rel in gen.files if (out / rel).exists()]
    if existing and not force:
        raise _fail(
            f"{len(existing)} of the files exist in {out} (e.g. {out / existing[0]}); pass "
            "--force to overwrite them"
        )
    try:
        write(gen, out)
    except OSError as exc:
        raise _fail(f"cannot write into {out}: {exc.strerror or exc}") from None
    _say(f"wrote {len(gen.files)} datasheets into {out} ({len(gen.refused)} left out)")
    for sid, name, why in gen.refused:
        typer.echo(f"  left out: {name} ({sid}): {why}", err=True)
    _say_skipped(
        [f"{e['faction']}/{e['name']}" for e in skipped],
        out,
        [out / e["file"] for e in skipped],
        before,
    )


def _import_names(
    names: list[str],
    source: Path,
    faction: str | None,
    out: Path,
    force: bool,
    curated: dict[tuple[str, str], Path],
) -> None:
    from .export import slug
    from .generate import header
    from .wahapedia import ImportFailure, import_unit, to_yaml

    failed = False
    skipped: list[str] = []
    older: list[Path] = []
    for name in dict.fromkeys(names):  # a name given twice is imported once
        try:
            data, warnings = import_unit(source, name, faction)
        except ImportFailure as exc:
            _say(f"error: {exc}", err=True)
            failed = True
            continue
        path = out / slug(str(data["faction"])) / f"{slug(str(data['name']))}.yaml"
        if _identity(str(data["name"]), str(data["faction"])) in curated:
            skipped.append(f"{data['faction']}/{data['name']}")
            older.append(path)
            continue
        if path.exists() and not force:
            _say(f"error: {path} exists; pass --force to overwrite it", err=True)
            failed = True
            continue
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            text = to_yaml(data, header=header(data, warnings, "Imported by `calc import`"))
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            _say(f"error: cannot write {path}: {exc.strerror or exc}", err=True)
            failed = True
            continue
        _say(f"wrote {path}")
        for warning in warnings:
            _say(f"  warning: {warning}", err=True)
    _say_skipped(skipped, out, older)
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the ``import`` command to ``app`` (the calculator's typer application)."""
    app.command("import")(import_command)

"""Named sets of targets: ``calc compare lootas --target-set benchmarks``, a batch file's
``target_set: NAME``.

A set is a small YAML file: ``name:``, an optional ``description:`` and ``targets:``, whose
entries are exactly a batch file's ``targets`` entries (a name, or ``{name, models, loadout,
leader, allocation, wounds_left}``). Sets are found, first to last, in the ``target-sets``
folder of each ``--datasheets`` (and ``WH40K_CALC_DATASHEETS``) folder, in the user data
folder's ``target-sets`` (beside its ``datasheets``), and among the shipped ones (``target-sets/``
beside the shipped datasheets); a set is named by its ``name:`` or its file stem, and the first
found wins, so a user's ``benchmarks.yaml`` replaces the shipped one. The catalog never reads a
``target-sets`` folder as datasheets.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import msgspec

from .batch import UnitSpec, split_msgspec_error
from .catalog import SHIPPED_TARGET_SETS, TARGET_SETS
from .datasheet import norm_name
from .fuzzy import suggest_names

if TYPE_CHECKING:
    from .catalog import Catalog


class TargetSetError(ValueError):
    """A target set that cannot be found or read; the message names the set or the file (and
    the line and field)."""


class TargetSetSpec(msgspec.Struct, forbid_unknown_fields=True):
    """The schema of a target set file."""

    name: Annotated[str, msgspec.Meta(pattern=r"\S")]
    targets: Annotated[list[str | UnitSpec], msgspec.Meta(min_length=1)]
    description: str | None = None


@dataclass(frozen=True)
class TargetSet:
    """A loaded target set: its name, targets (batch ``targets`` entries), file, and the line of
    each entry in it."""

    name: str
    targets: tuple[str | UnitSpec, ...]
    path: Path
    description: str | None = None
    lines: tuple[int | None, ...] = ()

    def entries(self) -> list[SetEntry]:
        """Each target with where it comes from."""
        return [SetEntry(t, self, j) for j, t in enumerate(self.targets)]


@dataclass(frozen=True)
class SetEntry:
    """One entry of a target set (``targets[index]``), for errors that name the set file."""

    entry: str | UnitSpec
    target_set: TargetSet
    index: int

    @property
    def where(self) -> str:
        """``PATH:LINE`` of the entry (the path alone when its line is not known)."""
        lines = self.target_set.lines
        line = lines[self.index] if self.index < len(lines) else None
        return f"{self.target_set.path}:{line}" if line else str(self.target_set.path)

    def field(self, parts: list[str | int]) -> str:
        """The entry's field at fault, ``targets[0].models`` (``parts`` below the entry)."""
        from .validation import dotted

        return dotted(["targets", self.index, *parts])


def set_folders(cat: Catalog) -> list[Path]:
    """The folders target sets are looked for in, first to last (existing ones only)."""
    folders = [d / TARGET_SETS for d in cat.user_dirs]
    if isinstance(cat.home, Path):  # <user data folder>/datasheets -> <user data folder>
        folders.append(cat.home.parent / TARGET_SETS)
    if cat.shipped is not None:
        folders.append(SHIPPED_TARGET_SETS)
    return [f for f in folders if f.is_dir()]


def set_files(cat: Catalog) -> list[Path]:
    """Every target set file, in search order."""
    out: list[Path] = []
    for folder in set_folders(cat):
        out += sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    return out


def load_target_set(path: Path) -> TargetSet:
    """Read and validate one target set file.

    Raises:
        TargetSetError: unreadable, malformed YAML, or a field that does not fit the schema
            (named, with its line).
    """
    from .batch import _line_in
    from .yamlio import YamlError, read_document

    try:
        data, node = read_document(path, "target set")  # its errors name the file
    except YamlError as exc:
        raise TargetSetError(str(exc)) from None
    if data is None:
        raise TargetSetError(
            f"{path}: the file is empty; a target set gives 'name:' and 'targets:'"
        )
    try:
        spec = msgspec.convert(data, TargetSetSpec, strict=True)
    except msgspec.ValidationError as exc:
        field, parts, msg = split_msgspec_error(exc, TargetSetSpec, data)
        line = _line_in(node, parts) if parts else None
        loc = f":{line}" if line else ""
        raise TargetSetError(f"{path}{loc}: {field + ': ' if field else ''}{msg}") from None
    lines = tuple(_line_in(node, ["targets", j]) for j in range(len(spec.targets)))
    return TargetSet(spec.name, tuple(spec.targets), path, spec.description, lines)


def find_target_set(name: str, cat: Catalog) -> TargetSet:
    """The target set called ``name`` (its ``name:`` or file stem, case and punctuation
    ignored), the first found in search order.

    Raises:
        TargetSetError: no set has that name (with the closest names and the sets known), or
            the file is invalid.
    """
    key = norm_name(name)
    names: list[str] = []
    invalid: list[Path] = []
    for path in set_files(cat):
        if norm_name(path.stem) == key:
            return load_target_set(path)
        try:
            found = load_target_set(path)
        except TargetSetError:
            invalid.append(path)  # reported in full when it is the one asked for
            continue
        if norm_name(found.name) == key:
            return found
        names.append(found.name)
    hint = suggest_names(name, names)
    did = f"; did you mean {', '.join(repr(h) for h in hint)}?" if hint else ""
    known = ", ".join(dict.fromkeys(names)) or "none"
    unread = ""
    if invalid:
        files = ", ".join(str(p) for p in invalid[:3]) + (" ..." if len(invalid) > 3 else "")
        unread = f"; not read, invalid: {files} (ask for one by its file name to see why)"
    raise TargetSetError(f"unknown target set {name!r}{did} (target sets: {known}{unread})")

"""Finding datasheets by name across the user's folders and the shipped ones, in the data of
one rules edition.

Sources, first to last: folders given with ``--datasheets`` (in order), ``WH40K_CALC_DATASHEETS``
(``:``-separated), the user data folder (``WH40K_CALC_HOME`` or the platform's per-user data
folder, ``datasheets/`` inside it; where ``calc import`` writes), the curated shipped datasheets
(``datasheets/``, written by hand) and the generated ones, found through their name index
without reading the files: for edition 10 ``datasheets-generated/`` (every unit of the
10th-edition export), for edition 11 the user data folder's ``datasheets-11/`` for the factions
it has (newer data, ``calc data update``) and ``datasheets-generated-11/`` (every unit of the
edition-11 data, 912) for the others.

Each file is for the editions its ``edition`` field names (``11``, or ``[10, 11]`` for a file
right for both; a file without one is for edition 10). A lookup in one edition never takes a
unit from the other: where only the other edition has it, the error says so and how to ask.

A unit is identified by faction and name; of several files with the same faction and name the
first source wins and hides the others. Names match case-insensitively ignoring punctuation, by
the ``name:`` field or the file stem; ``Faction/Unit`` picks one faction's unit, the faction
named as we name it or as the data does (``Adeptus Astartes/Intercessor Squad``;
:mod:`wh40k_calc.factions`; ``/Unit``, with no faction, is refused). Edition 11's chapters
with datasheets of their own (Blood Angels, Space Wolves, ...) belong to Space Marines:
``Space Marines/Death Company Marines`` finds the Blood Angels unit, ``Blood Angels/Intercessor
Squad`` the Space Marines one, and a bare name that Space Marines and a chapter both have
(``Terminator Squad``) is Space Marines' (name the chapter for its own: ``Black
Templars/Terminator Squad``). A bare name that several factions
have is otherwise refused with the qualified choices unless the player said which faction
(``faction=`` / ``--faction``, or the ``WH40K_CALC_FACTIONS`` preference list) or a hand-written
file (curated or the user's) has the name: then it wins. Only the file that matches is parsed.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from msgspec import Struct

from .fuzzy import suggest_names
from .sheetnames import DatasheetError, file_editions, norm_name

if TYPE_CHECKING:  # the schema is imported where a file is parsed: listing needs none
    from .datasheet import Datasheet

ENV_VAR = "WH40K_CALC_DATASHEETS"
HOME_VAR = "WH40K_CALC_HOME"
FACTIONS_VAR = "WH40K_CALC_FACTIONS"
_HERE = Path(__file__).resolve().parent


def _data_dir(installed: str, checkout: str) -> Path:
    """A shipped data folder: the package's own copy when installed, the repository's in a
    checkout."""
    return next(
        (p for p in (_HERE / installed, _HERE.parent / checkout) if p.is_dir()),
        _HERE.parent / checkout,
    )


SHIPPED = _data_dir("datasheets", "datasheets")  # curated: written by hand
GENERATED = _data_dir("datasheets_generated", "datasheets-generated")  # `make datasheets`
GENERATED_11 = _data_dir("datasheets_generated_11", "datasheets-generated-11")  # edition 11
UPDATED_11 = "datasheets-11"  # the user data folder's edition-11 set (`calc data update`)
INDEX = "index.json"
TARGET_SETS = "target-sets"  # folders of target sets (wh40k_calc.target_set), not datasheets
SHIPPED_TARGET_SETS = _data_dir("target_sets", TARGET_SETS)
_NAME_LINE = re.compile(r"^name:.*$", re.MULTILINE)
_FACTION_LINE = re.compile(r"^faction:.*$", re.MULTILINE)
_PLAIN_VALUE = re.compile(r"^[A-Za-z0-9][^#:'\"{}\[\],&*!|>%@`]*$")
_DEFAULT = object()
MAX_SCAN_ENTRIES = 20_000  # files and folders under one datasheet folder, at most


def user_home() -> Path:
    """The user data folder: ``$WH40K_CALC_HOME``, else the platform's per-user data folder
    (``~/.local/share/wh40k-calc`` on Linux).

    Raises:
        DatasheetError: ``WH40K_CALC_HOME`` names a file (naming the variable).
    """
    env = os.environ.get(HOME_VAR, "").strip()
    if env:
        path = Path(env).expanduser()
        if path.exists() and not path.is_dir():
            raise DatasheetError(
                f"{HOME_VAR}={env}: is a file, not a folder (the user data folder, where "
                "calc import writes; set it to a folder or unset it)"
            )
        return path
    from platformdirs import user_data_dir  # lazy: only when the variable is not set

    return Path(user_data_dir("wh40k-calc", appauthor=False))


def user_datasheets() -> Path:
    """Where ``calc import`` writes and every command looks: ``<user data folder>/datasheets``.

    Raises:
        DatasheetError: ``WH40K_CALC_HOME`` names a file, or that folder's ``datasheets`` is
            a file (its user datasheets would be ignored without a word).
    """
    path = user_home() / "datasheets"
    if path.exists() and not path.is_dir():
        raise DatasheetError(
            f"{path}: is a file, not a folder (the user data folder's datasheets, where calc "
            f"import writes; move the file away, or set {HOME_VAR} to another folder)"
        )
    return path


def updated_datasheets_11() -> Path:
    """Where ``calc data update`` puts newer edition-11 datasheets, which the catalog prefers,
    faction by faction, to the shipped ones: ``<user data folder>/datasheets-11`` (the layout
    and ``index.json`` of the shipped ``datasheets-generated-11/``).

    Raises:
        DatasheetError: ``WH40K_CALC_HOME`` names a file.
    """
    return user_home() / UPDATED_11


def _parsed_head(path: Path) -> tuple[str, str, tuple[str, ...], bool]:
    """(name, faction, editions, readable) of a datasheet file whose top has no plain
    ``name:`` line, from the whole file parsed as YAML; the file's stem where it has no text
    name. A file that does not parse as a mapping (empty, not text, malformed YAML) is not
    readable: its stem, no faction, and both editions, so that every edition lists it and
    ``calc units --check`` reports it whichever edition it was meant for."""
    from .yamlio import YamlError, read_document

    try:
        data, _ = read_document(path, "datasheet file")
    except YamlError:
        return (path.stem, "", EDITIONS, False)
    if not isinstance(data, dict):
        return (path.stem, "", EDITIONS, False)
    name, faction = data.get("name"), data.get("faction")
    return (
        name if isinstance(name, str) and name.strip() else path.stem,
        faction if isinstance(faction, str) else "",
        file_editions(data.get("edition")),
        True,
    )


def _field(line_re: re.Pattern[str], head: str) -> str | None:
    """The text value of a top-level ``key: value`` line, read as YAML (quotes, comments);
    None when the line is missing or its value is not text."""
    m = line_re.search(head)
    if not m:
        return None
    raw = m.group(0).split(":", 1)[1].strip()
    if _PLAIN_VALUE.match(raw) and not raw.endswith(" "):
        return raw  # plain text: no YAML parser needed
    from .yamlio import YamlError, load

    try:
        value = load(m.group(0))
    except YamlError:
        return None
    if isinstance(value, dict) and len(value) == 1:
        v = next(iter(value.values()))
        return v if isinstance(v, str) and v.strip() else None
    return None


class UnknownUnitError(LookupError):
    """No datasheet matches a name; ``suggestions`` holds the closest names. ``searched``
    describes the folders looked in; ``hint`` is added at the end (e.g. how to import)."""

    def __init__(
        self,
        name: str,
        suggestions: list[str],
        searched: str = "",
        hint: str = "",
        listing: str | None = "`calc units` lists them",
    ):
        self.name = name
        self.suggestions = suggestions
        did = f"; did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        more = f"; {hint}" if hint else ""
        if searched and listing and not hint:  # one remark in brackets, not two in a row
            where, lists = f" (searched {searched}; {listing})", ""
        else:
            where = f" (searched {searched})" if searched else ""
            lists = f" ({listing})" if listing else ""
        super().__init__(f"unknown unit {name!r}{did}{where}{more}{lists}")


class BlankUnitNameError(UnknownUnitError):
    """An empty (or blank) unit name: a usage error (exit code 2), whatever the data holds."""

    usage = True

    def __init__(self, name: str):
        self.name, self.suggestions = name, []
        LookupError.__init__(self, f"no unit name given ({name!r}): give a datasheet's name")


class MalformedUnitNameError(UnknownUnitError):
    """A ``FACTION/UNIT`` name missing a part (``orks/``, ``/lootas``): malformed whatever the
    data holds, a usage error (exit code 2)."""

    usage = True


class AmbiguousUnitError(LookupError):
    """A bare name that several factions have; ``choices`` are the qualified names, ``option``
    the option that says the faction where the name was given (``--faction``,
    ``--target-faction``), if any: the catalog does not know it, the command re-raises the
    error :meth:`saying` it, so that only an option the command has is suggested. ``differ``:
    what the datasheets differ in (:func:`differences`; None: not known)."""

    def __init__(
        self,
        name: str,
        choices: list[str],
        option: str = "",
        differ: tuple[str, ...] | None = None,
    ):
        self.name = name
        self.choices = choices
        self.option = option
        self.differ = differ
        faction = f", or the faction with {option}" if option else ""
        from .wording import join_words

        how = (
            f" (they differ in {join_words(list(differ))})"
            if differ
            else " (alike but for the faction, whose rules act for the unit)"
            if differ is not None
            else ""
        )
        super().__init__(
            f"{name!r} is a datasheet of several factions: {', '.join(choices)}{how}; give one "
            f"of these names{faction} (or list the factions you play in {FACTIONS_VAR})"
        )

    def saying(self, option: str) -> AmbiguousUnitError:
        """The same refusal, suggesting ``option`` for the faction."""
        return AmbiguousUnitError(self.name, self.choices, option, self.differ)


# what a calculation reads of a datasheet beyond its faction, in words (``differences``)
_READ_FIELDS = {
    "sizes": "sizes or points",
    "models": "models",
    "weapons": "weapons",
    "loadouts": "loadouts",
    "keywords": "keywords",
    "rules": "rules",
    "damaged": "damaged profile",
    "leader_of": "units led",
    "support_of": "units supported",
    "add_ons": "add-ons",
    "not_modelled_attacker": "rules not modelled",
    "not_modelled_target": "rules not modelled",
}


def differences(sheets: list[Datasheet]) -> tuple[str, ...]:
    """What the datasheets of one name in several factions differ in, beyond the faction (and
    its faction keywords) itself, which the rules read too: so no two are ever the same unit to
    a calculation, and a name of several factions is refused, saying this."""
    out: list[str] = []
    for field, words in _READ_FIELDS.items():
        values = [getattr(ds, field) for ds in sheets]
        if any(v != values[0] for v in values[1:]) and words not in out:
            out.append(words)
    return tuple(out)


class UnknownFactionError(LookupError):
    """A faction name that no datasheet has; the message gives the closest and the list."""


class Entry(Struct, frozen=True):
    """One datasheet file found: display name and faction (from its ``name:``/``faction:``
    lines, or the index), path, where it comes from (``kind``: "user", "curated" or
    "generated"), the file that hides it, if any (same faction and name, earlier source), and
    the editions it is for (``editions``: "10", "11" or both). ``unreadable``: the file does
    not parse as a datasheet mapping (empty, not text, malformed YAML): its name is its file's
    stem and it is listed in both editions (loading it says what is wrong)."""

    name: str
    faction: str
    path: Path
    shipped: bool
    hidden_by: Path | None = None
    kind: str = "user"
    editions: tuple[str, ...] = ("10",)
    unreadable: bool = False

    @property
    def qualified(self) -> str:
        """``Faction/Unit`` (the bare name when the file names no faction)."""
        return f"{self.faction}/{self.name}" if self.faction else self.name

    @property
    def identity(self) -> tuple[str, str]:
        """(faction, name), normalised: what makes two files the same unit."""
        return norm_name(self.faction), norm_name(self.name)


class GeneratedSet(Struct, frozen=True):
    """A folder of generated datasheets found through its name index: the folder, its units
    (index entries) and those units by name key, and which of its factions it gives
    (``factions``: None for all of them; the user data folder's edition-11 set gives the
    factions it has, the shipped one the others). ``shipped``: installed with the program."""

    folder: Path
    units: tuple[dict[str, str], ...]
    by_key: dict[str, list[dict[str, str]]]
    shipped: bool = True
    factions: frozenset[str] | None = None
    versions: tuple[str, ...] = ()

    def gives(self, unit: dict[str, str]) -> bool:
        """Whether ``unit`` of this set's index is the one used (its faction is this set's)."""
        return self.factions is None or norm_name(unit["faction"]) in self.factions


EDITIONS = ("10", "11")
EDITION_NAMES = {"10": "10th-edition", "11": "11th-edition"}


class Catalog:
    """The datasheet folders in search order, for both rules editions; looks units up lazily.

    Each edition has its own data: edition 10 the curated files without an ``edition`` field
    (or naming 10) and the datasheets generated from the 10th-edition export; edition 11 the
    curated files naming 11 and the datasheets generated from the edition-11 data, taken per
    faction from the user data folder's ``datasheets-11/`` (``calc data update``) where it has
    that faction, else from the shipped set. A user's file is for the editions it names (none:
    edition 10). A unit looked up in one edition is never taken from the other: when only the
    other edition has it, the error says so.

    Args:
        user_dirs: ``--datasheets`` folders.
        use_env: also read ``WH40K_CALC_DATASHEETS`` and ``WH40K_CALC_FACTIONS``.
        shipped: the curated folder (None: no shipped data at all, generated included).
        generated: the 10th-edition generated folder with its ``index.json`` (default: the
            shipped one).
        home: the user data folder's datasheets (default: :func:`user_datasheets`; None: none).
        generated_11: the shipped edition-11 generated folder (default: the shipped one).
        updated_11: the user data folder's edition-11 generated folder (default:
            :func:`updated_datasheets_11`; None: none).
        edition: the edition looked in when a method is not told ("10" or "11").

    Raises:
        DatasheetError: a ``--datasheets`` or ``WH40K_CALC_DATASHEETS`` folder is missing or a
            file.
    """

    def __init__(
        self,
        user_dirs: list[Path] | tuple[Path, ...] = (),
        use_env: bool = True,
        shipped: Path | None = SHIPPED,
        generated: Path | object | None = _DEFAULT,
        home: Path | object | None = _DEFAULT,
        generated_11: Path | object | None = _DEFAULT,
        updated_11: Path | object | None = _DEFAULT,
        edition: str = "10",
    ):
        dirs: list[Path] = [Path(d) for d in user_dirs]
        env = [Path(p) for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p]
        if use_env:
            dirs += env
        from_env = {str(p) for p in env}
        for d in dirs:
            where = f" ({ENV_VAR})" if use_env and str(d) in from_env else ""
            if not d.exists():
                raise DatasheetError(f"{d}: datasheet folder does not exist{where}")
            if not d.is_dir():
                raise DatasheetError(f"{d}: is a file, not a folder of datasheets")
        self.user_dirs = tuple(dirs)
        self.home = user_datasheets() if home is _DEFAULT else home
        self.shipped = shipped
        if generated is _DEFAULT:
            generated = GENERATED if shipped is not None else None
        self.generated = generated
        if generated_11 is _DEFAULT:
            generated_11 = GENERATED_11 if shipped is not None else None
        self.generated_11 = generated_11
        if updated_11 is _DEFAULT:
            updated_11 = updated_datasheets_11() if home is _DEFAULT else None
            if isinstance(home, Path):
                updated_11 = home.parent / UPDATED_11
        self.updated_11 = updated_11
        self.edition = edition if edition in EDITIONS else "10"
        self.preferences = (
            [f.strip() for f in os.environ.get(FACTIONS_VAR, "").split(",") if f.strip()]
            if use_env
            else []
        )
        self._heads: dict[Path, tuple[str, str, tuple[str, ...]] | None] = {}
        self._unreadable: set[Path] = set()  # files that do not parse as a datasheet mapping
        self._not_files: dict[Path, str] = {}  # named like datasheets, no regular file: why
        # a file of the user's chosen -> the unreadable files of the user's it was chosen over
        # (a name both match; the readable one is used, the others said in a note)
        self._passed_over: dict[Path, list[Path]] = {}
        # a file of the user's chosen by a bare name -> the datasheets of other factions
        # (shipped, or the updated data's) it was chosen over, for a note (duplicate_notes)
        self._shadowed: dict[Path, list[Entry]] = {}
        self._by_edition: dict[str, list[Entry]] = {}
        # edition -> each hand-read file's first entry; (edition, a path as a datasheet
        # gives it) -> that entry (_first_entry)
        self._first_by_path: dict[str, dict[Path, Entry]] = {}
        self._first_entries: dict[tuple[str, str | Path], Entry | None] = {}
        self._set_cache: dict[str, tuple[GeneratedSet, ...]] = {}

    def in_edition(self, edition: str | None) -> str:
        """The edition to look in: ``edition`` when given, else the catalog's."""
        return edition if edition in EDITIONS else self.edition

    # ---- listing -------------------------------------------------------------------------

    def folders(self, edition: str | None = None) -> list[tuple[Path, str]]:
        """The folders searched in ``edition``, in order, with their kind ("user", "curated",
        "generated")."""
        return self._hand_folders() + [(g.folder, "generated") for g in self._sets(edition)]

    def _hand_folders(self) -> list[tuple[Path, str]]:
        """The folders read file by file, in order: the user's and the curated one."""
        out = [(d, "user") for d in self.user_dirs]
        if isinstance(self.home, Path) and self.home.is_dir():
            out.append((self.home, "user"))
        if self.shipped is not None and self.shipped.is_dir():
            out.append((self.shipped, "curated"))
        return out

    def _files(self) -> list[tuple[Path, bool]]:
        """Every datasheet file of the folders read file by file (not the generated sets)."""
        out: list[tuple[Path, bool]] = []
        for d, kind in self._hand_folders():
            out += [(p, kind == "curated") for p in self._scan(d)]
        return out

    def _scan(self, folder: Path) -> list[Path]:
        """The YAML files under ``folder``, sorted, regular files only (a named pipe or a
        dangling link would block or fail every lookup). Where the folder holds a name index
        written by ``calc import --all``, the name and faction of each file it lists that has
        not changed since are taken from it instead of the file. A ``target-sets`` folder
        holds target sets, not datasheets: it is skipped.

        Raises:
            DatasheetError: more than ``MAX_SCAN_ENTRIES`` files and folders under ``folder``.
        """
        found, not_files = _walk(folder)
        found.sort()
        self._not_files.update(not_files)
        index = folder / "index.json"
        if index.is_file() and folder != self.shipped:
            try:
                units, _ = _read_index(index)
                stamp = index.stat().st_mtime_ns
            except (DatasheetError, OSError):
                units, stamp = (), 0
            listed = {
                folder / u["file"]: (u["name"], u["faction"], file_editions(u.get("edition")))
                for u in units
            }
            for path, mtime in found:
                if path in listed and mtime <= stamp:
                    self._heads.setdefault(path, listed[path])
        return [p for p, _ in found]

    def not_files(self) -> list[tuple[Path, str, str]]:
        """(path, kind, why) of each entry of the folders read file by file that is named like
        a datasheet (``.yaml``, ``.yml``) but is no regular file: a named pipe, a device (a
        link to ``/dev/zero``), a socket or a link to nothing (``why`` says which). They are
        never opened (a pipe would block, ``/dev/zero`` never ends) and no lookup finds them;
        ``calc units`` lists them as unreadable and ``calc units --check`` as invalid."""
        self._hand_all()
        return [(p, self._kind(p), why) for p, why in sorted(self._not_files.items())]

    def _sets(self, edition: str | None = None) -> tuple[GeneratedSet, ...]:
        """The generated sets of ``edition``, in search order: edition 10's one; edition 11's
        updated set (its factions) and the shipped one (the other factions). Read once.

        Raises:
            DatasheetError: an index is not readable or not an index.
        """
        edition = self.in_edition(edition)
        if edition not in self._set_cache:
            self._set_cache[edition] = self._read_sets(edition)
        return self._set_cache[edition]

    def _read_sets(self, edition: str) -> tuple[GeneratedSet, ...]:
        if edition == "10":
            if not isinstance(self.generated, Path) or not (self.generated / INDEX).is_file():
                return ()
            units, by_key = _read_index(self.generated / INDEX)
            return (GeneratedSet(self.generated, units, by_key, True, None, ()),)
        out: list[GeneratedSet] = []
        taken: set[str] = set()
        for folder, shipped in ((self.updated_11, False), (self.generated_11, True)):
            if not isinstance(folder, Path) or not (folder / INDEX).is_file():
                continue
            units, by_key = _read_index(folder / INDEX)
            info = _index_files(folder / INDEX)
            mine = {norm_name(u["faction"]) for u in units} | {norm_name(f) for f, _, _ in info}
            mine -= taken
            if not mine:
                continue
            versions = tuple(sorted({str(v) for f, v, _ in info if norm_name(f) in mine}))
            out.append(GeneratedSet(folder, units, by_key, shipped, frozenset(mine), versions))
            taken |= mine
        return tuple(out)

    def generated_sets(self, edition: str | None = None) -> tuple[GeneratedSet, ...]:
        """The generated sets of ``edition`` in search order, each with the factions it gives
        (edition 11: the user data folder's updated set, then the shipped one).

        Raises:
            DatasheetError: an index is not readable or not an index.
        """
        return self._sets(edition)

    def data_of(self, entry: Entry) -> dict[str, object] | None:
        """The data version a generated entry comes from, ``{source, version, date}`` (its
        set's index, for its faction); None for the others and the 10th-edition export."""
        if entry.kind != "generated":
            return None
        for g in self._sets(entry.editions[0]):
            if entry.path.is_relative_to(g.folder):
                for faction, version, date in _index_files(g.folder / INDEX):
                    if norm_name(faction) == norm_name(entry.faction):
                        return {"source": "game-datacards", "version": version, "date": date}
        return None

    def data_versions(self, edition: str | None = None) -> tuple[str, ...]:
        """The data versions of ``edition``'s generated datasheets (edition 11: ("912",))."""
        return tuple(sorted({v for g in self._sets(edition) for v in g.versions}))

    def _generated(self, units: list[tuple[GeneratedSet, dict]], edition: str) -> list[Entry]:
        """Entries for index units, without those a curated file replaces and with
        ``hidden_by`` set for those a user's file hides."""
        hand = self._hand_ids(edition)
        curated = {e.identity for e in self._hand(edition) if e.kind == "curated"}
        out = []
        for g, u in units:
            e = Entry(
                u["name"], u["faction"], g.folder / u["file"], g.shipped, None, "generated",
                (edition,),
            )  # fmt: skip
            if e.identity in curated:
                continue  # a curated file replaces it by design: not listed at all
            winner = hand.get(e.identity)
            out.append(e if winner is None else _hidden(e, winner[0]))
        return out

    def _hand_all(self) -> list[tuple[Path, str, str, str, tuple[str, ...]]]:
        """The files read one by one (the user's and the curated ones), in search order:
        (path, kind, name, faction, editions)."""
        if "_hand_files" not in self.__dict__:
            files = []
            for path, _ in self._files():
                head = self._head(path)
                if head is not None:
                    files.append((path, self._kind(path), *head))
            self.__dict__["_hand_files"] = files
        return self.__dict__["_hand_files"]

    def _hand(self, edition: str | None = None) -> list[Entry]:
        """The files read one by one that are for ``edition``, in search order, each with
        ``hidden_by`` set when an earlier file has the same faction and name."""
        edition = self.in_edition(edition)
        if edition not in self._by_edition:
            first: dict[tuple[str, str], Path] = {}
            out = []
            for path, kind, name, faction, editions in self._hand_all():
                if edition not in editions:
                    continue
                e = Entry(name, faction, path, kind == "curated", None, kind, editions,
                          path in self._unreadable)  # fmt: skip
                winner = first.setdefault(e.identity, e.path)
                out.append(e if winner == e.path else _hidden(e, winner))
            self._by_edition[edition] = out
        return self._by_edition[edition]

    def _hand_ids(self, edition: str) -> dict[tuple[str, str], tuple[Path, str]]:
        """(faction, name) -> (file, kind) of the hand-read files that win in ``edition``."""
        return {e.identity: (e.path, e.kind) for e in self._hand(edition) if e.hidden_by is None}

    def _all(self, edition: str) -> list[Entry]:
        """Every entry of ``edition`` in search order (the generated sets last)."""
        units = [(g, u) for g in self._sets(edition) for u in g.units if g.gives(u)]
        return self._hand(edition) + self._generated(units, edition)

    def _candidates(self, key: str, edition: str) -> list[Entry]:
        """The visible entries of ``edition`` whose name or file stem is ``key``: by name
        first, then by stem, each in search order (only the index units of that name are
        looked at)."""
        units = [(g, u) for g in self._sets(edition) for u in g.by_key.get(key, []) if g.gives(u)]
        visible = [e for e in self._hand(edition) if e.hidden_by is None]
        visible += [e for e in self._generated(units, edition) if not e.hidden_by]
        hits = [e for e in visible if norm_name(e.name) == key]
        return hits + [e for e in visible if norm_name(e.path.stem) == key and e not in hits]

    def duplicate_notes(self, datasheets, edition: str | None = None) -> tuple[str, ...]:
        """Notes for datasheets (of this catalog) that several of the user's files define with
        the same faction and name: which file is used (the first in search order) and which
        are not, e.g. "Testers/X is defined by 2 files; using sub/x.yaml (first in search
        order), not x.yaml". A user's file replacing a shipped one is by design: no note; one
        of another faction (or none) chosen by a bare name over a shipped datasheet (the
        user's file wins: README, "a hand-written file has that name") is said, with the
        name of the other: "Boyz: your file boyz.yaml (no faction) is used, not the shipped
        Orks/Boyz (...); Orks/Boyz names that one; ...", once for every command that uses it."""
        out: list[str] = []
        hand = self._hand(edition)
        for ds in datasheets:
            given = getattr(ds, "path", None)
            winner = None if given is None else self._first_entry(given, edition)
            if given is None or winner is None or winner.kind != "user":
                continue
            path = Path(given)
            for skipped in self._passed_over.get(path, []):
                note = self._passed_over_note(winner, skipped, edition)
                if note not in out:
                    out.append(note)
            shadowed = self._shadowed.get(path)
            if shadowed:
                note = self._shadowed_note(winner, shadowed, edition)
                if note not in out:
                    out.append(note)
            others = [e.path for e in hand if e.hidden_by == path and e.kind == "user"]
            if not others:
                continue
            shown = _shown_paths([path, *others], self.folders(edition))
            note = (
                f"{winner.qualified} is defined by {len(others) + 1} files; using {shown[0]} "
                f"(first in search order), not {', '.join(shown[1:])}"
            )
            if note not in out:
                out.append(note)
        return tuple(out)

    def _first_entry(self, path: str | Path, edition: str | None) -> Entry | None:
        """The first entry (in search order) of the file read one by one at ``path`` for
        ``edition``, None for any other file. Made once a path as given (its ``Path`` and
        its hash cost more than the rest of a note-less datasheet's :meth:`duplicate_notes`,
        which a batch asks for each pair of units), from a table of the files made once an
        edition."""
        edition = self.in_edition(edition)
        key = (edition, path)
        if key not in self._first_entries:
            if edition not in self._first_by_path:
                first: dict[Path, Entry] = {}
                for e in self._hand(edition):
                    first.setdefault(e.path, e)
                self._first_by_path[edition] = first
            self._first_entries[key] = self._first_by_path[edition].get(Path(path))
        return self._first_entries[key]

    def _shadowed_note(self, winner: Entry, others: list[Entry], edition: str | None) -> str:
        """The note for a file of the user's used where a bare name also names ``others``
        (other factions' datasheets, not the user's): which is used, how to name the others,
        and, for a file with no faction, that a faction lets both be named apart."""
        from .wording import join_words

        (shown,) = _shown_paths([winner.path], self.folders(edition))
        which = join_words(
            [("the shipped " if e.shipped else "the updated data's ") + e.qualified for e in others]
        )
        own = "" if winner.faction else " (no faction)"
        names = " or ".join(e.qualified for e in others)
        keep = (
            ""
            if winner.faction
            else f"; with a faction (faction: NAME) yours is NAME/{winner.name}"
        )
        return (
            f"{winner.name}: your file {shown}{own} is used, not {which} (a file of yours wins "
            f"a name several factions have); {names} names that one{keep}"
        )

    def _passed_over_note(self, winner: Entry, skipped: Path, edition: str | None) -> str:
        """The note for an unreadable file of the user's that the name used also finds (it
        may hold the unit meant): its path and what is wrong with it."""
        from .datasheet import DatasheetError
        from .yamlio import YamlError

        try:
            _load_cached(skipped)
            why = "it could not be read"
        except (DatasheetError, YamlError) as exc:
            why = str(exc).removeprefix(f"{skipped}: ")
        shown = _shown_paths([winner.path, skipped], self.folders(edition))
        return (
            f"using {shown[0]} ({winner.qualified}); {shown[1]}, of the same name, cannot be "
            f"read: {why}"
        )

    def _kind(self, path: Path) -> str:
        if self.shipped is not None and path.is_relative_to(self.shipped):
            return "curated"
        return "user"

    def entries(
        self,
        files: list[tuple[Path, bool]] | None = None,
        hidden: bool = False,
        edition: str | None = None,
    ) -> list[Entry]:
        """Every datasheet of ``edition`` found with its name and faction, in search order;
        with ``hidden``, also the files hidden by an earlier one of the same faction and name.
        ``files`` restricts the listing to those files (read file by file)."""
        found = self._all(self.in_edition(edition))
        if files is not None:
            keep = {p for p, _ in files}
            return [e for e in found if e.path in keep and (hidden or e.hidden_by is None)]
        return [e for e in found if hidden or e.hidden_by is None]

    def _head(self, path: Path) -> tuple[str, str, tuple[str, ...]] | None:
        """(name, faction, editions) from a file, read once per Catalog; None: unreadable.
        Name and faction come from the top; the ``edition`` line from anywhere in the file
        (a file without one is for edition 10)."""
        if path not in self._heads:
            try:
                with path.open(encoding="utf-8", errors="replace") as fh:
                    head = fh.read(4000)  # the top only: name and faction come first
                    rest = fh.read()
            except OSError:
                self._heads[path] = None
            else:
                head = head.removeprefix("\ufeff")  # a byte-order mark
                name = _field(_NAME_LINE, head)
                editions = _editions_field(head + rest)
                if name is None:  # not a plain top-level line ('"name": X', flow style, ...)
                    parsed = _parsed_head(path)
                    self._heads[path] = (*parsed[:2], editions or parsed[2])
                    if not parsed[3]:
                        self._unreadable.add(path)
                else:
                    faction = _field(_FACTION_LINE, head) or ""
                    self._heads[path] = (name, faction, editions or ("10",))
        return self._heads[path]

    # ---- finding -------------------------------------------------------------------------

    def find(self, name: str, faction: str | None = None, edition: str | None = None) -> Datasheet:
        """The datasheet called ``name`` (``Faction/Unit`` or a bare name; see the module
        docstring) in ``edition`` (default: the catalog's), preferring ``faction`` when given.

        Raises:
            UnknownUnitError: nothing matches in that edition (with suggestions and the folders
                searched; when the other edition has it, the error says so).
            AmbiguousUnitError: several factions have the name and nothing says which.
            UnknownFactionError: ``faction`` (or the one in ``Faction/Unit``, or one in
                ``WH40K_CALC_FACTIONS``) is not a faction of any datasheet.
            DatasheetError: the matching file is invalid.
        """
        return _load_cached(self.entry(name, faction, edition).path)

    def entry(self, name: str, faction: str | None = None, edition: str | None = None) -> Entry:
        """The :class:`Entry` :meth:`find` would load (same rules and errors, nothing parsed;
        a name that is the path of a datasheet file is refused pointing to ``--datasheets``)."""
        edition = self.in_edition(edition)
        _refuse_file_path(name)
        try:
            return self._entry(name, faction, edition)
        except UnknownUnitError as exc:
            removed = self._removed_by_update(name, edition)
            if removed is not None:
                raise removed from None
            other = next(e for e in EDITIONS if e != edition)
            try:
                there = self._entry(name, faction, other)
            except LookupError:
                raise exc from None
            raise self._other_edition(name, edition, other, there) from None

    def _entry(self, name: str, faction: str | None, edition: str) -> Entry:
        key = norm_name(name)
        if not key:
            raise BlankUnitNameError(name)
        if not name.isprintable():
            from .datasheet import holds_control

            if holds_control(name):  # never matched with the character left out
                raise MalformedUnitNameError(
                    name, [], hint="it holds a control character, which no name holds", listing=None
                )
        fpart, slash, upart = name.rpartition("/")
        if slash and not norm_name(fpart):  # "/lootas": refused, as --effect "/waaagh" is
            raise self._no_faction(name, upart, edition)
        hits = self._candidates(key, edition)
        if not hits and "/" in name:
            fpart, _, upart = name.rpartition("/")
            where = "in " + repr(name)
            faction_name = self._named_faction(fpart, where, edition)
            if not norm_name(upart):  # "orks/": said so, not "unknown unit ''"
                raise MalformedUnitNameError(
                    name,
                    [],
                    hint=f"the unit's name is missing after {fpart + '/'!r} (FACTION/UNIT)",
                    listing=f"`calc units --faction {_quoted(faction_name)}` lists its units",
                )
            return self._entry(upart, faction_name, edition)
        if not hits:
            raise self._unknown(name, self.entries(edition=edition), edition)
        if faction is not None:
            found = self._named_faction(faction, "--faction", edition)
            return self._in_faction(name, hits, found, edition)
        return self._choose(name, hits, edition)

    def _no_faction(self, name: str, unit: str, edition: str) -> MalformedUnitNameError:
        """The error for ``/UNIT`` (nothing before the slash, or only punctuation): the
        ``FACTION/UNIT`` form without its faction, suggesting the unit's own names (bare and
        qualified) when ``unit`` is one, else the closest names."""
        hits = self._candidates(norm_name(unit), edition)
        if hits:
            bare = list(dict.fromkeys(e.name for e in hits))
            suggestions = [*bare, *dict.fromkeys(e.qualified for e in hits)]
        else:
            suggestions = self.suggest(unit, self.entries(edition=edition))
        return MalformedUnitNameError(
            name,
            suggestions,
            hint="no faction before '/' (write FACTION/UNIT, or the UNIT alone)",
        )

    def _named_faction(self, text: str, where: str, edition: str) -> str:
        """The faction a lookup names (``FACTION/UNIT``, ``--faction``; ``where`` says which
        for the error): a faction of ``edition``'s data (by our name or the data's), or a
        chapter with datasheets of its own in edition 11 (Blood Angels) named in edition 10,
        where its units are Space Marines'.

        Raises:
            UnknownFactionError: neither (with the closest names).
        """
        try:
            return self.faction_name(text, where, edition)
        except UnknownFactionError:
            parent = self.parent(text)
            if parent is None:
                raise
            return self.faction_name(parent, where, edition)

    def _removed_by_update(self, name: str, edition: str) -> UnknownUnitError | None:
        """The error for a unit of the shipped edition-11 data whose faction the user data
        folder's updated set gives without it (``calc data update`` removed it); None when
        that is not why the unit is not found."""
        if edition != "11":
            return None
        key = norm_name(name.rpartition("/")[2])
        sets = self._sets(edition)
        for g in sets:
            gone = [u for u in g.by_key.get(key, []) if not g.gives(u)] if g.shipped else []
            if not gone:
                continue
            faction = gone[0]["faction"]
            versions = [
                str(v)
                for h in sets
                if not h.shipped
                for f, v, _ in _index_files(h.folder / INDEX)
                if norm_name(f) == norm_name(faction)
            ]
            data = f" (data {', '.join(versions)})" if versions else ""
            hint = (
                f"removed from the {faction} datasheets by `calc data update`{data}: the "
                "shipped data has it; `calc data status` shows the data in use, `calc data "
                "reset` goes back to the shipped data"
            )
            return UnknownUnitError(name, [], hint=hint, listing=None)
        return None

    def _other_edition(self, name: str, edition: str, other: str, there: Entry) -> UnknownUnitError:
        """The error for a unit that only the other edition's data has."""
        versions = self.data_versions(edition) if edition == "11" else ()
        data = f" ({', '.join(versions)})" if versions else ""
        hint = (
            f"not in the {EDITION_NAMES[edition]} data{data}; it exists in edition {other}: "
            f"use --edition {other}"
        )
        if there.kind == "user":
            hint += f" (or add 'edition: [10, 11]' to {there.path} if it is right for both)"
        return UnknownUnitError(name, [], hint=hint, listing=None)

    def _in_faction(self, name: str, hits: list[Entry], faction: str, edition: str) -> Entry:
        """The hit of ``faction``; else, for a faction with chapters of its own (Space Marines)
        its chapters' one, and for a chapter its parent's (``Blood Angels/Intercessor
        Squad``)."""
        fkey = norm_name(faction)
        for keys in (
            {fkey},
            {norm_name(c) for c in self.chapters(faction)},
            {norm_name(p) for p in [self.parent(faction)] if p},
        ):
            mine = [e for e in hits if norm_name(e.faction) in keys]
            if mine:
                return self._choose(name, mine, edition)
        where = ", ".join(sorted({e.faction or "(no faction)" for e in hits}))
        raise UnknownUnitError(
            name, [], hint=f"not a datasheet of {faction}; it is one of: {where}"
        )

    def _choose(self, name: str, hits: list[Entry], edition: str | None) -> Entry:
        factions = list(dict.fromkeys(norm_name(e.faction) for e in hits))
        if len(factions) == 1:
            return _best(hits)
        for pref in self.preferences:
            try:
                fkey = norm_name(self.faction_name(pref, FACTIONS_VAR, edition))
            except UnknownFactionError:
                continue  # no such faction: warned about (preference_warnings), ignored
            mine = [e for e in hits if norm_name(e.faction) == fkey]
            if mine:
                return _best(mine)
        for kind in ("user", "curated"):  # hand-written files win over generated ones
            mine = [e for e in hits if e.kind == kind]
            readable = [e for e in mine if not e.unreadable]
            if kind == "user" and len({norm_name(e.faction) for e in readable}) == 1 < len(mine):
                # the user's files that cannot be read (no faction known) do not make the name
                # ambiguous: the readable one is used, and a note names the others
                winner = _best(readable)
                passed = self._passed_over.setdefault(winner.path, [])
                passed += [e.path for e in mine if e.unreadable and e.path not in passed]
                return self._shadowing(winner, hits)
            if mine:
                if len({norm_name(e.faction) for e in mine}) == 1:
                    return self._shadowing(_best(mine), hits) if kind == "user" else _best(mine)
                hits = mine
                break
        parents = [e for e in hits if norm_name(self.parent(e.faction) or "") in factions]
        if parents and len(parents) < len(hits):  # a chapter's own version: the parent's wins
            rest = [e for e in hits if e not in parents]
            if len({norm_name(e.faction) for e in rest}) == 1:
                return _best(rest)
        try:
            differ = differences([_load_cached(e.path) for e in hits])
        except (DatasheetError, OSError):
            differ = None
        raise AmbiguousUnitError(name, sorted(dict.fromkeys(e.qualified for e in hits)), "", differ)

    def _shadowing(self, winner: Entry, hits: list[Entry]) -> Entry:
        """``winner``, a file of the user's chosen by a bare name that ``hits`` also match,
        with the datasheets of other factions it was chosen over remembered (not the user's:
        two of those are ambiguous), for :meth:`duplicate_notes` to say so."""
        others = self._shadowed.setdefault(winner.path, [])
        others += [e for e in hits if e.kind != "user" and e not in others]
        return winner

    def preference_warnings(self) -> list[str]:
        """One warning for each faction in ``WH40K_CALC_FACTIONS`` that no datasheet of
        either edition has, by our name or the data's (with the closest names): it is ignored,
        whether or not a name needs it."""
        from .factions import aliases

        known = sorted({f for e in EDITIONS for f in self.factions(e)})
        keys = {norm_name(f) for f in known} | {norm_name(a) for a in aliases()}
        out = []
        for pref in self.preferences:
            if norm_name(pref) not in keys:
                hint = suggest_names(pref, known)
                did = f"; did you mean {', '.join(repr(h) for h in hint)}?" if hint else ""
                out.append(f"{FACTIONS_VAR}: unknown faction {pref!r}, ignored{did}")
        return out

    def factions(self, edition: str | None = None) -> list[str]:
        """The faction names of ``edition``'s datasheets found, sorted."""
        edition = self.in_edition(edition)
        names = {e.faction for e in self._hand(edition)}
        names |= {u["faction"] for g in self._sets(edition) for u in g.units if g.gives(u)}
        return sorted(n for n in names if n)

    def parent(self, faction: str) -> str | None:
        """The faction a chapter with datasheets of its own belongs to (Blood Angels: Space
        Marines), from :data:`wh40k_calc.factions.PARENTS`; None for the others."""
        from .factions import PARENTS

        key = norm_name(faction)
        return next((p for c, p in PARENTS.items() if norm_name(c) == key), None)

    def chapters(self, faction: str) -> list[str]:
        """The factions that belong to ``faction`` (Space Marines: its chapters)."""
        from .factions import PARENTS

        return [c for c, p in PARENTS.items() if norm_name(p) == norm_name(faction)]

    def faction_name(self, text: str, where: str, edition: str | None = None) -> str:
        """The faction ``text`` names (case and punctuation ignored; the data's own names,
        such as "Adeptus Astartes" for Space Marines, too).

        Raises:
            UnknownFactionError: no datasheet has that faction (with the closest names).
        """
        from .factions import aliases

        known = self.factions(edition)
        wanted = {norm_name(text)}
        wanted |= {norm_name(ours) for data, ours in aliases().items() if norm_name(data) in wanted}
        for f in known:
            if norm_name(f) in wanted:
                return f
        hint = suggest_names(text, known + list(aliases()))
        did = f"; did you mean {', '.join(repr(h) for h in hint)}?" if hint else ""
        raise UnknownFactionError(
            f"unknown faction {text!r} ({where}){did} (factions: {', '.join(known)})"
        )

    def _unknown(self, name: str, visible: list[Entry], edition: str) -> UnknownUnitError:
        from .nicknames import nickname

        searched = ", ".join(_describe(d, kind) for d, kind in self.folders(edition))
        hints = []
        suggestions = self.suggest(name, visible)
        known = nickname(name)  # "fire warriors": offered first, saying so, never taken
        if known is not None:
            suggestions = [known.qualified, *(s for s in suggestions if s != known.qualified)]
            hints.append(f"{known.nickname!r} is what players call {known.qualified}")
        if not suggestions:  # said, rather than a far name suggested (wh40k_calc.fuzzy.kin)
            hints.append("no datasheet's name is close to it")
        if os.environ.get("WH40K_CALC_CSV"):
            hints.append("a newer export may have it: `calc import NAME` reads $WH40K_CALC_CSV")
        broken = [e.path for e in visible if e.unreadable and e.kind == "user"]
        broken += [p for p, kind, _ in self.not_files() if kind == "user"]
        if broken:  # the unit may be in one of them: say so, not only "unknown"
            from .wording import count

            hints.append(
                f"{count(len(broken), 'datasheet file')} of those folders could not be read "
                f"({'the first: ' if len(broken) > 1 else ''}{broken[0]}; "
                "`calc units --check` says what is wrong)"
            )
        listing = "`calc units" + (" --edition 11" if edition == "11" else "") + "` lists them"
        return UnknownUnitError(name, suggestions, searched, "; ".join(hints), listing)

    @staticmethod
    def suggest(name: str, entries: list[Entry]) -> list[str]:
        """Closest datasheet names to ``name`` (by name or file stem; :mod:`wh40k_calc.fuzzy`),
        closest first. Never a match: a unit is found only by its exact name or stem."""
        from .fuzzy import SUGGEST_COUNT, suggest

        by_text: dict[str, str] = {}
        for e in entries:
            by_text.setdefault(e.name, e.name)
            by_text.setdefault(e.path.stem, e.name)
        out: list[str] = []
        for hit in suggest(name, list(by_text), limit=2 * SUGGEST_COUNT):
            if by_text[hit] not in out:
                out.append(by_text[hit])
        return out[:SUGGEST_COUNT]


# the top-level ``edition:`` line and the lines of a block list under it ("- 10")
_EDITION_LINE = re.compile(r"^edition:[^\n]*(?:\n[ \t]*-[^\n]*)*", re.MULTILINE)
# the same line giving one plain integer or a flow list of them, which YAML reads as those
# integers (a leading 0, a comment, a block list or anything else is left to the YAML parser)
_PLAIN_EDITIONS = re.compile(
    r"edition:[ \t]*(?:[1-9][0-9]*|\[[ \t]*[1-9][0-9]*(?:[ \t]*,[ \t]*[1-9][0-9]*)*[ \t]*\])[ \t]*"
)


def _editions_field(text: str) -> tuple[str, ...] | None:
    """The editions a file's top-level ``edition:`` line names (None: no such line, or one
    that does not read; the schema then says what is wrong when the file is loaded)."""
    m = _EDITION_LINE.search(text)
    if not m:
        return None
    if _PLAIN_EDITIONS.fullmatch(m.group(0)):  # e.g. "edition: [10, 11]": no YAML needed
        return file_editions([int(n) for n in re.findall(r"[0-9]+", m.group(0))])
    from .yamlio import YamlError, load

    try:
        value = load(m.group(0))
    except YamlError:
        return None
    return file_editions(value.get("edition")) if isinstance(value, dict) else None


_FILES: dict[Path, tuple[tuple[str, int | str, str], ...]] = {}  # filled by _read_index


def _index_files(path: Path) -> tuple[tuple[str, int | str, str], ...]:
    """(faction, data version, date) of each faction file an edition-11 index lists (its
    ``files``); () for an index without them (read with the index, once).

    Raises:
        DatasheetError: the index is not readable or not an index.
    """
    _read_index(path)
    return _FILES.get(path, ())


def _files_of(raw: object) -> tuple[tuple[str, int | str, str], ...]:
    files = raw.get("files") if isinstance(raw, dict) else None
    return tuple(
        (str(f["faction"]), f.get("version", ""), str(f.get("date", "")))
        for f in files or []
        if isinstance(f, dict) and f.get("faction")
    )


def _quoted(text: str) -> str:
    """``text`` as a shell word: quoted when it holds a space (``"Space Marines"``)."""
    return f'"{text}"' if any(c.isspace() for c in text) else text


def _refuse_file_path(name: str) -> None:
    """A unit's name that is the path of an existing YAML file (``calc shoot
    /tmp/x/p9gun.yaml``), refused as such rather than read as ``FACTION/UNIT``.

    Raises:
        UnknownUnitError: naming the folder to give with ``--datasheets``.
    """
    if not name.lower().endswith((".yaml", ".yml")) or ("/" not in name and "\\" not in name):
        return
    path = Path(name)
    try:
        if not path.is_file():
            return
    except (OSError, ValueError):
        return
    raise UnknownUnitError(
        name,
        [],
        hint=(
            f"it is a datasheet file: give its folder with --datasheets {path.parent} and the "
            f"unit's name (its name: line, or the file's stem {path.stem!r})"
        ),
        listing=None,
    )


def _walk(folder: Path) -> tuple[list[tuple[Path, int]], dict[Path, str]]:
    """(path, mtime) of the YAML files under ``folder``, following folder links but visiting
    each real folder once (a link loop such as ``a -> .`` is read once, not forever), and
    giving up on a folder with more than ``MAX_SCAN_ENTRIES`` entries under it; and the
    entries named like YAML files that are no regular file, with what they are
    (:func:`_not_a_file`).

    Raises:
        DatasheetError: too many entries (``--datasheets /`` and the like).
    """
    found: list[tuple[Path, int]] = []
    not_files: dict[Path, str] = {}
    seen: set[tuple[int, int]] = set()
    stack, count = [folder], 0
    while stack:
        try:
            here = stack.pop()
            st = here.stat()
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            with os.scandir(here) as it:
                for entry in it:
                    count += 1
                    if count > MAX_SCAN_ENTRIES:
                        raise DatasheetError(
                            f"{folder}: more than {MAX_SCAN_ENTRIES:,} files and folders "
                            "under it; not read as a datasheet folder (give the folder "
                            "that holds your datasheet files)"
                        )
                    if entry.is_dir():
                        if entry.name != TARGET_SETS:
                            stack.append(Path(entry.path))
                    elif entry.name.endswith((".yaml", ".yml")):
                        if entry.is_file():
                            found.append((Path(entry.path), entry.stat().st_mtime_ns))
                        else:
                            not_files[Path(entry.path)] = _not_a_file(Path(entry.path))
        except OSError:
            continue
    return found, not_files


def _not_a_file(path: Path) -> str:
    """What ``path``, which is no regular file nor folder, is (its link followed), in words
    for an error: "not a regular file (a named pipe)", "a link to nothing", ..."""
    import stat

    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "a link to nothing (its target does not exist)"
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    kind = (
        "a named pipe"
        if stat.S_ISFIFO(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "not a file"
    )
    return f"not a regular file ({kind}); not read"


def _hidden(e: Entry, by: Path) -> Entry:
    return Entry(e.name, e.faction, e.path, e.shipped, by, e.kind, e.editions, e.unreadable)


def _shown_paths(paths: list[Path], folders: list[tuple[Path, str]]) -> list[str]:
    """The files as people read them: relative to the search folder that holds them all, else
    to the working directory (absolute where that fails)."""
    for folder, _ in folders:
        if all(p.is_relative_to(folder) for p in paths):
            return [str(p.relative_to(folder)) for p in paths]
    out = []
    for p in paths:
        try:
            out.append(os.path.relpath(p))
        except ValueError:
            out.append(str(p))
    return out


def _best(hits: list[Entry]) -> Entry:
    """Of entries for one faction: a match by name before one by file stem, then search order
    (``hits`` lists name matches first)."""
    return hits[0]


def _describe(folder: Path, kind: str) -> str:
    if kind == "curated":
        return "the shipped datasheets"
    if kind == "generated":
        if folder == GENERATED_11:
            return "the generated edition-11 datasheets"
        if folder.name == UPDATED_11:
            return f"the updated edition-11 datasheets ({folder})"
        return "the generated datasheets"
    return str(folder)


@lru_cache(maxsize=4)
def _read_index(
    path: Path,
) -> tuple[tuple[dict[str, str], ...], dict[str, list[dict[str, str]]]]:
    """The units of a generated name index (``index.json``: name, faction, file and ``key``,
    the normalised name), and the units by key; an edition-11 index's ``files`` are kept for
    :func:`_index_files`.

    Raises:
        DatasheetError: the index is not readable or not an index.
    """
    try:
        # msgspec: loaded for the datasheets anyway, and twice as fast as json here
        raw = msgspec.json.decode(path.read_text(encoding="utf-8"))
        units = tuple(raw["units"])
        _FILES[path] = _files_of(raw)  # an edition-11 index's faction files
        by_key: dict[str, list[dict[str, str]]] = {}
        for u in units:
            by_key.setdefault(u["key"], []).append(u)
            if not isinstance(u["name"], str) or not isinstance(u["file"], str):
                raise TypeError(f"unit {u!r}")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DatasheetError(f"{path}: not a datasheet index ({exc})") from None
    return units, by_key


@lru_cache(maxsize=64)
def _load_cached(path: Path) -> Datasheet:
    from .datasheet import load_datasheet

    return load_datasheet(path, keep=True)


def forget_cached() -> None:
    """Forget the name indexes and datasheets read so far in this process, so that the next
    lookup reads them again (after ``calc data update`` or ``calc data reset`` replaced the
    user data folder's edition-11 set under the same paths)."""
    _read_index.cache_clear()
    _load_cached.cache_clear()
    _FILES.clear()

"""Finding datasheets by name across the user's folders and the shipped ones.

Sources, first to last: folders given with ``--datasheets`` (in order), ``WH40K_CALC_DATASHEETS``
(``:``-separated), the user data folder (``WH40K_CALC_HOME`` or the platform's per-user data
folder, ``datasheets/`` inside it; where ``calc import`` writes), the curated shipped datasheets
(``datasheets/``, written by hand) and the generated shipped ones (``datasheets-generated/``,
every unit of the datasheet export, found through its name index without reading the files).

A unit is identified by faction and name; of several files with the same faction and name the
first source wins and hides the others. Names match case-insensitively ignoring punctuation, by
the ``name:`` field or the file stem; ``Faction/Unit`` picks one faction's unit. A bare name
that several factions have is refused with the qualified choices unless the player said which
faction (``faction=`` / ``--faction``, or the ``WH40K_CALC_FACTIONS`` preference list) or a
hand-written file (curated or the user's) has the name: then it wins. Only the file that matches
is parsed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import msgspec

from .datasheet import Datasheet, DatasheetError, load_datasheet, norm_name
from .fuzzy import suggest_names

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


def _parsed_head(path: Path) -> tuple[str, str]:
    """(name, faction) of a datasheet file whose top has no plain ``name:`` line, from the
    whole file parsed as YAML; the file's stem (and no faction) where it has no text name or
    does not parse (loading it then says what is wrong)."""
    from .yamlio import YamlError, read_document

    try:
        data, _ = read_document(path, "datasheet file")
    except YamlError:
        return (path.stem, "")
    if not isinstance(data, dict):
        return (path.stem, "")
    name, faction = data.get("name"), data.get("faction")
    return (
        name if isinstance(name, str) and name.strip() else path.stem,
        faction if isinstance(faction, str) else "",
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
        listing: str = "`calc units` lists them",
    ):
        self.name = name
        self.suggestions = suggestions
        did = f"; did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        where = f" (searched {searched})" if searched else ""
        more = f"; {hint}" if hint else ""
        super().__init__(f"unknown unit {name!r}{did}{where}{more} ({listing})")


class AmbiguousUnitError(LookupError):
    """A bare name that several factions have; ``choices`` are the qualified names."""

    def __init__(self, name: str, choices: list[str]):
        self.name = name
        self.choices = choices
        super().__init__(
            f"{name!r} is a datasheet of several factions: {', '.join(choices)}; give one of "
            f"these names, or the faction with --faction / --target-faction (or list the "
            f"factions you play in {FACTIONS_VAR})"
        )


class UnknownFactionError(LookupError):
    """A faction name that no datasheet has; the message gives the closest and the list."""


@dataclass(frozen=True)
class Entry:
    """One datasheet file found: display name and faction (from its ``name:``/``faction:``
    lines, or the index), path, where it comes from (``kind``: "user", "curated" or
    "generated"), and the file that hides it, if any (same faction and name, earlier source).
    """

    name: str
    faction: str
    path: Path
    shipped: bool
    hidden_by: Path | None = None
    kind: str = "user"

    @property
    def qualified(self) -> str:
        """``Faction/Unit`` (the bare name when the file names no faction)."""
        return f"{self.faction}/{self.name}" if self.faction else self.name

    @property
    def identity(self) -> tuple[str, str]:
        """(faction, name), normalised: what makes two files the same unit."""
        return norm_name(self.faction), norm_name(self.name)


class Catalog:
    """The datasheet folders in search order; looks units up lazily.

    Args:
        user_dirs: ``--datasheets`` folders.
        use_env: also read ``WH40K_CALC_DATASHEETS`` and ``WH40K_CALC_FACTIONS``.
        shipped: the curated folder (None: no shipped data at all, generated included).
        generated: the generated folder with its ``index.json`` (default: the shipped one).
        home: the user data folder's datasheets (default: :func:`user_datasheets`; None: none).

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
        self.preferences = (
            [f.strip() for f in os.environ.get(FACTIONS_VAR, "").split(",") if f.strip()]
            if use_env
            else []
        )
        self._heads: dict[Path, tuple[str, str] | None] = {}

    # ---- listing -------------------------------------------------------------------------

    def folders(self) -> list[tuple[Path, str]]:
        """The folders searched, in order, with their kind ("user", "curated", "generated")."""
        out = [(d, "user") for d in self.user_dirs]
        if isinstance(self.home, Path) and self.home.is_dir():
            out.append((self.home, "user"))
        if self.shipped is not None and self.shipped.is_dir():
            out.append((self.shipped, "curated"))
        if isinstance(self.generated, Path) and (self.generated / "index.json").is_file():
            out.append((self.generated, "generated"))
        return out

    def _files(self) -> list[tuple[Path, bool]]:
        """Every datasheet file of the folders read file by file (not the generated set)."""
        out: list[tuple[Path, bool]] = []
        for d, kind in self.folders():
            if kind != "generated":
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
        found = sorted(_walk(folder))
        index = folder / "index.json"
        if index.is_file() and folder != self.shipped:
            try:
                units, _ = _read_index(index)
                stamp = index.stat().st_mtime_ns
            except (DatasheetError, OSError):
                units, stamp = (), 0
            listed = {folder / u["file"]: (u["name"], u["faction"]) for u in units}
            for path, mtime in found:
                if path in listed and mtime <= stamp:
                    self._heads.setdefault(path, listed[path])
        return [p for p, _ in found]

    def _index(self) -> tuple[tuple[dict[str, str], ...], dict[str, list[dict[str, str]]]]:
        """The generated set's name index: its units, and the units by name key."""
        if not isinstance(self.generated, Path):
            return (), {}
        return _read_index(self.generated / "index.json")

    def _generated(self, units) -> list[Entry]:
        """Entries for index units, without those a curated file replaces and with
        ``hidden_by`` set for those a user's file hides."""
        if not isinstance(self.generated, Path):
            return []
        hand = self._hand_ids
        curated = {e.identity for e in self._hand if e.kind == "curated"}
        out = []
        for u in units:
            e = Entry(u["name"], u["faction"], self.generated / u["file"], True, None, "generated")
            if e.identity in curated:
                continue  # a curated file replaces it by design: not listed at all
            winner = hand.get(e.identity)
            out.append(e if winner is None else _hidden(e, winner[0]))
        return out

    @cached_property
    def _hand(self) -> list[Entry]:
        """The files read one by one (the user's and the curated ones), in search order, each
        with ``hidden_by`` set when an earlier file has the same faction and name."""
        first: dict[tuple[str, str], Path] = {}
        out = []
        for path, shipped in self._files():
            head = self._head(path)
            if head is None:
                continue
            e = Entry(head[0], head[1], path, shipped, None, self._kind(path))
            winner = first.setdefault(e.identity, e.path)
            out.append(e if winner == e.path else _hidden(e, winner))
        return out

    @cached_property
    def _hand_ids(self) -> dict[tuple[str, str], tuple[Path, str]]:
        """(faction, name) -> (file, kind) of the hand-read files that win."""
        return {e.identity: (e.path, e.kind) for e in self._hand if e.hidden_by is None}

    @cached_property
    def _all(self) -> list[Entry]:
        """Every entry in search order (the generated set last)."""
        return self._hand + self._generated(self._index()[0])

    def _candidates(self, key: str) -> list[Entry]:
        """The visible entries whose name or file stem is ``key``: by name first, then by
        stem, each in search order (only the index units of that name are looked at)."""
        visible = [e for e in self._hand if e.hidden_by is None]
        visible += [e for e in self._generated(self._index()[1].get(key, [])) if not e.hidden_by]
        hits = [e for e in visible if norm_name(e.name) == key]
        return hits + [e for e in visible if norm_name(e.path.stem) == key and e not in hits]

    def duplicate_notes(self, datasheets) -> tuple[str, ...]:
        """Notes for datasheets (of this catalog) that several of the user's files define with
        the same faction and name: which file is used (the first in search order) and which
        are not, e.g. "Testers/X is defined by 2 files; using sub/x.yaml (first in search
        order), not x.yaml". A user's file replacing a shipped one is by design: no note."""
        out: list[str] = []
        for ds in datasheets:
            path = getattr(ds, "path", None)
            if path is None:
                continue
            path = Path(path)
            winner = next((e for e in self._hand if e.path == path), None)
            if winner is None or winner.kind != "user":
                continue
            others = [e.path for e in self._hand if e.hidden_by == path and e.kind == "user"]
            if not others:
                continue
            shown = _shown_paths([path, *others], self.folders())
            note = (
                f"{winner.qualified} is defined by {len(others) + 1} files; using {shown[0]} "
                f"(first in search order), not {', '.join(shown[1:])}"
            )
            if note not in out:
                out.append(note)
        return tuple(out)

    def _kind(self, path: Path) -> str:
        if self.shipped is not None and path.is_relative_to(self.shipped):
            return "curated"
        return "user"

    def entries(
        self, files: list[tuple[Path, bool]] | None = None, hidden: bool = False
    ) -> list[Entry]:
        """Every datasheet found with its name and faction, in search order; with ``hidden``,
        also the files hidden by an earlier one of the same faction and name. ``files``
        restricts the listing to those files (read file by file)."""
        if files is not None:
            keep = {p for p, _ in files}
            return [e for e in self._all if e.path in keep and (hidden or e.hidden_by is None)]
        return [e for e in self._all if hidden or e.hidden_by is None]

    def _head(self, path: Path) -> tuple[str, str] | None:
        """(name, faction) from the top of a file, read once per Catalog; None: unreadable."""
        if path not in self._heads:
            try:
                with path.open(encoding="utf-8", errors="replace") as fh:
                    head = fh.read(4000)  # the top only: name and faction come first
            except OSError:
                self._heads[path] = None
            else:
                head = head.removeprefix("\ufeff")  # a byte-order mark
                name = _field(_NAME_LINE, head)
                if name is None:  # not a plain top-level line ('"name": X', flow style, ...)
                    self._heads[path] = _parsed_head(path)
                else:
                    self._heads[path] = (name, _field(_FACTION_LINE, head) or "")
        return self._heads[path]

    # ---- finding -------------------------------------------------------------------------

    def find(self, name: str, faction: str | None = None) -> Datasheet:
        """The datasheet called ``name`` (``Faction/Unit`` or a bare name; see the module
        docstring), preferring ``faction`` when given.

        Raises:
            UnknownUnitError: nothing matches (with suggestions and the folders searched).
            AmbiguousUnitError: several factions have the name and nothing says which.
            UnknownFactionError: ``faction`` (or the one in ``Faction/Unit``, or one in
                ``WH40K_CALC_FACTIONS``) is not a faction of any datasheet.
            DatasheetError: the matching file is invalid.
        """
        return _load_cached(self.entry(name, faction).path)

    def entry(self, name: str, faction: str | None = None) -> Entry:
        """The :class:`Entry` :meth:`find` would load (same rules and errors, nothing parsed)."""
        key = norm_name(name)
        if not key:
            raise UnknownUnitError(name, [])
        hits = self._candidates(key)
        if not hits and "/" in name:
            fpart, _, upart = name.rpartition("/")
            faction_name = self.faction_name(fpart, "in " + repr(name))
            if not norm_name(upart):  # "orks/": said so, not "unknown unit ''"
                raise UnknownUnitError(
                    name,
                    [],
                    hint=f"the unit's name is missing after {fpart + '/'!r} (FACTION/UNIT)",
                    listing=f"`calc units --faction {_quoted(faction_name)}` lists its units",
                )
            return self.entry(upart, faction_name)
        if not hits:
            raise self._unknown(name, self.entries())
        if faction is not None:
            return self._in_faction(name, hits, self.faction_name(faction, "--faction"))
        return self._choose(name, hits)

    def _in_faction(self, name: str, hits: list[Entry], faction: str) -> Entry:
        mine = [e for e in hits if norm_name(e.faction) == norm_name(faction)]
        if not mine:
            where = ", ".join(sorted({e.faction or "(no faction)" for e in hits}))
            raise UnknownUnitError(
                name, [], hint=f"not a datasheet of {faction}; it is one of: {where}"
            )
        return self._choose(name, mine)

    def _choose(self, name: str, hits: list[Entry]) -> Entry:
        factions = list(dict.fromkeys(norm_name(e.faction) for e in hits))
        if len(factions) == 1:
            return _best(hits)
        for pref in self.preferences:
            try:
                fkey = norm_name(self.faction_name(pref, FACTIONS_VAR))
            except UnknownFactionError:
                continue  # no such faction: warned about (preference_warnings), ignored
            mine = [e for e in hits if norm_name(e.faction) == fkey]
            if mine:
                return _best(mine)
        for kind in ("user", "curated"):  # hand-written files win over generated ones
            mine = [e for e in hits if e.kind == kind]
            if mine:
                if len({norm_name(e.faction) for e in mine}) == 1:
                    return _best(mine)
                hits = mine
                break
        raise AmbiguousUnitError(name, sorted(dict.fromkeys(e.qualified for e in hits)))

    def preference_warnings(self) -> list[str]:
        """One warning for each faction in ``WH40K_CALC_FACTIONS`` that no datasheet has
        (with the closest names): it is ignored, whether or not a name needs it."""
        known = self.factions()
        keys = {norm_name(f) for f in known}
        out = []
        for pref in self.preferences:
            if norm_name(pref) not in keys:
                hint = suggest_names(pref, known)
                did = f"; did you mean {', '.join(repr(h) for h in hint)}?" if hint else ""
                out.append(f"{FACTIONS_VAR}: unknown faction {pref!r}, ignored{did}")
        return out

    def factions(self) -> list[str]:
        """The faction names of the datasheets found, sorted."""
        names = {e.faction for e in self._hand} | {u["faction"] for u in self._index()[0]}
        return sorted(n for n in names if n)

    def faction_name(self, text: str, where: str) -> str:
        """The faction ``text`` names (case and punctuation ignored).

        Raises:
            UnknownFactionError: no datasheet has that faction (with the closest names).
        """
        known = self.factions()
        for f in known:
            if norm_name(f) == norm_name(text):
                return f
        hint = suggest_names(text, known)
        did = f"; did you mean {', '.join(repr(h) for h in hint)}?" if hint else ""
        raise UnknownFactionError(
            f"unknown faction {text!r} ({where}){did} (factions: {', '.join(known)})"
        )

    def _unknown(self, name: str, visible: list[Entry]) -> UnknownUnitError:
        from .nicknames import nickname

        searched = ", ".join(_describe(d, kind) for d, kind in self.folders())
        hints = []
        suggestions = self.suggest(name, visible)
        known = nickname(name)  # "fire warriors": offered first, saying so, never taken
        if known is not None:
            suggestions = [known.qualified, *(s for s in suggestions if s != known.qualified)]
            hints.append(f"{known.nickname!r} is what players call {known.qualified}")
        if os.environ.get("WH40K_CALC_CSV"):
            hints.append("a newer export may have it: `calc import NAME` reads $WH40K_CALC_CSV")
        return UnknownUnitError(name, suggestions, searched, "; ".join(hints))

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


def _quoted(text: str) -> str:
    """``text`` as a shell word: quoted when it holds a space (``"Space Marines"``)."""
    return f'"{text}"' if any(c.isspace() for c in text) else text


def _walk(folder: Path) -> list[tuple[Path, int]]:
    """(path, mtime) of the YAML files under ``folder``, following folder links but visiting
    each real folder once (a link loop such as ``a -> .`` is read once, not forever), and
    giving up on a folder with more than ``MAX_SCAN_ENTRIES`` entries under it.

    Raises:
        DatasheetError: too many entries (``--datasheets /`` and the like).
    """
    found: list[tuple[Path, int]] = []
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
                    elif entry.name.endswith((".yaml", ".yml")) and entry.is_file():
                        found.append((Path(entry.path), entry.stat().st_mtime_ns))
        except OSError:
            continue
    return found


def _hidden(e: Entry, by: Path) -> Entry:
    return Entry(e.name, e.faction, e.path, e.shipped, by, e.kind)


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
        return "the generated datasheets"
    return str(folder)


@lru_cache(maxsize=4)
def _read_index(
    path: Path,
) -> tuple[tuple[dict[str, str], ...], dict[str, list[dict[str, str]]]]:
    """The units of a generated name index (``index.json``: name, faction, file and ``key``,
    the normalised name), and the units by key.

    Raises:
        DatasheetError: the index is not readable or not an index.
    """
    try:
        # msgspec: loaded for the datasheets anyway, and twice as fast as json here
        units = tuple(msgspec.json.decode(path.read_text(encoding="utf-8"))["units"])
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
    return load_datasheet(path)

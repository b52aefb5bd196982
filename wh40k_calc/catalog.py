"""Finding datasheets by name across the shipped ``datasheets/`` folder and the user's folders.

Search order: folders given with ``--datasheets`` (in order), then ``WH40K_CALC_DATASHEETS``
(``:``-separated), then the shipped folder; a user's file wins over a shipped one of the same
name. Names match case-insensitively ignoring punctuation, by file stem or by the ``name:``
field. Only the file that matches is parsed; a miss reads the ``name:`` line of each file to
suggest the closest names.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .datasheet import Datasheet, DatasheetError, load_datasheet, norm_name

ENV_VAR = "WH40K_CALC_DATASHEETS"
_HERE = Path(__file__).resolve().parent
# installed: the package's own copy (wh40k_calc/datasheets); a checkout: the repository's
SHIPPED = next(
    (p for p in (_HERE / "datasheets", _HERE.parent / "datasheets") if p.is_dir()),
    _HERE.parent / "datasheets",
)
_NAME_LINE = re.compile(r"^name:.*$", re.MULTILINE)
_FACTION_LINE = re.compile(r"^faction:.*$", re.MULTILINE)


def _field(line_re: re.Pattern[str], head: str) -> str | None:
    """The text value of a top-level ``key: value`` line, read as YAML (quotes, comments);
    None when the line is missing or its value is not text."""
    from .yamlio import YamlError, load

    m = line_re.search(head)
    if not m:
        return None
    try:
        value = load(m.group(0))
    except YamlError:
        return None
    if isinstance(value, dict) and len(value) == 1:
        v = next(iter(value.values()))
        return v if isinstance(v, str) and v.strip() else None
    return None


class UnknownUnitError(LookupError):
    """No datasheet matches a name; ``suggestions`` holds the closest names."""

    def __init__(self, name: str, suggestions: list[str]):
        self.name = name
        self.suggestions = suggestions
        hint = f"; did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        super().__init__(f"unknown unit {name!r}{hint} (`calc units` lists them)")


@dataclass(frozen=True)
class Entry:
    """One datasheet file found: display name (from its ``name:`` line), faction, path."""

    name: str
    faction: str
    path: Path
    shipped: bool
    hidden_by: Path | None = None


class Catalog:
    """The datasheet folders in search order; looks units up lazily."""

    def __init__(
        self,
        user_dirs: list[Path] | tuple[Path, ...] = (),
        use_env: bool = True,
        shipped: Path | None = SHIPPED,
    ):
        dirs: list[Path] = [Path(d) for d in user_dirs]
        if use_env:
            dirs += [Path(p) for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p]
        from_env = {str(p) for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p}
        for d in dirs:
            where = f" ({ENV_VAR})" if use_env and str(d) in from_env else ""
            if not d.exists():
                raise DatasheetError(f"{d}: datasheet folder does not exist{where}")
            if not d.is_dir():
                raise DatasheetError(f"{d}: is a file, not a folder of datasheets")
        self.user_dirs = tuple(dirs)
        self._listing: list[tuple[Path, bool]] | None = None
        self._heads: dict[Path, tuple[str, str] | None] = {}
        self.shipped = shipped

    def _files(self) -> list[tuple[Path, bool]]:
        """Every datasheet file, user folders first (listed once per Catalog: one command)."""
        if self._listing is not None:
            return self._listing
        out: list[tuple[Path, bool]] = []
        for d in self.user_dirs:
            out += [(p, False) for p in sorted(d.rglob("*.y*ml"))]
        if self.shipped is not None and self.shipped.is_dir():
            out += [(p, True) for p in sorted(self.shipped.rglob("*.y*ml"))]
        # regular files only: a named pipe or a dangling link would block or fail every lookup
        self._listing = [(p, s) for p, s in out if p.suffix in (".yaml", ".yml") and p.is_file()]
        return self._listing

    def find(self, name: str) -> Datasheet:
        """The datasheet called ``name``: the user's folders first (by file stem, then by the
        ``name:`` line), then the shipped folder, so a user's unit wins either way.

        Raises:
            UnknownUnitError: nothing matches (with suggestions).
            DatasheetError: the matching file is invalid.
        """
        key = norm_name(name)
        if not key:
            raise UnknownUnitError(name, [])
        files = self._files()
        user = [f for f in files if not f[1]]
        shipped = [f for f in files if f[1]]
        for group in (user, shipped):
            for path, _ in group:  # by file stem first: no parsing at all
                if norm_name(path.stem) == key:
                    return _load_cached(path)
            for e in self.entries(group):
                if norm_name(e.name) == key:
                    return _load_cached(e.path)
        raise UnknownUnitError(name, self.suggest(name, self.entries(files)))

    def entries(
        self, files: list[tuple[Path, bool]] | None = None, hidden: bool = False
    ) -> list[Entry]:
        """Every datasheet file with its name and faction; on a name clash the first one wins
        and, with ``hidden``, the others are listed too with ``hidden_by`` set. Reads only the
        top of each file."""
        seen: dict[str, Path] = {}
        out = []
        for path, shipped in files if files is not None else self._files():
            head = self._head(path)
            if head is None:
                continue
            name, faction = head
            first = seen.get(norm_name(name)) or seen.get(norm_name(path.stem))
            if first is not None and not hidden:
                continue
            seen.setdefault(norm_name(name), path)
            seen.setdefault(norm_name(path.stem), path)
            out.append(Entry(name, faction, path, shipped, first))
        return out

    def _head(self, path: Path) -> tuple[str, str] | None:
        """(name, faction) from the top of a file, read once per Catalog; None: unreadable."""
        if path not in self._heads:
            try:
                with path.open(encoding="utf-8", errors="replace") as fh:
                    head = fh.read(4000)  # the top only: name and faction come first
            except OSError:
                self._heads[path] = None
            else:
                name = _field(_NAME_LINE, head) or path.stem
                self._heads[path] = (name, _field(_FACTION_LINE, head) or "")
        return self._heads[path]

    @staticmethod
    def suggest(name: str, entries: list[Entry]) -> list[str]:
        """Closest datasheet names to ``name`` (difflib ratio), best first."""
        by_key: dict[str, str] = {}
        for e in entries:
            by_key.setdefault(norm_name(e.name), e.name)
            by_key.setdefault(norm_name(e.path.stem), e.name)
        key = norm_name(name)
        hits = difflib.get_close_matches(key, list(by_key), n=6, cutoff=0.5)
        hits += [k for k in by_key if key and key in k and k not in hits]
        out: list[str] = []
        for h in hits:
            if by_key[h] not in out:
                out.append(by_key[h])
        return out[:4]


@lru_cache(maxsize=64)
def _load_cached(path: Path) -> Datasheet:
    return load_datasheet(path)


def did_you_mean(name: str, candidates: list[str]) -> str:
    """``"; did you mean 'A', 'B'?"`` for the closest of ``candidates`` to ``name``, or ``""``."""
    hint = suggest_names(name, candidates)
    return f"; did you mean {', '.join(repr(h) for h in hint)}?" if hint else ""


def suggest_names(name: str, candidates: list[str]) -> list[str]:
    """Closest of ``candidates`` to ``name`` (normalised difflib match), best first."""
    by_key = {norm_name(c): c for c in candidates}
    key = norm_name(name)
    hits = difflib.get_close_matches(key, list(by_key), n=4, cutoff=0.4)
    hits += [k for k in by_key if key and (key in k or k in key) and k not in hits]
    return [by_key[h] for h in hits][:4]

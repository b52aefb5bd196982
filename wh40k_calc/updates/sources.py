"""Where the newer faction files come from, which ones are taken, and their checks.

A source is an address (``http://`` or ``https://``, a folder of faction files as the data
project publishes them: :data:`DEFAULT_URL` unless ``--from`` says otherwise) or a local folder
of faction files a user downloaded. Which files: from an address, those its ``index.json``
lists (the data project's own list of its faction files, ``{"schemaVersion": 1, "source":
"40k-11e", "factions": [{"id": ..., "file": "orks.json"}, ...]}``, which newer releases of the
data publish), or where the address has none (a 404), the faction files the data in use was
made from (the ``files`` of the shipped and the updated set's ``index.json``: the data
project's 29 file names, ``orks.json``, ``space_marines.json``, ...). From a folder, every JSON
file in it that holds datasheets. ``--faction`` keeps the files of the factions named (our
name, the data's, or the file's stem: ``orks``, ``"Adeptus Astartes"``, ``space_marines``).

Each file is copied or downloaded into the update's temporary folder, capped at
:data:`~wh40k_calc.importers.gdc.MAX_FILE_BYTES` a file and :data:`MAX_TOTAL_BYTES` in all,
then checked as the importer reads it (:func:`~wh40k_calc.importers.gdc.read_faction_file`:
JSON, a faction file, of the game ``40k-11e``, with a data version); two files of one faction
are refused, and so is a file whose data version differs from the one the list names.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..importers.export import ImportFailure
from ..importers.gdc import GAME, MAX_FILE_BYTES, faction_files, read_faction_file
from ..sheetnames import norm_name
from . import UpdateError

# the data project's folder of edition-11 faction files (game-datacards/datasources, 11th/gdc),
# as raw files of its main branch: the newest data
DEFAULT_URL = "https://raw.githubusercontent.com/game-datacards/datasources/main/11th/gdc/"
MANIFEST = "index.json"  # the data project's list of its faction files
MAX_TOTAL_BYTES = 200_000_000  # all the files of one update (29 files are about 11 MB)
MAX_LISTED = 200  # faction files a list may name
_PLAIN_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*\.json$")

# (file name, files done, files in all, bytes of this file so far, bytes announced or None)
Progress = Callable[[str, int, int, int, "int | None"], None]


@dataclass(frozen=True)
class Source:
    """Where faction files come from: an address ending in ``/`` (``url``) or a folder."""

    url: str | None = None
    folder: Path | None = None

    @property
    def label(self) -> str:
        """The source as messages name it."""
        return self.url if self.url is not None else str(self.folder)

    def address(self, name: str) -> str:
        """Where the file ``name`` of this source is."""
        return f"{self.url}{name}" if self.url is not None else str(Path(str(self.folder)) / name)


def parse_source(text: str | None) -> Source:
    """The source ``--from`` names: an http(s) address, else a folder (None: the data
    project's own address, :data:`DEFAULT_URL`).

    Raises:
        UpdateError: an address of another kind (``ftp://``, ``file://``), or empty.
    """
    if text is None:
        return Source(url=DEFAULT_URL)
    if not text.strip():
        raise UpdateError("--from: empty; give an http(s) address or a folder")
    scheme, sep, _ = text.partition("://")
    if sep and scheme.lower() in ("http", "https"):
        return Source(url=text if text.endswith("/") else text + "/")
    if sep and scheme.isalpha():
        raise UpdateError(
            f"--from {text}: only http and https addresses, or a folder of faction files"
        )
    return Source(folder=Path(text).expanduser())


@dataclass(frozen=True)
class Known:
    """A faction file the data in use was made from: its name and the faction it gives (ours
    and the data's name)."""

    file: str
    faction: str
    data_faction: str


def known_files(index_files: list[Path]) -> dict[str, Known]:
    """The faction files the given edition-11 indexes (``index.json``) list, by file name
    (the first index that lists a file wins). An index that cannot be read is skipped."""
    out: dict[str, Known] = {}
    for path in index_files:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for f in raw.get("files", []) if isinstance(raw, dict) else []:
            if isinstance(f, dict) and isinstance(f.get("file"), str):
                faction = str(f.get("faction") or "")
                known = Known(f["file"], faction, str(f.get("data_faction") or faction))
                out.setdefault(f["file"], known)
    return out


def _listed(raw: object, where: str) -> tuple[list[str], object]:
    """The faction file names and data version (None: not given) of the data project's list.

    Raises:
        UpdateError: not a list of edition-11 faction files, or a name that is not a plain
            file name (a folder, ``..``).
    """
    if not isinstance(raw, dict) or not isinstance(raw.get("factions"), list):
        raise UpdateError(f"{where}: not a list of faction files (no 'factions' list)")
    if raw.get("source") not in (None, GAME):
        raise UpdateError(
            f"{where}: a list of {raw.get('source')!r} files, not of the 11th edition ({GAME!r})"
        )
    names = []
    for entry in raw["factions"]:
        name = entry.get("file") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not _PLAIN_FILE.match(name):
            raise UpdateError(f"{where}: {name!r} is not the name of a faction file")
        if name not in names:
            names.append(name)
    if not names or len(names) > MAX_LISTED:
        raise UpdateError(f"{where}: lists {len(names)} faction files (1 to {MAX_LISTED})")
    return names, raw.get("compatibleDataVersion")


def list_files(source: Source, known: dict[str, Known], scratch: Path) -> tuple[list[str], object]:
    """The faction files ``source`` offers, and the data version its list names (None).

    An address: the files its ``index.json`` lists (downloaded to the file ``scratch``, then
    removed), or where it has none, the ``known`` ones. A folder: its JSON files that hold
    datasheets.

    Raises:
        UpdateError: the list cannot be had (no network, an HTTP error other than 404, not a
            list); the folder is missing or holds no faction file.
    """
    if source.folder is not None:
        try:
            return [p.name for p in faction_files(source.folder)], None
        except ImportFailure as exc:
            raise UpdateError(str(exc)) from None
    from .fetch import fetch

    where = source.address(MANIFEST)
    listing = scratch
    if not fetch(where, listing, cap=MAX_FILE_BYTES, missing_ok=True):
        if not known:
            raise UpdateError(f"{where}: not found, and no list of faction files is known")
        return sorted(known), None
    try:
        raw = json.loads(listing.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise UpdateError(f"{where}: not a JSON file ({exc})") from None
    finally:
        listing.unlink(missing_ok=True)
    return _listed(raw, where)


def select(
    names: list[str], wanted: list[str], known: dict[str, Known], source: Source
) -> list[str]:
    """The files of ``names`` that give the factions ``wanted`` names (all when it is empty),
    in the order named.

    Raises:
        UpdateError: a faction that no file of the source gives (with the closest names).
    """
    if not wanted:
        return list(names)
    keys: dict[str, set[str]] = {}
    for name in names:
        k = known.get(name)
        words = {Path(name).stem, name} | ({k.faction, k.data_faction} if k else set())
        keys[name] = {norm_name(w) for w in words if w}
    out: list[str] = []
    for w in wanted:
        hits = [n for n in names if norm_name(w) in keys[n]]
        if not hits:
            from ..fuzzy import did_you_mean

            choices = sorted({k.faction for n in names if (k := known.get(n))} | set(names))
            raise UpdateError(
                f"--faction {w!r}: no faction file of {source.label} gives that faction"
                + did_you_mean(w, choices)
            )
        out += [n for n in hits if n not in out]
    return out


def gather(source: Source, names: list[str], dest: Path, progress: Progress | None = None) -> None:
    """Download or copy the files ``names`` of ``source`` into the folder ``dest``.

    Raises:
        UpdateError: a file cannot be had (see :func:`~.fetch.fetch`), is over the cap, or the
            files come to more than :data:`MAX_TOTAL_BYTES` in all.
        OSError: writing into ``dest`` failed (a full disk).
    """
    total = 0
    for done, name in enumerate(names):
        path = dest / name
        if progress is not None:
            progress(name, done, len(names), 0, None)
        if source.url is not None:
            from .fetch import fetch

            def on_bytes(got: int, expected: int | None, name: str = name, done: int = done):
                if progress is not None:
                    progress(name, done, len(names), got, expected)

            fetch(source.address(name), path, cap=MAX_FILE_BYTES, on_bytes=on_bytes)
        else:
            _copy(Path(source.address(name)), path)
        total += path.stat().st_size
        if total > MAX_TOTAL_BYTES:
            raise UpdateError(
                f"the faction files of {source.label} come to more than {MAX_TOTAL_BYTES:,} "
                f"bytes in all (at {name}); stopped"
            )
    if progress is not None and names:
        progress(names[-1], len(names), len(names), 0, None)


def _copy(src: Path, dest: Path) -> None:
    """Copy one faction file of a folder, refusing one over the cap.

    Raises:
        UpdateError: unreadable or over the cap.
        OSError: writing ``dest`` failed.
    """
    try:
        size = src.stat().st_size
    except OSError as exc:
        raise UpdateError(f"cannot read {src}: {exc.strerror or exc}") from None
    if size > MAX_FILE_BYTES:
        raise UpdateError(
            f"{src}: {size:,} bytes, larger than a faction file can be ({MAX_FILE_BYTES:,})"
        )
    try:
        fh = src.open("rb")
    except OSError as exc:
        raise UpdateError(f"cannot read {src}: {exc.strerror or exc}") from None
    with fh, dest.open("wb") as out:
        shutil.copyfileobj(fh, out)


@dataclass(frozen=True)
class Checked:
    """A faction file checked: its name, the faction it gives (ours), the data version."""

    file: str
    faction: str
    version: int | str


def check(staged: Path, names: list[str], source: Source, version: object = None) -> list[Checked]:
    """Read each staged file as the importer does and check the set.

    Raises:
        UpdateError: a file is not JSON, not a faction file, of another game or edition, has
            no data version, or a version other than ``version`` (the list's); two files give
            one faction. The message names the file by its address in ``source``.
    """
    out: list[Checked] = []
    seen: dict[str, str] = {}
    for name in names:
        path = staged / name
        try:
            f = read_faction_file(path)
        except ImportFailure as exc:
            raise UpdateError(str(exc).replace(str(path), source.address(name))) from None
        if version is not None and str(f.version) != str(version):
            raise UpdateError(
                f"{source.address(name)}: data {f.version}, but the list of faction files "
                f"says {version} (the data project may be half-way through an update; try "
                "again later)"
            )
        key = norm_name(f.faction)
        if key in seen:
            raise UpdateError(
                f"{source.label}: {seen[key]} and {name} are both faction files of {f.faction}"
            )
        seen[key] = name
        out.append(Checked(name, f.faction, f.version))
    return out

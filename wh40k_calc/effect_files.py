"""Where the effect records live and how they are read: one YAML file per faction and edition
under ``effects/`` (shipped in the package as ``wh40k_calc.effects_data``), read lazily, one
faction at a time, and kept in a compiled cache.

Layout: ``effects/edition-10/<faction>.yaml`` and ``effects/edition-11/<faction>.yaml``
(written by hand), and the datasheet abilities the importers read as records, generated with
the datasheets into each datasheet set's ``unit-rules/<faction>.yaml``
(``datasheets-generated/unit-rules/``, ``datasheets-generated-11/unit-rules/``, and the user
data folder's ``datasheets-11/unit-rules/`` after ``calc data update``, which gives the
factions it has: :func:`unit_rule_folders`). Each file says its own ``faction:`` (our
10th-edition faction names in ``edition-10``, the data's names such as ``Adeptus Astartes``
in ``edition-11``) and ``Core`` for the core stratagems and
the datasheet unit abilities. A folder is listed once per process and only the top of each file
is read to learn its faction (:func:`files_of`); a file is parsed only when a command needs that
faction (:func:`load`).

Factions: :data:`FACTIONS` maps our faction names, the data's names and the faction keywords to
one key each (:func:`faction_key`), so that ``Adeptus Astartes`` and ``Space Marines`` are one
faction, and a unit's factions are its datasheet's faction and those of its faction keywords
(:func:`unit_factions`: an ORKS unit of a test faction is an Orks unit; a Blood Angels unit is
both Space Marines and Blood Angels).

Cache: parsing YAML costs tens of milliseconds for a large file; a command pays it once. The
checked file is stored as MessagePack in the user cache folder (``WH40K_CALC_CACHE``, else the
platform's per-user cache folder), keyed by the file's path, size and modification time and by
the schema module's, and read back in well under a millisecond. A cache that cannot be written
or read is skipped (the file is parsed).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

from msgspec import Struct

try:  # CPython's own SHA-1: the digest hashlib gives, without hashlib's OpenSSL set-up
    # (3-8 ms of every start-up, for one digest of a short key); a private module: no stub
    from _sha1 import sha1  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import sha1

from . import filecache
from .effect_schema import EffectFile, EffectFileError, load_effect_file
from .kept import Kept

_HERE = Path(__file__).resolve().parent
CACHE_VAR = filecache.CACHE_VAR  # names the cache folder
CORE = "core"
EDITIONS = ("10", "11")


def _data_dir(installed: str, checkout: str) -> Path:
    """The shipped data folder: the package's copy when installed, the repository's in a
    checkout."""
    return next(
        (p for p in (_HERE / installed, _HERE.parent / checkout) if p.is_dir()),
        _HERE.parent / checkout,
    )


ROOT = _data_dir("effects_data", "effects")


class Faction(Struct, frozen=True):
    """One faction as effect files know it: ``name`` (ours, as our datasheets name it),
    ``aliases`` (the data's names and other spellings), ``keywords`` (faction keywords that
    make a unit one of this faction) and ``within`` (the key of the faction it is a part of:
    a Space Marine chapter is within Space Marines; its own rules rank before the larger
    faction's when a bare name is looked up)."""

    name: str
    aliases: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    within: str | None = None

    @property
    def key(self) -> str:
        """The faction's key (its name normalised)."""
        return norm(self.name)


@lru_cache(maxsize=4096)  # the same few hundred names, again and again in a batch
def norm(text: str) -> str:
    """A name for matching: lower case, letters and digits only (accents dropped)."""
    import unicodedata

    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "", text.lower())


# Ours (the catalog's faction names) first, then other spellings; the data's names and the
# factions within others (chapters) come from wh40k_calc.factions, the catalog's, as well.
# Faction keywords make a unit one of the faction; World Eaters, Death Guard, Thousand Sons
# and Emperor's Children count within Chaos Space Marines (their units have its keyword).
FACTIONS: tuple[Faction, ...] = (
    Faction("Adepta Sororitas", (), ("ADEPTA SORORITAS",)),
    Faction("Adeptus Custodes", (), ("ADEPTUS CUSTODES",)),
    Faction("Adeptus Mechanicus", (), ("ADEPTUS MECHANICUS",)),
    Faction("Adeptus Titanicus", ("Titan",), ("ADEPTUS TITANICUS",)),
    Faction(
        "Aeldari", ("Asuryani", "Craftworlds"), ("ASURYANI", "AELDARI", "HARLEQUINS", "YNNARI")
    ),
    Faction("Astra Militarum", (), ("ASTRA MILITARUM",)),
    Faction("Black Templars", (), ("BLACK TEMPLARS",), "spacemarines"),
    Faction("Blood Angels", (), ("BLOOD ANGELS",), "spacemarines"),
    Faction("Chaos Daemons", ("Legiones Daemonica", "Daemons"), ("LEGIONES DAEMONICA",)),
    Faction("Chaos Knights", (), ("CHAOS KNIGHTS",)),
    Faction("Chaos Space Marines", ("Heretic Astartes",), ("HERETIC ASTARTES",)),
    Faction("Dark Angels", (), ("DARK ANGELS",), "spacemarines"),
    Faction("Death Guard", (), ("DEATH GUARD",), "chaosspacemarines"),
    Faction("Deathwatch", (), ("DEATHWATCH",), "spacemarines"),
    Faction("Drukhari", (), ("DRUKHARI",)),
    Faction("Emperor’s Children", (), ("EMPEROR’S CHILDREN",), "chaosspacemarines"),
    Faction("Genestealer Cults", ("GSC",), ("GENESTEALER CULTS",)),
    Faction("Grey Knights", (), ("GREY KNIGHTS",)),
    Faction("Imperial Agents", ("Agents of the Imperium",), ("AGENTS OF THE IMPERIUM",)),
    Faction("Imperial Knights", (), ("IMPERIAL KNIGHTS",)),
    Faction("Leagues of Votann", ("Votann",), ("LEAGUES OF VOTANN",)),
    Faction("Necrons", (), ("NECRONS",)),
    Faction("Orks", (), ("ORKS",)),
    Faction("Space Marines", ("Adeptus Astartes", "Astartes"), ("ADEPTUS ASTARTES",)),
    Faction("Space Wolves", (), ("SPACE WOLVES",), "spacemarines"),
    Faction("T’au Empire", ("Tau",), ("T’AU EMPIRE",)),
    Faction("Thousand Sons", (), ("THOUSAND SONS",), "chaosspacemarines"),
    Faction("Tyranids", (), ("TYRANIDS",)),
    Faction("Unaligned Forces", ("Unaligned",), ()),
    Faction("World Eaters", (), ("WORLD EATERS",), "chaosspacemarines"),
)


def _with_data_names(table: tuple[Faction, ...]) -> tuple[Faction, ...]:
    """The table with the data's names and the factions within others that
    :mod:`wh40k_calc.factions` (the catalog's) knows added."""
    from .factions import DATA_NAMES, PARENTS
    from .records import replace

    out = []
    for f in table:
        more = tuple(d for d, ours in DATA_NAMES.items() if ours == f.name)
        within = norm(PARENTS[f.name]) if f.name in PARENTS else f.within
        out.append(replace(f, aliases=tuple(dict.fromkeys((*f.aliases, *more))), within=within))
    return tuple(out)


FACTIONS = _with_data_names(FACTIONS)
_BY_NAME = {norm(n): f for f in FACTIONS for n in (f.name, *f.aliases)}
_BY_KEYWORD = {norm(k): f for f in FACTIONS for k in f.keywords}
_BY_KEY: dict[str, Faction] = {}  # the first row of each key
for _f in FACTIONS:
    _BY_KEY.setdefault(_f.key, _f)


def _chapters() -> dict[str, tuple[str, ...]]:
    """The key of Space Marines -> its chapters' keys (:data:`wh40k_calc.factions.PARENTS`)."""
    from .factions import PARENTS

    out: dict[str, list[str]] = {}
    for f in FACTIONS:
        if f.name in PARENTS and f.within is not None:
            out.setdefault(f.within, []).append(f.key)
    return {k: tuple(v) for k, v in out.items()}


_CHAPTERS = _chapters()


def faction_key(name: str) -> str | None:
    """The key of the faction ``name`` names (ours, the data's, or ``Core``), or None: an
    unknown faction keeps its own normalised name as key only when a file says it
    (:func:`files_of`)."""
    key = norm(name)
    if key == CORE:
        return CORE
    f = _BY_NAME.get(key)
    return f.key if f is not None else None


def faction_of_key(key: str) -> Faction | None:
    """The :class:`Faction` of a key, or None (Core, or a faction no table row names)."""
    return _BY_KEY.get(key)


def display_name(key: str) -> str:
    """How the output names a faction key: our faction name, ``Core``, or the key."""
    if key == CORE:
        return "Core"
    f = faction_of_key(key)
    return f.name if f is not None else key


def unit_factions(faction: str, keywords: frozenset[str] | set[str]) -> tuple[str, ...]:
    """The faction keys of a unit whose datasheet's faction is ``faction`` (its ``faction:``
    field) and whose keywords are ``keywords``, most specific first (:func:`faction_tiers`)."""
    tiers = faction_tiers(faction, keywords)
    return tuple(sorted(tiers, key=lambda k: tiers[k]))


def faction_tiers(faction: str, keywords: frozenset[str] | set[str]) -> dict[str, int]:
    """Each faction key of a unit and its rank, in order found: 0 for a faction ``within``
    another that the unit also belongs to (a chapter within Space Marines, World Eaters within
    Chaos Space Marines), 1 for the datasheet's own faction (one no table row names is keyed by
    its own normalised name, as :func:`files_of` keys its files), 2 for the other factions of
    its keywords, 3 for the chapters of a Space Marines datasheet of no chapter (the Codex:
    Space Marines datasheets are fielded in a Blood Angels, Dark Angels, Space Wolves, Black
    Templars or Deathwatch army too, where that army's rules apply to them). A bare effect name
    is looked up in the lowest rank that has it.

    Found once per (faction, keywords) given as a frozenset (a batch asks for the same units
    again and again); each call gets its own dict."""
    if isinstance(keywords, frozenset):
        key = (faction, keywords)
        kept = _TIERS.get(key)
        if kept is None:
            kept = _TIERS.put(key, _faction_tiers(faction, keywords))
        return dict(kept)
    return _faction_tiers(faction, keywords)


TIERS_KEPT = 1024
_TIERS: Kept[tuple[str, frozenset[str]], dict[str, int]] = Kept(TIERS_KEPT)  # faction_tiers


def _faction_tiers(faction: str, keywords: frozenset[str] | set[str]) -> dict[str, int]:
    own = (faction_key(faction) or norm(faction)) if faction else None
    found: list[str] = [own] if own else []
    for kw in sorted(keywords):
        f = _BY_KEYWORD.get(norm(kw))
        if f is not None and f.key not in found:
            found.append(f.key)

    def rank(k: str) -> int:
        f = faction_of_key(k)
        if f is not None and f.within is not None and f.within in found:
            return 0
        return 1 if k == own else 2

    tiers = {k: rank(k) for k in found}
    if own is not None and 0 not in tiers.values():
        for k in _CHAPTERS.get(own, ()):
            tiers.setdefault(k, CHAPTER_RANK)
    return tiers


CHAPTER_RANK = 3  # a chapter of a Codex Space Marines datasheet (faction_tiers)


# ---------------------------------------------------------------------------------------------
# Files

_FACTION_LINE = re.compile(r"^faction:\s*(.+?)\s*(?:#.*)?$", re.MULTILINE)
_ROOTS: list[Path] = []  # tests may point the loader elsewhere (set_roots)
_UNIT_RULES: list[list[Path]] = []  # ... and the generated unit rules (set_roots)
UNIT_RULES = "unit-rules"  # the folder of a datasheet set that holds its unit rules


def roots() -> list[Path]:
    """The folders laid out like ``effects/`` that are read, first to last."""
    return _ROOTS or [ROOT]


def set_roots(folders: list[Path] | None, unit_rules: list[Path] | None = None) -> None:
    """Read effect files from ``folders`` instead of the shipped ones (None: the shipped),
    and generated unit rules from the ``unit_rules`` folders (default: none with ``folders``,
    the datasheet sets' without); forgets what was read before."""
    _ROOTS[:] = list(folders or [])
    _UNIT_RULES[:] = [list(unit_rules or [])] if folders or unit_rules is not None else []
    files_of.cache_clear()
    hand_files_of.cache_clear()
    _load_cached.cache_clear()


def unit_rule_folders(edition: str) -> list[Path]:
    """The ``unit-rules/`` folders of the datasheet sets ``edition`` reads, first to last:
    edition 10 the shipped generated set's; edition 11 the user data folder's updated set
    (``calc data update``; it gives the factions it has a file for) and the shipped one."""
    if _UNIT_RULES:
        return list(_UNIT_RULES[0])
    from .catalog import GENERATED, GENERATED_11, updated_datasheets_11

    if edition == "10":
        return [GENERATED / UNIT_RULES]
    return [updated_datasheets_11() / UNIT_RULES, GENERATED_11 / UNIT_RULES]


def _head_faction(path: Path) -> str:
    """The ``faction:`` of a file, from its top (the file's stem where it has none: loading it
    then says what is wrong)."""
    try:
        with path.open(encoding="utf-8", errors="replace") as fh:
            head = fh.read(3000)
    except OSError:
        return path.stem
    m = _FACTION_LINE.search(head)
    if not m:
        return path.stem
    return m.group(1).strip().strip("'\"")


@lru_cache(maxsize=4)
def files_of(edition: str) -> dict[str, tuple[Path, ...]]:
    """Faction key -> the effect files of ``edition`` ("10" or "11") for it: the hand-written
    ones in the order :func:`roots` gives them, then the generated unit rules of the set that
    gives the faction (:func:`unit_rule_folders`). A file whose faction no table row names is
    keyed by its own normalised faction name."""
    out = {k: list(v) for k, v in hand_files_of(edition).items()}
    taken: set[str] = set()
    for folder in unit_rule_folders(edition):
        mine = _listed(folder)
        for key, paths in mine.items():
            if key not in taken:
                out.setdefault(key, []).extend(paths)
        taken |= set(mine)
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=4)
def hand_files_of(edition: str) -> dict[str, tuple[Path, ...]]:
    """Faction key -> the hand-written effect files of ``edition`` for it (:func:`roots`
    only): what the importers look datasheet abilities up in (a generated record is not)."""
    out: dict[str, list[Path]] = {}
    for root in roots():
        for key, paths in _listed(root / f"edition-{edition}").items():
            out.setdefault(key, []).extend(paths)
    return {k: tuple(v) for k, v in out.items()}


def _listed(folder: Path) -> dict[str, list[Path]]:
    """Faction key -> the ``.yaml`` files of one folder (sorted by name)."""
    out: dict[str, list[Path]] = {}
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return out
    for name in names:
        if not name.endswith(".yaml"):
            continue
        path = folder / name
        faction = _head_faction(path)
        key = faction_key(faction) or norm(faction)
        out.setdefault(key, []).append(path)
    return out


def load(path: Path) -> EffectFile:
    """The checked contents of one effect file (:func:`~wh40k_calc.effect_schema.
    load_effect_file`), through the cache, once per process.

    Raises:
        EffectFileError: the file cannot be read or is malformed (naming the file and the field).
    """
    return _load_cached(path)


@lru_cache(maxsize=128)
def _load_cached(path: Path) -> EffectFile:
    try:
        st = path.stat()
    except OSError as e:
        raise EffectFileError(f"{path}: cannot read: {e}") from None
    cache = _cache_file(path, st)
    if cache is not None:
        got = _read_cache(cache)
        if got is not None:
            return got
    data = load_effect_file(path)
    if cache is not None:
        _write_cache(cache, data)
    return data


def _schema_stamp() -> str:
    """What invalidates every cached file: the schema module and this one, as installed."""
    return filecache.stamp("effect_schema.py", "effect_files.py")


def cache_folder() -> Path | None:
    """Where compiled effect files are kept (None: nowhere to keep them)."""
    return filecache.folder("effects")


def _cache_file(path: Path, st: os.stat_result) -> Path | None:
    folder = cache_folder()
    if folder is None:
        return None
    key = f"{path.resolve()}|{st.st_size}|{st.st_mtime_ns}|{_schema_stamp()}"
    return folder / (sha1(key.encode()).hexdigest() + ".msgpack")


def _read_cache(cache: Path) -> EffectFile | None:
    import msgspec

    try:
        raw = cache.read_bytes()
    except OSError:
        return None
    try:
        return msgspec.msgpack.decode(raw, type=EffectFile)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def _write_cache(cache: Path, data: EffectFile) -> None:
    import msgspec

    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(msgspec.msgpack.encode(data))
        os.replace(tmp, cache)
    except OSError:
        return

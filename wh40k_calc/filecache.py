"""Parsed files kept between runs: the user cache folder and the parsed YAML of datasheets.

Folder: ``WH40K_CALC_CACHE`` when set, else the platform's per-user cache folder
(``platformdirs``), one subfolder per kind (``effects`` for the compiled effect files of
:mod:`wh40k_calc.effect_files`, ``datasheets`` here, ``checked`` for the marks of the user's
datasheet files :func:`wh40k_calc.listing.invalid_user_files` found valid, keyed on the
files' content too).

Datasheets: a command reads the one or two YAML datasheets it names, and parsing them needs
PyYAML, whose import alone is about a tenth of ``calc``'s start-up. So the data a datasheet
file the catalog loads parses to (:func:`wh40k_calc.yamlio.read_document`, before any
validation; not a file an import or an update checks once) is stored as MessagePack, keyed by
the file's resolved path, size, modification time and content (a digest of its bytes: an
edit that keeps the size and restores the time, ``cp -p``, is parsed again) and by this
module's and the YAML reader's own (a new version of either makes every entry stale), and
read back without
importing YAML. Only data made of strings, numbers, booleans, nulls, lists and mappings
with string keys is stored (what MessagePack gives back unchanged), each list and mapping
once (data sharing one through a YAML alias is not: MessagePack writes a shared value out in
full each time); anything else (a date, a ``!!binary`` value, an integer key) is parsed every
time. Validation runs on the data either
way, so a cached file is refused with the same message as a parsed one. A cache that cannot be
written or read is skipped (the file is parsed).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

try:  # CPython's own SHA-1: the digest hashlib gives, without hashlib's OpenSSL set-up
    # (3-8 ms of every start-up, for one digest of a short key); a private module: no stub
    from _sha1 import sha1  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import sha1

CACHE_VAR = "WH40K_CALC_CACHE"
_HERE = Path(__file__).resolve().parent


def folder(kind: str) -> Path | None:
    """The cache folder of ``kind`` (e.g. ``"effects"``); None: nowhere to keep files."""
    env = os.environ.get(CACHE_VAR, "").strip()
    if env:
        return Path(env).expanduser() / kind
    try:
        from platformdirs import user_cache_dir
    except ImportError:  # pragma: no cover - a dependency
        return None
    return Path(user_cache_dir("wh40k-calc", appauthor=False)) / kind


def stamp(*modules: str) -> str:
    """Size and modification time of the package's ``modules`` (file names), as installed:
    what a cached file depends on besides its source."""
    parts = []
    for mod in modules:
        try:
            st = (_HERE / mod).stat()
            parts.append(f"{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            parts.append("?")
    return ";".join(parts)


def entry(
    kind: str, path: Path, st: os.stat_result, depends: str, content: bytes | None = None
) -> Path | None:
    """The cache file of source ``path`` (its ``os.stat`` result ``st``) in ``kind``'s folder,
    for code stamped ``depends`` (:func:`stamp`) and, when given, the file's bytes ``content``
    (their digest is part of the key: an edit that keeps the size and restores the
    modification time, ``cp -p`` or ``touch -r``, still changes the entry); None: no cache
    folder."""
    where = folder(kind)
    if where is None:
        return None
    key = f"{path.resolve()}|{st.st_size}|{st.st_mtime_ns}|{depends}"
    if content is not None:
        key += "|" + sha1(content).hexdigest()
    return where / (sha1(key.encode()).hexdigest() + ".msgpack")


def write(cache: Path, raw: bytes) -> None:
    """Store ``raw`` at ``cache`` (written aside, then moved in place; errors skipped)."""
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(raw)
        os.replace(tmp, cache)
    except OSError:
        return


def _plain(value: object, depth: int = 0, seen: set[int] | None = None) -> bool:
    """Whether ``value`` comes back from MessagePack as it went in (see the module
    docstring); a tree deeper than 100 levels is not kept, nor one holding a list or mapping
    twice (a YAML alias: MessagePack would write it out in full each time, 2^27 copies for
    a 600-byte file of nested aliases; each list and mapping is looked at once)."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return not isinstance(value, int) or -(2**63) <= value < 2**64
    if depth > 100 or type(value) not in (list, dict):
        return False
    seen = set() if seen is None else seen
    if id(value) in seen:
        return False
    seen.add(id(value))
    if type(value) is list:
        return all(_plain(v, depth + 1, seen) for v in value)
    assert isinstance(value, dict)
    return all(type(k) is str and _plain(v, depth + 1, seen) for k, v in value.items())


def datasheet_data(path: Path, keep: bool = True) -> Any:
    """The data the YAML datasheet file ``path`` parses to (safe types only), from the cache
    when the file is unchanged, else parsed (and kept when plain); without ``keep`` the file
    is only parsed (a file read once, e.g. checked by an import, is not worth an entry).

    Raises:
        YamlError: as :func:`wh40k_calc.yamlio.read_document` says (never from the cache: only
            a file that parsed is kept).
    """
    if not keep:
        return _parsed(path)
    import msgspec

    try:
        st = path.stat()
        content = path.read_bytes()  # its digest keys the entry too (a same-size edit)
    except OSError:
        cache = None  # read_document says what is wrong
    else:
        cache = entry("datasheets", path, st, _reader_stamp(), content)
    if cache is not None:
        try:
            return msgspec.msgpack.decode(cache.read_bytes())
        except (OSError, msgspec.DecodeError):
            pass
    data = _parsed(path)
    if cache is not None and _plain(data):
        try:
            raw = msgspec.msgpack.encode(data)
        except (msgspec.EncodeError, ValueError, OverflowError):  # e.g. a lone surrogate
            return data
        write(cache, raw)
    return data


@functools.cache
def _reader_stamp() -> str:
    """:func:`stamp` of the code a kept datasheet's data depends on (the YAML reader and this
    module), made once a process: it stats both files, a quarter of finding a datasheet in
    the cache (a batch finds a dozen or more)."""
    return stamp("yamlio.py", "filecache.py")


def _parsed(path: Path) -> Any:
    from .yamlio import read_document  # lazy: PyYAML only when a file is parsed

    return read_document(path, "datasheet file")[0]

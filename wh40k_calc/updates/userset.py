"""The user data folder's edition-11 set on disk (``<user data folder>/datasheets-11/``), and
replacing or removing it so that a reader never sees half a set.

The set is what ``calc data update`` writes: the generated datasheets and their
``index.json`` (the layout of the shipped ``datasheets-generated-11/``, which the catalog
reads), the faction files they were generated from (``sources/``: a later update of some
factions regenerates the others from them) and :data:`RECORD`, ``update.json``: where the files
came from, when, and a SHA-256 digest of every file written. From the record, :func:`user_changes`
tells the files a user added or changed since, which nothing replaces or removes without
``--force``.

A new set is built in a temporary folder beside the set (:func:`new_folder`:
``.datasheets-11.new-*``, on the same file system) and swapped in by two renames
(:func:`swap_in`: the set in use to ``.datasheets-11.old-*``, the new one to its place), then
the old one removed; Ctrl-C is held back during the renames. A reader sees the old set, or for
the instant between the renames no updated set (the shipped data), or the new set: never a
mixture. Only one update or reset runs at a time in one user data folder (:func:`locked`: an
advisory lock on ``.datasheets-11.lock``, released by the system if the process dies). Taking
the lock first cleans up what an interrupted run left (:func:`recover`): a set moved aside but
not replaced is put back (the data in use before), temporary folders are removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..catalog import UPDATED_11
from . import UpdateError

RECORD = "update.json"
SOURCES = "sources"
RECORD_SCHEMA = 1
LOCK = f".{UPDATED_11}.lock"
NEW = f".{UPDATED_11}.new-"  # a set being built
OLD = f".{UPDATED_11}.old-"  # the set replaced, until removed (put back if the swap broke off)
GONE = f".{UPDATED_11}.gone-"  # a set being removed by a reset (never put back)


def target(home: Path) -> Path:
    """The set's folder in the user data folder ``home``."""
    return home / UPDATED_11


@dataclass(frozen=True)
class Record:
    """What ``update.json`` says: the source (an address or folder), when (UTC, ISO 8601),
    and the SHA-256 digest of every file written, by path relative to the set."""

    source: str
    when: str
    files: dict[str, str] = field(default_factory=dict)


def read_record(folder: Path) -> Record | None:
    """The record of a set (None: none, or not readable: not written by an update)."""
    try:
        raw = json.loads((folder / RECORD).read_text(encoding="utf-8"))
        files = raw["files"]
        if not isinstance(files, dict):
            return None
        digests = {str(k): str(v) for k, v in files.items()}
        return Record(str(raw["source"]), str(raw["when"]), digests)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _files(folder: Path) -> list[Path]:
    """Every file under ``folder`` (links not followed), sorted."""
    out = []
    for here, dirs, names in os.walk(folder):
        dirs.sort()
        out += [Path(here) / n for n in sorted(names)]
    return out


def _digest(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def write_record(folder: Path, source: str, when: str) -> None:
    """Write ``update.json`` for the set in ``folder``: every file's digest.

    Raises:
        OSError: it cannot be written.
    """
    files = {
        p.relative_to(folder).as_posix(): _digest(p) for p in _files(folder) if p.name != RECORD
    }
    body = {"schema": RECORD_SCHEMA, "written_by": "calc data update", "source": source,
            "when": when, "files": files}  # fmt: skip
    (folder / RECORD).write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", "utf-8")


def user_changes(folder: Path) -> list[str]:
    """The files of the set in ``folder`` that an update did not write as they are: added or
    changed since (``orks/boyz.yaml (changed)``); the whole folder when it has no record (it
    was not written by ``calc data update``)."""
    record = read_record(folder)
    if record is None:
        return [f"{folder} (not written by calc data update: it has no readable {RECORD})"]
    out = []
    for path in _files(folder):
        rel = path.relative_to(folder).as_posix()
        if rel == RECORD:
            continue
        want = record.files.get(rel)
        if want is None:
            out.append(f"{rel} (added)")
        else:
            try:
                if _digest(path) != want:
                    out.append(f"{rel} (changed)")
            except OSError:
                out.append(f"{rel} (unreadable)")
    return out


def leftovers(home: Path) -> list[Path]:
    """The temporary folders an interrupted update or reset left in ``home``."""
    try:
        found = [p for p in home.iterdir() if p.name.startswith((NEW, OLD, GONE))]
    except OSError:
        return []
    return sorted(p for p in found if p.is_dir() and not p.is_symlink())


def recover(home: Path) -> list[str]:
    """Clean up after an interrupted run (under the lock): a set moved aside by a swap that
    broke off is put back where no set is; every other temporary folder is removed. Returns
    what was done, as notes.

    Raises:
        OSError: a set moved aside cannot be put back.
    """
    found = leftovers(home)
    notes = []
    olds = [p for p in found if p.name.startswith(OLD)]
    if olds and not target(home).exists():
        back = max(olds, key=lambda p: p.stat().st_mtime_ns)
        os.replace(back, target(home))
        found.remove(back)
        notes.append("put back the data in use before an interrupted update")
    for p in found:
        shutil.rmtree(p, ignore_errors=True)
    if found:
        n = len(found)
        notes.append(
            f"removed {n} folder{'s' if n != 1 else ''} an interrupted update left in {home}"
        )
    return notes


def _lock(fh) -> None:
    """Take an exclusive lock on the open file ``fh`` without waiting.

    Raises:
        OSError: another process holds it.
    """
    if sys.platform == "win32":  # pragma: no cover - Windows
        import msvcrt

        msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


@contextlib.contextmanager
def locked(home: Path, on_note: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the update lock of the user data folder ``home`` (created if missing) and clean
    up an interrupted run's leftovers, calling ``on_note`` with a note of each thing done.

    Raises:
        UpdateError: the folder cannot be written, or another update or reset holds the lock.
    """
    try:
        home.mkdir(parents=True, exist_ok=True)
        fh = (home / LOCK).open("a+b")
    except OSError as exc:
        raise UpdateError(
            f"cannot write in the user data folder {home} ({exc.strerror or exc})"
        ) from None
    with fh:
        try:
            _lock(fh)
        except OSError:
            raise UpdateError(
                f"another `calc data update` or `calc data reset` is running ({home / LOCK} "
                "is locked); wait for it to end"
            ) from None
        try:
            notes = recover(home)
        except OSError as exc:
            raise UpdateError(
                f"cannot clean up an interrupted update in {home} ({exc.strerror or exc})"
            ) from None
        if on_note is not None:
            for note in notes:
                on_note(note)
        yield


def new_folder(home: Path) -> Path:
    """A new empty temporary folder beside the set, to build a set in.

    Raises:
        OSError: it cannot be made.
    """
    return Path(tempfile.mkdtemp(prefix=NEW, dir=home))


@contextlib.contextmanager
def _interrupt_held() -> Iterator[None]:
    """Hold back Ctrl-C (SIGINT) for the few renames of a swap (main thread only; elsewhere
    nothing to do): one pressed meanwhile is ignored, since the renames finish at once."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda *_: None)
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def swap_in(home: Path, new: Path) -> None:
    """Make the set built in ``new`` the set of ``home``: the one in use (if any) moved aside,
    ``new`` renamed to its place, the old one removed (a failure to remove it leaves a
    leftover that the next run cleans up).

    Raises:
        OSError: a rename failed (the set in use is then in place again).
    """
    where = target(home)
    old = home / f"{OLD}{uuid.uuid4().hex[:12]}"
    with _interrupt_held():
        if where.exists():
            os.replace(where, old)
            try:
                os.replace(new, where)
            except OSError:
                os.replace(old, where)
                raise
        else:
            os.replace(new, where)
    _delete(old)


def _delete(path: Path) -> None:
    """Remove a folder (or a file put where the set belongs), quietly: what remains is a
    leftover for the next run."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


def remove(home: Path) -> None:
    """Remove the set of ``home`` (``calc data reset``): renamed aside at once (readers then
    see the shipped data), then deleted.

    Raises:
        OSError: the rename failed (the set is still in use).
    """
    gone = home / f"{GONE}{uuid.uuid4().hex[:12]}"
    with _interrupt_held():
        os.replace(target(home), gone)
    _delete(gone)


def refuse_user_changes(folder: Path, what: str) -> None:
    """Refuse to replace or remove ``folder`` when it holds files ``calc data update`` did
    not write as they are (:func:`user_changes`); ``what``: what ``--force`` does then.

    Raises:
        UpdateError: naming up to three of those files.
    """
    mine = user_changes(folder)
    if mine:
        more = f" and {len(mine) - 3} more" if len(mine) > 3 else ""
        raise UpdateError(
            f"the updated data has files not written by calc data update: "
            f"{', '.join(mine[:3])}{more}; --force {what}"
        )

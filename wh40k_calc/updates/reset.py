"""``calc data reset``: back to the shipped edition-11 data, by removing the user data
folder's updated set.

The set is what ``calc data update`` wrote, so removing it loses nothing the player made —
unless they changed or added files in it (its record says which files an update wrote, and
their digests: :func:`.userset.user_changes`). Then the reset is refused without ``force``,
naming them, as everything that would destroy a user's own file is. The set is renamed aside
at once (every command then reads the shipped data), then deleted; an interrupted deletion is
finished by the next update or reset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..catalog import GENERATED_11, forget_cached
from ..wording import count
from . import UpdateError
from .sources import known_files
from .userset import leftovers, locked, refuse_user_changes, remove, target


@dataclass(frozen=True)
class ResetOutcome:
    """What a reset did: whether a set was removed, and the sentence saying so."""

    removed: bool
    message: str


def _versions(index: Path) -> str:
    """The data versions an index's faction files have (``912`` or ``912, 913``)."""
    import json

    try:
        files = json.loads(index.read_text(encoding="utf-8")).get("files", [])
    except (OSError, ValueError, AttributeError):
        return "?"
    found = {str(f.get("version")) for f in files if isinstance(f, dict)}
    return ", ".join(sorted(found)) or "?"


def reset(
    home: Path,
    force: bool = False,
    shipped: Path = GENERATED_11,
    on_note: Callable[[str], None] | None = None,
) -> ResetOutcome:
    """Remove the updated edition-11 set of the user data folder ``home`` (``on_note``: called
    with a note for each thing done to clean up an interrupted run).

    Raises:
        UpdateError: without ``force``, the set has files the user changed or added; the
            folder cannot be written or the set not removed (it is then still in use).
    """
    where = target(home)
    back = f"the shipped data ({_versions(shipped / 'index.json')}) is in use"
    if not where.exists() and not leftovers(home):
        return ResetOutcome(False, f"Nothing to reset: no updated edition-11 data; {back}.")
    forget_cached()
    with locked(home, on_note):
        if not where.exists():
            return ResetOutcome(False, f"Nothing to reset: no updated edition-11 data; {back}.")
        if not force:
            refuse_user_changes(where, "removes them too")
        factions = len(known_files([where / "index.json"]))
        versions = _versions(where / "index.json")
        try:
            remove(home)
        except OSError as exc:
            raise UpdateError(
                f"cannot remove {where} ({exc.strerror or exc}); it is still in use"
            ) from None
    forget_cached()
    return ResetOutcome(
        True,
        f"Removed the updated edition-11 data ({count(factions, 'faction')}, data {versions}) "
        f"from {where}; {back} again.",
    )

"""``calc data``: keeping the edition-11 datasheets current (issue 17, item 5).

``calc data update`` downloads the newest faction files of the game-datacards data (or takes
them from another address or a folder), checks them, generates datasheets from them into the
user data folder's ``datasheets-11/`` and swaps that set in whole; ``calc data status`` says
which data each faction uses; ``calc data reset`` goes back to the shipped data.

One job a module: :mod:`.fetch` (one file over HTTP, capped and timed), :mod:`.sources` (where
the faction files come from and which ones), :mod:`.userset` (the set on disk: the lock, the
temporary folder, the swap, leftovers of an interrupted run, what the user changed),
:mod:`.changes` (what differs from the data in use before), :mod:`.run` (one update, start to
end), :mod:`.status` and :mod:`.command` (the commands, thin). Nothing here is imported by the
other commands: ``calc shoot`` never loads the HTTP client.
"""

from __future__ import annotations


class UpdateError(Exception):
    """An update, status or reset that cannot be done; the message is one line saying what
    failed (the previous data is then still in use)."""

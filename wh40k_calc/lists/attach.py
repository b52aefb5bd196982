"""Attached units as a list says them: which Leader goes with which Bodyguard.

The text exports and Rosterizer say it from either side: a Bodyguard's ``Attached to NAME``
names its character; a character's ``Leading UNIT[n]`` names the n-th unit of the list called
UNIT (the first when the list gives no index). :func:`pair_attachments` turns those words
into groups (:attr:`~.model.Attachment.group`): nothing is guessed, and a line that names no
unit of the list leaves the unit unpaired, its words kept for the report.
"""

from __future__ import annotations

import re

from ..records import replace
from .model import Attachment, ListedUnit

LEADING = re.compile(r"^leading\s+(.+?)(?:\[(\d+)\])?$", re.IGNORECASE)


def pair_attachments(units: list[ListedUnit]) -> list[ListedUnit]:
    """``units`` with each Leader and its Bodyguard in one group, as their lines say."""
    from ..datasheet import norm_name

    units = list(units)
    groups: dict[int, str] = {}
    n = 0
    for i, u in enumerate(units):
        a = u.attachment
        if a is None or a.role != "bodyguard":
            continue
        want = norm_name(a.label.removeprefix("Attached to "))
        for j, c in enumerate(units):
            if j in groups or c.attachment is None or c.attachment.role != "leader":
                continue
            if norm_name(c.name) == want:
                n += 1
                groups[i] = groups[j] = f"attached {n}"
                break
    for j, c in enumerate(units):
        a = c.attachment
        if a is None or a.role != "leader" or j in groups:
            continue
        m = LEADING.match(a.label)
        if m is None:
            continue
        want, index = norm_name(m.group(1)), int(m.group(2) or 1)
        same = [i for i, u in enumerate(units) if norm_name(u.name) == want and i != j]
        if len(same) >= index and same[index - 1] not in groups:
            i = same[index - 1]
            n += 1
            groups[i] = groups[j] = f"attached {n}"
            if units[i].attachment is None:
                units[i] = replace(units[i], attachment=Attachment("bodyguard", None))
    out = []
    for i, u in enumerate(units):
        if i in groups and u.attachment is not None:
            u = replace(u, attachment=replace(u.attachment, group=groups[i]))
        out.append(u)
    return out

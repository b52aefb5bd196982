"""Default equipment: the datasheet's loadout text ("<b>Every Boy is equipped with:</b> slugga;
choppa.") read into each model's ``equipped`` weapons and the non-weapon wargear it carries.

Paragraphs for every model of a kind come first; those for some of them ('One X is equipped
with') give a model's equipment only when nothing else does. Equipment spelt differently from
its weapon profile is matched by similarity (``names.near_match``) and reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .export import html_to_text
from .models import ImportedModel
from .names import NearMatch, find, same_name
from .weapons import ImportedWeapon, resolve_item, split_count

_SUBJECT_RE = re.compile(
    r"^(?:(?P<q>every other|every|each|the|an|a|one other|one|\d+ other|\d+|other)\s+)?"
    r"(?P<who>.+?)\s+(?:is|are)\s+(?:both\s+)?(?P<add>additionally\s+)?equipped with$",
    re.IGNORECASE,
)


@dataclass
class _Block:
    """One '<b>Every X is equipped with:</b> a; b.' paragraph of the loadout field."""

    who: str
    quantity: str  # '' for every model named, else 'one', '2', 'one other'...
    additional: bool
    items: list[str]
    other: bool = False  # "every other X": the X not equipped by an earlier paragraph

    @property
    def count(self) -> int:
        """How many models a paragraph with a quantity is for (``one other`` -> 1)."""
        word = self.quantity.split()[0]
        return int(word) if word.isdigit() else 1


def _blocks(loadout: str, warnings: list[str]) -> list[_Block]:
    out = []
    if "<b>" not in loadout.lower():  # a few sheets print the subject without bold
        loadout = re.sub(r"^(.*?equipped with:)", r"<b>\1</b>", loadout.strip(), flags=re.I)
    for m in re.finditer(r"<b>(.*?)</b>(.*?)(?=<b>|$)", loadout, re.DOTALL | re.IGNORECASE):
        head = html_to_text(m.group(1))
        body = html_to_text(re.split(r"<br\s*/?>|<i>|<p>", m.group(2))[0])
        subject, _, rest = head.partition(":")
        text = re.split(r"\.(?:\s|$)", f"{rest} {body}".strip())[0].strip().rstrip(".")
        sm = _SUBJECT_RE.match(subject.strip())
        if not sm:
            if "note" not in subject.lower() and subject.strip() != "*":
                warnings.append("a loadout line was not understood")
            continue
        q = (sm.group("q") or "").lower()
        items = [] if text.lower() == "nothing" else re.split(r"\s*[;,]\s*", text)
        out.append(
            _Block(
                sm.group("who").strip(),
                "" if q in ("every", "each", "the", "a", "an", "every other", "other") else q,
                bool(sm.group("add")),
                [i for i in items if i],
                q in ("every other", "other"),
            )
        )
    return out


def _targets(block: _Block, models: list[ImportedModel]) -> list[tuple[ImportedModel, int]]:
    """The models a paragraph is for, each with how many copies of the items it carries: 1,
    or for a section of a model (a fortification's 2 tower sections), that section's count."""
    if block.who.lower() in ("model", "this model", "models", "unit", "this unit"):
        return [(m, 1) for m in models]
    parts = [
        re.sub(r"^(every|each|the)\s+", "", p, flags=re.IGNORECASE)
        for p in re.split(r"\s+and\s+", block.who)
    ]
    found = [find(p, [m.name for m in models]) for p in parts]
    targets = [(models[i], 1) for i in found if i is not None]
    if not targets:
        targets = [
            (m, n) for p in parts for m in models for part, n in m.parts if same_name(part, p)
        ]
    if not targets and len(models) == 1:
        targets = [(models[0], 1)]
    return targets


_TAG = re.compile(r"\s*\((?:aura|psychic)\)\s*$", re.IGNORECASE)
Resolver = Callable[[str, list[NearMatch]], list[str] | None]


def wargear_name(text: str, wargear: list[str]) -> str | None:
    """The name in ``wargear`` (non-weapon wargear) that ``text`` is, its "(Aura)" or
    "(Psychic)" tag aside; None when none is."""
    return next((g for g in wargear if same_name(_TAG.sub("", g), text)), None)


def loadout_items(loadout: str) -> list[str]:
    """Every item the loadout text names, as printed (``2 hellstrike missiles``), in order."""
    return [item for block in _blocks(loadout, []) for item in block.items]


def read_equipment(
    loadout: str,
    models: list[ImportedModel],
    weapons: list[ImportedWeapon],
    wargear: list[str],
    warnings: list[str],
    resolve: Resolver | None = None,
) -> tuple[list[NearMatch], list[str]]:
    """Fill each model's ``equipped`` and ``by_count`` (and ``wargear``: items named in
    ``wargear``, the datasheet's non-weapon wargear abilities, their "(Aura)" tags aside) from
    the loadout text; return the items matched to a differently spelt weapon and the items
    that match nothing. ``resolve(item, near)`` gives an item's weapon names (None: no
    weapon; default :func:`.weapons.resolve_item` over ``weapons``)."""
    if resolve is None:

        def resolve(item: str, near: list[NearMatch]) -> list[str] | None:
            return resolve_item(item, weapons, near)

    near: list[NearMatch] = []
    missing: list[str] = []
    blocks = _blocks(loadout, warnings)
    for block in sorted(blocks, key=lambda b: bool(b.quantity)):
        targets = _targets(block, models)
        if not targets:
            warnings.append(f"loadout names {block.who!r}, not a model of this unit; skipped")
            continue
        names: list[str] = []
        gear: list[str] = []
        for item in block.items:
            resolved = resolve(item, near)
            if resolved is not None:
                names.extend(resolved)
                continue
            _, text = split_count(item)
            known = wargear_name(text, wargear)
            if known is not None:
                gear.append(known)
            else:
                missing.append(text)
                warnings.append(
                    f"equipment {item!r} ({block.who}) matches no weapon profile; skipped"
                )
        _assign(block, targets, names, gear)
    for m in models:
        _settle(m, warnings)
    _defaults(models, weapons, warnings, bool(missing))
    return near, missing


def _assign(
    block: _Block, targets: list[tuple[ImportedModel, int]], names: list[str], gear: list[str]
) -> None:
    for target, copies in targets:
        if block.quantity and block.additional:  # settled once `equipped` is known
            target.by_count.append((block.count, ["+", *names], gear))
        elif block.quantity:
            target.by_count.append((block.count, names, gear))
        elif block.additional or copies > 1 or target.parts:
            target.equipped = (target.equipped or []) + names * copies
            target.wargear += gear
        elif not (block.other and target.equipped is not None):
            target.equipped = names
            target.wargear = list(gear)


_ByCount = list[tuple[int, list[str], list[str]]]


def _settle(m: ImportedModel, warnings: list[str]) -> None:
    """A model's equipment for some of its kind (``by_count``): equal entries are counted
    together; where no paragraph is for every model of the kind, the entry for the most models
    (the first of equals) becomes ``equipped``; an 'additionally' entry adds to ``equipped``;
    entries equal to ``equipped`` are dropped."""
    if not m.by_count:
        return
    entries = _merged(m.by_count)
    plain = [e for e in entries if e[1][:1] != ["+"]]
    if m.equipped is None and plain:
        chosen = max(plain, key=lambda e: e[0])
        entries.remove(chosen)
        m.equipped, m.wargear = chosen[1], list(chosen[2])
        listed = chosen[0] + sum(e[0] for e in entries)
        if listed < m.high:
            warnings.append(
                f"the equipment of only {listed} of up to {m.high} {m.name} is listed: the "
                f"others are given that of {chosen[0]}"
            )
    base = m.equipped or []
    entries = [
        (n, base + names[1:], m.wargear + gear) if names[:1] == ["+"] else (n, names, gear)
        for n, names, gear in entries
    ]
    # the same weapons as the others (with another banner): not kept apart
    m.by_count = [e for e in _merged(entries) if e[1] != m.equipped]
    if m.by_count:
        listed_text = "; ".join(f"{n}: {', '.join(ws) or 'nothing'}" for n, ws, _ in m.by_count)
        warnings.append(
            f"{m.name}: equipment of some models only (equipped_by_count): {listed_text}"
        )


def _merged(entries: _ByCount) -> _ByCount:
    """Entries with equal weapons counted together (in the order first seen)."""
    merged: dict[tuple[str, ...], tuple[int, list[str], list[str]]] = {}
    for n, names, gear in entries:
        had = merged.get(tuple(names), (0, names, []))
        merged[tuple(names)] = (had[0] + n, names, had[2] + gear)
    return list(merged.values())


def _defaults(
    models: list[ImportedModel], weapons: list[ImportedWeapon], warnings: list[str], missed: bool
) -> None:
    for target in models:
        if target.equipped == [] and weapons and not missed:
            warnings.append(
                f"{target.name} carries no weapon by default (its weapons are wargear options: "
                "pick them with --weapon)"
            )
        if target.equipped is not None:
            continue
        if len(models) == 1:
            target.equipped = list(dict.fromkeys(w.name for w in weapons))
            warnings.append(
                f"default equipment of {target.name} not found: every weapon of "
                "the datasheet assigned"
            )
        else:
            target.equipped = []
            warnings.append(f"default equipment of {target.name} not found")

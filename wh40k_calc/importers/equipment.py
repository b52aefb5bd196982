"""Default equipment: the datasheet's loadout text ("<b>Every Boy is equipped with:</b> slugga;
choppa.") read into each model's ``equipped`` weapons and the non-weapon wargear it carries.

Paragraphs for every model of a kind come first; those for some of them ('One X is equipped
with') give a model's equipment only when nothing else does. Equipment spelt differently from
its weapon profile is matched by similarity (``names.near_match``) and reported.
"""

from __future__ import annotations

import re
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
            )
        )
    return out


def _targets(block: _Block, models: list[ImportedModel]) -> list[ImportedModel]:
    if block.who.lower() in ("model", "this model", "models", "unit", "this unit"):
        return models
    parts = [
        re.sub(r"^(every|each|the)\s+", "", p, flags=re.IGNORECASE)
        for p in re.split(r"\s+and\s+", block.who)
    ]
    found = [find(p, [m.name for m in models]) for p in parts]
    targets = [models[i] for i in found if i is not None]
    if not targets and len(models) == 1:
        targets = models
    return targets


def read_equipment(
    loadout: str,
    models: list[ImportedModel],
    weapons: list[ImportedWeapon],
    wargear: list[str],
    warnings: list[str],
) -> tuple[list[NearMatch], list[str]]:
    """Fill each model's ``equipped`` (and ``wargear``: items named in ``wargear``, the
    datasheet's non-weapon wargear abilities) from the loadout text; return the items matched
    to a differently spelt weapon and the items that match nothing."""
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
            resolved = resolve_item(item, weapons, near)
            if resolved is not None:
                names.extend(resolved)
                continue
            _, text = split_count(item)
            known = next((g for g in wargear if same_name(g, text)), None)
            if known is not None:
                gear.append(known)
            else:
                missing.append(text)
                warnings.append(
                    f"equipment {item!r} ({block.who}) matches no weapon profile; skipped"
                )
        _assign(block, targets, names, gear, warnings)
    _defaults(models, weapons, warnings, bool(missing))
    return near, missing


def _assign(
    block: _Block,
    targets: list[ImportedModel],
    names: list[str],
    gear: list[str],
    warnings: list[str],
) -> None:
    listed = "; ".join(block.items)
    for target in targets:
        if block.additional:
            target.equipped = (target.equipped or []) + names
            target.wargear += gear
        elif not block.quantity:
            target.equipped = names
            target.wargear = list(gear)
        elif target.equipped is None:
            target.equipped = names
            target.wargear = list(gear)
            warnings.append(
                f"only {block.quantity} {target.name} carry {listed}: imported as "
                f"every {target.name}'s equipment"
            )
        else:
            warnings.append(
                f"{block.quantity} {target.name} carry {listed}: not imported (add "
                "a loadout by hand)"
            )


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

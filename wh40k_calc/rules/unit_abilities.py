"""Datasheet unit abilities that are facts of the datasheet rather than effects: the attacker's
damaged profile, and the sentences that tell the player which defensive abilities of the target
were applied.

Damaged profiles: on 10th-edition datasheets, while the model has 1-N wounds remaining, each of
its attacks subtracts 1 from the Hit roll (the datasheet's own text, ``damaged``); edition 11
makes it the core ability Damaged X (24.39: while a model's remaining wounds are X or fewer it
is damaged, and its attacks have -1 to their Hit rolls), which the edition-11 datasheets carry
in the same field. The calculator cannot know how many wounds a model has left, so the player
says it (``--wounds-left N``) for a single-model attacker; the same N is where its own
Hazardous mortal wounds come off (``mortal.from_wounds_left``).
"""

from __future__ import annotations

from ..notes import OptionNote
from ..selection import Selection, SelectionError
from ..units import Unit
from ..wording import count


def damaged_hit_mod(sel: Selection, attacker: Unit) -> tuple[int, str | None]:
    """The Hit roll modifier of the attacker's damaged profile with ``--wounds-left N``
    (``sel.attacker_wounds_left``), and a sentence for the notes.

    Raises:
        SelectionError: ``--wounds-left`` for an attacker of more than one model (or an Attached
            unit), or N outside 1..W.
    """
    n = sel.attacker_wounds_left
    if n is None:
        return 0, None
    ds = sel.attacker.datasheet
    check_wounds_left(n, attacker, "--wounds-left")
    damaged = ds.damaged
    if damaged is None:
        return 0, OptionNote("--wounds-left", f"{n}: {ds.name} has no damaged profile", " ")
    limit = f"damaged profile: 1-{damaged.wounds_left} wounds remaining"
    left = f"{ds.name} with {count(n, 'wound')} left"
    if n > damaged.wounds_left:
        return 0, f"{left} is not damaged ({limit})"
    if not damaged.hit_mod:
        return 0, f"{left}: {limit} (no Hit roll modifier)"
    return damaged.hit_mod, f"{left}: {limit}, {damaged.hit_mod:+d} to its Hit rolls"


def check_wounds_left(n: int, attacker: Unit, option: str) -> None:
    """Refuse wounds left ``n`` (``option``: ``--wounds-left``, or a batch attacker's
    ``wounds_left``) for an attacker of more than one model (or an Attached unit), or outside
    1..W.

    Raises:
        SelectionError: naming ``option``.
    """
    if attacker.models != 1 or attacker.is_attached:
        raise SelectionError(
            f"{option} {n}: only for an attacker of one model (a Knight, a Land Raider); "
            f"{attacker.name} has {attacker.models} models"
        )
    wounds = attacker.groups[0].profile.W
    if not 1 <= n <= wounds:
        name = attacker.datasheets[0].name
        raise SelectionError(f"{option} {n}: {name} has W {wounds} (give 1 to {wounds})")


def defence_notes(target: Unit) -> list[str]:
    """One sentence per kind of target model with defensive datasheet abilities (Feel No Pain,
    limited Feel No Pain, Damage reduced or halved), e.g. ``Poxwalker: Feel No Pain 5+``."""
    out = []
    seen = set()
    for g in target.groups:
        p = g.profile
        parts = []
        if p.feel_no_pain:
            parts.append(f"Feel No Pain {p.feel_no_pain}+")
        if p.feel_no_pain_mortal:
            parts.append(f"Feel No Pain {p.feel_no_pain_mortal}+ against mortal wounds")
        if p.feel_no_pain_psychic:
            parts.append(f"Feel No Pain {p.feel_no_pain_psychic}+ against Psychic Attacks")
        if p.half_damage:
            parts.append("halves the Damage of attacks allocated to it")
        if p.damage_reduction:
            parts.append(f"-{p.damage_reduction} Damage of attacks allocated to it (min 1)")
        line = f"{p.name}: {', '.join(parts)} (datasheet)" if parts else None
        if line and line not in seen:
            seen.add(line)
            out.append(line)
    return out

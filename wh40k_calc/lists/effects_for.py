"""A list's detachments and enhancements as effects (:mod:`wh40k_calc.effects`), where we
have them: the one place that looks them up, so that effects can move to data files without
the army code changing.

A detachment's rules are the effects whose kind is "detachment rule (DETACHMENT)". Those that
change the attacking unit's attacks are applied to every activation of the army where their
own conditions hold (:func:`wh40k_calc.effects.check`: phase, keywords, a Charge move); those
that protect the unit (target side) do nothing when the army attacks and are listed as such.
An enhancement is applied where an effect is named like it; none is yet, so each is listed as
not modelled. Stratagems are the player's choice each turn: never applied from a list.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..datasheet import norm_name


@dataclass(frozen=True)
class ListEffects:
    """``attacker``: effect ids to apply to the army's activations where they can apply;
    ``unused``: detachment rules that do nothing when the army attacks (target side), in
    words; ``not_modelled``: detachments and enhancements we have no effect for, in words."""

    attacker: tuple[str, ...]
    unused: tuple[str, ...]
    not_modelled: tuple[str, ...]


def list_effects(detachments: tuple[str, ...], enhancements: tuple[str, ...]) -> ListEffects:
    """The effects of a list's detachments and enhancements (see the module docstring)."""
    from ..effects import EFFECTS

    attacker: list[str] = []
    unused: list[str] = []
    missing: list[str] = []
    for d in detachments:
        kind = norm_name(f"detachment rule ({d})")
        rules = [e for e in EFFECTS if norm_name(e.kind) == kind]
        if not rules:
            missing.append(f"detachment {d} (no effect of ours)")
        for e in rules:
            if e.applies_to_attacker:
                attacker.append(e.id)
            else:
                unused.append(f"{e.id} ({d}): protects the unit; nothing when it attacks")
    for name in dict.fromkeys(enhancements):
        e = enhancement_effect(name)
        if e is None:
            missing.append(f"enhancement {name} (no effect of ours)")
    return ListEffects(tuple(dict.fromkeys(attacker)), tuple(unused), tuple(missing))


def enhancement_effect(name: str):
    """The effect named like an enhancement (its name without a trailing kind in brackets,
    "Thirst for Glory (Upgrade)"), or None."""
    from ..effects import EFFECTS

    bare = name.split(" (")[0]
    key = norm_name(bare)
    for e in EFFECTS:
        if e.kind.startswith("enhancement") and norm_name(e.name) == key:
            return e
    return None

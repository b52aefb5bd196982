"""A list's detachments and enhancements as effects (the records of ``effects/``,
:mod:`wh40k_calc.effects`), where we have them: the one place that looks them up.

A detachment's rules are its faction's records of kind ``detachment`` that list the
detachment (names compared as :func:`~wh40k_calc.effect_coverage.key` does). Those that change
the attacking unit's attacks are applied to every activation of the army where their own
conditions hold (``rules.applied.refusal``: phase, keywords, a Charge move; a choice rule, such
as a stance, is named by its rule's name and the calculator picks the option); those that
protect the unit (target side) do nothing when the army attacks and are listed as such. An
enhancement is applied to the unit that bears it where a record of kind ``enhancement`` has
its name (the bearer's own changes stay the bearer's: ``bearer_only``). Stratagems are the
player's choice each turn: never applied from a list; nor are Miracle dice (Sacred Rites),
whose values only the player knows. Records are named by id (a choice
rule by its rule's name): they resolve to the faction of the unit that attacks.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..effect_coverage import key, slug


@dataclass(frozen=True)
class ListEffects:
    """``attacker``: effect names to apply to the army's activations where they can apply;
    ``unused``: detachment rules that do nothing when the army attacks (target side), in
    words; ``not_modelled``: detachments and enhancements we have no effect for, in words."""

    attacker: tuple[str, ...]
    unused: tuple[str, ...]
    not_modelled: tuple[str, ...]
    faction: str | None = None
    edition: str = "10"


def _faction_effects(faction: str | None, edition: str):
    """The records of the list's faction in ``edition`` (none for an unknown faction)."""
    from ..effect_files import faction_key, files_of
    from ..effects import effects_of

    fkey = faction_key(faction) if faction else None
    if fkey is None or fkey not in files_of(edition):
        return ()
    return effects_of(edition, fkey)


def _name(e) -> str:
    """How a list names a record for ``--effect``: its id (the army's units are of its
    faction, so a bare id resolves to its record; an ally's is refused with the reason)."""
    return e.id


def list_effects(
    detachments: tuple[str, ...],
    enhancements: tuple[str, ...],
    faction: str | None = None,
    edition: str = "10",
) -> ListEffects:
    """The effects of a list's detachments and enhancements (see the module docstring), from
    the records of ``faction`` (ours or the data's name) in ``edition``."""
    records = _faction_effects(faction, edition)
    attacker: list[str] = []
    unused: list[str] = []
    missing: list[str] = []
    for d in detachments:
        rules = [
            e
            for e in records
            if e.kind == "detachment" and any(key(x) == key(d) for x in e.detachments)
        ]
        if not rules:
            missing.append(f"detachment {d} (no effect of ours)")
        groups: dict[str, list] = {}
        for e in rules:  # options of one choice rule: named once, by the rule
            groups.setdefault(slug(e.rule) if e.record.rule else e.id, []).append(e)
        for gid, group in groups.items():
            e = group[0]
            name = _name(e) if len(group) == 1 else gid
            if any(x.miracle_limit for x in group):  # the values are the player's to give
                unused.append(
                    f"{e.id} ({d}): the Miracle dice held are yours to give "
                    f"(--effect {e.id}:6): not applied from a list"
                )
            elif any(x.applies_to_attacker for x in group):
                attacker.append(name)
            else:
                unused.append(f"{e.id} ({d}): protects the unit; nothing when it attacks")
    for name in dict.fromkeys(enhancements):
        if enhancement_effect(name, faction, edition) is None:
            missing.append(f"enhancement {name} (no effect of ours)")
    return ListEffects(
        tuple(dict.fromkeys(attacker)), tuple(unused), tuple(missing), faction, edition
    )


def enhancement_effect(name: str, faction: str | None = None, edition: str = "10"):
    """The record of kind ``enhancement`` named like an enhancement (its name without a
    trailing kind in brackets, "Thirst for Glory (Upgrade)") in the faction's records, or
    None."""
    bare = name.split(" (")[0]
    for e in _faction_effects(faction, edition):
        if e.kind == "enhancement" and key(e.name) == key(bare):
            return e
    return None


def enhancement_name(e) -> str:
    """The ``--effect`` name of an enhancement's record."""
    return _name(e)

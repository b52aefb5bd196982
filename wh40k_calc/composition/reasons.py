"""Why no assignment of the unit's models carries (or attacks with) the named weapons, in words.

:func:`explain` answers in this order: where the models could carry the weapons but not attack
with them together, the rule of the attack sequence that forbids it (:mod:`~wh40k_calc.
attack_sets`: one profile a weapon, Pistols or the others, one melee weapon); a wargear
option's limit of models (:mod:`.limits`); else the set of the named weapons that most exceeds
what the models can carry at once (:mod:`.shortfall`), ending with which options cap them and
why one model cannot carry two of them together (:mod:`.apart`). Every refusal starts with
its subject ("this unit of 10 models", "the unit") and names the weapons and numbers asked.
"""

from __future__ import annotations

from ..attack_sets import ATTACKING, CARRYING, RULES, UNRULED, Counting, Weapons
from ..datasheet import Datasheet
from .apart import excluded_by, loadouts_apart, options_apart, pistol_footnote
from .carriers import carriers
from .limits import limit_exceeded, options_capping
from .naming import and_join, counted_names, weapon_name
from .search import assign, carried_fits
from .shortfall import capacity, shortfall_text, worst_shortfall


def explain(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    subject: str = "the unit",
    counting: Counting = ATTACKING,
) -> str:
    """Why no assignment exists (``wanted`` as :func:`assign` takes it), in words, starting
    with ``subject``: a set of the named weapons that needs more than the unit's models can
    carry of them at once (the largest shortfall; of those, the fewest weapons), e.g. "the
    unit can carry only 2 of Big shoota and Rokkit launcha at once (Spanner ×2); Big shoota x2
    and Rokkit launcha x2 need 4"; or a wargear option that several loadouts offer and whose
    limit of models in all the weapons exceed, named by its loadouts (:func:`limit_exceeded`);
    or, where the models could carry them all but not attack with them together, the rule of
    the attack sequence that forbids it (:func:`_attack_rule`)."""
    if counting.attacking and counting != UNRULED:
        if carried_fits(ds, counts, wanted, starting_strength):
            return _attack_rule(ds, counts, wanted, starting_strength, subject, counting)
        counting = UNRULED  # carrying them fails already: say why in those terms
    over = limit_exceeded(ds, counts, wanted, starting_strength, subject, counting)
    if over is not None:
        return over
    units = carriers(ds, counts, wanted, starting_strength, counting)
    named = counted_names(ds, wanted, counting)
    found = worst_shortfall(units, wanted)
    if found is None:
        return (
            f"no assignment of the models of {subject} carries {and_join(list(named.values()))} "
            f"(each model uses only weapons that one of its equipment options lists together; "
            f"`calc show {ds.name}` lists them)"
        )
    has, subset, who = found
    apart = (
        options_apart(ds, subset, counting)
        or pistol_footnote(ds, subset, counting)
        or excluded_by(ds, subset, counting)
    )
    options = options_capping(ds, subset, counting)
    apart = apart or loadouts_apart(ds, subset, counting)
    if options and apart:  # one parenthesis: "(wargear option: ...; loadout x is for ...)"
        options, apart = options[:-1], "; " + apart[2:]
    return (
        shortfall_text(ds, subject, "carry", has, subset, who, wanted, counting) + options + apart
    )


RULE_TEXT = {
    "one_profile": "a model attacks with one profile of each weapon it carries",
    "pistols_or_others": (
        "a model shoots its Pistols or its other ranged weapons, not both (not a MONSTER or "
        "VEHICLE)"
    ),
    "one_melee": "a model fights with one melee weapon, besides its [EXTRA ATTACKS] weapons",
}

RULE_VERB = {"one_profile": "attack with", "pistols_or_others": "shoot", "one_melee": "fight with"}


def _attack_rule(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    subject: str,
    counting: Counting,
) -> str:
    """Why models that can carry the named profiles (``wanted``, profile keys) cannot attack
    with them: the rule of :mod:`~wh40k_calc.attack_sets` without which they could (tried in
    turn: one profile a weapon, Pistols or the others, one melee weapon), e.g. "a model shoots
    its Pistols or its other ranged weapons, not both (not a MONSTER or VEHICLE): this unit of
    10 models can shoot only 10 of Bolt pistol and Boltgun at once (Tactical Marine ×9,
    Tactical Sergeant ×1); Bolt pistol x10 and Boltgun x10 need 20". For one profile a
    weapon, the weapon's profiles counted as that weapon against how many of it the models
    carry: "Plasma gun – standard x2 and Plasma gun – supercharge x2 are Plasma gun x4; this
    unit of 10 models can carry only 2 of Plasma gun (Tactical Marine ×2)"."""
    rule = next(
        (
            r
            for r in RULES
            if getattr(counting, r)
            and assign(ds, counts, wanted, starting_strength, counting=counting.without(r))
            is not None
        ),
        None,
    )
    if rule == "one_profile":
        why = _profiles_short(ds, counts, wanted, starting_strength, subject)
        if why is not None:
            return f"{RULE_TEXT[rule]}: {why}"
    if rule is None:
        head = "; ".join(RULE_TEXT[r] for r in RULES if getattr(counting, r))
        verb = "attack with"
    else:
        head, verb = RULE_TEXT[rule], RULE_VERB[rule]
    units = carriers(ds, counts, wanted, starting_strength, counting)
    found = worst_shortfall(units, wanted)
    if found is None:
        named = counted_names(ds, wanted, counting)
        return (
            f"{head}: no assignment of the models of {subject} lets them {verb} "
            f"{and_join(list(named.values()))} together"
        )
    has, subset, who = found
    return f"{head}: " + shortfall_text(ds, subject, verb, has, subset, who, wanted, counting)


def _profiles_short(
    ds: Datasheet,
    counts: dict[str, int],
    wanted: dict[str, int],
    starting_strength: int,
    subject: str,
) -> str | None:
    """The first weapon of several profiles named more times in all than the models can carry
    of it (each model using one profile of each copy it carries), in words; None if none."""
    arms = Weapons(ds)
    per: dict[str, list[str]] = {}
    for k in wanted:
        per.setdefault(arms.weapon(k), []).append(k)
    for weapon, keys in per.items():
        if len(keys) < 2:
            continue
        total = sum(wanted[k] for k in keys)
        units = carriers(ds, counts, {weapon: total}, starting_strength, CARRYING)
        has, who = capacity(units, {weapon})
        if has < total:
            named = and_join([f"{weapon_name(ds, k, ATTACKING)} x{wanted[k]}" for k in keys])
            return (
                f"{named} are {arms.name[weapon]} x{total}; {subject} can carry only {has} of "
                f"{arms.name[weapon]} ({', '.join(who) or 'no model can'})"
            )
    return None

"""The most copies of one weapon that one model of a datasheet could carry under any loadout
the datasheet allows: a generous bound, for refusing a list's impossible counts.

A list that gives a unit more copies of a weapon than its models could carry together (12
shootas on 10 Boyz, when no Ork Boy carries two) lists what cannot be on the table: it is
refused (:func:`wh40k_calc.lists.resolve.resolve_army`), not run as written. The finer checks
(this unit's options give only 9 of its Boys a shoota: ``composition``) stay warnings, since
our option data may lack an option the list builder knows; this bound must not depend on
that. So it is taken loosely, datasheet-wide:

* each model type's default equipment (its ``equipped`` and each ``equipped_by_count`` list:
  the most copies of one weapon in any of them, a weapon of several profiles counted once);
* plus, for every wargear option, what it could add of a weapon beyond the default: the most
  copies an entry of the option carries above the default's (an entry is a model's whole kit;
  the entries of one numbered option are alternatives, so the most of them), as if a model
  took every numbered option at once; the loadouts without an option number (hand-written
  ones, each a whole unit's equipment; generated ones of a model type with one option or of
  a datasheet whose text restricts how options combine) count as one option, the most of
  them;
* plus each weapon choice's ``up_to`` for a weapon on its list (1 for one of its ``once``
  weapons; a set's own copies where it has ``sets``);
* plus, for each wargear option our data does not generate that names one of the datasheet's
  weapons, the largest default kit's number of weapons (such an option may replace every
  weapon a model carries with that one: a Deff Dread's big shootas and dread klaws may each
  become a skorcha);

and the bound :func:`most_copies` is the largest of these over every weapon and model type,
at least 1: the unit's models times it is more than any loadout can give them of any one
weapon. It uses nothing but the datasheet's own fields.
"""

from __future__ import annotations

from collections import Counter

from ..datasheet import Datasheet, norm_name


def most_copies(ds: Datasheet) -> int:
    """The most copies of any one weapon that one model of ``ds`` could carry under any
    loadout, choice or option the datasheet has (see the module docstring), at least 1.

    A bound, not a rule: "models x this" copies of a weapon on a unit is more than the unit
    could carry under any wargear options (each model carries its weapons; Core rules:
    Datasheets and wargear options)."""
    from ..attack_sets import Weapons

    arms = Weapons(ds)
    ungenerated = _ungenerated_weapons(ds, arms)
    biggest_kit = max(
        (sum(arms.copies(kit).values()) for m in ds.models for kit in _kits(m)), default=1
    )
    defaults = {m.key: _default(m, arms) for m in ds.models}
    most = {key: Counter(base) for key, base in defaults.items()}
    for m in ds.models:
        for choice in m.choices:
            once = {arms.weapon(x) for x in choice.once}
            for k in dict.fromkeys(arms.weapon(x) for x in choice.weapons):
                if choice.sets:
                    most[m.key][k] += max(arms.copies(s)[k] for s in choice.sets)
                else:
                    most[m.key][k] += 1 if k in once else choice.up_to
    added: dict[tuple[str, object], Counter[str]] = {}
    for entries in ds.loadouts.values():
        for e in entries:
            mk = norm_name(e.model)
            base = defaults.get(mk, Counter())
            extra = Counter({k: n - base[k] for k, n in arms.copies(e.equipped).items()})
            group = added.setdefault((mk, e.option), Counter())
            group |= +extra  # the alternatives of one option: the most of each weapon
    for (mk, _), extra in added.items():
        most.setdefault(mk, Counter()).update(extra)
    best = 1
    for copies in most.values() or [Counter()]:
        for k, n in ungenerated.items():
            copies[k] += n * biggest_kit
        best = max(best, *copies.values()) if copies else best
    return best


def _default(model, arms) -> Counter[str]:
    """The most copies of each weapon in any of a model type's default equipment lists."""
    out: Counter[str] = Counter()
    for kit in _kits(model):
        out |= arms.copies(kit)
    return out


def _kits(model) -> list[tuple[str, ...]]:
    """A model type's default equipment lists: ``equipped`` and each ``equipped_by_count``."""
    return [model.equipped, *(keys for _, keys in model.equipped_by_count)]


def _ungenerated_weapons(ds: Datasheet, arms) -> Counter[str]:
    """Weapon key -> how many of the datasheet's options our data does not generate name it
    (an item's name, as :func:`wh40k_calc.lists.resolve._not_generated` matches it)."""
    label = {norm_name(n).removesuffix("s"): k for k, n in arms.name.items()}
    out: Counter[str] = Counter()
    for option in ds.options_not_generated:
        items = (norm_name(i).removesuffix("s") for i in option.items)
        out.update({label[x] for x in items if x in label})
    return out

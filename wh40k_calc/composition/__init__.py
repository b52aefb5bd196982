"""Which models of a unit carry the weapons ``--weapon`` or an army list names (a unit's
wargear options), and why, when none can.

The model: each model type of the unit has *equipment options*, the combinations of weapons
one of its models may carry together (its default equipment, its loadout entries, several
entries of separate wargear options combined, each of these with a ``choices`` entry taken),
each with how many models may take it and which shared limits it uses up. Named weapons fit
the unit when some assignment of its models to options carries them all within every cap
and limit; ``--weapon`` names what *attacks*, so each model's share must also be a set the
attack sequence lets it use together (:mod:`~wh40k_calc.attack_sets`). When no assignment
exists, the refusal says why in the players' words.

Where the rule for each part lives (bottom first; a module imports only those above it):

- :mod:`.kits`: an option as the search keys it (named weapons, the limits it uses) and how
  options with the same weapons merge.
- :mod:`.combined`: which loadout entries of separate wargear options one model takes
  together (independent options: what each takes away is there, what each needs is kept).
- :mod:`.choices`: a model's ``choices`` (up to N weapons of a list) taken on its options,
  with their footnotes (``once``, ``one_pistol``) and the ``excludes`` of loadouts.
- :mod:`.carriers`: each model type's options for the named weapons (:func:`carriers`), the
  option limits' sizes (:func:`pool_sizes`), optional model kinds (``instead_of``).
- :mod:`.unchecked`: named weapons whose number an option our data lacks sets.
- :mod:`.search`: the assignment search (:func:`assign`, :func:`lines_fit` for an army list's
  model lines, :func:`carried_fits`).
- :mod:`.naming`: how refusals name weapons.
- :mod:`.shortfall`: how many of a set of weapons the models carry at once, the set most
  short.
- :mod:`.apart`: why one model cannot carry two weapons together (one option's items, a
  weapon taken away, a footnote, an exclusion, loadouts that never give both).
- :mod:`.limits`: the wargear options' limits of models that are the reason (one, or several
  together).
- :mod:`.reasons`: :func:`explain`, the refusal in words, in the order above.

``from wh40k_calc.composition import assign, explain, ...`` is the public path (each name
loaded from its module on first use); inside the program, the modules themselves.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .carriers import Carriers, Option, carriers, pool_sizes, wanted_by_kits
    from .combined import MAX_COMBINED, Combination, combined
    from .kits import Kit
    from .limits import limit_exceeded
    from .reasons import explain
    from .search import ModelLine, assign, carried_fits, lines_fit
    from .shortfall import MAX_SUBSETS_OF
    from .unchecked import unchecked

_WHERE = {
    "Carriers": "carriers",
    "Option": "carriers",
    "carriers": "carriers",
    "pool_sizes": "carriers",
    "wanted_by_kits": "carriers",
    "MAX_COMBINED": "combined",
    "Combination": "combined",
    "combined": "combined",
    "Kit": "kits",
    "limit_exceeded": "limits",
    "explain": "reasons",
    "ModelLine": "search",
    "assign": "search",
    "carried_fits": "search",
    "lines_fit": "search",
    "MAX_SUBSETS_OF": "shortfall",
    "unchecked": "unchecked",
}

__all__ = [
    "MAX_COMBINED",
    "MAX_SUBSETS_OF",
    "Carriers",
    "Combination",
    "Kit",
    "ModelLine",
    "Option",
    "assign",
    "carried_fits",
    "carriers",
    "combined",
    "explain",
    "limit_exceeded",
    "lines_fit",
    "pool_sizes",
    "unchecked",
    "wanted_by_kits",
]


def __getattr__(name: str) -> Any:
    """The names above, imported from their module on first use: a unit without ``--weapon``
    or an army list never needs the search or the reasons (start-up, issue 21 B)."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_WHERE[name]}", __name__), name)

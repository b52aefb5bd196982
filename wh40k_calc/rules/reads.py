"""Which weapon abilities read which condition of the activation: one table per edition, the
one place the "no effect" notes (``idle``), ``--explain``'s players (``players``) and the
profiles shared across runs (``attacks``) learn it from. The rules themselves stay in their
own modules (``hit``, ``wound``, ``damage``, ``attacks``, ``cover``, ``weapons``,
``engaged``); ``tests/test_condition_readers.py`` checks this table against what they do.

A row (:class:`Reader`) ties a condition (a :class:`~wh40k_calc.selection.Conditions` field)
to weapon abilities (their keys, ``abilities.SPECS``) in one of three ways:

* ``READS``: a weapon's attacks read the condition only through one of these abilities, so a
  weapon with none of them is the same with or without it (no effect acting): within half
  range [RAPID FIRE X] adds attacks and [MELTA X] Damage (Core rules: Rapid Fire; seeds
  README: [MELTA X]; 24.30, 24.25); after Remaining Stationary [HEAVY] adds 1 to the Hit roll
  (Core rules: Heavy; 24.16, whose three conditions ``--stationary`` stands for); against a
  target more than 12" away [CONVERSION] makes a 4+ a Critical Hit (seeds README; edition 11
  keeps the ability in its datasheets' keyword list, with the same text); after a Charge move
  [LANCE] adds 1 to the Wound roll (seeds README; 24.21), in the Fight phase: the Charge phase
  comes after the Shooting phase, so a unit shooting has made no Charge move this turn.
* ``IGNORES``: every weapon of the phase reads the condition but those with one of these
  abilities: the Benefit of Cover is not against [IGNORES COVER] (seeds README; 24.18), and in
  edition 11, where it worsens BS (seeds README, 13.08), not for [TORRENT] (no Hit roll) nor
  [PSYCHIC] (24.29: a BS modifier may be ignored); snap shooting (``--overwatch``) and, in
  edition 11, plunging fire (22.05: BS improved) change a Hit roll [TORRENT] does not make.
* ``CHOOSES``: the condition decides which weapons may attack, these or all but these:
  ``--indirect`` only [INDIRECT FIRE] weapons (seeds README; 10.07), ``--advanced`` only
  [ASSAULT] weapons (Core rules: Advance Moves; 10.05), ``--engaged`` a model that is not a
  MONSTER/VEHICLE only its [PISTOL] (or [CLOSE-QUARTERS]) weapons (Core rules: Pistol;
  10.06), and in 10th edition no [BLAST] weapon at an engaged target (Core rules: Blast).

Where a rule reads more than the condition, a row gives the case of an INFANTRY attacker and
target, and the rule module has the rest (``engaged``, the editions' ``engaged_hit_terms``):
a MONSTER/VEHICLE attacker shoots every weapon while engaged; against an engaged
MONSTER/VEHICLE target [BLAST] weapons cannot shoot (edition 11: 10.06, 17.03) and [PISTOL]
and [TORRENT] (and in edition 11 [PSYCHIC]) escape the Hit-roll penalty; in edition 11 any
other engaged target is refused (04.02) whatever the weapon.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..abilities import WeaponAbilities

READS = "reads"
IGNORES = "ignores"
CHOOSES = "chooses"


def ability_field(key: str) -> str:
    """The :class:`~wh40k_calc.abilities.WeaponAbilities` field of the ability ``key``
    ("rapid fire" -> ``rapid_fire``; [CLOSE-QUARTERS] is [PISTOL], 24.27)."""
    return {"close-quarters": "pistol"}.get(key, key.replace(" ", "_").replace("-", "_"))


@dataclass(frozen=True)
class Reader:
    """One row: ``condition`` (a Conditions field) is read in ``phase`` ("shooting": by
    ranged attacks, "fight": by melee attacks) ``how`` (:data:`READS`, :data:`IGNORES` or
    :data:`CHOOSES`) by the ability keys ``abilities``, which the notes name as ``names``
    ("[RAPID FIRE X] or [MELTA X]")."""

    condition: str
    phase: str
    how: str
    abilities: tuple[str, ...]
    names: str

    @cached_property
    def fields(self) -> tuple[str, ...]:
        """The :class:`~wh40k_calc.abilities.WeaponAbilities` fields of the row's abilities
        (made once: a batch asks :meth:`has` of every weapon of every run)."""
        return tuple(ability_field(k) for k in self.abilities)

    def has(self, ab: WeaponAbilities) -> bool:
        """Whether a weapon with abilities ``ab`` has one of the row's abilities."""
        return any(getattr(ab, f) for f in self.fields)

    def read_by(self, ab: WeaponAbilities, phase: str, melee: bool) -> bool:
        """For a :data:`READS` row: whether a weapon's attack (``melee`` or ranged, with
        abilities ``ab``) in ``phase`` reads the condition."""
        return phase == self.phase and melee == (phase == "fight") and self.has(ab)


_BOTH = (
    Reader("half_range", "shooting", READS, ("rapid fire", "melta"), "[RAPID FIRE X] or [MELTA X]"),
    Reader("stationary", "shooting", READS, ("heavy",), "[HEAVY]"),
    Reader("beyond_12", "shooting", READS, ("conversion",), "[CONVERSION]"),
    Reader("charged", "fight", READS, ("lance",), "[LANCE]"),
    Reader("overwatch", "shooting", IGNORES, ("torrent",), "[TORRENT]"),
    Reader("indirect", "shooting", CHOOSES, ("indirect fire",), "[INDIRECT FIRE]"),
    Reader("advanced", "shooting", CHOOSES, ("assault",), "[ASSAULT]"),
    Reader("engaged", "shooting", CHOOSES, ("pistol", "close-quarters"), "[PISTOL]"),
)

TABLES: dict[str, tuple[Reader, ...]] = {
    "10": (
        *_BOTH,
        Reader("cover", "shooting", IGNORES, ("ignores cover",), "[IGNORES COVER]"),
        Reader("target_engaged", "shooting", CHOOSES, ("blast",), "[BLAST]"),
    ),
    "11": (
        *_BOTH,
        Reader(
            "cover",
            "shooting",
            IGNORES,
            ("ignores cover", "torrent", "psychic"),
            "[IGNORES COVER], [TORRENT] or [PSYCHIC]",
        ),
        Reader("plunging_fire", "shooting", IGNORES, ("torrent",), "[TORRENT]"),
    ),
}


_THROUGH = {e: tuple(r for r in rows if r.how == READS) for e, rows in TABLES.items()}


def readers(edition: str, how: str | None = None) -> tuple[Reader, ...]:
    """The rows of ``edition`` ("10" or "11"), those of kind ``how`` only when given.

    Raises:
        KeyError: an unknown edition.
    """
    rows = TABLES[edition]
    return rows if how is None else tuple(r for r in rows if r.how == how)


def read_through(edition: str) -> tuple[Reader, ...]:
    """The :data:`READS` rows of ``edition``: the conditions a weapon's profile reads only
    through one of its abilities (made once: ``attacks`` asks it for every weapon of a run)."""
    return _THROUGH[edition]


def reading(edition: str, condition: str, how: str) -> Reader | None:
    """The row of ``edition`` for ``condition`` of kind ``how``, or None."""
    return next((r for r in readers(edition, how) if r.condition == condition), None)

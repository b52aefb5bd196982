"""What decides a Hit roll besides the dice: changes to the attack's BS/WS characteristic and
modifiers to the roll, each kept with its source so that edition rules can drop some of them.

Two kinds of change are kept apart because the rules treat them apart:

* a **characteristic change** (edition 11's Benefit of cover worsens BS by 1, plunging fire
  improves it by 1): the changes are summed and the BS is then kept within 2+..6+ (seeds
  README: Benefit of cover, Plunging fire); they are not Hit-roll modifiers, so the ±1 cap does
  not include them;
* a **Hit-roll modifier** (--hit-mod, [HEAVY], 10th-edition Stealth, [INDIRECT FIRE]): summed,
  then capped at ±1 (Core rules: Hit Roll).

[PSYCHIC] in edition 11 lets the attacker ignore any of them (seeds README: [PSYCHIC]); the
calculator ignores exactly the harmful ones (:meth:`HitTerms.without_harmful`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .common import cap


@dataclass(frozen=True)
class Term:
    """One change: ``what`` names its source for the report ("the Benefit of Cover",
    "--hit-mod", "[HEAVY]"); ``value`` is in the player's favour when positive (a Hit-roll
    modifier of +1, or a BS improved by 1 = ``value`` +1)."""

    what: str
    value: int


@dataclass(frozen=True)
class HitTerms:
    """The characteristic changes (``skill``) and Hit-roll modifiers (``roll``) of one attack,
    and ``fail_up_to``: unmodified results up to this always fail (1; 3 for [INDIRECT FIRE])."""

    skill: tuple[Term, ...] = ()
    roll: tuple[Term, ...] = ()
    fail_up_to: int = 1

    def add_skill(self, what: str, value: int) -> HitTerms:
        """A copy with one more BS/WS change (``value`` +1: improved by 1)."""
        return replace(self, skill=(*self.skill, Term(what, value)))

    def add_roll(self, what: str, value: int) -> HitTerms:
        """A copy with one more Hit-roll modifier."""
        return replace(self, roll=(*self.roll, Term(what, value)))

    def characteristic(self, base: int) -> int:
        """The BS/WS needed after the changes: summed, then kept within 2+..6+."""
        return max(2, min(6, base - sum(t.value for t in self.skill)))

    def modifier(self) -> int:
        """The Hit-roll modifier: the sum, capped at ±1."""
        return cap(sum(t.value for t in self.roll))

    def without_harmful(self) -> tuple[HitTerms, list[str]]:
        """A copy without the changes that make the attack worse, and what was dropped (seeds
        README: [PSYCHIC]: "the attacker may ignore any or all modifiers to the attack's BS or
        WS and to its Hit roll")."""
        dropped = [t for t in (*self.skill, *self.roll) if t.value < 0]
        kept = replace(
            self,
            skill=tuple(t for t in self.skill if t.value > 0),
            roll=tuple(t for t in self.roll if t.value > 0),
        )
        return kept, [describe(t, t in self.skill) for t in dropped]


def describe(t: Term, characteristic: bool) -> str:
    """``"the Benefit of Cover (BS worsened by 1)"``, ``"--hit-mod (-1 to the Hit roll)"``."""
    if characteristic:
        how = "improved" if t.value > 0 else "worsened"
        return f"{t.what} (BS {how} by {abs(t.value)})"
    return f"{t.what} ({t.value:+d} to the Hit roll)"

"""Weapon ability strings (``rapid fire 2``, ``anti-infantry 4+``, ``sustained hits d3``) parsed
into typed values.

Every ability found in the 10th-edition datasheet export falls in one of three classes:

* ``modelled``: changes the attack sequence; the rules layer turns it into numbers.
* ``no effect``: recognised, but changes nothing in one activation ([ASSAULT], [ONE SHOT];
  [PSYCHIC] only marks the attacks as Psychic Attacks, which some Feel No Pain abilities name).
* ``not modelled``: a datasheet-specific rule printed among the abilities (``linked fire``,
  ``c'tan power``, ...). It is kept and reported in ``not_modelled``, never dropped.

Edition 11 writes some abilities with keywords (24.01 Abilities: a weapon ability followed by
keywords applies only to attacks that target a unit with one or more of them):
``lethal hits: non-monster/vehicle``, ``devastating wounds: monster/vehicle``,
``sustained hits 1: infantry/beasts``, and [ANTI] naming several keywords,
``anti-monster/vehicle 4+``. The keywords are held as one *keyword spec*, ``"MONSTER/VEHICLE"``
(a unit with any of them: 02.05.01, "a series of keywords separated by slashes [...] refers to
a model/unit that has any one of those keywords") or ``"NON-MONSTER/VEHICLE"`` (a unit with
none of them: 02.05.01 "non-Keyword" units; the core rules FAQ on [ANTI-non-X]), matched by
:func:`keywords_match`. A conditional ability is kept in ``WeaponAbilities.conditional`` until
the target is known; :meth:`WeaponAbilities.against` then applies those whose spec the target
matches and drops the others (the rules layer does it for every weapon of the attacking unit:
``rules.conditional``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import cast

from msgspec import Struct

from .dice import Dice, DiceError
from .fuzzy import closest, did_you_mean, shortened
from .records import compared_without, replace

MODELLED = "modelled"
NO_EFFECT = "no effect"
NOT_MODELLED = "not modelled"
MALFORMED = "malformed"

# Keywords that [ANTI-KEYWORD X+] names in the real data; any other keyword is accepted too.
_ANTI_RE = re.compile(r"^anti-([a-z][a-z '\-]*?)\s+([2-6])\+$")
_KEYWORD = r"[a-z][a-z '\-]*"
# [ANTI-MONSTER/VEHICLE 4+]: several keywords (edition 11); [ANTI-non-MONSTER/VEHICLE 4+]
_ANTI_SEVERAL_RE = re.compile(rf"^anti-({_KEYWORD}(?:/{_KEYWORD})+?)\s+([2-6])\+$")
NON = "NON-"  # a keyword spec that matches units with none of its keywords
# [LETHAL HITS: non-MONSTER/VEHICLE]: an ability that applies against some targets only
_CONDITIONAL_RE = re.compile(
    rf"^(?P<ability>[^:]+?)\s*:\s*(?P<non>non-)?(?P<kws>{_KEYWORD}(?:/{_KEYWORD})*)$"
)
_X_RE = r"\s+([0-9]*d?[0-9]+(?:\s*\+\s*[0-9]+)?)"
MAX_X = 20  # the largest number X of [RAPID FIRE X], [SUSTAINED HITS X], [MELTA X], [BLAST X],
# [CLEAVE X] accepted (the export's largest is 10); dice such as D3 or D6+1 are accepted too


class AbilitySpec(Struct, frozen=True):
    """One known core ability: its name, how it is written and what the calculator does."""

    key: str
    pattern: re.Pattern[str]
    status: str
    summary: str
    source: str


def _spec(key: str, pattern: str, status: str, summary: str, source: str) -> AbilitySpec:
    return AbilitySpec(key, re.compile(pattern), status, summary, source)


# The order matters only for readability; patterns do not overlap.
SPECS: tuple[AbilitySpec, ...] = (
    _spec(
        "rapid fire",
        r"^rapid fire" + _X_RE + "$",
        MODELLED,
        "A + X against a target within half range (--half-range)",
        "Core rules: Rapid Fire; 24.30",
    ),
    _spec(
        "blast",
        r"^blast(?:\s+([0-9]+))?$",
        MODELLED,
        "+1 attack (edition 11 [BLAST X]: +X attack dice) per five models in the target",
        "Core rules: Blast; 24.05 [BLAST]",
    ),
    _spec(
        "twin-linked",
        r"^twin-linked$",
        MODELLED,
        "the Wound roll can be re-rolled",
        "seeds README: [TWIN-LINKED]; 24.38",
    ),
    _spec(
        "devastating wounds",
        r"^devastating wounds$",
        MODELLED,
        "a Critical Wound inflicts mortal wounds equal to D, no save, no spill-over",
        "Core rules: Devastating Wounds; 24.10",
    ),
    _spec(
        "sustained hits",
        r"^sustained hits" + _X_RE + "$",
        MODELLED,
        "a Critical Hit scores X additional hits",
        "Core rules: Sustained Hits; 24.36",
    ),
    _spec(
        "ignores cover",
        r"^ignores cover$",
        MODELLED,
        "the target cannot have the Benefit of Cover",
        "seeds README: [IGNORES COVER]; 24.18",
    ),
    _spec(
        "torrent",
        r"^torrent$",
        MODELLED,
        "attacks hit automatically (no Critical Hits)",
        "seeds README: [TORRENT]; 24.37",
    ),
    _spec(
        "heavy",
        r"^heavy$",
        MODELLED,
        "+1 to the Hit roll if the unit Remained Stationary (--stationary)",
        "Core rules: Heavy; 24.16",
    ),
    _spec(
        "hazardous",
        r"^hazardous$",
        MODELLED,
        "one Hazardous test per weapon used; on a 1, 3 mortal wounds to a bearer (edition 11: "
        "on 1-2, 1 mortal wound, or 3 if all MONSTER/VEHICLE, to the unit)",
        "Core rules: Hazardous; 24.15, 06.03",
    ),
    _spec(
        "assault",
        r"^assault$",
        MODELLED,
        "after an Advance move (--advanced) only [ASSAULT] weapons shoot, with no Hit-roll "
        "modifier",
        "Core rules: Advance Moves, Assault (seeds README: [ASSAULT]); 24.04, 10.05",
    ),
    _spec(
        "psychic",
        r"^psychic$",
        MODELLED,
        "the attacks are Psychic Attacks (Feel No Pain against Psychic Attacks applies)",
        "seeds README: [PSYCHIC]; 24.29",
    ),
    _spec(
        "one shot",
        r"^one shot$",
        NO_EFFECT,
        "fires once per battle: no effect on one attack sequence",
        "seeds README: [ONE SHOT]; 24.26",
    ),
    _spec(
        "anti",
        _ANTI_RE.pattern,
        MODELLED,
        "an unmodified Wound roll of X+ against a target with KEYWORD is a Critical Wound "
        "(edition 11: KEYWORD may be several, 'monster/vehicle', or 'non-KEYWORD')",
        "Core rules: Anti; 24.03 [ANTI]",
    ),
    _spec(
        "melta",
        r"^melta" + _X_RE + "$",
        MODELLED,
        "+X Damage against a target within half range (--half-range)",
        "seeds README: [MELTA X]; 24.25",
    ),
    _spec(
        "lethal hits",
        r"^lethal hits$",
        MODELLED,
        "a Critical Hit automatically wounds (edition 11: when that is the better choice)",
        "Core rules: Lethal Hits; 24.23",
    ),
    _spec(
        "precision",
        r"^precision$",
        MODELLED,
        "attacks can be allocated to a CHARACTER model of an Attached unit",
        "seeds README: [PRECISION]; 24.28",
    ),
    _spec(
        "extra attacks",
        r"^extra attacks$",
        MODELLED,
        "used in addition to the chosen melee weapon; its A is not modified by other rules",
        "seeds README: [EXTRA ATTACKS]; 24.11",
    ),
    _spec(
        "indirect fire",
        r"^indirect fire$",
        MODELLED,
        "with --indirect: -1 to the Hit roll and the target has the Benefit of Cover (edition "
        "11: cover, an unmodified 1-5 fails, 1-3 with --spotted, no Hit re-rolls)",
        "seeds README: [INDIRECT FIRE]; 24.19, 10.07",
    ),
    _spec(
        "lance",
        r"^lance$",
        MODELLED,
        "+1 to the Wound roll after a Charge move (--charged)",
        "seeds README: [LANCE]; 24.21",
    ),
    _spec(
        "conversion",
        r"^conversion$",
        MODELLED,
        "with --beyond-12: an unmodified Hit roll of 4+ is a Critical Hit",
        "seeds README: [CONVERSION]",
    ),
    _spec(
        "pistol",
        r"^pistol$",
        MODELLED,
        "a model shoots its Pistols or its other ranged weapons, not both (not MONSTER/VEHICLE)",
        "Core rules: Pistol; 24.27",
    ),
    _spec(
        "close-quarters",
        r"^close-quarters$",
        MODELLED,
        "edition 11: as [PISTOL]",
        "24.07 [CLOSE-QUARTERS]",
    ),
    _spec(
        "cleave",
        r"^cleave\s+([0-9]+)$",
        MODELLED,
        "edition 11: X more attack dice per five models in the target (not a 10th-edition "
        "ability: not modelled there)",
        "24.06 [CLEAVE]",
    ),
)


class Ability(Struct, frozen=True, cache_hash=True):
    """One parsed ability: its spec key, its value (Dice, int, (keyword, x) or None) and text."""

    key: str
    value: object
    text: str
    status: str


def parse_ability(text: str) -> Ability:
    """Classify one ability string (any case, surrounding spaces ignored).

    Unknown text gives an :class:`Ability` with status ``not modelled`` and key ``datasheet
    rule``: it is reported, never dropped.
    """
    norm = " ".join(text.strip().lower().replace("\u2019", "'").split())
    norm = norm.translate(_HYPHENS)
    several = _ANTI_SEVERAL_RE.match(norm)
    if several:
        return Ability("anti", (_spec_of(several.group(1)), int(several.group(2))), norm, MODELLED)
    cond = _CONDITIONAL_RE.match(norm)
    if cond:
        inner = parse_ability(cond["ability"])
        if inner.status in (MODELLED, NO_EFFECT) and inner.key != "conditional":
            kws = (NON if cond["non"] else "") + _spec_of(cond["kws"])
            return Ability("conditional", (inner, kws), norm, inner.status)
        if inner.status == MALFORMED:
            return Ability("malformed", None, norm, MALFORMED)
    for spec in SPECS:
        m = spec.pattern.match(norm)
        if not m:
            continue
        value: object = None
        if spec.key in ("rapid fire", "sustained hits", "melta"):
            try:
                value = Dice.parse(m.group(1).replace(" ", "").upper())
            except DiceError:
                break
            if value.is_constant and not 1 <= value.bonus <= MAX_X:
                break
        elif spec.key in ("blast", "cleave"):
            value = int(m.group(1)) if m.group(1) else 1
            if not 1 <= value <= MAX_X:
                break
        elif spec.key == "anti":
            value = (_spec_of(m.group(1)), int(m.group(2)))
        return Ability(spec.key, value, norm, spec.status)
    if norm.startswith(_CORE_STEMS):
        return Ability("malformed", None, norm, MALFORMED)
    return Ability("datasheet rule", None, norm, NOT_MODELLED)


def _spec_of(keywords: str) -> str:
    """A keyword spec from ability text: ``"monster / vehicle"`` -> ``"MONSTER/VEHICLE"``,
    ``"non-monster"`` -> ``"NON-MONSTER"``."""
    return "/".join(" ".join(k.split()).upper() for k in keywords.split("/"))


def keywords_match(spec: str, keywords: frozenset[str] | set[str]) -> bool:
    """Whether a unit with ``keywords`` matches the keyword spec ``spec`` (24.01 Abilities;
    02.05.01 Using Keywords): ``"MONSTER/VEHICLE"`` when it has one or more of them,
    ``"NON-MONSTER/VEHICLE"`` when it has none of them. Keywords match whole: a rule for
    COMMISSAR does not reach COMMISSAR GRAVES (core rules FAQ, Keywords)."""
    non = spec.startswith(NON)
    names = set((spec[len(NON) :] if non else spec).split("/"))
    return not (names & keywords) if non else bool(names & keywords)


_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-"})  # as typed: '-'

# A text starting like a core ability that does not parse as one is a typo, not a datasheet
# rule ("anti-infantry 7+", "sustained hits -1", "rapid fire 99999").
_CORE_STEMS = ("rapid fire", "sustained hits", "melta", "anti-", "blast", "cleave")


_PARAMETERISED = {  # stem -> (the ability as the rules print it, whether X may be dice)
    "rapid fire": ("[RAPID FIRE X]", True),
    "sustained hits": ("[SUSTAINED HITS X]", True),
    "melta": ("[MELTA X]", True),
    "blast": ("[BLAST X]", False),
    "cleave": ("[CLEAVE X]", False),
}


def ability_problem(text: str) -> str | None:
    """Why ``text``, written like a core ability with a value, is not one (None: it parses, or
    it is not such an ability): X out of range or not a number, e.g. "[SUSTAINED HITS X]: X
    must be a number from 1 to 20 or dice such as D3 or D6+1, not '0'"."""
    ab = parse_ability(text)
    if ab.status != MALFORMED:
        return None
    norm = ab.text
    cond = _CONDITIONAL_RE.match(norm)
    if cond:
        return ability_problem(cond["ability"])
    if norm.startswith("anti-"):
        m = re.match(r"^anti-([a-z][a-z '\-]*?)(?:\s+(\S+))?$", norm)
        if m and m.group(2):
            return f"[ANTI-KEYWORD X+]: X+ must be from 2+ to 6+, not {m.group(2)!r}"
        return "[ANTI-KEYWORD X+] needs a keyword and X+, e.g. 'anti-infantry 4+'"
    for stem, (name, dice) in _PARAMETERISED.items():
        if norm.startswith(stem):
            x = norm[len(stem) :].strip()
            allowed = f"a number from 1 to {MAX_X}" + (
                " or dice such as D3 or D6+1" if dice else ""
            )
            if not x:
                return f"{name} needs X: {allowed}, e.g. '{stem} 1'"
            return f"{name}: X must be {allowed}, not {x!r}"
    return None


# "NAME X": a core ability's name and the value after it ("sustained hit 1", "rapid fir d3")
_NAME_VALUE_RE = re.compile(r"^(?P<name>.*?)(?:\s+(?P<x>d?[0-9]+(?:\s*\+\s*[0-9]+)?))?$")
_ANTI_SPACED_RE = re.compile(r"^anti\s+(.+)$")  # "anti infantry 4+" for "anti-infantry 4+"
_TAKES_X = {"rapid fire", "sustained hits", "melta", "cleave", "blast"}


def misspelt_ability(text: str) -> str | None:
    """The core ability ``text`` is a misspelling of, written as it should be ("lethal hitz" ->
    "lethal hits", "sustained hit 1" -> "sustained hits 1", "twin linked" -> "twin-linked",
    "anti infantry 4+" -> "anti-infantry 4+", "lethal hitz: vehicle" -> "lethal hits:
    vehicle"), or None: it parses as an ability, or it is like none closely enough to be one
    (a datasheet's own rule such as "linked fire" stays not modelled).

    "Closely enough": :func:`wh40k_calc.fuzzy.closest` at its default cutoff (a similarity
    ratio of 80, what makes two words of a unit's name alike), the ability's name compared
    without its value. Every shipped weapon ability that is no core ability scores 67 or
    less against every core name (linked fire ~ rapid fire is the closest; tests load every
    shipped datasheet, which refuses a misspelling).
    """
    ab = parse_ability(text)
    if ab.status != NOT_MODELLED:
        return None
    norm = ab.text
    cond = _CONDITIONAL_RE.match(norm)
    if cond:
        inner = misspelt_ability(cond["ability"])
        return f"{inner}: {norm[cond.end('ability') :].lstrip(' :')}" if inner else None
    spaced = _ANTI_SPACED_RE.match(norm)
    if spaced and parse_ability(f"anti-{spaced[1]}").status == MODELLED:
        return f"anti-{spaced[1]}"
    m = _NAME_VALUE_RE.match(norm)
    name, x = (m["name"], m["x"]) if m else (norm, None)
    keys = [spec.key for spec in SPECS if spec.key != "anti"]
    key = closest(name, keys) or shortened(name, keys)
    if key is None:
        return None
    if key not in _TAKES_X:
        return key
    return f"{key} {x}" if x else (key if key == "blast" else f"{key} X")


def split_abilities(text: str) -> list[str]:
    """Split a printed ability list (``"blast, heavy"``, ``"assault. torrent"``) into items."""
    return [part.strip() for part in re.split(r"[,.;]", text) if part.strip()]


class WeaponAbilities(Struct, frozen=True, cache_hash=True):
    """All abilities of one weapon profile, typed.

    ``anti`` holds (keyword spec, X) pairs (``("INFANTRY", 4)``, ``("MONSTER/VEHICLE", 4)``:
    :func:`keywords_match`); ``conditional`` the abilities that apply only against some targets,
    as (ability text, keyword spec) pairs (``("lethal hits", "NON-MONSTER/VEHICLE")``) until
    :meth:`against` resolves them; ``unmodelled`` the texts of datasheet rules.
    """

    rapid_fire: Dice | None = None
    blast: int = 0
    cleave: int = 0
    twin_linked: bool = False
    devastating_wounds: bool = False
    sustained_hits: Dice | None = None
    ignores_cover: bool = False
    torrent: bool = False
    heavy: bool = False
    hazardous: bool = False
    assault: bool = False
    psychic: bool = False
    one_shot: bool = False
    anti: tuple[tuple[str, int], ...] = ()
    conditional: tuple[tuple[str, str], ...] = ()
    melta: Dice | None = None
    lethal_hits: bool = False
    precision: bool = False
    extra_attacks: bool = False
    indirect_fire: bool = False
    lance: bool = False
    conversion: bool = False
    pistol: bool = False
    unmodelled: tuple[str, ...] = ()
    texts: tuple[str, ...] = ()

    __eq__, __hash__ = compared_without("texts")  # as written: no part of equality

    @classmethod
    def parse(cls, items: list[str] | tuple[str, ...]) -> WeaponAbilities:
        """Parse a list of ability strings (each may itself be a comma-separated list)."""
        return cls.of(parse_ability(piece) for item in items for piece in split_abilities(item))

    @classmethod
    def of(cls, abilities: Iterable[Ability]) -> WeaponAbilities:
        """One weapon profile's abilities, each already parsed (:func:`parse_ability`), in
        the order written."""
        out = cls()
        for ab in abilities:
            out = out.with_ability(ab)
        return out

    def with_ability(self, ab: Ability) -> WeaponAbilities:
        """A copy with ``ab`` added. Two sources of one X ability keep the larger X."""
        k = ab.key
        texts = (*self.texts, ab.text)
        if ab.status in (NOT_MODELLED, MALFORMED):  # kept as text, reported
            return replace(self, unmodelled=(*self.unmodelled, ab.text), texts=texts)
        if k == "rapid fire":
            return replace(self, rapid_fire=_larger(self.rapid_fire, ab.value), texts=texts)
        if k == "sustained hits":
            return replace(self, sustained_hits=_larger(self.sustained_hits, ab.value), texts=texts)
        if k == "melta":
            return replace(self, melta=_larger(self.melta, ab.value), texts=texts)
        if k == "blast":
            return replace(self, blast=max(self.blast, int(cast(int, ab.value))), texts=texts)
        if k == "cleave":
            return replace(self, cleave=max(self.cleave, int(cast(int, ab.value))), texts=texts)
        if k == "anti":
            kw, x = cast(tuple[str, int], ab.value)
            kept = {a: b for a, b in self.anti}
            kept[kw] = min(x, kept.get(kw, 7))
            return replace(self, anti=tuple(sorted(kept.items())), texts=texts)
        if k == "conditional":
            inner, spec = cast(tuple[Ability, str], ab.value)
            pair = (inner.text, spec)
            kept_c = self.conditional if pair in self.conditional else (*self.conditional, pair)
            return replace(self, conditional=kept_c, texts=texts)
        attr = {"close-quarters": "pistol"}.get(k, k.replace(" ", "_").replace("-", "_"))
        return replace(self, **{attr: True}, texts=texts)

    def against(self, keywords: frozenset[str]) -> WeaponAbilities:
        """The abilities that act on attacks against a target unit with ``keywords`` (24.01
        Abilities): each conditional ability whose keyword spec the target matches is applied
        as if unconditional (two instances of one ability keep the better, 24.02 Duplicated
        Abilities: the controlling player selects which one applies), the others are dropped;
        ``conditional`` is then empty, and ``texts`` names the abilities the weapon has against
        that target (a conditional one as its ability alone: ``devastating wounds``)."""
        if not self.conditional:
            return self
        texts = [t for t in self.texts if parse_ability(t).key != "conditional"]
        out = replace(self, conditional=(), texts=tuple(texts))
        for text, spec in self.conditional:
            if keywords_match(spec, keywords):
                out = out.with_ability(parse_ability(text))
        return out

    def with_texts(self, items: list[str] | tuple[str, ...]) -> WeaponAbilities:
        """A copy with more ability strings added (effects that grant abilities)."""
        out = self
        for item in items:
            for piece in split_abilities(item):
                out = out.with_ability(parse_ability(piece))
        return out


def _larger(old: Dice | None, new: object) -> Dice:
    assert isinstance(new, Dice)
    if old is None or new.mean > old.mean:
        return new
    return old


# Abilities --add-ability may grant: every ability of the README's table except those that
# change which weapons attack ([PISTOL]/[CLOSE-QUARTERS], [EXTRA ATTACKS]).
NOT_ADDABLE = ("pistol", "close-quarters", "extra attacks")
ADDABLE_EXAMPLES = (
    "rapid fire 1",
    "blast",
    "twin-linked",
    "devastating wounds",
    "sustained hits 1",
    "lethal hits",
    "anti-infantry 4+",
    "torrent",
    "heavy",
    "ignores cover",
    "melta 2",
    "precision",
    "indirect fire",
    "lance",
    "conversion",
    "hazardous",
    "psychic",
    "assault",
    "one shot",
    "cleave 1",
)


class AddedAbilityError(ValueError):
    """An ``--add-ability`` (or batch ``add_abilities`` entry) that is no core weapon ability
    as written: wrong whatever the data holds, a usage error (exit code 2)."""

    usage = True


def parse_added_ability(text: str) -> tuple[str, str]:
    """One ``--add-ability`` value: ``"lethal hits"`` -> ("*", "lethal hits") (every weapon);
    ``"Deffgun: sustained hits 1"`` -> ("Deffgun", "sustained hits 1") (that weapon only). An
    ability may carry keywords in edition 11's form (24.01): ``"lethal hits: vehicle"`` (every
    weapon, against a VEHICLE target), ``"Deffgun: sustained hits 1: non-monster/vehicle"``.

    Raises:
        AddedAbilityError: no ability, or one that is not a core weapon ability
            --add-ability accepts (with the closest names): a usage error (exit code 2),
            the core abilities being a fixed list.
    """
    whole = parse_ability(text)
    if whole.key == "conditional":  # "ABILITY: KEYWORDS" for every weapon
        weapon, sep, ability = "", "", text
    else:  # "WEAPON: ABILITY" or "WEAPON: ABILITY: KEYWORDS"
        weapon, sep, ability = text.partition(":")
        if not sep:
            weapon, ability = "", text
    weapon = weapon.strip() if sep else "*"
    if sep and not weapon:
        raise AddedAbilityError(f"--add-ability {text!r}: give 'WEAPON: ABILITY' or 'ABILITY'")
    pieces = split_abilities(ability)
    if len(pieces) != 1:
        raise AddedAbilityError(
            f"--add-ability {text!r}: give one ability (repeat --add-ability for more)"
        )
    parsed = parse_ability(pieces[0])
    problem = ability_problem(pieces[0])
    if problem:
        raise AddedAbilityError(f"--add-ability {text!r}: {problem}")
    key = parsed.value[0].key if parsed.key == "conditional" else parsed.key  # type: ignore[index]
    if key in NOT_ADDABLE:
        raise AddedAbilityError(
            f"--add-ability {text!r}: [{key.upper()}] changes which weapons attack; "
            "it cannot be added"
        )
    if parsed.status in (NOT_MODELLED, MALFORMED):
        hint = did_you_mean(pieces[0], list(ADDABLE_EXAMPLES))
        raise AddedAbilityError(
            f"--add-ability {text!r}: {pieces[0]!r} is not a weapon ability it accepts"
            + (hint or f" (e.g. {', '.join(ADDABLE_EXAMPLES)})")
        )
    return weapon, parsed.text

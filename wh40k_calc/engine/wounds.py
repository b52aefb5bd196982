"""One weapon profile's attacks, Hit rolls and Wound rolls, as the exact distribution of what
reaches the target's saving throws: P[n, m] over its normal wounds n and the Critical Wounds m
that become mortal wounds ([DEVASTATING WOUNDS]), with its expected attacks, hits and wounds
(Core rules: Hit Roll, Wound Roll, Sustained Hits, Lethal Hits, Devastating Wounds)."""

from __future__ import annotations

import numpy as np

from ..profile import CRIT, CRIT_WOUND, FAIL, HIT, MISS, WOUND, AttackProfile, RollTable
from .kernels import mean as _mean


def conv2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Full 2-D convolution of two arrays (distributions over pairs of counts), as one 1-D
    convolution of the rows laid end to end with room for the columns to grow."""
    ra, ca = a.shape
    rb, cb = b.shape
    if ca == 1 and cb == 1:
        return np.convolve(a[:, 0], b[:, 0])[:, None]
    width = ca + cb - 1
    fa = np.zeros((ra, width))
    fa[:, :ca] = a
    fb = np.zeros((rb, width))
    fb[:, :cb] = b
    flat = np.convolve(fa.ravel(), fb.ravel())[: (ra + rb - 1) * width]
    return flat.reshape(ra + rb - 1, width)


def _trim2(a: np.ndarray) -> np.ndarray:
    rows = np.nonzero(a.sum(axis=1) > 0)[0]
    cols = np.nonzero(a.sum(axis=0) > 0)[0]
    return a[: (rows[-1] + 1 if len(rows) else 1), : (cols[-1] + 1 if len(cols) else 1)]


def per_hit_kernel(ap: AttackProfile, pw: np.ndarray | None = None) -> np.ndarray:
    """Distribution over (normal wounds, devastating Critical Wounds) of one hit's Wound roll
    (``pw``: P(FAIL, WOUND, CRIT_WOUND), by default the weapon's Wound roll table)."""
    pw = ap.wound.probabilities(3) if pw is None else pw
    g = np.zeros((2, 2))
    g[0, 0] = pw[FAIL]
    g[1, 0] = pw[WOUND]
    if ap.devastating:
        g[0, 1] = pw[CRIT_WOUND]
    else:
        g[1, 0] += pw[CRIT_WOUND]
    return g


def per_attack_kernel(
    ap: AttackProfile, own: np.ndarray | None = None, ph: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """Distribution over (normal wounds, devastating Critical Wounds) of one attack, and the
    expected hits it scores (Core rules: Hit Roll, Sustained Hits, Lethal Hits). ``own`` (a
    per-hit kernel, possibly not summing to 1) replaces the Wound roll of the attack's own hit
    (not of Sustained Hits' extra hits); ``ph`` (P(MISS, HIT, CRIT), possibly not summing to
    1) replaces the Hit roll table's."""
    g = per_hit_kernel(ap)
    own = g if own is None else own
    if ap.hit is None:  # hits automatically: one hit, never a Critical Hit
        return _trim2(own), 1.0
    ph = ap.hit.probabilities(3) if ph is None else ph
    extra, extra_hits = _sustained(ap, g)
    lethal = np.array([[0.0], [1.0]]) if ap.lethal else own
    crit = conv2(lethal, extra)
    k = _pad_add(_pad_add(ph[MISS] * np.ones((1, 1)), ph[HIT] * own), ph[CRIT] * crit)
    return _trim2(k), float(ph[HIT] + ph[CRIT] * (1.0 + extra_hits))


def _sustained(ap: AttackProfile, g: np.ndarray) -> tuple[np.ndarray, float]:
    """What a Critical Hit's extra hits add (each rolls to wound as ``g``), and their mean."""
    unit = np.ones((1, 1))
    if ap.sustained is None:
        return unit, 0.0
    extra = np.zeros((1, 1))
    power = unit
    for k, p in enumerate(ap.sustained):
        if k:
            power = conv2(power, g)
        if p:
            extra = _pad_add(extra, p * power)
    return extra, _mean(ap.sustained)


def spent_roll(table: RollTable, face: int, fail: int = FAIL) -> tuple[float, np.ndarray]:
    """The single roll of one weapon (a re-roll, or a result changed to ``face``): (P(a roll
    of ``table`` is one it is spent on), P(each outcome class) of what that roll becomes).

    ``face`` 0: a re-roll, spent on a failed roll (class ``fail``) the table did not re-roll
    already (Core rules: Re-rolls: never re-roll a dice more than once), which becomes a fresh
    roll; ``face`` 1-6: a result changed after the roll is seen, spent on any failed roll,
    re-rolled or not, which becomes an unmodified ``face`` (``AttackProfile.single_face``)."""
    if face:
        return float(table.probabilities(3)[fail]), _one_hot(table.outcome[face])
    fresh = np.zeros(3)
    for f in range(1, 7):
        fresh[table.outcome[f]] += 1 / 6
    e = sum(1 for f in range(1, 7) if not table.reroll[f] and table.outcome[f] == fail) / 6
    return e, fresh


def command_reroll_kernels(ap: AttackProfile) -> tuple[np.ndarray, np.ndarray]:
    """One attack while the Command Re-roll is still available (Core stratagem, seed 000: "You
    re-roll that roll"; Core rules: Re-rolls: never re-roll a dice more than once): its
    (normal wounds, devastating Critical Wounds) distribution split into the part that keeps
    the re-roll and the part that spends it. It is spent on the attack's own Wound roll when
    that fails and the Wound roll table did not re-roll it already; the fresh result stands.
    Lethal Hits' automatic wounds and Sustained Hits' extra hits never spend it. With
    ``single_face``, the failed Wound roll (re-rolled or not) becomes that result instead
    (:func:`spent_roll`)."""
    table = ap.wound
    e, fresh = spent_roll(table, ap.single_face)
    keep = table.probabilities(3)
    keep[FAIL] -= e
    kept, _ = per_attack_kernel(ap, per_hit_kernel(ap, keep))
    own = per_hit_kernel(ap, e * fresh)  # failed, spent: what the roll becomes
    if ap.hit is None:
        return kept, own
    ph = ap.hit.probabilities(3)
    spent = ph[HIT] * own
    if not ap.lethal:  # a Critical Hit rolls to wound too (its extra hits do not spend it)
        spent = _pad_add(spent, ph[CRIT] * conv2(own, _sustained(ap, per_hit_kernel(ap))[0]))
    return kept, spent


def hit_reroll_kernels(ap: AttackProfile) -> tuple[np.ndarray, np.ndarray]:
    """One attack while a single Hit re-roll is still available (a rule's "re-roll one Hit
    roll"; Core rules: Re-rolls: never re-roll a dice more than once): the part that keeps it
    (the Hit roll did not fail, or failed on a result the table re-rolls already) and the part
    that spends it on the failed roll, whose fresh result stands. Spending it on the first
    such failure is best: every failed Hit roll is worth the same. With ``single_face``, the
    first failed Hit roll (re-rolled or not) becomes that result instead (:func:`spent_roll`)."""
    table = ap.hit
    assert table is not None
    e, fresh = spent_roll(table, ap.single_face, MISS)
    keep = table.probabilities(3)
    keep[MISS] -= e
    kept, _ = per_attack_kernel(ap, ph=keep)
    spent, _ = per_attack_kernel(ap, ph=e * fresh)
    return kept, spent


def _pad_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros((max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1])))
    out[: a.shape[0], : a.shape[1]] += a
    out[: b.shape[0], : b.shape[1]] += b
    return out


def _compound2(counts: np.ndarray, k: np.ndarray) -> np.ndarray:
    """sum_a counts[a] K^{*a}: by repeated squaring when the count is fixed, else by Horner's
    scheme (one convolution per possible count)."""
    live = np.flatnonzero(counts)
    if len(live) == 1:
        return counts[live[0]] * _power2(k, int(live[0]))
    out = counts[-1] * np.ones((1, 1))
    for p in counts[-2::-1]:
        out = conv2(out, k)
        out[0, 0] += p
    return out


def _power2(k: np.ndarray, a: int) -> np.ndarray:
    """K^{*a} by repeated squaring."""
    out = np.ones((1, 1))
    base = k
    while a:
        if a & 1:
            out = conv2(out, base)
        a >>= 1
        if a:
            base = conv2(base, base)
    return out


def _with_command_reroll(
    ap: AttackProfile, attacks: np.ndarray, k: np.ndarray, hit: bool = False
) -> np.ndarray:
    """P[n, m] over the attacks in order, with a two-valued state "the re-roll is still
    available" (the Command Re-roll's Wound roll; with ``hit``, a single Hit re-roll): after
    a attacks, ``kept`` (never spent) and ``spent`` (spent on one of them)."""
    keep, spend = hit_reroll_kernels(ap) if hit else command_reroll_kernels(ap)
    out = np.zeros((1, 1))
    kept = np.ones((1, 1))
    spent = np.zeros((1, 1))
    for a, p in enumerate(attacks):
        if a:
            kept, spent = conv2(kept, keep), _pad_add(conv2(spent, k), conv2(kept, spend))
        if p:
            out = _pad_add(out, p * _pad_add(kept, spent))
    return np.clip(out, 0.0, None)


def _one_hot(cls: int, n: int = 3) -> np.ndarray:
    out = np.zeros(n)
    out[cls] = 1.0
    return out


def _substituted_attack(
    ap: AttackProfile, ph: np.ndarray, rest: tuple[int, ...]
) -> list[np.ndarray]:
    """One attack (Hit roll classes ``ph``) while the Wound-roll results ``rest`` are still to
    be used on the next Wound rolls made: its (normal wounds, devastating Critical Wounds)
    distribution split by how many of them its own Wound rolls use (index s: ``rest[:s]``).
    Its Wound rolls are its own hit's (a normal hit, or a Critical Hit without [LETHAL HITS])
    and its Sustained Hits' extra hits; a substituted result is fixed, never re-rolled."""
    g = per_hit_kernel(ap)
    out = [np.zeros((1, 1)) for _ in range(len(rest) + 1)]

    def add(p: float, rolls: int, head: np.ndarray) -> None:
        s = min(rolls, len(rest))
        k = head
        for f in rest[:s]:
            k = conv2(k, per_hit_kernel(ap, _one_hot(ap.wound.outcome[f])))
        out[s] = _pad_add(out[s], p * conv2(k, _power2(g, rolls - s)))

    one = np.ones((1, 1))
    if ap.hit is None:  # hits automatically: one hit, one Wound roll
        add(1.0, 1, one)
        return [_trim2(k) for k in out]
    out[0] = _pad_add(out[0], ph[MISS] * one)
    add(float(ph[HIT]), 1, one)
    extras = ap.sustained if ap.sustained is not None else np.ones(1)
    for e, pe in enumerate(extras):
        if not pe:
            continue
        if ap.lethal:  # a wound without a Wound roll, then the extra hits roll
            add(float(ph[CRIT] * pe), e, np.array([[0.0], [1.0]]))
        else:
            add(float(ph[CRIT] * pe), 1 + e, one)
    return [_trim2(k) for k in out]


def _with_substitutes(ap: AttackProfile, attacks: np.ndarray) -> np.ndarray:
    """P[n, m] over the attacks in order when some of their Hit and Wound rolls are
    substituted (``ap.substituted``): attack ``i`` rolls to hit with the result ``hits[i]``
    while there is one, and the first Wound rolls made take ``wounds`` in turn (a state: how
    many are used so far)."""
    sub = ap.substituted
    assert sub is not None
    faces = sub.wounds
    table = ap.hit
    ph_table = table.probabilities(3) if table is not None else np.ones(3)
    plain: dict[int, list[np.ndarray]] = {}  # per state: the kernels of an unsubstituted attack

    def kernels(i: int, j: int) -> list[np.ndarray]:
        if table is not None and i < len(sub.hits):
            return _substituted_attack(ap, _one_hot(table.outcome[sub.hits[i]]), faces[j:])
        if j not in plain:
            plain[j] = _substituted_attack(ap, ph_table, faces[j:])
        return plain[j]

    out = np.zeros((1, 1))
    states = [np.ones((1, 1))] + [np.zeros((1, 1)) for _ in faces]
    for a, p in enumerate(attacks):
        if a:
            new = [np.zeros((1, 1)) for _ in states]
            for j, v in enumerate(states):
                if not v.any():
                    continue
                for s, k in enumerate(kernels(a - 1, j)):
                    if k.any():
                        new[j + s] = _pad_add(new[j + s], conv2(v, k))
            states = new
        if p:
            for v in states:
                out = _pad_add(out, p * v)
    return np.clip(out, 0.0, None)


def _saved_outright(p2: np.ndarray, s: int) -> np.ndarray:
    """P[n, m] with ``s`` of the normal wounds saved outright (substituted saving throws that
    pass): n becomes max(n - s, 0)."""
    if not s or p2.shape[0] == 1:
        return p2
    out = p2[s:].copy() if p2.shape[0] > s else np.zeros((1, p2.shape[1]))
    out[0] += p2[: min(s, p2.shape[0])].sum(axis=0)
    return out


def _substituted_hits(ap: AttackProfile, attacks: np.ndarray) -> float:
    """What substituting the first Hit rolls changes in the expected hits: for each, P(that
    many attacks are made) x (the hits of the fixed result - those of a roll)."""
    sub, table = ap.substituted, ap.hit
    if sub is None or table is None or not sub.hits:
        return 0.0
    extra = _mean(ap.sustained) if ap.sustained is not None else 0.0
    per = (0.0, 1.0, 1.0 + extra)
    mean = float(np.dot(table.probabilities(3), per))
    tail = np.cumsum(attacks[::-1])[::-1]  # tail[i] = P(attacks >= i)
    return sum(
        float(tail[i + 1] if i + 1 < len(tail) else 0.0) * (per[table.outcome[f]] - mean)
        for i, f in enumerate(sub.hits)
    )


def joint_cost(
    ap: AttackProfile,
    models_at_selection: int,
    per_attack: tuple[np.ndarray, float] | None = None,
) -> float:
    """Operations :func:`wound_joint` would take: one 2-D convolution per possible number of
    attacks, on an array growing to (max wounds x max devastating wounds). ``per_attack``:
    :func:`per_attack_kernel` of ``ap`` when the caller has it already."""
    # the largest total of AttackProfile.attack_pmf, without its convolutions
    amax = ap.models * (len(ap.attacks) - 1 + ap.blast * (models_at_selection // 5))
    k, _ = per_attack_kernel(ap) if per_attack is None else per_attack
    size = (amax * (k.shape[0] - 1) + 1) * (amax * (k.shape[1] - 1) + 1)
    return float(amax) * size * np.count_nonzero(k) / 2


def wound_joint(
    ap: AttackProfile,
    models_at_selection: int,
    per_attack: tuple[np.ndarray, float] | None = None,
    attacks: np.ndarray | None = None,
) -> tuple[np.ndarray, dict]:
    """Joint distribution P[n, m] of the weapon's normal wounds n and devastating Critical
    Wounds m over all its attacks, and its expected attacks, hits and wounds. With substituted
    dice (``ap.substituted``), its first Hit and Wound rolls take the fixed results, and n
    counts the normal wounds left to roll saves for once the substituted saving throws have
    saved theirs (the expected wounds count every wound). ``per_attack``:
    :func:`per_attack_kernel` of ``ap`` when the caller has it already (read, not changed);
    ``attacks``: ``ap.attack_pmf(models_at_selection)`` likewise.

    Raises:
        ValueError: two single re-rolls on one weapon, or substituted dice the engines cannot
            resolve (``AttackProfile.check_substituted``).
    """
    if attacks is None:
        attacks = ap.attack_pmf(models_at_selection)
    k, hits_per_attack = per_attack_kernel(ap) if per_attack is None else per_attack
    if ap.command_reroll and ap.reroll_one_hit:
        raise ValueError("one single re-roll per weapon profile (a Hit or a Wound roll)")
    ap.check_substituted()
    sub = ap.substituted
    if sub and (sub.hits or sub.wounds):
        out = _with_substitutes(ap, attacks)
    elif ap.command_reroll:
        out = _with_command_reroll(ap, attacks, k)
    elif ap.reroll_one_hit and ap.hit is not None:
        out = _with_command_reroll(ap, attacks, k, hit=True)
    else:
        out = _compound2(attacks, k)
    mean_attacks = _mean(attacks)
    hits = mean_attacks * hits_per_attack
    if ap.reroll_one_hit and ap.hit is not None and not ap.command_reroll:
        hits += _single_hit_reroll_hits(ap, attacks)
    hits += _substituted_hits(ap, attacks)
    wounds = float(
        (out.sum(axis=1) * np.arange(out.shape[0])).sum()
        + (out.sum(axis=0) * np.arange(out.shape[1])).sum()
    )
    if sub and sub.saves:  # wounds still count the wounds saved outright
        out = _saved_outright(out, len(sub.saves))
    return _trim2(out), {
        "attacks": mean_attacks,
        "hits": hits,
        "wounds": wounds,
    }


def _single_hit_reroll_hits(ap: AttackProfile, attacks: np.ndarray) -> float:
    """The expected hits one Hit re-roll (or a Hit roll changed to ``single_face``) adds
    (``reroll_one_hit``): P(some Hit roll is one it is spent on, :func:`spent_roll`) x the
    hits of what that roll becomes (a Critical Hit with its Sustained Hits)."""
    table = ap.hit
    assert table is not None
    e, fresh = spent_roll(table, ap.single_face, MISS)
    extra = _mean(ap.sustained) if ap.sustained is not None else 0.0
    none = float(np.dot(attacks, (1.0 - e) ** np.arange(len(attacks))))
    return (1.0 - none) * float(fresh[HIT] + fresh[CRIT] * (1.0 + extra))

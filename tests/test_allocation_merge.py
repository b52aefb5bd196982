"""An exchange resolves a turn from each number of models the attacker has left, each with its
own defender's allocation orders: a first fresh-user trial saw a dozen near-identical lines
("Boss Nob, Boy ×19 for 1-27 save rolls", "... for 1-25", ... "for 1-3"). Each weapon
profile's orders are said once, their counts of save rolls joined
(``resolve.merged_allocation``)."""

from __future__ import annotations

from helpers import cli

from wh40k_calc.resolve import AllocationChoice, merged_allocation

HEAD = "Choppa: defender's allocation order (05.03, fewest models destroyed)"


def _choice(head: str, *parts: tuple[str, tuple[int, ...] | None]) -> AllocationChoice:
    names = tuple(n for n, _ in parts)
    counts = tuple(c for _, c in parts)
    words = tuple(f"{n} for {c} save rolls" for n, c in parts)
    return AllocationChoice(head, words, names, counts)


def test_one_head_is_one_sentence_its_counts_joined() -> None:
    a = _choice(HEAD, ("Boy ×9, Boss Nob", (1, 2, 3)))
    b = _choice(HEAD, ("Boy ×9, Boss Nob", (5, 6)), ("Boss Nob, Boy ×9", (7,)))
    other = _choice("Slugga: defender's allocation order (05.03, fewest models destroyed)",
                    ("Boy ×9, Boss Nob", (1,)))  # fmt: skip
    [joined, kept] = merged_allocation([a, b, other])
    assert joined.sentence == (
        f"{HEAD}: Boy ×9, Boss Nob for 1-3, 5-6 save rolls; Boss Nob, Boy ×9 for 7 save rolls"
    )
    assert kept is other


def test_counts_split_by_devastating_wounds_are_left_as_they_are() -> None:
    a = _choice(HEAD, ("Boy ×9, Boss Nob", None))
    b = _choice(HEAD, ("Boy ×9, Boss Nob", (1,)))
    assert merged_allocation([a, b]) == [a, b]


def test_an_exchange_says_each_profile_s_orders_once() -> None:
    run = cli("exchange", "--side-a", "fight boyz --models 20 --charged", "--side-b",
              "fight intercessor-squad --models 10 --leader captain", "--edition", "11",
              env={"COLUMNS": "300"})  # fmt: skip
    assert run.exit_code == 0, run.output
    lines = [ln for ln in run.stdout.splitlines() if ln.startswith("Choice")]
    heads = [ln.split("defender's allocation order")[0] for ln in lines]
    assert len(heads) == len(set(heads)), lines  # one line a weapon profile
    assert any("Close combat weapon (Intercessor Squad)" in ln and "for 1-27 save rolls" in ln
               for ln in lines)  # fmt: skip

"""The README's words on ``calc compare --json``'s ``"compared"`` object against the object
(issue 21, a fresh-user trial: the README called ``sort`` "the --sort figure", where the JSON
gives the ``--sort`` value): the keys it names are the object's, and for each ``--sort`` value
the README maps to a figure, ``sort`` is that value and the ``best`` rows are the best of
their target by that figure."""

from __future__ import annotations

import json
import re
from pathlib import Path

from helpers import cli

README = Path(__file__).resolve().parents[1] / "README.md"
LOWER_IS_BETTER = {"losses"}  # "fewest first" (the README's --sort list)


def _doc() -> tuple[list[str], dict[str, str]]:
    """The keys the README names for ``compared`` and its map of --sort value to figure."""
    text = " ".join(README.read_text(encoding="utf-8").split())
    para = text[text.index('`"compared"` last') :]
    para = para[: para.index("`--csv PATH`")]
    m = re.search(r"which rank by (.*?)\)", para)
    assert m is not None, para
    sorts = re.search(r"row \((.*?), which rank by", para)
    assert sorts is not None, para
    values = re.findall(r"`(\w+)`", sorts.group(1))
    figures = re.findall(r"`(\w+)`", m.group(1))
    assert len(values) == len(figures) == 5, (values, figures)
    figures_part = para[para.index("as the CSV has them (") : para.index("), then `sort`")]
    keys = re.findall(r"`(\w+)`", figures_part)
    assert "`sort`: the `--sort` value" in para and "`best`: whether the row" in para
    return [*keys, "sort", "best"], dict(zip(values, figures, strict=True))


def test_the_readme_names_the_compared_keys_and_what_sort_holds() -> None:
    keys, by_sort = _doc()
    for value, figure in by_sort.items():
        result = cli("compare", "lootas", "--loadout", "default", "--loadout",
                     "kustom-mega-blastas", "--target", "boyz", "--target", "rhino",
                     "--sort", value, "--json")  # fmt: skip
        assert result.exit_code == 0, result.output
        rows = [r["compared"] for r in json.loads(result.stdout)]
        assert keys == list(rows[0])  # the README's keys, in the object's order
        assert {r["sort"] for r in rows} == {value}
        for target in ("Boyz", "Rhino"):
            mine = [
                c
                for r, c in zip(json.loads(result.stdout), rows, strict=True)
                if r["target"]["name"] == target
            ]
            pick = min if value in LOWER_IS_BETTER else max
            top = pick(c[figure] for c in mine)
            assert [c["best"] for c in mine] == [c[figure] == top for c in mine], (value, mine)

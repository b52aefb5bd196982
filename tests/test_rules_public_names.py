"""The rules layer's modules use each other's public names only (issue 21's leftovers:
``rules/unread.py`` called ``activation._built`` and ``applied._unit_rules``, now
``built_unit`` and ``datasheet_rules``): no module of ``wh40k_calc/rules`` imports a name
starting with ``_`` from another module (at module level or inside a function), read from
the source with :mod:`ast`."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "wh40k_calc" / "rules"


def _private_imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    out.append(f"{path.name}: from {'.' * node.level}{node.module} {alias.name}")
    return out


def test_no_rules_module_imports_a_private_name() -> None:
    found = [x for path in sorted(RULES.glob("*.py")) for x in _private_imports(path)]
    assert not found, found


def test_the_public_names_unread_uses() -> None:
    from wh40k_calc.rules import activation, applied

    for f in (activation.built_unit, applied.datasheet_rules):
        doc = f.__doc__ or ""
        assert "Raises" in doc or "Returns" in doc, f.__name__

"""No module-level import cycle inside ``wh40k_calc`` (issue 21, C: "A lower layer never imports
a higher one"; STYLE.md).

The graph is read from the source with :mod:`ast`, not by importing: every ``import X`` and
``from X import Y`` at module level (relative forms resolved, ``from . import x`` counted as an
import of the submodule ``x``) is an edge. Imports inside functions (the lazy ones that keep
start-up cheap) and inside ``if TYPE_CHECKING:`` blocks (type hints only) are not edges: they run
after every module has loaded, or never. A cycle fails the test naming its modules in order.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = "wh40k_calc"
ROOT = Path(__file__).resolve().parents[1] / PACKAGE


def module_name(path: Path, root: Path = ROOT) -> str:
    """``wh40k_calc/rules/base.py`` -> ``wh40k_calc.rules.base``; a package's ``__init__.py``
    is the package itself."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _module_level(body: list[ast.stmt], lazy: bool = False):
    """The import statements that run when the module is imported: at the top level and in
    top-level ``if``/``try``/``with`` blocks, not in functions, classes' methods or
    ``if TYPE_CHECKING:``. With ``lazy``, those in functions and methods too (still not
    those under ``TYPE_CHECKING``)."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _module_level(node.body, lazy)
            yield from _module_level(node.orelse, lazy)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _module_level(block, lazy)
            for handler in node.handlers:
                yield from _module_level(handler.body, lazy)
        elif isinstance(node, (ast.With, ast.ClassDef)):
            yield from _module_level(node.body, lazy)
        elif lazy and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from (n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))


def imports_of(path: Path, modules: set[str], root: Path = ROOT, lazy: bool = False) -> set[str]:
    """The modules of ``modules`` that ``path`` imports at module level (with ``lazy``, in
    its functions too)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _module_level(ast.parse(path.read_text(encoding="utf-8")).body, lazy):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # `from X import y`: y may be a submodule of X (an import of X.y) or a name in X
            targets = [f"{source}.{a.name}" for a in node.names] + [source]
        for t in targets:
            while t:  # importing a.b.c imports the packages a and a.b first
                if t in modules:
                    out.add(t)
                t = t.rpartition(".")[0]
    # the module's own packages are loaded before it, whatever it imports: no edge
    return {t for t in out if t != name and not name.startswith(t + ".")}


def import_graph(root: Path = ROOT, lazy: bool = False) -> dict[str, set[str]]:
    """Each module of the package at ``root`` -> the package's modules it imports at module
    level (with ``lazy``, in functions too)."""
    paths = sorted(root.rglob("*.py"))
    modules = {module_name(p, root) for p in paths}
    return {module_name(p, root): imports_of(p, modules, root, lazy) for p in paths}


@functools.lru_cache(maxsize=2)
def _package_graph(lazy: bool) -> dict[str, frozenset[str]]:
    return {m: frozenset(i) for m, i in import_graph(lazy=lazy).items()}


def package_graph(lazy: bool = False) -> dict[str, set[str]]:
    """:func:`import_graph` of the package (a copy to change at will), parsed once a worker
    for each of ``lazy``: several tests read it, and the package does not change meanwhile."""
    return {m: set(i) for m, i in _package_graph(lazy).items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as its modules in import order (the first repeated at the end),
    or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle_in_the_package() -> None:
    cycle = find_cycle(package_graph())
    assert cycle is None, "module-level import cycle: " + " -> ".join(cycle or [])


# Cycles closed by an import inside a function, left as they are (outside issue 21's three):
# sequence.run runs a sequence's sampler half, which builds on run's step results.
LAZY_CYCLES_KEPT = [{"wh40k_calc.sequence.run", "wh40k_calc.sequence.sampled"}]


def test_no_cycle_through_lazy_imports_either() -> None:
    """The three cycles of issue 21 were each closed by an import inside a function (catalog
    and abilities/validation, request and cli, rules.base and rules.idle): a lazy import keeps
    start-up cheap but must still point down the layers. Counted here with the imports in
    functions (not those under ``TYPE_CHECKING``), apart from :data:`LAZY_CYCLES_KEPT`."""
    graph = package_graph(lazy=True)
    for kept in LAZY_CYCLES_KEPT:
        a, b = sorted(kept)
        assert b in graph[a] or a in graph[b], f"{kept} is no longer a cycle: drop it from the list"
        graph[a] = graph[a] - {b}
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle through a lazy import: " + " -> ".join(cycle or [])


# The checker itself: it must see each import form the package uses, and find a cycle.


def _graph_of(tmp_path: Path, files: dict[str, str], lazy: bool = False) -> dict[str, set[str]]:
    root = tmp_path / PACKAGE
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return import_graph(root, lazy)


@pytest.mark.parametrize(
    ("text", "cyclic"),
    [
        ("from . import b\n", True),  # `from . import x`: the submodule x
        ("from .b import thing\n", True),
        ("import wh40k_calc.b\n", True),
        ("from wh40k_calc import b\n", True),
        ("def f():\n    from . import b\n", False),  # inside a function: lazy
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import b\n", False),
        ("try:\n    from . import b\nexcept ImportError:\n    pass\n", True),
    ],
)
def test_the_checker_sees_each_import_form(tmp_path, text, cyclic) -> None:
    graph = _graph_of(tmp_path, {"__init__.py": "", "a.py": text, "b.py": "from .a import x\n"})
    cycle = find_cycle(graph)
    assert (cycle is not None) == cyclic, (text, graph)
    lazy = find_cycle(_graph_of(tmp_path, {}, lazy=True))
    assert (lazy is not None) == (cyclic or "def f" in text), text
    if cyclic:
        assert cycle[0] == cycle[-1] and set(cycle) == {"wh40k_calc.a", "wh40k_calc.b"}


def test_the_checker_resolves_relative_imports_in_subpackages(tmp_path) -> None:
    graph = _graph_of(
        tmp_path,
        {
            "__init__.py": "",
            "low.py": "from .rules.base import x\n",
            "rules/__init__.py": "",
            "rules/base.py": "from ..low import y\nfrom .idle import z\n",
            "rules/idle.py": "from . import base\n",
        },
    )
    assert graph["wh40k_calc.rules.base"] == {"wh40k_calc.low", "wh40k_calc.rules.idle"}
    assert graph["wh40k_calc.low"] == {"wh40k_calc.rules", "wh40k_calc.rules.base"}
    assert graph["wh40k_calc.rules.idle"] == {"wh40k_calc.rules.base"}  # not its own package
    assert find_cycle(graph) == ["wh40k_calc.low", "wh40k_calc.rules.base", "wh40k_calc.low"]


# The layers of ARCHITECTURE.md, from the bottom: what each of the two middle layers may use.
LAYER_RULES = {
    # the engines know profiles and dice (and the records they are made of), nothing of
    # datasheets, rules or selections
    "wh40k_calc.engine": {
        "wh40k_calc.engine",
        "wh40k_calc.profile",
        "wh40k_calc.dice",
        "wh40k_calc.records",
    },
    # the rules layer: the data model and the selection below it, never the engines above
    "wh40k_calc.rules": {
        "wh40k_calc.rules",
        "wh40k_calc.records",
        "wh40k_calc.profile",
        "wh40k_calc.dice",
        "wh40k_calc.selection",
        "wh40k_calc.units",
        "wh40k_calc.datasheet",
        "wh40k_calc.abilities",
        "wh40k_calc.effects",
        "wh40k_calc.effect_schema",
        "wh40k_calc.effect_files",
        "wh40k_calc.effect_coverage",
        "wh40k_calc.miracle_dice",  # an effect record's Miracle dice options (data model)
        "wh40k_calc.fuzzy",
        "wh40k_calc.wording",
        "wh40k_calc.notes",  # the notes' types (bottom layer: imports nothing)
        "wh40k_calc.kept",  # the bounded store of values made once (bottom layer)
    },
}


@pytest.mark.parametrize("layer", sorted(LAYER_RULES))
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    """DESIGN.md: the rules are resolved into profiles; the engines only do probability and
    never learn a rule's name. Lazy imports count too."""
    allowed = LAYER_RULES[layer]
    graph = package_graph(lazy=True)
    for module, imported in graph.items():
        if module != layer and not module.startswith(layer + "."):
            continue
        for other in imported:
            assert any(other == a or other.startswith(a + ".") for a in allowed), (
                f"{module} imports {other}, above its layer"
            )

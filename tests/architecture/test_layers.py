"""The package's imports point down the pipeline and form no cycle.

Every ``tograph`` module belongs to a layer (its package); a module may import modules of its own
layer or of lower ones, never higher. Imports inside functions count too: a lazy import is still a
dependency. ``docs/architecture.md`` draws the same picture.
"""

from __future__ import annotations

import ast
import pathlib

import tograph

ROOT = pathlib.Path(tograph.__file__).parent

# Lowest first. Packages on one line share a layer and may import each other (without cycles).
LAYERS: list[tuple[str, ...]] = [
    ("errors", "origin", "caching", "layout_check"),
    ("ir",),
    ("trace",),
    ("ops",),
    ("eager",),
    ("frontend",),
    ("analysis",),
    ("lowering",),
    ("staging",),
    ("passes", "backend", "autodiff"),
    ("concrete", "api"),
    ("gradients", "gradient_tape"),
    ("export",),
    ("distributed",),
    ("__init__", "cli", "__main__", "bench", "coverage"),
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def _module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _typing_only(tree: ast.Module) -> set[ast.AST]:
    """Nodes inside ``if TYPE_CHECKING:`` blocks (annotations only: no run-time dependency)."""
    return {
        inner
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
        for stmt in node.body
        for inner in ast.walk(stmt)
    }


def _imports(path: pathlib.Path, module: str, typing_only: bool) -> set[str]:
    """The tograph modules ``path`` imports (``from tograph.x import y`` counts ``tograph.x.y``
    when that is a module, else ``tograph.x``); with ``typing_only``, annotation imports too."""
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    skipped = set() if typing_only else _typing_only(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if node in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + [base]
                ).strip(".")
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in MODULES else base)
    return {name for name in found if name == "tograph" or name.startswith("tograph.")}


PATHS = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}
MODULES = set(PATHS)
GRAPH = {name: _imports(path, name, typing_only=False) - {name} for name, path in PATHS.items()}
ALL_IMPORTS = {
    name: _imports(path, name, typing_only=True) - {name} for name, path in PATHS.items()
}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_every_package_has_a_layer():
    assert {_layer(m) for m in MODULES} <= set(RANK)


def test_imports_point_down():
    upward = [
        f"{module} -> {target}"
        for module, targets in ALL_IMPORTS.items()
        for target in targets
        if target != "tograph" and RANK[_layer(target)] > RANK[_layer(module)]
    ]
    assert upward == []


def test_no_import_cycles():
    """No cycle among run-time imports (annotation-only imports may point back within a layer)."""
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(GRAPH.get(node, ())):
            if target not in GRAPH:
                continue
            if state.get(target) == 1:
                cycles.append(path[path.index(target) :] + [target])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module, [module])
    assert cycles == []

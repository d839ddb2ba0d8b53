"""The ``tle`` package's import structure: no import cycles, and the language
layer (``tle.language``) below the bridge.

The graph is read from the source (every ``import`` / ``from ... import``
statement, function-local ones included), not from what Python happened to
load: an import written inside a function to dodge a cycle is still a cycle.
Importing ``a.b.c`` also runs ``a/__init__.py`` and ``a/b/__init__.py``; those
implicit parent-package edges are left out (every module would otherwise sit
in a cycle with the package ``__init__`` that re-exports it).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "tle"

# What the language layer may import from the rest of the package: the
# enablement state the bridge writes and the language reads.
LANGUAGE_MAY_IMPORT = {"tle._state"}


def _modules(package_dir: Path, package: str) -> dict:
    """Dotted module name -> source file, for every .py file of the package."""
    modules = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(package_dir).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join([package] + parts)] = path
    return modules


def _bound_names(tree: ast.Module) -> set:
    """The names a module's top level binds (what ``from module import name`` can find there)."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def import_graph(package_dir: Path = PACKAGE_DIR, package: str = "tle") -> dict:
    """Module -> the package's modules it imports (anywhere in its source)."""
    modules = _modules(package_dir, package)
    trees = {name: ast.parse(path.read_text(), str(path)) for name, path in modules.items()}
    bound = {name: _bound_names(tree) for name, tree in trees.items()}
    graph = {}
    for name, tree in trees.items():
        is_package = modules[name].name == "__init__.py"

        def above(target):
            # The module itself or one of its packages: already imported, not an edge.
            return name == target or name.startswith(target + ".")

        edges = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    prefixes = (".".join(parts[:i]) for i in range(1, len(parts) + 1))
                    edges.update(p for p in prefixes if p in modules and not above(p))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".")
                    if not is_package:
                        base.pop()
                    base = base[:len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module
                if target not in modules:
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in modules:
                        # `from pkg import sub`: the submodule (and pkg/__init__.py, unless pkg is above us).
                        edges.add(sub)
                        if not above(target):
                            edges.add(target)
                    elif alias.name in bound[target] or not above(target):
                        # A name the module defines (from outside a package, its __init__.py runs anyway).
                        edges.add(target)
                    # Otherwise a submodule of a package above us that is no .py file (an extension module).
        edges.discard(name)
        graph[name] = edges
    return graph


def find_cycles(graph: dict) -> list:
    """The graph's import cycles: each strongly connected component of more
    than one module (or a module importing itself), as a sorted list."""
    index, low, on_stack, stack, cycles = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(cycles)


def _describe(graph: dict, cycles: list) -> str:
    lines = []
    for component in cycles:
        members = set(component)
        lines.append("cycle: " + ", ".join(component))
        lines += [f"  {v} -> {w}" for v in component for w in sorted(graph[v] & members)]
    return "\n".join(lines)


def test_no_import_cycles():
    graph = import_graph()
    assert "tle.language.core" in graph and "tle._bridge" in graph, sorted(graph)
    cycles = find_cycles(graph)
    assert not cycles, "import cycles in python/tle:\n" + _describe(graph, cycles)


def test_language_layer_is_below_the_bridge():
    graph = import_graph()
    upward = {(v, w)
              for v, targets in graph.items() if v.startswith("tle.language")
              for w in targets if not w.startswith("tle.language") and w not in LANGUAGE_MAY_IMPORT}
    assert not upward, ("tle.language imports from above it (the bridge imports the language, never the "
                        f"reverse): {sorted(upward)}")


def test_checker_finds_cycles(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import f\n")
    (pkg / "a.py").write_text("from . import _ext, b\n\ndef f():\n    return b\n")  # _ext: an extension module
    # A function-local import closing the circle counts.
    (pkg / "b.py").write_text("def g():\n    from .a import f\n    return f\n")
    (pkg / "c.py").write_text("import pkg.sub.d\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "d.py").write_text("from .. import c, f\nfrom ..a import f\n")
    (pkg / "e.py").write_text("from pkg import a\nfrom .sub import d\n")
    graph = import_graph(pkg, "pkg")
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.b"},
        "pkg.b": {"pkg.a"},
        "pkg.c": {"pkg.sub", "pkg.sub.d"},
        "pkg.sub": set(),
        "pkg.sub.d": {"pkg", "pkg.a", "pkg.c"},
        "pkg.e": {"pkg.a", "pkg.sub", "pkg.sub.d"},
    }
    assert find_cycles(graph) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.sub.d"]]

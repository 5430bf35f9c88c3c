"""engine/'s imports go one way (issue 32.2): value types, errors and constants at the bottom,
then the savers and channels, then pregel, the builders on top.

The graph counts imports inside functions (they run on first call) and leaves out those under
`if TYPE_CHECKING:` (they never run). No circle of imports may join two of engine/'s top-level
folders or modules. The only imports reaching up are the ones pyproject's import-linter contract
ignores, each inside a function with a comment naming the langgraph API that needs it.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path

import pytest

from graphspec.digraph import DiGraph, strongly_connected_components

ROOT = Path(__file__).resolve().parents[2]


def top(module: str) -> str:
    """The top-level folder or module of engine/ a module belongs to (`engine.pregel`)."""
    return ".".join(module.split(".")[:2])


def source_path(module: str) -> Path:
    package = ROOT.joinpath(*module.split("."))
    return package / "__init__.py" if package.is_dir() else package.with_suffix(".py")


def sanctioned_imports() -> list[tuple[str, str]]:
    """(importer, imported) of the upward imports the engine-layers contract ignores."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["id"] == "engine-layers"]
    return [tuple(part.strip() for part in line.split("->")) for line in contract["ignore_imports"]]


# grimp runs in a fresh interpreter: other tests leave sys.modules as they need it, and grimp
# finds the package through the import system
_DUMP = """
import json, sys, grimp, engine
graph = grimp.build_graph("engine", exclude_type_checking_imports=True, cache_dir=None)
imports = {
    module: {
        target: [
            (d["line_number"], d["line_contents"])
            for d in graph.get_import_details(importer=module, imported=target)
        ]
        for target in graph.find_modules_directly_imported_by(module)
    }
    for module in graph.modules
}
json.dump({"origin": engine.__file__, "imports": imports}, sys.stdout)
"""


@cache
def direct_imports() -> dict[str, dict[str, list[tuple[int, str]]]]:
    """module -> module it imports -> [(line, statement)], imports inside functions included."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", _DUMP], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert Path(found["origin"]) == ROOT / "engine" / "__init__.py", found["origin"]
    return found["imports"]


def lazily_named(module: str, modules: set[str]) -> set[str]:
    """Modules a module loads by name through importlib.import_module (or engine._lazy's
    lazy_names, which calls it)."""
    source = source_path(module).read_text()
    if "import_module" not in source and "lazy_names(" not in source:
        return set()
    return {
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and node.value in modules and node.value != module
    }


def runtime_edges(leave_out: list[tuple[str, str]] = ()) -> DiGraph:
    """Who makes whom load: grimp's direct imports, plus the packages a submodule's import runs
    (`import engine.pregel.algo` runs engine/pregel/__init__.py) and the modules loaded by name.
    A package's PEP 562 table loads its modules when a name is taken from the package, so those
    count for the package's importers, not for a submodule's."""
    imports = direct_imports()
    modules = set(imports)
    tables = {m: lazily_named(m, modules) for m in modules if source_path(m).name == "__init__.py"}
    edges = DiGraph()
    edges.add_nodes_from(sorted(modules))
    for module in sorted(modules):
        direct = set(imports[module])
        targets = direct if module in tables else direct | lazily_named(module, modules)
        for target in sorted(targets):
            if (module, target) in leave_out:
                continue
            edges.add_edge(module, target)
            for loaded in tables.get(target, ()):
                edges.add_edge(module, loaded)
            parts = target.split(".")
            for i in range(2, len(parts)):
                package = ".".join(parts[:i])
                if not module.startswith(package + "."):  # its own packages loaded first
                    edges.add_edge(module, package)
    return edges


def crossing_cycles(edges: DiGraph) -> list[set[str]]:
    """Each strongly connected set of modules that spans two top-level parts of engine/."""
    return [
        component
        for component in strongly_connected_components(edges)
        if len({top(m) for m in component}) > 1
    ]


def describe(edges: DiGraph, component: set[str]) -> str:
    """The imports inside a circle that cross from one top-level part to another."""
    imports = direct_imports()
    lines = [f"{len(component)} modules across {sorted({top(m) for m in component})}:"]
    for module in sorted(component):
        for target in sorted(set(edges.successors(module)) & component):
            if top(module) == top(target):
                continue
            details = imports[module].get(target, [])
            for line, statement in details:
                lines.append(f"  {module}:{line} {statement}")
            if not details:  # a package run by a submodule's import, or a PEP 562 table
                lines.append(f"  {module} loads {target}")
    return "\n".join(lines)


def test_no_circle_of_imports_joins_two_parts_of_the_engine():
    edges = runtime_edges(leave_out=sanctioned_imports())
    circles = crossing_cycles(edges)
    assert not circles, "\n".join(describe(edges, c) for c in circles)


def enclosing_functions(tree: ast.AST) -> dict[int, bool]:
    """Line of each import statement -> whether it sits inside a function body."""
    inside: dict[int, bool] = {}

    def visit(node: ast.AST, in_function: bool) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            inside[node.lineno] = in_function
        for child in ast.iter_child_nodes(node):
            visit(child, in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(tree, False)
    return inside


def comment_above(lines: list[str], lineno: int) -> str:
    """The comment lines right above line `lineno` (1-based), joined."""
    above: list[str] = []
    for line in reversed(lines[: lineno - 1]):
        if not line.strip().startswith("#"):
            break
        above.append(line.strip())
    return " ".join(reversed(above))


@pytest.mark.parametrize("importer, imported", sanctioned_imports())
def test_an_import_reaching_up_is_lazy_and_says_why(importer, imported):
    details = direct_imports()[importer].get(imported)
    assert details, f"{importer} no longer imports {imported}: drop it from ignore_imports"
    source = source_path(importer).read_text()
    inside = enclosing_functions(ast.parse(source))
    lines = source.splitlines()
    for line, statement in details:
        where = f"{importer}:{line} ({statement})"
        assert inside[line], f"{where} runs when the module loads"
        assert "langgraph" in comment_above(lines, line), (
            f"{where} needs a comment naming the langgraph API that makes it reach up"
        )


def test_the_graph_sees_imports_inside_functions_and_by_name():
    """The checks above stand on these: imports inside functions and by name count."""
    edges = runtime_edges()
    assert edges.has_edge("engine.types", "engine.config")  # inside interrupt()
    assert edges.has_edge("engine.agents.chat_models", "engine.agents.scripted")  # by name
    assert "engine.graph.compiled" in lazily_named("engine.graph", set(direct_imports()))
    assert edges.has_edge("engine.graph.state", "engine.pregel")  # runs pregel/__init__.py
    assert not edges.has_edge("engine.types", "engine.pregel.read")  # under TYPE_CHECKING

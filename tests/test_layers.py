"""The package layers, checked on the source: one way down, no circles, argparse only in the CLI.

Layers (README, "How it works"):
``strips`` <- ``markov`` <- ``exact`` <- ``proofs`` <- ``exact.cli``.  A module
may import its own package and the packages below it, never one above; only
``exact/cli/`` imports argparse; only ``exact/cli/`` imports a project module
inside a function (its lazy loading of one command module) or by a string
(``importlib.import_module``, ``__import__``).  No relative imports; no import
cycle inside a layer (module-level imports).  A rule module (``exact/rules/``)
imports only ``strips``, the standard library, numpy and ``exact.rules``; every
other module reaches the rules through the registry (``exact.rules``,
``exact.rules.registry``), never a rule module.  No module of tests/ imports a
test module (shared generators live in tests/generators.py).
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RANK = {"strips": 0, "markov": 1, "exact": 2, "proofs": 3, "exact.cli": 4}
PROJECT = ("strips", "markov", "exact", "proofs")


def layer(module: str) -> str:
    """The layer of a dotted module name: ``exact.cli`` for the CLI subpackage, else the top package."""
    if module == "exact.__main__":   # python -m exact: the command line's entry point
        return "exact.cli"
    return "exact.cli" if module == "exact.cli" or module.startswith("exact.cli.") else module.split(".")[0]


def modules():
    for top in PROJECT:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


def imports(tree: ast.AST):
    """(imported module, node, inside a function) for every import of a project module."""
    def walk(node, in_function):
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for a in child.names:
                    yield a.name, child, in_function
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                yield child.module, child, in_function
                for a in child.names:   # "from exact import cli" imports exact.cli
                    yield f"{child.module}.{a.name}", child, in_function
            yield from walk(child, inside)
    yield from walk(tree, False)


MODULES = list(modules())


def test_every_package_is_scanned():
    names = {m for m, _ in MODULES}
    assert {"strips.loader", "markov.chain", "exact.engine", "proofs.enumerate", "exact.cli"} <= names


#: Package facades that import their public names on first use (PEP 562, so ``import exact`` and
#: ``rtp --help`` stay light): function-level imports, still one way down, and one computed import of
#: their own submodules (``f"exact.{name}"``).
FACADES = {"exact"}


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_imports_go_one_way_down(module, path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    mine = layer(module)
    for name, node, in_function in imports(tree):
        top = name.split(".")[0]
        if name == "argparse":
            assert mine == "exact.cli", f"{path}:{node.lineno}: argparse outside exact/cli/"
        if top not in PROJECT:
            continue
        if in_function:
            assert mine == "exact.cli" or module in FACADES, \
                f"{path}:{node.lineno}: function-level import of {name} outside the CLI"
        other = layer(name)
        assert RANK[other] <= RANK[mine], f"{path}:{node.lineno}: {mine} imports {name} ({other}), a layer above"


def test_nothing_imports_the_cli():
    for module, path in MODULES:
        if layer(module) == "exact.cli":
            continue
        for name, node, _ in imports(ast.parse(path.read_text(encoding="utf-8"))):
            assert layer(name) != "exact.cli", f"{path}:{node.lineno}: imports the CLI ({name})"


def test_the_checker_catches_an_upward_import(tmp_path):
    """The rule can fail: an exact module importing proofs is flagged."""
    tree = ast.parse("from proofs.certificate import build\n")
    found = [(n, layer(n)) for n, _, _ in imports(tree)]
    assert any(RANK[other] > RANK["exact"] for _, other in found)
    tree = ast.parse("def f():\n    from strips.loader import load_math_set\n")
    assert [inside for _, _, inside in imports(tree)] == [True, True]


# --------------------------------------------------------------------------
# relative imports, import strings, cycles, rule modules, test modules
# --------------------------------------------------------------------------
NAMES = {m for m, _ in MODULES}
#: What an analysis driver may import of the rule registry: the package or its registry module, never a rule module.
REGISTRY = {"exact.rules", "exact.rules.registry"}
TESTS = ROOT / "tests"


def relative_imports(tree: ast.AST) -> list[str]:
    """``from . import x`` / ``from .m import x`` anywhere in a module (they escape the layer check)."""
    return [f"line {n.lineno}: relative import" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level]


def _is_dynamic_import(call: ast.Call) -> bool:
    f = call.func
    return (isinstance(f, ast.Name) and f.id in ("__import__", "import_module")
            or isinstance(f, ast.Attribute) and f.attr == "import_module")


def _own_submodule(arg: ast.AST, own: str | None) -> bool:
    """Whether ``arg`` is the f-string ``f"{own}.{name}"``: a facade's import of its own submodule."""
    return (own is not None and isinstance(arg, ast.JoinedStr) and len(arg.values) == 2
            and isinstance(arg.values[0], ast.Constant) and arg.values[0].value == f"{own}."
            and isinstance(arg.values[1], ast.FormattedValue))


def import_strings(tree: ast.AST, own: str | None = None) -> list[str]:
    """``importlib.import_module(...)`` / ``__import__(...)`` of a project module (or of a computed name);
    ``own``: the package of a facade, whose ``f"{own}.{name}"`` imports of its own submodules are allowed."""
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and _is_dynamic_import(n) and n.args:
            arg = n.args[0]
            if _own_submodule(arg, own):
                continue
            if not isinstance(arg, ast.Constant):
                out.append(f"line {n.lineno}: dynamic import of a computed name")
            elif isinstance(arg.value, str) and arg.value.split(".")[0] in PROJECT:
                out.append(f"line {n.lineno}: dynamic import of {arg.value}")
    return out


def module_level_imports(tree: ast.AST, names=NAMES) -> set[str]:
    """The project modules a module imports when it is imported (not inside a function): each named
    module itself (``from a.b import c`` is ``a.b.c`` when that is a module, else ``a.b``)."""
    out = set()
    for node in _outside_functions(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            subs = {f"{node.module}.{a.name}" for a in node.names}
            out |= subs & names
            if subs - names and node.module in names:
                out.add(node.module)
    return out


def _outside_functions(tree: ast.AST):
    """Every node of ``tree`` that is not inside a function body."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        todo += [c for c in ast.iter_child_nodes(node)
                 if not isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (module -> modules it imports) as [a, b, ..., a]; [] when there is none."""
    state, stack = {}, []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return []

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return []


#: Imports of a rule module beyond the rule, waiting to move out (the pay-anywhere rule's per-reel law of counts
#: returns the enumerated phase's types); a new one fails.  Empty this, never grow it.
PENDING = {"exact.rules.anywhere": {"exact.phase_law", "markov.moments"}}


def rule_module_imports(tree: ast.AST, pending=frozenset()) -> list[str]:
    """Imports of an ``exact/rules/`` module beyond ``strips``, the standard library, numpy and ``exact.rules``."""
    out = []
    for name, node, _ in imports(tree):
        top = name.split(".")[0]
        if isinstance(node, ast.ImportFrom) and name != node.module:
            continue                      # "from m import x": judged by m
        if top in sys.stdlib_module_names or top in ("strips", "numpy") or name == "exact.rules" \
                or name.startswith("exact.rules.") or name in pending:
            continue
        out.append(f"line {node.lineno}: imports {name}")
    return out


def rule_module_uses(tree: ast.AST, names=NAMES) -> list[str]:
    """Imports of a rule module (``exact.rules.<mechanic>``) by a module outside ``exact/rules/``."""
    return [f"line {node.lineno}: imports the rule module {name} (use exact.rules)"
            for name, node, _ in imports(tree)
            if name.startswith("exact.rules.") and name in names and name not in REGISTRY]


def test_imports(tree: ast.AST) -> list[str]:
    """Imports of a test module (``test_*``) by any module of tests/."""
    out = []
    for n in ast.walk(tree):
        mods = ([a.name for a in n.names] if isinstance(n, ast.Import) else
                [n.module] if isinstance(n, ast.ImportFrom) and n.module else [])
        out += [f"line {n.lineno}: imports the test module {m}" for m in mods if m.split(".")[-1].startswith("test_")
                or m.startswith("tests.test_")]
    return out


test_imports.__test__ = False     # a checker, not a test


def _tree(path):
    return ast.parse(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("module,path", MODULES, ids=[m for m, _ in MODULES])
def test_no_relative_import_and_no_import_string_outside_the_cli(module, path):
    tree = _tree(path)
    assert relative_imports(tree) == [], path
    if layer(module) != "exact.cli":
        assert import_strings(tree, own=module if module in FACADES else None) == [], path


def test_no_import_cycle_inside_a_layer():
    graph = {m: module_level_imports(_tree(p)) for m, p in MODULES}
    same_layer = {m: {n for n in deps if layer(n) == layer(m)} for m, deps in graph.items()}
    assert find_cycle(same_layer) == []


@pytest.mark.parametrize("module,path", [(m, p) for m, p in MODULES if m.startswith("exact.rules.")],
                         ids=[m for m, _ in MODULES if m.startswith("exact.rules.")])
def test_a_rule_module_imports_only_strips_the_standard_library_numpy_and_rules(module, path):
    assert rule_module_imports(_tree(path), PENDING.get(module, frozenset())) == [], path


@pytest.mark.parametrize("module,path", [(m, p) for m, p in MODULES if not m.startswith("exact.rules")],
                         ids=[m for m, _ in MODULES if not m.startswith("exact.rules")])
def test_analyses_reach_the_rules_through_the_registry(module, path):
    assert rule_module_uses(_tree(path)) == [], path


@pytest.mark.parametrize("path", sorted(TESTS.glob("*.py")), ids=lambda p: p.name)
def test_no_test_module_imports_another(path):
    assert test_imports(_tree(path)) == [], path


def test_the_new_checkers_catch_their_snippets():
    """Each check can fail: a bad snippet of each kind is flagged, a good one is not."""
    assert relative_imports(ast.parse("from . import par\nfrom .rules import win_cap\n")) != []
    assert relative_imports(ast.parse("from exact import par\n")) == []
    bad = "import importlib\nm = importlib.import_module('proofs.simulate')\nn = __import__('exact.par')\n"
    assert len(import_strings(ast.parse(bad))) == 2
    assert import_strings(ast.parse("import importlib\nm = importlib.import_module(name)\n")) != []
    assert import_strings(ast.parse("x = __import__('fractions')\n")) == []
    own = ast.parse("import importlib\nm = importlib.import_module(f'exact.{name}')\n")
    assert import_strings(own, own="exact") == [] and import_strings(own) != []
    assert import_strings(ast.parse("import importlib\nm = importlib.import_module(f'proofs.{name}')\n"),
                          own="exact") != []
    names = {"exact.a", "exact.b", "exact.c"}
    graph = {"exact.a": module_level_imports(ast.parse("from exact.b import f\n"), names),
             "exact.b": module_level_imports(ast.parse("import exact.c\n"), names),
             "exact.c": module_level_imports(ast.parse("from exact import a\n"), names)}
    assert find_cycle(graph) == ["exact.a", "exact.b", "exact.c", "exact.a"]
    lazy = module_level_imports(ast.parse("def f():\n    from exact import a\n"), names)
    assert lazy == set() and find_cycle({**graph, "exact.c": lazy}) == []
    assert rule_module_imports(ast.parse("from exact.par import par_sheet\n")) != []
    assert rule_module_imports(ast.parse("import markov.chain\n")) != []
    assert rule_module_imports(ast.parse("from __future__ import annotations\nimport numpy as np\n"
                                         "from strips import plugins\nfrom exact.rules.base import Rule\n")) == []
    assert rule_module_uses(ast.parse("from exact.rules.win_cap import one_spin_round\n")) != []
    assert rule_module_uses(ast.parse("from exact.rules import win_cap\n")) != []
    assert rule_module_uses(ast.parse("from exact.rules import require\nfrom exact.rules.registry import RULES\n")) == []
    assert test_imports(ast.parse("from test_lines import game_text\n")) != []
    assert test_imports(ast.parse("def f():\n    import test_engine\n")) != []
    assert test_imports(ast.parse("from generators import game_text\nfrom mathset_files import write_set\n")) == []

"""The package layers, checked on the source: one way down, no circles, argparse only in the CLI.

Layers (README, "How it works"):
``strips`` <- ``markov`` <- ``exact`` <- ``proofs`` <- ``exact.cli``.  A module
may import its own package and the packages below it, never one above; only
``exact/cli/`` imports argparse; only ``exact/cli/`` imports a project module
inside a function (its lazy loading of one command module).
"""
from __future__ import annotations

import ast
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
            assert mine == "exact.cli", f"{path}:{node.lineno}: function-level import of {name} outside the CLI"
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

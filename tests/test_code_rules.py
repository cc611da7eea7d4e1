"""Rules of the code base that reviews used to enforce by eye, checked on the syntax tree.

- Only the harness checks plans: no module under ``solvers/`` imports a plan checker
  (a puzzle's ``check_plan``, or the puzzle registry that hands them out) or calls one.
  The solver registry is the exception: it reads each puzzle's list of formulation modules,
  and hands out solvers, never a checker.
- No function in ``models/``, ``solvers/``, ``harness/`` or ``examples/`` is longer than 60 lines, and no
  module in ``models/``, ``solvers/`` or ``harness/`` is longer than 600.
- The tests and the benchmarks stay apart: no module under ``benchmarks/`` (its own tests in
  ``benchmarks/tests/`` included) imports from ``tests``, and no module under ``tests/``
  imports from ``benchmarks``.  An import is an ``import``/``from`` statement, a call of
  ``importlib.import_module`` or ``__import__`` with a constant name, or (in ``benchmarks/``)
  a string that is a dotted module path into ``tests``, such as a plugin module handed to the
  harness.  What both need (planted faults, small seeded instances, a local cluster) is the
  package ``planted/``.  Running a benchmark as a command (``python -m benchmarks.NAME``,
  as tests/test_docs.py does) and the fault audit's list of test files to run are not imports.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.fixtures import ROOT

MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 600
CHECKERS = {"check_plan"}
CHECKER_MODULES = {"crosscheck.models.registry"}


def _modules(*packages: str) -> list[Path]:
    return sorted(path for package in packages for path in (ROOT / package).rglob("*.py"))


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def plan_checker_uses(tree: ast.Module) -> list[str]:
    """Every import of a plan checker (or of the registry of puzzles that carries them)
    and every attribute access to one, as ``line: what``."""
    uses = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            uses += [f"{node.lineno}: from {module} import {alias.name}" for alias in node.names
                     if alias.name in CHECKERS or module in CHECKER_MODULES
                     or f"{module}.{alias.name}" in CHECKER_MODULES]
        elif isinstance(node, ast.Import):
            uses += [f"{node.lineno}: import {alias.name}" for alias in node.names if alias.name in CHECKER_MODULES]
        elif isinstance(node, ast.Attribute) and node.attr in CHECKERS:
            uses.append(f"{node.lineno}: .{node.attr}")
    return uses


def imports_from(tree: ast.Module, package: str, strings: bool = False) -> list[str]:
    """Every import of `package` or a module inside it in `tree`, as ``line: what`` in line
    order; with `strings`, also every other string that is a dotted path of a module inside it."""
    def inside(name: str) -> bool:
        return name == package or name.startswith(package + ".")

    found: list[tuple[int, str]] = []
    named: set[int] = set()  # the strings imported by a call, reported as that call
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and inside(node.module or ""):
            found.append((node.lineno, f"from {node.module} import ..."))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, f"import {alias.name}") for alias in node.names if inside(alias.name)]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str) and inside(node.args[0].value)
              and (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__")
                   or isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")):
            found.append((node.lineno, f"imports {node.args[0].value!r}"))
            named.add(id(node.args[0]))
    if strings:
        found += [(node.lineno, f"names the module {node.value!r}") for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in named
                  and re.fullmatch(rf"{package}(\.\w+)+", node.value)]
    return [f"{line}: {what}" for line, what in sorted(found)]


def long_functions(tree: ast.Module, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """Every function (or method) longer than `limit` lines, as ``name (lines)``."""
    return [f"{node.name} ({node.end_lineno - node.lineno + 1} lines, from line {node.lineno})"
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > limit]


def test_the_rule_finders_find_what_they_name() -> None:
    offending = ast.parse("from crosscheck.models.keys.model import check_plan\nimport crosscheck.models.registry\n"
                          "from crosscheck.models import registry\ndef f(p):\n    return p.check_plan\n")
    assert [use.split(":")[0] for use in plan_checker_uses(offending)] == ["1", "2", "3", "5"]
    assert plan_checker_uses(ast.parse("from crosscheck.models.keys.model import KeyMove, parse\n")) == []
    def function(name: str, lines: int) -> str:
        return f"def {name}():\n" + "".join(f"    x{i} = {i}\n" for i in range(lines - 1))

    assert long_functions(ast.parse(function("fits", 60))) == []
    assert long_functions(ast.parse(function("long", 61))) == ["long (61 lines, from line 1)"]


@pytest.mark.parametrize("path", [path for path in _modules("solvers") if path != ROOT / "solvers" / "registry.py"],
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_no_solver_uses_a_plan_checker(path: Path) -> None:
    assert plan_checker_uses(_tree(path)) == []


@pytest.mark.parametrize("path", _modules("models", "solvers", "harness", "examples"),
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_no_function_is_longer_than_60_lines(path: Path) -> None:
    assert long_functions(_tree(path)) == []


def test_the_import_finder_finds_every_way_of_importing() -> None:
    offending = ast.parse("import tests.fixtures\nfrom tests.fixtures.known import read\nfrom tests import fixtures\n"
                          "importlib.import_module('tests.fixtures.cli')\n__import__('tests')\n"
                          "PLUGINS = ('tests.fixtures.plugin_solvers',)\n")
    assert [use.split(":")[0] for use in imports_from(offending, "tests", strings=True)] == ["1", "2", "3", "4", "5", "6"]
    assert imports_from(offending, "tests") == imports_from(offending, "tests", strings=True)[:5]
    fine = ast.parse("from . import helper\nimport testsuite\nfrom benchmarks.tests import x\nNOTE = 'tests pass'\n")
    assert imports_from(fine, "tests", strings=True) == []


@pytest.mark.parametrize("path", _modules("benchmarks"), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_benchmark_imports_the_tests(path: Path) -> None:
    assert imports_from(_tree(path), "tests", strings=True) == []


@pytest.mark.parametrize("path", _modules("tests"), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_test_imports_the_benchmarks(path: Path) -> None:
    assert imports_from(_tree(path), "benchmarks") == []


@pytest.mark.parametrize("path", _modules("models", "solvers", "harness"), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_is_longer_than_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{lines} lines: split it by responsibility"

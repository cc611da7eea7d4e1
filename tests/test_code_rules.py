"""Rules of the code base that reviews used to enforce by eye, checked on the syntax tree.

- Only the harness checks plans: no module under ``solvers/`` imports a plan checker
  (a puzzle's ``check_plan``, or the puzzle registry that hands them out) or calls one.
  The solver registry is the exception: it reads each puzzle's list of formulation modules,
  and hands out solvers, never a checker.
- No function in ``models/``, ``solvers/`` or ``harness/`` is longer than 60 lines, and no
  module there is longer than 600.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
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


@pytest.mark.parametrize("path", _modules("models", "solvers", "harness"), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_function_is_longer_than_60_lines(path: Path) -> None:
    assert long_functions(_tree(path)) == []


@pytest.mark.parametrize("path", _modules("models", "solvers", "harness"), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_is_longer_than_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{lines} lines: split it by responsibility"

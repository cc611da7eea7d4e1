"""The generic code names no puzzle: a puzzle brought from outside is treated as the built-in ones.

Scanned (`GENERIC`): every module of the harness (``harness/``, the independence analysis in
``harness/independence/`` included), the package's top (``crosscheck/``), the puzzle and solver
contracts (``models/base.py``, ``puzzle.py``, ``relations.py``; ``solvers/base.py``,
``registry.py``), the trusted engines (``solvers/engines/``), and the benchmarks' shared code:
``benchmarks/inputs.py``, ``timing.py``, ``results_file.py``, ``compare.py``, ``targets.py``,
``bench_main.py``, ``fault_relations.py``, ``fault_audit.py`` and ``bench_external.py``.  Not
scanned, on purpose: ``models/registry.py`` (it lists the built-in puzzles' packages, the one
place that does), each puzzle's own folders, the benchmarks that time named formulations or
planted faults (``bench_keys.py``, ``speed.py``, ``fault_catalogue.py``, ...), and the tests.

The puzzle names are those of `crosscheck.models.registry.built_in_puzzles`.  A *mention* is

- a puzzle name as a whole word in a string literal that is not a docstring (``"keys"``,
  ``f"{name}-grid"`` is fine but ``"keys-graph"``, ``"elevator: four floors"`` or
  ``["keys/a.txt"]`` are not): strings are what the code does or says, so ``if puzzle ==
  "keys"`` and a help text that lists the built-in puzzles' variants are both caught;
- a puzzle name as a whole word in a comment (comments say why the code is as it is; a
  puzzle given as an example belongs in a docstring);
- a module path of a puzzle's model or formulations (``models.keys``, ``solvers.elevator``):
  in an import (``from crosscheck.models import keys`` included) or an attribute chain.

Docstrings may mention puzzles as examples (``keys-graph`` in a contract's example stays
readable); identifiers are not scanned (``dict.keys()`` is no puzzle).  A puzzle named by an
English word takes that word from the generic code's strings and comments: ``keys`` there
is rephrased (the fields of an index entry, pushes many of them tied).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from functools import cache
from pathlib import Path

import pytest
from crosscheck.models.registry import built_in_puzzles

from tests.fixtures import ROOT

BENCHMARKS_SHARED = ("inputs.py", "timing.py", "results_file.py", "compare.py", "targets.py", "bench_main.py",
                     "fault_relations.py", "fault_audit.py", "bench_external.py")
GENERIC = sorted([*(ROOT / "harness").rglob("*.py"), *(ROOT / "crosscheck").glob("*.py"),
                  *(ROOT / "models" / name for name in ("base.py", "puzzle.py", "relations.py")),
                  *(ROOT / "solvers" / name for name in ("base.py", "registry.py")),
                  *(ROOT / "solvers" / "engines").glob("*.py"),
                  *(ROOT / "benchmarks" / name for name in BENCHMARKS_SHARED)])


@cache
def _names() -> tuple[str, ...]:
    return tuple(sorted(built_in_puzzles()))


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the string nodes that are docstrings (a module's, class's or function's first statement)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for an attribute chain on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def mentions(source: str, names: tuple[str, ...]) -> list[str]:
    """Every mention of a puzzle among `names` in `source` (module doc), as ``line: what``."""
    alternatives = "|".join(map(re.escape, names))
    word = re.compile(rf"(?<![\w.])(?:{alternatives})(?!\w)")
    module = re.compile(rf"\b(?:models|solvers)\.(?:{alternatives})\b")
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    inner = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if word.search(node.value):
                found.append((node.lineno, f"string {node.value!r}"))
        elif isinstance(node, ast.ImportFrom | ast.Import):
            prefix = f"{node.module}." if isinstance(node, ast.ImportFrom) else ""
            found += [(node.lineno, f"import {prefix}{alias.name}") for alias in node.names
                      if module.search(prefix + alias.name)]
        elif isinstance(node, ast.Attribute) and id(node) not in inner:
            path = _dotted(node)
            if path and module.search(path):
                found.append((node.lineno, f"module {path}"))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and (word.search(token.string) or module.search(token.string)):
            found.append((token.start[0], f"comment {token.string!r}"))
    return [f"{line}: {what}" for line, what in sorted(found)]


def test_the_finder_finds_each_kind_of_mention() -> None:
    names = ("keys", "elevator")
    planted = ('"""A docstring may say keys-graph and models.keys."""\n'
               'import crosscheck.models.keys.model\n'
               'from crosscheck.solvers import elevator\n'
               'def pick(puzzle):\n'
               '    """Or keys, in a function\'s docstring."""\n'
               '    if puzzle == "keys":  # the elevator is different\n'
               '        return crosscheck.solvers.elevator.bfs\n'
               '    return f"{puzzle}-grid", "elevator-quotient", ["keys/a.txt"], "dict.keys()"\n')
    assert [m.split(":")[0] for m in mentions(planted, names)] == ["2", "3", "6", "6", "7", "8", "8"]
    assert mentions("x = {}.keys()  # sorted keys\nmonkeys, keystone = 'monkeys', 'keystones'\n", ("keys",)) == [
        "1: comment '# sorted keys'"]
    assert mentions('if puzzle.name == "keys":\n    pass\n', _names()) == ['1: string \'keys\'']


@pytest.mark.parametrize("path", GENERIC, ids=lambda path: str(path.relative_to(ROOT)))
def test_generic_code_names_no_puzzle(path: Path) -> None:
    assert mentions(path.read_text(encoding="utf-8"), _names()) == []

"""What each formulation runs to decide its answers, and what formulations share.

A formulation's *footprint* is the set of functions and methods of the ``crosscheck``
package that deciding its answers runs, outside the trusted base
(`crosscheck.solvers.trusted`), as qualified names (``module.Class.method``).  Two
formulations of one puzzle *share* the intersection of their footprints; their
agreement is then one line of evidence, not two (`Solver.shares`).

A footprint is the union of two derivations from the code:

- static: from the solver class's ``_solve``, every name it references that resolves
  exactly (a module function or class through the module's imports or the function's
  own, ``module.f``,
  ``Class.method``, ``self.method`` on the solver's or helper's own class; a class
  stands for all its methods), followed through those functions in turn.  Calls on
  objects of unknown type (``vault.passable(cell)``) are not guessed;
- traced: the code objects of the package executed (``sys.setprofile``) while the
  formulation solves `corpus` (small instances of each puzzle, edge cases included:
  an unsafe elevator start, infeasible vaults, four robots, a deep burrow).

The built-in formulations' footprints are computed ahead and stored in
`crosscheck.solvers.footprints` (``tests/test_sharing.py`` recomputes and compares;
regenerate with ``python -m crosscheck.solvers.sharing``).  A plugin's footprint is
computed when asked: statically in run records (cheap, runs nothing), and also traced
by ``crosscheck list --shares``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sys
import textwrap
from collections.abc import Callable, Iterator
from functools import cache
from itertools import combinations
from pathlib import Path
from types import CodeType, FrameType, FunctionType, ModuleType
from typing import Any

from crosscheck.models import amphipods, elevator, keys
from crosscheck.solvers.base import Solver
from crosscheck.solvers.trusted import is_trusted, lemmas_of

PACKAGE = "crosscheck"
#: The folder holding the package's folders (models/, solvers/, crosscheck/, ...).
PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent) + "/"
#: Seconds each traced solve may take (cooperative: solvers check their deadline).
TRACE_SECONDS = 20.0
#: Where the built-in footprints are kept, relative to this module.
FOOTPRINTS_FILE = Path(__file__).with_name("footprints.py")


def corpus(puzzle: str) -> list[Any]:
    """The small instances a formulation of `puzzle` solves while being traced."""
    if puzzle == "keys":
        return [keys.parse("#########\n#b.A.@.a#\n#########\n", "published-8"),
                keys.parse("#######\n#@.Aa.#\n#######\n", "door-before-its-key"),
                keys.parse("#######\n#@.Bab#\n#######\n", "door-without-key"),
                keys.four_robots(keys.generate(3, size=9, keys=3, loops=1)),
                keys.generate(5, size=9, keys=4, loops=2)]
    if puzzle == "amphipods":
        return [amphipods.Burrow("two-swapped", ("BA", "AB", "CC", "DD")),
                amphipods.Burrow("deep-two-swapped", ("BAAA", "ABBB", "CCCC", "DDDD"))]
    if puzzle == "elevator":
        return [elevator.parse("The first floor contains a hydrogen-compatible microchip and a lithium generator.\n"
                               "The second floor contains a hydrogen generator and a lithium-compatible microchip.\n"
                               "The third floor contains nothing relevant.\n", "unsafe-start"),
                elevator.generate(1, pairs=2, floors=3), elevator.generate(2, pairs=1, floors=4)]
    return []


def _in_package(value: object) -> bool:
    return str(getattr(value, "__module__", "")).startswith(PACKAGE + ".")


def _package_function(value: object) -> bool:
    """A function written in a file of the package (not one made by exec, such as a
    dataclass's ``__eq__``, nor a wrapper from elsewhere, such as its ``__repr__``)."""
    return (isinstance(value, FunctionType) and _in_package(value)
            and value.__code__.co_filename.startswith(PACKAGE_ROOT))


def _functions_of(value: object, owner: type | None) -> Iterator[tuple[FunctionType, type | None]]:
    """The package functions `value` stands for, each with the class its ``self`` is:
    itself (a function or method of `owner`), a property's getter, a static or class
    method's function, a compiled function's Python source (numba's ``py_func``: the
    tracer cannot see compiled code run), or every method of a class and of its package bases."""
    if isinstance(value, property):
        value = value.fget
    value = getattr(value, "__func__", value)
    value = getattr(value, "py_func", value)
    if isinstance(value, FunctionType) and _package_function(value):
        yield value, owner
    elif isinstance(value, type) and _in_package(value):
        for base in value.__mro__:
            if _in_package(base):
                for name in vars(base):
                    yield from _functions_of(inspect.getattr_static(value, name, None), value)


def qualified(function: FunctionType) -> str:
    return f"{function.__module__}.{function.__qualname__}"


def _body(function: FunctionType) -> list[ast.stmt]:
    """The statements of `function`'s source (none when the source is not available)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return []
    definition = tree.body[0]
    return definition.body if isinstance(definition, ast.FunctionDef | ast.AsyncFunctionDef) else []


def _resolve(node: ast.expr, function: FunctionType, owner: type | None,
             imported: dict[str, object]) -> tuple[object, type | None]:
    """The object `node` (a name or an attribute chain) denotes when it can be known
    exactly, and the class a method found on it belongs to (None: not known); `imported`:
    the names the function's own import statements bind."""
    if isinstance(node, ast.Name):
        if node.id in ("self", "cls") and owner is not None:
            return owner, owner
        return imported.get(node.id, function.__globals__.get(node.id)), None
    if isinstance(node, ast.Attribute):
        base, _ = _resolve(node.value, function, owner, imported)
        if isinstance(base, type):
            return inspect.getattr_static(base, node.attr, None), base
        if isinstance(base, ModuleType):
            return getattr(base, node.attr, None), None
    return None, None


def _references(function: FunctionType, owner: type | None) -> Iterator[tuple[FunctionType, type | None]]:
    """The package functions `function`'s body refers to exactly (annotations left out),
    names it imports itself included (an import put off until needed, for start-up time)."""
    body = _body(function)
    imported = _local_imports(body)
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Load):
                yield from _functions_of(*_resolve(node, function, owner, imported))


def _local_imports(body: list[ast.stmt]) -> dict[str, object]:
    """The package modules, functions and classes that `body`'s own import statements bind."""
    imported: dict[str, object] = {}
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and _ours(node.module or ""):
                module = importlib.import_module(node.module or "")
                for alias in node.names:
                    value = getattr(module, alias.name, None) or _module(f"{node.module}.{alias.name}")
                    if value is not None:
                        imported[alias.asname or alias.name] = value
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if _ours(alias.name):  # `import a.b` binds a; `import a.b as k` binds k to a.b
                        module = importlib.import_module(alias.name)
                        top = alias.name.partition(".")[0]
                        imported[alias.asname or top] = module if alias.asname else importlib.import_module(top)
    return imported


def _ours(module: str) -> bool:
    return module == PACKAGE or module.startswith(PACKAGE + ".")


def _module(name: str) -> ModuleType | None:
    """The module `name` (imported now if need be), or None if there is none."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def static_footprint(solver_class: type[Solver]) -> set[str]:
    """The untrusted package functions reachable by exact references from ``_solve``."""
    start = inspect.getattr_static(solver_class, "_solve")
    seen: set[str] = set()
    stack: list[tuple[FunctionType, type | None]] = [(start, solver_class)]
    while stack:
        function, owner = stack.pop()
        name = qualified(function)
        if name in seen or is_trusted(name):
            continue
        seen.add(name)
        stack.extend(_references(function, owner))
    return seen


def _import_everything() -> None:
    """Import every module of the formulation and model packages (not the ``__main__``s)."""
    import crosscheck.models
    import crosscheck.solvers

    for package in (crosscheck.models, crosscheck.solvers):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not module.name.endswith("__main__"):
                importlib.import_module(module.name)


def _module_names() -> dict[str, str]:
    """Each loaded package module's file -> its module name."""
    files = {name: getattr(module, "__file__", None) for name, module in list(sys.modules.items())}
    return {file: name for name, file in files.items() if name.startswith(PACKAGE) and file}


def traced_footprint(solver: Solver, instances: list[Any]) -> set[str]:
    """The untrusted package functions executed while `solver` solves `instances`.

    Every module of the package is imported first, so that work done at import (a
    module-level table) is never traced: a trace does not depend on what ran before it."""
    _import_everything()
    codes: set[CodeType] = set()

    def record(frame: FrameType, event: str, _: object) -> None:
        if event == "call":
            codes.add(frame.f_code)

    previous = sys.getprofile()
    for instance in instances:
        sys.setprofile(record)
        try:
            solver.solve(instance, TRACE_SECONDS)
        finally:
            sys.setprofile(previous)
    files = _module_names()
    names = {f"{files[code.co_filename]}.{code.co_qualname.split('.<locals>')[0]}"
             for code in codes if code.co_filename in files and code.co_flags & inspect.CO_OPTIMIZED}
    return {name for name in names if not is_trusted(name)}


def computed_footprint(solver: Solver) -> frozenset[str]:
    """`solver`'s footprint computed now: static and traced on `corpus`, with the shared
    lemmas (`crosscheck.solvers.trusted.LEMMAS`) that code rests on."""
    names = static_footprint(type(solver)) | traced_footprint(solver, corpus(solver.puzzle))
    return frozenset(names | lemmas_of(names))


def _stored() -> dict[str, frozenset[str]]:
    from crosscheck.solvers.footprints import FOOTPRINTS

    return FOOTPRINTS


@cache
def footprint(solver: Solver, traced: bool = False) -> frozenset[str]:
    """`solver`'s footprint: stored for a built-in formulation; for any other, the static
    one (and the traced one too when `traced`, which runs the solver on `corpus`)."""
    stored = _stored().get(solver.name)
    if stored is not None and type(solver).__module__.startswith(PACKAGE + "."):
        return stored
    if traced:
        return computed_footprint(solver)
    names = static_footprint(type(solver))
    return frozenset(names | lemmas_of(names))


def shares(solver: Solver, others: list[Solver] | None = None, traced: bool = False) -> frozenset[str]:
    """What `solver` runs that another formulation of its puzzle (the registered ones, or
    `others`) runs too."""
    if others is None:
        from crosscheck.solvers.registry import solvers_for

        others = solvers_for(solver.puzzle)
    mine = footprint(solver, traced)
    theirs = set().union(*(footprint(other, traced) for other in others if other.name != solver.name))
    return frozenset(mine & theirs)


def pairs(solvers: list[Solver], traced: bool = False) -> list[tuple[str, str, frozenset[str]]]:
    """Each pair of `solvers` (one puzzle's) and what the two share."""
    return [(a.name, b.name, footprint(a, traced) & footprint(b, traced)) for a, b in combinations(solvers, 2)]


def independent_group(solvers: list[Solver], traced: bool = False) -> list[str]:
    """The names of a largest group of `solvers` no two of which share anything (the
    first such group in the solvers' order; every subset is tried, largest first)."""
    for size in range(len(solvers), 0, -1):
        for group in combinations(solvers, size):
            if all(not footprint(a, traced) & footprint(b, traced) for a, b in combinations(group, 2)):
                return [solver.name for solver in group]
    return []


def _write(footprints: dict[str, frozenset[str]], write: Callable[[str], object]) -> None:
    lines = ['"""The built-in formulations\' footprints (generated: ``python -m crosscheck.solvers.sharing``).',
             "", "See `crosscheck.solvers.sharing`; ``tests/test_sharing.py`` recomputes them and compares.", '"""',
             "", "FOOTPRINTS: dict[str, frozenset[str]] = {"]
    for name, names in footprints.items():
        lines.append(f"    {name!r}: frozenset({{")
        lines += [f"        {entry!r}," for entry in sorted(names)]
        lines.append("    }),")
    lines.append("}")
    write("\n".join(lines) + "\n")


def built_in_footprints() -> dict[str, frozenset[str]]:
    """Every built-in formulation's footprint, computed now."""
    from crosscheck.solvers.registry import BUILT_IN, ORIGINS, SOLVERS, load_all

    load_all()
    return {name: computed_footprint(solver) for name, solver in SOLVERS.items() if ORIGINS.get(name) == BUILT_IN}


if __name__ == "__main__":
    _write(built_in_footprints(), FOOTPRINTS_FILE.write_text)
    print(f"wrote {FOOTPRINTS_FILE}")

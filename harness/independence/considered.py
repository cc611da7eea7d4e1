"""The modules `crosscheck.harness.independence.sharing` looks in for a call whose class is not known
exactly (its item 3, and the subclasses of a class an annotation names), the same whatever
was imported before.

They are the puzzle's model module (the module of its ``parse``: ``crosscheck.models.keys.model``) and the formulation's
*import closure* in its own package: its class's module and every module of that package
whose import statement appears in the source of a module already in the closure, at any
depth (an import inside a function counts, whether that function ran or not), with the
packages holding each (whose ``__init__`` an import runs first).  The package
is the top-level package of the class's module; for a built-in, the package its module is
in (``crosscheck.solvers.keys``).  The closure is read from the source files (`ast`), not
taken from ``sys.modules``, so a footprint does not depend on what happened to be loaded.

Why the closure and not every module of the package: an object whose class is defined in a
module the formulation never imports cannot reach its code (the harness hands it only the
instance and a deadline), and importing every module of a package runs code that has no
business in a run (a ``tests`` package's test modules, a script that works at import).  The
modules of the closure are imported here: the formulation's own code imports them too, when
it runs the statement.  Not seen: a module imported by a name built at run time
(``importlib.import_module(table[kind])``).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Container, Iterator
from functools import cache
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

from crosscheck.harness.independence.receivers import is_protocol, parse_module

PACKAGE = "crosscheck"


def home_package(module: str) -> str:
    """The package whose modules count for a formulation defined in `module`."""
    if module == PACKAGE or module.startswith(PACKAGE + "."):
        return module.rpartition(".")[0]
    return module.partition(".")[0]


def source_file(module: str) -> Path | None:
    """The source file of `module` (its ``__init__.py`` for a package), found without
    importing it or its packages (`importlib.util.find_spec` would import the packages);
    None for no such module or one without Python source."""
    top, *parts = module.split(".")
    spec = importlib.util.find_spec(top)  # a top-level name: the finders, nothing imported
    for depth in range(len(parts)):
        if spec is None or spec.submodule_search_locations is None:
            return None  # a plain module holds no modules
        spec = _found(".".join([top, *parts[:depth + 1]]), list(spec.submodule_search_locations))
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _found(name: str, path: list[str]) -> ModuleSpec | None:
    """The spec of submodule `name` of a package whose ``__path__`` is `path`, asked of the
    import system's finders as an import would (an editable install maps packages by its
    own finder), without importing anything."""
    for finder in sys.meta_path:
        find_spec = getattr(finder, "find_spec", None)
        spec = find_spec(name, path) if find_spec is not None else None
        if spec is not None:
            return spec
    return None


def imported_names(module: str, path: Path) -> set[str]:
    """The absolute names of the modules (or, for ``from m import x``, ``m`` and ``m.x``)
    that the import statements anywhere in `module`'s source at `path` name."""
    tree = parse_module(path.read_text(encoding="utf-8"), filename=str(path))
    here = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            origin = import_origin(node, here)
            names.add(origin)
            names.update(f"{origin}.{alias.name}" for alias in node.names if alias.name != "*")
    return names


def import_origin(node: ast.ImportFrom, here: str) -> str:
    """The absolute name of the module ``from ... import`` `node` imports from, written in a
    module of package `here` (the module itself for a package's ``__init__``)."""
    base = here.rsplit(".", node.level - 1)[0] if node.level else ""
    return ".".join(part for part in (base, node.module or "") if part)


def local_imports(body: list[ast.stmt], scope: Container[str], module: str) -> dict[str, object]:
    """The modules, functions and classes that `body`'s own import statements (`module`'s
    code: relative ones read from there) bind, of the top-level packages in `scope` only; an
    import that fails here binds nothing (its code can run nowhere here)."""
    here = module if hasattr(sys.modules.get(module), "__path__") else module.rpartition(".")[0]
    imported: dict[str, object] = {}
    for node in (node for statement in body for node in ast.walk(statement)):
        if isinstance(node, ast.ImportFrom):
            origin = import_origin(node, here)
            holder = imported_or_none(origin) if origin.partition(".")[0] in scope else None
            for alias in node.names if holder is not None else []:
                value = getattr(holder, alias.name, None) or imported_or_none(f"{origin}.{alias.name}")
                if value is not None:
                    imported[alias.asname or alias.name] = value
        elif isinstance(node, ast.Import):
            for alias in node.names:  # `import a.b` binds a; `import a.b as k` binds k to a.b
                top = alias.name.partition(".")[0]
                found = imported_or_none(alias.name) if top in scope else None
                if found is not None:
                    imported[alias.asname or top] = found if alias.asname else sys.modules[top]
    return imported


@cache
def own_modules(package: str) -> frozenset[str]:
    """The top-level names whose code is `package`'s own: `package` itself and, when it is a
    plain module (`import_closure`), the modules beside it that it imports, transitively."""
    if _sibling_folder(package) is None:
        return frozenset({package})
    return frozenset(import_closure(package, package))


def import_closure(module: str, package: str) -> dict[str, Path]:
    """`module` and the modules of `package` its source imports, transitively (module doc),
    each with its source file.  When `package` is a plain top-level module (a script's
    ``flat.py``, not a package), the top-level modules beside its file count as its package:
    ``import flathelp`` of a sibling ``flathelp.py`` is its own code."""
    siblings = _sibling_folder(package)
    closure: dict[str, Path] = {}
    waiting = [module]
    while waiting:
        name = waiting.pop()
        inside = name == package or name.startswith(package + ".")
        if name in closure or not (inside or siblings is not None and name and "." not in name):
            continue
        path = source_file(name)
        if path is None or not inside and path.parent != siblings:
            continue  # `from m import x` where x is not a module, a module without source, not a sibling
        closure[name] = path
        waiting.extend(imported_names(name, path))
        waiting.append(name.rpartition(".")[0])  # importing a module runs its packages' __init__ first
    return closure


def imported_or_none(name: str) -> ModuleType | None:
    """Module `name`, imported now; None when it cannot be (an optional accelerator whose
    dependency is missing, behind ``try: ... except ImportError``): the formulation cannot
    run its code here either."""
    try:
        return importlib.import_module(name)
    except Exception:  # whatever its import raises, it adds no class to look in
        return None


#: Folders where the modules beside a plain module are other distributions, not its helpers.
_INSTALLED = ("site-packages", "dist-packages")


def _sibling_folder(package: str) -> Path | None:
    """The folder of `package` when it is a plain top-level module (module doc) outside an
    installation folder (there its neighbours are other distributions), else None."""
    if "." in package:
        return None
    path = source_file(package)
    if path is None or path.name == "__init__.py" or path.parent.name in _INSTALLED:
        return None
    return path.parent


class Considered:
    """The modules of one formulation (see the module docstring), imported."""

    def __init__(self, modules: list[ModuleType]) -> None:
        self.modules = modules
        self._classes = [value for module in modules for value in list(vars(module).values())
                         if isinstance(value, type) and value.__module__ == module.__name__ and not is_protocol(value)]
        self._subclasses: dict[type, list[type]] = {}

    @classmethod
    def of(cls, solver_module: str, puzzle: str) -> Considered:
        """The modules a formulation of `puzzle` defined in `solver_module` has."""
        closure = sorted(import_closure(solver_module, home_package(solver_module)))
        from crosscheck.models.registry import get_puzzle

        model = importlib.import_module(get_puzzle(puzzle).parse.__module__)
        return cls([model, *(module for name in closure if (module := imported_or_none(name)) is not None)])

    def classes(self) -> Iterator[type]:
        """The classes, but protocols, defined in these modules."""
        yield from self._classes

    def defining(self, name: str) -> Iterator[type]:
        """The classes (but protocols) of these modules that define `name` themselves."""
        return (value for value in self._classes if name in vars(value))

    def subclasses(self, base: type) -> list[type]:
        """The classes defined in these modules that derive from `base` (not `base` itself)."""
        if base not in self._subclasses:
            self._subclasses[base] = [value for value in self._classes if value is not base and issubclass(value, base)]
        return self._subclasses[base]

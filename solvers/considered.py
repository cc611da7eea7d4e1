"""The modules `crosscheck.solvers.sharing` looks in for a call whose class is not known
exactly (its rule 2, and the subclasses of a class an annotation names), the same
whatever was imported before.

They are the puzzle's model module (``crosscheck.models.<puzzle>``) and every module of
the formulation's own package: the top-level package of its class's module, for a
built-in the package its module is in (``crosscheck.solvers.keys``).  The package's
modules are listed from its folders (`pkgutil.iter_modules`, which imports nothing), not
taken from ``sys.modules``, so a footprint does not depend on which of them happened to
be loaded.

Why not import the whole package first: a plugin's package may hold modules that are
costly or unsafe to import (a script that works at import, a ``tests`` package's test
modules).  A module is imported only when its source could define what is looked up: a
method ``name`` (``def name``, ``name = ...`` or ``name: ...`` at a line's start, or
``"name"`` as for ``setattr``), or a subclass of ``Base`` (``class X(... Base ...)``, or
``Base`` imported under another name).  Not seen: a class made by ``type(...)`` or a base
from a call (``class X(make_base())``).  A module that cannot be imported here (an optional dependency missing)
holds no class that has instances here, so it adds nothing; ``__main__`` modules are
left out (importing one runs a program).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

from crosscheck.solvers.receivers import is_protocol

PACKAGE = "crosscheck"


def home_package(module: str) -> str:
    """The package whose modules count for a formulation defined in `module`."""
    if module == PACKAGE or module.startswith(PACKAGE + "."):
        return module.rpartition(".")[0]
    return module.partition(".")[0]


def package_files(package: str) -> dict[str, Path]:
    """Each module of `package` (itself included; a plain module: just it) -> its source
    file, read from the folders on the package's ``__path__``, nothing imported but the
    package itself."""
    top = importlib.import_module(package)
    found = {package: Path(top.__file__)} if top.__file__ else {}
    folders = [(folder, package) for folder in getattr(top, "__path__", [])]
    while folders:
        folder, prefix = folders.pop()
        for entry in pkgutil.iter_modules([folder]):
            name = f"{prefix}.{entry.name}"
            if entry.ispkg:
                found[name] = Path(folder, entry.name, "__init__.py")
                folders.append((str(Path(folder, entry.name)), name))
            elif not entry.name == "__main__":
                found[name] = Path(folder, entry.name + ".py")
    return {name: path for name, path in found.items() if path.suffix == ".py" and path.is_file()}


@cache
def _source(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


class Considered:
    """The modules of one formulation (see the module docstring), imported as needed."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = dict(sorted(files.items()))
        self._subclasses: dict[type, list[type]] = {}

    @classmethod
    def of(cls, solver_module: str, puzzle: str) -> Considered:
        """The modules a formulation of `puzzle` defined in `solver_module` has."""
        files = package_files(home_package(solver_module))
        model = importlib.import_module(f"{PACKAGE}.models.{puzzle}")
        if model.__file__:
            files[model.__name__] = Path(model.__file__)
        return cls(files)

    def modules(self, pattern: re.Pattern[str] | None = None) -> Iterator[ModuleType]:
        """The modules whose source `pattern` finds something in (every one: None), imported now."""
        for name, path in self.files.items():
            if pattern is None or pattern.search(_source(path)):
                module = sys.modules.get(name) or _imported(name)
                if module is not None:
                    yield module

    def classes(self, pattern: re.Pattern[str] | None = None) -> Iterator[type]:
        """The classes but protocols defined in the modules `pattern` finds something in."""
        for module in self.modules(pattern):
            for value in list(vars(module).values()):
                if isinstance(value, type) and value.__module__ == module.__name__ and not is_protocol(value):
                    yield value

    def defining(self, name: str) -> Iterator[type]:
        """The classes (but protocols) of the modules that could define a method `name`."""
        word = re.escape(name)
        yield from self.classes(re.compile(rf"\bdef\s+{word}\b|^\s*{word}\s*(:|=[^=])|['\"]{word}['\"]", re.M))

    def subclasses(self, base: type) -> list[type]:
        """The classes defined in these modules that derive from `base` (not `base` itself):
        those of modules naming `base` among a class's bases, then theirs, and so on."""
        if base not in self._subclasses:
            found: list[type] = []
            names, seen = [base.__name__], {base.__name__}
            while names:
                word = re.escape(names.pop())
                for value in self.classes(re.compile(rf"\bclass\s+\w+\s*\([^)]*\b{word}\b|\b{word}\s+as\s")):
                    if value is not base and issubclass(value, base) and value not in found:
                        found.append(value)
                        if value.__name__ not in seen:
                            seen.add(value.__name__)
                            names.append(value.__name__)
            self._subclasses[base] = found
        return self._subclasses[base]


def _imported(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except Exception:  # a module that cannot load here (a dependency missing) has no instances here
        return None

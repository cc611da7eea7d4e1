"""What each formulation runs to decide its answers, and what formulations share.

A formulation's *footprint* is the set of functions and methods of formulation code
that deciding its answers runs, outside the trusted base (`crosscheck.harness.independence.trusted`),
as qualified names (``module.Class.method``).  Formulation code is the ``crosscheck``
package and every top-level package (or module) that defines a loaded `Solver` class,
with the modules beside such a plain module that it imports:
a plugin's own module counts, so a plugin subclass that runs its base's ``_solve``
through ``super()``, or two plugin classes calling one helper of their module, share
that code (`crosscheck.harness.independence.walk.formulation_packages`).  Two formulations of one puzzle *share* the
intersection of their footprints, and each pair of functions, one from each footprint,
whose code is the same (a copy pasted elsewhere, verbatim or renamed: compared by
fingerprint, `crosscheck.harness.independence.copies`; a method run on a subclass whose override it
calls through ``self`` also as run so, `crosscheck.harness.independence.walk.variants`), written ``a = b (same code)``; their agreement
is then one line of evidence, not two (`shared`, `Solver.shares`).  A copy also rests on
the lemmas of the code it copies.

A footprint is the union of two derivations from the code:

- static: from the solver class's ``_solve``, every function it may run, followed
  through those functions in turn, names resolved as `crosscheck.harness.independence.walk`
  says (nothing is run);
- traced: the code objects of the package executed (``sys.setprofile``) while the
  formulation solves its puzzle's `corpus` (small instances, edge cases included:
  an unsafe elevator start, infeasible vaults, four robots, a deep burrow).

The built-in formulations' footprints, and the fingerprints of the functions they name,
are computed ahead and stored as data in ``footprints.json`` beside this module (``tests/test_sharing.py``
and ``tests/test_copies.py`` recompute and compare; regenerate with ``python -m
crosscheck.harness.independence.sharing``).  A plugin's footprint is
computed when asked, statically (cheap, runs nothing): run records and ``crosscheck
list --shares`` read that one footprint, so they agree.  The trace is not run for a
plugin there: a run would have to run every other plugin of its puzzle, and one that
hangs or crashes would take the run with it (``footprint(solver, traced=True)`` adds it
on request).
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import sys
from collections.abc import Callable, Iterable
from functools import cache
from itertools import combinations
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from crosscheck.harness.independence import walk
from crosscheck.harness.independence.copies import fingerprints, same_code
from crosscheck.harness.independence.trusted import is_trusted, lemmas_of
from crosscheck.models.registry import get_puzzle
from crosscheck.solvers.base import Solver
from crosscheck.solvers.engines.sat import discard_proofs

#: Seconds each traced solve may take (cooperative: solvers check their deadline).
TRACE_SECONDS = 20.0
#: Where the built-in footprints are kept (data, beside this module; `stored_data`).
FOOTPRINTS_FILE = Path(__file__).with_name("footprints.json")


def corpus(puzzle: str) -> list[Any]:
    """The small instances a formulation of `puzzle` solves while being traced (`Puzzle.corpus`)."""
    return list(get_puzzle(puzzle).corpus())


def _import_everything() -> None:
    """Import every module of the formulation and model packages (not the ``__main__``s)."""
    import crosscheck.models
    import crosscheck.solvers

    for package in (crosscheck.models, crosscheck.solvers):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not module.name.endswith("__main__"):
                importlib.import_module(module.name)


def _module_names() -> dict[str, str]:
    """Each loaded module of formulation code: its file -> its module name."""
    scope = walk.formulation_packages()
    files = {name: getattr(module, "__file__", None) for name, module in list(sys.modules.items())}
    return {file: name for name, file in files.items() if walk.top(name) in scope and file}


def traced_footprint(solver: Solver, instances: list[Any]) -> set[str]:
    """The untrusted functions of formulation code executed while `solver` solves `instances`.

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
            result = solver.solve(instance, TRACE_SECONDS)
        finally:
            sys.setprofile(previous)
        discard_proofs(result.certificate)  # nobody checks a traced run's proofs
    files = _module_names()
    names = {f"{files[code.co_filename]}.{code.co_qualname.split('.<locals>')[0]}"
             for code in codes if code.co_filename in files and code.co_flags & inspect.CO_OPTIMIZED}
    return {name for name in names if not is_trusted(name)}


def computed_footprint(solver: Solver) -> frozenset[str]:
    """`solver`'s footprint computed now: static and traced on `corpus`, with the shared
    lemmas (`crosscheck.harness.independence.trusted.lemmas`) that code rests on."""
    names = walk.static_footprint(type(solver)) | traced_footprint(solver, corpus(solver.puzzle))
    return frozenset(names | lemmas_of(names))


@cache
def stored_data() -> dict[str, Any]:
    """The stored built-in footprints (``footprints.json``, written by ``python -m
    crosscheck.harness.independence.sharing``): ``footprints`` (formulation -> sorted
    qualified names), ``fingerprints`` (qualified name -> fingerprint, None when too small
    to compare) and ``variants`` (formulation -> the fingerprints of its methods run on
    subclasses, `crosscheck.harness.independence.walk.variants`)."""
    data: dict[str, Any] = json.loads(FOOTPRINTS_FILE.read_text(encoding="utf-8"))
    return data


def stored_footprints() -> dict[str, frozenset[str]]:
    return {name: frozenset(names) for name, names in stored_data()["footprints"].items()}


def stored_fingerprints() -> dict[str, str | None]:
    prints: dict[str, str | None] = stored_data()["fingerprints"]
    return prints


def stored_variants() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = stored_data()["variants"]
    return found


@cache
def footprint(solver: Solver, traced: bool = False) -> frozenset[str]:
    """`solver`'s footprint: stored for a built-in formulation; for any other, the static
    one (and the traced one too when `traced`, which runs the solver on `corpus`: never
    done for records or ``list --shares``, which must agree and must not run plugins)."""
    stored = stored_footprints().get(solver.name)
    if stored is not None and type(solver).__module__.startswith(walk.PACKAGE + "."):
        return stored
    names = computed_footprint(solver) if traced else walk.static_footprint(type(solver))
    return frozenset(names | lemmas_of(names | _copied(names)))


def _copied(names: Iterable[str]) -> set[str]:
    """The functions the built-in formulations run that one of `names` is a copy of (so
    that a copy rests on the lemmas its original rests on)."""
    prints = set(_printed(names).values())
    return {name for name, value in stored_fingerprints().items() if value in prints}


def _printed(names: Iterable[str]) -> dict[str, str]:
    """The fingerprints of the substantial functions among `names`: stored for the
    functions the built-in formulations run, computed for any other."""
    stored, names = stored_fingerprints(), set(names)
    found = {name: stored[name] for name in names if name in stored} | fingerprints(names - stored.keys())
    return {name: value for name, value in found.items() if value is not None}


@cache
def printed(solver: Solver) -> dict[str, str]:
    """The fingerprints (`crosscheck.harness.independence.copies`) of the substantial functions of
    `solver`'s footprint, by qualified name, and of its methods run on subclasses
    (`crosscheck.harness.independence.walk.variants`: stored for a built-in, from the static walk for any other)."""
    stored = stored_variants().get(solver.name)
    if stored is None or not type(solver).__module__.startswith(walk.PACKAGE + "."):
        stored = walk.variants(walk.static_reached(type(solver)))
    return _printed(footprint(solver)) | stored


def shared(first: Solver, second: Solver) -> frozenset[str]:
    """What two formulations both run: the names in both footprints, and ``a = b (same
    code)`` for a function of each with one fingerprint, a copy (`crosscheck.harness.independence.copies`).

    Where the code of either cannot be analysed (a plugin's source the walk fails on), the
    two count as sharing, under one entry naming both and the failure (``a ~ b (not
    analysed: ...)``, alike from either side): their agreement is then one piece of
    evidence, not two, and the runs of each still happen; other pairs are not touched."""
    try:
        return frozenset(footprint(first) & footprint(second)) | same_code(printed(first), printed(second))
    except Exception as error:  # noqa: BLE001 (any failure of the analysis; see the docstring)
        names = " ~ ".join(sorted((first.name, second.name)))
        return frozenset({f"{names} (not analysed: {type(error).__name__})"})


def shares(solver: Solver, others: list[Solver] | None = None) -> frozenset[str]:
    """What `solver` runs that another formulation of its puzzle (the registered ones, or
    `others`) runs too (`shared`: an entry for a copy reads the same from both sides, so
    two records share an entry exactly when their formulations share code)."""
    if others is None:
        return _shares_with_registered(solver)
    return frozenset().union(*(shared(solver, other) for other in others if other.name != solver.name))


def _shares_with_registered(solver: Solver) -> frozenset[str]:
    """`shares` with every formulation of `solver`'s puzzle: the built-ins not imported yet
    compared by their stored footprints and fingerprints (what `shared` reads for a built-in),
    so that a run imports no formulation but its own."""
    from crosscheck.solvers.registry import built_in_names, registered_for, solvers_for

    names = built_in_names(solver.puzzle)
    others = registered_for(solver.puzzle)
    unloaded = [name for name in names or [] if name not in {other.name for other in others}]
    if names is None or any(name not in stored_footprints() or name not in stored_variants() for name in unloaded):
        return shares(solver, solvers_for(solver.puzzle))
    return shares(solver, others).union(*(_shared_with_stored(solver, name) for name in unloaded
                                          if name != solver.name))


def _shared_with_stored(solver: Solver, name: str) -> frozenset[str]:
    """`shared` between `solver` and the built-in formulation `name`, from its stored data."""
    try:
        other = stored_footprints()[name]
        return frozenset(footprint(solver) & other) | same_code(printed(solver),
                                                                _printed(other) | stored_variants()[name])
    except Exception as error:  # noqa: BLE001 (as in `shared`)
        names = " ~ ".join(sorted((solver.name, name)))
        return frozenset({f"{names} (not analysed: {type(error).__name__})"})


def pairs(solvers: list[Solver]) -> list[tuple[str, str, frozenset[str]]]:
    """Each pair of `solvers` (one puzzle's) and what the two share."""
    return [(a.name, b.name, shared(a, b)) for a, b in combinations(solvers, 2)]


def independent_group(solvers: list[Solver]) -> list[str]:
    """The names of a largest group of `solvers` no two of which share anything (the
    first such group in the solvers' order; every subset is tried, largest first)."""
    apart = {(a.name, b.name) for a, b in combinations(solvers, 2) if not shared(a, b)}
    for size in range(len(solvers), 0, -1):
        for group in combinations(solvers, size):
            if all((a.name, b.name) in apart for a, b in combinations(group, 2)):
                return [solver.name for solver in group]
    return []


def _write(footprints: dict[str, frozenset[str]], prints: dict[str, str | None], run_on: dict[str, dict[str, str]],
           write: Callable[[str], object]) -> None:
    """`footprints`, `prints` and `run_on` as the JSON `stored_data` reads, keys sorted."""
    data = {"footprints": {name: sorted(names) for name, names in footprints.items()},
            "fingerprints": dict(sorted(prints.items())),
            "variants": {name: dict(sorted(found.items())) for name, found in run_on.items()}}
    write(json.dumps(data, indent=1) + "\n")


def built_in_footprints() -> dict[str, frozenset[str]]:
    """Every built-in formulation's footprint, computed now."""
    from crosscheck.solvers.registry import BUILT_IN, ORIGINS, SOLVERS, load_all

    load_all()
    return {name: computed_footprint(solver) for name, solver in SOLVERS.items() if ORIGINS.get(name) == BUILT_IN}


def built_in_fingerprints(footprints: dict[str, frozenset[str]]) -> dict[str, str | None]:
    """The fingerprint of every function the built-in `footprints` name, computed now."""
    return fingerprints(set().union(*footprints.values()))


def built_in_variants() -> dict[str, dict[str, str]]:
    """Every built-in formulation's `crosscheck.harness.independence.walk.variants`, from its static walk, computed now."""
    from crosscheck.solvers.registry import BUILT_IN, ORIGINS, SOLVERS, load_all

    load_all()
    return {name: walk.variants(walk.static_reached(type(solver))) for name, solver in SOLVERS.items()
            if ORIGINS.get(name) == BUILT_IN}


def unable_here() -> list[str]:
    """The built-ins that cannot run here, with why (an extra not installed): traced on this
    machine, their footprints would miss what they run."""
    from crosscheck.solvers.registry import BUILT_IN, ORIGINS, SOLVERS, load_all

    load_all()
    return [f"{name}: {why}" for name, solver in SOLVERS.items()
            if ORIGINS.get(name) == BUILT_IN and (why := solver.unavailable()) is not None]


if __name__ == "__main__":
    if missing := unable_here():  # footprints written so would lose their traced entries
        raise SystemExit("not written: some built-ins cannot run here (install every extra):\n" + "\n".join(missing))
    computed = built_in_footprints()
    _write(computed, built_in_fingerprints(computed), built_in_variants(), FOOTPRINTS_FILE.write_text)
    print(f"wrote {FOOTPRINTS_FILE}")

"""The trusted base: code every formulation may run without its answers counting as shared.

Two formulations that both run a piece of code to decide an answer can be wrong
together, so their agreement is one line of evidence (`crosscheck.harness.independence.sharing`
computes who runs what).  The pieces below are the exception: parsers, data types,
the plan checkers and the engines.  Each is trusted because a test holds it against an
independent reference, so a planted fault in it fails the test suite; the line beside
each name says which test and which reference.

Rules that decide answers (which cells a robot may stand on, which floors are safe,
which amphipods are home) are deliberately *not* here: where two formulations run one,
it counts as shared; where independence matters, a formulation carries its own second
implementation (labelled as such in its docstring).

A name covers itself and everything inside it (a module its functions and classes, a
class its methods); names are qualified as in ``module.Class.method``.
"""

from __future__ import annotations

from functools import cache

#: Qualified name -> how it is verified (which tests, against what reference): the pieces every
#: puzzle's formulations share; each puzzle lists its own (`Puzzle.trusted`).
TRUSTED: dict[str, str] = {
    # Solver contract and engines
    "crosscheck.solvers.base": "tests/test_result.py: the Result validator refuses contradictory answers; "
                               "deadlines and error capture tested there",
    "crosscheck.solvers.configuration": "tests/test_configuration.py: specs, labels, expansion and the values that "
                                        "give up optimality against hand-written expectations (it names and reads "
                                        "options; what an option changes is the formulation's own code)",
    "crosscheck.solvers.engines.search": "tests/test_search.py: BFS, Dijkstra and A* against a brute-force shortest path "
                                 "on seeded random graphs",
    "crosscheck.solvers.engines.heap": "tests/test_heap.py: random pushes and pops, many of them tied, against heapq",
    "crosscheck.solvers.engines.node_table": "tests/test_compiled_engine.py: random finds and inserts, tables grown "
                                             "and refilled, against a dict",
    "crosscheck.solvers.engines.search_protocol": "tests/test_compiled_engine.py: packed priorities of random (f, g) "
                                                  "order and unpack as (f, -g) tuples do; statuses and counter slots "
                                                  "distinct",
    "crosscheck.solvers.engines.arrays": "tests/test_compiled_engine.py: doubled tables against a dict; the driver's "
                                         "arrays grown and searched in chunks against heapq's Dijkstra on random "
                                         "graphs",
    "crosscheck.solvers.engines.kernel_cache": "tests/test_compiled_engine.py: each kernel records the digest of the "
                                               "compiled parts it caches against; no answer depends on it",
    "crosscheck.solvers.engines.cpsat": "tests/test_cpsat.py: optimum, infeasibility and bounds of tiny models whose "
                                "answers are known by hand",
    "crosscheck.solvers.engines.sat": "tests/test_sat_certificates.py: DIMACS, digests, models and proofs of tiny formulas "
                              "known by hand; every refutation's proof is checked by the harness anyway",
    "crosscheck.solvers.certificate": "data types of certificates; tests/test_sat_certificates.py: which queries prove "
                                      "which claim",
    "crosscheck.extras": "the wording of a hint to install an optional extra: no answer depends on it",
    # Puzzle descriptions, parsers and errors
    "crosscheck.models.base": "tests/test_clear_errors.py: errors name file, line and column",
    "crosscheck.models.registry": "tests/test_clear_errors.py, tests/test_cli.py: detection and loading of files",
    "crosscheck.models.puzzle": "tests/test_hunt.py: size ranges checked; a puzzle's pieces are each guarded by its own "
                                "entries (`Puzzle.trusted`)",
}


@cache
def trusted() -> dict[str, str]:
    """The whole trusted base: `TRUSTED` and every known puzzle's own pieces (`Puzzle.trusted`)."""
    from crosscheck.models.registry import puzzles

    return {**TRUSTED, **{name: why for puzzle in puzzles().values() for name, why in puzzle.trusted.items()}}


@cache
def lemmas() -> dict[str, tuple[str, ...]]:
    """Lemma -> the modules whose answers rest on it, of every known puzzle (`Puzzle.lemmas`): a
    formulation that runs code of any of them shares the lemma (``lemma: ...`` in its footprint)
    with every other that does."""
    from crosscheck.models.registry import puzzles

    return {lemma: tuple(modules) for puzzle in puzzles().values() for lemma, modules in puzzle.lemmas.items()}


def lemmas_of(names: set[str] | frozenset[str]) -> set[str]:
    """The shared lemmas (as ``lemma: ...``) that code with the qualified `names` rests on."""
    return {f"lemma: {lemma}" for lemma, modules in lemmas().items()
            if any(name.startswith(module + ".") for name in names for module in modules)}


def is_trusted(qualified_name: str) -> bool:
    """Whether `qualified_name` is a trusted name or lies inside one."""
    return any(qualified_name == name or qualified_name.startswith(name + ".") for name in trusted())

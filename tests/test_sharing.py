"""Computed sharing: stored footprints match the code, and using another formulation's
helper shows up as sharing and lowers the independence count."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from itertools import combinations

import pytest
from crosscheck.harness.independence import sharing, walk
from crosscheck.harness.independence.trusted import is_trusted, lemmas_of, trusted
from crosscheck.models.keys.model import Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.keys.routes import contract
from crosscheck.solvers.registry import get_solver, solvers_for

from tests.fixtures import ROOT


class BorrowsRoutes(Solver):
    """A researcher's formulation that reuses keys-graph's route contraction."""

    name = "borrows-routes"
    puzzle = "keys"
    summary = "calls crosscheck.solvers.keys.routes.contract"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=f"{len(contract(instance).cells)} nodes")


class AsksTheVault(Solver):
    """Reuses the model's passability rule through a name built at run time."""

    name = "asks-the-vault"
    puzzle = "keys"
    summary = "calls vault.passable by getattr"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        rule = getattr(instance, "pass" + "able")
        return Answer(Status.UNSUPPORTED, message=str(rule(".")))


class ImportsLate(Solver):
    """Imports another formulation's helper inside `_solve`, as code does to start fast."""

    name = "imports-late"
    puzzle = "keys"
    summary = "imports contract where it uses it"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        from crosscheck.solvers.keys.routes import contract as contracted  # late, on purpose

        return Answer(Status.UNSUPPORTED, message=str(len(contracted(instance).routes)))


def test_stored_footprints_match_the_code() -> None:
    """What `python -m crosscheck.harness.independence.sharing` would write now is what is stored."""
    computed = sharing.built_in_footprints()
    for name, names in computed.items():
        if get_solver(name).unavailable() is None:
            assert names == sharing.stored_footprints()[name], (name, sorted(names ^ sharing.stored_footprints()[name]))
    assert set(computed) == set(sharing.stored_footprints())


def test_a_borrowed_helper_shows_as_shared_and_lowers_independence() -> None:
    keys = solvers_for("keys")
    before = sharing.independent_group(keys)
    plugin = BorrowsRoutes()
    assert "crosscheck.solvers.keys.routes.contract" in sharing.footprint(plugin)
    assert "crosscheck.solvers.keys.routes.contract" in sharing.shares(plugin, [*keys, plugin])
    assert "crosscheck.solvers.keys.routes.contract" in sharing.shares(get_solver("keys-grid"), [plugin]) | \
        sharing.shares(get_solver("keys-graph"), [plugin])
    # keys-grid alone with the plugin: independent; keys-graph with it: not
    grid, graph = get_solver("keys-grid"), get_solver("keys-graph")
    assert sharing.independent_group([grid, plugin]) == ["keys-grid", "borrows-routes"]
    assert len(sharing.independent_group([graph, plugin])) == 1
    assert len(sharing.independent_group([*keys, plugin])) == len(before)


def test_compiled_functions_count_by_their_python_source() -> None:
    """amphipods-steps runs its rules compiled (numba), where the tracer cannot see them:
    the static derivation follows each compiled function to its Python source."""
    static = walk.static_footprint(type(get_solver("amphipods-steps")))
    assert {"crosscheck.solvers.amphipods.steps_kernel.search", "crosscheck.solvers.amphipods.steps_kernel.expand",
            "crosscheck.solvers.amphipods.steps_kernel.stuck", "crosscheck.solvers.amphipods.steps_kernel.bound"} <= static


def test_a_name_imported_inside_a_function_is_followed_statically() -> None:
    """keys-graph imports its compiled search only when it runs it; the static derivation
    follows a function's own imports, so the compiled kernel counts in its footprint."""
    assert "crosscheck.solvers.keys.routes.contract" in walk.static_footprint(ImportsLate)
    assert "crosscheck.solvers.keys.graph_kernel.search" in walk.static_footprint(type(get_solver("keys-graph")))


def test_a_module_imported_inside_a_function_is_followed_in_a_fresh_process() -> None:
    """keys-fd imports the planner's `downward` module inside its methods; whether something
    imported it before must not matter (a fresh interpreter has not)."""
    script = ("from crosscheck.harness.independence import walk; from crosscheck.solvers.registry import get_solver; "
              "print(sorted(walk.static_footprint(type(get_solver('keys-fd')))))")
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert "crosscheck.solvers.engines.downward.solve" in found


def test_a_call_by_a_computed_name_counts_every_method_of_the_class_and_is_traced() -> None:
    """``getattr(instance, "pass" + "able")`` on ``instance: Vault``: statically every method of
    `Vault` (the name is not known), in the trace the one that ran."""
    plugin = AsksTheVault()
    assert {"crosscheck.models.keys.model.Vault.passable",
            "crosscheck.models.keys.model.Vault.open_neighbours"} <= walk.static_footprint(AsksTheVault)
    traced = sharing.footprint(plugin, traced=True)
    assert "crosscheck.models.keys.model.Vault.passable" in traced
    assert traced & sharing.footprint(get_solver("keys-graph"))


@pytest.mark.parametrize("puzzle", ["keys", "amphipods", "elevator"])
def test_the_static_derivation_alone_finds_what_built_ins_share(puzzle: str) -> None:
    """What a plugin gets (the static footprint) finds, between built-ins, exactly what the
    stored footprints (static and traced) share: nothing more (a method of an unrelated
    class taken for the one called, a protocol's declaration) and nothing less, the
    Fast Downward formulations left out (they import their encoder by a name in a table)."""
    solvers = [solver for solver in solvers_for(puzzle) if not solver.name.endswith("-fd")]
    for first, second in combinations(solvers, 2):
        static = [walk.static_footprint(type(solver)) for solver in (first, second)]
        found = static[0] & static[1]
        found |= lemmas_of(static[0]) & lemmas_of(static[1])
        assert found == sharing.stored_footprints()[first.name] & sharing.stored_footprints()[second.name], (first.name, second.name)


def test_planting_a_call_into_keys_grid_makes_it_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """keys-grid shares nothing today; once its code calls keys-graph's bound, the
    recomputed footprints show the sharing."""
    grid = get_solver("keys-grid")
    assert grid.shares == frozenset()
    module = importlib.import_module("crosscheck.solvers.keys.grid")
    original = module.KeysGrid._solve

    def planted(self: Solver, instance: Vault, deadline: Deadline) -> Answer:
        contract(instance)  # the planted use of another formulation's helper
        return original(self, instance, deadline)

    monkeypatch.setattr(module.KeysGrid, "_solve", planted)
    assert "crosscheck.solvers.keys.routes.contract" in sharing.computed_footprint(grid)


def test_every_trusted_name_exists_and_says_how_it_is_verified() -> None:
    """A typo in the trusted base would silently trust nothing (or the wrong thing)."""
    for name, how in trusted().items():
        assert how.strip(), name
        parts = name.split(".")
        for split in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:split]))
            except ModuleNotFoundError:
                continue
            for attribute in parts[split:]:
                found = getattr(found, attribute)
            break
        else:
            pytest.fail(f"{name} names nothing")
    assert is_trusted("crosscheck.solvers.engines.search.best_first_search")
    assert not is_trusted("crosscheck.models.keys.model.Vault.passable")
    assert not is_trusted("crosscheck.solvers.searchlight")


def test_every_test_the_trusted_base_cites_exists() -> None:
    """A piece is trusted because of the tests it names (``tests/FILE.py`` or
    ``tests/FILE.py::test_name``): a moved or renamed test must not leave it guarded by nothing.
    crosscheck's own pieces only: a plugin's cite the tests of its own distribution."""
    cited = [(name, path, test) for name, how in trusted().items() if name.startswith("crosscheck.")
             for path, test in re.findall(r"((?:benchmarks/)?tests/[\w/]+\.py)(?:::(\w+))?", how)]
    assert len(cited) >= 20  # the pattern finds them (else this test would pass vacuously)
    for name, path, test in cited:
        assert (ROOT / path).is_file(), f"{name}: {path} does not exist"
        assert not test or f"def {test}(" in (ROOT / path).read_text(encoding="utf-8"), f"{name}: no {path}::{test}"


def test_records_carry_the_computed_shares() -> None:
    """`Solver.shares` (what run records keep) is the computed sharing."""
    for solver in solvers_for("elevator"):
        assert solver.shares == sharing.shares(solver)
    assert "crosscheck.models.elevator.model.all_safe" in get_solver("elevator-quotient").shares
    assert get_solver("elevator-bfs").shares == frozenset()

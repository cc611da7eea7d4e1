"""Fast Downward on every puzzle: published optima, agreement with the other formulations
on seeded instances, proofs of infeasibility, honest timeouts.  Skipped without the
``planners`` extra (``pip install -e '.[test,planners]'``)."""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path
from typing import Any, get_args

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.inputs.index import discover
from crosscheck.models.amphipods import model as amphipods
from crosscheck.models.answers import Optimum
from crosscheck.models.elevator import model as elevator
from crosscheck.models.keys.model import generate as generate_vault
from crosscheck.models.keys.model import parse as parse_vault
from crosscheck.models.registry import load_instance, puzzles
from crosscheck.solvers.base import Status
from crosscheck.solvers.engines import downward
from crosscheck.solvers.engines.fd import Heuristic
from crosscheck.solvers.engines.sat import discard_proofs
from crosscheck.solvers.registry import get_solver, solvers_for

from tests.fixtures import INSTANCES

try:
    downward.binaries()
except downward.PlannerMissing as missing:
    # CI installs the extra and sets this variable, so a broken install fails there.
    if os.environ.get("CROSSCHECK_REQUIRE_PLANNER"):
        raise
    pytest.skip(str(missing), allow_module_level=True)

#: Published examples the planner solves in a few seconds; the rest run with -m slow.
QUICK = {
    "keys/one-robot-1.txt", "keys/one-robot-2.txt", "keys/one-robot-3.txt", "keys/one-robot-5.txt",
    "keys/loop-1.txt", "keys/four-robots-1.txt", "keys/four-robots-2.txt", "keys/four-robots-3.txt",
    "keys/four-robots-4.txt", "elevator/two-pairs-example.txt",
}
SLOW = {"keys/one-robot-4.txt", "amphipods/depth2-example.txt", "amphipods/depth2-b.txt"}
FD = {"keys": "keys-fd", "amphipods": "amphipods-fd", "elevator": "elevator-fd"}


def _solve_and_check(solver: str, puzzle: str, instance: Any, limit: float) -> Any:
    """Solve, and replay any plan with the puzzle's checker, which must recompute the cost."""
    result = get_solver(solver).solve(instance, limit)
    discard_proofs(result.certificate)  # elevator-sat's, which no harness checks here
    assert result.status is not Status.ERROR, result.message
    if result.plan is not None:
        assert puzzles()[puzzle].check_plan(instance, result.plan) == result.cost
    return result


@pytest.mark.parametrize("name", sorted(QUICK) + [pytest.param(name, marks=pytest.mark.slow) for name in sorted(SLOW)])
def test_published_optimum(name: str) -> None:
    files = {f.name: f for f in discover(INSTANCES)}
    puzzle, instance = load_instance(str(files[name].path))
    result = _solve_and_check(FD[puzzle.name], puzzle.name, instance, 120)
    assert result.status is Status.OPTIMAL
    assert files[name].expected == Optimum(result.cost)


def _references(puzzle: str) -> list[str]:
    names = [solver.name for solver in solvers_for(puzzle) if solver.name != FD[puzzle]]
    if not names:
        pytest.skip(f"no other {puzzle} formulation registered to compare with")
    return names


def _agree(puzzle: str, instance: Any, limit: float = 30) -> Status:
    """The planner's exact answer equals every other formulation's exact answer."""
    mine = _solve_and_check(FD[puzzle], puzzle, instance, limit)
    assert mine.status in (Status.OPTIMAL, Status.INFEASIBLE), mine.message
    for reference in _references(puzzle):
        theirs = _solve_and_check(reference, puzzle, instance, limit)
        if theirs.status in (Status.OPTIMAL, Status.INFEASIBLE):
            assert (theirs.status, theirs.cost) == (mine.status, mine.cost), f"{reference} on {instance.name}"
    return mine.status


@pytest.mark.parametrize("seed", range(6))
def test_generated_vaults_agree(seed: int) -> None:
    vault = generate_vault(seed, size=9 + 4 * (seed % 2), keys=3 + seed % 3, loops=seed % 3, robots=(1, 4)[seed % 2])
    _agree("keys", vault)


def test_a_locked_key_is_proven_unreachable() -> None:
    result = _solve_and_check("keys-fd", "keys", parse_vault("#####\n#@Ab#\n#####\n", "locked.txt"), 30)
    assert result.status is Status.INFEASIBLE


@pytest.mark.parametrize("text", ["#####\n#@..#\n#####\n", "#######\n#@.A..#\n#######\n"])
def test_a_vault_without_keys_is_solved_by_standing_still(text: str) -> None:
    """No keys: the start is the goal (once Fast Downward refused the empty goal, exit 34)."""
    result = _solve_and_check("keys-fd", "keys", parse_vault(text, "keyless.txt"), 30)
    assert (result.status, result.cost, list(result.plan or [])) == (Status.OPTIMAL, 0, [])


@pytest.mark.parametrize("seed", range(4))
def test_generated_burrows_agree(seed: int) -> None:
    _agree("amphipods", amphipods.generate(seed, depth=1))


@pytest.mark.parametrize("seed, pairs, floors, safe", [
    (0, 2, 4, True), (1, 2, 4, True), (2, 3, 4, True), (3, 3, 3, True), (4, 2, 3, False), (5, 3, 4, False),
    (6, 1, 1, True), (7, 3, 2, True),
])
def test_generated_facilities_agree(seed: int, pairs: int, floors: int, safe: bool) -> None:
    _agree("elevator", elevator.generate(seed, pairs=pairs, floors=floors, safe=safe))


def test_the_option_names_the_heuristics_the_planner_runs() -> None:
    assert set(get_args(Heuristic)) == set(downward.HEURISTICS)


def test_timeout_is_honest() -> None:
    """Cut short, the planner stops near its limit without a plan, and the bound it reports
    (A*'s f-layer) is at most the optimum it proves when given the time.

    The cuts are fractions of the full run's own time, so on a loaded machine too some cut
    falls while the search (not the translator) runs and a bound is reported."""
    vault = generate_vault(0, size=17, keys=10, loops=2)  # about 6,000 expansions
    slow = "keys-fd[heuristic=lmcut]"  # LM-cut's costly states make the search, not the translator, take the time
    full = _solve_and_check(slow, "keys", vault, 60)
    assert full.status is Status.OPTIMAL and full.cost is not None
    bounds = []
    for fraction in (0.7, 0.5, 0.3):
        limit = fraction * full.seconds
        start = time.perf_counter()
        cut = get_solver(slow).solve(vault, limit)
        assert time.perf_counter() - start < limit + 5  # stopped near its limit
        if cut.status is Status.OPTIMAL:  # this run was quicker than the full one
            assert cut.cost == full.cost
            continue
        assert cut.status is Status.TIMEOUT and cut.plan is None
        if cut.bound is not None:
            assert 0 < cut.bound <= full.cost
            bounds.append(cut.bound)
    assert bounds, "no cut fell during the search"


def test_a_cpu_limit_ends_the_planner_as_a_timeout() -> None:
    """On a CPU clock the kernel caps each planner process at the CPU seconds left
    (rounded up to whole seconds): a timeout with A*'s bound, not a crash."""
    vault = generate_vault(0, size=21, keys=12, loops=2)  # about 6 CPU seconds in full with LM-cut
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cut = get_solver("keys-fd[heuristic=lmcut]").solve(vault, 1.0, "cpu")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert cut.status is Status.TIMEOUT and cut.plan is None
    assert after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime <= 3  # translator + search


def test_solve_command_runs_the_planner_in_isolation(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    path.write_text("#########\n#b.A.@.a#\n#########\n")
    result = CliRunner().invoke(main, ["solve", str(path), "--solver", "keys-fd", "--json", "--memory-limit", "2048"])
    assert result.exit_code == 0, result.output
    assert '"status": "optimal"' in result.output and '"cost": 8' in result.output

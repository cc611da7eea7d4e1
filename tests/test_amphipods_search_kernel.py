"""amphipods-search's compiled search (solvers/amphipods/search_kernel.py) against its Python
search: the same answers and bounds on seeded burrows, with every option, solvable or not."""

from __future__ import annotations

from pathlib import Path

import pytest
from crosscheck.models.amphipods.model import Burrow, check_plan, deep, generate, parse
from crosscheck.solvers.amphipods import search_compiled
from crosscheck.solvers.amphipods.common import Layout
from crosscheck.solvers.amphipods.search import AmphipodsSearch, MacroMoves, SearchOptions, to_move
from crosscheck.solvers.base import Deadline
from crosscheck.solvers.engines.search import Ending, Strategy, best_first_search

from tests.test_amphipods_midway import BLOCKED, PARTLY_EMPTY

INSTANCES = Path(__file__).resolve().parents[1] / "instances" / "amphipods"
#: Seeded burrows, the published depth-2 examples, and burrows in the middle of a plan.
BURROWS = [generate(seed, depth=depth, style=style) for seed in range(4)
           for depth, style in ((1, "random"), (2, "random"), (2, "real"), (3, "random"))] + [
    parse(path.read_text(), path.name) for path in sorted(INSTANCES.glob("depth2-*.txt"))] + [
    parse(BLOCKED, "blocked"), parse(PARTLY_EMPTY, "partly-empty")]
OPTIONS = [SearchOptions(), SearchOptions(dead_states="kept"), SearchOptions(heuristic="off")]


def _python(burrow: Burrow, options: SearchOptions) -> tuple[Ending, int | None]:
    strategy = Strategy.ASTAR if options.heuristic == "on" else Strategy.DIJKSTRA
    outcome = best_first_search(MacroMoves(Layout.of(burrow), options), strategy)
    return outcome.status, outcome.cost


@pytest.mark.parametrize("options", OPTIONS, ids=["default", "kept", "dijkstra"])
def test_compiled_search_answers_as_the_python_search(options: SearchOptions) -> None:
    """Same ending and cost on every burrow; each compiled plan is accepted by the checker at its cost."""
    for burrow in BURROWS:
        if options.heuristic == "off" and burrow.depth > 2:
            continue  # Dijkstra in Python takes seconds there
        compiled = search_compiled.compiled_search(MacroMoves(Layout.of(burrow), options), capacity=64)
        assert (compiled.status, compiled.cost) == _python(burrow, options), burrow.name
        if compiled.status is Ending.SOLVED:
            assert compiled.actions is not None
            plan = [to_move(move) for action in compiled.actions for move in action]
            assert check_plan(burrow, plan) == compiled.cost


def test_deep_burrows_too() -> None:
    burrow = deep(generate(1, depth=2, style="real"))
    compiled = search_compiled.compiled_search(MacroMoves(Layout.of(burrow)))
    assert (compiled.status, compiled.cost) == _python(burrow, SearchOptions())


def test_a_work_limit_stops_it_with_a_proven_bound() -> None:
    burrow = generate(0, depth=2, style="real")
    optimum = _python(burrow, SearchOptions())[1]
    outcome = search_compiled.compiled_search(MacroMoves(Layout.of(burrow)), Deadline(None, work=3))
    assert outcome.status is Ending.TIMEOUT
    assert outcome.bound is not None and optimum is not None and outcome.bound <= optimum


def test_the_formulation_runs_it_once_warmed_up() -> None:
    """After `warm_up` a burrow that fits runs compiled, a deeper one in Python."""
    AmphipodsSearch.warm_up()
    solver = AmphipodsSearch()
    assert solver.solve(generate(1, depth=2)).stats["kernel"] == "compiled"
    deep = generate(1, depth=8)
    assert not MacroMoves(Layout.of(deep)).fits()
    assert solver.solve(deep, time_limit=0.5).stats["kernel"] == "python"

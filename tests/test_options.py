"""Every option of every built-in formulation, run on small instances against the default.

For each non-default value of each option (and a CP-SAT parameter passed through, per CP-SAT
formulation), `CASES` names a configuration, the configuration it is compared with (the
default, or one where the option shows), the instances, and the statistic that must differ on
at least one of them: the option changes what runs.  Its answers must agree with the
reference's: the same exact answer for a configuration that keeps optimality, and for one that
gives up optimality (or a CP-SAT limit passed through) a plan the checker accepts, no cheaper
than the optimum, and never an optimum (`test_every_option_value_is_exercised` keeps the table
complete).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from crosscheck.models.base import Instance
from crosscheck.models.registry import get_puzzle, load_instance
from crosscheck.solvers.base import EXACT_STATUSES, Result, Status
from crosscheck.solvers.configuration import PASS_THROUGH, canonical, choices
from crosscheck.solvers.engines.cpsat import WORKERS_VARIABLE, CpsatOptions
from crosscheck.solvers.engines.sat import discard_proofs
from crosscheck.solvers.registry import get_solver, load_all, solvers_for

from tests.fixtures import INSTANCES

KEYS = ("keys/one-robot-2.txt", "keys/four-robots-4.txt", "keys/loop-1.txt")
LOOPY = ("keys/generated/s21-k8-loops4/vault21-k8-d6-l4-r1-s1.txt",
         "keys/generated/s21-k8-loops4/vault21-k8-d6-l4-r1-s2.txt")
BURROWS = ("amphipods/depth2-example.txt", "amphipods/depth2-b.txt")
SHALLOW = ("amphipods/generated/d1/burrow-d1-random-s4.txt",)  # the planner's heuristics take seconds on depth 2
FACILITIES = ("elevator/two-pairs-example.txt", "elevator/three-matched.txt", "elevator/stranded-chip.txt")


@dataclass(frozen=True)
class Case:
    """`spec` against `reference` on `paths`; `stat` differs on one of them; `limited`: a
    CP-SAT limit passed through, whose answers need not be exact."""

    spec: str
    reference: str
    paths: tuple[str, ...]
    stat: str
    limited: bool = False


CASES = (
    Case("keys-graph[bound=none]", "keys-graph", KEYS, "expanded"),
    Case("keys-graph[bound=door-free]", "keys-graph", KEYS, "expanded"),
    Case("keys-graph[cycle-tours=off]", "keys-graph", LOOPY, "expanded"),
    Case("keys-graph[bound=none,dominance=off]", "keys-graph[bound=none]", LOOPY, "expanded"),
    Case("keys-cpsat[level-cuts=off]", "keys-cpsat", KEYS, "constraints"),
    Case("keys-cpsat[lb-tree-search=off]", "keys-cpsat", KEYS, "subsolvers"),
    Case("keys-cpsat[cpsat.stop_after_presolve=true]", "keys-cpsat", KEYS[:1], "cp_status", limited=True),
    Case("amphipods-search[heuristic=off]", "amphipods-search", BURROWS, "expanded"),
    Case("amphipods-search[dead-states=kept]", "amphipods-search", BURROWS, "expanded"),
    Case("amphipods-search[weight=2]", "amphipods-search", BURROWS, "expanded"),
    Case("amphipods-cpsat[stop-intervals=off]", "amphipods-cpsat", BURROWS[:1], "constraints"),
    Case("amphipods-cpsat[cpsat.stop_after_presolve=true]", "amphipods-cpsat", BURROWS[:1], "cp_status",
         limited=True),
    Case("elevator-quotient[states=labelled]", "elevator-quotient", FACILITIES, "expanded"),
    Case("elevator-quotient[bound=none]", "elevator-quotient", FACILITIES, "expanded"),
    Case("elevator-cpsat[top-floor-cuts=off]", "elevator-cpsat", FACILITIES, "constraints"),
    Case("elevator-sat[states=labelled]", "elevator-sat", FACILITIES, "conflicts"),
    Case("keys-fd[heuristic=lmcut]", "keys-fd", KEYS, "expanded"),
    Case("keys-fd[heuristic=ipdb]", "keys-fd", KEYS, "expanded"),
    Case("amphipods-fd[heuristic=lmcut]", "amphipods-fd", SHALLOW, "expanded"),
    Case("amphipods-fd[heuristic=ipdb]", "amphipods-fd", SHALLOW, "expanded"),
    Case("elevator-fd[heuristic=lmcut]", "elevator-fd", FACILITIES, "expanded"),
    Case("elevator-fd[heuristic=ipdb]", "elevator-fd", FACILITIES, "expanded"),
    Case("elevator-cpsat[cpsat.stop_after_presolve=true]", "elevator-cpsat", FACILITIES[1:2], "conflicts",
         limited=True),
)


def _instance(path: str) -> Instance:
    return load_instance(str(INSTANCES / path))[1]


def _checked_cost(result: Result, instance: Instance) -> int:
    """The checker's cost of the result's plan (the harness's check, done here by the test)."""
    assert result.plan is not None
    return get_puzzle(get_solver(result.solver).puzzle).check_plan(instance, result.plan)


def _agrees(result: Result, reference: Result, instance: Instance, exact: bool) -> None:
    """`result` is consistent with `reference`, an exact answer (see the module doc)."""
    assert reference.status in EXACT_STATUSES, f"{reference.solver} on {instance.name}: {reference.status}"
    if result.plan is not None:
        assert _checked_cost(result, instance) == result.cost
    if exact:
        assert (result.status, result.cost) == (reference.status, reference.cost), instance.name
        return
    if result.status is Status.INFEASIBLE or reference.status is Status.INFEASIBLE:
        assert result.plan is None and result.status is not Status.OPTIMAL, instance.name
        return
    assert reference.cost is not None
    if result.status is Status.OPTIMAL:  # a CP-SAT limit that did not bite: still the optimum
        assert result.cost == reference.cost, instance.name
    if result.cost is not None:
        assert result.cost >= reference.cost, instance.name
    if result.bound is not None:
        assert result.bound <= reference.cost, instance.name


@pytest.mark.parametrize("case", CASES, ids=[case.spec for case in CASES])
def test_an_option_value_changes_the_run_and_keeps_the_answers(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WORKERS_VARIABLE, "2")  # lb_tree_search needs a second worker
    configured, reference = get_solver(case.spec), get_solver(case.reference)
    exact = not configured.gives_up_optimality and not case.limited
    differs = False
    for path in case.paths:
        instance = _instance(path)
        result, expected = configured.solve(instance, 30), reference.solve(instance, 30)
        discard_proofs(result.certificate)  # elevator-sat's, which no harness checks here
        discard_proofs(expected.certificate)
        _agrees(result, expected, instance, exact)
        if configured.gives_up_optimality:  # its plans are upper bounds, nothing more
            assert result.status is not Status.OPTIMAL and result.bound is None
        differs |= result.stats.get(case.stat) != expected.stats.get(case.stat)
    assert differs, f"{case.spec}: {case.stat} is the same as {case.reference}'s on every instance"


def _settings(spec: str) -> set[tuple[str, str, str]]:
    """The (formulation, option, value) a spec sets away from its default (a pass-through as its name)."""
    found = canonical(spec)
    options = found.options
    settings = set()
    for name, info in type(options).model_fields.items():
        value = getattr(options, name)
        if name in PASS_THROUGH:
            settings |= {(found.solver.name, name, "") for _ in value}
        elif value != info.default:
            settings.add((found.solver.name, name, str(value)))
    return settings


def test_every_option_value_is_exercised() -> None:
    """Each non-default value of every built-in's options, and CP-SAT's pass-through of each
    CP-SAT formulation, is set by some case."""
    load_all()
    wanted = set()
    for puzzle in ("keys", "amphipods", "elevator"):
        for solver in solvers_for(puzzle):
            options = solver.Options
            for name, info in options.model_fields.items():
                if name in PASS_THROUGH:
                    assert issubclass(options, CpsatOptions)
                    wanted.add((solver.name, name, ""))
                    continue
                values = choices(options, name)
                assert values is not None, f"{solver.name} option {name}: give it a Literal of values"
                wanted |= {(solver.name, name, str(value)) for value in values if value != info.default}
    covered = set().union(*(_settings(case.spec) for case in CASES))
    assert wanted - covered == set()

"""Formulation options and configurations (crosscheck.solvers.configuration): specs, labels,
expansion, errors, CP-SAT's parameters passed through, and the answers of a configuration
that gives up optimality."""

from __future__ import annotations

from collections.abc import Iterator

import crosscheck.solvers.registry
import pytest
from crosscheck.models.keys.model import parse
from crosscheck.solvers.base import Answer, Status, plan_only
from crosscheck.solvers.configuration import ConfigurationError, canonical, described, expand, parse_specs
from crosscheck.solvers.engines.cpsat import sat_parameter
from crosscheck.solvers.registry import add_plugins, get_solver, registered

#: A corridor: the greedy walk is optimal (3 moves), one detour makes it 5.
CORRIDOR = parse("#####\n#@.a#\n#####\n")


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register tests.fixtures.configured_solvers, restoring the registry afterwards."""
    monkeypatch.setattr(crosscheck.solvers.registry, "SOLVERS", dict(crosscheck.solvers.registry.SOLVERS))
    monkeypatch.setattr(crosscheck.solvers.registry, "CONFIGURED", {})
    add_plugins(("tests.fixtures.configured_solvers",))
    yield


def test_a_plain_name_is_the_default_configuration() -> None:
    assert parse_specs(["keys-graph"]) == ("keys-graph",)
    assert get_solver("keys-graph").label == "keys-graph"


def test_alternatives_expand_to_one_configuration_each_in_the_order_written() -> None:
    assert parse_specs(["keys-graph[bound=none|default]"]) == ("keys-graph[bound=none]", "keys-graph")
    assert parse_specs(["keys-graph[bound=door-free|none,dominance=on|off]"]) == (
        "keys-graph[bound=door-free]", "keys-graph[bound=door-free,dominance=off]",
        "keys-graph[bound=none]", "keys-graph[bound=none,dominance=off]")


def test_labels_are_canonical_and_leave_defaults_out() -> None:
    assert canonical("keys-graph[dominance=off, bound=none]").label == "keys-graph[bound=none,dominance=off]"
    assert canonical("keys-graph[bound=walk,cycle-tours=on]").label == "keys-graph"
    assert parse_specs(["keys-graph", "keys-graph[bound=walk]", "keys-graph[bound=default]"]) == ("keys-graph",)


@pytest.mark.parametrize(("spec", "words"), [
    ("keys-graph[bond=none]", "keys-graph has no option 'bond'; its options: bound, cycle-tours, dominance"),
    ("keys-graph[bound=weak]", "keys-graph option bound: 'weak' is not one of walk, door-free, none (or default)"),
    ("keys-grid[bound=none]", "keys-grid has no option 'bound'; it has no options"),
    ("keys-graf", "unknown solver 'keys-graf'; valid solvers:"),
    ("keys-graph[bound=none", "expected NAME[option=value,...] ending in ']'"),
    ("keys-graph[bound]", "expected option=value (alternatives value|value), got 'bound'"),
    ("keys-graph[bound=none|]", "expected option=value"),
    ("keys-graph[bound=none,bound=walk]", "option 'bound' given twice"),
    ("keys-cpsat[cpsat.num_workers=4]", "CP-SAT's num_workers is set by the harness"),
    ("keys-cpsat[cpsat.no_such_thing=1]", "CP-SAT has no parameter 'no_such_thing'"),
    ("keys-cpsat[cpsat.linearization_level=high]", "CP-SAT's linearization_level: 'high' is not an integer"),
    ("keys-graph[cpsat.linearization_level=2]", "keys-graph has no option 'cpsat.linearization_level'"),
])
def test_a_spec_naming_no_configuration_says_what_is_valid(spec: str, words: str) -> None:
    with pytest.raises(ConfigurationError, match=None) as caught:
        parse_specs([spec])
    assert words in str(caught.value)


def test_one_configuration_is_wanted_where_a_label_stands_for_a_run() -> None:
    with pytest.raises(ConfigurationError, match="names 2 configurations"):
        canonical("keys-graph[bound=none|walk]")
    with pytest.raises(KeyError, match="names 2 configurations"):
        get_solver("keys-graph[bound=none|walk]")


def test_cpsat_parameters_pass_through_typed_and_sorted_last() -> None:
    found = canonical("keys-cpsat[cpsat.search_branching=FIXED_SEARCH,cpsat.linearization_level=2,level-cuts=off]")
    assert found.label == ("keys-cpsat[level-cuts=off,cpsat.linearization_level=2,"
                           "cpsat.search_branching=FIXED_SEARCH]")
    assert found.options.model_dump(by_alias=True)["cpsat"] == {"linearization_level": 2,
                                                                "search_branching": "FIXED_SEARCH"}
    assert parse_specs(["keys-cpsat[cpsat.linearization_level=0|2|default]"]) == (
        "keys-cpsat[cpsat.linearization_level=0]", "keys-cpsat[cpsat.linearization_level=2]", "keys-cpsat")
    assert sat_parameter("use_lns", "off") is False and sat_parameter("relative_gap_limit", "0.5") == 0.5


def test_a_configured_solver_is_a_copy_named_by_its_label() -> None:
    solver = get_solver("keys-graph[bound=none]")
    assert (solver.name, solver.label, solver.options.model_dump(by_alias=True)) == (
        "keys-graph", "keys-graph[bound=none]", {"bound": "none", "cycle-tours": "on", "dominance": "on"})
    assert get_solver("keys-graph").label == "keys-graph"  # the registered default is unchanged
    assert registered("keys-graph[bound=none]") is solver and registered("keys-graph[bound=nine]") is None
    assert solver.solve(CORRIDOR).solver == "keys-graph[bound=none]"
    with pytest.raises(TypeError, match="takes options of KeysGraphOptions"):
        solver.configured(get_solver("amphipods-search").options)


def test_the_values_that_give_up_optimality_are_declared_per_option() -> None:
    assert get_solver("amphipods-search[weight=2]").gives_up_optimality == ("weight=2",)
    assert get_solver("amphipods-search[heuristic=off]").gives_up_optimality == ()
    rows = {name: (values, default) for name, values, default, _ in described(get_solver("amphipods-search").Options)}
    assert rows["weight"] == ("1|2 (inexact)", "1")


def test_a_configuration_that_gives_up_optimality_never_answers_optimal(planted: None) -> None:
    exact, inexact = get_solver("test-detour"), get_solver("test-detour[detour=on]")
    assert (exact.solve(CORRIDOR).status, exact.solve(CORRIDOR).cost) == (Status.OPTIMAL, 2)
    result = inexact.solve(CORRIDOR)
    assert (result.status, result.cost, result.bound) == (Status.FEASIBLE, 4, None)
    assert result.stats["claimed"] == "optimal" and "gives up optimality (detour=on)" in result.message


@pytest.mark.parametrize(("answer", "status"), [
    (Answer(Status.OPTIMAL, 7, 7, ["m"] * 7), Status.FEASIBLE),
    (Answer(Status.FEASIBLE, 7, 5, ["m"] * 7), Status.FEASIBLE),
    (Answer(Status.INFEASIBLE), Status.TIMEOUT),
    (Answer(Status.TIMEOUT, bound=6), Status.TIMEOUT),
    (Answer(Status.ERROR, message="boom"), Status.ERROR),
])
def test_plan_only_keeps_the_plan_and_drops_every_claim(answer: Answer, status: Status) -> None:
    read = plan_only(answer, ("weight=2",))
    assert (read.status, read.bound, read.plan) == (status, None if status is not Status.ERROR else answer.bound,
                                                   answer.plan)


def test_every_expansion_is_a_list_of_configurations_of_the_formulation_named() -> None:
    found = expand("elevator-quotient[states=labelled|quotient,bound=none]")
    assert [c.label for c in found] == ["elevator-quotient[states=labelled,bound=none]",
                                        "elevator-quotient[bound=none]"]
    assert {c.solver.name for c in found} == {"elevator-quotient"}

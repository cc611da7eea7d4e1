"""A plugin's own code counts as shared: a subclass delegating through ``super()`` and two
classes calling one helper of the plugin's module share it, in run records as in
``crosscheck list --shares`` (formulations in tests/fixtures/shared_solvers.py).  So does a method
of the model called on an object (formulations in tests/fixtures/receiver_solvers.py)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import crosscheck.solvers.registry
import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.independence import sharing, walk
from crosscheck.harness.judging.verdicts import Verdict, judge_all
from crosscheck.harness.records.record import read_records
from crosscheck.models.answers import Optimum
from crosscheck.solvers.base import Solver
from crosscheck.solvers.registry import get_solver, solvers_for

from tests.fixtures.cli import VAULT
from tests.fixtures.copied_helpers import BindsItsBound, BindsItsOwnBound, SetsUpItsBound
from tests.fixtures.receiver_solvers import (
    AsksAnnotated,
    AsksThroughAttribute,
    AsksThroughReturn,
    AsksUnknown,
    KeepsItsRules,
    LooksUp,
    OwnRules,
    OwnTable,
)
from tests.fixtures.shared_solvers import Echo, Pacer, Strider, Walker

PLUGINS = ("test-walker", "test-echo", "test-strider", "test-pacer")
PASSABLE = "crosscheck.models.keys.model.Vault.passable"


@pytest.fixture(autouse=True)
def plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register tests/fixtures/shared_solvers.py for the CLI and its runs; restore the registry afterwards."""
    monkeypatch.setenv("CROSSCHECK_SOLVERS", "tests.fixtures.shared_solvers")
    monkeypatch.setattr(crosscheck.solvers.registry, "SOLVERS", dict(crosscheck.solvers.registry.SOLVERS))


def test_a_subclass_delegating_through_super_shares_its_base() -> None:
    static = walk.static_footprint(Echo)
    assert {"tests.fixtures.shared_solvers.Echo._solve", "tests.fixtures.shared_solvers.Walker._solve",
            "tests.fixtures.shared_solvers._Walks.successors"} <= static
    assert "tests.fixtures.shared_solvers.Walker._solve" in sharing.shares(Echo(), [Walker(), Echo()])


def test_two_classes_calling_one_module_helper_share_it() -> None:
    both = sharing.footprint(Strider()) & sharing.footprint(Pacer())
    assert {"tests.fixtures.shared_solvers.shortest", "tests.fixtures.shared_solvers._Walks.is_goal"} <= both
    assert sharing.independent_group([Strider(), Pacer()]) == ["test-strider"]


def test_compare_records_show_the_sharing_and_count_one_line_of_evidence(tmp_path: Path) -> None:
    """Four plugin provers that share their module's search and keys-grid (which shares
    nothing): two independent lines of evidence, not five."""
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "small.txt").write_text(VAULT)
    out = tmp_path / "runs.jsonl"
    arguments = ["compare", str(tmp_path), "--solver", "keys-grid", "--out", str(out)]
    for name in PLUGINS:
        arguments += ["--solver", name]
    CliRunner().invoke(main, arguments, catch_exceptions=False)
    records = {record.solver: record for record in read_records(out)}
    assert "tests.fixtures.shared_solvers.Walker._solve" in records["test-echo"].shares
    assert "tests.fixtures.shared_solvers.shortest" in records["test-strider"].shares
    assert "tests.fixtures.shared_solvers.shortest" in records["test-pacer"].shares
    assert records["keys-grid"].shares == []
    [verdict] = judge_all(records.values())
    assert verdict.verdict is Verdict.AGREE and verdict.answer == Optimum(8)
    assert set(verdict.provers) == {"keys-grid", *PLUGINS}
    assert verdict.independent == 2
    listed = _listed_pairs(CliRunner().invoke(main, ["list", "--shares"], catch_exceptions=False).output)
    for first, second in combinations(PLUGINS, 2):  # records and `list --shares`: one footprint
        pair = listed.get((first, second), listed.get((second, first)))
        assert pair == set(records[first].shares) & set(records[second].shares), (first, second)


def _listed_pairs(output: str) -> dict[tuple[str, str], set[str]]:
    """What ``list --shares`` prints as shared per pair of formulations."""
    pairs: dict[tuple[str, str], set[str]] = {}
    shared: set[str] = set()
    for line in output.splitlines():
        if line.startswith("    ") and " & " in line and not line.startswith("      "):
            first, _, second = line.strip().partition(":")[0].partition(" & ")
            shared = pairs.setdefault((first, second), set())
        elif line.startswith("      "):
            shared.add(line.strip())
    return pairs


@pytest.mark.parametrize("plugin", [AsksAnnotated, AsksThroughAttribute, AsksThroughReturn])
def test_a_model_rule_called_on_an_annotated_receiver_is_shared(plugin: type[Solver]) -> None:
    """``instance.passable(...)`` on a receiver whose class annotations give (a parameter,
    ``self.vault`` set from one, a function's return) runs the model's `Vault.passable`,
    which keys-graph runs too: the two are one line of evidence."""
    graph = get_solver("keys-graph")
    assert PASSABLE in walk.static_footprint(plugin)
    assert PASSABLE in sharing.shares(plugin(), [graph])
    assert len(sharing.independent_group([graph, plugin()])) == 1


def test_a_model_rule_called_on_a_receiver_of_unknown_class_is_shared() -> None:
    """A list element's class is not known: a call of ``passable`` on it is taken to run the
    model's (and every other untrusted ``passable`` of the plugin's package)."""
    assert PASSABLE in sharing.shares(AsksUnknown(), [get_solver("keys-graph")])
    assert "tests.fixtures.receiver_solvers._Rules.passable" in walk.static_footprint(AsksUnknown)


def test_a_plugin_calling_only_its_own_methods_shares_nothing() -> None:
    """`OwnRules` calls its own ``passable`` on an instance of its own class: not the model's."""
    footprint = sharing.footprint(OwnRules())
    assert "tests.fixtures.receiver_solvers._Rules.passable" in footprint
    assert PASSABLE not in footprint
    assert sharing.shares(OwnRules(), solvers_for("keys")) == frozenset()


def test_a_function_kept_in_an_attribute_is_followed_where_it_is_called() -> None:
    """``self.wall = _wall_rule`` in ``__init__`` (which the walk from ``_solve`` never
    reaches), ``door = _door_rule`` in the class body, and ``self.key = _key_rule`` in the
    ``__init__`` of a class the plugin is handed: each call through the attribute runs it."""
    footprint = walk.static_footprint(KeepsItsRules)
    assert {f"tests.fixtures.receiver_solvers.{name}" for name in ("_wall_rule", "_door_rule", "_key_rule")} <= footprint
    assert "tests.fixtures.receiver_solvers._Keeper.__init__" not in footprint  # the keeper was made elsewhere


def test_a_method_named_as_a_builtin_one_creates_no_sharing() -> None:
    """``tables[0].get(...)`` on an object of unknown class is taken to be a dict's ``get``,
    not the ``get`` of the plugin's own `_Table`."""
    assert "tests.fixtures.receiver_solvers._Table.get" in sharing.footprint(OwnTable())
    assert sharing.shares(LooksUp(), [OwnTable()]) == frozenset()


def test_the_forkserver_computes_a_named_plugins_sharing_once_for_every_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """`share_named` (run by the forkserver) leaves each named plugin's footprint cached, so the
    runs forked from it read `Solver.shares` without walking the plugin's code again."""
    crosscheck.solvers.registry.load_plugins()
    monkeypatch.setenv(crosscheck.solvers.registry.WARM_UP_VARIABLE, "test-echo,keys-grid")
    sharing.footprint.cache_clear()
    crosscheck.solvers.registry.share_named()

    def walked(solver_class: type[Solver]) -> set[str]:
        raise AssertionError(f"{solver_class.__name__}'s code walked again in a run")

    monkeypatch.setattr(walk, "static_reached", walked)  # static_footprint's walk, and printed's
    assert "tests.fixtures.shared_solvers.Walker._solve" in get_solver("test-echo").shares


def test_a_formulation_whose_code_cannot_be_analysed_shares_with_each_other_and_nothing_more(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A walk that fails on a plugin's code (a `RecursionError`, say) makes that plugin and
    each other formulation share one entry naming the two, conservatively; pairs without it
    keep their computed sharing, and the others' `shares` (every run records it) do not fail."""
    computed = sharing.footprint

    def failing_for_walker(solver: Solver, traced: bool = False) -> frozenset[str]:
        if isinstance(solver, Walker):
            raise RecursionError("maximum recursion depth exceeded")
        return computed(solver, traced)

    monkeypatch.setattr(sharing, "footprint", failing_for_walker)
    walker, strider, grid = Walker(), Strider(), get_solver("keys-grid")
    entry = "test-strider ~ test-walker (not analysed: RecursionError)"
    assert sharing.shared(walker, strider) == sharing.shared(strider, walker) == {entry}
    assert sharing.shares(grid, [walker, strider, grid]) == {"keys-grid ~ test-walker (not analysed: RecursionError)"}
    assert entry not in sharing.shared(strider, grid)
    assert sharing.independent_group([walker, strider, grid]) == ["test-strider", "keys-grid"]


BOUND = "crosscheck.solvers.elevator.common.crossing_bound"


@pytest.mark.parametrize("plugin", [SetsUpItsBound, BindsItsBound])
def test_a_function_kept_by_a_setup_method_or_as_a_partial_is_followed(plugin: type[Solver]) -> None:
    """``self.bound`` set in ``setup`` (not ``__init__``), or in ``__init__`` to a
    ``functools.partial`` of elevator-quotient's bound: a call through it runs that bound,
    so the plugin is not a second prover beside elevator-quotient."""
    quotient = get_solver("elevator-quotient")
    assert BOUND in walk.static_footprint(plugin)
    assert BOUND in sharing.shared(quotient, plugin())
    assert sharing.independent_group([quotient, plugin()]) == ["elevator-quotient"]


def test_a_partial_of_a_function_of_its_own_shares_nothing() -> None:
    assert "tests.fixtures.copied_helpers._lifts_needed" in walk.static_footprint(BindsItsOwnBound)
    assert sharing.shared(get_solver("elevator-quotient"), BindsItsOwnBound()) == frozenset()

"""The main command's time does not depend on the extras installed: a formulation states the
sizes it is known to solve (`Solver.reach`), the default run of ``compare`` leaves bigger
instances out and says so, and ``--all-sizes`` or naming the formulation runs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.inputs.index import InstanceFile
from crosscheck.harness.records.record import read_records
from crosscheck.harness.runs.schedule import instance_tasks, left_beyond_reach
from crosscheck.harness.runs.settings import RunSettings
from crosscheck.solvers.base import Solver
from crosscheck.solvers.registry import get_solver

VAULT = "#########\n#b.A.@.a#\n#########\n"  # 7 open cells


@pytest.fixture
def small_reach(monkeypatch: pytest.MonkeyPatch) -> type[Solver]:
    """keys-grid known to reach vaults of at most 5 open cells."""
    grid = type(get_solver("keys-grid"))
    monkeypatch.setattr(grid, "reach", {"cells": 5})
    return grid


def test_reaches_names_each_feature_past_its_limit() -> None:
    class Reaching(Solver):
        name, puzzle, summary = "reaching", "keys", "-"
        reach = {"cells": 5, "keys": 3}

        def _solve(self, instance, deadline):  # type: ignore[no-untyped-def]
            raise NotImplementedError

    assert Reaching().reaches({"cells": 5, "keys": 3}) is None
    assert Reaching().reaches({"cells": 7, "keys": 4, "robots": 1}) == "cells 7 > 5, keys 4 > 3"
    assert get_solver("keys-graph").reaches({"cells": 10**6}) is None  # no known limit


def test_the_default_run_leaves_out_what_a_formulation_is_known_not_to_reach(tmp_path: Path,
                                                                           small_reach: type[Solver]) -> None:
    path = tmp_path / "v.txt"
    path.write_text(VAULT)
    file = InstanceFile(path, "v.txt", None, None)
    within = RunSettings(within_reach=True)
    solvers = {task.solver for task, _ in instance_tasks(file, within)[1]}
    assert "keys-grid" not in solvers and "keys-graph" in solvers
    assert left_beyond_reach([file], within) == {"keys-grid": [("v.txt", "cells 7 > 5")]}
    for settings in (RunSettings(), RunSettings(solvers=("keys-grid",), within_reach=True)):  # every size; or named
        assert "keys-grid" in {task.solver for task, _ in instance_tasks(file, settings)[1]}
        assert left_beyond_reach([file], settings) == {}


def test_compare_says_what_it_left_out_and_all_sizes_runs_it(tmp_path: Path, small_reach: type[Solver],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CROSSCHECK_SOLVERS", raising=False)
    for other in ("keys-cpsat", "keys-fd", "keys-sat"):  # out of the default run: only two formulations here
        monkeypatch.setattr(type(get_solver(other)), "unavailable", lambda self: "not in this test")
    (tmp_path / "v.txt").write_text(VAULT)
    out, every = tmp_path / "runs.jsonl", tmp_path / "every.jsonl"
    result = CliRunner().invoke(main, ["compare", str(tmp_path / "v.txt"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert {r.solver for r in read_records(out)} == {"keys-graph"}
    assert ("note: keys-grid: 1 run left out, beyond the sizes it is known to solve within a minute "
            "(on v.txt: cells 7 > 5); --all-sizes or --solver keys-grid runs them") in result.stderr
    result = CliRunner().invoke(main, ["compare", str(tmp_path / "v.txt"), "--all-sizes", "--out", str(every)])
    assert {r.solver for r in read_records(every)} == {"keys-grid", "keys-graph"} and "left out" not in result.stderr


@pytest.mark.parametrize(("robots", "cells", "beyond"), [(1, 803, False), (1, 3221, True), (4, 126, False),
                                                          (4, 198, True), (2, 126, False), (2, 198, True)])
def test_the_planner_reaches_fewer_cells_with_more_robots(robots: int, cells: int, beyond: bool) -> None:
    """keys-fd's reach by robots (another count of robots gets the smallest)."""
    why = get_solver("keys-fd").reaches({"robots": robots, "cells": cells, "keys": 16})
    assert (why is not None) == beyond
    assert why is None or f"cells {cells} >" in why

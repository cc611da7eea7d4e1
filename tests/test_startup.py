"""What a command imports before it works: each in a fresh interpreter, its modules listed.

No timing here (benchmarks/bench_startup.py measures the seconds): these tests name the
modules a command must not import, and how `solve` starts its runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from crosscheck.models.registry import built_in_puzzles
from crosscheck.solvers.keys.graph import WARM_UP
from crosscheck.solvers.registry import _check_built_in_names, built_in_packages, get_solver

from tests.fixtures import INSTANCES, ROOT
from tests.fixtures.plugin_solvers import Hog, Liar

VAULT = "#####\n#@.a#\n#####\n"

#: Runs the command line with ARGV[2:] and writes to ARGV[1] its exit code, the modules it
#: imported, and whether it started a forkserver.
DRIVER = """
import json, sys
from multiprocessing import forkserver
from crosscheck.harness.cli import main
code = 0
try:
    main(sys.argv[2:], prog_name="crosscheck")
except SystemExit as end:
    code = end.code
with open(sys.argv[1], "w") as facts:
    json.dump({"code": code, "modules": sorted(sys.modules), "forkserver": forkserver._forkserver._forkserver_pid},
              facts)
"""

#: Libraries (and their submodules) that no command needs before it runs anything.
HEAVY = ("pydantic", "numpy", "ortools", "hypothesis", "matplotlib", "importlib.metadata")


def command(tmp_path: Path, *args: str, plugins: str = "") -> dict[str, Any]:
    """The facts `DRIVER` writes for ``crosscheck ARGS`` (with CROSSCHECK_SOLVERS=`plugins`)."""
    facts = tmp_path / "facts.json"
    env = {**os.environ, "CROSSCHECK_SOLVERS": plugins}
    done = subprocess.run([sys.executable, "-c", DRIVER, str(facts), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert facts.exists(), done.stderr
    return dict(json.loads(facts.read_text()), stdout=done.stdout)


def under(modules: list[str], *packages: str) -> list[str]:
    """The `modules` that are one of `packages` or inside one."""
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)]


def test_help_imports_no_formulation_no_records_and_no_heavy_library(tmp_path: Path) -> None:
    facts = command(tmp_path, "--help")
    assert facts["code"] == 0 and "Commands:" in facts["stdout"]
    assert under(facts["modules"], *HEAVY, "crosscheck.solvers", "crosscheck.harness.records.record",
                 "crosscheck.harness.runs.runner") == []


def test_importing_crosscheck_loads_nothing_else_until_a_name_is_used() -> None:
    """The public names (a plugin's, the Python API's) are imported on first use only, and
    the API's functions bring no heavy library before they run."""
    script = ("import json, sys, crosscheck; bare = sorted(sys.modules); crosscheck.compare; crosscheck.hunt\n"
              "print(json.dumps([bare, sorted(sys.modules)]))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    bare, api = json.loads(done.stdout)
    assert under(bare, "crosscheck") == ["crosscheck"]
    assert under(api, *HEAVY, "crosscheck.solvers", "crosscheck.harness.records.record") == []


def test_solve_of_a_vault_imports_only_the_vault_formulations_and_starts_no_forkserver(tmp_path: Path) -> None:
    (tmp_path / "vault.txt").write_text(VAULT)
    facts = command(tmp_path, "solve", str(tmp_path / "vault.txt"), "--format", "csv")
    assert facts["code"] == 0 and facts["stdout"].count(",optimal,") == facts["stdout"].count("\n") - 1 >= 2
    assert under(facts["modules"], "crosscheck.solvers.keys.grid", "crosscheck.solvers.keys.graph")
    assert under(facts["modules"], "crosscheck.solvers.elevator", "crosscheck.solvers.amphipods",
                 "crosscheck.models.keys.strategies", "hypothesis") == []
    # keys-graph's warm-up loads numba's kernel, which costs a lone run more than it gains: not for solve
    assert under(facts["modules"], "numba") == []
    # keys-cpsat's warm-up (any CP-SAT formulation's): its run's clock does not count the import
    assert "ortools.sat.python.cp_model" in facts["modules"]
    assert facts["forkserver"] is None  # its runs were forked from the command itself
    alone = command(tmp_path, "solve", str(tmp_path / "vault.txt"), "--solver", "keys-grid", "--format", "csv")
    assert alone["code"] == 0 and under(alone["modules"], "numpy", "ortools") == []  # keys-grid: nothing to warm


def test_a_solve_by_one_vault_formulation_imports_no_other(tmp_path: Path) -> None:
    """Nor numpy on a vault with a cycle (the cycle tours' tables); its record still says what
    it shares with each of them (from their stored footprints)."""
    (tmp_path / "ring.txt").write_text(WARM_UP)
    facts = command(tmp_path, "solve", str(tmp_path / "ring.txt"), "--solver", "keys-graph", "--format", "json")
    assert under(facts["modules"], "crosscheck.solvers.keys.grid", "crosscheck.solvers.keys.cpsat",
                 "crosscheck.solvers.keys.fd", "numpy", "crosscheck.harness.cli.compare",
                 "crosscheck.harness.cli.hunt") == []  # nor the other commands' modules
    [record] = json.loads(facts["stdout"])
    assert record["shares"] == sorted(get_solver("keys-graph").shares)  # here every formulation is imported
    assert "crosscheck.solvers.keys.routes.contract" in record["shares"]  # with keys-cpsat


def test_a_formulation_asked_for_alone_keeps_its_puzzles_order_of_built_ins() -> None:
    script = ("from crosscheck.solvers.registry import get_solver, solvers_for\n"
              "get_solver('keys-fd'); get_solver('keys-graph')\n"
              "print(' '.join(s.name for s in solvers_for('keys')))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "CROSSCHECK_SOLVERS": ""})
    assert done.stdout.split()[:4] == ["keys-grid", "keys-graph", "keys-cpsat", "keys-fd"], done.stderr


def test_keys_graph_searches_in_compiled_code_in_compare_and_in_python_in_solve(tmp_path: Path) -> None:
    """The same rules either way: compare's forkserver loads the kernel for its many runs, a lone
    solve does without it (`Solver.warm_up_pays_alone`)."""
    (tmp_path / "ring.txt").write_text(WARM_UP)  # one robot on a vault with a cycle: the kernel's case
    facts = command(tmp_path, "solve", str(tmp_path / "ring.txt"), "--solver", "keys-graph", "--format", "json")
    [alone] = json.loads(facts["stdout"])
    facts = command(tmp_path, "compare", str(tmp_path / "ring.txt"), "--solver", "keys-graph", "--format", "json",
                    "--out", str(tmp_path / "runs.jsonl"))
    [many] = json.loads(facts["stdout"])
    assert (alone["stats"]["kernel"], many["stats"]["kernel"]) == ("python", "compiled")
    assert alone["cost"] == many["cost"] and alone["status"] == many["status"] == "optimal"


def test_solve_runs_start_warmed_up_by_the_command_they_are_forked_from(tmp_path: Path) -> None:
    """As compare's forkserver does (below): `Solver.warm_up` runs before the runs, for the
    formulations they name only, so a run's seconds count the same work in both commands."""
    (tmp_path / "vault.txt").write_text(VAULT)
    facts = command(tmp_path, "solve", str(tmp_path / "vault.txt"), "--solver", "test-warmed", "--format", "json",
                    plugins="tests.fixtures.warm_solvers")
    assert facts["forkserver"] is None
    [record] = json.loads(facts["stdout"])
    assert record["message"] == "warmed up before the run; others warmed: []"


def test_a_solve_without_forkserver_still_enforces_time_and_memory_limits(tmp_path: Path) -> None:
    (tmp_path / "vault.txt").write_text(VAULT)
    facts = command(tmp_path, "solve", str(tmp_path / "vault.txt"), "--solver", "test-sleeper", "--solver", "test-hog",
                    "--time-limit", "0.5", "--memory-limit", "300", "--format", "json", plugins="tests.fixtures.plugin_solvers")
    statuses = {record["solver"]: record["status"] for record in json.loads(facts["stdout"])}
    assert statuses == {"test-sleeper": "timeout", "test-hog": "memout"}
    assert facts["forkserver"] is None and facts["code"] == 3


def test_built_ins_are_loaded_before_a_plugin_in_a_fresh_interpreter(tmp_path: Path) -> None:
    """A plugin registered before any built-in was imported neither takes a built-in's name
    nor goes before the built-ins of its puzzle."""
    (tmp_path / "taker.py").write_text(
        "from tests.fixtures.plugin_solvers import Liar\n\nclass Taker(Liar):\n    name = 'keys-grid'\n\nSOLVERS = [Taker]\n")
    script = ("import sys\nfrom crosscheck.solvers import registry\n"
              "registry.add_plugins(('tests.fixtures.plugin_solvers',))\n"
              "print(' '.join(s.name for s in registry.solvers_for('keys')))\n"
              "try:\n    registry.add_plugins(('taker',))\nexcept ValueError as error:\n    print(error)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]), "CROSSCHECK_SOLVERS": ""}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    order, refusal = done.stdout.splitlines()
    assert order.split()[:4] == ["keys-grid", "keys-graph", "keys-cpsat", "keys-fd"] and "test-liar" in order
    assert refusal == "solver names already taken: keys-grid"


def test_a_built_in_name_must_start_with_its_puzzle() -> None:
    _check_built_in_names([type("KeysLiar", (Liar,), {"name": "keys-liar"})])
    with pytest.raises(ValueError, match="test-liar, test-hog"):
        _check_built_in_names([Liar, Hog])  # keys solvers whose names do not start with keys-


def test_a_forkserver_preloads_only_the_packages_of_the_built_ins_its_runs_name() -> None:
    assert built_in_packages(["keys-grid", "test-liar", "keys-fd"]) == ("crosscheck.solvers.keys",)
    assert built_in_packages(["test-liar"]) == ()  # a plugin: loaded by the preload's plugins
    assert set(built_in_packages()) == {module for puzzle in built_in_puzzles().values() for module in puzzle.formulations}


def test_morph_readies_its_forkserver_for_every_instance_not_only_the_first(tmp_path: Path) -> None:
    """morph runs one batch per instance; the server it starts first is ready for the
    formulations of all of them, a vault's and a burrow's alike."""
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "vault.txt").write_text(VAULT)
    (folder / "burrow.txt").write_text((INSTANCES / "amphipods/depth2-example.txt").read_text())
    out = tmp_path / "morph"
    command(tmp_path, "morph", str(folder), "--solver", "test-warmed", "--solver", "test-warmed-burrows",
            "--out", str(out), plugins="tests.fixtures.warm_solvers")
    records = [json.loads(line) for line in (out / "morph.jsonl").read_text().splitlines()]
    assert {record["solver"] for record in records} == {"test-warmed", "test-warmed-burrows"}
    assert {record["message"].partition(";")[0] for record in records} == {"warmed up before the run"}


def test_compare_runs_start_warmed_up_by_their_forkserver(tmp_path: Path) -> None:
    """`Solver.warm_up` runs once in the forkserver, before the runs forked from it, for the
    formulations the runs name only."""
    (tmp_path / "vault.txt").write_text(VAULT)
    out = tmp_path / "runs.jsonl"
    facts = command(tmp_path, "compare", str(tmp_path / "vault.txt"), "--solver", "test-warmed", "--out", str(out),
                    plugins="tests.fixtures.warm_solvers")
    assert facts["forkserver"] is not None
    [record] = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["message"] == "warmed up before the run; others warmed: []"

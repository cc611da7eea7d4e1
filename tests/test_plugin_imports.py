"""A run's process imports a plugin from the file the command imported it from, never from a
module of the same name in the current folder; a solver the run's process does not know
becomes an ``error`` record of one line.

The plugin is installed the way a test can: its module and a hand-made ``.dist-info`` (with
its entry point) in a folder on ``PYTHONPATH``.  The command is started the way the installed
``crosscheck`` script is (``python SCRIPT``: its folder, not the current one, is on the path).
"""

from __future__ import annotations

import importlib
import json
import multiprocessing.forkserver
import os
import subprocess
import sys
from pathlib import Path

import pytest
from crosscheck.harness.records.record import Task, plugin_source
from crosscheck.harness.runs.isolated import run_launched
from crosscheck.harness.runs.runner import ready_server, run_isolated, run_task
from crosscheck.harness.runs.server_start import start_server
from crosscheck.solvers.base import Status
from crosscheck.solvers.registry import IMPORT_PATH_VARIABLE

from tests.fixtures import ROOT
from tests.fixtures.cli import VAULT

PLUGIN = '''\
"""The researcher's installed formulation."""
from tests.fixtures.plugin_solvers import Plain

class Honest(Plain):
    name = "test-cwd-bfs"

SOLVERS = [Honest]
'''

SHADOW = '''\
"""Another module of the same name in the current folder, with another formulation under the same name."""
from crosscheck.solvers.base import Answer, Status
from tests.fixtures.plugin_solvers import Plain

class Shadow(Plain):
    name = "test-cwd-bfs"

    def _solve(self, instance, deadline):
        return Answer(Status.INFEASIBLE, message="the shadow in the current folder ran")

SOLVERS = [Shadow]
'''

#: What the installed ``crosscheck`` script does.
LAUNCHER = "from crosscheck.harness.cli import main\nif __name__ == '__main__':\n    main()\n"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder holding the plugin module ``lift_formulations`` and its distribution's metadata,
    with the entry point ``lift = lift_formulations``."""
    site = tmp_path / "site"
    info = site / "lift_plugin-0.2.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lift-plugin\nVersion: 0.2\n")
    (info / "entry_points.txt").write_text('[crosscheck.solvers]\nlift = lift_formulations\n')
    (site / "lift_formulations.py").write_text(PLUGIN)
    return site


@pytest.fixture
def shadowed(tmp_path: Path) -> Path:
    """The current folder of the runs: a shadowing ``lift_formulations.py`` and a vault."""
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "lift_formulations.py").write_text(SHADOW)
    (folder / "vault.txt").write_text(VAULT)
    return folder


def test_compare_runs_the_installed_plugin_not_a_module_of_the_current_folder(site: Path, shadowed: Path,
                                                                              tmp_path: Path) -> None:
    launcher = tmp_path / "bin" / "crosscheck"
    launcher.parent.mkdir()
    launcher.write_text(LAUNCHER)
    out = tmp_path / "runs.jsonl"
    done = subprocess.run([sys.executable, str(launcher), "compare", "vault.txt", "--solver", "test-cwd-bfs",
                           "--out", str(out), "--format", "jsonl"], cwd=shadowed,
                          env={"PYTHONPATH": f"{site}:{ROOT}", "PATH": ""}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    [record] = map(json.loads, out.read_text().splitlines())
    assert (record["status"], record["cost"], record["plan_valid"]) == ("optimal", 8, True), record["message"]
    assert record["environment"]["solver_distribution"] == "lift-plugin"


def test_a_launched_run_imports_plugins_from_where_the_launching_process_does(
        site: Path, shadowed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The launcher of Dask's daemonic workers (harness/runs/isolated.py), started in a folder
    holding a module of the plugin's name."""
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.chdir(shadowed)
    monkeypatch.delenv(IMPORT_PATH_VARIABLE, raising=False)  # restored after the test
    task = Task(path="vault.txt", instance="vault.txt", solver="test-cwd-bfs", plugins=("lift_formulations",))
    record = run_launched(task)
    assert (record.status, record.cost, record.plan_valid) == (Status.OPTIMAL, 8, True), record.message


def test_a_solver_the_run_does_not_know_is_an_error_of_one_line(tmp_path: Path) -> None:
    (tmp_path / "vault.txt").write_text(VAULT)
    record = run_task(Task(path=str(tmp_path / "vault.txt"), instance="vault.txt", solver="test-nowhere"))
    assert record.status is Status.ERROR and record.puzzle == "keys"
    assert record.message.startswith("unknown solver 'test-nowhere'") and "\n" not in record.message


def test_a_launched_run_names_the_plugin_version_it_ran_not_a_pinned_other(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Dask worker's interpreter may hold another copy of the plugin than the command
    pinned (its own installation, or an edit since): the record names the one that ran."""
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delenv(IMPORT_PATH_VARIABLE, raising=False)  # restored after the test
    (tmp_path / "vault.txt").write_text(VAULT)
    ran = plugin_source(importlib.import_module("lift_formulations").Honest)
    assert ran is not None
    task = Task(path=str(tmp_path / "vault.txt"), instance="vault.txt", solver="test-cwd-bfs",
                plugins=("lift_formulations",), identity={"solver_source": "another copy"})
    record = run_launched(task)
    assert record.status is Status.OPTIMAL, record.message
    assert record.environment["solver_source"] == ran


#: A package named like crosscheck itself, or like a module crosscheck imports, in the current
#: folder: imported, it leaves a mark and fails (the runs would go on, quietly unpreloaded).
FAKE = '''\
import pathlib
pathlib.Path.cwd().joinpath("{name}-was-imported").write_text("")  # the folder the command ran in
raise ImportError("the {name} of the current folder")
'''


@pytest.mark.parametrize("fake", ["crosscheck/__init__.py", "pydantic.py"])
def test_the_runs_import_what_the_command_imported_not_a_namesake_in_the_current_folder(
        fake: str, tmp_path: Path) -> None:
    """The forkserver is started as ``python -c`` (the current folder first on its path) and
    imports the command's script and its preload before any code of crosscheck's runs."""
    folder = tmp_path / "work"
    (folder / fake).parent.mkdir(parents=True)
    (folder / fake).write_text(FAKE.format(name=Path(fake).parts[0].removesuffix(".py")))
    for name in ("a.txt", "b.txt"):  # two instances: runs from the forkserver, not forked
        (folder / name).write_text(VAULT)
    launcher = tmp_path / "bin" / "crosscheck"
    launcher.parent.mkdir()
    launcher.write_text(LAUNCHER)
    out = tmp_path / "runs.jsonl"
    done = subprocess.run([sys.executable, str(launcher), "compare", "a.txt", "b.txt", "--solver", "keys-graph",
                           "--solver", "keys-grid", "--out", str(out), "--format", "jsonl"], cwd=folder,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert [path.name for path in folder.iterdir() if path.name.endswith("-was-imported")] == []
    records = list(map(json.loads, out.read_text().splitlines()))
    assert [record["status"] for record in records] == ["optimal"] * 4


PROBE = '''\
"""Says whether its run's process has PYTHONSAFEPATH set."""
import os
from crosscheck.solvers.base import Answer, Status
from tests.fixtures.plugin_solvers import Plain

class Probe(Plain):
    name = "test-safe-path-probe"

    def _solve(self, instance, deadline):
        return Answer(Status.INFEASIBLE, message=f"PYTHONSAFEPATH={os.environ.get('PYTHONSAFEPATH')}")

SOLVERS = [Probe]
'''


def test_a_run_from_the_forkserver_does_not_inherit_the_safe_path_of_its_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server starts with PYTHONSAFEPATH set; the programs a run starts (Fast Downward's
    ``python`` script, which imports from its own folder) must not have it."""
    (tmp_path / "safe_path_probe.py").write_text(PROBE)
    (tmp_path / "vault.txt").write_text(VAULT)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    task = Task(path=str(tmp_path / "vault.txt"), instance="vault.txt", solver="test-safe-path-probe",
                plugins=("safe_path_probe",))
    record = run_isolated(task, solvers=())
    assert record.status is Status.INFEASIBLE and record.message == "PYTHONSAFEPATH=None", record.message
    assert "PYTHONSAFEPATH" not in os.environ


EMPTY_SAFE_PATH = """\
import os, sys
from crosscheck.harness.records.record import Task
from crosscheck.harness.runs.runner import run_isolated

if __name__ == "__main__":
    task = Task(path=sys.argv[1], instance="vault.txt", solver="test-safe-path-probe", plugins=("safe_path_probe",))
    print(run_isolated(task, solvers=()).message)
    print(repr(os.environ.get("PYTHONSAFEPATH")))
"""


def test_a_safe_path_set_but_empty_stays_so_for_the_command_and_its_runs(tmp_path: Path) -> None:
    """Python reads ``PYTHONSAFEPATH=""`` as unset, so the server starts with it set; then
    the command and the runs have it back as it was: present, and empty."""
    (tmp_path / "safe_path_probe.py").write_text(PROBE)
    (tmp_path / "vault.txt").write_text(VAULT)
    (tmp_path / "command.py").write_text(EMPTY_SAFE_PATH)
    done = subprocess.run([sys.executable, str(tmp_path / "command.py"), str(tmp_path / "vault.txt")],
                          env={**os.environ, "PYTHONSAFEPATH": "", "PYTHONPATH": f"{ROOT}:{tmp_path}"},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["PYTHONSAFEPATH=", "''"], done.stdout


def test_once_the_server_runs_starting_it_leaves_the_environment_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every isolated run asks for the server (from worker threads, side by side): once it
    runs, the environment the command's threads read is never changed for it."""
    ready_server([])
    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    before = dict(os.environ)
    seen: list[dict[str, str]] = []
    monkeypatch.setattr(multiprocessing.forkserver, "ensure_running", lambda: seen.append(dict(os.environ)))
    start_server()
    assert all(environment == before for environment in seen)
    assert dict(os.environ) == before


def test_a_run_from_the_forkserver_names_the_plugin_version_it_ran_not_a_pinned_other(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same under a Dask worker that may start children: its runs come from its own forkserver."""
    monkeypatch.syspath_prepend(str(site))
    (tmp_path / "vault.txt").write_text(VAULT)
    ran = plugin_source(importlib.import_module("lift_formulations").Honest)
    task = Task(path=str(tmp_path / "vault.txt"), instance="vault.txt", solver="test-cwd-bfs",
                plugins=("lift_formulations",), identity={"solver_source": "another copy"})
    record = run_isolated(task, solvers=())
    assert record.status is Status.OPTIMAL, record.message
    assert record.environment["solver_source"] == ran


#: Runs the plugin from a forkserver that imports it, edits the plugin's file, then runs it from
#: the server again and prints the version its record names, and the versions before and after the edit.
EDITED_AFTER_IMPORT = '''\
import importlib, json, sys
from pathlib import Path
from crosscheck.harness.records.record import Task, plugin_source
from crosscheck.harness.runs.runner import run_isolated
task = Task(path=sys.argv[1], instance="vault.txt", solver="test-cwd-bfs")
run_isolated(task, solvers=())  # the server has started and imported the plugin once this one is back
module = importlib.import_module("lift_formulations")
before = plugin_source(module.Honest)
Path(module.__file__).write_text(Path(module.__file__).read_text() + "# edited after the server imported it\\n")
after = plugin_source(module.Honest)
record = run_isolated(task, solvers=())
print(json.dumps([record.status.value, record.environment.get("solver_source"), before, after]))
'''


def test_a_forkserver_run_names_the_plugin_version_the_server_imported_not_its_file_edited_since(
        site: Path, tmp_path: Path) -> None:
    (tmp_path / "vault.txt").write_text(VAULT)
    done = subprocess.run([sys.executable, "-c", EDITED_AFTER_IMPORT, str(tmp_path / "vault.txt")], cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": f"{site}:{ROOT}", "CROSSCHECK_SOLVERS": "lift_formulations"},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    status, named, before, after = json.loads(done.stdout.splitlines()[-1])
    assert status == "optimal" and before != after
    assert named == before

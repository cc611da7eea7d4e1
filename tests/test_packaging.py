"""The distribution installs under the one name ``crosscheck`` and nothing else.

A non-editable install (``pip install --target``, no dependencies: those of the test
environment serve) is inspected: its top-level entries, and imports from a folder
outside the repository, where the repository's own ``models/`` cannot be found by
accident.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import INSTANCES, ROOT


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a non-editable install of the repository."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--target", str(target), str(ROOT)], check=True, capture_output=True, timeout=300)
    return target


def _python(installed: Path, code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env={"PYTHONPATH": str(installed), "PATH": ""},
                          capture_output=True, text=True, timeout=120)


def test_only_crosscheck_is_installed(installed: Path) -> None:
    top = {path.name for path in installed.iterdir()} - {"bin", "__pycache__"}
    assert {name for name in top if not name.endswith(".dist-info")} == {"crosscheck"}
    assert {"models", "solvers", "harness", "__main__.py"} <= {path.name for path in (installed / "crosscheck").iterdir()}


@pytest.mark.parametrize("generic", ["models", "solvers", "harness"])
def test_generic_names_are_not_importable(installed: Path, tmp_path: Path, generic: str) -> None:
    done = _python(installed, f"import {generic}", tmp_path)
    assert done.returncode != 0 and "ModuleNotFoundError" in done.stderr


def test_the_installed_package_imports_from_its_own_files(installed: Path, tmp_path: Path) -> None:
    done = _python(installed, "import crosscheck.harness.cli, crosscheck.models.keys.model as k; print(k.__file__)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).is_relative_to(installed)


def test_python_dash_m_crosscheck_runs_the_command_line(installed: Path, tmp_path: Path) -> None:
    vault = tmp_path / "tiny.txt"
    vault.write_text("#####\n#@.a#\n#####\n")
    done = subprocess.run([sys.executable, "-m", "crosscheck", "solve", str(vault), "--solver", "keys-graph"],
                          cwd=tmp_path, env={"PYTHONPATH": str(installed), "PATH": ""},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "keys-graph" in done.stdout and "optimal" in done.stdout


def test_the_installed_command_compares_the_repository_instances_from_elsewhere(installed: Path, tmp_path: Path) -> None:
    """Given the path, compare finds the instances' index of known optima from any folder."""
    done = subprocess.run([sys.executable, "-m", "crosscheck", "compare", str(INSTANCES / "keys" / "loop-1.txt"),
                           "--solver", "keys-graph", "--out", "runs.jsonl", "--format", "jsonl"],
                          cwd=tmp_path, env={"PYTHONPATH": str(installed), "PATH": ""},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    [row] = map(json.loads, done.stdout.splitlines())
    assert (row["expected"], row["cost"], row["verdict"]) == (20, 20, "agree")
    assert (tmp_path / "runs.jsonl").is_file()


PLUGIN_PYPROJECT = """\
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "tiny-vault-plugin"
version = "0.3.1"

[tool.setuptools]
py-modules = ["tiny_vault_plugin", "broken_plugin"]

[project.entry-points."crosscheck.solvers"]
tiny = "tiny_vault_plugin"
broken = "broken_plugin"
"""

PLUGIN_MODULE = '''\
"""A researcher's formulation: the tests' breadth-first search under a name of its own."""
from tests.fixtures.plugin_solvers import Plain

class TinyBfs(Plain):
    name, summary = "tiny-bfs", "breadth-first over cells, from an installed plugin"

SOLVERS = [TinyBfs]
'''


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a pip-installed plugin distribution with two entry points of the
    group ``crosscheck.solvers``: one good, one whose module has no ``SOLVERS``."""
    source = tmp_path_factory.mktemp("plugin-source")
    (source / "pyproject.toml").write_text(PLUGIN_PYPROJECT)
    (source / "tiny_vault_plugin.py").write_text(PLUGIN_MODULE)
    (source / "broken_plugin.py").write_text('"""Forgot its SOLVERS list."""\n')
    target = tmp_path_factory.mktemp("plugin-site")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(source)],
                   check=True, capture_output=True, timeout=300)
    return target


def _crosscheck(plugin_site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m crosscheck ARGS`` with the plugin installed (and the tests importable)."""
    environment = {"PYTHONPATH": f"{plugin_site}:{ROOT}", "PATH": ""}
    return subprocess.run([sys.executable, "-m", "crosscheck", *args], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=300)


def test_an_installed_plugin_appears_in_list_with_its_distribution(plugin_site: Path, tmp_path: Path) -> None:
    done = _crosscheck(plugin_site, tmp_path, "list")
    assert done.returncode == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if "tiny-bfs" in line]
    assert "entry point tiny (tiny-vault-plugin 0.3.1)" in line
    assert next(line for line in done.stdout.splitlines() if "keys-graph" in line).endswith("[built-in]")
    assert "plugin not loaded: entry point broken (tiny-vault-plugin 0.3.1) = broken_plugin" in done.stderr
    assert "no SOLVERS list" in done.stderr


def test_an_installed_plugin_is_compared_and_recorded_with_its_version(plugin_site: Path, tmp_path: Path) -> None:
    (tmp_path / "vault.txt").write_text("#########\n#b.A.@.a#\n#########\n")
    out = tmp_path / "runs.jsonl"
    done = _crosscheck(plugin_site, tmp_path, "compare", "vault.txt", "--solver", "tiny-bfs",
                       "--solver", "keys-graph", "--out", str(out), "--format", "jsonl")
    assert done.returncode == 0, done.stderr
    records = {record["solver"]: record for record in map(json.loads, out.read_text().splitlines())}
    assert records["tiny-bfs"]["status"] == "optimal" and records["tiny-bfs"]["cost"] == 8
    assert records["tiny-bfs"]["plan_valid"] is True
    environment = records["tiny-bfs"]["environment"]
    assert (environment["solver_distribution"], environment["solver_version"]) == ("tiny-vault-plugin", "0.3.1")
    assert "solver_distribution" not in records["keys-graph"]["environment"]
    rows = {row["solver"]: row for row in map(json.loads, done.stdout.splitlines())}
    assert rows["tiny-bfs"]["verdict"] == "agree" and rows["tiny-bfs"]["solver_version"] == "0.3.1"

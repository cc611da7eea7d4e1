"""The distribution installs under the one name ``crosscheck`` and nothing else.

A non-editable install (``pip install --target``, no dependencies: those of the test
environment serve) is inspected: its top-level entries, and imports from a folder
outside the repository, where the repository's own ``models/`` cannot be found by
accident.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


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
    done = _python(installed, "import crosscheck.harness.cli, crosscheck.models.keys as k; print(k.__file__)", tmp_path)
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

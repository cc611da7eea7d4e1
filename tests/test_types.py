"""The code base type-checks: mypy, configured by ``[tool.mypy]`` in pyproject.toml.

The code installs as ``crosscheck.models``, ``crosscheck.solvers`` and ``crosscheck.harness``
from the repository's top-level folders (setuptools' package-dir), a mapping mypy cannot
follow. So the test stages the package as it installs, a ``crosscheck`` folder of symbolic
links to those folders, and runs mypy from the repository root (where its settings and
``.mypy_cache`` live) on that package, the ``benchmarks`` scripts, ``planted``, the ``tests`` and the
sliding-tile puzzle of ``examples/tiles`` (its package, tests and scripts) together, in one
run, so their ``crosscheck.*`` imports resolve to the staged package. A cold run takes about
25 s; later runs a few seconds.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from mypy import api  # in the 'test' extra: a missing mypy is a broken test set-up, not a skip

from tests.fixtures import ROOT

#: Checked with the package; relative to ROOT, as mypy runs there.
CHECKED_FOLDERS = ("benchmarks", "planted", "tests", "examples/tiles/crosscheck_tiles", "examples/tiles/tests",
                   "examples/tiles/scripts")
PACKAGE_DIR: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]


def staged_package(into: Path) -> Path:
    """``into/crosscheck``: the installed package's layout, as links to the repository's files."""
    package = into / "crosscheck"
    package.mkdir()
    for module in (ROOT / PACKAGE_DIR["crosscheck"]).glob("*.py"):
        (package / module.name).symlink_to(module)
    for name, folder in PACKAGE_DIR.items():
        if name != "crosscheck":
            (package / name.removeprefix("crosscheck.")).symlink_to(ROOT / folder, target_is_directory=True)
    return package


def test_mypy_reports_no_errors(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    package = staged_package(tmp_path)
    monkeypatch.chdir(ROOT)
    report, errors, status = api.run([str(package), *CHECKED_FOLDERS])
    assert status == 0, f"mypy found problems:\n{report}{errors}"
    assert "Success" in report

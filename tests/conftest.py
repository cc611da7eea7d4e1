"""Fixtures several test modules use (paths and plain helpers are in `tests.fixtures`).

- `misbehaving_solvers`: the formulations of `tests.fixtures.plugin_solvers` registered (a
  liar, a crasher, a sleeper, a memory hog, ...), default results files kept out of the
  working tree; a module that runs commands with them says
  ``pytestmark = pytest.mark.usefixtures("misbehaving_solvers")``.
- `folder`: an instance folder of one small vault (optimum 8, in the index) and one file
  that cannot be parsed.
"""

from __future__ import annotations

from pathlib import Path

import crosscheck.harness.workflows.compare
import crosscheck.solvers.registry
import pytest

from tests.fixtures.cli import VAULT


@pytest.fixture
def misbehaving_solvers(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Register the test solvers (the harness passes them on to every run), and keep
    default results files out of the working tree.

    The CLI registers them in this process too; the registry is restored afterwards so
    that later test modules never meet a solver that sleeps for ten minutes.
    """
    monkeypatch.setenv("CROSSCHECK_SOLVERS", "tests.fixtures.plugin_solvers")
    monkeypatch.setattr(crosscheck.solvers.registry, "SOLVERS", dict(crosscheck.solvers.registry.SOLVERS))
    names = iter(range(10**6))
    monkeypatch.setattr(crosscheck.harness.workflows.compare, "fresh_results_path",
                        lambda: tmp_path / "results" / f"default-{next(names)}.jsonl")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """``tmp_path/instances``: ``keys/small.txt`` (optimum 8, in ``index.toml``) and
    ``keys/broken.txt`` (an unknown character)."""
    root = tmp_path / "instances"
    (root / "keys").mkdir(parents=True)
    (root / "keys" / "small.txt").write_text(VAULT)
    (root / "keys" / "broken.txt").write_text("#####\n#@.?#\n#####\n")
    (root / "index.toml").write_text('["keys/small.txt"]\noptimum = 8\n')
    return root

"""A plugin formulation's ``solver_source`` covers its own code: the module defining it and
the modules of its package that it imports (tests/fixtures/version_plugin/), not the others."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.fixtures import ROOT

PLUGIN = ROOT / "tests" / "fixtures" / "version_plugin"

#: Prints the digest of `RuledLift`, imported from the copy of the package on PYTHONPATH.
PRINT_DIGEST = ("from version_plugin.lifts import RuledLift; from crosscheck.harness.records.record import plugin_source; "
                "print(plugin_source(RuledLift))")


def _digest(root: Path) -> str:
    """The digest of the copy of the plugin package under `root`, computed in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", PRINT_DIGEST], env={**os.environ, "PYTHONPATH": str(root)},
                          capture_output=True, text=True, check=True, cwd=root)
    return done.stdout.strip()


def test_a_plugins_digest_changes_with_its_helper_module_and_not_with_a_module_it_never_imports(
        tmp_path: Path) -> None:
    package = tmp_path / "version_plugin"
    shutil.copytree(PLUGIN, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = _digest(tmp_path)
    with open(package / "rules.py", "a", encoding="utf-8") as rules:
        rules.write("# edited: the rule's module, not the formulation's\n")
    edited = _digest(tmp_path)
    assert len(before) == 12 and edited != before
    with open(package / "unused.py", "a", encoding="utf-8") as unused:
        unused.write("# edited\n")
    assert _digest(tmp_path) == edited


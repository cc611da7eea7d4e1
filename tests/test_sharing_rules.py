"""The static footprint's rules for calls whose target is not named exactly: the modules a
plugin imports count whether imported yet or not, a base class annotation counts its
subclasses' overrides, ``getattr`` counts as the attribute (formulations in
tests/fixtures/footprint_plugin/)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from crosscheck.harness.independence import considered, sharing, walk

from tests.fixtures import ROOT
from tests.fixtures.footprint_plugin.entry import AsksAnything, AsksTheBase, ComputesItsRule, NamesItsRule

LATE = "tests.fixtures.footprint_plugin.unloaded._Late.settle_rule"
PASSABLE = "crosscheck.models.keys.model.Vault.passable"


def _footprint_in_a_fresh_process(first: str) -> list[str]:
    """`AsksAnything`'s static footprint computed in a new interpreter after ``import first``."""
    script = (f"import json, {first}; from crosscheck.harness.independence import walk; "
              "from tests.fixtures.footprint_plugin.entry import AsksAnything; "
              "print(json.dumps(sorted(walk.static_footprint(AsksAnything))))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    found: list[str] = json.loads(done.stdout)
    return found


def test_a_module_the_plugin_imports_counts_whether_or_not_it_was_imported_yet() -> None:
    """Rule 2 looks in the modules the plugin's source imports, read from the files: one
    imported only inside a function gives the same footprint before that import ran as after;
    one nothing imports is neither imported nor counted."""
    not_imported = _footprint_in_a_fresh_process("tests.fixtures.footprint_plugin")
    imported = _footprint_in_a_fresh_process("tests.fixtures.footprint_plugin.unloaded")
    assert LATE in not_imported
    assert not_imported == imported
    assert not any(name.startswith("tests.fixtures.footprint_plugin.unrelated") for name in imported)


def test_a_call_on_a_base_class_annotation_counts_the_subclasses_overrides() -> None:
    """``rules.verdict()`` with ``rules: Rules`` may run `StrictRules.verdict`, and, on a
    `LaxRules`, `Rules.verdict` calling `LaxRules.wall` through ``self``."""
    static = walk.static_footprint(AsksTheBase)
    entry = "tests.fixtures.footprint_plugin.entry"
    assert {f"{entry}.Rules.verdict", f"{entry}.Rules.wall", f"{entry}.StrictRules.verdict",
            f"{entry}.LaxRules.wall"} <= static


def test_getattr_by_a_constant_name_is_the_attribute() -> None:
    """``getattr(instance, "passable")`` on ``instance: Vault`` runs `Vault.passable`, and only
    that of the model (not every method of the vault)."""
    static = walk.static_footprint(NamesItsRule)
    assert PASSABLE in static
    assert "crosscheck.models.keys.model.Vault.open_neighbours" not in static


def test_getattr_by_a_computed_name_counts_every_method_it_may_find() -> None:
    """A name built at run time on an object of unknown class: every untrusted method of
    the classes rule 2 looks in, the model's and the package's (unloaded modules too)."""
    static = walk.static_footprint(ComputesItsRule)
    assert {PASSABLE, "crosscheck.models.keys.model.Vault.open_neighbours", LATE,
            "tests.fixtures.footprint_plugin.entry.StrictRules.verdict"} <= static


def test_the_import_closure_is_read_from_the_files_without_importing() -> None:
    """`import_closure` follows import statements at any depth (a relative one inside a
    function here) without importing the modules it finds, and leaves out a module nothing
    imports."""
    script = ("import json, sys; from crosscheck.harness.independence.considered import import_closure; "
              "found = import_closure('tests.fixtures.footprint_plugin.entry', 'tests'); "
              "print(json.dumps([sorted(found), 'tests.fixtures.footprint_plugin.unloaded' in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    found, loaded = json.loads(done.stdout)
    assert found == ["tests", "tests.fixtures", "tests.fixtures.footprint_plugin",
                     "tests.fixtures.footprint_plugin.accelerated", "tests.fixtures.footprint_plugin.entry",
                     "tests.fixtures.footprint_plugin.unloaded"]
    assert not loaded


def test_footprint_parses_wait_for_each_other() -> None:
    """CPython 3.11's parser can fail spuriously when threads parse at once (in-process runs
    work out footprints in their threads): a parse waits while another holds the lock."""
    from crosscheck.harness.independence import receivers

    parsed: list[object] = []
    with receivers._PARSING:
        waiting = threading.Thread(target=lambda: parsed.append(receivers.parse_module("x = 1")))
        waiting.start()
        waiting.join(0.5)
        assert waiting.is_alive() and not parsed
    waiting.join()
    assert len(parsed) == 1


def test_a_module_that_cannot_be_imported_here_is_left_out_not_fatal() -> None:
    """`entry` imports an optional accelerator behind ``try``; its dependency is missing, so
    the footprint is worked out without it (it raised ModuleNotFoundError, and every run of
    such a plugin was an error)."""
    closure = considered.import_closure("tests.fixtures.footprint_plugin.entry", "tests")
    assert "tests.fixtures.footprint_plugin.accelerated" in closure
    assert LATE in walk.static_footprint(AsksAnything)


def test_a_plain_modules_siblings_that_it_imports_are_its_own_code(tmp_path: Path) -> None:
    """A script's ``flat.py`` importing ``flathelp.py`` beside it: the helper is its code (for
    rule 2 and for the digest of its version); a standard module it imports is not."""
    (tmp_path / "flat.py").write_text("import os\nimport flathelp\n")
    (tmp_path / "flathelp.py").write_text("def rule() -> bool:\n    return True\n")
    (tmp_path / "unused.py").write_text("")
    installed = tmp_path / "site-packages"  # there the neighbours are other distributions
    installed.mkdir()
    (installed / "single.py").write_text("import neighbour\n")
    (installed / "neighbour.py").write_text("")
    script = ("import json; from crosscheck.harness.independence.considered import import_closure; "
              "print(json.dumps([sorted(import_closure(name, name)) for name in ('flat', 'single')]))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{installed}"})
    assert json.loads(done.stdout) == [["flat", "flathelp"], ["single"]]


def test_footprints_are_not_regenerated_where_a_built_in_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Traced without its planner, keys-fd's stored footprint lost entries (it happened once):
    the generator names what cannot run instead of writing."""
    from crosscheck.solvers.engines.fd import FastDownward

    monkeypatch.setattr(FastDownward, "unavailable", lambda self: "planner missing")
    assert {line.split(":")[0] for line in sharing.unable_here()} >= {"keys-fd", "elevator-fd", "amphipods-fd"}

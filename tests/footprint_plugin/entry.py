"""Plugin formulations of the key vault (not registered: tests/test_sharing_rules.py hands
them to `crosscheck.harness.independence.sharing`).  Each answers `UNSUPPORTED`; what counts is what its
code may call:

- `AsksAnything` calls ``settle_rule`` on a list element (class unknown): rule 2 takes it to
  run `tests.footprint_plugin.unloaded._Late.settle_rule`, whose module this one imports only
  inside `late` (so not before that runs; nothing here calls it, code outside may), but not `tests.footprint_plugin.unrelated`'s, a
  module nothing here imports;
- `AsksTheBase` calls ``rules.verdict`` on a parameter annotated `Rules`; the object is one of
  `KINDS`, so `StrictRules.verdict` (an override) or `LaxRules.wall` (an override that
  `Rules.verdict` calls through ``self``) may run;
- `NamesItsRule` and `ComputesItsRule` look ``passable`` up by ``getattr``, by a constant and
  by a computed name.
"""

from __future__ import annotations

from crosscheck.models.keys.model import Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status

try:  # an optional accelerator, as plugins have them: its dependency is not installed here
    from tests.footprint_plugin import accelerated
except ImportError:
    accelerated = None  # type: ignore[assignment]


def late() -> object:
    """An object of a class whose module is imported only when this runs (not called here:
    code outside the plugin may, and hand the object to a formulation)."""
    from .unloaded import _Late

    return _Late()


class AsksAnything(Solver):
    name, puzzle, summary = "test-asks-anything", "keys", "settle_rule on a list element"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        held: list[object] = [instance]
        return Answer(Status.UNSUPPORTED, message=str(held[0].settle_rule()))  # type: ignore[attr-defined]


class Rules:
    """The base: a cell is open unless `wall` says otherwise."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault

    def verdict(self, char: str) -> bool:
        return not self.wall(char)

    def wall(self, char: str) -> bool:
        return char == "#"


class StrictRules(Rules):
    """Overrides `verdict`: doors are closed too."""

    def verdict(self, char: str) -> bool:
        return char == "." or char.islower()


class LaxRules(Rules):
    """Inherits `verdict`, overrides the `wall` it calls."""

    def wall(self, char: str) -> bool:
        return False


#: The rules a vault is judged by, picked from a table (no class named where it is used).
KINDS: list[type[Rules]] = [Rules, StrictRules, LaxRules]


def consult(rules: Rules) -> bool:
    return rules.verdict(".")


class AsksTheBase(Solver):
    name, puzzle, summary = "test-asks-the-base", "keys", "verdict on a parameter annotated with a base class"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(consult(KINDS[len(instance.keys) % 3](instance))))


class NamesItsRule(Solver):
    name, puzzle, summary = "test-names-its-rule", "keys", "getattr(instance, 'passable')"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(getattr(instance, "passable")(".")))  # noqa: B009 - on purpose


class ComputesItsRule(Solver):
    name, puzzle, summary = "test-computes-its-rule", "keys", "getattr(element, computed name)"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        held: list[object] = [instance]
        rule = getattr(held[0], "pass" + "able")
        return Answer(Status.UNSUPPORTED, message=str(rule(".")))

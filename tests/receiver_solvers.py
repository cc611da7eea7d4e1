"""Plugin formulations of the key vault that call methods on objects (tests/test_plugin_sharing.py).

Not registered anywhere: the tests hand them to `crosscheck.harness.independence.sharing` directly.
Each decides nothing (it answers `UNSUPPORTED`); what matters is what its code calls:

- `AsksAnnotated` calls the model's rule `Vault.passable` on its annotated parameter;
- `AsksThroughAttribute` calls it on ``self.vault`` of a helper class (set in ``__init__``
  from an annotated parameter), `AsksThroughReturn` on what an annotated function returns;
- `AsksUnknown` calls it on an element of a list, whose class the annotations do not give
  (so it is taken to run every ``passable`` of the model and of this package: `_Rules`' too);
- `OwnRules` calls only methods of its own class, one of them named ``passable`` too;
- `OwnTable` calls its own class's method ``get``; `LooksUp` calls ``get`` on an object of
  unknown class (a dict, as it happens);
- `KeepsItsRules` calls functions it keeps in attributes: one its ``__init__`` sets, one a
  class attribute, one set in the ``__init__`` of a helper class it is handed (annotated)
  but never makes.
"""

from __future__ import annotations

from crosscheck.models.keys.model import Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status


class AsksAnnotated(Solver):
    name, puzzle, summary = "test-asks-annotated", "keys", "instance.passable on its annotated parameter"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(instance.passable(".")))


class _Floor:
    """Holds the vault it is given (the attribute's class comes from ``__init__``)."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault

    def open(self, char: str) -> bool:
        return self.vault.passable(char)


def _same(vault: Vault) -> Vault:
    return vault


class AsksThroughAttribute(Solver):
    name, puzzle, summary = "test-asks-attribute", "keys", "passable on a helper's self.vault"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(_Floor(instance).open(".")))


class AsksThroughReturn(Solver):
    name, puzzle, summary = "test-asks-return", "keys", "passable on what an annotated function returns"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        returned = _same(instance)
        return Answer(Status.UNSUPPORTED, message=str(returned.passable("#")))


class AsksUnknown(Solver):
    name, puzzle, summary = "test-asks-unknown", "keys", "passable on a list element"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        vaults = [instance]
        return Answer(Status.UNSUPPORTED, message=str(vaults[0].passable(".")))


class _Rules:
    """The plugin's own rules, one named as the model's."""

    def __init__(self, vault: Vault) -> None:
        self.rows = vault.rows

    def passable(self, char: str) -> bool:
        return char != "#"

    def open_cells(self) -> int:
        return sum(self.passable(char) for row in self.rows for char in row)


class OwnRules(Solver):
    name, puzzle, summary = "test-own-rules", "keys", "calls only its own class's methods"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        rules = _Rules(instance)
        return Answer(Status.UNSUPPORTED, message=f"{rules.open_cells()} {rules.passable('.')}")


class _Table:
    """A method named as a dict's."""

    def __init__(self) -> None:
        self.entries = {"a": 1}

    def get(self, key: str) -> int:
        return self.entries[key]


class OwnTable(Solver):
    name, puzzle, summary = "test-own-table", "keys", "calls its own class's get"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(_Table().get("a")))


class LooksUp(Solver):
    name, puzzle, summary = "test-looks-up", "keys", "calls get on a list element (a dict)"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        tables = [instance.keys]
        return Answer(Status.UNSUPPORTED, message=str(tables[0].get("a")))


def _wall_rule(char: str) -> bool:
    """Reached only through ``self.wall`` (set in `KeepsItsRules.__init__`)."""
    return char == "#"


def _door_rule(_: object, char: str) -> bool:
    """Reached only through the class attribute `KeepsItsRules.door` (a method so)."""
    return char.isupper()


def _key_rule(char: str) -> bool:
    """Reached only through ``keeper.key`` (set in `_Keeper.__init__`)."""
    return char.islower()


class _Keeper:
    def __init__(this) -> None:  # noqa: N805 -- ``self`` by another name is still followed
        this.key = _key_rule


class KeepsItsRules(Solver):
    name, puzzle, summary = "test-keeps-rules", "keys", "calls functions kept in attributes"
    door = _door_rule

    def __init__(self) -> None:
        self.wall = _wall_rule

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return self._judged(instance, _handed())

    def _judged(self, instance: Vault, keeper: _Keeper) -> Answer:
        return Answer(Status.UNSUPPORTED, message=f"{self.wall('#')} {self.door('A')} {keeper.key('a')}")


def _handed() -> _Keeper:
    """Stands for code outside the plugin handing it a keeper (not followed: never called here)."""
    raise NotImplementedError

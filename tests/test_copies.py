"""Built-in code pasted or wrapped by a plugin is shared code (formulations in
tests/fixtures/copied_solvers.py): a copy is compared by content (`crosscheck.harness.independence.copies`),
a function it calls counts by its own content (so a copy that renames its helpers is
still a copy, tests/fixtures/renamed_quotient.py), and a ``functools.partial`` kept in a global or a
class attribute is followed."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import FunctionType

import pytest
from crosscheck.harness.independence import copies, sharing, walk
from crosscheck.models.elevator.model import ElevatorMove, Facility
from crosscheck.models.keys.model import door_key
from crosscheck.solvers.base import Solver
from crosscheck.solvers.elevator.quotient import QuotientProblem, labelled_plan
from crosscheck.solvers.registry import get_solver, solvers_for

from tests.fixtures.copied_helpers import (
    ImportsInside,
    ImportsOther,
    NamesItsOwn,
    OwnTuple,
    PastesItsTuple,
    SplitsItsModel,
    _Fits,
    _Spreads,
)
from tests.fixtures.copied_solvers import (
    CopiesCanonical,
    CopiesStart,
    Delegates,
    DelegatesByAttribute,
    RenamedBound,
    _Ends,
)
from tests.fixtures.receiver_solvers import OwnRules
from tests.fixtures.renamed_quotient import ChangedQuotient, RenamedQuotient

QUOTIENT = "crosscheck.solvers.elevator.quotient"
COMMON = "crosscheck.solvers.elevator.common"


def test_a_verbatim_copy_shares_with_the_function_it_copies() -> None:
    quotient, copy = get_solver("elevator-quotient"), CopiesStart()
    shared = sharing.shared(quotient, copy)
    assert shared == {f"{COMMON}.start_state = tests.fixtures.copied_solvers.start_state (same code)"}
    assert sharing.independent_group([quotient, copy]) == ["elevator-quotient"]
    # run records keep `shares`: each side's holds the entry, so they intersect (one line of evidence)
    assert sharing.shares(copy, [quotient]) & sharing.shares(quotient, [copy]) == shared


def test_a_trivial_function_alike_is_not_a_copy() -> None:
    """``return state[1:] == self.goal`` in two modules is no evidence of copying."""
    assert copies.fingerprint(_Ends.is_goal) is None
    assert copies.fingerprint(QuotientProblem.is_goal) is None
    assert copies.fingerprint(_Ends.__init__) is None


def _key_for(cell: str) -> str | None:
    """Written from the rules, not copied: it reads as `crosscheck.models.keys.model.door_key` does."""
    return cell.lower() if "A" <= cell <= "Z" else None


def test_an_honest_one_liner_that_reads_as_a_built_in_is_not_a_copy() -> None:
    """One short expression is how anyone writes a rule: matching one is no evidence."""
    assert copies.fingerprint(_key_for) is None and copies.fingerprint(door_key) is None


def test_a_renamed_copy_shares_and_a_changed_one_does_not() -> None:
    shared = sharing.shared(get_solver("elevator-quotient"), RenamedBound())
    assert shared == {f"{COMMON}.crossing_bound = tests.fixtures.copied_solvers.lower_bound (same code)"}


def test_a_copy_rests_on_the_lemmas_of_its_original() -> None:
    """elevator-cpsat runs none of quotient's code but rests on its renaming lemma: so
    does a copy of quotient's `canonical`."""
    lemma = "lemma: elevator: plans map to plans under renaming of elements"
    assert lemma in sharing.footprint(CopiesCanonical())
    assert lemma in sharing.shared(CopiesCanonical(), get_solver("elevator-cpsat"))


def test_a_partial_in_a_module_global_is_followed() -> None:
    static = walk.static_footprint(Delegates)
    assert {f"{QUOTIENT}.ElevatorQuotient._solve", f"{QUOTIENT}.QuotientProblem.successors"} <= static
    assert f"{QUOTIENT}.QuotientProblem.successors" in sharing.shares(Delegates(), [get_solver("elevator-quotient")])


def test_a_partial_in_a_class_attribute_is_followed() -> None:
    assert f"{QUOTIENT}.labelled_plan" in walk.static_footprint(DelegatesByAttribute)
    assert f"{QUOTIENT}.labelled_plan" in sharing.shared(DelegatesByAttribute(), get_solver("elevator-quotient"))


def test_fingerprinting_leaves_the_walks_syntax_trees_alone() -> None:
    """The walk reads each function's cached definition (annotations give receivers'
    classes); a fingerprint normalises a copy of it (annotations dropped)."""
    before = walk.static_footprint(OwnRules)
    for name in before:
        function = copies.function_named(name)
        assert function is not None
        copies.fingerprint.__wrapped__(function)  # not cached: normalise even if done before
    assert walk.static_footprint(OwnRules) == before


def test_stored_fingerprints_match_the_code() -> None:
    """What `python -m crosscheck.harness.independence.sharing` would write now is what is stored."""
    assert sharing.built_in_fingerprints(sharing.stored_footprints()) == sharing.stored_fingerprints()


def test_stored_fingerprints_of_methods_run_on_subclasses_match_the_code() -> None:
    assert sharing.built_in_variants() == sharing.stored_variants()


RENAMED = "tests.fixtures.renamed_quotient"


def test_a_copy_with_its_helpers_renamed_shares_with_the_original() -> None:
    """elevator-quotient pasted with every helper (module functions, ``self._safe``) renamed:
    each function whose helpers are copies too is the same code."""
    shared = sharing.shared(get_solver("elevator-quotient"), RenamedQuotient())
    assert {f"{QUOTIENT}.QuotientProblem.__init__ = {RENAMED}.RenamedProblem.__init__ (same code)",
            f"{QUOTIENT}.QuotientProblem.successors = {RENAMED}.RenamedProblem.successors (same code)",
            f"{QUOTIENT}.QuotientProblem.heuristic = {RENAMED}.RenamedProblem.heuristic (same code)",
            f"{QUOTIENT}.labelled_plan = {RENAMED}.plan_with_names (same code)",
            f"{COMMON}.crossing_bound = {RENAMED}.floor_bound (same code)"} <= shared


def test_a_renamed_copy_whose_helper_changed_is_other_code_up_the_calls() -> None:
    """The bound's constant changed: neither the bound nor the heuristic calling it is a
    copy; the rest, which does not call it, still is."""
    shared = sharing.shared(get_solver("elevator-quotient"), ChangedQuotient())
    assert not [entry for entry in shared if "crossing_bound" in entry or "heuristic" in entry]
    assert f"{QUOTIENT}.labelled_plan = {RENAMED}.plan_with_names (same code)" in shared


def _short(facility: Facility) -> list[ElevatorMove]:
    return labelled_plan(facility, [])


def test_calling_a_large_helper_makes_no_function_substantial() -> None:
    assert copies.fingerprint(labelled_plan) is not None and copies.fingerprint(_short) is None


def _even(n: int) -> bool:
    if n == 0:
        return True
    fewer = n - 1
    return _odd(fewer)


def _odd(n: int) -> bool:
    if n == 0:
        return False
    fewer = n - 1
    return _even(fewer)


def _is_even(k: int) -> bool:
    if k == 0:
        return True
    less = k - 1
    return _is_odd(less)


def _is_odd(k: int) -> bool:
    if k == 0:
        return False
    less = k - 1
    return _is_even(less)


def _even_positive(n: int) -> bool:
    return n > 0 and _even(n)


def _is_even_positive(k: int) -> bool:
    return k > 0 and _is_even(k)


def _count(n: int) -> int:
    if n == 0:
        return 0
    smaller = n - 1
    return 1 + _count(smaller)


def _tally(k: int) -> int:
    if k == 0:
        return 0
    rest = k - 1
    return 1 + _tally(rest)


@pytest.mark.parametrize("order", [(_even_positive, _odd, _is_odd, _is_even_positive, _even, _is_even),
                                   (_is_even_positive, _is_odd, _odd, _even_positive, _is_even, _even)])
def test_recursion_ends_and_a_renamed_copy_of_a_cycle_matches_in_any_order(order: tuple[FunctionType, ...]) -> None:
    """Whichever function of a cycle is hashed first, and from where (`_even_positive`
    enters the cycle at `_even`), each hashes alike: the functions of a cycle are hashed
    together."""
    for function in order:
        copies._CONTENT.pop(function, None)
    found = {function.__name__: copies.fingerprint.__wrapped__(function) for function in order}
    assert found["_even"] == found["_is_even"] and found["_odd"] == found["_is_odd"]
    assert found["_even"] is not None and found["_even"] != found["_odd"]
    assert copies.fingerprint(_count) == copies.fingerprint(_tally) is not None


#: keys: keys-grid, keys-graph and keys-sat (keys-cpsat shares the contracted routes with keys-graph).
@pytest.mark.parametrize(("puzzle", "count"), [("keys", 3), ("amphipods", 4), ("elevator", 3)])
def test_built_in_independent_provers_stay_counted(puzzle: str, count: int) -> None:
    assert len(sharing.independent_group(solvers_for(puzzle))) == count


def _generated(folder: Path, module: str, source: str) -> dict[str, FunctionType]:
    """The functions of `source`, imported as `module` from a file in `folder` (so that
    their source is there to read)."""
    (folder / f"{module}.py").write_text(source)
    sys.path.insert(0, str(folder))
    try:
        imported = importlib.import_module(module)
    finally:
        sys.path.remove(str(folder))
    return {name: value for name, value in vars(imported).items() if isinstance(value, FunctionType)}


def _chain(prefix: str, length: int) -> str:
    """`length` functions, each calling the next."""
    return "".join(f"def {prefix}{i}(n):\n    m = n - 1\n    k = m * 2\n    return k + {prefix}{i + 1}(m) if n else {i}\n\n"
                   for i in range(length - 1)) + f"def {prefix}{length - 1}(n):\n    return n\n"


def _web(prefix: str, size: int) -> str:
    """`size` functions in one cycle, each calling the next three (many paths through it)."""
    return "".join(f"def {prefix}{i}(n):\n    if n <= 0:\n        return {i}\n    m = n - 1\n"
                   f"    return {' + '.join(f'{prefix}{(i + step) % size}(m)' for step in (1, 2, 3))}\n\n"
                   for i in range(size))


def test_a_call_chain_deeper_than_pythons_stack_is_hashed(tmp_path: Path) -> None:
    """Hashing follows calls without recursion: a plugin's deep chain of helpers (deeper
    than the interpreter's recursion limit allows nested walks) never makes its sharing,
    and so every run beside it, fail."""
    functions = _generated(tmp_path, "crosscheck_test_chain", _chain("step", 2 * sys.getrecursionlimit()))
    assert copies.fingerprint(functions["step0"]) is not None


def test_each_function_of_a_dense_cycle_is_read_once_and_a_renamed_copy_matches(tmp_path: Path) -> None:
    """A cycle with many paths through it is hashed in time linear in its calls: each
    function's tree is built once (an unfolding of the paths would take exponential time),
    and a renamed copy of the whole cycle hashes alike."""
    original = _generated(tmp_path, "crosscheck_test_web", _web("node", 30))
    renamed = _generated(tmp_path, "crosscheck_test_web_renamed", _web("other", 30))
    before = copies._shape.cache_info().misses
    found = copies.fingerprint(original["node0"])
    assert copies._shape.cache_info().misses - before == 30
    assert found is not None and found == copies.fingerprint(renamed["other0"])
    assert copies.fingerprint(original["node1"]) == copies.fingerprint(renamed["other1"]) != found


CPSAT = "crosscheck.solvers.elevator.cpsat"
HELPERS = "tests.fixtures.copied_helpers"


def test_a_copy_that_renames_a_class_it_builds_shares_with_the_original() -> None:
    """`WasteTables.fitting` pasted with the named tuple it builds renamed: the class
    stands for its content, so the copy is the same code and not a second prover."""
    cpsat, copy = get_solver("elevator-cpsat"), PastesItsTuple()
    assert f"{CPSAT}.WasteTables.fitting = {HELPERS}._Fits.fitting (same code)" in sharing.shared(cpsat, copy)
    assert sharing.independent_group([cpsat, copy]) == ["elevator-cpsat"]


def test_the_same_expression_over_a_class_of_its_own_is_other_code() -> None:
    """A tuple class with other fields is other code: so is what builds it."""
    own = OwnTuple()
    assert not [entry for entry in sharing.shared(get_solver("elevator-cpsat"), own) if "same code" in entry]
    assert copies.fingerprint(_Spreads.spread) != copies.fingerprint(_Fits.fitting)


def test_a_helper_imported_inside_a_function_stands_for_its_content() -> None:
    """`_distances` pasted, its helper pasted renamed and imported in the function's body."""
    entry = f"crosscheck.solvers.keys.level_cuts._distances = {HELPERS}.breadth_first (same code)"
    assert entry in sharing.shared(get_solver("keys-cpsat"), ImportsInside())


def test_a_helper_of_its_own_imported_inside_a_function_is_other_code() -> None:
    shared = sharing.shared(get_solver("keys-cpsat"), ImportsOther())
    assert not [entry for entry in shared if "_distances" in entry]


_FLAT_WALK = '''
from crosscheck.models.keys.model import Cell, Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from {helper} import adjacent


def breadth_first(vault: Vault, start: Cell) -> dict[Cell, int]:
    distance = {{start: 0}}
    order = [start]
    for cell in order:
        for target in adjacent(vault, cell):
            if target not in distance:
                distance[target] = distance[cell] + 1
                order.append(target)
    return distance


class FlatWalk(Solver):
    name, puzzle, summary = "test-flat-walk-{helper}", "keys", "a plain module pasting _distances"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(breadth_first(instance, instance.robots[0])))
'''
_FLAT_HELPERS = {  # the pasted `_neighbours`, and a wall test of its own (not a copy)
    "flat_pasted": "def adjacent(vault, cell):\n"
                   "    return [target for _, target in vault.open_neighbours(cell) if vault.passable(vault.at(target))]\n",
    "flat_own": "def adjacent(vault, cell):\n"
                "    return [target for _, target in vault.open_neighbours(cell) if vault.at(target) != '#']\n"}


def _flat_plugin(folder: Path, helper: str) -> Solver:
    """A plain-module plugin (``flat_walk_<helper>.py``, no package) pasting keys-cpsat's
    `_distances`, importing `adjacent` from the module `helper` beside it."""
    (folder / f"{helper}.py").write_text(_FLAT_HELPERS[helper])
    (folder / f"flat_walk_{helper}.py").write_text(_FLAT_WALK.format(helper=helper))
    solver_class: type[Solver] = importlib.import_module(f"flat_walk_{helper}").FlatWalk
    return solver_class()


def test_a_helper_beside_a_plain_module_plugin_is_its_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sibling module's `adjacent` is in the plugin's footprint and stands for its
    content in `breadth_first`'s fingerprint: the pasted `_distances` is the same code."""
    monkeypatch.syspath_prepend(str(tmp_path))
    plugin = _flat_plugin(tmp_path, "flat_pasted")
    assert "flat_pasted.adjacent" in walk.static_footprint(type(plugin))
    shared = sharing.shared(get_solver("keys-cpsat"), plugin)
    assert "crosscheck.solvers.keys.level_cuts._distances = flat_walk_flat_pasted.breadth_first (same code)" in shared


def test_a_helper_of_its_own_beside_a_plain_module_plugin_is_other_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    plugin = _flat_plugin(tmp_path, "flat_own")
    assert "flat_own.adjacent" in walk.static_footprint(type(plugin))
    assert not [entry for entry in sharing.shared(get_solver("keys-cpsat"), plugin) if "same code" in entry]


KEY_NODE = "crosscheck.solvers.keys.cpsat.VaultModel._key_node"


def test_a_method_is_compared_as_run_on_the_subclass_whose_override_it_calls() -> None:
    """`_key_node` pasted into a base class, the `_node_name` it calls through ``self``
    pasted into the subclass the plugin runs: run on that subclass, it is the same code."""
    entry = f"{KEY_NODE} = {HELPERS}._Arcs._key_node on {HELPERS}._PastedNames (same code)"
    assert entry in sharing.shared(get_solver("keys-cpsat"), SplitsItsModel())


def test_a_method_run_on_a_subclass_with_an_override_of_its_own_is_other_code() -> None:
    assert not [entry for entry in sharing.shared(get_solver("keys-cpsat"), NamesItsOwn()) if "same code" in entry]

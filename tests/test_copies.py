"""Built-in code pasted or wrapped by a plugin is shared code (formulations in
tests/copied_solvers.py): a copy is compared by content (`crosscheck.solvers.copies`),
and a ``functools.partial`` kept in a global or a class attribute is followed."""

from __future__ import annotations

from crosscheck.models.keys import door_key
from crosscheck.solvers import copies, sharing
from crosscheck.solvers.elevator.quotient import QuotientProblem
from crosscheck.solvers.footprints import FINGERPRINTS, FOOTPRINTS
from crosscheck.solvers.registry import get_solver
from tests.copied_solvers import CopiesCanonical, CopiesStart, Delegates, DelegatesByAttribute, RenamedBound, _Ends
from tests.receiver_solvers import OwnRules

QUOTIENT = "crosscheck.solvers.elevator.quotient"
COMMON = "crosscheck.solvers.elevator.common"


def test_a_verbatim_copy_shares_with_the_function_it_copies() -> None:
    quotient, copy = get_solver("elevator-quotient"), CopiesStart()
    shared = sharing.shared(quotient, copy)
    assert shared == {f"{COMMON}.start_state = tests.copied_solvers.start_state (same code)"}
    assert sharing.independent_group([quotient, copy]) == ["elevator-quotient"]
    # run records keep `shares`: each side's holds the entry, so they intersect (one line of evidence)
    assert sharing.shares(copy, [quotient]) & sharing.shares(quotient, [copy]) == shared


def test_a_trivial_function_alike_is_not_a_copy() -> None:
    """``return state[1:] == self.goal`` in two modules is no evidence of copying."""
    assert copies.fingerprint(_Ends.is_goal) is None
    assert copies.fingerprint(QuotientProblem.is_goal) is None
    assert copies.fingerprint(_Ends.__init__) is None


def _key_for(cell: str) -> str | None:
    """Written from the rules, not copied: it reads as `crosscheck.models.keys.door_key` does."""
    return cell.lower() if "A" <= cell <= "Z" else None


def test_an_honest_one_liner_that_reads_as_a_built_in_is_not_a_copy() -> None:
    """One short expression is how anyone writes a rule: matching one is no evidence."""
    assert copies.fingerprint(_key_for) is None and copies.fingerprint(door_key) is None


def test_a_renamed_copy_shares_and_a_changed_one_does_not() -> None:
    shared = sharing.shared(get_solver("elevator-quotient"), RenamedBound())
    assert shared == {f"{COMMON}.crossing_bound = tests.copied_solvers.lower_bound (same code)"}


def test_a_copy_rests_on_the_lemmas_of_its_original() -> None:
    """elevator-cpsat runs none of quotient's code but rests on its renaming lemma: so
    does a copy of quotient's `canonical`."""
    lemma = "lemma: elevator: plans map to plans under renaming of elements"
    assert lemma in sharing.footprint(CopiesCanonical())
    assert lemma in sharing.shared(CopiesCanonical(), get_solver("elevator-cpsat"))


def test_a_partial_in_a_module_global_is_followed() -> None:
    static = sharing.static_footprint(Delegates)
    assert {f"{QUOTIENT}.QuotientSearch._solve", f"{QUOTIENT}.QuotientProblem.successors"} <= static
    assert f"{QUOTIENT}.QuotientProblem.successors" in sharing.shares(Delegates(), [get_solver("elevator-quotient")])


def test_a_partial_in_a_class_attribute_is_followed() -> None:
    assert f"{QUOTIENT}.labelled_plan" in sharing.static_footprint(DelegatesByAttribute)
    assert f"{QUOTIENT}.labelled_plan" in sharing.shared(DelegatesByAttribute(), get_solver("elevator-quotient"))


def test_fingerprinting_leaves_the_walks_syntax_trees_alone() -> None:
    """The walk reads each function's cached definition (annotations give receivers'
    classes); a fingerprint normalises a copy of it (annotations dropped)."""
    before = sharing.static_footprint(OwnRules)
    for name in before:
        function = copies.function_named(name)
        assert function is not None
        copies.fingerprint.__wrapped__(function)  # not cached: normalise even if done before
    assert sharing.static_footprint(OwnRules) == before


def test_stored_fingerprints_match_the_code() -> None:
    """What `python -m crosscheck.solvers.sharing` would write now is what is stored."""
    assert sharing.built_in_fingerprints(FOOTPRINTS) == FINGERPRINTS

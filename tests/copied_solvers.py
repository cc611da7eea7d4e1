"""Plugin formulations of the elevator that run built-in code they pasted or wrapped
(tests/test_copies.py): a copy of a function is that function, wherever it lives."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from crosscheck.models.elevator.model import Facility
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.elevator.quotient import ElevatorQuotient, labelled_plan

Labelled = tuple[int, ...]


def start_state(facility: Facility) -> Labelled:
    floors: list[int] = [0]
    for chip, generator in zip(facility.chips, facility.generators, strict=True):
        floors += [generator, chip]
    return tuple(floors)


class _Ends:
    """Holds a goal as `crosscheck.solvers.elevator.quotient.QuotientProblem` does."""

    def __init__(self, goal: tuple[int, ...]) -> None:
        self.goal = goal

    def is_goal(self, state: tuple[int, ...]) -> bool:
        return state[1:] == self.goal  # QuotientProblem.is_goal's line: too small to be a copy


class CopiesStart(Solver):
    """Pastes elevator-quotient's start state (from its helpers) and its goal test."""

    name, puzzle, summary = "test-copies-start", "elevator", "a verbatim copy of start_state"

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        start = start_state(instance)
        done = _Ends(start[1:]).is_goal(start)
        return Answer(Status.UNSUPPORTED, message=f"{start} {done}")


def lower_bound(n: int, at: int, per_floor: Sequence[int]) -> int:
    total = seen = 0
    for b in range(n - 1):
        seen += per_floor[b]
        if seen:
            total += max(1, 2 * seen - 3) if at <= b else 2 * seen
    return total


def lower_bound_changed(n: int, at: int, per_floor: Sequence[int]) -> int:
    """`lower_bound` with one constant changed: other code."""
    total = seen = 0
    for b in range(n - 1):
        seen += per_floor[b]
        if seen:
            total += max(1, 2 * seen - 2) if at <= b else 2 * seen
    return total


class RenamedBound(Solver):
    """Runs elevator-quotient's crossing bound renamed (function, parameters, locals),
    without its docstring and annotations, and a changed copy of it."""

    name, puzzle, summary = "test-renamed-bound", "elevator", "a renamed copy of crossing_bound"

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        counts = [0] * instance.floors
        bounds = lower_bound(instance.floors, 0, counts), lower_bound_changed(instance.floors, 0, counts)
        return Answer(Status.UNSUPPORTED, message=str(bounds))


_delegate = partial(ElevatorQuotient._solve, ElevatorQuotient())


class Delegates(Solver):
    """Runs elevator-quotient through a ``functools.partial`` kept in a module global."""

    name, puzzle, summary = "test-delegates", "elevator", "elevator-quotient through functools.partial"

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        return _delegate(instance, deadline)


class DelegatesByAttribute(Solver):
    """Runs elevator-quotient's plan rebuilding through a partial kept as a class attribute."""

    name, puzzle, summary = "test-delegates-attribute", "elevator", "labelled_plan through a class attribute"
    _rebuild = partial(labelled_plan)

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(self._rebuild(instance, [])))


def canonical(labelled: tuple[int, ...], floors: int) -> tuple[int, ...]:
    generators, chips = labelled[1::2], labelled[2::2]
    return (labelled[0], *sorted(chip * floors + generator for chip, generator in zip(chips, generators, strict=True)))


class CopiesCanonical(Solver):
    """Pastes elevator-quotient's quotient state, which rests on the renaming lemma."""

    name, puzzle, summary = "test-copies-canonical", "elevator", "a verbatim copy of canonical"

    def _solve(self, instance: Facility, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(canonical(start_state(instance), instance.floors)))


SOLVERS = [CopiesStart, RenamedBound, Delegates, DelegatesByAttribute, CopiesCanonical]

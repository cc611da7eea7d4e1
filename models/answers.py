"""An instance's exact answer: its optimum, or that it has no solution.

An `ExactAnswer` is one of two values: `Optimum` (the optimal cost) or `NoSolution` (the
one value `NO_SOLUTION`).  Where an answer may be missing (an index entry that gives
none, a run that proved nothing) the type is ``ExactAnswer | None``, and None always
means *unknown*, never "no solution".

It is the one type of an exact answer everywhere: a relation's expectation on two answers
(`crosscheck.models.relations`), an index entry (`crosscheck.harness.inputs.index`), a run
record's ``expected``, the answer a verdict agrees on, and a runner's answer in a pair of
related instances (`crosscheck.harness.judging.pairs`).  Files keep its JSON value
(`to_json`, `from_json`): the optimum as an integer, no solution as the string
``"infeasible"`` (`INFEASIBLE`), unknown as null.
"""

from __future__ import annotations

from dataclasses import dataclass

#: How files and messages name the answer "no solution" (index.toml's ``infeasible = true``,
#: a record's ``"expected": "infeasible"``, an ``infeasible`` run status).
INFEASIBLE = "infeasible"


@dataclass(frozen=True)
class Optimum:
    """The instance's optimal cost."""

    cost: int

    def __str__(self) -> str:
        return str(self.cost)


@dataclass(frozen=True)
class NoSolution:
    """The instance has no solution at all."""

    def __str__(self) -> str:
        return INFEASIBLE


#: An exact answer: the optimum, or no solution.
ExactAnswer = Optimum | NoSolution
#: The answer "no solution" (every `NoSolution` equals it).
NO_SOLUTION = NoSolution()


def to_json(answer: ExactAnswer | None) -> int | str | None:
    """`answer` as files keep it: the optimum as an int, `INFEASIBLE`, or None for unknown."""
    if answer is None:
        return None
    return INFEASIBLE if isinstance(answer, NoSolution) else answer.cost


def from_json(value: object) -> ExactAnswer | None:
    """The answer files keep as `value` (`to_json`'s forms; an `ExactAnswer` passes as it is);
    `ValueError` naming what was read for anything else."""
    if value is None or isinstance(value, Optimum | NoSolution):
        return value
    if value == INFEASIBLE:
        return NO_SOLUTION
    if isinstance(value, int) and not isinstance(value, bool):
        return Optimum(value)
    raise ValueError(f"expected an optimum (an integer), {INFEASIBLE!r} or null, got {value!r}")

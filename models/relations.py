"""Metamorphic relations: pairs of instances whose answers are related by construction.

A `Relation` maps an instance (and, for the suffix relations, a checked plan of it) to
a `Related` instance and an `Expectation` about the two answers:

- `Same`: the same optimum, and the same feasibility;
- `NotLarger`: the related optimum is never larger; a feasible original stays feasible;
- `Offset`: the related optimum is the original's minus `amount` (a state reached by
  moves costing `amount` along an optimal plan).

A relation that cannot make a related instance from what it is given (no state along
the plan that the format can express, no door to open) raises `NotApplicable`.  The
related instance is always the parse of its own text, so it is exactly what a run
saves to a file and reads back.  Relations that choose (which symmetry, which letters)
draw from the `random.Random` they are given, so a seeded run is reproducible.

`distinct_draws` draws several related instances of one instance: each differs from the
others and from the original (as texts), and a relation with few images (a ring of wall
has one) yields only those.

An answer is an exact one (`crosscheck.models.answers.ExactAnswer`: an optimum, or no
solution).  `Expectation.broken` names what a pair of answers breaks, or returns None
when they agree.  An expectation's
text (``same``, ``not larger``, ``offset N``) is how records keep it; `parse_expectation`
reads it back.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from crosscheck.models.answers import ExactAnswer, NoSolution, Optimum
from crosscheck.models.base import Instance

Plan = Sequence[Any]


class NotApplicable(Exception):
    """The relation cannot derive a related instance from this instance (or plan)."""


def _show(answer: ExactAnswer) -> str:
    return "no solution" if isinstance(answer, NoSolution) else str(answer.cost)


@dataclass(frozen=True)
class Same:
    """Same optimum, same feasibility."""

    def broken(self, original: ExactAnswer, related: ExactAnswer) -> str | None:
        if original == related:
            return None
        return f"expected the same answer, got {_show(original)} and {_show(related)}"

    def __str__(self) -> str:
        return "same"


@dataclass(frozen=True)
class NotLarger:
    """The related optimum is at most the original's; a feasible original stays feasible."""

    def broken(self, original: ExactAnswer, related: ExactAnswer) -> str | None:
        if isinstance(original, NoSolution) or (isinstance(related, Optimum) and related.cost <= original.cost):
            return None
        return f"expected at most {original.cost}, got {_show(related)}"

    def __str__(self) -> str:
        return "not larger"


@dataclass(frozen=True)
class Offset:
    """The related optimum is the original's minus `amount` (the original is feasible:
    the related instance is a state along one of its plans)."""

    amount: int

    def broken(self, original: ExactAnswer, related: ExactAnswer) -> str | None:
        if isinstance(original, Optimum) and related == Optimum(original.cost - self.amount):
            return None
        wanted = "a solution first" if isinstance(original, NoSolution) else str(original.cost - self.amount)
        return f"expected {wanted} (original minus {self.amount}), got {_show(original)} and {_show(related)}"

    def __str__(self) -> str:
        return f"offset {self.amount}"


Expectation = Same | NotLarger | Offset


def parse_expectation(text: str) -> Expectation:
    """The expectation `str` wrote as `text` (``same``, ``not larger``, ``offset N``), as
    records keep it; `ValueError` saying what is read for anything else."""
    if text == str(Same()):
        return Same()
    if text == str(NotLarger()):
        return NotLarger()
    word, _, amount = text.partition(" ")
    if word == "offset" and amount.isdigit():
        return Offset(int(amount))
    raise ValueError(f"expected 'same', 'not larger' or 'offset N', got {text!r}")


@dataclass(frozen=True)
class Related:
    """A related instance, what is expected of its answer, and what was done (`detail`,
    e.g. ``"rotate 90"`` or ``"after 3 moves"``), for reports."""

    instance: Instance
    expectation: Expectation
    detail: str

    @property
    def text(self) -> str:
        """The related instance in its puzzle's format: what a run saves."""
        return self.instance.to_text()


#: A relation's derive function: (instance, rng, plan) to a related instance.
Derive = Callable[[Any, random.Random, Plan | None], Related]


@dataclass(frozen=True)
class Relation:
    """A named metamorphic relation of one puzzle.

    `derive(instance, rng, plan)` returns the `Related` instance or raises
    `NotApplicable`; `plan` is used only by relations with ``needs_plan`` (a plan of the
    instance the caller believes optimal; the relation replays it with the puzzle's
    checker and raises `InvalidPlan` if it breaks the rules), the others ignore it.
    `why` says why the relation holds (the derive function's docstring).

    `kinds`, when given, are the kinds of image `derive` chooses among (derive functions
    alike): `distinct_draws` takes them in turn, so each kind is drawn even when the
    random choice would have missed it (renaming two elements: the swap of their names).
    """

    name: str
    puzzle: str
    derive: Derive
    needs_plan: bool = False
    kinds: tuple[Derive, ...] = ()

    @property
    def why(self) -> str:
        return (self.derive.__doc__ or "").strip()


def reparsed(parse: Callable[[str, str], Any], instance: Instance, name: str) -> Any:
    """`instance` after a trip through its text and the puzzle's parser, named `name`:
    a related instance the format cannot express fails here, not in a solver."""
    return parse(instance.to_text(), name)


def related_name(original: Instance, relation: str) -> str:
    """The name of an instance derived from `original` by `relation`."""
    return f"{original.name}~{relation}"


#: Draws per related instance asked, at most, before `distinct_draws` settles for fewer.
DRAWS_PER_ASKED = 10


def distinct_draws(relation: Relation, instance: Instance, rng: random.Random, count: int,
                   plan: Plan | None = None) -> list[Related]:
    """Up to `count` related instances of `instance` by `relation`, drawn from `rng`, whose
    texts differ from each other and from `instance`'s: a draw that repeats one, or gives
    the original back, is drawn again, at most ``count * DRAWS_PER_ASKED`` draws in all.
    Fewer come back when the relation has fewer distinct images than `count` (or the
    draws did not find them).  A relation with `Relation.kinds` takes its kinds in turn,
    from one drawn by `rng` (so as many draws as kinds try each kind), and drops a kind
    that raises `NotApplicable` (it cannot apply to this instance, at any draw);
    `NotApplicable` is raised when every kind raised it and nothing was found.  The same
    `rng` state gives the same draws."""
    kinds = list(relation.kinds or (relation.derive,))
    seen, found = {instance.to_text()}, list[Related]()
    reason: NotApplicable | None = None
    first = rng.randrange(len(kinds)) if len(kinds) > 1 else 0  # the first kind drawn, as `derive` would
    for attempt in range(first, first + count * DRAWS_PER_ASKED):
        if not kinds or len(found) == count:
            break
        derive = kinds[attempt % len(kinds)]
        try:
            related = derive(instance, rng, plan)
        except NotApplicable as why:
            reason = reason or why
            kinds.remove(derive)
            continue
        if related.text not in seen:
            seen.add(related.text)
            found.append(related)
    if not found and reason is not None:
        raise reason
    return found

"""Plain PDDL text: a tiny writer for domains and problems with action costs.

The encoders (each puzzle's ``pddl`` module, beside its formulations) describe a puzzle
instance as an `Encoding`: a domain and a problem in PDDL 2.1 with ``:action-costs``
(every action increases ``total-cost`` by its cost; the metric minimises it), plus a
`decode` function that maps one ground action of a plan, as the planner writes it
(``("step", "r0", "c-1-5", "c-1-6", "e")``, lower case), back to a move of the puzzle's
own vocabulary.  Conditions are conjunctions of literals only (no quantifiers, no
disjunctions, no derived predicates), so Fast Downward's A* accepts every encoding with
each of its heuristics (`crosscheck.solvers.engines.downward.HEURISTICS`: LM-cut supports
no more).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

#: A puzzle's move (`KeyMove`, `AmphipodMove`, `ElevatorMove`).
Move = TypeVar("Move")

GroundAction = tuple[str, ...]


@dataclass(frozen=True)
class Action:
    """An action schema: `parameters` are ``(variable, type)`` pairs; `precondition`
    and `effect` are PDDL literals such as ``"(at ?r ?from)"`` or ``"(not (empty h4))"``."""

    name: str
    parameters: Sequence[tuple[str, str]]
    precondition: Sequence[str]
    effect: Sequence[str]
    cost: int

    def to_pddl(self) -> str:
        parameters = " ".join(f"{variable} - {kind}" for variable, kind in self.parameters)
        return (
            f"  (:action {self.name}\n"
            f"    :parameters ({parameters})\n"
            f"    :precondition (and {' '.join(self.precondition)})\n"
            f"    :effect (and {' '.join(self.effect)} (increase (total-cost) {self.cost})))"
        )


@dataclass(frozen=True)
class Encoding(Generic[Move]):
    """A puzzle instance as a PDDL planning task, and the way back to its moves."""

    domain: str
    problem: str
    decode: Callable[[GroundAction], Move]
    translate_options: tuple[str, ...] = ()  # extra options for Fast Downward's translator

    def moves(self, plan: Sequence[GroundAction]) -> list[Move]:
        """The planner's plan in the puzzle's move vocabulary."""
        return [self.decode(action) for action in plan]


def domain_text(name: str, types: Sequence[str], predicates: Sequence[str], actions: Sequence[Action],
                comment: str = "", constants: dict[str, Sequence[str]] | None = None) -> str:
    """A domain with ``:strips :typing :negative-preconditions :action-costs``.

    Ground actions name objects directly; those objects are the domain's `constants`
    (type -> names).
    """
    lines = [f"; {line}" for line in comment.splitlines()]
    lines += [
        f"(define (domain {name})",
        "  (:requirements :strips :typing :negative-preconditions :action-costs)",
        f"  (:types {' '.join(types)})",
        *_typed_lists("constants", constants or {}),
        f"  (:predicates {' '.join(predicates)})",
        "  (:functions (total-cost) - number)",
    ]
    lines += [action.to_pddl() for action in actions]
    return "\n".join(lines) + ")\n"


def problem_text(name: str, domain: str, objects: dict[str, Sequence[str]], init: Sequence[str],
                 goal: Sequence[str]) -> str:
    """A problem whose metric is ``(minimize (total-cost))``; `objects` maps type -> names
    (leave out the domain's constants)."""
    lines = [f"(define (problem {name}) (:domain {domain})", *_typed_lists("objects", objects)]
    lines += ["  (:init (= (total-cost) 0)"]
    lines += [f"    {atom}" for atom in init]
    lines += ["  )", f"  (:goal (and {' '.join(goal)}))", "  (:metric minimize (total-cost)))"]
    return "\n".join(lines) + "\n"


def _typed_lists(section: str, names: dict[str, Sequence[str]]) -> list[str]:
    """A ``(:objects ...)`` or ``(:constants ...)`` section, one line per type (none if empty)."""
    lines = [f"    {' '.join(group)} - {kind}" for kind, group in names.items() if group]
    return [f"  (:{section}", *lines, "  )"] if lines else []


def pddl_name(text: str) -> str:
    """`text` as a PDDL name: lower case, letters, digits and hyphens, starting with a letter."""
    cleaned = "".join(char if char.isalnum() else "-" for char in text.lower())
    return cleaned if cleaned[:1].isalpha() else f"x-{cleaned}"

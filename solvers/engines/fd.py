"""Solvers that hand a PDDL encoding to Fast Downward (A* with an admissible heuristic).

Nobody here wrote the search: the planner grounds the task, searches it and proves
optimality on its own, and the plan it returns is mapped back to the puzzle's moves
for the puzzle's own checker.  The encoder is imported when a solver runs (it imports
its puzzle's model), and Fast Downward is looked up only then, so the registry loads
without the optional ``planners`` extra; without it the solvers answer `unsupported`.

Statuses: `optimal` only when the planner solved the task (its configuration is
optimal); `infeasible` only when the planner proved the task unsolvable; `timeout`
(with the largest f-value A* reached as the bound) otherwise; running out of memory
raises `MemoryError`, which the harness records as ``memout``.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar, Literal, cast

from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.configuration import Options, option
from crosscheck.solvers.engines.pddl import Encoding


#: The name of one of A*'s heuristics (`crosscheck.solvers.engines.downward.HEURISTICS`).
Heuristic = Literal["blind", "lmcut", "ipdb"]


class FastDownwardOptions(Options):
    """The search of a Fast Downward formulation; every value keeps it exact."""

    heuristic: Heuristic = option(
        "blind", "A*'s admissible heuristic: none (blind), LM-cut, or iPDB's pattern databases")


class FastDownward(Solver):
    """Encode the instance in PDDL, run Fast Downward's A* with the option's heuristic, decode.

    Blind A* is the default: on the sizes within each formulation's reach its cheap states
    beat LM-cut's and iPDB's better-informed ones (docs/results.md, "What Fast Downward solves
    within 60 s")."""

    Options = FastDownwardOptions
    puzzle: ClassVar[str]
    #: The module of the puzzle's PDDL encoder, with ``encode(instance) -> Encoding``
    #: (imported when a run needs it: it imports the puzzle's model).
    encoder: ClassVar[str]
    counts_work = False  # Fast Downward's search takes a time limit, no limit on expansions

    def encode(self, instance: Any) -> Encoding[Any]:
        """`instance` in PDDL, by the puzzle's encoder."""
        encoding: Encoding[Any] = importlib.import_module(self.encoder).encode(instance)
        return encoding

    def unavailable(self) -> str | None:
        from crosscheck.solvers.engines import downward

        try:
            downward.binaries()
        except downward.PlannerMissing as error:
            return str(error)
        return None

    def _solve(self, instance: Any, deadline: Deadline) -> Answer:
        from crosscheck.solvers.engines import downward

        missing = self.unavailable()
        if missing is not None:
            return Answer(Status.UNSUPPORTED, message=missing)
        encoding = self.encode(instance)
        options = cast(FastDownwardOptions, self.options)  # as `configured` checks
        run = downward.solve(encoding.domain, encoding.problem, deadline, encoding.translate_options, options.heuristic)
        if run.outcome is downward.Outcome.SOLVED:
            return Answer(Status.OPTIMAL, cost=run.cost, bound=run.cost, plan=encoding.moves(run.plan or []),
                          stats=run.stats)
        if run.outcome is downward.Outcome.UNSOLVABLE:
            return Answer(Status.INFEASIBLE, stats=run.stats, message="Fast Downward proved the task unsolvable")
        if run.outcome is downward.Outcome.OUT_OF_MEMORY:
            raise MemoryError("Fast Downward ran out of memory")
        return Answer(Status.TIMEOUT, bound=run.bound, stats=run.stats, message="Fast Downward did not finish in time")


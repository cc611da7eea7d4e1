"""The contract every solver honours: a `Solver` returns a validated `Result`.

A solver answers with a status, a cost, a proven lower bound and a witness plan in the
puzzle's own move vocabulary.  The `Result` validator refuses answers that contradict
themselves (an optimum without a plan, a cost below its own bound, ...), so a buggy
solver fails loudly instead of polluting a comparison.
"""

from __future__ import annotations

import copy
import math
import resource
import signal
import time
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Literal

from crosscheck.models.base import with_article
from crosscheck.solvers.certificate import Certificate, Encoding
from crosscheck.solvers.configuration import Options as FormulationOptions
from crosscheck.solvers.configuration import gives_up_optimality, label
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator


class Status(StrEnum):
    """How a run ended."""

    OPTIMAL = "optimal"  # plan found and proven optimal
    FEASIBLE = "feasible"  # plan found, optimality not proven
    INFEASIBLE = "infeasible"  # proven: no plan exists
    TIMEOUT = "timeout"  # limit reached without a plan (bound may be known)
    MEMOUT = "memout"  # memory limit reached
    ERROR = "error"  # the solver crashed
    UNSUPPORTED = "unsupported"  # the formulation does not apply to this instance


#: Statuses that answer the question exactly: a proven optimum, or a proof that no plan
#: exists.  (The harness counts an optimum as exact only once its plan passed the checker.)
EXACT_STATUSES = frozenset({Status.OPTIMAL, Status.INFEASIBLE})
#: Statuses of runs that failed (crashed or ran out of memory), unlike a timeout, which
#: is an honest "not within the limits".
FAILED_STATUSES = frozenset({Status.ERROR, Status.MEMOUT})

Stats = dict[str, int | float | str]


class Result(BaseModel):
    """One solver's answer on one instance.

    Invariants (checked on construction):
    - `optimal` has a cost, a plan, and `bound == cost`;
    - `feasible` has a cost and a plan;
    - `infeasible` has no cost and no plan;
    - other statuses have no cost and no plan;
    - a cost is never below the bound;
    - a certificate claims what the status says: infeasibility for `infeasible`, else the
      result's own lower bound (`crosscheck.solvers.certificate`).
    """

    model_config = ConfigDict(frozen=True, use_enum_values=False)

    solver: str
    instance: str
    status: Status
    cost: int | None = None
    bound: int | None = Field(default=None, description="proven lower bound on the optimum")
    plan: list[Any] | None = None
    seconds: float = 0.0
    stats: Stats = Field(default_factory=dict)
    message: str = ""
    certificate: Certificate | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Result:
        with_plan = {Status.OPTIMAL, Status.FEASIBLE}
        if self.status in with_plan:
            if self.cost is None or self.plan is None:
                raise ValueError(f"{with_article(self.status)} result needs a cost and a plan")
        elif self.cost is not None or self.plan is not None:
            raise ValueError(f"{with_article(self.status)} result carries no cost or plan")
        if self.status is Status.OPTIMAL and self.bound != self.cost:
            raise ValueError(f"an optimal result must have bound == cost, got {self.bound} vs {self.cost}")
        if self.cost is not None and self.bound is not None and self.cost < self.bound:
            raise ValueError(f"cost {self.cost} is below its own lower bound {self.bound}")
        if self.cost is not None and self.cost < 0:
            raise ValueError("cost must be non-negative")
        if self.certificate is not None:
            _certifies(self.certificate, self.status, self.bound)
        return self


def _certifies(certificate: Certificate, status: Status, bound: int | None) -> None:
    """Refuse a certificate that claims something else than the result it comes with."""
    if certificate.claim == "infeasible" and status is not Status.INFEASIBLE:
        raise ValueError(f"a certificate of infeasibility on {with_article(status)} result")
    if certificate.claim == "lower-bound" and (status is Status.INFEASIBLE or certificate.bound != bound):
        raise ValueError(f"a certificate of lower bound {certificate.bound} on {with_article(status)} result "
                         f"with bound {bound}")


#: What a time limit counts: elapsed real time, or CPU time (see `Deadline`).
Clock = Literal["wall", "cpu"]


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process, all its threads, and the child
    processes it has waited for (a planner's, once it ended)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


class LimitReached(Exception):
    """Raised by `Deadline.check` in a long phase of a formulation (a bound's set-up, a
    contraction, a model's construction) once a limit is reached; `Solver.solve` turns it into
    a `timeout` answer naming `phase`, and the search engine into a timeout with its bound."""

    def __init__(self, limit: str, phase: str) -> None:
        super().__init__(f"{limit} reached {phase}")
        self.limit = limit  # "time limit" or "work limit" (`Deadline.limit_reached`)
        self.phase = phase


class Deadline:
    """A limit of `seconds` on `clock` and of `work` units; `None` means no such limit.

    ``"wall"`` counts elapsed real time.  ``"cpu"`` counts `cpu_seconds`, so the same
    run gets the same work done on a busy machine as on an idle one.

    A work limit does not depend on the machine at all: the formulations count the work
    they do where they check the deadline (one unit per state a search expands, CP-SAT's
    deterministic time converted by `crosscheck.solvers.engines.cpsat.WORK_PER_DETERMINISTIC_SECOND`),
    so a run with a work limit stops at the same point on any machine.  A run stops at
    its first check at or past the limit, so it may do up to one check's worth more.
    A formulation that cannot count its work (an external program) honours only seconds.
    """

    def __init__(self, seconds: float | None, clock: Clock = "wall", work: int | None = None) -> None:
        self.seconds = seconds
        self.clock = clock
        self.work = work
        self.spent = 0  # work units counted so far
        self._now: Callable[[], float] = time.monotonic if clock == "wall" else cpu_seconds
        self._end = None if seconds is None else self._now() + seconds

    def expired(self, work: int = 0) -> bool:
        """Whether a limit is reached, once `work` more units (done since the last call) are counted."""
        self.spent += work
        if self.work is not None and self.spent >= self.work:
            return True
        return self._end is not None and self._now() >= self._end

    def check(self, phase: str) -> None:
        """Raise `LimitReached` naming `phase` (``"building the model"``) once a limit is
        reached; for the long phases of a formulation that are no search, called often
        enough that the run stops near its limit (it counts no work: a work limit counts
        a search's expanded states, met here only once the search spent it)."""
        if self.expired():
            raise LimitReached(self.limit_reached(), phase)

    def remaining(self) -> float | None:
        """Seconds of the clock left (never negative), or `None` without a limit."""
        return None if self._end is None else max(0.0, self._end - self._now())

    def work_left(self) -> int | None:
        """Work units left (never negative), or `None` without a work limit."""
        return None if self.work is None else max(0, self.work - self.spent)

    def limit_reached(self) -> str:
        """Which limit a run that stopped met, for its message: "work limit" or "time limit"."""
        return "work limit" if self.work is not None and self.spent >= self.work else "time limit"

    def child_timeout(self) -> float | None:
        """How long to wait for a child process (a planner, an external program) in wall
        seconds: the seconds left on a wall clock; no limit on a CPU clock, where
        `child_limits` caps the child and the harness's wall cap catches one that waits."""
        return self.remaining() if self.clock == "wall" else None

    def child_limits(self) -> Callable[[], None] | None:
        """For ``subprocess.Popen(preexec_fn=...)``: the limits of a program a solver starts.
        On a CPU clock, caps the child's CPU time at the seconds left, rounded up (the kernel
        then ends it with SIGXCPU, see `ended_by_cpu_limit`); under a memory limit
        (`cap_address_space`), caps the program's address space at the run's allowance.
        None when neither applies."""
        remaining = self.remaining()
        seconds = None if remaining is None or self.clock == "wall" else max(1, math.ceil(remaining))
        allowance = _program_address_space
        if seconds is None and allowance is None:
            return None

        def limit() -> None:
            if seconds is not None:
                resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
            if allowance is not None:  # last: below what the forked child has mapped, nothing more maps until exec
                resource.setrlimit(resource.RLIMIT_AS, (allowance, allowance))
        return limit


#: The address space in bytes each program this process starts may map (`cap_address_space`);
#: None without a memory limit.
_program_address_space: int | None = None


def cap_address_space(allowance: int) -> int:
    """Let this process map at most `allowance` bytes of address space beyond what it has
    mapped now, and every program it starts later (`Deadline.child_limits`) `allowance`
    bytes in all; returns the cap set on this process (RLIMIT_AS, soft and hard).

    What the process inherited when it was forked (the libraries and mappings of its parent,
    a few hundred MB or more once numba has loaded LLVM) thus never counts against the
    allowance, so a run's limit means the same whatever else its parent loaded.  A program
    starts with an empty address space at exec, so its cap is the allowance itself.  The
    cap never exceeds the hard limit the process already had; where ``/proc`` is missing
    (not Linux) the mapped size counts as 0.
    """
    global _program_address_space
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = mapped_bytes() + allowance
    if hard != resource.RLIM_INFINITY:
        cap, allowance = min(cap, hard), min(allowance, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    _program_address_space = allowance
    return cap


def mapped_bytes() -> int:
    """The address space this process has mapped (``VmSize``), in bytes; 0 where ``/proc`` is missing."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[0])
    except OSError:
        return 0
    return pages * resource.getpagesize()


def broken_rules(error: ValidationError) -> str:
    """The rules a `Result` that failed validation broke, in one line: the validator's own
    words (``an optimal result needs a cost and a plan``), a field's name before a type error
    (``cost: Input should be a valid integer``), joined by ``; ``."""
    rules = []
    for problem in error.errors():
        words = str(problem["msg"]).removeprefix("Value error, ")
        where = ".".join(str(part) for part in problem["loc"])
        rules.append(f"{where}: {words}" if where else words)
    return "; ".join(rules)


def ended_by_cpu_limit(returncode: int | None) -> bool:
    """Whether a child process was ended by the kernel at its CPU-time limit."""
    return returncode == -signal.SIGXCPU


def how_ended(returncode: int) -> str:
    """How a child process that failed ended, in words: ``exited with status 2``, or
    ``killed by signal 9 (SIGKILL)`` for a negative `returncode` (``killed by signal 77``
    for a signal with no name here)."""
    if returncode >= 0:
        return f"exited with status {returncode}"
    try:
        return f"killed by signal {-returncode} ({signal.Signals(-returncode).name})"
    except ValueError:  # a number no signal of this platform has
        return f"killed by signal {-returncode}"


@dataclass
class Answer:
    """What a solver's `_solve` returns; `Solver.solve` adds names and timing."""

    status: Status
    cost: int | None = None
    bound: int | None = None
    plan: list[Any] | None = None
    stats: Stats = field(default_factory=dict)
    message: str = ""
    certificate: Certificate | None = None  # what proves the answer, for the harness to check


def plan_only(answer: Answer, settings: tuple[str, ...]) -> Answer:
    """The answer of a configuration whose `settings` give up optimality, read for what it
    is: a plan is an upper bound (``feasible``), never an optimum; no bound is proven; and
    running out of moves proves no infeasibility (``timeout``, a run that found no plan).
    Failures (error, memout, unsupported) stay as they are; what the formulation said is
    kept in the stats as ``claimed``."""
    if answer.status not in (Status.OPTIMAL, Status.FEASIBLE, Status.INFEASIBLE, Status.TIMEOUT):
        return answer
    why = f"gives up optimality ({', '.join(settings)}): answers are checked plans only"
    stats = {**answer.stats, "claimed": answer.status.value}
    if answer.plan is not None and answer.cost is not None:
        return Answer(Status.FEASIBLE, cost=answer.cost, plan=answer.plan, stats=stats,
                      message="; ".join(filter(None, (answer.message, why))))
    return Answer(Status.TIMEOUT, stats=stats,
                  message="; ".join(filter(None, (answer.message, f"no plan found; {why}"))))


class Solver(ABC):
    """A formulation of one puzzle.

    Subclasses set `name`, `puzzle` (a `crosscheck.models.registry` puzzle name) and `summary`,
    and implement `_solve`.  `solve` never raises for solver failures: exceptions
    become `error` results with their message, and so does an `Answer` that breaks the
    `Result` invariants (the message names the formulation and the rule it broke).

    A formulation with design choices declares them as `Options` (`crosscheck.solvers.configuration`);
    `configured` gives the formulation with some set, whose `_solve` reads them from
    `options` and whose results carry its `label` as the solver's name.
    """

    name: ClassVar[str]
    puzzle: ClassVar[str]
    summary: ClassVar[str]
    #: True when a run solves with CP-SAT, whose worker threads (`crosscheck.solvers.engines.cpsat.default_workers`)
    #: share the cores: the harness counts them before running several runs at a time.
    runs_cpsat: ClassVar[bool] = False
    #: False for a formulation that cannot count its work (one that runs an external
    #: program): `solve` with a work limit then answers `unsupported` instead of running
    #: without a limit it cannot honour.
    counts_work: ClassVar[bool] = True
    #: The CNF encoding of a formulation whose answers carry certificates (its refutations), which
    #: the harness calls again to rebuild the CNFs it checks the proofs against; None for the others.
    encoding: ClassVar[Encoding | None] = None
    #: The formulation's design choices (`crosscheck.solvers.configuration`); none by default.
    Options: ClassVar[type[FormulationOptions]] = FormulationOptions
    #: The sizes this formulation is known to solve within a minute, as the largest value of
    #: each of its puzzle's features (`crosscheck.models.puzzle.Puzzle.features`, e.g.
    #: ``{"cells": 300}``), measured (docs/results.md); empty: no size it is known not to reach.
    #: `reaches` reads it; the default run of ``compare`` leaves bigger instances out, saying so.
    reach: ClassVar[Mapping[str, int]] = {}
    #: False when `warm_up` only loads a faster engine whose loading costs more than a run
    #: gains (a numba kernel: about 0.4 CPU seconds to load from its cache): done for the
    #: many runs of ``compare`` and ``hunt``, not before the few runs of ``solve``, whose runs
    #: then search without it (by the same rules).
    warm_up_pays_alone: ClassVar[bool] = True

    @property
    def options(self) -> FormulationOptions:
        """The options this solver runs with: those it was `configured` with, else the defaults."""
        given = self.__dict__.get("_options")
        return given if given is not None else self.Options()

    def configured(self, options: FormulationOptions) -> Solver:
        """This formulation with `options` (an instance of its `Options`): a copy, this one unchanged."""
        if type(options) is not self.Options:
            raise TypeError(f"{self.name} takes options of {self.Options.__name__}, not {type(options).__name__}")
        configured = copy.copy(self)
        configured.__dict__["_options"] = options
        return configured

    @property
    def label(self) -> str:
        """The configuration's name (`crosscheck.solvers.configuration.label`): the formulation's
        name for its default options, ``keys-graph[bound=none]`` otherwise."""
        return label(self.name, self.options)

    @property
    def gives_up_optimality(self) -> tuple[str, ...]:
        """The settings of `options` that give up optimality (``weight=2``); empty when every
        answer is a proof of the formulation."""
        return gives_up_optimality(self.options)

    @property
    def shares(self) -> frozenset[str]:
        """The answer-deciding code (qualified names) this formulation runs that another
        registered formulation of its puzzle runs too, computed from the code
        (`crosscheck.harness.independence.sharing`; the trusted base is left out).  Two formulations
        sharing any can be wrong together: their agreement is one piece of evidence."""
        from crosscheck.harness.independence.sharing import shares

        return shares(self)

    @classmethod
    def warm_up(cls) -> None:
        """Do once what every run would otherwise redo (compile code, load a cache).

        Called in the process the runs of `compare`, `hunt` and `solve` are forked from, before any
        run starts, so the runs inherit the result.  It must not depend on an instance and
        may be skipped.  The default imports OR-Tools' CP-SAT for a formulation that
        `runs_cpsat` (`crosscheck.solvers.engines.cpsat.import_now`: work each run would otherwise
        spend before building its model), else does nothing; an
        override of such a formulation calls it through ``super().warm_up()``."""
        if cls.runs_cpsat:
            from crosscheck.solvers.engines.cpsat import import_now  # imports base: here, not at the top

            import_now()

    def reaches(self, features: Mapping[str, int]) -> str | None:
        """Why an instance of these `features` lies beyond the sizes this formulation is known
        to solve within a minute (``cells 806 > 300``: each feature past its `reach`), or None
        where it may solve it.  A formulation may override it with a finer rule."""
        beyond = [f"{name} {features[name]} > {largest}" for name, largest in self.reach.items()
                  if features.get(name, 0) > largest]
        return ", ".join(beyond) or None

    def unavailable(self) -> str | None:
        """Why this solver cannot run on this machine (a missing optional extra), or `None`.

        Runs that name an unavailable solver still happen and answer `unsupported`;
        only the default choice of solvers leaves it out.
        """
        return None

    def solve(self, instance: Any, time_limit: float | None = None, clock: Clock = "wall",
              work_limit: int | None = None) -> Result:
        """Solve `instance` within `time_limit` seconds of `clock` and `work_limit` units of
        work (see `Deadline`; both cooperatively enforced).  With a work limit the result's
        stats carry ``work`` (the units counted) and ``work_limit``.  A formulation that does
        not count its work (`counts_work`) answers `unsupported` to a work limit."""
        if work_limit is not None and not self.counts_work:
            return Result(solver=self.label, instance=instance.name, status=Status.UNSUPPORTED,
                          message=f"{self.name} cannot count its work: give it a time limit, not a work limit")
        deadline = Deadline(time_limit, clock, work_limit)
        start = time.perf_counter()
        try:
            answer = self._solve(instance, deadline)
        except LimitReached as stop:  # a long phase met the deadline: an honest timeout
            answer = Answer(Status.TIMEOUT, message=str(stop))
        except MemoryError:
            raise  # the harness records it as `memout`
        except Exception as error:  # a crashing solver is a result, not a crash of the run
            answer = Answer(
                Status.ERROR,
                message=f"{type(error).__name__}: {error}",
                stats={"traceback": traceback.format_exc(limit=5)},
            )
        if self.gives_up_optimality:
            answer = plan_only(answer, self.gives_up_optimality)
        stats = answer.stats
        if work_limit is not None:
            stats = {**stats, "work": deadline.spent, "work_limit": work_limit}
        seconds = time.perf_counter() - start
        try:
            return Result(solver=self.label, instance=instance.name, status=answer.status, cost=answer.cost,
                          bound=answer.bound, plan=answer.plan, seconds=seconds, stats=stats, message=answer.message,
                          certificate=answer.certificate)
        except ValidationError as error:  # the formulation broke the contract: its answer is an error, said plainly
            return Result(solver=self.label, instance=instance.name, status=Status.ERROR, seconds=seconds,
                          message=f"{self.label} returned an inconsistent answer: {broken_rules(error)}")

    @abstractmethod
    def _solve(self, instance: Any, deadline: Deadline) -> Answer:
        """Solve `instance`, checking `deadline` often enough to stop near it."""

"""Running Fast Downward (from the ``up-fast-downward`` wheel) on a PDDL task.

The two components are called directly, as Fast Downward's own driver does, so that
each is a plain child process of the solver: it inherits the harness's process group
and memory limit, and on the deadline it is killed outright (a killed driver would
leave its search process behind).

1. the translator: ``python -m fast_downward.translate domain.pddl problem.pddl``
   (with the wheel's ``bin`` folder first on ``PYTHONPATH``) writes ``output.sas``;
2. the search: ``downward --search "astar(blind())" < output.sas`` writes ``sas_plan``
   (the heuristic is the formulation's option, `HEURISTICS`).

A* with an admissible heuristic returns optimal plans for tasks with action costs.  Exit
codes follow https://www.fast-downward.org/latest/documentation/exit-codes/.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from crosscheck.solvers.base import Deadline, ended_by_cpu_limit
from crosscheck.solvers.engines.pddl import GroundAction

from crosscheck.extras import missing_extra

if TYPE_CHECKING:
    from crosscheck.solvers.engines.fd import Heuristic

#: A*'s admissible heuristics by name (`crosscheck.solvers.engines.fd.Heuristic`): none
#: (blind), LM-cut, and pattern databases found by iPDB's hill climbing.  Each keeps the
#: search optimal.
HEURISTICS: dict[Heuristic, str] = {"blind": "blind()", "lmcut": "lmcut()", "ipdb": "ipdb()"}
#: The line of a search log that gives the heuristic's value of the initial state.
INITIAL_H = r"Initial heuristic value for \w+: (\d+)"

#: Exit codes of the translator and the search (Fast Downward's returncodes.py).
SOLVED = 0
UNSOLVABLE = {10, 11}  # translate proved it unsolvable / search exhausted the state space
OUT_OF_MEMORY = {20, 22}
OUT_OF_TIME = {21, 23}


class Outcome(Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    TIMEOUT = "timeout"
    OUT_OF_MEMORY = "out of memory"


@dataclass
class Run:
    """What one planner run established.

    `plan` and `cost` are set when `outcome` is SOLVED; `bound` is the largest f-value
    A* reached (a proven lower bound on the optimum) or the initial heuristic value.
    """

    outcome: Outcome
    plan: list[GroundAction] | None = None
    cost: int | None = None
    bound: int | None = None
    stats: dict[str, int | float | str] = field(default_factory=dict)


class PlannerMissing(RuntimeError):
    """The ``planners`` extra (up-fast-downward) is not installed."""


def binaries() -> Path:
    """The folder holding the ``downward`` search binary and the translator package."""
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or spec.origin is None:
        raise PlannerMissing(missing_extra("Fast Downward", "planners", "up-fast-downward not installed"))
    folder = Path(spec.origin).parent / "downward" / "builds" / "release" / "bin"
    if not (folder / "downward").exists():
        raise PlannerMissing(f"up-fast-downward is installed but has no search binary in {folder}")
    return folder


def version() -> str:
    return f"up-fast-downward {importlib.metadata.version('up-fast-downward')}"


def search(heuristic: Heuristic) -> str:
    """Fast Downward's search of A* with `heuristic` (a name of `HEURISTICS`)."""
    return f"astar({HEURISTICS[heuristic]})"


def solve(domain: str, problem: str, deadline: Deadline, translate_options: Sequence[str] = (),
          heuristic: Heuristic = "blind") -> Run:
    """Translate (with `translate_options`) and search `domain`/`problem` optimally before
    `deadline`, by A* with `heuristic` (a name of `HEURISTICS`)."""
    folder = binaries()
    stats: dict[str, int | float | str] = {"planner": version(), "search": search(heuristic)}
    with tempfile.TemporaryDirectory(prefix="crosscheck-fd-") as work:
        path = Path(work)
        (path / "domain.pddl").write_text(domain, encoding="utf-8")
        (path / "problem.pddl").write_text(problem, encoding="utf-8")
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(folder), *filter(None, [os.environ.get("PYTHONPATH")])])}
        code, log = _call([sys.executable, "-m", "fast_downward.translate", "domain.pddl", "problem.pddl",
                           "--sas-file", "output.sas", *translate_options], path, deadline, environment)
        stats.update(_numbers(log, TRANSLATE_STATS))
        if code == SOLVED:
            with open(path / "output.sas", "rb") as task:
                command = [str(folder / "downward"), "--search", search(heuristic), "--internal-plan-file", "sas_plan"]
                code, log = _call(command, path, deadline, stdin=task)
            bound, effort = _progress(log)
            stats.update({**effort, **_numbers(log, SEARCH_STATS)})
        else:
            bound = None
        if code == SOLVED:
            plan, cost = _read_plan(path / "sas_plan")
            return Run(Outcome.SOLVED, plan, cost, cost, stats)
    if code in UNSOLVABLE:
        return Run(Outcome.UNSOLVABLE, stats=stats)
    if code is None or code in OUT_OF_TIME:
        return Run(Outcome.TIMEOUT, bound=bound, stats=stats)
    if code in OUT_OF_MEMORY:
        return Run(Outcome.OUT_OF_MEMORY, bound=bound, stats=stats)
    raise RuntimeError(f"Fast Downward failed with exit code {code}:\n{log[-2000:]}")


def _call(command: list[str], cwd: Path, deadline: Deadline, environment: dict[str, str] | None = None,
          stdin: BinaryIO | None = None) -> tuple[int | None, str]:
    """Run `command` until it ends or the deadline passes (then kill it: exit code None;
    on a CPU clock the kernel ends it at the CPU seconds left, also exit code None).

    Output goes to a file rather than a pipe, so a chatty planner never blocks and the
    log written before a kill can still be read.
    """
    with open(cwd / "log.txt", "w+", encoding="utf-8", errors="replace") as log:
        process = subprocess.Popen(command, cwd=cwd, env=environment, stdin=stdin, stdout=log,
                                   stderr=subprocess.STDOUT, preexec_fn=deadline.child_limits())
        try:
            code: int | None = process.wait(timeout=deadline.child_timeout())
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            code = None
        if ended_by_cpu_limit(code):
            code = None
        log.seek(0)
        return code, log.read()


TRANSLATE_STATS = {
    "translator_variables": r"Translator variables: (\d+)",
    "translator_operators": r"Translator operators: (\d+)",
}
SEARCH_STATS = {
    "expanded": r"Expanded (\d+) state\(s\)\.",
    "generated": r"Generated (\d+) state\(s\)\.",
    "evaluated": r"Evaluated (\d+) state\(s\)\.",
    "search_seconds": r"Search time: ([\d.]+)s",
    "initial_h": INITIAL_H,
}


def _numbers(log: str, patterns: dict[str, str]) -> dict[str, int | float]:
    """The first match of each pattern (Fast Downward prints totals before per-layer counts)."""
    found: dict[str, int | float] = {}
    for name, pattern in patterns.items():
        match = re.search(pattern, log)
        if match:
            text = match.group(1)
            found[name] = float(text) if "." in text else int(text)
    return found


def _progress(log: str) -> tuple[int | None, dict[str, int]]:
    """A proven lower bound and the effort so far, from a (possibly cut off) search log.

    A* pops states in order of f = g + h with an admissible h, so every f-value it
    reports reaching is at most the optimal cost (as is the initial h-value).
    """
    layers = re.findall(r"^\[[^\]]*\] f = (\d+), (\d+) evaluated, (\d+) expanded", log, re.MULTILINE)
    values = [int(f) for f, _, _ in layers]
    values += [int(value) for value in re.findall(INITIAL_H, log)]
    effort = {"evaluated": int(layers[-1][1]), "expanded": int(layers[-1][2])} if layers else {}
    return (max(values) if values else None), effort


def _read_plan(path: Path) -> tuple[list[GroundAction], int]:
    """The ground actions of a ``sas_plan`` file and the cost its last line states."""
    plan, cost = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("("):
            plan.append(tuple(line.strip("() ").split()))
        elif match := re.match(r"; cost = (\d+)", line):
            cost = int(match.group(1))
    if cost is None:
        raise RuntimeError(f"no cost line in the plan file {path}")
    return plan, cost

"""Misbehaving solvers (mostly of the key vault), registered through CROSSCHECK_SOLVERS in harness tests.

They exercise the harness's isolation and verdicts; none of them is a formulation.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

from crosscheck.models.amphipods.model import AmphipodMove, Burrow
from crosscheck.models.keys.model import DIRECTIONS, Cell, KeyMove, Vault
from crosscheck.solvers.base import Answer, Deadline, Solver, Status
from crosscheck.solvers.engines.search import SearchProblem, Strategy, best_first_search

#: How long `Napper` naps.
NAP_SECONDS = 1.5


def grandchild_pidfile(instance: str) -> str:
    """Where `Sleeper` leaves the pid of the process it forked."""
    return os.path.join(tempfile.gettempdir(), f"crosscheck-{instance}.grandchild.pid")


class Sleeper(Solver):
    """Ignores its deadline and sleeps, with a grandchild process sleeping too."""

    name, puzzle, summary = "test-sleeper", "keys", "sleeps past any limit"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        pid = os.fork()
        if pid == 0:
            time.sleep(600)
            os._exit(0)
        with open(grandchild_pidfile(instance.name), "w") as handle:
            handle.write(str(pid))
        time.sleep(600)
        return Answer(Status.TIMEOUT)


class Napper(Solver):
    """Naps for `NAP_SECONDS` (spending no CPU time) unless its deadline passes first, and
    says which came first; never answers the puzzle."""

    name, puzzle, summary = "test-napper", "keys", "naps, watching its deadline"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        woken = time.monotonic() + NAP_SECONDS
        while time.monotonic() < woken and not deadline.expired():
            time.sleep(0.02)
        return Answer(Status.TIMEOUT, message="deadline passed" if deadline.expired() else "napped in full")


class Spinner(Solver):
    """Spends CPU time without ever looking at its deadline."""

    name, puzzle, summary = "test-spinner", "keys", "spins past any limit"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        while True:
            pass


class Crasher(Solver):
    """Exits the process abruptly, as a segfaulting extension would."""

    name, puzzle, summary = "test-crasher", "keys", "dies without a word"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        os._exit(7)


class Raiser(Solver):
    """Raises an exception, as a solver with a bug would."""

    name, puzzle, summary = "test-raiser", "keys", "raises an exception"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        raise RuntimeError("a bug in the formulation")


class Terminated(Solver):
    """Is killed by a signal (SIGTERM) in the middle of its run."""

    name, puzzle, summary = "test-terminated", "keys", "killed by a signal"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(60)
        return Answer(Status.TIMEOUT)


class Hog(Solver):
    """Allocates memory until stopped."""

    name, puzzle, summary = "test-hog", "keys", "allocates without bound"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        blocks = []
        while True:
            blocks.append(bytearray(64 * 1024 * 1024))


class Nibbler(Solver):
    """Fills memory in small bites until refused, leaving no room to spare while its frames live."""

    name, puzzle, summary = "test-nibbler", "keys", "allocates small blocks without bound"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        bites = []
        while True:
            bites.append([0] * 64)


class Mapper(Solver):
    """Maps 4 GB of address space at once, as a solver loading a large shared library does:
    under a smaller memory limit the kernel refuses it (OSError, not MemoryError).  Its
    module is imported here, in the run, under the limit: loading ``mmap``'s own shared
    library must still be granted, whatever the server the run was forked from had mapped."""

    name, puzzle, summary = "test-mapper", "keys", "maps 4 GB of address space"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        import mmap

        with mmap.mmap(-1, 4 << 30):
            return Answer(Status.TIMEOUT, message="mapped 4 GB: no memory limit refused it")


class Liar(Solver):
    """Claims an optimum of 1 with a one-step plan (wrong on any vault needing more)."""

    name, puzzle, summary = "test-liar", "keys", "claims optimum 1"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.OPTIMAL, cost=1, bound=1, plan=[(0, next(iter(DIRECTIONS)))])


class AmphipodLiar(Solver):
    """Claims that one legal move, the top of room A to the hallway's left end, sorts the
    burrow (wrong on any burrow that this move does not sort)."""

    name, puzzle, summary = "test-amphipod-liar", "amphipods", "claims a one-move optimum"

    def _solve(self, instance: Burrow, deadline: Deadline) -> Answer:
        return Answer(Status.OPTIMAL, cost=30, bound=30, plan=[AmphipodMove("A1", "H1")])


#: A `_Cells` state: (robot cells, keys held).
_CellsState = tuple[tuple[Cell, ...], frozenset[str]]


class _Cells(SearchProblem[_CellsState, KeyMove]):
    """Plain BFS states: (robot cells, keys held)."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault

    def initial(self) -> _CellsState:
        return (self.vault.robots, frozenset())

    def is_goal(self, state: _CellsState) -> bool:
        return len(state[1]) == len(self.vault.keys)

    def successors(self, state: _CellsState) -> Iterator[tuple[KeyMove, _CellsState, int]]:
        cells, held = state
        for robot, cell in enumerate(cells):
            for direction, target in self.vault.open_neighbours(cell):
                char = self.vault.at(target)
                if char.isupper() and char.lower() not in held:
                    continue
                moved = cells[:robot] + (target,) + cells[robot + 1:]
                yield KeyMove(robot, direction), (moved, held | {char} if char.islower() else held), 1


class Plain(Solver):
    """A tiny honest BFS, so harness tests have a proven optimum to judge claims by."""

    name, puzzle, summary = "test-plain", "keys", "breadth-first over cells (tests only)"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return best_first_search(_Cells(instance), Strategy.BFS, deadline).answer()


#: How long `Overrunner`'s slow phase takes, never looking at its deadline.
OVERRUN_SECONDS = 1.0


class Overrunner(Solver):
    """An honest search behind a slow set-up phase that never looks at its deadline (as a
    bound's set-up that does not check it would): it answers, proven optimal, after its limit."""

    name, puzzle, summary = "test-overrunner", "keys", "a slow phase past its limit, then a proof (tests only)"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        time.sleep(OVERRUN_SECONDS)
        return best_first_search(_Cells(instance), Strategy.BFS, Deadline(None)).answer()


class Absent(Solver):
    """A solver whose optional dependency is missing on this machine."""

    name, puzzle, summary = "test-absent", "keys", "needs an extra that is not installed (tests only)"

    def unavailable(self) -> str | None:
        return "the test-absent extra is not installed"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.UNSUPPORTED, message=str(self.unavailable()))


#: What `Spawner`'s child process does: hold 200 MB and spend 0.5 s of CPU, then exit.
SPAWNED_MB, SPAWNED_CPU = 200, 0.5
_SPAWNED = (f"import time; block = bytearray({SPAWNED_MB} * 2**20)\n"
            f"while time.process_time() < {SPAWNED_CPU}: pass")


class Spawner(Solver):
    """Runs a child process, as Fast Downward does, so tests see its usage counted in the run's."""

    name, puzzle, summary = "test-spawner", "keys", "waits for a busy child process (tests only)"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        subprocess.run([sys.executable, "-c", _SPAWNED], check=True)
        return Answer(Status.TIMEOUT, message="spawned a child")


#: What `Holder` writes to, in its own process, before it answers.
HELD_MB = 64


class Holder(Solver):
    """Writes to every page of `HELD_MB` in its own process, so tests see its resident peak
    rise that far above the memory the run started with."""

    name, puzzle, summary = "test-holder", "keys", "holds 64 MB of its own (tests only)"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        block = bytearray(HELD_MB << 20)
        block[::4096] = b"x" * len(range(0, len(block), 4096))  # written to: resident, not just mapped
        return Answer(Status.TIMEOUT, message=f"held {len(block) >> 20} MB")


class Affinity(Solver):
    """Reports the cores its process may run on, so tests see `--pin-cores` take effect."""

    name, puzzle, summary = "test-affinity", "keys", "reports its CPU affinity (tests only)"

    def _solve(self, instance: Vault, deadline: Deadline) -> Answer:
        return Answer(Status.TIMEOUT, stats={"cores": ",".join(map(str, sorted(os.sched_getaffinity(0))))})


SOLVERS: list[type[Solver]] = [Sleeper, Napper, Spinner, Crasher, Raiser, Terminated, Hog, Nibbler, Mapper, Liar,
                               AmphipodLiar, Plain, Overrunner, Absent, Spawner, Holder, Affinity]

"""The fault audit's relations column: does ``crosscheck morph`` notice a planted fault?

For a fault of `benchmarks.fault_catalogue`, the *faulted formulations* are those the
faulted code feeds (`fed_formulations`): the catalogue's list where it names them (the
trusted engines, CP-SAT set-up and checkers, which no footprint records), else every
formulation of the fault's puzzles whose footprint holds the function or class enclosing
the fault, or, for a module-level line or constant (``ENERGY``), any function of its module
(`crosscheck.harness.independence.sharing.footprint`: stored for a built-in formulation,
computed for a plugin's).  `run_morph` runs ``crosscheck morph`` with only those
formulations on the audit's sets, every relation of the puzzle once per instance
(`MORPH_OPTIONS`, seeded), and `judge_morph` reads what it wrote: the relations *catch*
the fault when a pair is a ``morph-mismatch`` or a related instance (one ``compare`` never
ran) gets a failing verdict.  A failing verdict on an original instance is left out: the
cross-check, which runs every formulation on those, sees it too.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from crosscheck.harness.independence.sharing import footprint
from crosscheck.harness.judging.verdicts import FAILURES, Verdict, judge_all
from crosscheck.harness.records.record import read_records
from crosscheck.models.registry import relations
from crosscheck.solvers.registry import get_solver, solvers_for

from benchmarks.fault_catalogue import Fault

MORPH_OPTIONS = ["--count", "1", "--seed", "1", "--time-limit", "10", "--clock", "cpu", "--jobs", "1"]
#: The prefix ``morph`` gives the records of related instances.
RELATED = "related/"


def fed_formulations(fault: Fault, enclosing: str,
                     footprints: Mapping[str, frozenset[str]] | None = None) -> tuple[str, ...]:
    """The formulations the faulted code feeds (module docstring), in `footprints`' order;
    `enclosing` is the qualified name holding the fault (`benchmarks.fault_audit.enclosing`).
    `ValueError` when there are none: the fault could not be tested by the relations."""
    if fault.formulations:
        return fault.formulations
    module, _, last = enclosing.rpartition(".")
    held = module if last.isupper() else enclosing  # a constant feeds whoever runs its module's code
    fed = tuple(name for name, names in (footprints or puzzle_footprints(fault.puzzles)).items()
                if any(n == held or n.startswith(held + ".") for n in names))
    if not fed:
        raise ValueError(f"{fault.name}: no formulation's footprint holds {enclosing}; name them in the catalogue")
    return fed


def puzzle_footprints(puzzles: Iterable[str]) -> dict[str, frozenset[str]]:
    """The footprint of every formulation of `puzzles`, by name, built-in or plugin."""
    return {solver.name: footprint(solver) for puzzle in puzzles for solver in solvers_for(puzzle)}


@dataclass(frozen=True)
class Relations:
    """What ``morph`` reported under a fault, with only the faulted formulations."""

    pairs: int  # (instance, related instance, formulation) pairs judged
    mismatches: Counter[str]  # morph-mismatch pairs by relation
    related_failures: Counter[str]  # failing verdicts of related instances, by verdict
    unverified: int  # pairs without an exact answer on one side

    @property
    def caught(self) -> bool:
        return bool(self.mismatches) or bool(self.related_failures)

    def summary(self) -> str:
        parts = ([f"mismatch {sum(self.mismatches.values())} ({', '.join(sorted(self.mismatches))})"]
                 if self.mismatches else [])
        parts += [f"related {name} {count}" for name, count in sorted(self.related_failures.items())]
        if parts:
            return "caught: " + ", ".join(parts)
        if not self.pairs:
            return "no pair judged"  # morph ran nothing, or could not start: see its log
        return f"{self.pairs - self.unverified} of {self.pairs} pairs agree"


def judge_morph(pairs: Iterable[Mapping[str, object]], verdicts: Iterable[tuple[str, Verdict]]) -> Relations:
    """Judge ``morph``'s pair verdicts (the lines of ``morph-verdicts.jsonl``) and the
    verdicts of its instances ((instance name, verdict), related ones named `RELATED`...)."""
    mismatches: Counter[str] = Counter()
    count = unverified = 0
    for pair in pairs:
        count += 1
        if pair["verdict"] == Verdict.MORPH_MISMATCH.value:
            mismatches[str(pair["relation"])] += 1
        unverified += pair["verdict"] == Verdict.UNVERIFIED.value
    failures = Counter(verdict.value for instance, verdict in verdicts
                       if instance.startswith(RELATED) and verdict in FAILURES)
    return Relations(count, mismatches, failures, unverified)


def read_morph(out: Path) -> Relations:
    """Judge the morph runs kept in `out` (see `run_morph`); a run that wrote nothing counts none."""
    pairs_file, records_file = out / "morph-verdicts.jsonl", out / "morph.jsonl"
    pairs = ([json.loads(line) for line in pairs_file.read_text(encoding="utf-8").splitlines() if line.strip()]
             if pairs_file.exists() else [])
    records = read_records(records_file) if records_file.exists() else []
    return judge_morph(pairs, [(v.instance, v.verdict) for v in judge_all(records)])


def run_morph(fault: Fault, formulations: tuple[str, ...], sets: Mapping[str, list[Path]], out: Path,
              run: Callable[[list[str]], object]) -> Relations:
    """Run ``morph`` on each of the fault's puzzles' `sets` with the `formulations` of
    that puzzle, every relation once per instance, into `out` (emptied first; ``run``
    runs one command line in the faulted copy), and judge it."""
    if out.exists():
        for name in ("morph-verdicts.jsonl", "morph.jsonl"):
            (out / name).unlink(missing_ok=True)
    for puzzle in fault.puzzles:
        mine = [name for name in formulations if get_solver(name).puzzle == puzzle]
        if not mine:
            continue
        chosen = ",".join(sorted(relations(puzzle)))
        solvers = [option for name in mine for option in ("--solver", name)]
        run(["nice", sys.executable, "-m", "crosscheck", "morph", *map(str, sets[puzzle]), *solvers,
             "--relations", chosen, *MORPH_OPTIONS, "--out", str(out)])
    return read_morph(out)


def subprocess_runner(env: dict[str, str], cwd: Path, log: Path) -> Callable[[list[str]], object]:
    """Run a command line under `env` in `cwd`, appending the command and its output to `log`."""
    def run(command: list[str]) -> None:
        done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"$ {' '.join(command)}\n{done.stdout}{done.stderr}exit {done.returncode}\n")

    return run

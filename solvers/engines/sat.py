"""The one SAT set-up: CNF formulas, their DIMACS text and digest, and CaDiCaL 1.9.5 with
proof logging (PySAT, the optional ``certificates`` extra).

A formulation builds a `Cnf` with its encoder, and `solve` decides it: a model when it is
satisfiable; when it is not, the solver's DRUP proof (every clause it learnt, in order, then
the empty clause; ``d`` lines delete) written to a file for someone else to check.  The solver
is never asked to check its own proof: the harness does (`crosscheck.harness.runs.certify`).

Limits: CaDiCaL runs in slices of `CONFLICTS_PER_SLICE` conflicts; between slices the run's
`Deadline` is asked, counting one work unit per conflict, so a run stops within a slice of its
limit and a work limit stops it at the same conflict on any machine.

PySAT is imported when a formula is solved, so the formulations register without the extra;
`missing` says why solving cannot run here.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from crosscheck.solvers.base import Deadline, Stats
from crosscheck.solvers.certificate import Certificate

#: The SAT solver (PySAT's name) whose proofs are logged: CaDiCaL 1.9.5.
SOLVER = "cadical195"
#: Conflicts per slice of a solve between two looks at the deadline.
CONFLICTS_PER_SLICE = 20_000
#: CaDiCaL's inprocessing off: each inprocessing step is a proof line the checker derives again,
#: so proofs of formulas refuted by plain search get several times shorter (docs/results.md).
LEAN_PROOFS = {"elim": 0, "subsume": 0, "vivify": 0, "probe": 0, "ternary": 0, "decompose": 0}
#: The prefix of the temporary folders proofs are written in (the harness removes them).
PROOF_FOLDER_PREFIX = "crosscheck-certificate-"


@dataclass
class Cnf:
    """A formula in conjunctive normal form over variables 1 to `variables`.

    `clauses` are tuples of non-zero literals (DIMACS: ``-v`` is the negation of ``v``).
    Build one with `add`; `new_variable` hands out the next variable.
    """

    variables: int = 0
    clauses: list[tuple[int, ...]] = field(default_factory=list)

    def new_variable(self) -> int:
        self.variables += 1
        return self.variables

    def add(self, *literals: int) -> None:
        """Add the clause of `literals`; a literal beyond `variables` raises `ValueError`."""
        if any(literal == 0 or abs(literal) > self.variables for literal in literals):
            raise ValueError(f"clause {literals} names a variable outside 1..{self.variables}")
        self.clauses.append(literals)

    def dimacs(self) -> str:
        """The formula as DIMACS text: the ``p cnf`` header, then one clause per line."""
        lines = [f"p cnf {self.variables} {len(self.clauses)}"]
        lines += [" ".join(map(str, clause)) + " 0" for clause in self.clauses]
        return "\n".join(lines) + "\n"

    def digest(self) -> str:
        """The SHA-256 of `dimacs`: equal digests, equal formulas clause for clause."""
        return hashlib.sha256(self.dimacs().encode("ascii")).hexdigest()

    def first_falsified(self, assignment: Sequence[int]) -> int | None:
        """The index of the first clause no literal of `assignment` satisfies, or None when
        it satisfies every clause.  `assignment` holds one literal per variable (its sign
        the value); a variable it leaves out satisfies no literal."""
        true = set(assignment)
        return next((number for number, clause in enumerate(self.clauses) if true.isdisjoint(clause)), None)


def missing() -> str | None:
    """Why CNF formulas cannot be solved here (PySAT is not installed), or None."""
    try:
        import pysat.solvers  # noqa: F401 (only whether it imports)
    except ImportError as error:
        from crosscheck.extras import missing_extra

        return missing_extra("solving CNF formulas", "certificates", str(error))
    return None


@dataclass
class SatOutcome:
    """How `solve` ended: `satisfiable` True (with a `model`), False (its proof written), or
    None when the deadline came first; `conflicts` counted over every slice."""

    satisfiable: bool | None
    model: list[int] = field(default_factory=list)
    conflicts: int = 0
    proof_lines: int = 0

    def stats(self) -> Stats:
        return {"sat_solver": SOLVER, "conflicts": self.conflicts}


def solve(cnf: Cnf, deadline: Deadline, proof: Path, options: Mapping[str, int] | None = None) -> SatOutcome:
    """Decide `cnf` with CaDiCaL 1.9.5 under `deadline`; when it is unsatisfiable, write the
    solver's DRUP proof (text, one step a line) to `proof`.  `options` are CaDiCaL's own (such as
    `LEAN_PROOFS`).  A formula with no clause at all is satisfiable by any assignment (all
    variables false here)."""
    from pysat.solvers import Solver

    if not cnf.clauses:
        return SatOutcome(True, [-v for v in range(1, cnf.variables + 1)])
    with Solver(name=SOLVER, bootstrap_with=cnf.clauses, with_proof=True) as solver:
        if options:
            solver.configure(dict(options))
        outcome, conflicts = None, 0
        while outcome is None:
            solver.conf_budget(CONFLICTS_PER_SLICE)
            outcome = solver.solve_limited()
            now = int(solver.accum_stats().get("conflicts", 0))
            if outcome is None and deadline.expired(now - conflicts):
                return SatOutcome(None, conflicts=now)
            conflicts = now
        if outcome:
            return SatOutcome(True, list(solver.get_model() or []), conflicts)
        steps = solver.get_proof() or []
    write_proof(proof, steps)
    return SatOutcome(False, conflicts=conflicts, proof_lines=len(steps))


def write_proof(path: Path, steps: Iterable[str]) -> None:
    """Write proof `steps` (text lines) to `path`, one a line."""
    with open(path, "w", encoding="ascii") as handle:
        for step in steps:
            handle.write(step)
            handle.write("\n")


def proof_folder() -> Path:
    """A new temporary folder for one run's proofs (`PROOF_FOLDER_PREFIX`)."""
    return Path(tempfile.mkdtemp(prefix=PROOF_FOLDER_PREFIX))


def discard_proofs(certificate: Certificate | None) -> None:
    """Remove the temporary folders (`proof_folder`) a certificate's proofs and data were written in:
    the harness, once it has checked and kept them; any other caller of a formulation's `solve`
    that does not check them."""
    if certificate is None:
        return
    for query in certificate.queries:
        for name in (query.proof_file, query.data_file):
            folder = Path(name).parent
            if name and folder.name.startswith(PROOF_FOLDER_PREFIX):
                shutil.rmtree(folder, ignore_errors=True)

"""The one SAT set-up: CNF formulas, their DIMACS text and digest, and CaDiCaL 1.9.5 with
proof logging (PySAT, the optional ``certificates`` extra).

A formulation builds a `Cnf` with its encoder (the cardinality and weighted-sum clauses below
help), and `solve` decides it: a model when it is satisfiable; when it is not, the solver's
DRUP proof (every clause it learnt, in order, then the empty clause; ``d`` lines delete)
written to a file for someone else to check.  The solver
is never asked to check its own proof: the harness does (`crosscheck.harness.runs.certify`).

Limits: CaDiCaL runs in slices of `CONFLICTS_PER_SLICE` conflicts; between slices the run's
`Deadline` is asked, counting one work unit per conflict, so a run stops within a slice of its
limit and a work limit stops it at the same conflict on any machine.

A formulation's run refutes its queries through a `Refuter` (`refuting` sets one up and removes
its proofs when the run hands none over), which keeps the proofs and builds the certificate.

PySAT is imported when a formula is solved, so the formulations register without the extra;
`missing` says why solving cannot run here.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, TypeVar

from crosscheck.solvers.base import Answer, Deadline, Stats, Status
from crosscheck.solvers.certificate import BOUND, INVARIANT_KINDS, START, Certificate, Claim, UnsatQuery

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

    def extended(self, assignment: Sequence[int]) -> list[int]:
        """`assignment` (one literal for each of the first variables) extended to every variable:
        the others false, then each forced true by a clause whose other literals are all false and
        whose one positive literal is on it (auxiliary variables defined by upward implications,
        such as `unary_sum`'s), until none is."""
        value = {abs(literal): literal > 0 for literal in assignment}
        auxiliary = {variable for variable in range(1, self.variables + 1) if variable not in value}
        value.update(dict.fromkeys(auxiliary, False))
        changed = True
        while changed:
            changed = False
            for clause in self.clauses:
                if any(value[abs(literal)] == (literal > 0) for literal in clause):
                    continue
                forced = [literal for literal in clause if literal > 0 and literal in auxiliary]
                if len(forced) == 1:
                    value[forced[0]], changed = True, True
        return [variable if value[variable] else -variable for variable in range(1, self.variables + 1)]


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


# --- clauses many encodings need -----------------------------------------------------------------

def exactly_one(cnf: Cnf, literals: Sequence[int]) -> None:
    """Exactly one of `literals` is true (one clause for at least one, a pair clause for each two)."""
    cnf.add(*literals)
    for first, second in combinations(literals, 2):
        cnf.add(-first, -second)


def unary_sum(cnf: Cnf, numbers: Sequence[Sequence[int]], cap: int) -> list[int]:
    """A unary counter ``o`` of the sum of unary `numbers` (``number[j]`` true when that number is at
    least j + 1), counted up to `cap`: ``o[j]`` is forced true whenever the sum is at least j + 1
    (a totalizer, upward clauses only: enough to bound a sum from above).  New variables each."""
    if not numbers:
        return []
    if len(numbers) == 1:
        return list(numbers[0][:cap])
    middle = len(numbers) // 2
    left, right = unary_sum(cnf, numbers[:middle], cap), unary_sum(cnf, numbers[middle:], cap)
    total = [cnf.new_variable() for _ in range(min(cap, len(left) + len(right)))]
    for i in range(len(left) + 1):
        for j in range(len(right) + 1):
            if 0 < i + j <= len(total):
                cnf.add(*([-left[i - 1]] if i else []), *([-right[j - 1]] if j else []), total[i + j - 1])
    return total


def weighted_at_most(cnf: Cnf, terms: Sequence[tuple[int, Sequence[int]]], limit: int) -> None:
    """The sum of ``weight * value`` over `terms` (positive weights, unary values as `unary_sum`
    counts them) is at most `limit`: for every choice of values of all terms but the last, the
    least value of the last that would exceed `limit` is forbidden with them.  A negative `limit`
    adds the clauses ``1`` and ``-1`` (nothing satisfies both; no new variable, so that the
    variables are the same at every limit)."""
    if limit < 0:
        cnf.add(1)
        cnf.add(-1)
        return
    _forbid_above(cnf, list(terms), limit, ())


def _forbid_above(cnf: Cnf, terms: list[tuple[int, Sequence[int]]], room: int, taken: tuple[int, ...]) -> None:
    """`weighted_at_most` over `terms` with `room` left, the values of earlier terms (`taken`,
    literals of their unary counters) chosen."""
    if not terms:
        return
    (weight, unary), rest = terms[0], terms[1:]
    excess = room // weight  # the value `excess + 1` is the least that exceeds the room
    if excess < len(unary):
        cnf.add(*(-literal for literal in taken), -unary[excess])
    if rest:
        for value in range(min(len(unary), excess) + 1):
            _forbid_above(cnf, rest, room - value * weight, taken + ((unary[value - 1],) if value else ()))


@dataclass
class BoundOrStart:
    """A `crosscheck.solvers.certificate.Encoding` of two queries: ``bound`` at B, whose CNF is
    `encode(instance, B)` (a plan of cost at most B), and ``start``, `encode(instance, None)`
    (any plan); `to_assignment` writes a checked plan as an assignment of the bound CNF."""

    lemma: str
    encode: Callable[[Any, int | None], Cnf]
    to_assignment: Callable[[Any, Sequence[Any]], list[int]]

    def cnf(self, instance: Any, kind: str, bound: int | None, data: Any) -> Cnf:
        if kind == BOUND:
            if bound is None or bound < 0:
                raise ValueError(f"a bound query needs a bound of 0 or more, got {bound}")
            return self.encode(instance, bound)
        if kind == START:
            return self.encode(instance, None)
        raise ValueError(f"unknown query {kind!r}, expected bound or start")

    def assignment(self, instance: Any, plan: Sequence[Any]) -> list[int]:
        return self.to_assignment(instance, plan)


# --- a run's refutations -------------------------------------------------------------------------

class Refuter:
    """Solves the queries of one run, keeping each refuted one's proof under a temporary folder."""

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.folder = proof_folder()
        self.queries: list[UnsatQuery] = []
        self.model: list[int] = []
        self.conflicts = 0
        self.solved = 0
        self.data_file = ""

    def refute(self, cnf: Cnf, kind: str, bound: int | None = None, keep_one: bool = False,
               options: Mapping[str, int] | None = None) -> bool | None:
        """True when `cnf` (query `kind` at `bound`) is unsatisfiable, its proof kept (the only one
        with `keep_one`); False when satisfiable (its model kept); None when time ran out.
        `options`: CaDiCaL's own, as `solve` takes them."""
        proof = self.folder / f"{kind}-{len(self.queries) if not keep_one else 'last'}.drup"
        outcome = solve(cnf, self.deadline, proof, options)
        self.conflicts += outcome.conflicts
        self.solved += 1
        if outcome.satisfiable is None:
            return None
        if outcome.satisfiable:
            self.model = outcome.model
            return False
        query = UnsatQuery(kind=kind, bound=bound, data_file=self.data_file if kind in INVARIANT_KINDS else "",
                           digest=cnf.digest(), proof_file=str(proof), variables=cnf.variables,
                           clauses=len(cnf.clauses), proof_lines=outcome.proof_lines)
        self.queries = [query] if keep_one else [*self.queries, query]
        return True

    def save_data(self, data: Any) -> None:
        """Write the side data of the invariant queries to come (JSON) as their data file."""
        path = self.folder / "invariant.json"
        path.write_text(json.dumps(data), encoding="ascii")
        self.data_file = str(path)

    def forget(self) -> None:
        """Drop the refutations so far (an invariant that was not one)."""
        self.queries, self.data_file = [], ""

    def certificate(self, claim: Claim, bound: int | None = None) -> Certificate:
        return Certificate(claim=claim, bound=bound, queries=self.queries if claim == "infeasible" or bound else [])

    def stats(self) -> Stats:
        return {"sat_solver": SOLVER, "conflicts": self.conflicts, "cnf_solved": self.solved}

    def infeasible(self, why: str) -> Answer:
        return Answer(Status.INFEASIBLE, stats=self.stats(), message=why, certificate=self.certificate("infeasible"))

    def timeout(self, bound: int) -> Answer:
        return Answer(Status.TIMEOUT, bound=bound, stats=self.stats(), message=self.deadline.limit_reached(),
                      certificate=self.certificate("lower-bound", bound) if bound else None)


#: A refuter of the engine's, or of a formulation's own that extends it.
R = TypeVar("R", bound=Refuter)


def refuting(refuter: R, answer: Callable[[R], Answer]) -> Answer:
    """`answer` of `refuter` (new, of this run); its proofs removed unless the answer's
    certificate hands them over (the harness removes those once checked)."""
    missing_here = missing()
    if missing_here is not None:
        shutil.rmtree(refuter.folder, ignore_errors=True)
        return Answer(Status.UNSUPPORTED, message=missing_here)
    try:
        found = answer(refuter)
    except BaseException:
        shutil.rmtree(refuter.folder, ignore_errors=True)
        raise
    if found.certificate is None or not found.certificate.queries:  # no proof handed over: none kept
        shutil.rmtree(refuter.folder, ignore_errors=True)
    return found

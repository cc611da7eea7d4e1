"""What a formulation hands over so that someone else can check its proof: a `Certificate`.

A formulation that decides an answer by refuting CNF formulas (`crosscheck.solvers.engines.sat`)
attaches to its answer what the refutations were: for each, the `UnsatQuery` naming which CNF
of its encoding it refuted (`kind`, `bound` and any side data the encoder needs, such as an
invariant's states), the CNF's digest and the file holding the solver's DRUP proof.  The
formulation never checks the proof: the harness rebuilds each CNF from the instance with the
formulation's `Encoding`, compares the digests, runs a proof checker, and only then counts the
answer's lower bound (or infeasibility) as certified (`crosscheck.harness.runs.certify`).

What a certificate claims:

- ``lower-bound``: no plan costs less than `Certificate.bound` (the bound query's CNF says "a plan
  of cost at most ``bound - 1`` exists", or the three invariant queries at ``bound - 1`` say a set
  of states holds every such plan and no goal; a bound of 0 needs no query);
- ``infeasible``: no plan exists (the queries are the encoding's argument for it: an unsafe
  start, or an inductive invariant that holds the start, is closed under every move and holds
  no goal).

Which CNF a query names, and why its refutation proves the claim, is the encoding's argument
(`Encoding.lemma`), tested where it can be: every checked plan of any formulation, written as
an assignment (`Encoding.assignment`), must satisfy the encoding's CNF at the plan's cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

#: What a certificate claims (module doc).
Claim = Literal["lower-bound", "infeasible"]

#: The kinds of query every encoding speaks, by what refuting them proves.  ``bound`` at B: no
#: plan of cost at most B.  ``start``: the start breaks the rules, no plan at all.  The three
#: invariant kinds, refuted over one set of states (their common data): the start is in the set,
#: no move leads out of it, no goal is in it, so no plan at all; or, all three at B (an encoding
#: that has them), no plan of cost at most B (the set holds the states of every such plan's start:
#: no move of such a plan leads out of it, no goal is in it).
BOUND, START = "bound", "start"
INVARIANT_KINDS = ("invariant-start", "invariant-step", "invariant-goal")


def unproven(claim: Claim, bound: int | None, queries: Sequence[UnsatQuery]) -> str:
    """Why refuting `queries` would not prove `claim` (at `bound`) by the kinds' meanings above,
    or '' when it would."""
    if claim == "lower-bound":
        if bound is None or bound < 0:
            return f"a lower-bound claim needs a bound of 0 or more, got {bound}"
        if bound == 0 or any(query.kind == BOUND and query.bound == bound - 1 for query in queries):
            return ""
        if _invariant(queries, bound - 1):
            return ""
        return f"a lower bound of {bound} needs the bound query at {bound - 1} refuted (or the three invariant queries)"
    if any(query.kind == START for query in queries) or _invariant(queries, None):
        return ""
    return "infeasibility needs the start query, or the three invariant queries over one set of states, refuted"


def _invariant(queries: Sequence[UnsatQuery], bound: int | None) -> bool:
    """Whether `queries` hold the three invariant kinds at `bound`, over one set of states."""
    kinds = {query.kind for query in queries if query.bound == bound}
    data = {query.data_file for query in queries if query.kind in INVARIANT_KINDS and query.bound == bound}
    return set(INVARIANT_KINDS) <= kinds and len(data) == 1


class UnsatQuery(BaseModel):
    """One CNF of an encoding that the formulation's SAT solver refuted, with its proof.

    `kind`, `bound` and the side data in `data_file` (JSON, or '' when the kind needs none)
    say which CNF the encoding builds; `digest` is that CNF's (`crosscheck.solvers.engines.sat.Cnf.digest`);
    `proof_file` holds the solver's DRUP proof as text.  Files are paths the run wrote (under a
    temporary folder) until the harness has checked them and moved what it keeps.
    """

    model_config = ConfigDict(frozen=True)

    kind: str
    bound: int | None = None
    data_file: str = ""
    digest: str
    proof_file: str
    variables: int = 0
    clauses: int = 0
    proof_lines: int = 0


class Certificate(BaseModel):
    """A claim and the refutations that prove it; the harness fills in the check's outcome.

    Set by the formulation: `claim`, `bound` (the lower bound a ``lower-bound`` claim proves),
    `queries`.  Set by the harness once it checked them (`crosscheck.harness.runs.certify`):
    `checked` (True: every CNF rebuilt, digests equal, every proof valid; False: some check
    failed, `error` says which and why; None: not checked), `checker` (the proof checkers that
    ran), `check_seconds`, and `kept` (the folder the CNFs and proofs were kept in, ``--certificates``).
    """

    model_config = ConfigDict(frozen=True)

    claim: Claim
    bound: int | None = None
    queries: list[UnsatQuery] = Field(default_factory=list)
    checked: bool | None = None
    error: str = ""
    checker: str = ""
    check_seconds: float | None = None
    kept: str = ""


class Encoding(Protocol):
    """A formulation's CNF encoding, as the harness calls it again to check a certificate.

    Both functions are pure: the same instance and query give the same CNF, clause for clause.
    """

    #: What every certificate of this encoding rests on besides the checked proofs, in one line.
    lemma: str

    def cnf(self, instance: Any, kind: str, bound: int | None, data: Any) -> Any:
        """The CNF (`crosscheck.solvers.engines.sat.Cnf`) of query `kind` at `bound` with the
        side data `data` (as read from the query's data file, None without one); `ValueError`
        for a kind the encoding does not have."""

    def assignment(self, instance: Any, plan: Sequence[Any]) -> list[int]:
        """`plan` (checked, in the puzzle's move vocabulary) as an assignment of the CNF of
        kind ``bound`` at the plan's cost: one signed literal per variable."""

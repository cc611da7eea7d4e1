"""How strong a run record's statements are: the record field `Evidence`.

A record can hold statements of four strengths:

- a **fact**: its plan, once the puzzle's checker accepted it (``plan_valid`` is True),
  whoever produced it: the optimum is at most the plan's checked cost;
- a **proof**: a built-in or plugin formulation's status, optimum, lower bound and
  infeasibility (proofs of its formulation: tested against the facts and each other);
- a **certified** proof: a formulation's lower bound or infeasibility whose certificate the
  harness checked (`crosscheck.harness.runs.certify`: each CNF rebuilt from the instance by the
  formulation's encoder, its digest compared, its DRUP proof checked by proof checkers that share
  nothing with the solver).  It rests on the checked proofs and on the encoding's lemma (its CNF
  says what it claims to), not on the formulation's search; it weighs as a proof in the verdicts;
- a **claim**: an external program's status, optimum and infeasibility: a fact or a proof
  may contradict it, but it never contradicts anything and is never an exact answer;
- a **plan only**: a configuration of a formulation whose options give up optimality (a
  weighted bound, `crosscheck.solvers.configuration`): its status, optimum, bound and
  infeasibility mean nothing; its plan, once checked, is a fact like any other.

A record's ``evidence`` field is the strength of its own answer (status, cost as an
optimum, bound): `Evidence.PROOF`, `Evidence.CERTIFIED`, `Evidence.CLAIM` or `Evidence.PLAN`.  Facts need no field: a plan is a
fact exactly when the checker accepted it, so a claim's checked plan is a fact like any
other.  How verdicts weigh the three is in `crosscheck.harness.judging.verdicts`.
"""

from __future__ import annotations

from enum import StrEnum


class Evidence(StrEnum):
    """The strength of a record's own answer (its checked plan is a fact either way)."""

    PROOF = "proof"  # a built-in or plugin formulation: its answers are proofs of its formulation
    CERTIFIED = "certified"  # a proof whose certificate the harness checked
    CLAIM = "claim"  # an external program: its answers are claims only
    PLAN = "plan"  # a configuration that gives up optimality: only its checked plan counts

    @property
    def proves(self) -> bool:
        """Whether the answer is a proof (certified or not), not a claim or a plan only."""
        return self in (Evidence.PROOF, Evidence.CERTIFIED)

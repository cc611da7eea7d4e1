"""Optima worth recording in the index, with where they came from.

An optimum is never typed in by hand: it comes from runs whose exact answers agree.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from crosscheck.harness.inputs.index import expectation
from crosscheck.harness.judging.verdicts import InstanceVerdict, JudgedRuns, Verdict
from crosscheck.harness.records.record import RunRecord
from crosscheck.models.answers import Optimum


def agreed_entries(judged: JudgedRuns, min_agreeing: int
                   ) -> tuple[dict[str, dict[str, object]], list[InstanceVerdict], list[InstanceVerdict]]:
    """Index entries (``optimum`` or ``infeasible``, and ``origin``) per instance name for
    every instance on which at least `min_agreeing` independent solvers proved the same
    exact answer; the agreements refused for resting on fewer; and the verdicts other than
    `agree` (skipped: nothing to record), so that the caller can say why each instance
    was left out.  Variant runs are left out: the index lists the instances as written.

    The origin names the agreeing solvers and the commits their records carry:
    provenance is the code that ran, not the code recording it.  The entry also keeps
    what the answer rests on (`evidence`).
    """
    runs = _originals(judged.records)
    entries: dict[str, dict[str, object]] = {}
    refused: list[InstanceVerdict] = []
    skipped: list[InstanceVerdict] = []
    for verdict in (v for v in judged.verdicts if not v.variant):
        if verdict.verdict is not Verdict.AGREE:
            skipped.append(verdict)
            continue
        if verdict.independent < min_agreeing:
            refused.append(verdict)
            continue
        entry: dict[str, object] = ({"optimum": verdict.answer.cost} if isinstance(verdict.answer, Optimum)
                                    else {"infeasible": True})
        commits = sorted({str(r.environment.get("commit", "?")) for r in runs
                          if r.instance == verdict.instance and r.solver in verdict.provers})
        entry["origin"] = (f"agreed by {', '.join(verdict.provers)}, {verdict.independent} independent "
                           f"(crosscheck {', '.join(commits)})")
        entries[verdict.instance] = entry | evidence(verdict, runs)
    return entries, refused, skipped


def evidence(verdict: InstanceVerdict, records: list[RunRecord]) -> dict[str, object]:
    """What an agreed answer rests on, for its index entry: the provers, how many of them
    are independent, the components (qualified names, `Solver.shares`) that two of them both
    run (empty when every pair is independent; a formulation two of them are configurations
    of counts as shared whole: ``keys-graph (every component: configurations of one
    formulation)``), and ``certified = true`` when a prover's certificate of it was checked
    (left out otherwise)."""
    provers = {r.solver: r for r in records
               if r.instance == verdict.instance and r.variant == verdict.variant and r.solver in verdict.provers}
    shares = {solver: set(record.shares) for solver, record in provers.items()}
    shared = set().union(*(shares[a] & shares[b] for a, b in combinations(sorted(shares), 2)))
    formulations = Counter(record.formulation for record in provers.values())
    shared |= {f"{name} (every component: configurations of one formulation)"
               for name, count in formulations.items() if count > 1}
    certified: dict[str, object] = {"certified": True} if verdict.certified else {}
    return {"provers": list(verdict.provers), "independent": verdict.independent, "shared": sorted(shared)} | certified


def refreshed_evidence(judged: JudgedRuns, index: dict[str, dict[str, Any]]) -> dict[str, dict[str, object]]:
    """For each instance the index lists whose answer the runs agree on (`agree`: the
    same answer as the index), its `evidence` from these runs; answers never change."""
    runs = _originals(judged.records)
    return {verdict.instance: evidence(verdict, runs) for verdict in judged.verdicts
            if not verdict.variant and verdict.verdict is Verdict.AGREE and verdict.instance in index
            and verdict.answer == expectation(index[verdict.instance])}


def _originals(records: list[RunRecord]) -> list[RunRecord]:
    """The runs on instances as written (variant runs left out: the index lists those)."""
    return [r for r in records if not r.variant]

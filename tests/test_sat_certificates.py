"""Certified optima: the SAT engine, elevator-sat's encoding and answers, and the harness's check
of their certificates (rebuilt CNF, digest, proof checkers), the plan-as-assignment check, and
``check-certificates`` on kept certificates, tampered with."""

from __future__ import annotations

import gzip
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.judging.verdicts import Verdict, judge
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord, Task, read_records
from crosscheck.harness.runs import certify
from crosscheck.harness.runs.encoding_ledger import EncodingLedger, plan_check
from crosscheck.harness.runs.runner import run_here
from crosscheck.models.elevator.model import Facility, check_plan, generate, parse
from crosscheck.solvers.base import Answer, Deadline, Status
from crosscheck.solvers.certificate import Certificate, UnsatQuery, unproven
from crosscheck.solvers.elevator import sat_encoding
from crosscheck.solvers.elevator.quotient import ElevatorQuotient
from crosscheck.solvers.elevator.sat import ElevatorSat, SatOptions
from crosscheck.solvers.engines.sat import Cnf, discard_proofs, exactly_one, solve, unary_sum, weighted_at_most

from tests.fixtures.known import INSTANCES

pytest.importorskip("pysat", reason="the certificates extra is not installed")
pytest.importorskip("dratify", reason="the certificates extra is not installed")
pytest.importorskip("drup", reason="the certificates extra is not installed")

EXAMPLE = INSTANCES / "elevator" / "two-pairs-example.txt"
#: elevator-sat over labelled states, whose encoding (`sat_encoding`) these tests take apart.
LABELLED = "elevator-sat[states=labelled]"


def labelled() -> ElevatorSat:
    solver = ElevatorSat().configured(SatOptions(states="labelled"))
    assert isinstance(solver, ElevatorSat) and solver.label == LABELLED
    return solver


def load(path: Path) -> Facility:
    return parse(path.read_text(), str(path))


def pigeons(holes: int) -> Cnf:
    """holes + 1 pigeons in `holes` holes: unsatisfiable."""
    cnf = Cnf((holes + 1) * holes)

    def sits(pigeon: int, hole: int) -> int:
        return pigeon * holes + hole + 1

    for pigeon in range(holes + 1):
        cnf.add(*(sits(pigeon, hole) for hole in range(holes)))
    for hole in range(holes):
        for first in range(holes + 1):
            for second in range(first + 1, holes + 1):
                cnf.add(-sits(first, hole), -sits(second, hole))
    return cnf


# --- the engine and the checkers ---------------------------------------------------------------

def test_a_formula_is_dimacs_text_with_a_digest_and_read_back() -> None:
    cnf = Cnf(2)
    cnf.add(1, -2)
    cnf.add(2)
    assert cnf.dimacs() == "p cnf 2 2\n1 -2 0\n2 0\n"
    assert certify.read_dimacs(cnf.dimacs()).clauses == cnf.clauses
    assert certify.read_dimacs(cnf.dimacs()).digest() == cnf.digest() != Cnf(2, [(1,)]).digest()
    assert cnf.first_falsified([1, 2]) is None and cnf.first_falsified([-1, 2]) == 0 and cnf.first_falsified([1, -2]) == 1
    with pytest.raises(ValueError, match="outside 1..2"):
        cnf.add(3)
    with pytest.raises(ValueError, match="x.cnf:2: expected one clause"):
        certify.read_dimacs("p cnf 2 1\n1 2\n", "x.cnf")
    with pytest.raises(ValueError, match="declares 2 clauses, the text holds 1"):
        certify.read_dimacs("p cnf 2 2\n1 2 0\n")


def test_a_satisfiable_formula_has_a_model_and_an_unsatisfiable_one_a_proof_both_checkers_accept(
        tmp_path: Path) -> None:
    sat = Cnf(3, [(1, 2), (-1, 3), (-3,)])
    found = solve(sat, Deadline(10), tmp_path / "none.drup")
    assert found.satisfiable and sat.first_falsified(found.model) is None
    unsat = pigeons(4)
    refuted = solve(unsat, Deadline(10), tmp_path / "php.drup")
    assert refuted.satisfiable is False and refuted.proof_lines > 0
    proof = (tmp_path / "php.drup").read_text()
    assert certify.check_proof(unsat, proof) == certify.ProofCheck(True, ("dratify", "drup"))
    weaker = Cnf(unsat.variables, unsat.clauses[1:])  # a pigeon may stay out: satisfiable
    assert not certify.check_proof(weaker, proof).ok
    assert not certify.check_proof(unsat, "0\n").ok  # the empty clause alone follows from nothing
    assert certify.check_proof(unsat, "1 x 0\n0\n").reason.startswith("<proof>:1: ")


@pytest.mark.parametrize("limit", [-1, 0, 3, 7, 12, 40])
def test_a_weighted_sum_of_unary_counts_is_bounded_exactly_and_auxiliaries_extend_an_assignment(limit: int) -> None:
    """Three numbers, each one of three choices worth 0 to 2 (unary), summed two by two with
    weights 5 and 1: every choice is allowed exactly when its weighted sum is at most `limit`."""
    choices = Cnf(9)
    for number in range(3):
        exactly_one(choices, [3 * number + 1, 3 * number + 2, 3 * number + 3])
    cnf = Cnf(choices.variables, list(choices.clauses))
    unary = []
    for number in range(3):
        count = [cnf.new_variable(), cnf.new_variable()]
        for value in (1, 2):
            for j in range(value):
                cnf.add(-(3 * number + 1 + value), count[j])
        unary.append(count)
    heavy, light = unary_sum(cnf, unary[:1], 9), unary_sum(cnf, unary[1:], 9)
    assert len(heavy) == 2 and len(light) == 4
    weighted_at_most(cnf, [(5, heavy), (1, light)], limit)
    for values in [(a, b, c) for a in range(3) for b in range(3) for c in range(3)]:
        main = [v if (v - 1) % 3 == values[(v - 1) // 3] else -v for v in range(1, 10)]
        assert choices.first_falsified(main) is None
        allowed = 5 * values[0] + values[1] + values[2] <= limit
        assert (cnf.first_falsified(cnf.extended(main)) is None) == allowed, values


def test_which_queries_prove_which_claim() -> None:
    def query(kind: str, bound: int | None = None, data: str = "") -> UnsatQuery:
        return UnsatQuery(kind=kind, bound=bound, data_file=data, digest="d", proof_file="p")

    assert unproven("lower-bound", 0, []) == ""
    assert unproven("lower-bound", 11, [query("bound", 10)]) == ""
    assert "bound query at 10" in unproven("lower-bound", 11, [query("bound", 9)])
    assert unproven("infeasible", None, [query("start")]) == ""
    invariant = [query(kind, data="s.json") for kind in ("invariant-start", "invariant-step", "invariant-goal")]
    assert unproven("infeasible", None, invariant) == ""
    assert unproven("infeasible", None, invariant[:2])
    assert unproven("infeasible", None, [*invariant[:2], query("invariant-goal", data="other.json")])


# --- the encoding and elevator-sat -------------------------------------------------------------

def test_elevator_sat_proves_the_published_optimum_and_hands_over_the_refutation_below_it() -> None:
    facility = load(EXAMPLE)
    result = labelled().solve(facility, time_limit=60)
    assert (result.status, result.cost, result.bound) == (Status.OPTIMAL, 11, 11)
    assert result.plan is not None and check_plan(facility, result.plan) == 11
    certificate = result.certificate
    assert certificate is not None and (certificate.claim, certificate.bound) == ("lower-bound", 11)
    [query] = certificate.queries
    assert (query.kind, query.bound, query.digest) == ("bound", 10, sat_encoding.encode(facility, 10).digest())
    checked = certify.check(certificate, sat_encoding.ENCODING, facility)
    assert checked.checked is True and checked.error == "" and "dratify" in checked.checker
    discard_proofs(certificate)


@pytest.mark.parametrize(("name", "kinds"), [
    ("three-rotated.txt", ["start"]),
    ("stranded-chip.txt", ["invariant-start", "invariant-step", "invariant-goal"]),
])
@pytest.mark.parametrize("states", ["labelled", "counts"])
def test_elevator_sat_proves_infeasibility_by_the_start_or_an_invariant(name: str, kinds: list[str],
                                                                        states: str) -> None:
    facility = load(INSTANCES / "elevator" / name)
    solver = ElevatorSat().configured(SatOptions(states=states))  # type: ignore[arg-type]
    assert isinstance(solver, ElevatorSat)
    result = solver.solve(facility, time_limit=60)
    assert result.status is Status.INFEASIBLE and result.certificate is not None
    assert [query.kind for query in result.certificate.queries] == kinds
    assert certify.check(result.certificate, solver.encoding, facility).checked is True
    discard_proofs(result.certificate)


@pytest.mark.parametrize("seed", range(12))
def test_every_checked_plan_satisfies_the_cnf_at_its_cost_and_with_idle_steps_after_it(seed: int) -> None:
    facility = generate(seed, pairs=1 + seed % 3, floors=2 + seed % 3)
    result = ElevatorQuotient().solve(facility, time_limit=20)
    if result.plan is None:
        return
    cost = check_plan(facility, result.plan)
    plan = [list(move) for move in result.plan]
    for bound in (cost, cost + 1, cost + 2):
        assignment = sat_encoding.assignment(facility, plan, bound)
        assert sat_encoding.encode(facility, bound).first_falsified(assignment) is None
    assert sat_encoding.ENCODING.assignment(facility, plan) == sat_encoding.assignment(facility, plan, cost)


def test_a_model_decodes_to_a_plan_the_checker_accepts() -> None:
    facility = generate(3, pairs=2, floors=3)
    for bound in range(40):
        found = solve(sat_encoding.encode(facility, bound), Deadline(20), Path("/dev/null"))
        if found.satisfiable:
            assert check_plan(facility, sat_encoding.decode(facility, bound, found.model)) == bound
            return
    pytest.fail("no plan within 40 steps")


# --- the harness's check -------------------------------------------------------------------------

@pytest.fixture
def refuted(tmp_path: Path) -> Certificate:
    """elevator-sat's certificate on the published example, its proof under `tmp_path`."""
    certificate = labelled().solve(load(EXAMPLE), time_limit=60).certificate
    assert certificate is not None
    [query] = certificate.queries
    proof = tmp_path / "bound.drup"
    shutil.move(query.proof_file, proof)
    discard_proofs(certificate)
    return certificate.model_copy(update={"queries": [query.model_copy(update={"proof_file": str(proof)})]})


def test_a_certificate_fails_on_another_cnf_a_changed_proof_or_a_claim_its_queries_do_not_prove(
        refuted: Certificate) -> None:
    facility = load(EXAMPLE)
    [query] = refuted.queries
    other = refuted.model_copy(update={"queries": [query.model_copy(update={"digest": "0" * 64})]})
    assert "not the one the encoder builds" in certify.check(other, sat_encoding.ENCODING, facility).error
    higher = refuted.model_copy(update={"bound": 12})
    assert "bound query at 11" in certify.check(higher, sat_encoding.ENCODING, facility).error
    lines = Path(query.proof_file).read_text().splitlines()
    Path(query.proof_file).write_text("\n".join(lines[:-1]) + "\n1 0\n")  # the empty clause changed
    changed = certify.check(refuted, sat_encoding.ENCODING, facility)
    assert changed.checked is False and "empty clause" in changed.error


def test_the_harness_checks_a_runs_certificate_keeps_it_and_removes_the_runs_proofs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))  # where the run writes its proofs
    task = Task(path=str(EXAMPLE), instance="elevator/two-pairs-example.txt", solver=LABELLED, time_limit=60,
                certificates=str(tmp_path / "kept"))
    record = run_here(task)
    assert record.evidence is Evidence.CERTIFIED and record.certificate is not None
    assert record.certificate.checked is True
    folder = tmp_path / "kept" / "elevator" / "two-pairs-example.txt" / LABELLED
    assert record.certificate.kept == str(folder)
    assert sorted(path.name for path in folder.iterdir()) == ["1-bound-10.cnf.gz", "1-bound-10.drup.gz"]
    assert list((tmp_path / "tmp").iterdir()) == []
    assert judge([record]).verdict is Verdict.AGREE


def test_under_a_cpu_time_limit_the_kernel_stops_a_check_that_takes_longer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check of a ``--clock cpu`` run has a limit of CPU seconds, its process's start-up
    included: a check that needs more (here a twentieth of a second, less than the process
    spends importing what it checks with) is stopped, and the certificate is left unchecked,
    saying why (not a bad one)."""
    monkeypatch.setattr(certify, "check_limit", lambda task: 0.05)
    task = Task(path=str(EXAMPLE), instance="elevator/two-pairs-example.txt", solver=LABELLED, time_limit=60,
                clock="cpu")
    record = run_here(task)
    assert record.certificate is not None and record.certificate.checked is None
    assert record.certificate.error == "not checked: the check did not end within 0.05 s of CPU time"
    assert record.evidence is not Evidence.CERTIFIED


def test_a_plan_the_encoding_leaves_out_is_a_bad_certificate(monkeypatch: pytest.MonkeyPatch) -> None:
    """An encoder that forbids carrying two generators at once (a move left out) falsifies the
    published example's optimal plans, which carry two generators up."""
    facility = load(EXAMPLE)
    plan = ElevatorQuotient().solve(facility, time_limit=20).plan
    assert plan is not None
    checked = RunRecord(instance="x", puzzle="elevator", solver="elevator-quotient", status=Status.OPTIMAL,
                        cost=11, bound=11, plan=plan, plan_valid=True, checked_cost=11)
    assert plan_check(sat_encoding.ENCODING, "elevator-sat", facility, checked).satisfied
    honest_loads = sat_encoding._loads

    def no_two_generators(cnf: Cnf, layout: sat_encoding.Layout, time: int) -> None:
        honest_loads(cnf, layout, time)
        for first in range(0, layout.items, 2):
            for second in range(first + 2, layout.items, 2):
                cnf.add(-layout.carry(first, time), -layout.carry(second, time))

    monkeypatch.setattr(sat_encoding, "_loads", no_two_generators)
    check = plan_check(sat_encoding.ENCODING, "elevator-sat", facility, checked)
    assert not check.satisfied and check.falsified.endswith(" 0")
    certified = checked.model_copy(update={"solver": "elevator-sat", "evidence": Evidence.CERTIFIED,
                                           "encoding_checks": [check]})
    verdict = judge([checked, certified])
    assert verdict.verdict is Verdict.BAD_CERTIFICATE and "leaves plans out" in verdict.reason


def test_the_ledger_checks_plans_and_certified_encodings_whichever_comes_first(tmp_path: Path) -> None:
    task = Task(path=str(EXAMPLE), instance="e", solver="elevator-sat", time_limit=60)
    certified = run_here(task)
    plan = ElevatorQuotient().solve(load(EXAMPLE), time_limit=20).plan
    checked = RunRecord(instance="e", puzzle="elevator", solver="elevator-quotient", status=Status.OPTIMAL, cost=11,
                        bound=11, plan=[list(move) for move in plan or []], plan_valid=True, checked_cost=11)
    first = EncodingLedger()
    assert first.seen(checked, task).encoding_checks == []
    [check] = first.seen(certified, task).encoding_checks
    assert (check.encoding, check.plan_of, check.cost, check.satisfied) == ("elevator-sat", "elevator-quotient", 11,
                                                                            True)
    second = EncodingLedger()
    assert second.seen(certified, task).encoding_checks == []
    assert second.seen(checked, task).encoding_checks == [check]


# --- kept certificates, checked again ------------------------------------------------------------

@pytest.mark.parametrize(("solver", "stems"), [
    (LABELLED, {"1-bound-10": True}),
    # the start and goal queries of the example fall to unit propagation, which makes any proof line valid
    ("elevator-sat", {"1-invariant-start-10": False, "2-invariant-step-10": True, "3-invariant-goal-10": False}),
])
def test_check_certificates_passes_and_fails_naming_the_instance_on_a_changed_proof_line_or_clause(
        tmp_path: Path, solver: str, stems: dict[str, bool]) -> None:
    folder = tmp_path / "instances" / "elevator"
    folder.mkdir(parents=True)
    shutil.copy(EXAMPLE, folder / "example.txt")
    out, kept = tmp_path / "runs.jsonl", tmp_path / "kept"
    runner = CliRunner()
    compared = runner.invoke(main, ["compare", str(folder), "--solver", solver, "--out", str(out),
                                    "--certificates", str(kept), "--jobs", "1"], catch_exceptions=False)
    assert compared.exit_code == 0, compared.output
    [record] = read_records(out)
    assert record.evidence is Evidence.CERTIFIED
    args = ["check-certificates", str(out), "--instances", str(tmp_path / "instances")]
    assert runner.invoke(main, args).exit_code == 0
    stored = Path(record.certificate.kept if record.certificate else "")
    for stem, proof_changed in stems.items():
        proof, cnf = stored / f"{stem}.drup.gz", stored / f"{stem}.cnf.gz"
        changes = [(proof, _first_line_weakened)] if proof_changed else []
        for path, change in (*changes, (cnf, _first_clause_weakened)):
            original = path.read_bytes()
            text = gzip.decompress(original).decode()
            path.write_bytes(gzip.compress(change(text).encode()))
            failed = runner.invoke(main, args)
            assert failed.exit_code == 1 and "FAILED" in failed.output and "example.txt" in failed.stderr
            path.write_bytes(original)
    assert runner.invoke(main, args).exit_code == 0


def _first_line_weakened(proof: str) -> str:
    """The proof with its first added clause replaced by one that does not follow by unit propagation."""
    lines = proof.splitlines()
    first = next(number for number, line in enumerate(lines) if not line.startswith("d"))
    lines[first] = "1 0"  # the first variable: false at time 0 in every query of the example, no RUP step
    return "\n".join(lines) + "\n"


def _first_clause_weakened(cnf: str) -> str:
    """The CNF with its first clause dropped (the header adjusted)."""
    lines = cnf.splitlines()
    header = lines[0].split()
    return "\n".join([f"p cnf {header[2]} {int(header[3]) - 1}", *lines[2:]]) + "\n"


def test_a_result_refuses_a_certificate_of_something_else() -> None:
    def answered(status: Status, certificate: Certificate, **fields: object) -> Status:
        class Certifying(ElevatorSat):
            def _solve(self, instance: object, deadline: Deadline) -> Answer:
                return Answer(status, certificate=certificate, **fields)  # type: ignore[arg-type]

        return Certifying().solve(load(EXAMPLE)).status

    infeasible, bound = Certificate(claim="infeasible"), Certificate(claim="lower-bound", bound=5)
    assert answered(Status.INFEASIBLE, infeasible) is Status.INFEASIBLE
    assert answered(Status.TIMEOUT, bound, bound=5) is Status.TIMEOUT
    assert answered(Status.TIMEOUT, infeasible, bound=5) is Status.ERROR
    assert answered(Status.TIMEOUT, bound, bound=4) is Status.ERROR
    assert answered(Status.INFEASIBLE, bound) is Status.ERROR


def test_a_record_of_schema_version_5_loads_with_no_certificate() -> None:
    from crosscheck.harness.records.record import parse_record

    line = b'{"schema_version": 5, "instance": "a.txt", "puzzle": "elevator", "solver": "elevator-bfs", ' \
           b'"status": "optimal", "cost": 3, "bound": 3, "evidence": "proof"}'
    record = parse_record(line, "old.jsonl:1")
    assert record.certificate is None and record.encoding_checks == [] and record.evidence is Evidence.PROOF

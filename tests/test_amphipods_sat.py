"""amphipods-sat: its encoding's plans and models, its certified optima on the published example and
small generated burrows, the plan-as-assignment check on other formulations' plans, and kept
certificates that fail once a proof line or a clause is changed."""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.judging.verdicts import Verdict, judge
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord, read_records
from crosscheck.harness.runs import certify
from crosscheck.harness.runs.encoding_ledger import plan_check
from crosscheck.models.amphipods.model import Burrow, check_plan, generate, parse
from crosscheck.solvers.amphipods import sat_encoding
from crosscheck.solvers.amphipods.sat import AmphipodsSat, _answer
from crosscheck.solvers.amphipods.stops import AmphipodsStops
from crosscheck.solvers.base import Deadline, Status
from crosscheck.solvers.certificate import BOUND
from crosscheck.solvers.engines import sat
from crosscheck.solvers.engines.sat import Cnf, Refuter, discard_proofs

from tests.fixtures.known import INDEX, INSTANCES
from tests.test_sat_certificates import _first_clause_weakened, _first_line_weakened

pytest.importorskip("pysat", reason="the certificates extra is not installed")
pytest.importorskip("dratify", reason="the certificates extra is not installed")
pytest.importorskip("drup", reason="the certificates extra is not installed")

EXAMPLE = "amphipods/depth2-example.txt"
D1 = sorted(f"amphipods/generated/d1/{path.name}" for path in (INSTANCES / "amphipods/generated/d1").glob("*.txt"))
D2 = sorted(f"amphipods/generated/d2/{path.name}" for path in (INSTANCES / "amphipods/generated/d2").glob("*.txt"))


def load(name: str) -> Burrow:
    return parse((INSTANCES / name).read_text(), name)


def certified_optimum(name: str) -> None:
    """amphipods-sat's answer on instance `name` is its index optimum, its plan checks at that
    cost, and its certificate (the bound query one below) passes the harness's check."""
    burrow, optimum = load(name), INDEX[name]["optimum"]
    result = AmphipodsSat().solve(burrow, time_limit=60)
    assert (result.status, result.cost, result.bound) == (Status.OPTIMAL, optimum, optimum)
    assert result.plan is not None and check_plan(burrow, result.plan) == optimum
    certificate = result.certificate
    assert certificate is not None and (certificate.claim, certificate.bound) == ("lower-bound", optimum)
    [query] = certificate.queries
    assert (query.kind, query.bound) == ("bound", optimum - 1)
    assert query.digest == sat_encoding.encode(burrow, optimum - 1).digest()
    checked = certify.check(certificate, sat_encoding.ENCODING, burrow)
    assert checked.checked is True and checked.error == "", checked.error
    discard_proofs(certificate)


@pytest.mark.parametrize("name", [EXAMPLE, *D1])
def test_the_published_example_and_depth_one_burrows_have_certified_optima(name: str) -> None:
    certified_optimum(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", D2)
def test_generated_depth_two_burrows_have_certified_optima(name: str) -> None:
    certified_optimum(name)


def test_the_fixed_energy_is_the_least_and_a_sorted_burrow_needs_no_move() -> None:
    burrow = load(EXAMPLE)
    layout = sat_encoding.Layout(burrow)
    assert len(layout.movers) == 6 and layout.steps == 12  # the A and the C at the bottom of their rooms are home
    # climbs to the doors and shortest walks between them: B 30 + 30, C 300, D 6000 + 1000, A 8;
    # descents: A 1, B 10 * (2 + 1), C 100, D 1000 * (2 + 1)
    assert layout.fixed == 30 + 30 + 300 + 6000 + 1000 + 8 + 1 + 30 + 100 + 3000
    sorted_burrow = Burrow("sorted", ("AA", "BB", "CC", "DD"))
    result = AmphipodsSat().solve(sorted_burrow, time_limit=10)
    assert (result.status, result.cost, result.plan) == (Status.OPTIMAL, 0, [])


class _OutOfTimeOnBounds(Refuter):
    """A refuter whose time runs out on every bound query (the start query is solved)."""

    def refute(self, cnf: Cnf, kind: str, bound: int | None = None, keep_one: bool = False,
               options: Mapping[str, int] | None = None) -> bool | None:
        return None if kind == BOUND else super().refute(cnf, kind, bound, keep_one, options)


def test_time_running_out_below_the_first_plan_keeps_the_plan_without_a_bound() -> None:
    burrow = load(EXAMPLE)
    result = sat.refuting(_OutOfTimeOnBounds(Deadline(None)), lambda refuter: _answer(refuter, burrow))
    assert (result.status, result.bound, result.certificate) == (Status.FEASIBLE, None, None)
    assert result.plan is not None and check_plan(burrow, result.plan) == result.cost >= INDEX[EXAMPLE]["optimum"]


@pytest.mark.parametrize("seed", range(6))
def test_every_checked_plan_of_another_formulation_satisfies_the_cnf_at_its_cost(seed: int) -> None:
    """Plans of amphipods-stops (which assumes no lemma) on small generated burrows, written in the
    lemma's shape, satisfy the CNF at their cost; at higher bounds the same assignment does, and its
    first variables (the counters' left out) satisfy the start query."""
    for burrow in (generate(seed, depth=1), generate(seed, depth=2, swaps=2)):
        result = AmphipodsStops().solve(burrow, time_limit=30)
        assert result.plan is not None
        cost = check_plan(burrow, result.plan)
        plan = [list(move) for move in result.plan]
        for bound in (cost, cost + 1, cost + 100):
            assignment = sat_encoding.assignment(burrow, plan, bound)
            assert sat_encoding.encode(burrow, bound).first_falsified(assignment) is None, (burrow, plan)
        start = sat_encoding.encode(burrow, None)
        assert start.first_falsified(sat_encoding.assignment(burrow, plan)[:start.variables]) is None


def test_an_encoding_that_leaves_direct_moves_out_is_a_bad_certificate(monkeypatch: pytest.MonkeyPatch) -> None:
    """An encoder without moves straight from room to room falsifies the published example's optimal
    plan (the puzzle statement's), which takes a C straight from room B into room C."""
    burrow = load(EXAMPLE)
    plan = [["C1", "H4"], ["B1", "C1"], ["B2", "H6"], ["H4", "B2"], ["A1", "B1"], ["D1", "H8"], ["D2", "H10"],
            ["H8", "D2"], ["H6", "D1"], ["H10", "A1"]]
    assert check_plan(burrow, plan) == 12521
    checked = RunRecord(instance="x", puzzle="amphipods", solver="amphipods-stops", status=Status.OPTIMAL,
                        cost=12521, bound=12521, plan=plan, plan_valid=True, checked_cost=12521)
    assert plan_check(sat_encoding.ENCODING, "amphipods-sat", burrow, checked).satisfied
    honest = sat_encoding._choices

    def no_direct(cnf: Cnf, layout: sat_encoding.Layout) -> None:
        honest(cnf, layout)
        for variable in layout.direct.values():
            cnf.add(-variable)

    monkeypatch.setattr(sat_encoding, "_choices", no_direct)
    check = plan_check(sat_encoding.ENCODING, "amphipods-sat", burrow, checked)
    assert not check.satisfied and check.falsified.endswith(" 0")
    certified = checked.model_copy(update={"solver": "amphipods-sat", "evidence": Evidence.CERTIFIED,
                                           "encoding_checks": [check]})
    verdict = judge([checked, certified])
    assert verdict.verdict is Verdict.BAD_CERTIFICATE and "leaves plans out" in verdict.reason


def test_check_certificates_fails_naming_the_burrow_on_a_changed_proof_line_or_clause(tmp_path: Path) -> None:
    folder = tmp_path / "instances" / "amphipods"
    folder.mkdir(parents=True)
    shutil.copy(INSTANCES / D1[0], folder / "small.txt")
    out, kept = tmp_path / "runs.jsonl", tmp_path / "kept"
    runner = CliRunner()
    compared = runner.invoke(main, ["compare", str(folder), "--solver", "amphipods-sat", "--out", str(out),
                                    "--certificates", str(kept), "--jobs", "1"], catch_exceptions=False)
    assert compared.exit_code == 0, compared.output
    [record] = read_records(out)
    assert record.evidence is Evidence.CERTIFIED and record.certificate is not None
    args = ["check-certificates", str(out), "--instances", str(tmp_path / "instances")]
    assert runner.invoke(main, args).exit_code == 0
    stored = Path(record.certificate.kept)
    [proof] = stored.glob("*.drup.gz")
    [cnf] = stored.glob("*.cnf.gz")
    for path, change in ((proof, _first_line_weakened), (cnf, _first_clause_weakened)):
        original = path.read_bytes()
        path.write_bytes(gzip.compress(change(gzip.decompress(original).decode()).encode()))
        failed = runner.invoke(main, args)
        assert failed.exit_code == 1 and "FAILED" in failed.output and "small.txt" in failed.stderr
        path.write_bytes(original)
    assert runner.invoke(main, args).exit_code == 0

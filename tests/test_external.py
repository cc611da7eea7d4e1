"""External programs: what their output claims, and how a printed plan is checked."""

from __future__ import annotations

import sys
from pathlib import Path

from crosscheck.harness.judging.verdicts import Verdict, judge
from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import Task
from crosscheck.harness.runs.external import read_claim
from crosscheck.harness.runs.runner import failure, run_task
from crosscheck.solvers.base import Clock, Status

from tests.fixtures.cli import VAULT


def test_the_one_integer_outside_the_plan_line_is_the_claim() -> None:
    claim = read_claim('plan: [[0, "E"], [0, "E"]]\nanswer 2\n', "mine")
    assert (claim.cost, claim.plan, claim.infeasible) == (2, [[0, "E"], [0, "E"]], False)
    assert read_claim('plan: [[0, "E"], [0, "E"]]\n', "mine").cost is None  # the plan's own cost, once checked
    assert read_claim("optimum: 7\n", "mine").cost == 7
    assert read_claim("Part 1: 31\nOptimum: 7\nnodes expanded: 2\n", "mine").cost == 7  # labelled: whatever else


def test_two_integers_are_ambiguous_and_refused_not_guessed() -> None:
    """A log line after the answer (tmp/review-work's logtail.py) made its number the claim."""
    claim = read_claim("7\nnodes expanded: 2\n", "mine (python3 logtail.py {path})")
    assert (claim.cost, claim.plan, claim.infeasible, claim.unsupported) == (None, None, False, False)
    assert claim.message == ("mine (python3 logtail.py {path}) printed 2 integers (7 on line 1, 2 on line 2), so its "
                             "claim is ambiguous: print exactly one, or a line 'optimum: N', and write logs to "
                             "standard error")
    assert read_claim("optimum: 7\noptimum: 8\n", "mine").cost is None  # two labels: no label decides



def test_claims_that_contradict_each_other_are_refused() -> None:
    """``optimum: 13`` then ``infeasible`` was read as infeasible, the optimum ignored unsaid."""
    for output in ("optimum: 13\ninfeasible\n", 'infeasible\nplan: []\n', "unsupported\n7\noptimum: 7\n"):
        claim = read_claim(output, "mine")
        assert not (claim.infeasible or claim.unsupported) and claim.cost is None and claim.plan is None, output
        assert claim.message.startswith("mine printed claims that contradict each other ("), claim.message
    assert read_claim("optimum: 13\ninfeasible\n", "mine").message == (
        "mine printed claims that contradict each other ('optimum:' on line 1, 'infeasible' on line 2), so its "
        "claim is ambiguous: print one of them")
    assert read_claim("expanded 1234 states\ninfeasible\n", "mine").infeasible  # a log's integer is no claim


def test_infeasible_is_a_claim_and_bad_output_says_why() -> None:
    assert read_claim("searching...\nInfeasible\n", "mine").infeasible
    nothing = read_claim("no idea\n", "mine").message
    assert nothing.startswith("mine printed no claim (expected one of: a line 'infeasible'; a line 'unsupported'; ")
    assert "exactly one integer" in nothing
    broken = read_claim('searching\nplan: [["up", ["hydrogen microchip"]], \n12\n', "garbage (python3 g.py {path})")
    assert broken.message == ("garbage (python3 g.py {path}) printed a plan that is not JSON (output line 2): "
                              "Expecting value at column 33 of the JSON after 'plan:'")


def test_a_message_names_the_external_by_its_name_and_command(tmp_path: Path) -> None:
    record = run_task(_run(tmp_path, "no answer here"))
    assert record.status is Status.ERROR
    assert record.message.startswith(f"mine ({sys.executable} {tmp_path / 'mine.py'} {{path}}) printed no claim")


def _run(tmp_path: Path, output: str) -> Task:
    (tmp_path / "v.txt").write_text(VAULT)
    script = tmp_path / "mine.py"
    script.write_text(f"import sys\nopen(sys.argv[1])\nprint({output!r})\n")
    return Task(path=str(tmp_path / "v.txt"), instance="v.txt", solver="mine",
                external=f"{sys.executable} {script} {{path}}", time_limit=30)


def test_a_printed_plan_is_checked_and_carries_no_bound(tmp_path: Path) -> None:
    good = run_task(_run(tmp_path, 'plan: [[0,"E"],[0,"E"],[0,"W"],[0,"W"],[0,"W"],[0,"W"],[0,"W"],[0,"W"]]'))
    assert (good.status, good.cost, good.checked_cost, good.plan_valid, good.bound) == (Status.OPTIMAL, 8, 8, True, None)
    assert good.evidence is Evidence.CLAIM
    assert judge([good]).verdict is Verdict.UNVERIFIED  # a claim, even with a plan, is not an exact answer
    bad = run_task(_run(tmp_path, 'plan: [[0,"W"],[0,"W"]]\n2'))
    assert bad.plan_valid is False and "door A" in bad.plan_error
    assert judge([bad]).verdict is Verdict.INVALID_PLAN


def test_a_printed_plan_of_malformed_moves_is_an_invalid_plan_not_a_crash(tmp_path: Path) -> None:
    """``[[0, ["N"]]]`` crashed the checker (``TypeError: unhashable type``), an ``error``
    run naming neither the program nor the move."""
    record = run_task(_run(tmp_path, 'plan: [[0, "E"], [0, ["N"]]]'))
    assert (record.status, record.plan_valid) == (Status.OPTIMAL, False)
    assert record.plan_error == "move 2: unknown direction ['N'], expected one of 'N', 'S', 'E', 'W'"
    assert judge([record]).verdict is Verdict.INVALID_PLAN


def test_an_infeasibility_claim_becomes_an_infeasible_record(tmp_path: Path) -> None:
    record = run_task(_run(tmp_path, "infeasible"))
    assert (record.status, record.bound, record.cost, record.evidence) == (Status.INFEASIBLE, None, None, "claim")


def test_every_record_of_an_external_program_is_a_claim_even_a_crash(tmp_path: Path) -> None:
    """The field comes from the task, so the harness's own records of a run (a kill, a
    crash) say so too; a built-in formulation's say proof."""
    task = _run(tmp_path, "8")
    assert failure(task, None, Status.ERROR, "killed").evidence is Evidence.CLAIM
    builtin = task.model_copy(update={"external": None, "solver": "keys-graph"})
    assert (failure(builtin, None, Status.ERROR, "killed").evidence, run_task(builtin).evidence) == (
        Evidence.PROOF, Evidence.PROOF)


def test_a_cpu_limit_caps_the_program_and_waiting_does_not_count(tmp_path: Path) -> None:
    (tmp_path / "v.txt").write_text(VAULT)
    spin, nap = tmp_path / "spin.py", tmp_path / "nap.py"
    spin.write_text("while True:\n    pass\n")
    nap.write_text("import time\ntime.sleep(1.5)\nprint(8)\n")

    def task(script: Path, clock: Clock) -> Task:
        return Task(path=str(tmp_path / "v.txt"), instance="v.txt", solver=script.stem, time_limit=1, clock=clock,
                    external=f"{sys.executable} {script} {{path}}")

    spun = run_task(task(spin, "cpu"))
    assert spun.status is Status.TIMEOUT and "CPU-time limit" in spun.message
    assert run_task(task(nap, "wall")).status is Status.TIMEOUT
    assert run_task(task(nap, "cpu")).cost == 8  # it slept past one second of wall time, not of CPU time


def test_the_record_names_the_version_of_the_program_that_ran(tmp_path: Path) -> None:
    first = run_task(_run(tmp_path, "8")).environment["solver_source"]
    assert run_task(_run(tmp_path, "8")).environment["solver_source"] == first
    edited = run_task(_run(tmp_path, "8 ")).environment["solver_source"]  # the script differs by one space
    assert len({first, edited}) == 2 and len(first) == 12


def test_a_line_unsupported_declines_the_instance_and_is_no_failure(tmp_path: Path) -> None:
    assert read_claim("four robots? no.\nUnsupported\n", "mine").unsupported
    record = run_task(_run(tmp_path, "unsupported"))
    assert (record.status, record.cost, record.bound, record.plan) == (Status.UNSUPPORTED, None, None, None)
    assert "declined the instance" in record.message
    assert judge([record]).verdict is Verdict.UNVERIFIED  # no answer, and nothing wrong


def _script(tmp_path: Path, body: str) -> Task:
    """The run of a program whose whole source is `body` on the vault."""
    task = _run(tmp_path, "")
    (tmp_path / "mine.py").write_text(body)
    return task


def test_a_log_on_stderr_that_is_not_utf8_is_no_crash_and_stdout_must_be(tmp_path: Path) -> None:
    """``é`` in Latin-1 on stderr made the run a crash (UnicodeDecodeError, exit 3)."""
    logged = run_task(_script(tmp_path, "import sys\nsys.stderr.buffer.write(b'caf\\xe9\\n')\nprint(8)\n"))
    assert (logged.status, logged.cost) == (Status.OPTIMAL, 8)
    failed = run_task(_script(tmp_path, "import sys\nsys.stderr.buffer.write(b'caf\\xe9\\n')\nsys.exit(2)\n"))
    assert failed.message.endswith(" exited with status 2: caf\ufffd")
    garbled = run_task(_script(tmp_path, "import sys\nsys.stdout.buffer.write(b'searching\\noptimum: 8 \\xe9\\n')\n"))
    assert garbled.status is Status.ERROR
    assert garbled.message == (f"mine ({sys.executable} {tmp_path / 'mine.py'} {{path}}) printed output that is not "
                               "UTF-8 text (output line 2, column 12: invalid continuation byte): print its claim "
                               "in UTF-8")


def test_a_program_killed_by_a_signal_is_named_so(tmp_path: Path) -> None:
    killed = run_task(_script(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"))
    assert killed.status is Status.ERROR
    assert killed.message.endswith("{path}) killed by signal 9 (SIGKILL)"), killed.message  # no dangling colon


def test_a_claimed_cost_must_be_a_64_bit_integer() -> None:
    """``optimum: 99999999999999999999999`` was recorded, and report --format parquet then
    crashed; 5,000 nines made `int` raise ValueError, an ``error`` run naming neither the
    program nor the line."""
    long = "9" * 5000
    for output, value in (("optimum: 99999999999999999999999\n", "99999999999999999999999"),
                          ("-9223372036854775809\n", "-9223372036854775809"),
                          (f"optimum: {long}\n", "999999999999...9999999999999"),
                          (f"optimum: -{long}\n", "-99999999999...9999999999999")):
        claim = read_claim(output, "mine")
        assert (claim.cost, claim.plan) == (None, None)
        assert claim.message == (f"mine claimed optimum {value} (output line 1), which is no cost: expected an "
                                 "integer from -9223372036854775808 to 9223372036854775807 (64 bits)")
    assert read_claim("optimum: 9223372036854775807\n", "mine").cost == 2**63 - 1
    assert read_claim("-3\n", "mine").cost == -3  # a claim the verdicts judge, no cost a plan has
    assert read_claim("optimum: -9223372036854775808\n", "mine").cost == -(2**63)


def test_only_ascii_digits_make_a_claim() -> None:
    """``optimum: ٣`` (an Arabic-Indic three) was read as the claim 3."""
    assert read_claim("optimum: \u0663\n", "mine").message.startswith("mine printed no claim (expected ")
    assert read_claim("\u0663\n7\n", "mine").cost == 7  # the only integer


def test_a_plan_holding_an_integer_too_long_to_convert_is_refused_naming_the_line() -> None:
    """``plan: [[<5000 digits>, "N"]]`` raised ValueError past ``except JSONDecodeError``."""
    claim = read_claim(f'searching\nplan: [[{"9" * 5000}, "N"]]\n', "mine")
    assert (claim.cost, claim.plan) == (None, None)
    assert claim.message == ("mine printed a plan holding an integer of more than 4300 digits (output line 2): "
                             "expected a JSON list of moves")

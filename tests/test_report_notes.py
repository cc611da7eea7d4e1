"""Every note on the verdicts reaches every report format, and formulations counted as
independent whose recorded effort is identical are named (`crosscheck.harness.judging.same_effort`).

The records are made here, not run: two formulations that share a component (their
agreements rest on one line of evidence), a pair that declares nothing shared but expands
the same number of states everywhere (a copy with do-nothing edits), and runs whose
environment only some carry (a plugin's distribution)."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from crosscheck.harness.judging.same_effort import same_effort
from crosscheck.harness.judging.unanswered import Unanswered
from crosscheck.harness.judging.verdicts import judged
from crosscheck.harness.records.record import RunRecord
from crosscheck.harness.reports.html import build
from crosscheck.harness.reports.tables import evidence_notes, failure_reasons, note_lines, render
from crosscheck.solvers.base import Status

INSTANCES = ("e/a.txt", "e/b.txt", "e/c.txt")


def proof(instance: str, solver: str, expanded: int | None, shares: Sequence[str] = (), cost: int = 11,
          environment: dict[str, Any] | None = None) -> RunRecord:
    """An exact elevator answer with a checked plan, `expanded` states recorded (none for None)."""
    return RunRecord(instance=instance, puzzle="elevator", solver=solver, status=Status.OPTIMAL, cost=cost,
                     bound=cost, plan_valid=True, checked_cost=cost, shares=list(shares), seconds=0.5,
                     stats={} if expanded is None else {"expanded": expanded}, environment=environment or {})


def twins(efforts: Sequence[tuple[int, int]], first: str = "quot", second: str = "quot2") -> list[RunRecord]:
    """Per instance of `INSTANCES`, `first` and `second` (sharing nothing declared) with the given efforts."""
    return [run for instance, (a, b) in zip(INSTANCES, efforts, strict=False)
            for run in (proof(instance, first, a, ["q1"]), proof(instance, second, b, ["q2"]))]


def test_identical_telling_effort_on_three_instances_warns_naming_both_and_the_instances() -> None:
    warnings = same_effort(twins([(73, 73), (4506, 4506), (38, 38)]))
    assert len(warnings) == 1
    warning = warnings[0]
    assert warning.startswith("quot and quot2: independence doubtful")
    for described in ("e/a.txt (73 states)", "e/b.txt (4506 states)", "e/c.txt (38 states)"):
        assert described in warning
    assert "the same search" in warning


def test_effort_differing_on_one_instance_gives_no_warning() -> None:
    assert same_effort(twins([(73, 73), (4506, 4507), (38, 38)])) == []


def test_fewer_than_three_instances_of_identical_effort_give_no_warning() -> None:
    assert same_effort(twins([(73, 73), (4506, 4506)])) == []


def test_trivial_effort_neither_makes_nor_breaks_the_warning() -> None:
    """Tiny searches may count alike by chance: 3 states twice does not make a third instance."""
    assert same_effort(twins([(73, 73), (4506, 4506), (3, 3)])) == []
    assert len(same_effort([*twins([(73, 73), (4506, 4506), (38, 38)]), proof("e/d.txt", "quot", 3, ["q1"]),
                            proof("e/d.txt", "quot2", 4, ["q2"])])) == 1


def test_formulations_already_sharing_a_component_are_not_warned_about() -> None:
    records = [proof(i, name, 73, ["shared"]) for i in INSTANCES for name in ("quot", "quot2")]
    assert same_effort(records) == []


def test_the_warning_never_changes_the_independent_count() -> None:
    records = twins([(73, 73), (4506, 4506), (38, 38)])
    runs = judged(records)
    assert [v.independent for v in runs.verdicts] == [2, 2, 2]
    assert same_effort(records)[0] in evidence_notes(runs)


def _noted_runs() -> list[RunRecord]:
    """Twins on three instances; two formulations sharing a component agreeing alone on e/d.txt;
    and a crash."""
    return [*twins([(73, 73), (4506, 4506), (38, 38)]),
            proof("e/d.txt", "quot", 20, ["q1"]), proof("e/d.txt", "copy", 21, ["q1"]),
            RunRecord(instance="e/d.txt", puzzle="elevator", solver="broken", status=Status.ERROR,
                      message="ValueError: <oops>")]


def test_every_note_of_the_terminal_reaches_markdown_latex_and_the_html_page() -> None:
    runs = judged(_noted_runs())
    lines = note_lines(runs)
    one_line = "e/d.txt: agree on one line of evidence: 2 exact (1 independent): quot, copy"
    assert one_line in lines and any("quot and quot2: independence doubtful" in line for line in lines)
    markdown = render(runs, "markdown")
    latex = render(runs, "latex")
    comments = [line[2:] for line in latex.splitlines() if line.startswith("% ")]
    page = html.unescape(build(runs))
    for line in lines:
        assert line in markdown and line in comments
    for line in evidence_notes(runs):
        assert line in page
    evidence = re.search(r'<ul id="evidence-notes" class="note">(.*?)</ul>', build(runs), re.DOTALL)
    assert evidence and one_line in html.unescape(evidence[1])


def test_the_environment_table_says_how_many_runs_carry_a_value_some_lack() -> None:
    plugin = {"solver_distribution": "my-lifts", "python": "3.11"}
    builtin = {"python": "3.11"}
    records = [proof("e/a.txt", "mine", 50, environment=plugin), proof("e/b.txt", "mine", 60, environment=plugin),
               *(proof(i, "bfs", 70, environment=builtin) for i in INSTANCES)]
    page = build(judged(records))
    table = page.split('id="environment"')[1].split("</table>")[0]
    cells = dict(re.findall(r"<tr><td[^>]*>(.*?)</td><td[^>]*>(.*?)</td></tr>", table))
    assert cells["solver_distribution"] == "my-lifts (2 of 5 runs)"
    assert cells["python"] == "3.11"  # every run carries it: no count


def failed(instance: str, status: Status, message: str, solver: str = "mine",
           environment: dict[str, Any] | None = None) -> RunRecord:
    return RunRecord(instance=instance, puzzle="elevator", solver=solver, status=status, message=message,
                     environment=environment or {})


def test_every_distinct_reason_a_run_failed_or_timed_out_is_counted_in_the_notes() -> None:
    """A crash unlike the first is not shadowed by it, and timeouts are noted as hunt counts
    them (their messages differ by the seconds only: one line per solver)."""
    runs = [failed("e/a.txt", Status.ERROR, "mine printed a plan that is not JSON (output line 2): ..."),
            failed("e/b.txt", Status.ERROR, "mine printed a plan that is not JSON (output line 2): ..."),
            failed("e/c.txt", Status.ERROR, "RuntimeError: boom\nTraceback ..."),
            failed("e/a.txt", Status.TIMEOUT, "killed after 7.1 s wall (limit 5.0 s wall)", "slow"),
            failed("e/b.txt", Status.TIMEOUT, "killed after 7.3 s wall (limit 5.0 s wall)", "slow")]
    reasons = ["mine: 2 of 3 error runs; on e/a.txt: mine printed a plan that is not JSON (output line 2): ...",
               "mine: 1 of 3 error runs; on e/c.txt: RuntimeError: boom",
               "slow: 2 timeout runs; on e/a.txt: killed after 7.1 s wall (limit 5.0 s wall)"]
    assert failure_reasons(runs) == reasons
    notes = note_lines(judged(runs))
    assert all(reason in notes for reason in reasons)
    page = html.unescape(build(judged(runs)))
    assert all(reason in page for reason in reasons)


def test_a_program_that_declined_everything_is_named_with_its_first_instance_by_name() -> None:
    """Parallel runs finish in any order: the note quotes the run on the first instance by
    name, so the same records give the same note whatever their order."""
    runs = [failed(instance, Status.UNSUPPORTED, f"no {instance}", "decliner") for instance in INSTANCES]
    notes = {tuple(Unanswered().add(order).declined_everywhere()) for order in (runs, runs[::-1])}
    assert notes == {("decliner: unsupported on all 3 instances it was given (it tested nothing); "
                      "on e/a.txt: no e/a.txt",)}


def test_a_timeout_or_memout_without_a_message_is_told_by_a_message_of_its_group_or_by_its_limit() -> None:
    """A solver that stops at its own deadline says nothing: the line shows the first run
    of the group that has a message (and its instance), else the limit the record names."""
    limits = {"time_limit": 5.0, "clock": "cpu", "memory_limit_mb": 2048}
    runs = [failed("e/a.txt", Status.TIMEOUT, "", "quiet", limits),
            failed("e/b.txt", Status.TIMEOUT, "", "quiet", limits),
            failed("e/a.txt", Status.TIMEOUT, "", "told", limits),
            failed("e/b.txt", Status.TIMEOUT, "  \n", "told", limits),
            failed("e/c.txt", Status.TIMEOUT, "killed after 7.1 s wall (limit 5.0 s wall)", "told", limits),
            failed("e/a.txt", Status.MEMOUT, "", "hungry", limits),
            failed("e/a.txt", Status.TIMEOUT, "", "old"),  # a record that names no limit
            failed("e/a.txt", Status.ERROR, "", "mute", limits)]
    assert failure_reasons(runs) == ["quiet: 2 timeout runs; on e/a.txt: time limit of 5 s cpu reached (no message)",
                                     "told: 3 timeout runs; on e/c.txt: killed after 7.1 s wall (limit 5.0 s wall)",
                                     "hungry: 1 memout run; on e/a.txt: memory limit of 2048 MB reached (no message)",
                                     "old: 1 timeout run; on e/a.txt: no message",
                                     "mute: 1 error run; on e/a.txt: no message"]
    notes = note_lines(judged(runs))
    assert "quiet: 2 timeout runs; on e/a.txt: time limit of 5 s cpu reached (no message)" in notes


def test_the_run_a_failure_reason_quotes_does_not_depend_on_the_order_runs_finished_in() -> None:
    """Parallel runs arrive in any order: each line quotes the run of its group on the first
    instance by name (the first with a message, for a timeout)."""
    runs = [failed("e/c.txt", Status.ERROR, "RuntimeError: boom"),
            failed("e/b.txt", Status.ERROR, "ValueError: bad"),
            failed("e/a.txt", Status.ERROR, "RuntimeError: boom"),
            failed("e/c.txt", Status.TIMEOUT, "killed after 7.3 s wall (limit 5.0 s wall)", "slow"),
            failed("e/a.txt", Status.TIMEOUT, "", "slow"),
            failed("e/b.txt", Status.TIMEOUT, "killed after 7.1 s wall (limit 5.0 s wall)", "slow")]
    expected = {"mine: 2 of 3 error runs; on e/a.txt: RuntimeError: boom",
                "mine: 1 of 3 error runs; on e/b.txt: ValueError: bad",
                "slow: 3 timeout runs; on e/b.txt: killed after 7.1 s wall (limit 5.0 s wall)"}
    assert set(failure_reasons(runs)) == set(failure_reasons(runs[::-1])) == expected

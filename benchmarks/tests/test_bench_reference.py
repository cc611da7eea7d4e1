"""The per-file benchmark against a compiled program (benchmarks/bench_reference.py): its judging
and figures, never its timings.  A program whose answer differs must show as a difference, one
that gives no answer must not count in the ratios."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from benchmarks.bench_reference import ProgramRun, Row, SolveRun, main, row_figures, verdict

ROOT = Path(__file__).resolve().parents[2]


def _row(program: list[ProgramRun], solve: list[SolveRun]) -> Row:
    return Row("file.txt", "part 1", program, solve, solve)


def test_equal_answers_agree_and_give_ratios() -> None:
    row = _row([ProgramRun(0.01, 0.002, "13"), ProgramRun(0.01, 0.004, "13")], [SolveRun(0.5, 0.006, "13")])
    assert verdict(row) == "agree (13)"
    reference, program_wall, warm, solver, wall, warm_ratio, solver_ratio, wall_ratio = row_figures(row)
    assert (reference, warm, warm_ratio, wall_ratio) == (0.003, 0.006, 2.0, 50.0)


def test_a_different_answer_differs() -> None:
    row = _row([ProgramRun(0.01, 0.002, "11")], [SolveRun(0.5, 0.006, "13")])
    assert verdict(row).startswith("DIFFER")
    assert verdict(_row([ProgramRun(0.01, 0.002, "11")], [SolveRun(0.5, 0.006, "infeasible")])).startswith("DIFFER")


def test_no_answer_is_no_difference_and_no_ratio() -> None:
    row = _row([ProgramRun(0.01, None, "no answer (panicked)")], [SolveRun(0.5, 0.006, "infeasible")])
    assert verdict(row) == "program no answer (panicked)"
    assert row_figures(row)[5] is None


@pytest.mark.slow
def test_one_run_on_a_published_facility(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A program printing the known optimum 11 (and its seconds) agrees; one printing 9 differs."""
    shutil.copy(ROOT / "instances" / "elevator" / "two-pairs-example.txt", tmp_path / "example.txt")
    program = tmp_path / "answer.py"
    program.write_text("import sys\nprint('seconds: 0.001', file=sys.stderr)\nprint(sys.argv[1])\n")
    assert main([str(tmp_path), "--part1", f"{sys.executable} {program} 11", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "agree (11)" in out and "| 0.00100 |" in out
    assert main([str(tmp_path), "--part1", f"{sys.executable} {program} 9", "--repeat", "1"]) == 1

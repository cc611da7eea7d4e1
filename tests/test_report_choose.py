"""`report --solver` / `--exclude-solver`: a formulation left out of a report is left out of
its verdicts too, and every format names it (hand-made records, no timing)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pandas
import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.records.record import RunRecord, append_record
from crosscheck.solvers.base import Status


def _exact(instance: str, solver: str, cost: int, seconds: float) -> RunRecord:
    return RunRecord(instance=instance, puzzle="keys", solver=solver, status=Status.OPTIMAL, cost=cost, bound=cost,
                     plan_valid=True, checked_cost=cost, seconds=seconds, plan=[])


def _study(folder: Path) -> Path:
    """a and b agree on three vaults; 'wrong' claims a proven optimum of 9 on the first
    (false-optimal) and times out on the rest, so it is in no instance's common set."""
    path = folder / "runs.jsonl"
    for n in range(3):
        name = f"keys/gen/{n}.txt"
        records = [_exact(name, "a", 8, 0.1 * (n + 1)), _exact(name, "b", 8, 0.2 * (n + 1)),
                   _exact(name, "wrong", 9, 1.0) if n == 0 else
                   RunRecord(instance=name, puzzle="keys", solver="wrong", status=Status.TIMEOUT, seconds=60.0)]
        for record in records:
            append_record(path, record)
    return path


def _report(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["report", *args])
    return result.exit_code, result.stdout, result.stderr


def test_excluding_a_solver_judges_again_and_says_so(tmp_path: Path) -> None:
    path = str(_study(tmp_path))
    code, out, _ = _report(path)
    assert code == 1 and out.splitlines()[-1] == "3 instances: 1 false-optimal, 2 agree"
    for options in (["--exclude-solver", "wrong"], ["--solver", "a", "--solver", "b"]):
        code, out, err = _report(path, *options)
        option = options[0]
        remark = f"left out by {option}: wrong (3 runs); verdicts, tables and figures are over the other"
        assert code == 0 and out.startswith(remark), out
        assert remark in err
        assert out.splitlines()[-1] == "3 instances: 3 agree"
        assert not re.search(r"\bwrong\b", out.split("\n\n", 1)[1]), out  # no row of it


def test_the_family_table_without_a_formulation_compares_the_others_on_all_they_solved(tmp_path: Path) -> None:
    """'wrong' solved one vault of three: with it, a and b are timed on one common instance."""
    path = str(_study(tmp_path))
    _, before, _ = _report(path, "--by", "family", "--format", "latex")
    assert re.search(r"keys & keys/gen & a & 3 & 3 & 3 & \d & 1 & 0\.100 & ", before), before
    _, after, _ = _report(path, "--by", "family", "--format", "latex", "--exclude-solver", "wrong")
    assert "% left out by --exclude-solver: wrong (3 runs);" in after
    assert re.search(r"keys & keys/gen & a & 3 & 3 & 3 & 3 & 3 & 0\.200 & ", after), after


def test_the_html_page_names_the_solver_left_out(tmp_path: Path) -> None:
    path = _study(tmp_path)
    page = tmp_path / "report.html"
    code, _, _ = _report(str(path), "--format", "html", "-o", str(page), "--exclude-solver", "wrong")
    notes = page.read_text(encoding="utf-8").split('<ul id="read-notes" class="note">')[1].split("</ul>")[0]
    assert code == 0 and "left out by --exclude-solver: wrong (3 runs)" in notes


@pytest.mark.parametrize(("options", "left_out"), [
    ((), ""), (("--exclude-solver", "wrong"), "wrong"), (("--solver", "a"), "b;wrong")])
def test_data_files_name_the_solvers_left_out_in_a_column(tmp_path: Path, options: tuple[str, ...],
                                                          left_out: str) -> None:
    """Read later, a CSV, JSON Lines or Parquet file says which solvers its verdicts (and its
    summaries) were judged without, in a column every reader takes: pandas, json.loads per line."""
    path = str(_study(tmp_path))
    verdicts = {"": {"false-optimal", "agree"}, "wrong": {"agree"}, "b;wrong": {"agree"}}[left_out]
    _, out, _ = _report(path, "--format", "csv", *options)
    table = pandas.read_csv(io.StringIO(out), keep_default_na=False)
    assert table["left_out"].tolist() == [left_out] * len(table) and set(table["verdict"]) == verdicts
    _, out, _ = _report(path, "--format", "jsonl", *options)
    assert [json.loads(line)["left_out"] for line in out.splitlines()] == [left_out] * len(table)
    for by in ("solver", "family"):
        for fmt in ("csv", "jsonl"):
            _, out, _ = _report(path, "--format", fmt, "--by", by, *options)
            summary = pandas.read_csv(io.StringIO(out), keep_default_na=False) if fmt == "csv" else \
                pandas.DataFrame([json.loads(line) for line in out.splitlines()])
            assert len(summary) and summary["left_out"].tolist() == [left_out] * len(summary), (by, fmt, out)
    parquet = tmp_path / "runs.parquet"
    code, _, _ = _report(path, "--format", "parquet", "-o", str(parquet), *options)
    assert code == (1 if "false-optimal" in verdicts else 0)  # the exit status is the verdicts'
    assert pandas.read_parquet(parquet)["left_out"].tolist() == [left_out] * len(table)


def test_a_name_that_ran_nowhere_is_refused_naming_those_that_ran(tmp_path: Path) -> None:
    path = str(_study(tmp_path))
    code, _, err = _report(path, "--exclude-solver", "keys-fd")
    assert code == 2 and "no run of keys-fd in the records; their solvers: a, b, wrong" in err
    code, _, err = _report(path, "--solver", "a", "--exclude-solver", "b")
    assert code == 2 and "give one of them" in err
    code, _, err = _report(path, "--against", path, "--solver", "a")
    assert code == 2 and "--against" in err


def test_a_family_without_common_instances_says_why_it_has_no_times(tmp_path: Path) -> None:
    """'idle' times out on every vault: common is 0, and every format says so and names it."""
    path = tmp_path / "runs.jsonl"
    for n in range(2):
        name = f"keys/gen/{n}.txt"
        for record in (_exact(name, "a", 8, 0.1), RunRecord(instance=name, puzzle="keys", solver="idle",
                                                             status=Status.TIMEOUT, seconds=60.0)):
            append_record(path, record)
    line = ("keys keys/gen: common 0, no times: no instance was solved exactly by every solver (idle solved none "
            "exactly); report --exclude-solver NAME compares the others")
    _, table, _ = _report(str(path), "--by", "family")
    assert f"\n{line}\n" in table
    _, latex, _ = _report(str(path), "--by", "family", "--format", "latex")
    assert f"% {line}\n" in latex
    page = tmp_path / "report.html"
    _report(str(path), "--format", "html", "-o", str(page))
    assert f'<p class="note common-empty">{line}</p>' in page.read_text(encoding="utf-8")
    _, kept, _ = _report(str(path), "--by", "family", "--exclude-solver", "idle")
    assert "common 0" not in kept

"""``report OLD --against NEW`` finds planted regressions, and per-family aggregates and
the paired statistic compute what their docs say, on hand-made records (no timing)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.records.record import RunRecord, append_record
from crosscheck.harness.reports.aggregate import FAMILY_COLUMNS, VIRTUAL_BEST, cells, family_rows
from crosscheck.harness.reports.diff import diff, regressions, summary, worse
from crosscheck.harness.reports.latex import escape
from crosscheck.harness.reports.numbers import significant
from crosscheck.harness.reports.paired import compare_all
from crosscheck.models.answers import Optimum
from crosscheck.solvers.base import Status


def run(instance: str, solver: str, seconds: float, repeat: int = 0, cost: int | None = 8,
        status: Status = Status.OPTIMAL, valid: bool | None = True) -> RunRecord:
    """A run of `solver` on `instance` (expected optimum 8) taking `seconds`."""
    return RunRecord(instance=instance, puzzle="keys", solver=solver, status=status, cost=cost, bound=cost,
                     plan_valid=valid, checked_cost=cost if valid else None, seconds=seconds, repeat=repeat,
                     expected=Optimum(8), plan=[] if valid is not None else None)


def repeated(instance: str, solver: str, times: list[float], **fields: object) -> list[RunRecord]:
    return [run(instance, solver, seconds, repeat, **fields) for repeat, seconds in enumerate(times)]  # type: ignore[arg-type]


OLD = [*repeated("keys/a.txt", "fast", [1.0, 1.1, 0.9]), *repeated("keys/a.txt", "steady", [2.0, 2.2, 1.8]),
       *repeated("keys/b.txt", "fast", [1.0, 1.2, 0.8]), *repeated("keys/b.txt", "steady", [1.0, 1.1, 0.9])]


def _new(slow: bool, wrong: bool) -> list[RunRecord]:
    """OLD again, with `fast` slower on a.txt and/or a wrong plan of `fast` on b.txt."""
    a_fast = [2.0, 2.1, 1.9] if slow else [1.05, 0.95, 1.0]
    b_fast = repeated("keys/b.txt", "fast", [1.0, 1.2, 0.8], valid=False if wrong else True)
    return [*repeated("keys/a.txt", "fast", a_fast), *repeated("keys/a.txt", "steady", [2.1, 1.9, 2.0]),
            *b_fast, *repeated("keys/b.txt", "steady", [1.0, 1.05, 0.95])]


def test_a_planted_slowdown_is_flagged_beyond_noise() -> None:
    changes = {(c.instance, c.solver): c for c in diff(OLD, _new(slow=True, wrong=False))}
    assert changes["keys/a.txt", "fast"].timing == "slower" and changes["keys/a.txt", "fast"].listed
    assert changes["keys/a.txt", "steady"].timing == "within noise" and not changes["keys/a.txt", "steady"].listed
    assert not worse(list(changes.values()))


def test_unchanged_times_are_within_noise() -> None:
    changes = diff(OLD, _new(slow=False, wrong=False))
    assert {c.timing for c in changes} == {"within noise"} and not any(c.listed for c in changes)


def test_a_crashed_cell_has_no_time_ratio() -> None:
    """Crashes at different moments are no slowdown: no ratio, the times not compared, and a
    cell crashed on both sides is not listed for its times; a crash's time shows as '-'."""
    crashed = [run("keys/a.txt", "fast", seconds, repeat, cost=None, status=Status.ERROR, valid=None)
               for repeat, seconds in enumerate([0.1, 0.1, 0.1])]
    later = [r.model_copy(update={"seconds": 5.0}) for r in crashed]
    [change] = [c for c in diff(crashed, later) if c.solver == "fast"]
    assert (change.ratio, change.timing, change.listed) == (None, "not compared", False)
    [fixed] = [c for c in diff(crashed, OLD) if (c.instance, c.solver) == ("keys/a.txt", "fast")]
    assert fixed.row()[7:] == ["-", "1.00", "-", "error->optimal"] and fixed.listed  # listed for its status


def test_a_planted_verdict_change_exits_1(tmp_path: Path) -> None:
    paths = {}
    for name, records in (("old", OLD), ("new", _new(slow=True, wrong=True)), ("same", _new(False, False))):
        paths[name] = tmp_path / f"{name}.jsonl"
        for record in records:
            append_record(paths[name], record)
    result = CliRunner().invoke(main, ["report", str(paths["old"]), "--against", str(paths["new"])])
    assert result.exit_code == 1, result.output
    assert "worse: keys/b.txt: invalid-plan" in result.output
    lines = result.output.splitlines()
    assert any(line.split()[:2] == ["keys/a.txt", "fast"] and line.split()[-1] == "slower" for line in lines)
    assert any(line.split()[:6] == ["keys/b.txt", "fast", "optimal", "optimal", "agree", "invalid-plan"]
               for line in lines)
    same = CliRunner().invoke(main, ["report", str(paths["old"]), "--against", str(paths["same"])])
    assert same.exit_code == 0 and "no changes" in same.output, same.output


def test_family_rows_summarise_common_instances_and_the_virtual_best() -> None:
    records = [run("keys/gen/a.txt", "x", 1.0), run("keys/gen/a.txt", "y", 4.0),
               run("keys/gen/b.txt", "x", 9.0), run("keys/gen/b.txt", "y", 1.0),
               run("keys/gen/c.txt", "x", 2.0), run("keys/gen/c.txt", "y", 60.0, status=Status.TIMEOUT, valid=None)]
    table = {row[2]: dict(zip(FAMILY_COLUMNS, row, strict=True)) for row in family_rows(records)}
    assert {(row["puzzle"], row["family"]) for row in table.values()} == {("keys", "keys/gen")}
    assert (table["x"]["exact"], table["x"]["fastest"], table["x"]["common"]) == ("3", "2", "2")
    assert (table["y"]["exact"], table["y"]["fastest"]) == ("2", "1")
    assert table["x"]["geo mean s (common)"] == "3.00"  # sqrt(1 * 9) over a and b, c not common
    best = table[VIRTUAL_BEST]
    assert (best["exact"], best["median s (common)"], best["geo mean s (common)"]) == ("3", "1.00", "1.00")


def test_a_folder_of_two_puzzles_holds_two_families() -> None:
    """A folder ``mix`` with a vault and an elevator instance: each puzzle's formulations
    form their own family, and each virtual best covers its own puzzle only."""
    records = [run("mix/a.txt", "keys-x", 1.0), run("mix/a.txt", "keys-y", 2.0),
               run("mix/e.txt", "lift-x", 0.1).model_copy(update={"puzzle": "elevator"})]
    table = {(row[0], row[2]): dict(zip(FAMILY_COLUMNS, row, strict=True)) for row in family_rows(records)}
    assert set(table) == {("elevator", "lift-x"), ("elevator", VIRTUAL_BEST), ("keys", "keys-x"),
                          ("keys", "keys-y"), ("keys", VIRTUAL_BEST)}
    assert table["keys", VIRTUAL_BEST]["instances"] == "1" and table["keys", "keys-x"]["common"] == "1"
    assert table["elevator", VIRTUAL_BEST]["median s (common)"] == "0.100"


def test_times_keep_three_significant_digits() -> None:
    """A fast solver's 5e-5 s is not 0.000, and a ratio of 5 prints as 5.00 beside 5.28."""
    assert [significant(v) for v in (5e-5, 0.0523, 5.0, 5.28, 123.4, 1234.5, 0.0)] == \
        ["5.00e-05", "0.0523", "5.00", "5.28", "123", "1234", "0"]
    records = [run("keys/gen/a.txt", "x", 5e-5), run("keys/gen/a.txt", "y", 5e-5 * 5.28)]
    row = dict(zip(FAMILY_COLUMNS, family_rows(records)[0], strict=True))
    assert row["median s (common)"] == "5.00e-05"


def test_the_paired_statistic_finds_a_planted_factor() -> None:
    """b takes twice a's time on six instances, with repeats: the interval holds 2 and
    the signed-rank test rejects equality (all six signs agree: p = 2/64)."""
    records = []
    for number in range(6):
        base = 1.0 + number
        records += repeated(f"keys/{number}.txt", "a", [base, base * 1.05, base * 0.95])
        records += repeated(f"keys/{number}.txt", "b", [2 * base, 2 * base * 1.05, 2 * base * 0.95])
    [result] = compare_all(cells(records))
    assert (result.a, result.b, result.instances, result.repeats) == ("a", "b", 6, 3)
    assert abs(result.ratio - 2.0) < 1e-9 and result.low <= 2.0 <= result.high and result.high < 2.3
    assert result.p_value is not None and abs(result.p_value - 2 / 64) < 1e-9


def test_latex_escapes_special_characters() -> None:
    assert escape("keys_fd 50% & $x#{y}") == r"keys\_fd 50\% \& \$x\#\{y\}"


def test_pairs_run_on_one_side_are_counted_apart_from_status_changes() -> None:
    """A NEW file covering fewer instances is not a pile of status changes."""
    line = summary(diff(OLD, [r for r in _new(slow=False, wrong=False) if r.instance == "keys/a.txt"]))
    assert "2 only in OLD, 0 only in NEW; 0 status changes" in line


def test_the_summary_line_counts_in_the_singular_and_the_plural() -> None:
    one = [r for r in OLD if r.instance == "keys/a.txt" and r.solver == "fast"]
    changed = [r.model_copy(update={"plan_valid": False}) for r in one]
    assert summary(diff(one, changed)).startswith("1 instance, 1 (instance, solver) pair: 1 verdict worse, 0 better; "
                                                  "0 status changes, 0 exact answers changed, 1 exact answer lost; ")
    assert summary(diff(OLD, OLD)).startswith("2 instances, 4 (instance, solver) pairs: 0 verdicts worse, ")


def lone(cost: int | None, status: Status = Status.OPTIMAL, solver: str = "lift", instance: str = "e.txt") -> RunRecord:
    """A formulation's exact answer on an instance the index does not list (no expected optimum)."""
    return RunRecord(instance=instance, puzzle="elevator", solver=solver, status=status, cost=cost, bound=cost,
                     plan_valid=True if cost is not None else None, checked_cost=cost, plan=[] if cost else None)


def test_a_changed_optimum_of_one_formulation_is_a_regression_though_both_sides_agree(tmp_path: Path) -> None:
    """Two moves longer and still called optimal: agree on both sides, no status change, yet one
    of the two answers is wrong."""
    paths = [tmp_path / "old.jsonl", tmp_path / "new.jsonl"]
    for path, records in zip(paths, ([lone(19), lone(15, instance="f.txt")], [lone(21), lone(15, instance="f.txt")]), strict=True):
        for record in records:
            append_record(path, record)
    result = CliRunner().invoke(main, ["report", str(paths[0]), "--against", str(paths[1])])
    assert result.exit_code == 1, result.output
    assert "changed: e.txt lift: exact answer 19 -> 21" in result.output and "changed: f.txt" not in result.output
    assert any(line.split()[:8] == ["e.txt", "lift", "optimal", "19", "optimal", "21", "agree", "agree"]
               for line in result.output.splitlines()), result.output
    assert "0 status changes, 1 exact answer changed, 0 exact answers lost" in result.output


def test_an_optimum_turned_infeasible_is_a_changed_answer_and_a_same_answer_is_not() -> None:
    [change] = diff([lone(19)], [lone(None, Status.INFEASIBLE)])
    assert change.answer_changed and change.listed and "exact answer 19 -> infeasible" in regressions([change])[0]
    [same] = diff([lone(19)], [lone(19)])
    assert not same.answer_changed and not same.listed and not regressions([same])


def test_two_formulations_that_agreed_and_now_disagree_are_a_worse_verdict() -> None:
    old = [lone(19, solver="a"), lone(19, solver="b")]
    changes = diff(old, [lone(21, solver="a"), lone(19, solver="b")])
    [verdict] = worse(changes)
    assert verdict.verdict.value == "false-optimal"  # a claims 21, b's checked plan costs 19
    assert regressions(changes)[:2] == ["worse: e.txt: false-optimal: a claimed optimum 21, b has a checked plan "
                                        "of cost 19", "changed: e.txt a: exact answer 19 -> 21"]

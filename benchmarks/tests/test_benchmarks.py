"""Benchmarks are repeatable: warm-up and repetitions saved as pyperf JSON, and two saved
runs compared with regressions flagged only beyond noise."""

from __future__ import annotations

import importlib.util
import math
import re
import sys
from pathlib import Path

import crosscheck.solvers.registry
import pyperf
import pytest
from crosscheck.harness.records.record import environment
from crosscheck.models.elevator.model import generate
from crosscheck.solvers.base import Answer, Clock, Deadline, Solver, Status

from benchmarks import bench_elevator, bench_exposure, bench_hunt, bench_keys_cpsat, bench_main, speed
from benchmarks.compare import change, main
from benchmarks.results_file import END, Provenance, section, update
from benchmarks.targets import parse, report, table
from benchmarks.timing import Timer

OLD = Provenance("python -m benchmarks.x", "0000000", "2026-01-01", "0.00 0.00 0.00", "host h, 2 cpus")


class Counting(Solver):
    """Counts its solves (the test checks warm-ups and repetitions are all run)."""

    name, puzzle, summary = "counting", "elevator", "counts calls"
    calls = 0

    def _solve(self, instance: object, deadline: Deadline) -> Answer:
        Counting.calls += 1
        return Answer(Status.TIMEOUT, bound=3)


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_timer_runs_warmups_then_repetitions_and_saves_them(tmp_path: Path, clock: Clock) -> None:
    Counting.calls = 0
    timer = Timer(warmups=2, repeat=3, clock=clock, save=tmp_path / "run.json")
    timed = timer.solve(Counting(), generate(0, pairs=1), 1.0, group="tiny")
    timer.save()
    assert Counting.calls == 5 and len(timed.values) == 3 and timed.result.status is Status.TIMEOUT
    [bench] = pyperf.BenchmarkSuite.load(str(tmp_path / "run.json")).get_benchmarks()
    assert bench.get_name() == f"tiny/counting/{generate(0, pairs=1).name}"
    assert len(bench.get_values()) == 3 and bench.get_runs()[0].warmups is not None
    assert len(bench.get_runs()[0].warmups) == 2
    assert bench.get_metadata()["clock"] == clock and bench.get_metadata()["status"] == "timeout"


def test_timing_needs_pyperf_only_to_save_and_says_so_before_timing(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the analysis extra a benchmark times and prints; asked to save, it stops at
    once (it used to time everything, then fail on the import)."""
    monkeypatch.setitem(sys.modules, "pyperf", None)  # `import pyperf` now fails
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "pyperf"
                        else real_find_spec(name, *rest))
    Counting.calls = 0
    timer = Timer(warmups=0, repeat=2)
    timer.solve(Counting(), generate(0, pairs=1), 1.0)
    timer.save()
    assert Counting.calls == 2
    with pytest.raises(SystemExit, match=r"--save .*run\.json needs the analysis extra \(pyperf not installed\): "
                       r"\.venv/bin/pip install -e '\.\[analysis\]'"):
        Timer(save=tmp_path / "run.json")


class ClockRecording(Solver):
    """Keeps the clock of the deadline it was given."""

    name, puzzle, summary = "clock-recording", "elevator", "keeps its deadline's clock"
    clocks: list[str] = []

    def _solve(self, instance: object, deadline: Deadline) -> Answer:
        ClockRecording.clocks.append(deadline.clock)
        return Answer(Status.TIMEOUT)


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_a_solves_time_limit_counts_on_the_timers_clock(clock: Clock) -> None:
    ClockRecording.clocks = []
    Timer(warmups=0, repeat=1, clock=clock).solve(ClockRecording(), generate(0, pairs=1), 1.0)
    assert ClockRecording.clocks == [clock]


def test_keys_cpsat_counts_a_run_stopped_by_its_limit_as_not_finished(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["bench_keys_cpsat", "--seeds", "0", "--robots", "4", "--limit", "0.001",
                                      "--example", "skip", "--warmups", "0", "--repeat", "1"])
    bench_keys_cpsat.main()
    [target] = parse(capsys.readouterr().out.splitlines())
    assert "r4" in target.name and target.values == (math.inf,) and target.max_limit == 60 and not target.met


def test_elevator_cpsat_states_the_facilities_without_solution_as_targets(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["bench_elevator", "--seeds", "1", "--cpsat", "0", "--cpsat-unsolvable",
                                      "--no-quotient-targets", "--warmups", "0", "--repeat", "1"])
    bench_elevator.main()
    targets = parse(capsys.readouterr().out.splitlines())
    [published] = [t for t in targets if "p5-no-solution" in t.name]
    assert len(published.values) == 1 and math.isfinite(published.values[0])  # proven, not stopped
    assert not any("quotient" in t.name for t in targets)


def test_only_changes_beyond_noise_are_flagged() -> None:
    old = [1.0, 1.1, 1.2]
    assert change("x", old, [1.5, 1.6, 1.7], 0.1).verdict == "slower"
    assert change("x", old, [0.5, 0.6, 0.7], 0.1).verdict == "faster"
    assert change("x", old, [1.15, 1.5, 1.6], 0.1).verdict == "same"  # the ranges overlap
    assert change("x", old, [1.205, 1.207, 1.209], 0.1).verdict == "same"  # within the threshold
    assert change("x", [0.0001] * 3, [0.001] * 3, 0.1).verdict == "same"  # below the clock's resolution


def _suite(path: Path, values: list[float], clock: str = "wall") -> str:
    run = pyperf.Run(values, metadata={"name": "b", "unit": "second", "loops": 1, "clock": clock},
                     collect_metadata=False)
    pyperf.BenchmarkSuite([pyperf.Benchmark([run])]).dump(str(path), replace=True)
    return str(path)


def test_compare_exits_1_on_a_regression(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = _suite(tmp_path / "old.json", [1.0, 1.1, 1.2])
    assert main([old, _suite(tmp_path / "same.json", [1.05, 1.1, 1.15])]) == 0
    assert main([old, _suite(tmp_path / "slow.json", [2.0, 2.1, 2.2])]) == 1
    assert "slower" in capsys.readouterr().out
    assert main([old, _suite(tmp_path / "cpu.json", [2.0, 2.1, 2.2], "cpu")]) == 0
    assert "different clocks" in capsys.readouterr().out


def test_a_benchmark_script_saves_its_timings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "elevator.json"
    monkeypatch.setattr(sys, "argv", ["bench_elevator", "--seeds", "2", "--cpsat", "0", "--warmups", "0",
                                      "--repeat", "2", "--save", str(saved)])
    bench_elevator.main()
    names = {bench.get_name() for bench in pyperf.BenchmarkSuite.load(str(saved)).get_benchmarks()}
    assert len(names) == 4 and all(name.split("/")[1] == "elevator-quotient" for name in names)
    assert "target s" in capsys.readouterr().out  # the script's own table is still printed


def test_isolated_timing_runs_each_repetition_in_its_own_process(tmp_path: Path) -> None:
    timer = Timer(warmups=1, repeat=2, clock="cpu", save=tmp_path / "isolated.json")
    instance = generate(0, pairs=1)
    runs = timer.isolated("elevator-quotient", instance, 10.0, group="tiny")
    timer.save()
    assert [r.repeat for r in runs] == [0, 1] and all(r.cpu_seconds and r.plan_valid is not False for r in runs)
    median = Timer.median_record(runs)
    assert median.peak_memory_mb == max(r.peak_memory_mb or 0 for r in runs)
    [bench] = pyperf.BenchmarkSuite.load(str(tmp_path / "isolated.json")).get_benchmarks()
    assert list(bench.get_values()) == [r.cpu_seconds for r in runs]  # no warm-up: each run is a new process



def test_speed_runs_each_benchmark_keeps_its_output_and_reports_failures(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(speed, "BENCHMARKS", {
        "quick": ["bench_elevator", "--seeds", "1", "--cpsat", "0", "--warmups", "0", "--repeat", "1"],
        "broken": ["bench_elevator", "--no-such-option"],
    })
    monkeypatch.setattr(sys, "argv", ["speed", "--out", str(tmp_path)])
    with pytest.raises(SystemExit) as ended:
        speed.main()
    assert ended.value.code == 1 and "failed: broken" in capsys.readouterr().out
    kept = (tmp_path / "quick.txt").read_text()
    assert kept.startswith("# .venv/bin/python -m benchmarks.bench_elevator --seeds 1") and "load average" in kept
    assert "elevator-quotient" in kept and re.search(r"\n# exit status 0, [\d.e+-]+ s wall\n$", kept)
    assert "# exit status 2" in (tmp_path / "broken.txt").read_text()
    targets = (tmp_path / "targets.txt").read_text()  # the benchmark's targets, gathered into one table
    assert re.search(r"^elevator-quotient, 5 pairs, feasible \(wall\) +1 +[\d.e-]+ s +0.05 s", targets, re.M)


def test_a_target_reads_back_as_printed_and_an_unfinished_run_never_meets_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    met = report("quick", [0.1, 0.2, 0.4], median_limit=0.5, max_limit=0.5)
    missed = report("slow", [0.1, math.inf, 0.2], max_limit=60)
    assert parse(capsys.readouterr().out.splitlines()) == [met, missed]
    assert met.met and (met.median, met.max) == (0.2, 0.4)
    assert not missed.met and missed.max == math.inf
    exact = report("none wrong", [0.0], unit="", max_limit=0)
    wrong = report("one wrong", [1.0], unit="", max_limit=0)
    rows = table([met, missed, exact, wrong]).splitlines()
    assert rows[1].split() == ["quick", "3", "0.200", "s", "0.5", "s", "0.400", "0.400", "s", "0.5", "s", "0.800",
                               "yes"]
    assert rows[2].split()[-5:] == ["none", "60", "s", "inf", "NO"]  # an unfinished run: "none", no unit
    assert rows[3].split()[-2:] == ["0", "yes"] and rows[4].split()[-2:] == ["inf", "NO"]  # a limit of 0
    with pytest.raises(ValueError, match="no limit"):
        report("vague", [1.0])


def test_the_hunt_benchmark_reports_each_planted_mistake_found_and_shrunk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(crosscheck.solvers.registry, "SOLVERS", dict(crosscheck.solvers.registry.SOLVERS))
    monkeypatch.setattr(sys, "argv", ["bench_hunt", "--only", "keys-onepath", "--seeds", "1", "--examples", "100",
                                      "--shrink-examples", "10", "--out", str(tmp_path)])
    bench_hunt.main()
    output = capsys.readouterr().out
    assert output.startswith("hunts of 100 instances (+10 instances shrinking), seeds [1]")
    assert re.search(r"keys-onepath +seed 1 .* false-(infeasible|optimal) after \d+ instances.*; shrunk keys=", output)
    assert "keys-onepath           found with 1/1 seeds" in output
    assert (tmp_path / "keys-onepath-seed1" / "judged.jsonl").exists()


def test_the_exposure_benchmark_counts_the_facilities_each_planted_mistake_gets_wrong(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Three pairs on two floors: both mistakes show on some safe starts (never two down on
    three of the ten, the unchecked floor left on four), so some of 40 draws expose each."""
    monkeypatch.setattr(sys, "argv", ["bench_exposure", "--draws", "40", "-p", "pairs=3", "-p", "floors=2"])
    bench_exposure.main()
    output = capsys.readouterr().out
    assert output.startswith("40 facilities drawn")
    counts = {name: int(count) for name, count in re.findall(r"^(elevator-\w+|timeouts) +(\d+)$", output, re.M)}
    assert counts["elevator-nodown2"] > 0 and counts["elevator-leftfloor"] > 0 and counts["timeouts"] == 0


def test_speed_writes_each_benchmarks_table_with_command_commit_date_and_load(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A tiny benchmark (one seed, no CP-SAT) replaces its own section of the results file and
    leaves the hand-written text and the other sections; a failed one leaves its last table."""
    results = tmp_path / "results.md"
    results.write_text("# Results\n\nHand-written.\n\n" + section("broken", OLD, "old table\n", "exit status 0")
                       + "\n" + section("quick", OLD, "old quick table\n", "exit status 0") + "\nAfter.\n")
    monkeypatch.setattr(speed, "BENCHMARKS", {
        "quick": ["bench_elevator", "--seeds", "1", "--cpsat", "0", "--warmups", "0", "--repeat", "1"],
        "broken": ["bench_elevator", "--no-such-option"],
    })
    with pytest.raises(SystemExit):
        speed.main(["--out", str(tmp_path / "runs"), "--write", str(results)])
    text = results.read_text()
    text, targets = text.split("<!-- speed:targets -->")  # a new section, at the end: no end marker here
    assert text.startswith("# Results\n\nHand-written.\n\n") and text.endswith("\nAfter.\n\n")
    assert "TARGET" not in text  # the machine-read lines stay out of a benchmark's table
    assert "- command: `.venv/bin/python -m benchmarks.speed`" in targets and "1 of 2 benchmarks ran" in targets
    assert "elevator-quotient, 5 pairs, feasible (wall)" in targets
    assert "old table" in text and "old quick table" not in text  # broken kept, quick replaced
    quick = text[text.index("<!-- speed:quick -->"): text.index("<!-- /speed:quick -->")]
    commit = environment()["commit"]
    assert "- command: `.venv/bin/python -m benchmarks.bench_elevator --seeds 1 --cpsat 0" in quick
    assert re.search(rf"- commit: `{commit}`; date: \d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\d; "
                     r"load average at the start: \d+\.\d\d \d+\.\d\d \d+\.\d\d \(host ", quick)
    assert "elevator-quotient, seeds 0..0" in quick and "- exit status 0" in quick


def test_a_new_benchmark_section_goes_before_the_end_marker_or_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "results.md"
    update(path, "a", section("a", OLD, "table a", "exit status 0"))
    update(path, "b", section("b", OLD, "table b ```", "exit status 0"))
    text = path.read_text()
    assert text.index("table a") < text.index("table b") and "````text\ntable b ```\n````" in text
    path.write_text(f"top\n{END}\nbottom\n")
    update(path, "c", section("c", OLD, "table c", "exit status 0"))
    assert path.read_text().startswith("top\n<!-- speed:c -->") and path.read_text().endswith(f"\n{END}\nbottom\n")


def test_the_main_command_benchmark_states_its_three_targets_from_the_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "instances"
    folder.mkdir()
    (folder / "tiny.txt").write_text("#####\n#@.a#\n#####\n")
    (folder / "broken.txt").write_text("#####\n#@.a\n")
    bench_main.main(["--folder", str(folder), "--keep", str(tmp_path / "runs.jsonl"), "--", "--solver", "keys-graph",
                     "--solver", "keys-grid"])
    output = capsys.readouterr().out
    # one run each, exact (instances, runs, exact, then feasible, timeout, memout, error, invalid plans all 0)
    assert re.search(r"^keys +keys-graph +1 +1 +1 +0 +0 +0 +0 +0 ", output, re.M)
    assert re.search(r"^keys +keys-grid +1 +1 +1 +0 +0 +0 +0 +0 ", output, re.M)
    targets = {t.name: t for t in parse(output.splitlines())}
    not_exact = targets["main command, built-in runs not exact (count)"]
    assert not_exact.values == (0.0,) and not_exact.unit == ""  # a count: no "1 runs" in the table
    assert targets["main command, wall"].max_limit == 240 and targets["main command, wall"].values[0] > 0
    assert targets["main command, peak memory of a run"].met  # two tiny runs, each measured
    assert "1 error, 1 agree" in output and "exit status 3" in output  # the unreadable file: in the summary

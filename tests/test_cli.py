"""The command line end to end, with misbehaving solvers from tests/fixtures/plugin_solvers.py.

Runs go through the real isolation (a child process per run), so these tests also
prove that limits are enforced from outside the solver.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

import crosscheck.harness.runs.runner
import crosscheck.harness.workflows.compare
import crosscheck.solvers.registry
import pytest
from click.testing import Result
from crosscheck.harness.judging.verdicts import judge_all
from crosscheck.harness.records.record import RunRecord, Task, read_records
from crosscheck.harness.reports.formats import HEARTBEAT
from crosscheck.harness.reports.progress import Progress
from crosscheck.solvers.base import Status

from tests.fixtures import INSTANCES
from tests.fixtures.cli import VAULT, invoke
from tests.fixtures.plugin_solvers import NAP_SECONDS, grandchild_pidfile
from tests.fixtures.processes import alive, wait_for

pytestmark = pytest.mark.usefixtures("misbehaving_solvers")


def test_list_shows_puzzles_and_solvers() -> None:
    result = invoke("list")
    assert result.exit_code == 0
    assert "keys: key vault" in result.output and "test-liar" in result.output
    [liar] = [line for line in result.output.splitlines() if "test-liar" in line]
    assert liar.endswith("[CROSSCHECK_SOLVERS module tests.fixtures.plugin_solvers]")


def test_a_plugin_module_that_cannot_be_loaded_is_reported_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(crosscheck.solvers.registry, "PLUGIN_ERRORS", [])
    monkeypatch.setenv("CROSSCHECK_SOLVERS", "tests.fixtures.plugin_solvers,no_such_module_here")
    result = invoke("list")
    assert result.exit_code == 0 and "test-liar" in result.stdout
    assert "plugin not loaded: CROSSCHECK_SOLVERS module no_such_module_here: ModuleNotFoundError" in result.stderr


@pytest.mark.parametrize("broken", ["no_such_module_here", "tests.fixtures.plugin_raising_at_import"])
def test_a_broken_plugin_module_leaves_out_only_itself_from_runs(monkeypatch: pytest.MonkeyPatch, folder: Path,
                                                                 tmp_path: Path, broken: str) -> None:
    """The built-ins and the plugins that loaded run as usual beside a module that failed (each
    run registers only the command's loaded plugins); the failed one is named on stderr."""
    monkeypatch.setattr(crosscheck.solvers.registry, "PLUGIN_ERRORS", [])
    monkeypatch.setattr(crosscheck.solvers.registry, "MODULES_LOADED", {})
    monkeypatch.setenv("CROSSCHECK_SOLVERS", f"{broken},tests.fixtures.plugin_solvers")
    out = tmp_path / "runs.jsonl"
    result = invoke("compare", str(folder / "keys" / "small.txt"), "--solver", "keys-graph", "--solver", "test-plain",
                    "--out", str(out))
    assert {(r.solver, r.status.value) for r in read_records(out)} == {("keys-graph", "optimal"),
                                                                        ("test-plain", "optimal")}
    assert result.exit_code == 0
    assert f"plugin not loaded: CROSSCHECK_SOLVERS module {broken}: " in result.stderr


def test_files_of_a_puzzle_no_chosen_solver_runs_on_are_named_in_a_note(tmp_path: Path) -> None:
    """A file named on the command line must not vanish from a run without a word."""
    vault, burrow = tmp_path / "vault.txt", tmp_path / "burrow.txt"
    vault.write_text(VAULT)
    burrow.write_text((INSTANCES / "amphipods" / "depth2-example.txt").read_text())
    (tmp_path / "broken-burrow.txt").write_text("#############\n#...........#\n###B#X#B#D###\n")
    result = invoke("compare", str(vault), str(burrow), str(tmp_path / "broken-burrow.txt"), "--solver", "keys-graph",
                    "--out", str(tmp_path / "runs.jsonl"))
    assert f"note: 1 amphipods file not run (no chosen solver or program runs on amphipods): {burrow}\n" in result.stderr
    assert "broken-burrow.txt: error: " in result.stdout  # unreadable: an error verdict, not left unrun
    assert result.exit_code == 3


def test_unknown_solver_lists_the_valid_names(folder: Path) -> None:
    result = invoke("solve", str(folder / "keys" / "small.txt"), "--solver", "keys-gird")
    assert result.exit_code == 2
    assert "unknown solver 'keys-gird'" in result.output and "test-liar" in result.output


def test_solve_rejects_a_bad_file_naming_line_and_column(folder: Path) -> None:
    result = invoke("solve", str(folder / "keys" / "broken.txt"))
    assert result.exit_code == 2  # the README's status for input a command cannot use: nothing ran
    assert "broken.txt:2:4: unknown character '?'" in result.output


def test_a_solver_named_twice_runs_once_in_solve_as_in_compare(folder: Path, tmp_path: Path) -> None:
    """``solve --solver X --solver X`` ran X twice, both records repeat 0 (report then warned)."""
    small = str(folder / "keys" / "small.txt")
    for command in ("solve", "compare"):
        out = tmp_path / f"{command}.jsonl"
        result = invoke(command, small, "--solver", "test-plain", "--solver", "test-liar", "--solver", "test-plain",
                        "--out", str(out))
        assert sorted(r.solver for r in read_records(out)) == ["test-liar", "test-plain"], result.output


def test_liar_plan_is_invalid_and_exit_status_says_so(folder: Path) -> None:
    result = invoke("solve", str(folder / "keys" / "small.txt"), "--solver", "test-liar", "--json")
    assert result.exit_code == 1
    [record] = json.loads(result.stdout)
    assert record["status"] == "optimal" and record["plan_valid"] is False
    assert {"solver", "status", "cost", "bound", "plan_valid", "seconds", "stats"} <= set(record)


def test_a_wrong_amphipod_plan_is_judged_invalid_not_an_error(tmp_path: Path) -> None:
    """Only the harness checks plans: a formulation's wrong amphipod plan is an
    ``invalid-plan`` verdict (exit 1), not a crash of the solver (exit 3)."""
    root = tmp_path / "instances"
    (root / "amphipods").mkdir(parents=True)
    (root / "amphipods" / "example.txt").write_text((INSTANCES / "amphipods" / "depth2-example.txt").read_text())
    out = tmp_path / "runs.jsonl"
    result = invoke("compare", str(root), "--solver", "test-amphipod-liar", "--out", str(out))
    [record] = read_records(out)
    assert record.status.value == "optimal" and record.plan_valid is False, record
    assert "invalid-plan" in result.output
    assert result.exit_code == 1


def test_a_sleeper_is_stopped_with_its_children(tmp_path: Path) -> None:
    path = tmp_path / f"sleepy-{tmp_path.name}.txt"
    path.write_text(VAULT)
    start = time.monotonic()
    result = invoke("solve", str(path), "--solver", "test-sleeper", "--time-limit", "0.5", "--json")
    elapsed = time.monotonic() - start
    [record] = json.loads(result.stdout)
    assert record["status"] == "timeout"
    assert record["cpu_seconds"] is not None and record["wall_seconds"] >= 0.5  # read before the kill
    assert elapsed < 30  # the limit plus the grace period, not the solver's 600 s sleep
    grandchild = int(Path(grandchild_pidfile(path.stem)).read_text())
    assert wait_for(lambda: not alive(grandchild), 5)


def test_a_cpu_clock_does_not_count_time_spent_waiting(tmp_path: Path) -> None:
    path = tmp_path / "nap.txt"
    path.write_text(VAULT)
    limit = str(NAP_SECONDS / 3)
    [wall] = json.loads(invoke("solve", str(path), "--solver", "test-napper", "--time-limit", limit, "--json").stdout)
    [cpu] = json.loads(invoke("solve", str(path), "--solver", "test-napper", "--time-limit", limit,
                              "--clock", "cpu", "--json").stdout)
    assert wall["message"] == "deadline passed" and wall["environment"]["clock"] == "wall"
    assert cpu["message"] == "napped in full" and cpu["environment"]["clock"] == "cpu"


def test_a_cpu_clock_run_that_sleeps_is_killed_at_its_stated_wall_cap(tmp_path: Path) -> None:
    """Under --clock cpu a program that only sleeps spends no CPU time: the wall cap stops
    it at WALL_CAP_FACTOR times its limit plus the grace (here 10 x 0.2 s + 5.02 s), never
    at ten times the limit with its grace (52.2 s, past the program's 40 s sleep)."""
    path, idle = tmp_path / "v.txt", tmp_path / "idle.py"
    path.write_text(VAULT)
    idle.write_text("import time\ntime.sleep(40)\nprint(8)\n")
    task = Task(path=str(path), instance="v.txt", solver="idle", time_limit=0.2, clock="cpu")
    assert crosscheck.harness.runs.runner.hard_limit(task) == pytest.approx(10 * 0.2 + 5 + 0.02)
    start = time.monotonic()
    result = invoke("solve", str(path), "--external", f"idle={sys.executable} {idle} {{path}}", "--time-limit", "0.2",
                    "--clock", "cpu", "--format", "json", "--no-reference")
    [record] = json.loads(result.stdout)
    assert record["status"] == "timeout" and record["cost"] is None
    assert "wall cap of 7.0 s" in record["message"]  # the computed cap, as the docs state it
    assert time.monotonic() - start < 35  # stopped by the cap, well before the program's answer


def test_a_run_that_ignores_its_cpu_limit_is_killed_by_the_kernel(tmp_path: Path) -> None:
    """At 3 s the kernel's kill (about 9 s of CPU) comes well before the wall cap (35.3 s)
    even when the spinner gets only a quarter of a core on a busy machine."""
    path = tmp_path / "spin.txt"
    path.write_text(VAULT)
    result = invoke("solve", str(path), "--solver", "test-spinner", "--time-limit", "3", "--clock", "cpu", "--json")
    [record] = json.loads(result.stdout)
    assert record["status"] == "timeout" and "CPU-time limit" in record["message"]  # SIGXCPU, not the wall cap
    assert record["wall_seconds"] >= 5  # the limit with its grace period (5 s of CPU) was spent first


def test_crash_and_memory_hog_become_rows_and_the_run_goes_on(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    result = invoke("compare", str(folder), "--solver", "test-crasher", "--solver", "test-raiser",
                    "--solver", "test-terminated", "--solver", "test-hog", "--solver", "test-nibbler",
                    "--solver", "test-mapper", "--solver", "test-liar", "--memory-limit", "512", "--time-limit", "20",
                    "--out", str(out))
    records = {r.solver: r for r in read_records(out)}
    assert {name: r.status.value for name, r in records.items()} == {
        "-": "error", "test-crasher": "error", "test-raiser": "error", "test-terminated": "error",
        "test-hog": "memout", "test-nibbler": "memout", "test-mapper": "memout", "test-liar": "optimal"}
    # a refused mmap is the limit too, said with the error's own words (its module's library, loaded
    # under the limit, is not refused: what the run inherited from its server does not count)
    mapper = records["test-mapper"].message
    assert mapper.startswith("memory limit of 512 MB reached: ")
    assert "cannot allocate memory" in mapper.lower()
    for name in ("test-crasher", "test-raiser", "test-hog", "test-mapper"):  # the time until it died
        assert records[name].seconds == records[name].wall_seconds and records[name].seconds > 0
    assert records["test-hog"].peak_memory_mb is None and records["test-mapper"].peak_memory_mb is None
    assert records["test-raiser"].peak_memory_mb is not None  # an error's peak is what it used
    assert "exited with status 7" in records["test-crasher"].message
    assert "RuntimeError: a bug in the formulation" in records["test-raiser"].message
    assert "SIGTERM" in records["test-terminated"].message
    assert all(r.puzzle == "keys" for name, r in records.items() if name != "-")  # crashes keep their puzzle
    assert "broken.txt" in result.output and "2:4" in result.output
    assert result.exit_code == 1  # the liar's invalid plan


def test_resume_after_a_cut_line_loses_nothing_and_duplicates_nothing(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    invoke("compare", str(folder), "--solver", "test-liar", "--solver", "test-crasher", "--out", str(out), "--jobs", "1")
    lines = out.read_text().splitlines(keepends=True)
    assert len(lines) == 3
    out.write_text(lines[0] + lines[1] + lines[2][: len(lines[2]) // 2])  # killed mid-write
    result = invoke("compare", str(folder), "--solver", "test-liar", "--solver", "test-crasher",
                    "--out", str(out), "--resume", "--jobs", "1")
    records = read_records(out)
    assert sorted(r.key for r in records) == sorted({r.key for r in records})
    assert len(records) == 3
    assert sum(" test-liar " in line and "optimal" in line for line in result.output.splitlines()) == 1


def test_out_refuses_to_mix_runs_without_resume(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    out.write_text('{"x": 1}\n')
    result = invoke("compare", str(folder), "--out", str(out))
    assert result.exit_code == 2 and "--resume" in result.output


def test_two_jobs_give_the_same_verdicts_as_one(folder: Path, tmp_path: Path) -> None:
    shutil.copy(folder / "keys" / "small.txt", folder / "keys" / "small-copy.txt")
    outputs = []
    for jobs in ("1", "2"):
        json_path = tmp_path / f"jobs{jobs}.json"
        invoke("compare", str(folder), "--solver", "test-liar", "--solver", "test-crasher",
               "--jobs", jobs, "--json", str(json_path))
        records = json.loads(json_path.read_text())
        outputs.append([(r["instance"], r["solver"], r["status"], r["cost"], r["plan_valid"]) for r in records])
    assert outputs[0] == outputs[1]


def test_compare_takes_several_paths_and_runs_each_file_once(folder: Path, tmp_path: Path) -> None:
    json_path = tmp_path / "runs.json"
    small = folder / "keys" / "small.txt"
    result = invoke("compare", str(small), str(folder / "keys"), str(small), "--solver", "test-plain",
                    "--json", str(json_path))
    records = json.loads(json_path.read_text())
    assert sorted(r["instance"] for r in records) == ["keys/broken.txt", "keys/small.txt"]
    assert result.exit_code == 3  # broken.txt is unreadable; small.txt agrees with its index entry


def test_an_unavailable_solver_runs_only_when_named(folder: Path) -> None:
    from crosscheck.solvers.registry import default_solvers_for

    listing = invoke("list").output  # registers the plugins named in CROSSCHECK_SOLVERS
    assert "test-absent" in listing and "[not run by default: the test-absent extra" in listing
    assert "test-absent" not in {solver.name for solver in default_solvers_for("keys")}
    named = invoke("solve", str(folder / "keys" / "small.txt"), "--solver", "test-absent", "--json")
    assert [(r["solver"], r["status"]) for r in json.loads(named.stdout)] == [("test-absent", "unsupported")]


def test_report_rebuilds_the_table(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    invoke("compare", str(folder), "--solver", "test-liar", "--out", str(out))
    for fmt, marker in (("table", "invalid-plan"), ("markdown", "| instance |"),
                        ("csv", "instance,variant,puzzle,solver,repeat,status")):
        result = invoke("report", str(out), "--format", fmt)
        assert result.exit_code == 1 and marker in result.stdout  # as compare exits: a rejected plan
    summary = invoke("report", str(out), "--by", "solver", "--format", "csv").stdout.splitlines()
    # test-liar claims an optimum with a plan the checker rejects, on the one readable vault:
    # 1 instance, 1 run, no exact answer (the plan is invalid), no feasible/timeout/memout/error,
    # 1 invalid plan
    assert summary[1].startswith("keys,test-liar,1,1,0,0,0,0,0,1,")


def _external(number: int) -> str:
    """A command that ignores the instance and claims `number`."""
    return f"{sys.executable} -c 'import sys; open(sys.argv[1]); print(\"answer:\", {number})' {{path}}"


@pytest.mark.parametrize("claim, verdict", [(8, "agree"), (5, "disagree"), (9, "false-optimal")])
def test_external_claims_are_judged(folder: Path, tmp_path: Path, claim: int, verdict: str) -> None:
    json_path = tmp_path / "runs.json"
    result = invoke("compare", str(folder / "keys"), "--solver", "test-plain",
                    "--external", f"keys:mine={_external(claim)}", "--json", str(json_path))
    runs = [RunRecord(**r) for r in json.loads(json_path.read_text())]
    records = {r.solver: r for r in runs if r.instance.endswith("small.txt")}
    assert records["mine"].cost == claim and records["test-plain"].cost == 8
    [judged] = [v for v in judge_all(runs) if v.instance.endswith("small.txt")]
    assert judged.verdict.value == verdict
    assert verdict == "agree" or f"small.txt: {verdict}" in result.output
    assert result.exit_code == (1 if verdict != "agree" else 3)  # 3: broken.txt is unreadable


def test_external_spec_errors_are_usage_errors(folder: Path) -> None:
    for spec in ("nocommand", "mine=python3 solve.py", "test-plain=cat {path}", "chess:mine=cat {path}",
                 "-=cat {path}", "keys: - =cat {path}"):
        result = invoke("compare", str(folder), "--external", spec)
        assert result.exit_code == 2, spec
    # '-' was taken for an unreadable file's record: its claim judged an error, and exit 0
    unreadable = invoke("solve", str(folder / "keys" / "small.txt"), "--external", "-=cat {path}")
    assert "'-' cannot name a program: the records give it to an instance file that could not be read" in (
        unreadable.output)


def test_a_name_given_to_two_programs_is_a_usage_error(folder: Path, tmp_path: Path) -> None:
    """Two ``--external`` of one name: the first was dropped and the last ran twice; with two
    puzzles, one puzzle's files were not run at all.  A name stands for one program's records."""
    (folder / "lift.txt").write_text((INSTANCES / "elevator" / "two-pairs-example.txt").read_text())
    first, second = f"python3 {tmp_path / 'a.py'} {{path}}", f"python3 {tmp_path / 'b.py'} {{path}}"
    for specs in ((f"m={first}", f"m={second}"), (f"elevator:m={first}", f"keys:m={second}"),
                  (f"m={first}", f"keys:m={first}")):
        result = invoke("compare", str(folder), "--external", specs[0], "--external", specs[1],
                        "--out", str(tmp_path / "x.jsonl"))
        assert result.exit_code == 2, specs
        assert f"the name 'm' is given twice ({specs[0]!r} and {specs[1]!r})" in result.output, result.output
        assert not (tmp_path / "x.jsonl").exists()
    builtin = invoke("solve", str(folder / "lift.txt"), "--external", f"elevator-bfs={first}")
    assert builtin.exit_code == 2 and "'elevator-bfs' is already a solver's name (built-in)" in builtin.output


def test_generate_writes_a_seeded_family_that_compare_reads(tmp_path: Path) -> None:
    out = tmp_path / "family"
    args = ("generate", "keys", "--count", "3", "--seed", "7", "-p", "size=9", "-p", "keys=3", "-p", "loops=2")
    first = invoke(*args, "-o", str(out))
    assert first.exit_code == 0, first.output
    texts = {p.name: p.read_text() for p in out.glob("*.txt")}
    assert len(texts) == 3
    family = json.loads((out / "family.json").read_text())
    assert family["params"] == {"size": 9, "keys": 3, "loops": 2}
    assert sorted(v["seed"] for v in family["instances"].values()) == [7, 8, 9]
    invoke(*args, "-o", str(tmp_path / "again"))
    assert texts == {p.name: p.read_text() for p in (tmp_path / "again").glob("*.txt")}
    result = invoke("compare", str(out), "--solver", "test-plain")
    assert result.exit_code == 0 and "3 instances: 3 agree" in result.output


def test_generate_rejects_unknown_parameters(tmp_path: Path) -> None:
    result = invoke("generate", "keys", "-p", "colour=red", "-o", str(tmp_path))
    assert result.exit_code == 2 and "size" in result.output


def test_record_optima_adds_only_agreed_answers(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    (folder / "keys" / "other.txt").write_text("#######\n#a.@.b#\n#######\n")
    invoke("compare", str(folder), "--solver", "test-plain", "--external", f"again={_external(6)}",
           "--out", str(out))
    before = (folder / "index.toml").read_text()
    invoke("record-optima", str(out), "--index", str(folder / "index.toml"))
    assert (folder / "index.toml").read_text() == before  # a bare external claim is no second proof
    result = invoke("record-optima", str(out), "--index", str(folder / "index.toml"), "--min-agreeing", "1")
    assert result.exit_code == 0
    index = tomllib.loads((folder / "index.toml").read_text())
    assert index["keys/other.txt"]["optimum"] == 6 and "test-plain" in index["keys/other.txt"]["origin"]
    assert index["keys/small.txt"] == {"optimum": 8}  # listed already: untouched
    assert "keys/broken.txt" not in index


def test_record_optima_adds_no_entry_for_a_file_outside_the_index_folder(folder: Path, tmp_path: Path) -> None:
    """An index names the files it judges by their path from its folder: runs of another
    folder (or files renamed by their paths because two had one name) must not add entries
    naming nothing, nor a file whose own folder's index.toml judges it."""
    out = tmp_path / "runs.jsonl"
    (folder / "keys" / "other.txt").write_text("#######\n#a.@.b#\n#######\n")
    invoke("compare", str(folder / "keys" / "other.txt"), "--solver", "test-plain", "--out", str(out))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = invoke("record-optima", str(out), "--index", str(elsewhere / "index.toml"), "--allow-single")
    assert result.exit_code == 0 and not (elsewhere / "index.toml").exists()
    assert f"keys/other.txt: not recorded: no such file under {elsewhere}" in result.stderr
    assert result.stderr.splitlines()[-1] == "recorded 0; not recorded 1: not judged by this index"
    (folder / "keys" / "index.toml").write_text("")  # from now on the file's own folder's index judges it
    below = invoke("record-optima", str(out), "--index", str(folder / "index.toml"), "--allow-single")
    assert below.stderr.splitlines()[-1] == "recorded 0; not recorded 1: not judged by this index"
    (folder / "keys" / "index.toml").unlink()
    here = invoke("record-optima", str(out), "--index", str(folder / "index.toml"), "--allow-single")
    assert here.stderr.splitlines()[-1] == "recorded 1"  # the same run, the folder whose path it names


def test_record_optima_needs_independent_formulations(folder: Path, tmp_path: Path) -> None:
    """keys-graph and keys-cpsat share the route contraction: together they are one proof."""
    (folder / "keys" / "other.txt").write_text("#######\n#a.@.b#\n#######\n")
    index = folder / "index.toml"
    for pair, recorded in ((("keys-graph", "keys-cpsat"), False), (("keys-grid", "keys-cpsat"), True)):
        out = tmp_path / f"{pair[0]}.jsonl"
        invoke("compare", str(folder / "keys" / "other.txt"), *[f"--solver={name}" for name in pair],
               "--out", str(out))
        invoke("record-optima", str(out), "--index", str(index))
        entry = tomllib.loads(index.read_text()).get("keys/other.txt")
        assert (entry is not None) is recorded
    assert entry is not None and set(entry) == {"optimum", "origin", "provers", "independent", "shared"}
    assert (entry["optimum"], sorted(entry["provers"]), entry["independent"], entry["shared"]) == (
        6, ["keys-cpsat", "keys-grid"], 2, [])
    assert re.fullmatch(r"agreed by (keys-grid, keys-cpsat|keys-cpsat, keys-grid), 2 independent "
                        r"\(crosscheck [^,]+\)", entry["origin"]), entry["origin"]


def test_plot_draws_pngs(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    invoke("compare", str(folder), "--solver", "test-plain", "--solver", "test-liar", "--out", str(out))
    result = invoke("plot", str(out), "-o", str(tmp_path / "plots"))
    assert result.exit_code == 0
    assert (tmp_path / "plots" / "cactus.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # one vault, one size: time against size would be a stripe, so it is named, not drawn
    assert not (tmp_path / "plots" / "size-keys.png").exists()
    assert "size-keys not drawn: every instance has" in (tmp_path / "plots" / "captions.txt").read_text()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_silent_off_a_terminal_and_drawn_on_one() -> None:
    quiet, loud, off = io.StringIO(), _Terminal(), _Terminal()
    for stream, mode in ((quiet, "auto"), (loud, "auto"), (off, "none")):
        progress = Progress(2, 1, stream, mode=mode)
        progress(RunRecord(instance="a", puzzle="keys", solver="s", status=Status.ERROR))
        progress.close()
    assert quiet.getvalue() == "" and off.getvalue() == ""
    assert "runs 1/2" in loud.getvalue() and "failed 1" in loud.getvalue() and "\x1b[" in loud.getvalue()


@pytest.mark.parametrize("stream", [io.StringIO(), _Terminal()], ids=["pipe", "terminal"])
def test_progress_lines_are_plain_one_per_run_with_the_counts(stream: io.StringIO) -> None:
    progress = Progress(4, 1, stream, limit=10.0, mode="lines")
    progress(RunRecord(instance="keys/x.txt", puzzle="keys", solver="keys-graph", status=Status.OPTIMAL, cost=1696,
                       bound=1696, plan_valid=True, seconds=0.004))  # fast: not "0.00 s"
    progress(RunRecord(instance="keys/y.txt", puzzle="keys", solver="keys-cpsat", status=Status.ERROR, repeat=2,
                       message="RuntimeError: boom\ntraceback follows"))
    progress(RunRecord(instance="keys/x.txt", puzzle="keys", solver="test-liar", variant=True, status=Status.OPTIMAL,
                       cost=3, bound=3, plan_valid=False, seconds=1.5))
    progress(RunRecord(instance="keys/z.txt", puzzle="keys", solver="keys-cpsat", status=Status.TIMEOUT, bound=9,
                       seconds=10.0))
    progress.close()
    first, *runs, last = stream.getvalue().splitlines()
    assert "\x1b" not in stream.getvalue() and "\r" not in stream.getvalue()
    assert first.startswith("runs 0/4  running 0  failed 0") and "worst case left 0:00:40" in first
    assert runs == ["[1/4] keys/x.txt keys-graph optimal 1696 0.00400 s",
                    "[2/4, 1 failed] keys/y.txt keys-cpsat #2 FAILED error: RuntimeError: boom",
                    "[3/4, 1 failed] keys/x.txt [variant] test-liar optimal 3 PLAN REJECTED 1.50 s",
                    "[4/4, 1 failed] keys/z.txt keys-cpsat timeout bound 9 10.0 s"]
    assert last.startswith("runs 4/4  running 0  failed 1")


class _Clock:
    """A `time.monotonic` stand-in that moves only when told."""

    def __init__(self) -> None:
        self.time = 1000.0

    def __call__(self) -> float:
        return self.time


def test_progress_lines_beat_while_a_long_run_is_in_flight() -> None:
    clock, stream = _Clock(), io.StringIO()
    progress = Progress(2, 1, stream, mode="lines", now=clock)
    long = Task(path="keys/big.txt", instance="keys/big.txt", solver="keys-cpsat")
    progress.started(long)
    clock.time += HEARTBEAT - 1
    progress.tick()
    assert len(stream.getvalue().splitlines()) == 1  # the status line only: not quiet long enough yet
    clock.time += 6
    progress.tick()
    progress.tick()  # a second look at the same moment: no second beat
    beat = stream.getvalue().splitlines()[1:]
    assert beat == [f"[0/2] none finished for {HEARTBEAT + 5:.0f} s; in flight: keys/big.txt  keys-cpsat  "
                    f"{HEARTBEAT + 5:.0f} s"]
    clock.time += HEARTBEAT
    progress.tick()
    assert f"none finished for {2 * HEARTBEAT + 5:.0f} s" in stream.getvalue().splitlines()[-1]
    progress.ended(long)
    progress(RunRecord(instance="keys/big.txt", puzzle="keys", solver="keys-cpsat", status=Status.MEMOUT))
    clock.time += HEARTBEAT - 1
    progress.tick()  # a run just finished: quiet again
    assert stream.getvalue().splitlines()[-1] == "[1/2, 1 failed] keys/big.txt keys-cpsat FAILED memout: no message"
    clock.time += 1
    progress.tick()
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines[-2] == f"[1/2, 1 failed] none finished for {HEARTBEAT:.0f} s; in flight: none" and lines[-1].startswith("runs 1/2")


def test_worst_case_left_is_the_last_run_to_end_not_the_work_shared_out() -> None:
    """Every run taking its whole limit of 60 s, each waiting one on the first of the jobs free."""
    clock = _Clock()
    alone = Progress(1, 2, io.StringIO(), limit=60.0, mode="none", now=clock)
    assert alone.worst_case_left(clock.time) == 60.0  # one run cannot use the second job
    three = Progress(3, 2, io.StringIO(), limit=60.0, mode="none", now=clock)
    assert three.worst_case_left(clock.time) == 120.0  # two at a time, then the third
    mixed = Progress(3, 2, io.StringIO(), limit=60.0, mode="none", now=clock)
    first, second = (Task(path=f"{name}.txt", instance=f"{name}.txt", solver="keys-grid") for name in "ab")
    mixed.started(first)
    clock.time += 50
    mixed.started(second)
    clock.time += 5
    # in flight: 5 s and 55 s left; the one waiting starts when the first ends, 5 + 60
    assert mixed.worst_case_left(clock.time) == 65.0
    assert "worst case left 0:01:05" in mixed.lines(clock.time)[0]
    mixed.ended(first)
    mixed.ended(second)
    assert mixed.worst_case_left(clock.time) == 60.0  # nothing in flight, one waiting


def test_compare_progress_lines_go_to_stderr_and_leave_the_data_clean(folder: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    args = ("compare", str(folder), "--solver", "test-plain", "--solver", "test-crasher", "--format", "csv")
    quiet = invoke(*args, "--out", str(tmp_path / "quiet.jsonl"))
    monkeypatch.setenv("CROSSCHECK_PROGRESS", "lines")
    loud = invoke(*args, "--out", str(tmp_path / "loud.jsonl"))
    assert "[1/2]" not in quiet.stderr and "runs 0/2" not in quiet.stderr  # not a terminal: nothing by default
    runs = sorted(line.split("] ", 1)[1] for line in loud.stderr.splitlines() if re.match(r"\[\d/2", line))
    assert [run.split()[:3] for run in runs] == [["keys/small.txt", "test-crasher", "FAILED"],
                                                 ["keys/small.txt", "test-plain", "optimal"]]
    assert "\x1b" not in loud.stderr
    for result in (quiet, loud):  # the data alone on stdout: a header and one row per run
        rows = list(csv.reader(io.StringIO(result.stdout)))
        assert rows[0][0] == "instance" and sorted(row[3] for row in rows[1:]) == ["-", "test-crasher", "test-plain"]


def test_variants_run_where_the_transform_applies(tmp_path: Path) -> None:
    root = tmp_path / "v"
    root.mkdir()
    (root / "open.txt").write_text("#######\n#a...b#\n#..@..#\n#c...d#\n#######\n")
    (root / "two.txt").write_text("#####\n#@a@#\n#####\n")  # two robots: no four-robot transform
    json_path = tmp_path / "runs.json"
    result = invoke("compare", str(root), "--solver", "test-plain", "--variants", "--json", str(json_path))
    runs = {(r["instance"], r["variant"]): r for r in json.loads(json_path.read_text())}
    assert set(runs) == {("open.txt", False), ("open.txt", True), ("two.txt", False)}
    assert runs[("open.txt", True)]["features"]["robots"] == 4
    assert "open.txt [variant]" in result.output and result.exit_code == 0
    solved = invoke("solve", str(root / "open.txt"), "--solver", "test-plain", "--four-robots", "--json")
    assert json.loads(solved.stdout)[0]["cost"] == runs[("open.txt", True)]["cost"]


def test_compare_saves_records_by_default(folder: Path, tmp_path: Path) -> None:
    result = invoke("compare", str(folder), "--solver", "test-plain")
    saved = tmp_path / "results" / "default-0.jsonl"
    assert f"records: {saved}" in result.output
    assert {r.solver for r in read_records(saved)} == {"-", "test-plain"}


def test_a_local_comparison_never_imports_dask(folder: Path, tmp_path: Path) -> None:
    """Dask is the optional cluster extra: only --scheduler may load it."""
    script = ("import sys; from click.testing import CliRunner; from crosscheck.harness.cli import main; "
              f"result = CliRunner().invoke(main, ['compare', {str(folder)!r}, '--solver', 'test-liar', '--out', "
              f"{str(tmp_path / 'runs.jsonl')!r}]); "
              "print(result.exit_code, sorted({m.split('.')[0] for m in sys.modules} & {'dask', 'distributed'}))")
    environment = {key: value for key, value in os.environ.items() if key != "CROSSCHECK_SCHEDULER"}
    done = subprocess.run([sys.executable, "-c", script], env={**environment, "PYTHONPATH": str(INSTANCES.parent)},
                          capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["1", "[]"]  # the liar's invalid plan was judged, and no Dask module loaded


def test_compare_table_ends_with_the_environment_block_that_report_shows(folder: Path, tmp_path: Path) -> None:
    (folder / "keys" / "broken.txt").unlink()  # its record (no run) says nothing of the environment
    out = tmp_path / "runs.jsonl"
    compared = invoke("compare", str(folder), "--solver", "test-plain", "--jobs", "1", "--out", str(out))
    reported = invoke("report", str(out))

    def block(text: str) -> str:
        return text[text.index("environment of the runs:"):].split("\n\n")[0]

    assert block(compared.stdout) == block(reported.stdout)
    assert "\njobs: 1" in block(compared.stdout) and "\ncommit: " in block(compared.stdout)
    csv_out = invoke("compare", str(folder), "--solver", "test-plain", "--format", "csv",
                     "--out", str(tmp_path / "data.jsonl"))
    assert "environment of the runs" not in csv_out.stdout  # data formats stay data only


def test_a_run_is_in_flight_only_while_it_holds_one_of_the_jobs_places(monkeypatch: pytest.MonkeyPatch,
                                                                        tmp_path: Path) -> None:
    import threading

    import crosscheck.harness.runs.batch
    import crosscheck.harness.runs.runner

    flying: set[str] = set()
    seen: list[int] = []  # runs in flight as each run began
    lock = threading.Lock()

    def started(task: Task) -> None:
        with lock:
            flying.add(task.instance)
            seen.append(len(flying))

    def ended(task: Task) -> None:
        with lock:
            flying.discard(task.instance)

    def fake_run(task: Task, expected: object = None) -> RunRecord:
        with lock:
            assert task.instance in flying, "a run ran before it counted as in flight"
        return RunRecord(instance=task.instance, puzzle="keys", solver=task.solver, status=Status.OPTIMAL, cost=1,
                         environment=dict(task.start or {}))

    monkeypatch.setattr(crosscheck.harness.runs.runner, "run_task", fake_run)
    for jobs in (1, 2):
        seen.clear()
        tasks = [(Task(path=str(tmp_path / f"{n}.txt"), instance=f"{n}.txt", solver="test-plain", puzzle="keys"), None)
                 for n in range(5)]
        records = crosscheck.harness.runs.batch.run_tasks(tasks, jobs=jobs, isolate=False, on_start=started, on_end=ended)
        assert len(seen) == 5 and max(seen) <= jobs and not flying
        assert all(record.environment["jobs"] == jobs for record in records)


def test_solve_progress_lines_show_each_run_on_stderr_and_leave_stdout_alone(folder: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    args = ("solve", str(folder / "keys" / "small.txt"), "--solver", "test-plain", "--solver", "test-crasher")
    quiet, default = invoke(*args, "--progress", "none"), invoke(*args)
    monkeypatch.setenv("CROSSCHECK_PROGRESS", "lines")
    loud = invoke(*args)

    def table(result: Result) -> list[list[str]]:  # without the seconds (and the widths they give columns)
        return [re.sub(r"\d+(\.\d+)?(e-\d+)?", "S", line).split() for line in result.stdout.splitlines()]

    assert table(quiet) == table(loud) == table(default) and loud.exit_code == quiet.exit_code == 3
    assert "runs 0/2" not in quiet.stderr + default.stderr and "[1/2" not in quiet.stderr + default.stderr
    lines = loud.stderr.splitlines()
    assert lines[0].startswith("runs 0/2  running 0  failed 0") and lines[-1].startswith("runs 2/2  running 0  failed 1")
    assert sorted(line.split("] ", 1)[1].split()[1:3] for line in lines[1:3]) == [["test-crasher", "FAILED"],
                                                                                  ["test-plain", "optimal"]]


def test_solve_progress_starts_no_thread_so_its_runs_still_fork(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ticking progress thread would make `run_tasks` take the forkserver (0.8 s instead of
    0.45 s for a small solve on a terminal): solve's progress must not start one."""
    threads: list[int] = []
    real = crosscheck.harness.runs.runner._context

    def context(start: Any, solvers: Any) -> Any:
        threads.append(threading.active_count())
        return real(start, solvers)

    monkeypatch.setattr(crosscheck.harness.runs.runner, "_context", context)
    before = threading.active_count()  # the test session's own threads, if any
    result = invoke("solve", str(folder / "keys" / "small.txt"), "--solver", "test-plain", "--progress", "lines")
    assert result.exit_code == 0 and threads == [before]


@pytest.mark.parametrize("choice", [("--solver", "elevator-bfs"), ("--external", "elevator:mine=python3 mine.py {path}")])
def test_a_formulation_that_applies_to_none_of_the_instances_is_refused_up_front(folder: Path, tmp_path: Path,
                                                                                  choice: tuple[str, str]) -> None:
    """Nothing would run it: compare, solve and morph stop before anything runs (exit 2),
    saying which puzzle it belongs to and which puzzles the paths hold; no records file."""
    out = tmp_path / "runs.jsonl"
    refused = {"compare": invoke("compare", str(folder), *choice, "--out", str(out)),
               "morph": invoke("morph", str(folder), *choice, "--out", str(tmp_path / "morphed")),
               "solve": invoke("solve", str(folder / "keys" / "small.txt"), *choice)}
    why = "elevator-bfs is a formulation of elevator" if choice[0] == "--solver" else \
        "elevator:mine runs on elevator instances only"
    for command, result in refused.items():
        assert result.exit_code == 2, command
        held = "small.txt is a keys instance" if command == "solve" else "the paths given hold only keys instances"
        assert why in result.output and held in result.output, command
    assert not out.exists() and not (tmp_path / "morphed").exists()


def test_compare_names_a_records_file_only_when_it_was_written(folder: Path, tmp_path: Path) -> None:
    """Of the two parts of one run (--shard), the part that plans it writes records, the other names none."""
    small = folder / "keys" / "small.txt"
    parts = {part: (tmp_path / f"part-{part[0]}.jsonl", invoke("compare", str(small), "--solver", "test-plain",
                                                                "--shard", part, "--out", str(tmp_path / f"part-{part[0]}.jsonl")))
             for part in ("1/2", "2/2")}
    [(out, result)] = [(out, result) for out, result in parts.values() if not out.exists()]
    assert f"records: none ({out} not written: no run was planned)" in result.stderr
    assert f"records: {out}\n" not in result.stderr
    [(written, result)] = [(out, result) for out, result in parts.values() if out.exists()]
    assert f"records: {written}\n" in result.stderr


@pytest.mark.parametrize("holding", ["nothing", "other files", "text of no puzzle", "a file of no puzzle"])
@pytest.mark.parametrize("command", ["compare", "morph"])
def test_a_path_with_no_instance_to_run_is_a_usage_error(folder: Path, tmp_path: Path, holding: str,
                                                         command: str) -> None:
    """An empty folder, one without *.txt files, one whose files no puzzle's format claims, or
    such a file: exit 2 with one line naming the path (and the files no format claims) and the
    files expected, nothing run,
    also beside a path that does hold instances."""
    path = tmp_path / "given"
    path.mkdir()
    if holding == "other files":
        (path / "notes.md").write_text("# my instances\n")
    elif holding != "nothing":
        (path / "shopping.txt").write_text("eggs\nmilk\n")
        path = path / "shopping.txt" if holding == "a file of no puzzle" else path
    out = tmp_path / "out"
    result = invoke(command, str(folder / "keys" / "small.txt"), str(path), "--solver", "test-plain",
                    "--out", str(out / "runs.jsonl" if command == "compare" else out))
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith(f"Error: {path}: no instance to run: ")
    assert "key vault" in line and "elevator" in line and "amphipod burrow" in line
    assert ("*.txt files below it" in line) == (holding != "a file of no puzzle")
    assert ("shopping.txt" in line) == (holding in ("text of no puzzle", "a file of no puzzle"))
    assert not out.exists()


def test_a_folder_whose_only_file_cannot_be_read_is_an_error_run_not_a_usage_error(tmp_path: Path) -> None:
    """A file that cannot be read is a run's error record (exit 3), as among other files."""
    os.mkfifo(tmp_path / "pipe.txt")
    result = invoke("compare", str(tmp_path), "--solver", "test-plain", "--out", str(tmp_path / "runs.jsonl"))
    assert result.exit_code == 3 and "not a regular file" in result.output


def test_a_program_that_declines_every_instance_is_named_in_the_summary(folder: Path, tmp_path: Path) -> None:
    """Every run of `decliner` is unsupported: compare's notes and report's say so plainly, a
    formulation that declined only some instances is not named, and the exit status is unchanged."""
    (folder / "keys" / "broken.txt").unlink()
    shutil.copy(folder / "keys" / "small.txt", folder / "keys" / "other.txt")
    decliner = tmp_path / "decliner.py"
    decliner.write_text("print('unsupported')\n")
    out = tmp_path / "runs.jsonl"
    result = invoke("compare", str(folder), "--solver", "test-plain", "--external",
                    f"decliner={sys.executable} {decliner} {{path}}", "--out", str(out))
    note = "decliner: unsupported on all 2 instances it was given (it tested nothing); on keys/other.txt: decliner"
    assert result.exit_code == 0 and note in result.output
    assert "test-plain: unsupported" not in result.output
    assert note in invoke("report", str(out)).output
    assert note in invoke("report", str(out), "--format", "html").output
    partly = [r.model_copy(update={"status": Status.OPTIMAL, "cost": 8}) if r.instance == "keys/small.txt" else r
              for r in read_records(out)]
    out.write_text("".join(r.model_dump_json() + "\n" for r in partly))
    assert "decliner: unsupported" not in invoke("report", str(out)).output

"""Bad input gets one clear line and a documented exit status, never a traceback or a hang:
malformed results files, instance paths that are not regular files."""

from __future__ import annotations

import html
import json
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from crosscheck.harness.cli import EXIT_USAGE
from crosscheck.harness.records.record import RunRecord, plugin_source, read_records
from crosscheck.harness.records.schema import SCHEMA_VERSION, MalformedRecord
from crosscheck.harness.records.tidy import load
from crosscheck.solvers import registry
from crosscheck.solvers.base import Status

from tests.fixtures.cli import VAULT, invoke
from tests.fixtures.plugin_solvers import Crasher

pytestmark = pytest.mark.usefixtures("misbehaving_solvers")


def _line(instance: str, status: Status = Status.TIMEOUT) -> str:
    return RunRecord(instance=instance, puzzle="keys", solver="test-plain", status=status).model_dump_json() + "\n"


def _results(tmp_path: Path, middle: str) -> Path:
    """A results file whose second of three lines is `middle`."""
    path = tmp_path / "runs.jsonl"
    path.write_text(_line("a.txt") + middle + "\n" + _line("b.txt"))
    return path


READERS = {
    "report": lambda path, tmp: ("report", str(path)),
    "plot": lambda path, tmp: ("plot", str(path), "-o", str(tmp / "plots")),
    "record-optima": lambda path, tmp: ("record-optima", str(path), "--index", str(tmp / "index.toml")),
}


@pytest.mark.parametrize("command", sorted(READERS))
def test_a_line_that_is_not_json_names_file_line_and_column(tmp_path: Path, command: str) -> None:
    path = _results(tmp_path, '{"instance": "c.txt", oops}')
    result = invoke(*READERS[command](path, tmp_path))
    assert result.exit_code == EXIT_USAGE == 2
    assert result.output == (f"Error: {path}:2:23: not JSON: Expecting property name enclosed in double quotes "
                             "(expected one JSON object, a run record, per line)\n")


@pytest.mark.parametrize("middle, column", [
    ('{"instance": "c.txt", "puz', 27),  # cut inside a string
    ('{"instance": "c.txt",   ', 22),  # cut between fields: the column just after the last character
    ('{"instance": "c.txt", "puzzle": "ke', 36),
])
def test_a_line_cut_short_in_the_middle_of_the_file_says_so(tmp_path: Path, middle: str, column: int) -> None:
    """Not the last line, so not skipped as a run interrupted mid-write: refused, saying what
    was found (a line cut short) and what was expected, not JSON's bare 'Invalid control character at'."""
    path = _results(tmp_path, middle)
    result = invoke("report", str(path))
    assert result.exit_code == EXIT_USAGE
    assert result.output == (f"Error: {path}:2:{column}: line cut short: its JSON stops unfinished at the end of the "
                             "line (expected one JSON object, a run record, per line)\n")


def test_json_s_trailing_at_is_not_left_dangling(tmp_path: Path) -> None:
    path = _results(tmp_path, '{"instance": "c\tx"}')
    result = invoke("report", str(path))
    assert result.output == (f"Error: {path}:2:16: not JSON: Invalid control character "
                             "(expected one JSON object, a run record, per line)\n")


@pytest.mark.parametrize("middle, problem", [
    ('[1, 2]', "2: expected a JSON object (a run record), got a JSON list"),
    (_line("c.txt").replace('"timeout"', '"crashed"').strip(), "2: not a run record: field 'status': Input should be"),
    ('{"instance": "c.txt"}', "2: not a run record: field 'puzzle': Field required (and 2 more)"),
    ('{"schema_version": "two"}', "2: schema_version must be an integer, got 'two'"),
])
def test_json_that_is_not_a_record_says_what_is_wrong(tmp_path: Path, middle: str, problem: str) -> None:
    path = _results(tmp_path, middle)
    result = invoke("report", str(path))
    assert result.exit_code == 2 and result.output.startswith(f"Error: {path}:{problem}")
    assert len(result.output.splitlines()) == 1


def test_a_line_that_is_not_utf8_names_its_byte(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(_line("a.txt").encode() + b'{"instance": "\xff"}\n')
    with pytest.raises(MalformedRecord, match=r"runs.jsonl:2:15: not UTF-8 text"):
        read_records(path)


def test_a_cut_last_line_is_still_skipped_by_every_reader(tmp_path: Path) -> None:
    """Skipped (a run interrupted mid-write is expected), but one note names file and line,
    on stderr and on the HTML page."""
    path = tmp_path / "runs.jsonl"
    path.write_text(_line("a.txt") + _line("b.txt")[:30])
    assert [r.instance for r in read_records(path)] == ["a.txt"]
    result = invoke("report", str(path))
    assert result.exit_code == 0 and "1 instance: 1 unverified" in result.output
    note = f"{path}:2: last line cut short (a run interrupted while its record was written); left out"
    assert result.stderr == f"note: {note}\n"
    assert invoke("plot", str(path), "-o", str(tmp_path / "plots")).stderr.startswith(f"note: {note}\n")
    invoke("report", str(path), "--format", "html", "-o", str(tmp_path / "report.html"))
    assert f"<li>{html.escape(note)}</li>" in (tmp_path / "report.html").read_text()


def test_resume_and_solve_out_note_the_cut_last_line_they_drop(tmp_path: Path) -> None:
    """Appending drops a last line cut short; it says so, in the readers' words."""
    (tmp_path / "a.txt").write_text(VAULT)
    path = tmp_path / "runs.jsonl"
    note = f"note: {path}:2: last line cut short (a run interrupted while its record was written); left out\n"
    path.write_text(_line("b.txt") + _line("c.txt")[:30])
    result = invoke("compare", str(tmp_path / "a.txt"), "--solver", "test-plain", "--out", str(path), "--resume")
    assert result.exit_code == 0 and result.stderr.startswith(note), result.stderr
    assert [r.instance for r in read_records(path)] == ["b.txt", "a.txt"]
    path.write_text(_line("b.txt") + _line("c.txt")[:30])
    result = invoke("solve", str(tmp_path / "a.txt"), "--solver", "test-plain", "--out", str(path))
    assert result.exit_code == 0 and result.stderr.startswith(note), result.stderr
    path.write_text(_line("b.txt") + "  ")  # blanks only: nothing left out, nothing to say
    result = invoke("solve", str(tmp_path / "a.txt"), "--solver", "test-plain", "--out", str(path))
    assert "cut short" not in result.stderr


@pytest.mark.parametrize("fmt", ["table", "html"])
def test_a_file_without_records_is_unusable_input(tmp_path: Path, fmt: str) -> None:
    empty, full = tmp_path / "empty.jsonl", tmp_path / "runs.jsonl"
    empty.write_text("\n")
    full.write_text(_line("a.txt"))
    result = invoke("report", str(empty), "--format", fmt, "-o", str(tmp_path / "out"))
    assert (result.exit_code, result.output) == (EXIT_USAGE, f"Error: no records in {empty}\n")
    assert not (tmp_path / "out").exists()
    beside = invoke("report", str(empty), str(full))  # among other files: a note
    assert beside.exit_code == 0 and beside.stderr == f"note: {empty}: no records\n"


def test_records_of_an_older_schema_get_one_note_per_file(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    old = json.loads(_line("a.txt"))
    del old["schema_version"], old["evidence"]  # as written before either field existed
    path.write_text(json.dumps(old) + "\n" + json.dumps({**old, "instance": "b.txt"}) + "\n" + _line("c.txt"))
    result = invoke("report", str(path))
    assert result.exit_code == 0 and result.stderr == (
        f"note: {path}: 2 records of schema version 1 (this crosscheck writes {SCHEMA_VERSION}): "
        "fields added since take their defaults\n")


def test_report_exits_like_compare_on_the_same_records(tmp_path: Path) -> None:
    """1 when an answer is wrong, 3 when a run crashed and nothing is wrong, 0 otherwise."""
    wrong = RunRecord(instance="a.txt", puzzle="keys", solver="liar", status=Status.OPTIMAL, cost=1, bound=1,
                      plan_valid=False, plan_error="walks into a wall", plan=[]).model_dump_json() + "\n"
    for lines, status in (([_line("a.txt")], 0), ([_line("a.txt"), _line("a.txt", Status.ERROR)
                                                    .replace("test-plain", "other")], 3), ([wrong], 1)):
        path = tmp_path / f"runs-{status}.jsonl"
        path.write_text("".join(lines))
        for fmt in ("table", "csv"):
            assert invoke("report", str(path), "--format", fmt).exit_code == status


def test_parquet_by_solver_says_what_to_use_instead(tmp_path: Path) -> None:
    path = _results(tmp_path, _line("c.txt").strip())
    result = invoke("report", str(path), "--by", "solver", "--format", "parquet", "-o", str(tmp_path / "x.parquet"))
    assert result.exit_code == EXIT_USAGE and "not --by solver" in result.output and "-o FILE" not in result.output


def test_tidy_load_refuses_a_malformed_line_by_file_and_line(tmp_path: Path) -> None:
    path = _results(tmp_path, "not json")
    with pytest.raises(MalformedRecord, match=r"runs.jsonl:2:1: not JSON"):
        load(path)


def test_resume_refuses_a_malformed_line_and_runs_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(VAULT)
    path = _results(tmp_path, '{"instance": "c.txt", oops}')
    before = path.read_bytes()
    result = invoke("compare", str(tmp_path / "a.txt"), "--solver", "test-plain", "--out", str(path), "--resume")
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: {path}:2:23: not JSON") and "nothing was run" in result.output
    assert path.read_bytes() == before  # nothing dropped, nothing appended


@contextmanager
def _writer_after_a_minute(fifo: Path) -> Iterator[None]:
    """Should the code under test open `fifo` for reading (a bug: that waits for a writer),
    a writer comes after a minute, so the test fails on its messages instead of hanging."""
    done = threading.Event()

    def writer() -> None:
        if not done.wait(60):
            with open(fifo, "w"):
                pass

    threading.Thread(target=writer, daemon=True).start()
    try:
        yield
    finally:
        done.set()


def test_solve_refuses_a_fifo_a_device_and_a_directory_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    with _writer_after_a_minute(fifo):
        result = invoke("solve", str(fifo), "--solver", "test-plain")
    assert result.exit_code == 2
    assert result.output == f"Error: {fifo}: not a regular file: it is a FIFO (named pipe) (expected an instance text file)\n"
    for path, kind in (("/dev/null", "a character device"), (str(tmp_path), "a directory")):
        result = invoke("solve", path, "--solver", "test-plain")
        assert result.exit_code == 2 and f"Error: {path}: not a regular file: it is {kind}" in result.output


def test_compare_reports_a_fifo_and_a_device_in_a_folder_and_goes_on(tmp_path: Path) -> None:
    root = tmp_path / "vaults"
    root.mkdir()
    (root / "small.txt").write_text(VAULT)
    (root / "index.toml").write_text('["small.txt"]\noptimum = 8\n')
    os.mkfifo(root / "pipe.txt")
    (root / "null.txt").symlink_to("/dev/null")
    out = tmp_path / "runs.jsonl"
    with _writer_after_a_minute(root / "pipe.txt"):
        result = invoke("compare", str(root), "--solver", "test-plain", "--out", str(out))
    messages = {r.instance: r.message for r in read_records(out) if r.solver == "-"}
    assert "it is a FIFO (named pipe)" in messages["pipe.txt"]
    assert "it is a character device" in messages[str(root / "null.txt")]  # named by path: it links outside
    assert [r.status for r in read_records(out) if r.instance == "small.txt"] == [Status.OPTIMAL]
    assert "3 instances: 2 error, 1 agree" in result.output  # worst first
    assert result.exit_code == 3  # unreadable instances, nothing wrong


def test_the_summary_names_crashed_runs_by_status_and_solver(tmp_path: Path) -> None:
    """A crash leaves the verdict to the other solvers (here `unverified` on both
    instances), so the summary line of `report` says how many runs crashed, and whose."""
    path = tmp_path / "runs.jsonl"
    path.write_text(_line("a.txt", Status.ERROR).replace("test-plain", "elevator-mine")
                    + _line("b.txt", Status.ERROR).replace("test-plain", "elevator-mine")
                    + _line("b.txt", Status.MEMOUT).replace("test-plain", "keys-cpsat")
                    + _line("a.txt", Status.ERROR) + _line("a.txt", Status.TIMEOUT).replace("test-plain", "other"))
    summary = invoke("report", str(path)).output.splitlines()[-1]
    assert summary == ("2 instances: 2 unverified; 4 runs crashed: 3 error (elevator-mine 2, test-plain 1), "
                       "1 memout (keys-cpsat)")
    assert invoke("report", str(path), "--by", "solver").output.splitlines()[-1] == summary


def test_compare_names_a_crashed_solver_next_to_an_agreement(tmp_path: Path) -> None:
    (tmp_path / "small.txt").write_text(VAULT)
    (tmp_path / "index.toml").write_text('["small.txt"]\noptimum = 8\n')
    result = invoke("compare", str(tmp_path / "small.txt"), "--solver", "test-plain", "--solver", "test-crasher",
                    "--out", str(tmp_path / "runs.jsonl"))
    assert "1 instance: 1 agree; 1 run crashed: 1 error (test-crasher)" in result.output
    [reason] = [line for line in result.output.splitlines() if line.startswith("test-crasher: ")]
    assert reason.startswith("test-crasher: 1 error run; on small.txt: ") and "7" in reason  # its exit code
    assert result.exit_code == 3
    # the crash's record, written by the parent, names the plugin's version like the run's own record
    sources = {r.solver: r.environment.get("solver_source") for r in read_records(tmp_path / "runs.jsonl")}
    assert sources["test-crasher"] == sources["test-plain"] == plugin_source(Crasher)


def test_an_external_program_declines_an_instance_without_crashing(tmp_path: Path) -> None:
    (tmp_path / "small.txt").write_text(VAULT)
    (tmp_path / "index.toml").write_text('["small.txt"]\noptimum = 8\n')
    script = tmp_path / "decline.py"
    script.write_text("import sys\nopen(sys.argv[1])\nprint('unsupported')\n")
    out = tmp_path / "runs.jsonl"
    result = invoke("compare", str(tmp_path / "small.txt"), "--solver", "test-plain",
                    "--external", f"decliner={sys.executable} {script} {{path}}", "--out", str(out))
    assert {r.solver: r.status for r in read_records(out)} == {"test-plain": Status.OPTIMAL,
                                                               "decliner": Status.UNSUPPORTED}
    assert result.output.splitlines()[-2] == "1 instance: 1 agree"  # no crash to report
    assert result.exit_code == 0


def test_solve_takes_external_programs_like_compare(tmp_path: Path) -> None:
    (tmp_path / "small.txt").write_text(VAULT)
    script = tmp_path / "claim.py"
    script.write_text("import sys\nopen(sys.argv[1])\nprint('answer:', 9)\n")
    command = f"{sys.executable} {script} {{path}}"
    result = invoke("solve", str(tmp_path / "small.txt"), "--solver", "test-plain", "--external", f"keys:mine={command}",
                    "--format", "json")
    records = [RunRecord.model_validate(r) for r in json.loads(result.stdout)]
    assert [(r.solver, r.cost, r.evidence) for r in records] == [("test-plain", 8, "proof"), ("mine", 9, "claim")]
    assert "small.txt: false-optimal: mine claimed optimum 9" in result.stderr
    assert result.exit_code == 1
    refused = invoke("solve", str(tmp_path / "small.txt"), "--external", f"test-plain={command}")
    assert refused.exit_code == 2
    assert "'test-plain' is already a solver's name (CROSSCHECK_SOLVERS module tests.fixtures.plugin_solvers)" in refused.output
    other = invoke("solve", str(tmp_path / "small.txt"), "--external", f"keys:mine={command}",
                   "--external", f"elevator:lift={command}")  # of another puzzle: nothing would run it
    assert other.exit_code == 2 and "elevator:lift runs on elevator instances only" in other.output



def test_an_external_named_like_a_solver_registered_by_hand_is_refused_naming_its_module(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A solver put in SOLVERS by hand has no ORIGINS entry: the message raised KeyError."""
    monkeypatch.setitem(registry.SOLVERS, "by-hand", Crasher())  # the plugins fixture's copy
    (tmp_path / "small.txt").write_text(VAULT)
    result = invoke("solve", str(tmp_path / "small.txt"), "--external", "by-hand=prog {path}")
    assert result.exit_code == EXIT_USAGE
    assert "'by-hand' is already a solver's name (CROSSCHECK_SOLVERS module tests.fixtures.plugin_solvers)" in result.output

KNOWN_KEYS = "optimum, variant_optimum, infeasible, origin, provers, independent, shared, certified"


@pytest.mark.parametrize("index_text, problem", [
    ('["small.txt"]\noptimum = = 3\n',
     '2:11: Invalid value (not TOML; expected tables ["INSTANCE.txt"] of KEY = VALUE lines)'),
    ('["small.txt"]\norigin = "typed"\noptimun = 8\n',
     f'3:1: unknown key \'optimun\' in ["small.txt"] (expected one of: {KNOWN_KEYS})'),
    ('["small.txt"]\noptimum = "8"\n', '2:11: optimum = \'8\' in ["small.txt"] (expected an integer)'),
    ('["small.txt"]\n  optimum =  \'eight\'\n', '2:14: optimum = \'eight\' in ["small.txt"] (expected an integer)'),
    ('["small.txt"]\n  "optimun" = 8\n', f'2:3: unknown key \'optimun\' in ["small.txt"] (expected one of: {KNOWN_KEYS})'),
    ('optimum = 8\n', "1:1: 'optimum' is not a table (expected a [\"optimum\"] header followed by KEY = VALUE lines)"),
    ('["small.txt"]\ninfeasible = true\noptimum = 20\n', '3:11: optimum = 20 in ["small.txt"] beside infeasible = '
     'true (expected one of them: an optimum for an instance with a solution, infeasible = true for one without)'),
    ('["small.txt"]\noptimum = -5\n', '2:11: optimum = -5 in ["small.txt"] (expected a cost: an integer, 0 or more)'),
    ('["small.txt"]\norigin = "x"\nindependent = 7\n', '3:15: independent = 7 in ["small.txt"] with no answer '
     '(expected optimum = N or infeasible = true in the same entry, the answer it is evidence for)'),
    ('["small.txt"]\noptimum = 8\nprovers = ["a", "b"]\nindependent = 3\n',
     '4:15: independent = 3 in ["small.txt"] (expected at least 1 and at most the 2 provers listed)'),
    ('["small.txt"]\noptimum = 8\nprovers = ["a"]\nindependent = 2\n',
     '4:15: independent = 2 in ["small.txt"] (expected at least 1 and at most the 1 prover listed)'),
    ('["small.txt"]\noptimum = true\n', '2:11: optimum = true in ["small.txt"] (expected an integer)'),
    ('["small.txt"]\noptimum = [1, true]\n', '2:11: optimum = [1, true] in ["small.txt"] (expected an integer)'),
    ('[a]\n[a."b.txt"]\noptimum = 15\n', '2:2: unknown key \'b.txt\' in ["a"]: a table nested in it (expected '
     'one table per instance, named by its whole path in one pair of quotes, such as ["folder/name.txt"]: '
     'a dot outside quotes nests one table in another)'),
    ('["small.txt"]\noptimum = 8\n\n[small.txt]\n', '4:2: unknown key \'txt\' in ["small"]: a table nested in '
     'it (expected one table per instance, named by its whole path in one pair of quotes, such as '
     '["folder/name.txt"]: a dot outside quotes nests one table in another)'),
    *[(f'["{key}"]\noptimum = 8\n', f'1:3: ["{key}"] is not the instance\'s path as the index names it '
       '(expected ["small.txt"]: its path from the index\'s folder, with no "." or ".." part, no doubled or '
       'trailing "/")') for key in ("./small.txt", "sub/../small.txt", "small.txt/", ".//small.txt")],
])
@pytest.mark.parametrize("command", ["compare", "solve"])
def test_an_unusable_index_is_one_line_naming_file_line_and_what_was_expected(
        tmp_path: Path, command: str, index_text: str, problem: str) -> None:
    """A misspelt key must not pass for "no optimum known" (an `agree` that checked nothing)."""
    (tmp_path / "small.txt").write_text(VAULT)
    (tmp_path / "index.toml").write_text(index_text)
    target = tmp_path if command == "compare" else tmp_path / "small.txt"
    result = invoke(command, str(target), "--solver", "test-plain", "--out", str(tmp_path / "runs.jsonl"))
    assert result.output == f"Error: {tmp_path / 'index.toml'}:{problem}\n"
    assert result.exit_code == EXIT_USAGE


def test_record_optima_refuses_an_index_with_an_unknown_key(tmp_path: Path) -> None:
    index = tmp_path / "index.toml"
    index.write_text('["small.txt"]\noptimun = 8\n')
    results = _results(tmp_path, _line("c.txt").strip())
    result = invoke("record-optima", str(results), "--index", str(index))
    assert result.exit_code == EXIT_USAGE and result.output.startswith(f"Error: {index}:2:1: unknown key 'optimun'")
    assert index.read_text() == '["small.txt"]\noptimun = 8\n'


def test_record_optima_refuses_an_index_naming_a_file_by_a_roundabout_path(tmp_path: Path) -> None:
    """``["./small.txt"]`` would never judge small.txt, and the run's ``["small.txt"]``
    appended beside it would give the file two entries: the index is refused, untouched."""
    (tmp_path / "small.txt").write_text(VAULT)
    index = tmp_path / "index.toml"
    index.write_text('["./small.txt"]\noptimum = 12\n')
    results = tmp_path / "runs.jsonl"
    results.write_text(_line("small.txt", Status.OPTIMAL).replace('"cost":null', '"cost":8'))
    result = invoke("record-optima", str(results), "--index", str(index), "--allow-single")
    assert result.exit_code == EXIT_USAGE
    assert result.output.startswith(f'Error: {index}:1:3: ["./small.txt"] is not the instance\'s path')
    assert index.read_text() == '["./small.txt"]\noptimum = 12\n'


@pytest.mark.parametrize("cost", [99999999999999999999999, -9223372036854775809])
def test_a_recorded_cost_no_int64_column_holds_is_refused_naming_its_line(tmp_path: Path, cost: int) -> None:
    """An external program's claim of 99999999999999999999999, recorded before claims were
    checked, made ``report --format parquet`` die with OverflowError (exit 1)."""
    middle = _line("c.txt", Status.OPTIMAL).replace('"cost":null', f'"cost":{cost}').strip()
    path = _results(tmp_path, middle)
    for extra in (("--format", "parquet", "-o", str(tmp_path / "runs.parquet")), ("--format", "csv")):
        result = invoke("report", str(path), *extra)
        assert result.exit_code == EXIT_USAGE and result.output.startswith(f"Error: {path}:2: not a run record: "
                                                                            "field 'cost': Input should be "), extra
        assert len(result.output.splitlines()) == 1



def test_a_recorded_negative_claim_is_read_and_judged(tmp_path: Path) -> None:
    """Records of a claim of -3 (an external program's, before today refused) stay readable."""
    path = _results(tmp_path, _line("c.txt", Status.OPTIMAL).replace('"cost":null', '"cost":-3').strip())
    assert read_records(path)[1].cost == -3
    result = invoke("report", str(path), "--format", "parquet", "-o", str(tmp_path / "runs.parquet"))
    assert result.exit_code != EXIT_USAGE and load(tmp_path / "runs.parquet")["cost"].tolist()[1] == -3, result.output


def test_a_recorded_integer_too_long_to_convert_is_refused_naming_its_line(tmp_path: Path) -> None:
    """A line holding 5,000 digits raised ValueError past ``except JSONDecodeError``: a traceback."""
    path = _results(tmp_path, _line("c.txt").replace('"cost":null', f'"cost":{"9" * 5000}').strip())
    with pytest.raises(MalformedRecord) as error:
        read_records(path)
    assert str(error.value) == (f"{path}:2: not a run record: it holds an integer of more than 4300 digits, "
                                "expected costs of at most 19 (64 bits)")


def test_a_claimed_negative_optimum_below_a_checked_plan_is_a_wrong_answer(tmp_path: Path) -> None:
    """``optimum: -3`` was an ``error`` run (exit 3) for a day: it is a claim, judged wrong."""
    (tmp_path / "small.txt").write_text(VAULT)
    script = tmp_path / "claim.py"
    script.write_text("import sys\nopen(sys.argv[1])\nprint('optimum: -3')\n")
    out = tmp_path / "runs.jsonl"
    result = invoke("compare", str(tmp_path / "small.txt"), "--solver", "test-plain",
                    "--external", f"mine={sys.executable} {script} {{path}}", "--out", str(out))
    assert {r.solver: (r.status, r.cost) for r in read_records(out)} == {"test-plain": (Status.OPTIMAL, 8),
                                                                         "mine": (Status.OPTIMAL, -3)}
    assert "mine claimed optimum -3" in result.output, result.output
    assert result.exit_code == 1

@pytest.mark.parametrize("module", ["pyarrow", "pandas"])
def test_parquet_without_the_analysis_extra_says_which_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             module: str) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # `import module` now fails, as when it is not installed
    path = _results(tmp_path, _line("c.txt").strip())
    result = invoke("report", str(path), "--format", "parquet", "-o", str(tmp_path / "runs.parquet"))
    assert result.output == (f"Error: --format parquet needs the analysis extra ({module} not installed): "
                             ".venv/bin/pip install -e '.[analysis]' (in the clone)\n")
    assert result.exit_code == EXIT_USAGE
    assert not (tmp_path / "runs.parquet").exists()


def test_scheduler_without_the_cluster_extra_names_the_same_install_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "crosscheck.harness.runs.cluster", None)  # as when Dask is not installed
    (tmp_path / "small.txt").write_text(VAULT)
    result = invoke("compare", str(tmp_path), "--solver", "test-plain", "--scheduler", "tcp://localhost:1")
    assert result.exit_code == EXIT_USAGE
    assert result.output.splitlines()[-1].startswith("Error: --scheduler needs the cluster extra (")
    assert result.output.splitlines()[-1].endswith("): .venv/bin/pip install -e '.[cluster]' (in the clone)")


def test_a_text_no_puzzle_claims_says_what_each_puzzle_looks_for(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("vault 3, first try\n#####\n#a.A#\n")
    result = invoke("solve", str(path))
    assert result.exit_code == EXIT_USAGE  # the one instance given could not be read: nothing ran
    assert f"{path}:1:1: not an instance of any known puzzle (expected one of: " in result.output
    for title in ("key vault, ", "amphipod burrow, ", "elevator with generators and microchips, "):
        assert title in result.output
    assert "first line is all wall '#'" in result.output and "'The first floor contains'" in result.output


@pytest.mark.parametrize("data, problem", [
    (b"#####\n#a.A#\n#####\n", "1:1: no robot in the grid (expected at least one '@')"),
    (b"\n" + VAULT.encode(), "1:1: the file starts with a blank line (expected the grid's top wall row on line 1)"),
    (VAULT.encode().replace(b"#\n", b"#\n\xe9", 1),
     "2:1: not UTF-8 text: byte 0xe9 (invalid continuation byte) (expected a file saved as UTF-8)"),
    (b"####\n#@\xc3\xa9\xff#\n", "2:4: not UTF-8 text: byte 0xff (invalid start byte) (expected a file saved as UTF-8)"),
])
def test_a_malformed_vault_is_named_where_it_is_wrong(tmp_path: Path, data: bytes, problem: str) -> None:
    """Reached by the vault's parser (not "no known puzzle"); a column counts characters."""
    path = tmp_path / "bad.txt"
    path.write_bytes(data)
    result = invoke("solve", str(path))
    assert (result.exit_code, result.output) == (EXIT_USAGE, f"Error: {path}:{problem}\n")


def test_a_byte_order_mark_is_no_part_of_the_instance(tmp_path: Path) -> None:
    """Some editors write one: the file still solves, and columns count as the editor shows."""
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + VAULT.encode())
    (tmp_path / "bad.txt").write_bytes(b"\xef\xbb\xbf#?###\n#@.a#\n#####\n")
    result = invoke("solve", str(tmp_path / "bom.txt"), "--solver", "test-plain", "--out", str(tmp_path / "r.jsonl"))
    assert result.exit_code == 0, result.output
    assert invoke("solve", str(tmp_path / "bad.txt")).output.startswith(f"Error: {tmp_path / 'bad.txt'}:1:2: ")


@pytest.mark.parametrize("puzzle, param, problem", [
    ("elevator", "pairs=abc", "pairs=abc: expected an integer (number of elements, 1 to 28 (default 5)), got 'abc'"),
    ("elevator", "safe=maybe", "safe=maybe: expected true or false (redraw until the start is safe (default true)), "
                               "got 'maybe'"),
    ("keys", "size=abc", "size=abc: expected an integer (grid side, 4k+1 from 9 to 401 (default 81)), got 'abc'"),
    ("amphipods", "depth=x", "depth=x: expected an integer (room depth, 1 to 1000 (default 2)), got 'x'"),
    ("amphipods", "swaps=1.5", "swaps=1.5: expected an integer"),
])
def test_generate_names_a_parameter_value_of_the_wrong_kind(tmp_path: Path, puzzle: str, param: str,
                                                           problem: str) -> None:
    result = invoke("generate", puzzle, "--count", "2", "-p", param, "-o", str(tmp_path / "g"))
    assert result.exit_code == EXIT_USAGE
    assert result.output.splitlines()[-1].startswith(f"Error: Invalid value for --param: {problem}"), result.output
    assert not list(tmp_path.glob("g/*.txt"))


@pytest.mark.parametrize("puzzle, params, problem", [
    ("keys", ["size=100001"], "size=100001: out of range, expected 9 to 401 (4k+1)"),
    ("keys", ["size=5"], "size=5: out of range, expected 9 to 401"),
    ("keys", ["size=11"], "size=11: expected 4k+1 (9, 13, 17, ..., 401)"),
    ("keys", ["keys=27"], "keys=27: out of range, expected 1 to 26"),
    ("keys", ["keys=3", "doors=4"], "doors=4: out of range, expected 0 to 3"),
    ("keys", ["loops=-1"], "loops=-1: out of range, expected 0 to 1444 for size 81"),
    ("keys", ["size=9", "loops=5"], "loops=5: out of range, expected 0 to 4 for size 9"),
    ("keys", ["robots=2"], "robots=2: expected 1 or 4"),
    ("amphipods", ["depth=0"], "depth=0: out of range, expected 1 to 1000"),
    ("amphipods", ["depth=1001"], "depth=1001: out of range, expected 1 to 1000"),
    ("amphipods", ["swaps=1000001"], "swaps=1000001: out of range, expected 0 to 1000000"),
    ("elevator", ["pairs=29"], "pairs=29: out of range, expected 1 to 28"),
    ("elevator", ["floors=1000"], "floors=1000: out of range, expected 1 to 999"),
    ("elevator", ["floors=3", "spread=4"], "spread=4: out of range, expected 1 to 3"),
])
def test_generate_refuses_a_parameter_out_of_its_range_naming_it_and_the_range(
        tmp_path: Path, puzzle: str, params: list[str], problem: str) -> None:
    """Out of range: one error line naming the parameter, its value and the range; exit 2
    before any file or folder is written."""
    options = [option for param in params for option in ("-p", param)]
    result = invoke("generate", puzzle, "--count", "2", *options, "-o", str(tmp_path / "g"))
    assert result.exit_code == EXIT_USAGE
    assert result.output.splitlines()[-1].startswith(f"Error: Invalid value for --param: {problem}"), result.output
    assert not (tmp_path / "g").exists()


def test_generate_draws_at_the_top_of_each_range() -> None:
    """The largest values allowed are honoured: each instance parses back from its text."""
    from crosscheck.models.registry import puzzles

    tops = [("keys", {"size": 9, "loops": 4, "keys": 4}), ("keys", {"size": 13, "loops": 16, "keys": 8}),
            ("elevator", {"pairs": 28, "floors": 999}), ("amphipods", {"depth": 1000, "swaps": 10})]
    for puzzle, params in tops:
        for seed in range(5):
            instance = puzzles()[puzzle].generate(seed, **params)
            assert puzzles()[puzzle].parse(instance.to_text(), "x.txt").to_text() == instance.to_text()


def test_every_generator_parameter_can_be_given_on_the_command_line() -> None:
    """Each parameter `crosscheck list --params` names, of every known puzzle (a plugin's too),
    has a type an option's text converts to."""
    from typing import get_type_hints

    from crosscheck.models.puzzle import generator_argument
    from crosscheck.models.registry import puzzles

    for puzzle in puzzles().values():
        for name in puzzle.generator_params:
            flag = get_type_hints(puzzle.generate)[name] is bool
            value = generator_argument(puzzle, name, "true" if flag else "3")
            assert value is True if flag else value in (3, "3")


@pytest.mark.parametrize("param, problem", [
    ("floors=x", "floors=x: expected an integer or a range LOW-HIGH such as 3-5, got 'x'"),
    ("pairs", "'pairs': expected NAME=RANGE such as floors=2-4 or pairs=3"),
    ("pairs=1-30", "pairs=1-30: out of range, expected 1 to 28"),
])
def test_hunt_names_a_size_range_it_cannot_read(tmp_path: Path, param: str, problem: str) -> None:
    result = invoke("hunt", "elevator", "-p", param, "--out", str(tmp_path / "hunt"))
    assert result.exit_code == EXIT_USAGE
    assert result.output.splitlines()[-1] == f"Error: Invalid value for --param: {problem}"


def test_export_names_an_instance_it_cannot_parse_and_exports_the_others(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "good.txt").write_text(VAULT)
    bad = tmp_path / "in" / "bad.txt"
    bad.write_text("#########\n#b.A.@.?#\n#########\n")
    for target in (bad, tmp_path / "in"):
        result = invoke("export", str(target), "--pddl", str(tmp_path / "pddl"))
        assert result.exit_code == EXIT_USAGE
        assert f"Error: {bad}:2:8: " in result.output
    assert (tmp_path / "pddl" / "good-problem.pddl").is_file()

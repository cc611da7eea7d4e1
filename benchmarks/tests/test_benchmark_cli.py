"""The benchmark scripts as commands: a file they cannot read is one line and exit 2, every
option has a help text, and every measured number is printed to three significant digits."""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pyperf
import pytest

import benchmarks
from benchmarks import bench_elevator, bench_keys_cpsat, compare, fault_audit, speed
from benchmarks.inputs import BAD_INPUT

BENCHMARKS = Path(benchmarks.__file__).parent


def _refused(capsys: pytest.CaptureFixture[str], run: Callable[[], object], *names: str) -> str:
    """Run `run` (a callable), expect exit status 2, and return its one line of standard error."""
    with pytest.raises(SystemExit) as stopped:
        run()
    assert stopped.value.code == BAD_INPUT
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert all(name in err for name in names), err
    return err


def _suite(path: Path, values: list[float]) -> str:
    run = pyperf.Run(values, metadata={"name": "b", "unit": "second", "loops": 1, "clock": "cpu"},
                     collect_metadata=False)
    pyperf.BenchmarkSuite([pyperf.Benchmark([run])]).dump(str(path), replace=True)
    return str(path)


@pytest.mark.parametrize("content, said", [
    (None, "No such file"), ("{not json", ":1:2: cannot read it (not JSON"), ("[]", "wrong shape"),
    ('{"version": "1.0", "benchmarks": [{}]}', "wrong shape")], ids=["missing", "not-json", "list", "no-runs"])
def test_compare_refuses_a_file_it_cannot_read_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           content: str | None, said: str) -> None:
    good, bad = _suite(tmp_path / "good.json", [1.0, 1.1, 1.2]), tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content, encoding="utf-8")
    err = _refused(capsys, lambda: compare.main([good, str(bad)]), str(bad), said, "expected a pyperf JSON file")
    assert err.startswith(f"error: {bad}")


def test_keys_cpsat_refuses_a_bad_example_before_any_solve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    def no_solve(*args: object) -> None:
        raise AssertionError("solved before reading --example")

    monkeypatch.setattr(bench_keys_cpsat, "timed_run", no_solve)
    for text, said in ((None, "No such file"), ("#####\n#@.a#\n####\n", ":3:")):
        example = tmp_path / "vault.txt"
        if text is not None:
            example.write_text(text, encoding="utf-8")
        monkeypatch.setattr(sys, "argv", ["bench_keys_cpsat", "--seeds", "0", "--example", str(example)])
        _refused(capsys, bench_keys_cpsat.main, str(example), said, "expected a key vault")


def test_write_refuses_an_unreadable_results_file_before_running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(speed, "_run", lambda *args: pytest.fail("ran a benchmark before checking --write"))
    folder = tmp_path / "results.md"
    folder.mkdir()
    _refused(capsys, lambda: speed.main(["--out", str(tmp_path / "runs"), "--write", str(folder)]), str(folder))
    latin = tmp_path / "latin.md"
    latin.write_bytes("caf\xe9\n".encode("latin-1"))
    _refused(capsys, lambda: fault_audit.main(["--kept", "--out", str(tmp_path / "audit"), "--write", str(latin)]),
             str(latin), "expected a UTF-8 Markdown results file")


def test_a_broken_kept_outcome_is_named_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    [fault, *_] = fault_audit.FAULTS
    kept = tmp_path / f"{fault.name}.json"
    kept.write_text('{"relations": {}, "wrong_agreed": 0}\n', encoding="utf-8")
    _refused(capsys, lambda: fault_audit.load(fault, kept), str(kept), "wrong shape", "delete the file")


class _Parsed(Exception):
    """Carries the parser a script built, in place of running the script."""


def _parsers() -> dict[str, argparse.ArgumentParser]:
    """Every benchmark entry point's parser, built by its `main` (stopped at `parse_args`)."""
    found = {}
    for info in pkgutil.iter_modules([str(BENCHMARKS)]):
        module = importlib.import_module(f"benchmarks.{info.name}")
        main = getattr(module, "main", None)
        if main is None:
            continue
        with pytest.MonkeyPatch.context() as patch:
            def stop(parser: argparse.ArgumentParser, *args: object) -> None:
                raise _Parsed(parser)

            patch.setattr(argparse.ArgumentParser, "parse_args", stop)
            with pytest.raises(_Parsed) as parsed:
                main([]) if inspect.signature(main).parameters else main()
        found[info.name] = parsed.value.args[0]
    return found


def test_every_option_of_every_benchmark_says_what_it_does() -> None:
    parsers = _parsers()
    assert set(speed.BENCHMARKS[name][0] for name in speed.BENCHMARKS) <= set(parsers)
    assert {"compare", "speed", "fault_audit"} <= set(parsers)
    silent = [f"{name} {action.option_strings or action.dest}" for name, parser in parsers.items()
              for action in parser._actions if not action.help and not isinstance(action, argparse._HelpAction)]
    assert silent == []


def test_compare_prints_fast_benchmarks_to_three_significant_digits(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    old = _suite(tmp_path / "old.json", [4e-5, 5e-5, 6e-5])
    assert compare.main([old, _suite(tmp_path / "new.json", [0.0123, 0.0124, 0.0125])]) == 1
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[1:4] == ["5.00e-05", "0.0124", "248"]


def test_the_elevator_table_keeps_three_significant_digits_of_fast_solves() -> None:
    row = bench_elevator.quotient_row(5, [0.00012, 0.0003], [0.0002, 0.0004, 0.05]).split()
    assert row == ["5", "2", "2.10e-04", "3.00e-04", "4.00e-04", "0.0500", "0.00420"]
    assert bench_elevator.quotient_row(7, [], [1.0]).split() == ["7", "0", "-", "-", "1.00", "0.300", "-"]


#: A fixed number of decimals (``:.3f``, ``:6.2f``, ``:.3g``): what `significant` replaces;
#: group 1 is the field's expression.
FIXED = re.compile(r"\{([^{}]*):[<>^]?\d*\.[1-9][fg]\}")


def measured_fixed(line: str) -> list[str]:
    """The fixed-decimal fields of `line` except a load average's, which keeps its decimals as
    uptime prints it: ``os.getloadavg()[i]``, a name the line takes from ``os.getloadavg()``
    (``for x in os.getloadavg()``), or a value named ``load``.  Every other field is one, even
    on the line of a load average or beside the word (``loaded``)."""
    loads = set(re.findall(r"for (\w+) in os\.getloadavg\(\)", line)) | {"load"}
    return [match.group(0) for match in FIXED.finditer(line)
            if "getloadavg()" not in match.group(1) and match.group(1).strip() not in loads]


def test_the_format_scan_spares_load_averages_only() -> None:
    assert measured_fixed('print(f"loaded {rows} rows in {seconds:.3f} s")') == ["{seconds:.3f}"]
    assert measured_fixed('print(f"load average {os.getloadavg()[0]:.1f}, took {t:6.2f} s")') == ["{t:6.2f}"]
    assert measured_fixed('load=" ".join(f"{x:.2f}" for x in os.getloadavg()),') == []
    assert measured_fixed('head = f"{name:<22} seed {seed:<3} load {load:4.1f}  "') == []


def test_benchmarks_print_measured_numbers_through_significant() -> None:
    """Load averages keep their one decimal; every other number goes through `significant`."""
    fixed = [f"{path.name}:{number}: {line.strip()}" for path in sorted(BENCHMARKS.glob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if measured_fixed(line)]
    assert fixed == []

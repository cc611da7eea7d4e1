"""The Python API (crosscheck/api.py): the commands as functions returning their outcomes,
the records read back as typed runs, and docs/examples/compare_folder.py, which must get
the verdicts `crosscheck compare` gets on the same folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.judging.verdicts import Verdict
from crosscheck.harness.records.record import RunRecord, read_records
from crosscheck.models.answers import Optimum

import crosscheck
from tests.fixtures.known import INSTANCES

ROOT = Path(__file__).resolve().parents[1]
VAULT = "#####\n#@.a#\n#####\n"  # two steps to the key


@pytest.fixture
def vaults(tmp_path: Path) -> Path:
    folder = tmp_path / "vaults"
    folder.mkdir()
    (folder / "v.txt").write_text(VAULT)
    (folder / "index.toml").write_text('["v.txt"]\noptimum = 2\n')
    return folder


def test_every_public_name_resolves() -> None:
    for name in crosscheck.__all__:
        assert getattr(crosscheck, name) is not None, name


def test_compare_returns_the_judged_runs_and_prints_nothing(vaults: Path, tmp_path: Path,
                                                            capfd: pytest.CaptureFixture[str]) -> None:
    told: list[str] = []
    outcome = crosscheck.compare(vaults, solvers=["keys-grid", "keys-graph"], time_limit=10,
                                 out=tmp_path / "runs.jsonl", tell=told.append)
    assert capfd.readouterr() == ("", "")
    assert outcome.exit_status == 0 and outcome.out == tmp_path / "runs.jsonl" and outcome.notes == tuple(told)
    [verdict] = outcome.runs.verdicts
    assert (verdict.instance, verdict.verdict, verdict.answer) == ("v.txt", Verdict.AGREE, Optimum(2))
    assert {r.solver for r in outcome.runs.records} == {"keys-grid", "keys-graph"}
    def by_solver(records: list[RunRecord]) -> list[RunRecord]:
        return sorted(records, key=lambda record: record.solver)

    assert by_solver(read_records(tmp_path / "runs.jsonl")) == by_solver(outcome.runs.records)  # saved as they ended


def test_runs_read_back_are_typed_records_with_a_frame_one_call_away(vaults: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    crosscheck.compare(vaults, solvers=["keys-grid"], time_limit=10, out=first)
    crosscheck.compare(vaults, solvers=["keys-graph"], time_limit=10, out=second)
    runs = crosscheck.read_runs([first, str(second)])
    assert all(isinstance(record, RunRecord) for record in runs.records)
    assert [(v.verdict, v.independent) for v in runs.verdicts] == [(Verdict.AGREE, 2)]
    frame = crosscheck.runs_frame([first, second])
    assert sorted(frame.solver) == ["keys-graph", "keys-grid"] and set(frame.verdict) == {"agree"}
    assert list(frame.expected) == [2, 2] and frame.equals(runs.frame())


def test_settings_that_cannot_make_sense_are_refused_before_any_run(vaults: Path, tmp_path: Path) -> None:
    with pytest.raises(crosscheck.SettingsError, match="unknown solver") as refused:
        crosscheck.compare(vaults, solvers=["keys-nothing"], out=tmp_path / "x.jsonl")
    assert refused.value.option == "--solver"
    with pytest.raises(crosscheck.SettingsError) as twice:
        crosscheck.compare(vaults, externals=["mine=cat {path}", "mine=cat {path}"], out=tmp_path / "x.jsonl")
    assert twice.value.option == "--external"
    (tmp_path / "empty").mkdir()
    with pytest.raises(crosscheck.UnusableInput, match="no instance to run"):
        crosscheck.compare(tmp_path / "empty", out=tmp_path / "x.jsonl")
    assert not (tmp_path / "x.jsonl").exists()


def test_solve_morph_and_hunt_return_their_outcomes(vaults: Path, tmp_path: Path) -> None:
    solved = crosscheck.solve(vaults / "v.txt", solvers=["keys-grid"], time_limit=10)
    assert solved.exit_status == 0 and [r.cost for r in solved.runs.records] == [2]
    morphed = crosscheck.morph(vaults, tmp_path / "morph", solvers=["keys-grid"], relations=["symmetry"], count=1,
                               time_limit=10)
    assert morphed.exit_status == 0 and [p.verdict for p in morphed.pairs] == [Verdict.AGREE]
    hunted = crosscheck.hunt("elevator", tmp_path / "hunt", solvers=["elevator-quotient"], params={"pairs": (1, 1)},
                             examples=2, seed=1, time_limit=10, jobs=1)
    assert hunted.exit_status == 0 and hunted.tried == 2 and hunted.shrunk is None
    assert hunted.settings.runs.solvers == ("elevator-quotient",)


def test_the_example_script_gets_the_verdicts_of_the_command_line(tmp_path: Path) -> None:
    """docs/examples/compare_folder.py and ``crosscheck compare`` on instances/elevator: the
    same verdict and independent count on every instance, and the same counts printed."""
    options = ["--solver", "elevator-quotient", "--time-limit", "10"]
    script = subprocess.run([sys.executable, str(ROOT / "docs" / "examples" / "compare_folder.py"),
                             str(INSTANCES / "elevator"), *options, "--out", str(tmp_path / "script.jsonl")],
                            cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert script.returncode == 0, script.stderr
    command = CliRunner().invoke(main, ["compare", str(INSTANCES / "elevator"), *options,
                                        "--out", str(tmp_path / "cli.jsonl")])
    assert command.exit_code == 0, command.output
    ours, theirs = (crosscheck.read_runs(tmp_path / name).verdicts for name in ("script.jsonl", "cli.jsonl"))
    assert sorted((v.instance, v.verdict, v.independent) for v in ours) == sorted(
        (v.instance, v.verdict, v.independent) for v in theirs)
    assert len(ours) == len(list((INSTANCES / "elevator").rglob("*.txt")))
    assert f"agree: {len(ours)}\n" in script.stdout and f"{len(ours)} instances: {len(ours)} agree" in command.output


def test_the_usage_pages_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """docs/usage.md's "From Python" block, run from a folder that holds the instances."""
    usage = (ROOT / "docs" / "usage.md").read_text()
    start = usage.index("```python\n", usage.index("## From Python")) + len("```python\n")
    example = usage[start:usage.index("```\n", start)]
    (tmp_path / "instances").symlink_to(INSTANCES, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    exec(compile(example, "docs/usage.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    verdicts = [line.split() for line in printed if line.startswith("elevator/")]
    assert printed[0] == "0" and len(verdicts) == len(read_records(tmp_path / "runs.jsonl"))
    assert all(words[1] == "agree" and words[3] == "1" for words in verdicts)  # elevator-quotient alone
    assert any(line.startswith("elevator-quotient ") for line in printed)  # the median seconds per solver

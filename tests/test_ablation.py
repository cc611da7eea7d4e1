"""Configurations on the command line, end to end: --solver specs in every command that takes
them, ``list --options``, honest evidence of configurations in compare's verdicts, and the
ablation view of ``report`` (text, LaTeX, HTML)."""

from __future__ import annotations

import json
from pathlib import Path

import crosscheck.harness.workflows.compare
import crosscheck.solvers.registry
import pytest
from click.testing import CliRunner, Result
from crosscheck.harness.cli import main
from crosscheck.harness.judging.verdicts import judge_all
from crosscheck.harness.records.record import RunRecord, read_records
from crosscheck.harness.reports.ablation import NoAblation, ablation
from crosscheck.solvers.base import Status

from tests.fixtures import INSTANCES

VAULTS = [str(INSTANCES / "keys" / name) for name in
          ("one-robot-2.txt", "four-robots-4.txt", "loop-1.txt", "one-robot-5.txt", "four-robots-2.txt")]


@pytest.fixture(autouse=True)
def plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The planted configured formulation (tests.fixtures.configured_solvers) registered for the CLI and
    its runs; the registry restored afterwards; default results files kept in `tmp_path`."""
    monkeypatch.setenv("CROSSCHECK_SOLVERS", "tests.fixtures.configured_solvers")
    monkeypatch.setattr(crosscheck.solvers.registry, "SOLVERS", dict(crosscheck.solvers.registry.SOLVERS))
    monkeypatch.setattr(crosscheck.solvers.registry, "CONFIGURED", {})
    names = iter(range(10**6))
    monkeypatch.setattr(crosscheck.harness.workflows.compare, "fresh_results_path",
                        lambda: tmp_path / "results" / f"default-{next(names)}.jsonl")


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def compared(out: Path, *args: str) -> list[RunRecord]:
    result = invoke("compare", *VAULTS, "--out", str(out), "--time-limit", "20", "--progress", "none", *args)
    assert result.exit_code == 0, result.output
    return read_records(out)


@pytest.fixture(scope="module")
def keys_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[RunRecord], list[RunRecord]]:
    """The records of two comparisons of the vaults: two configurations of keys-graph and
    keys-grid; keys-graph alone and keys-grid."""
    folder = tmp_path_factory.mktemp("ablation")
    both = compared(folder / "both.jsonl", "--solver", "keys-graph[bound=none|default]", "--solver", "keys-grid")
    alone = compared(folder / "alone.jsonl", "--solver", "keys-graph", "--solver", "keys-grid")
    return both, alone


def test_two_configurations_run_agree_and_count_as_one_prover(keys_runs: tuple[list[RunRecord], list[RunRecord]],
                                                             ) -> None:
    both, alone = keys_runs
    assert {r.solver for r in both} == {"keys-graph[bound=none]", "keys-graph", "keys-grid"}
    assert {r.formulation for r in both} == {"keys-graph", "keys-grid"}
    verdicts, before = judge_all(both), judge_all(alone)
    assert {v.verdict.value for v in verdicts} == {"agree"}
    assert [(v.instance, v.independent) for v in verdicts] == [(v.instance, v.independent) for v in before]
    assert all(len(v.provers) == 3 and v.independent == 2 for v in verdicts)


def test_report_ablation_prints_each_configuration_against_the_default(
        keys_runs: tuple[list[RunRecord], list[RunRecord]], tmp_path: Path) -> None:
    records = tmp_path / "runs.jsonl"
    records.write_text("".join(r.model_dump_json() + "\n" for r in keys_runs[0]))
    text = invoke("report", str(records), "--ablation", "keys-graph")
    assert text.exit_code == 0, text.output
    header, row = text.stdout.splitlines()[:2]
    assert header.split()[:5] == ["configuration", "setting", "common", "solved", "exact"]
    assert row.split()[:9] == ["keys-graph[bound=none]", "bound=none", "5", "5", "/", "5", "5", "/", "5"]
    (found,) = ablation(keys_runs[0], "keys-graph")
    assert found.time.instances == found.effort.instances == 5 and found.effort.ratio is not None
    assert found.effort.ratio > 1  # no bound expands more states on these vaults
    latex = invoke("report", str(records), "--ablation", "keys-graph", "--format", "latex").stdout
    assert "\\begin{tabular}" in latex and "keys-graph[bound=none]" in latex
    page = tmp_path / "report.html"
    assert invoke("report", str(records), "--format", "html", "-o", str(page)).exit_code == 0
    assert 'id="ablation-keys-graph"' in page.read_text() and "bound=none" in page.read_text()


def test_report_ablation_says_what_is_missing(keys_runs: tuple[list[RunRecord], list[RunRecord]],
                                              tmp_path: Path) -> None:
    records = tmp_path / "runs.jsonl"
    records.write_text("".join(r.model_dump_json() + "\n" for r in keys_runs[1]))
    result = invoke("report", str(records), "--ablation", "keys-graph")
    assert result.exit_code == 2 and "only keys-graph's default configuration ran" in result.output
    with pytest.raises(NoAblation, match="no run of keys-cpsat's default configuration"):
        ablation(keys_runs[1], "keys-cpsat")
    assert invoke("report", str(records), "--ablation", "keys-graph", "--format", "csv").exit_code == 2


@pytest.mark.parametrize("command", [["solve", VAULTS[0]], ["compare", VAULTS[0]], ["morph", VAULTS[0]],
                                     ["hunt", "keys"]])
def test_an_unknown_option_or_value_is_a_usage_error_in_every_command(command: list[str]) -> None:
    result = invoke(*command, "--solver", "keys-graph[bond=none]")
    assert result.exit_code == 2
    assert "keys-graph has no option 'bond'; its options: bound, cycle-tours, dominance" in result.output
    result = invoke(*command, "--solver", "keys-graph[bound=weak|none]")
    assert result.exit_code == 2 and "'weak' is not one of walk, door-free, none (or default)" in result.output


def test_solve_runs_each_configuration_a_spec_stands_for() -> None:
    result = invoke("solve", VAULTS[0], "--solver", "elevator-quotient[states=labelled]")
    assert result.exit_code == 2 and "elevator-quotient[states=labelled] is a formulation of elevator" in result.output
    result = invoke("solve", VAULTS[0], "--solver", "keys-graph[bound=door-free|none]", "--format", "json")
    assert result.exit_code == 0
    assert [run["solver"] for run in json.loads(result.stdout)] == ["keys-graph[bound=door-free]",
                                                                    "keys-graph[bound=none]"]


def test_a_planted_configuration_that_gives_up_optimality_blames_nobody(tmp_path: Path) -> None:
    """test-detour[detour=on] claims its detoured plans optimal; the harness reads them as plans."""
    records = compared(tmp_path / "planted.jsonl", "--solver", "test-detour[detour=on]", "--solver", "keys-grid")
    planted = [r for r in records if r.solver == "test-detour[detour=on]"]
    assert all(r.evidence.value == "plan" and r.bound is None for r in planted)
    # one robot: a detoured plan, claimed optimal, read as feasible; four: "infeasible", read as no plan
    assert {(r.status, r.plan_valid) for r in planted} == {(Status.FEASIBLE, True), (Status.TIMEOUT, None)}
    verdicts = judge_all(records)
    assert {v.verdict.value for v in verdicts} == {"agree"}
    assert all(v.provers == ("keys-grid",) for v in verdicts)
    alone = compared(tmp_path / "alone.jsonl", "--solver", "test-detour[detour=on]")
    assert {v.verdict.value for v in judge_all(alone)} == {"unverified"}


def test_list_options_lists_every_formulation_s_options_with_defaults() -> None:
    listing = invoke("list", "--options").output
    assert "    bound=walk|door-free|none  [default: walk]" in listing
    assert "    weight=1|2 (inexact)  [default: 1]" in listing
    assert "    cpsat.NAME=VALUE  [default: none given]" in listing
    assert "  keys-grid " in listing and "    no options" in listing
    assert "    detour=off|on (inexact)  [default: off]" in listing  # a plugin declares its options alike


def test_report_against_pairs_runs_by_configuration(keys_runs: tuple[list[RunRecord], list[RunRecord]],
                                                    tmp_path: Path) -> None:
    """NEW lacks keys-graph[bound=none]'s runs: its exact answers are lost, keys-graph's are not."""
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_text("".join(r.model_dump_json() + "\n" for r in keys_runs[0]))
    new.write_text("".join(r.model_dump_json() + "\n" for r in keys_runs[0] if r.solver != "keys-graph[bound=none]"))
    result = invoke("report", str(old), "--against", str(new))
    assert result.exit_code == 1
    lost = [line for line in result.stdout.splitlines() if line.startswith(("lost:", "missing:"))]
    assert len(lost) == len(VAULTS) and all("keys-graph[bound=none]:" in line for line in lost)


def test_a_ratio_s_interval_and_test_need_five_instances_and_the_test_scipy(monkeypatch: pytest.MonkeyPatch) -> None:
    import crosscheck.harness.reports.ablation as module

    pairs = [([1.0], [2.0]), ([2.0], [4.0]), ([1.0], [2.0]), ([3.0], [6.0])]
    assert module.ratio(pairs).cells() == ["2.00", "-", "-"]
    five = module.ratio([*pairs, ([1.0], [2.0])])
    assert five.cells()[0] == "2.00" and five.cells()[1] == "2.00 - 2.00" and five.p_value is not None
    monkeypatch.setattr(module, "wilcoxon", lambda logs: None)
    assert module.ratio([*pairs, ([1.0], [2.0])]).cells()[2] == "n/a"
    assert module.ratio([]).cells() == ["-", "-", "-"]

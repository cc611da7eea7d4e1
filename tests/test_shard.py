"""`compare --shard K/N` splits a comparison into disjoint parts that make every run once;
`report`, `plot` and `record-optima` merge the parts' result files."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from crosscheck.harness.judging.verdicts import judge_all
from crosscheck.harness.records.record import RunRecord, read_records
from crosscheck.harness.runs.shard import Shard, merge
from crosscheck.solvers.base import Status

from tests.fixtures.cli import invoke

pytestmark = pytest.mark.usefixtures("misbehaving_solvers")

VAULTS = ["#########\n#b.A.@.a#\n#########\n", "#######\n#a.@.b#\n#######\n", "#####\n#@.a#\n#####\n",
          "#########\n#a.@.B.b#\n#########\n", "#######\n#@.a.b#\n#######\n", "########\n#c.@.ab#\n########\n"]


def test_every_run_belongs_to_exactly_one_part() -> None:
    keys = [(f"keys/v{number}.txt", variant, solver, repeat) for number in range(200) for variant in (False, True)
            for solver in ("keys-grid", "keys-graph", "keys-cpsat") for repeat in (0, 1)]
    parts = [Shard(index, 4) for index in range(1, 5)]
    owners = [[part.index for part in parts if part.holds(key)] for key in keys]
    assert all(len(owner) == 1 for owner in owners)
    assert {owner[0] for owner in owners} == {1, 2, 3, 4}
    assert all(owners[n] == owners[n + 1] for n in range(0, len(keys), 2))  # repetitions stay together


@pytest.mark.parametrize("text", ["0/3", "4/3", "1", "a/b", "1/0", "-1/2"])
def test_a_bad_shard_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="K/N"):
        Shard.parse(text)


def _record(solver: str, cost: int) -> RunRecord:
    return RunRecord(instance="keys/a.txt", puzzle="keys", solver=solver, status=Status.OPTIMAL, cost=cost, bound=cost)


def test_merge_keeps_the_last_record_of_a_run_and_warns() -> None:
    records, warnings = merge([("old.jsonl", [_record("keys-grid", 5), _record("keys-graph", 5)]),
                               ("new.jsonl", [_record("keys-grid", 6)])])
    assert [(r.solver, r.cost) for r in records] == [("keys-grid", 6), ("keys-graph", 5)]
    assert warnings == ["keys/a.txt keys-grid is recorded 2 times (old.jsonl, new.jsonl): the last one is used"]


def _verdicts(records: list[RunRecord]) -> list[tuple[object, ...]]:
    return sorted((v.instance, v.variant, v.verdict, v.answer) for v in judge_all(records))


def test_parts_make_every_run_once_and_merge_back(folder: Path, tmp_path: Path) -> None:
    for number, vault in enumerate(VAULTS):
        (folder / "keys" / f"v{number}.txt").write_text(vault)
    solvers = ("--solver", "test-plain", "--solver", "keys-graph")
    invoke("compare", str(folder), *solvers, "--out", str(tmp_path / "full.jsonl"))
    parts = [tmp_path / f"part{k}.jsonl" for k in (1, 2, 3)]
    for k, part in enumerate(parts, start=1):
        invoke("compare", str(folder), *solvers, "--shard", f"{k}/3", "--out", str(part))
    full = read_records(tmp_path / "full.jsonl")
    keys = [r.key for part in parts for r in read_records(part)]
    assert sorted(keys) == sorted(r.key for r in full) and all(read_records(part) for part in parts)
    report = invoke("report", *map(str, parts), "--format", "json")
    assert _verdicts([RunRecord.model_validate(r) for r in json.loads(report.stdout)]) == _verdicts(full)
    again = invoke("report", str(tmp_path / "full.jsonl"), str(parts[0]))
    assert f"is recorded 2 times ({tmp_path / 'full.jsonl'}, {parts[0]})" in again.stderr
    invoke("record-optima", *map(str, parts), "--index", str(folder / "index.toml"), "--allow-single")
    index = tomllib.loads((folder / "index.toml").read_text())
    assert {name for name in index if name.startswith("keys/v")} == {f"keys/v{n}.txt" for n in range(len(VAULTS))}


def test_compare_refuses_a_bad_shard(folder: Path) -> None:
    result = invoke("compare", str(folder), "--shard", "3/2")
    assert result.exit_code == 2 and "1 <= K <= N" in result.output

"""Which index judges each instance file, and what each is named, whichever folders are named.

Each file's expected answer comes from the index of its own folder (the nearest
``index.toml`` above it), so a verdict never depends on which folder the command names;
two different files never share a record name within one run, and one file named twice
runs once.
"""

from __future__ import annotations

from pathlib import Path

import crosscheck.harness.inputs.index
import pytest
from crosscheck.harness.cli import EXIT_USAGE, EXIT_WRONG
from crosscheck.harness.inputs.index import Indexes, InstanceFile, discover
from crosscheck.harness.judging.verdicts import Verdict, judge_all
from crosscheck.harness.records.record import read_records
from crosscheck.harness.runs.schedule import discover_all, unique_names
from crosscheck.models.answers import Optimum
from crosscheck.models.registry import load_instance

from tests.fixtures.cli import VAULT, invoke

pytestmark = pytest.mark.usefixtures("misbehaving_solvers")

SHORT_VAULT = "#######\n#@.a..#\n#######\n"  # optimum 2; VAULT's is 8


@pytest.fixture
def nest(tmp_path: Path) -> Path:
    """``nest/idx/small.txt`` (optimum 8) with ``nest/idx/index.toml`` saying 9, and
    ``nest/index.toml`` listing nothing of it."""
    (tmp_path / "nest" / "idx").mkdir(parents=True)
    (tmp_path / "nest" / "idx" / "small.txt").write_text(VAULT)
    (tmp_path / "nest" / "idx" / "index.toml").write_text('["small.txt"]\noptimum = 9\n')
    (tmp_path / "nest" / "index.toml").write_text('["elsewhere.txt"]\noptimum = 1\n')
    return tmp_path / "nest"


def test_a_file_is_looked_up_in_the_index_of_its_own_folder(nest: Path) -> None:
    for target in (nest, nest / "idx", nest / "idx" / "small.txt"):
        [found] = discover(target)
        assert (found.name, found.expected) == ("small.txt", Optimum(9)), target


def test_each_index_is_loaded_once(nest: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("a.txt", "b.txt", "c.txt"):
        (nest / "idx" / name).write_text(VAULT)
    loaded: list[Path] = []
    real = crosscheck.harness.inputs.index.load_index

    def counting(path: Path) -> dict[str, dict[str, object]]:
        loaded.append(path)
        return real(path)

    monkeypatch.setattr(crosscheck.harness.inputs.index, "load_index", counting)
    assert len(discover_all([nest, nest / "idx"])) == 4
    assert sorted(loaded) == [nest / "idx" / "index.toml", nest / "index.toml"]


@pytest.mark.parametrize("named", ["nest", "nest/idx"])
def test_the_verdict_does_not_depend_on_which_folder_is_named(nest: Path, named: str) -> None:
    out = nest.parent / "runs.jsonl"
    result = invoke("compare", str(nest.parent / named), "--solver", "keys-graph", "--out", str(out))
    assert "small.txt: wrong-expected: solvers agree on 8, index says 9" in result.output
    assert result.exit_code == EXIT_WRONG
    assert [record.expected for record in read_records(out)] == [Optimum(9)]


@pytest.mark.parametrize("named", ["nest", "nest/idx"])
@pytest.mark.parametrize("command", ["compare", "morph"])
def test_an_unusable_nested_index_stops_the_command_whichever_folder_is_named(
        nest: Path, named: str, command: str) -> None:
    index = nest / "idx" / "index.toml"
    index.write_text('["small.txt"]\noptimun = 9\n')
    out = nest.parent / ("runs.jsonl" if command == "compare" else "morph")
    result = invoke(command, str(nest.parent / named), "--solver", "keys-graph", "--out", str(out))
    assert result.output.startswith(f"Error: {index}:2:1: unknown key 'optimun' in [\"small.txt\"]")
    assert result.exit_code == EXIT_USAGE


def test_different_files_of_one_name_are_kept_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``study/keys/v.txt`` (indexed, optimum 8) and ``other/keys/v.txt`` (optimum 2) would
    both be ``keys/v.txt``: merged, their runs read as a false optimum."""
    for folder, text in (("study", VAULT), ("other", SHORT_VAULT)):
        (tmp_path / folder / "keys").mkdir(parents=True)
        (tmp_path / folder / "keys" / "v.txt").write_text(text)
    (tmp_path / "study" / "index.toml").write_text('["keys/v.txt"]\noptimum = 8\n')
    monkeypatch.chdir(tmp_path)
    result = invoke("compare", "other", "study/keys/v.txt", "--solver", "keys-graph", "--out", "runs.jsonl")
    assert result.exit_code == 0, result.output
    assert ("note: 2 files would share the name keys/v.txt; named by their paths instead: "
            "other/keys/v.txt, study/keys/v.txt") in result.stderr
    records = read_records(tmp_path / "runs.jsonl")
    assert [(r.instance, r.cost, r.expected) for r in sorted(records, key=lambda r: r.instance)] == [
        ("other/keys/v.txt", 2, None), ("study/keys/v.txt", 8, Optimum(8))]
    assert {verdict.verdict for verdict in judge_all(records)} == {Verdict.AGREE}


def test_one_file_named_twice_runs_once(tmp_path: Path) -> None:
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "small.txt").write_text(VAULT)
    out = tmp_path / "runs.jsonl"
    result = invoke("compare", str(tmp_path), str(tmp_path / "keys"), str(tmp_path / "keys" / "small.txt"),
                    "--solver", "keys-graph", "--out", str(out))
    assert result.exit_code == 0 and "note:" not in result.stderr
    assert [record.instance for record in read_records(out)] == ["keys/small.txt"]


def test_renaming_ends_with_unique_names_when_a_new_name_clashes_again() -> None:
    """``keys/x.txt`` (given as a file) and ``other/x.txt`` are both ``x.txt``; named by
    their paths, the first then clashes with ``study/keys/x.txt``, named ``keys/x.txt``."""
    files = [InstanceFile(Path("keys/x.txt"), "x.txt", Optimum(8), None),
             InstanceFile(Path("other/x.txt"), "x.txt", None, None),
             InstanceFile(Path("study/keys/x.txt"), "keys/x.txt", Optimum(3), None)]
    renamed = unique_names(files)
    assert [(f.name, f.clashed_name, f.expected) for f in renamed] == [
        ("keys/x.txt", "x.txt", Optimum(8)), ("other/x.txt", "x.txt", None),
        ("study/keys/x.txt", "keys/x.txt", Optimum(3))]


@pytest.mark.parametrize("command", ["compare", "morph"])
def test_an_index_entry_that_judges_no_file_is_warned_of_with_its_line(nest: Path, command: str) -> None:
    """A misspelt name, and a name whose file a nearer index judges: both would never be
    checked, so each is named with its file, line and the column where the name starts; the
    entries that judge a file are not."""
    (nest / "index.toml").write_text('["elsewhere.txt"]\noptimum = 1\n\n[ "idx/small.txt" ]\noptimum = 8\n')
    out = nest.parent / ("runs.jsonl" if command == "compare" else "morph")
    result = invoke(command, str(nest), "--solver", "keys-graph", "--out", str(out))
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    assert [line.split(": ")[1] for line in warnings] == [f"{nest / 'index.toml'}:1:3", f"{nest / 'index.toml'}:4:4"]
    assert all("names no instance file this index judges" in line for line in warnings)
    assert '["small.txt"]' not in result.stderr



def test_unmatched_entries_are_placed_reading_each_line_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each warning re-read every header of its file: quadratic in the entries of an index."""
    (tmp_path / "index.toml").write_text("".join(f'["gone-{n}.txt"]\noptimum = {n}\n' for n in range(200)))
    indexes = Indexes()
    discover(tmp_path, indexes)
    read = crosscheck.harness.inputs.index._header_keys
    lines: list[str] = []

    def counted(line: str) -> tuple[str, ...] | None:
        lines.append(line)
        return read(line)

    monkeypatch.setattr(crosscheck.harness.inputs.index, "_header_keys", counted)
    warnings = indexes.unmatched()
    assert len(warnings) == 200 and warnings[199].startswith(f'{tmp_path / "index.toml"}:399:3: ["gone-199.txt"] ')
    assert len(lines) == 400  # each line of the file, once


def test_an_entry_naming_a_link_is_warned_of_and_record_optima_says_to_rename_it(tmp_path: Path) -> None:
    """A run names a file by its own path (the link resolved), so ``["link.txt"]`` never
    judges ``real.txt``: it is warned of, and the file's answer is not recorded again under
    its own name beside it."""
    (tmp_path / "real.txt").write_text(VAULT)
    (tmp_path / "link.txt").symlink_to("real.txt")
    index = tmp_path / "index.toml"
    index.write_text('["link.txt"]\noptimum = 9\n')
    out = tmp_path.parent / "runs.jsonl"
    result = invoke("compare", str(tmp_path), "--solver", "test-plain", "--out", str(out))
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    assert warnings == [f'warning: {index}:1:3: ["link.txt"] names real.txt through a link, and this index judges '
                        'a file by its own path: its answer is checked against nothing (expected ["real.txt"])']
    recorded = invoke("record-optima", str(out), "--index", str(index), "--allow-single")
    # It said "1 already in the index", all well, while the warning said checked against nothing.
    assert recorded.exit_code == 0 and recorded.stderr.splitlines() == [
        f'real.txt: not recorded: {index} lists it as ["link.txt"], the name of a link to it, which is never looked '
        'up, so its answer is checked against nothing: rename that entry ["real.txt"]',
        "recorded 0; not recorded 1: listed under a link's name"]
    assert index.read_text() == '["link.txt"]\noptimum = 9\n'


def test_an_upper_case_txt_is_an_instance_and_its_name_drops_the_suffix(tmp_path: Path) -> None:
    (tmp_path / "LOOP.TXT").write_text(VAULT)
    (tmp_path / "index.toml").write_text('["LOOP.TXT"]\noptimum = 8\n')
    [found] = discover(tmp_path)
    assert (found.name, found.expected) == ("LOOP.TXT", Optimum(8))
    result = invoke("compare", str(tmp_path), "--solver", "test-plain", "--out", str(tmp_path / "runs.jsonl"))
    assert result.exit_code == 0 and "1 instance: 1 agree" in result.output
    assert load_instance(str(tmp_path / "LOOP.TXT"))[1].name == "LOOP"


def test_files_in_a_format_but_not_named_txt_are_named_in_one_note(tmp_path: Path) -> None:
    """Parsed: small regular files only, never hidden ones, index.toml or a file that only
    passes a format's first check (Markdown, Python)."""
    (tmp_path / "run.txt").write_text(VAULT)
    lookalikes = ["a.in", "b.dat", "deep/c", "deep/d.vault"]
    for name in lookalikes:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(SHORT_VAULT)
    (tmp_path / ".hidden.in").write_text(VAULT)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.in").write_text(VAULT)
    (tmp_path / "notes.md").write_text("# a vault\n")
    (tmp_path / "README.md").write_text("# My vaults\nmail me@example.org\n")  # a vault's first-line check passes
    (tmp_path / "gen.py").write_text("#!/usr/bin/env python3\n@dataclass\nclass Vault: ...\n")
    (tmp_path / "big.in").write_text("#" * 300_000 + "@\n")
    result = invoke("compare", str(tmp_path), "--solver", "test-plain", "--out", str(tmp_path / "runs.jsonl"))
    assert result.exit_code == 0 and "\n1 instance: " in result.output  # run.txt alone
    [note] = [line for line in result.stderr.splitlines() if "not read" in line]
    named = ", ".join(str(tmp_path / name) for name in lookalikes[:3])
    assert note == (f"note: {tmp_path}: 4 files in a puzzle's format not read, not being named *.txt: {named} and "
                    "1 more (rename to NAME.txt to include)")


def test_a_folder_of_lookalikes_only_names_them_in_its_error(tmp_path: Path) -> None:
    (tmp_path / "loop.in").write_text(VAULT)
    result = invoke("compare", str(tmp_path), "--solver", "test-plain")
    assert result.exit_code == EXIT_USAGE
    assert result.output.startswith(f"Error: {tmp_path}: no instance to run: no *.txt file below it")
    assert result.output.endswith(f"; {tmp_path}: 1 file in a puzzle's format not read, not being named *.txt: "
                                  f"{tmp_path / 'loop.in'} (rename to NAME.txt to include)\n")

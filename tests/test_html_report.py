"""The HTML report, built from a real comparison: its structure, and a real browser running it.

The comparison runs real solvers on three tiny published instances, twice each
(``--repeat 2``), beside ``test-liar`` (tests/fixtures/plugin_solvers.py), whose rejected plans
give two instances the verdict ``invalid-plan``.

The browser test needs Chromium (Debian: ``apt-get install chromium``; CI's ``.ci/run``
installs it and sets CROSSCHECK_REQUIRE_BROWSER, so there it fails instead of skipping).
"""

from __future__ import annotations

import base64
import html
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from datetime import datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import crosscheck.solvers.registry
import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.harness.judging.verdicts import judge_all
from crosscheck.harness.records.record import UNREADABLE, RunRecord, append_record, read_records
from crosscheck.harness.reports.tables import columns_for, failure_reasons
from crosscheck.solvers.base import Status

from tests.fixtures import INSTANCES

TINY = ("keys/one-robot-1.txt", "keys/four-robots-1.txt", "elevator/two-pairs-example.txt")
SOLVERS = ("keys-grid", "keys-graph", "keys-cpsat", "elevator-bfs", "elevator-quotient", "test-liar")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results file from a real comparison (see the module doc)."""
    out = tmp_path_factory.mktemp("compare") / "runs.jsonl"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROSSCHECK_SOLVERS", "tests.fixtures.plugin_solvers")
        patch.setattr(crosscheck.solvers.registry, "SOLVERS", dict(crosscheck.solvers.registry.SOLVERS))
        result = CliRunner().invoke(main, ["compare", *(str(INSTANCES / name) for name in TINY),
                                           *(f"--solver={name}" for name in SOLVERS), "--repeat", "2",
                                           "--jobs", "1", "--time-limit", "60", "--out", str(out)])
    assert result.exit_code == 1, result.output  # test-liar's plans are rejected
    return out


@pytest.fixture(scope="module")
def page(results: Path) -> Path:
    path = results.parent / "report.html"
    result = CliRunner().invoke(main, ["report", str(results), "--format", "html", "-o", str(path)])
    assert result.exit_code == 1, result.output  # as compare exits: test-liar's rejected plans
    return path


class _Page(HTMLParser):
    """What the structure test looks at: section order, table rows, images, addresses."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.tables: dict[str, list[list[str]]] = {}
        self.rows: list[dict[str, str]] = []  # the run table's rows' data attributes
        self.images: list[str] = []
        self.addresses: list[str] = []
        self._table = ""
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        self.addresses += [value for name, value in attributes.items() if name in ("src", "href", "action")]
        if tag == "section":
            self.sections.append(attributes["id"])
        elif tag == "table":
            self._table = attributes.get("id", "")
            self.tables[self._table] = []
        elif tag == "tr":
            self.tables[self._table].append([])
            if self._table == "runs" and "data-solver" in attributes:
                self.rows.append({k.removeprefix("data-"): v for k, v in attributes.items()})
        elif tag == "td":
            self._cell = []
        elif tag == "img":
            self.images.append(attributes["src"])

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.tables[self._table][-1].append("".join(self._cell))
            self._cell = None


def _parsed(path: Path) -> _Page:
    parser = _Page()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_the_page_puts_verdicts_first_and_holds_every_run(results: Path, page: Path) -> None:
    records = read_records(results)
    parsed = _parsed(page)
    assert parsed.sections[0] == "verdicts" and "runs-section" in parsed.sections
    problems = {row[0]: row[1] for row in parsed.tables["problems"] if row}
    wrong = {v.instance: v.verdict.value for v in judge_all(records) if v.verdict.value != "agree"}
    assert problems == wrong and set(wrong.values()) == {"invalid-plan"}
    assert {(row["solver"], row["verdict"]) for row in parsed.rows} >= {("test-liar", "invalid-plan")}
    rows = {(cells[2], cells[3]) for cells in parsed.tables["runs"] if cells}  # (instance, solver)
    assert rows == {(r.instance, r.solver) for r in records}
    counts = {row[0]: int(row[1]) for row in parsed.tables["verdict-counts"] if row}
    assert counts == {"invalid-plan": 2, "agree": 1}


def test_every_figure_is_an_embedded_svg_and_nothing_is_fetched(page: Path) -> None:
    parsed = _parsed(page)
    text = page.read_text(encoding="utf-8")
    figures = re.findall(r'<figure id="fig-([^"]+)"', text)
    assert {"cactus", "profile-keys", "profile-elevator", "size-keys", "spread",
            "scatter-elevator-elevator-bfs-vs-elevator-quotient"} <= set(figures)
    assert len(parsed.images) == len(figures)
    for source in parsed.images:
        assert source.startswith("data:image/svg+xml;base64,")
        drawing = base64.b64decode(source.split(",", 1)[1]).decode()
        assert "<svg" in drawing and not re.search(r'(href|src)="(?!#|data:)', drawing)
    assert all(address.startswith(("#", "data:")) for address in parsed.addresses), parsed.addresses
    assert not re.search(r"https?://|<link|@import|url\(", text)


def test_the_paired_statistic_and_latex_tables_come_from_the_same_records(results: Path) -> None:
    latex = CliRunner().invoke(main, ["report", str(results), "--format", "latex", "--by", "family"]).stdout
    assert latex.count(r"\toprule") == 1 and r"\bottomrule" in latex and r"\end{tabular}" in latex
    body = latex.split(r"\midrule")[1].split(r"\bottomrule")[0].strip().splitlines()
    families = {tuple(line.split(" & ")[:2]) for line in body}
    assert families == {("keys", "keys"), ("elevator", "elevator")}  # puzzle and folder of the three instances
    assert any(line.startswith(r"keys & keys & virtual best") for line in body)
    solver = CliRunner().invoke(main, ["report", str(results), "--format", "latex", "--by", "solver"]).stdout
    assert "test-liar" in solver and solver.count(r" \\") == 1 + len(SOLVERS)  # header and one row per solver


def _crashed_runs(path: Path) -> list[RunRecord]:
    """Two instances: on each a sound answer, a crash with a message that must be escaped, a
    memout; and an unreadable file (no run, no solver)."""
    runs = []
    for name in ("keys/a.txt", "keys/b.txt"):
        runs += [RunRecord(instance=name, puzzle="keys", solver="sound", status=Status.INFEASIBLE, seconds=0.5),
                 RunRecord(instance=name, puzzle="keys", solver="broken", status=Status.ERROR, seconds=0.2,
                           message=f'ValueError: <b>"{name}" & more</b>\n  File "x.py", line 3'),
                 RunRecord(instance=name, puzzle="keys", solver="hungry", status=Status.MEMOUT, seconds=0.1,
                           message="memory limit of 150 MB reached: ImportError: failed to map segment")]
    runs.append(RunRecord(instance="keys/c.txt", puzzle=None, solver=UNREADABLE, status=Status.ERROR,
                          message="keys/c.txt:1:1: not a vault"))
    for run in runs:
        append_record(path, run)
    return runs


def test_the_page_says_which_runs_crashed_and_why(tmp_path: Path) -> None:
    """The terminal's summary line and crash reasons stand on the page; each crashed run's
    row carries its message (first line in a column, all of it in the row's title), escaped."""
    runs = _crashed_runs(tmp_path / "runs.jsonl")
    page = tmp_path / "report.html"
    CliRunner().invoke(main, ["report", str(tmp_path / "runs.jsonl"), "--format", "html", "-o", str(page)])
    parsed, text = _parsed(page), page.read_text(encoding="utf-8")
    terminal = CliRunner().invoke(main, ["report", str(tmp_path / "runs.jsonl")]).stdout.splitlines()
    assert "4 runs crashed: 2 error (broken), 2 memout (hungry)" in terminal[-1]
    assert f'<p id="summary">{html.escape(terminal[-1])}</p>' in text
    reasons = re.findall(r"<li>(.*?)</li>", text.split('<ul id="crashes">')[1].split("</ul>")[0])
    assert [html.unescape(reason) for reason in reasons] == failure_reasons(runs) == terminal[-4:-1]
    assert "<b>" not in text  # every message escaped
    table = [cells for cells in parsed.tables["runs"] if cells]
    message = ("puzzle", "family", *columns_for(False), "message").index("message")
    by_run = {(row["solver"], cells[2]): (row.get("title"), cells[message])
              for row, cells in zip(parsed.rows, table, strict=True)}
    assert by_run["broken", "keys/a.txt"] == (runs[1].message, 'ValueError: <b>"keys/a.txt" & more</b>')
    assert by_run["hungry", "keys/a.txt"] == (runs[2].message, runs[2].message)
    assert by_run["sound", "keys/a.txt"] == (None, "")
    lead = re.search(r'<p class="lead">(.*?)</p>', text)
    assert lead and lead[1] == "6 runs of 3 solvers on 3 instances from 1 file; 1 unreadable instance file"


def test_a_timed_out_runs_row_carries_its_message_as_the_note_under_the_reasons_says(tmp_path: Path) -> None:
    runs = [RunRecord(instance="keys/a.txt", puzzle="keys", solver="sound", status=Status.INFEASIBLE, seconds=0.5),
            RunRecord(instance="keys/a.txt", puzzle="keys", solver="slow", status=Status.TIMEOUT, seconds=7.1,
                      message="killed after 7.1 s wall (limit 5.0 s wall)\nmore")]
    for run in runs:
        append_record(tmp_path / "runs.jsonl", run)
    page = tmp_path / "report.html"
    CliRunner().invoke(main, ["report", str(tmp_path / "runs.jsonl"), "--format", "html", "-o", str(page)])
    parsed, text = _parsed(page), page.read_text(encoding="utf-8")
    assert "<h3>Runs that crashed or timed out</h3>" in text and "every crashed or timed-out run's message" in text
    table = [cells for cells in parsed.tables["runs"] if cells]
    by_solver = {row["solver"]: (row.get("title"), cells[-1]) for row, cells in zip(parsed.rows, table, strict=True)}
    assert by_solver["slow"] == (runs[1].message, "killed after 7.1 s wall (limit 5.0 s wall)")
    assert by_solver["sound"] == (None, "")


def test_numeric_columns_of_the_run_table_carry_number_sort_keys(page: Path) -> None:
    """Every run-table column holding numbers (effort's ``86 states`` too) marks itself numeric
    and gives each cell its leading number as data-key, empty for an unknown value; no other
    column does (the script sorts keyed columns by number, the rest as text)."""
    text = page.read_text(encoding="utf-8")
    table = text.split('<table id="runs">')[1].split("</table>")[0]
    heads = re.findall(r'<th data-name="([^"]+)"( data-numeric="yes")?>', table)
    rows = [re.findall(r'<td[^>]*?(?: data-key="([^"]*)")?>(.*?)</td>', row)
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table)[1:]]
    for index, (name, numeric) in enumerate(heads):
        cells = [row[index] for row in rows]
        starts_with_number = any(re.match(r"-?\d", html.unescape(cell)) for _, cell in cells)
        assert bool(numeric) == starts_with_number, name
        for key, cell in cells if numeric else ():
            leading = re.match(r"-?\d+(\.\d+)?(e[-+]?\d+)?", html.unescape(cell))
            assert key == (leading[0] if leading else ""), (name, cell)
    assert {"effort", "independent", "median s"} <= {name for name, numeric in heads if numeric}
    effort = [name for name, _ in heads].index("effort")
    assert any(cell.endswith(" states") and key.isdigit() for key, cell in (row[effort] for row in rows))


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CROSSCHECK_REQUIRE_BROWSER"):
        pytest.fail("CROSSCHECK_REQUIRE_BROWSER is set but no chromium is installed")
    pytest.skip("no chromium on PATH (Debian: apt-get install chromium); the browser test runs in CI")


@pytest.fixture
def browser() -> Iterator[str]:
    yield _chromium()


def test_a_headless_browser_runs_the_script_without_error(results: Path, page: Path, browser: str,
                                                           tmp_path: Path) -> None:
    """Opened with a view in its address (only invalid-plan rows, slowest first), the page's
    script must finish (it marks <html data-ready>), hide the other rows and sort these."""
    address = page.resolve().as_uri() + "#verdict=invalid-plan&sort=median+s&desc=1"
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                           "--v=0", f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000",
                           "--dump-dom", address], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert not re.search(r"Uncaught|SyntaxError|TypeError|ReferenceError", done.stderr), done.stderr[-2000:]
    dom = done.stdout
    assert re.search(r'<html[^>]*data-ready="yes"', dom), dom[:500]
    rows = [(re.search(r'data-verdict="([^"]+)"', attributes), re.search(r"\bhidden\b", attributes), cells)
            for attributes, cells in re.findall(r"<tr([^>]*)>(.*?)</tr>", dom, re.S) if "data-verdict" in attributes]
    assert rows and all((hidden is None) == (verdict is not None and verdict[1] == "invalid-plan")
                        for verdict, hidden, _ in rows)
    median = ("puzzle", "family", *columns_for(True)).index("median s")
    shown = [float(re.findall(r"<td[^>]*>(.*?)</td>", cells)[median]) for _, hidden, cells in rows if hidden is None]
    assert shown == sorted(shown, reverse=True)
    records = read_records(results)
    wrong = {v.instance for v in judge_all(records) if v.verdict.value == "invalid-plan"}
    pairs = {(r.instance, r.solver) for r in records}
    assert f"{sum(instance in wrong for instance, _ in pairs)} of {len(pairs)} rows shown" in dom


def _browsed(browser: str, address: str, profile: Path) -> tuple[list[tuple[bool, list[str]]], str]:
    """The run table's rows as the browser left them at `address`, (shown, cells) in page
    order, and the whole DOM."""
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                           "--virtual-time-budget=5000", "--dump-dom", address],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and re.search(r'<html[^>]*data-ready="yes"', done.stdout), done.stderr[-2000:]
    return [(re.search(r"\bhidden\b", attributes) is None, re.findall(r"<td[^>]*>(.*?)</td>", cells))
            for attributes, cells in re.findall(r"<tr([^>]*)>(.*?)</tr>", done.stdout, re.S)
            if "data-verdict" in attributes], done.stdout


@pytest.mark.parametrize("descending", [False, True])
def test_the_browser_sorts_numbers_by_value_and_empty_cells_last(page: Path, browser: str, tmp_path: Path,
                                                                  descending: bool) -> None:
    """effort (``86 states``) sorts by its number, not as text, and cost by value; empty cells
    (the liar reports no effort) come last in both directions."""
    columns = ("puzzle", "family", *columns_for(True), "message")
    empties = 0
    for name in ("effort", "cost"):
        address = page.resolve().as_uri() + f"#sort={name}" + ("&desc=1" if descending else "")
        cells = [row[columns.index(name)] for _, row in _browsed(browser, address, tmp_path / name)[0]]
        numbers = [float(cell.split()[0].split("/")[0]) for cell in cells if cell]
        assert numbers == sorted(numbers, reverse=descending) and len(set(numbers)) > 1, (name, cells)
        assert cells == [cell for cell in cells if cell] + [""] * cells.count(""), (name, cells)
        empties += cells.count("")
    assert empties  # the empties-last rule was exercised


def test_a_bookmarked_filter_that_matches_nothing_shows_nothing_and_says_so(page: Path, browser: str,
                                                                           tmp_path: Path) -> None:
    address = page.resolve().as_uri() + "#verdict=unverified&solver=keys-grid"
    rows, dom = _browsed(browser, address, tmp_path / "profile")
    assert rows and not any(shown for shown, _ in rows)
    assert f"0 of {len(rows)} rows shown; no row on this page has verdict unverified" in dom
    assert re.search(r'<option value="unverified" data-unmatched="yes" selected', dom) or "unverified (no row)" in dom


def test_records_and_the_page_say_when_how_and_where_the_runs_were_made(results: Path, page: Path) -> None:
    """Every record names its start (UTC), the command's --jobs, the load then and the CPU;
    the page's conditions table sums them up: date range, command, commit, machine."""
    records = read_records(results)
    for record in records:
        started = datetime.fromisoformat(record.environment["started"])
        assert started.utcoffset() == timedelta(0)
        assert record.environment["jobs"] == 1 and record.environment["cpu_model"]
        assert "load_average" in record.environment and record.environment["cpus"]
    first = min(r.environment["started"] for r in records)
    last = max(r.environment["started"] for r in records)
    table = {row[0]: row[1] for row in _parsed(page).tables["conditions"] if row}
    assert table["runs"] == (first if first == last else f"{first} to {last}")
    assert table["command"] == records[0].environment["argv"] and table["jobs"] == "1"  # argv: pytest's here
    assert table["machine"].startswith(records[0].environment["cpu_model"])
    assert table["commit"] == str(records[0].environment["commit"])
    listed = {row[0] for row in _parsed(page).tables["environment"] if row}  # each fact once
    assert "python" in listed and not listed & {"started", "argv", "commit", "cpu_model", "cpus", "host", "jobs"}


def test_each_figure_caption_says_what_is_plotted_and_the_floor(page: Path) -> None:
    """Captions are sentences, not ids: axes, log scale and the 1e-4 s floor; the
    time-against-size caption describes the line that is drawn (medians per size)."""
    captions = dict(re.findall(r'<figure id="fig-([^"]+)".*?<figcaption>([^<]*)</figcaption>',
                               page.read_text(encoding="utf-8")))
    assert captions and all(name not in caption for name, caption in captions.items())
    for name, caption in captions.items():
        assert "log" in caption and "0.0001 s" in caption, (name, caption)
    assert "the median of its diamonds of that size" in captions["size-keys"]


def test_latex_headers_name_the_command_dates_commit_and_machine(results: Path) -> None:
    latex = CliRunner().invoke(main, ["report", str(results), "--format", "latex", "--by", "family"]).stdout
    header = [line for line in latex.splitlines() if line.startswith("%")]
    assert [line.split(":")[0] for line in header[1:6]] == ["% runs", "% command", "% commit", "% machine", "% jobs"]
    assert "% geo mean: times below 0.0001 s count as 0.0001 s" in header
    terminal = CliRunner().invoke(main, ["report", str(results)]).stdout
    assert "environment of the runs:\nruns: " in terminal and "\njobs: 1\n" in terminal
    assert terminal.splitlines()[-1].startswith("3 instances: ")  # the summary line stays last

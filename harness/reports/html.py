"""One self-contained HTML file from run records (``report FILES --format html -o report.html``).

The page needs nothing but itself: the style sheet and the sort-and-filter script
(``report.css``, ``report.js`` next to this module, no dependencies) are inlined, every
figure is an SVG drawn by matplotlib (`crosscheck.harness.reports.plots`) embedded as a
``data:`` image, and no address outside the page is named, so it opens from disk,
offline, and can be mailed.  The page is built with the standard library (`html.escape`
on every value from the records): one page of tables and figures needs no template
engine.

Under the lead, the notes on reading the files (a line cut short, an older schema, a
run recorded twice), on a solver whose runs come from more than one version of its code
(`crosscheck.harness.records.versions.mixed_versions`) and on one whose every run was ``unsupported``
(`crosscheck.harness.judging.unanswered.Unanswered.declined_everywhere`): `crosscheck.harness.reports.tables.run_notes`.
Every note of the terminal (`crosscheck.harness.reports.tables.note_lines`) is on the page.  Sections, in order: the verdicts (the terminal's summary line,
counts, every instance whose verdict is not ``agree`` with its reason, the runs that
crashed and why, how many independent provers the agreements rest on, with the terminal's
`crosscheck.harness.reports.tables.evidence_notes`: which agreements rest on one line of evidence
and why, and which formulations counted as independent recorded identical effort); per-family
aggregates (`crosscheck.harness.reports.aggregate.family_rows`); the per-solver summary; paired
statistics (`crosscheck.harness.reports.paired`); the ablations, when the runs hold several
configurations of a formulation (`crosscheck.harness.reports.ablation`); figures; the run table, one row per
(instance, solver), sortable and filterable by puzzle, family, solver, status and
verdict, a failed run's row with its message; and the provenance of the runs (when, by
which command and commit, on which machine, then every other environment entry: versions,
limits, clock) with the files merged and how many of each file's records were used.
"""

from __future__ import annotations

import base64
import html
import re
from collections import Counter
from collections.abc import Sequence
from importlib import resources

from crosscheck.harness.judging.verdicts import FAILURES, InstanceVerdict, JudgedRuns, Verdict
from crosscheck.harness.records.record import RunRecord, solver_runs
from crosscheck.harness.reports.ablation import ABLATION_COLUMNS, ablation_notes, ablations
from crosscheck.harness.reports.aggregate import (
    FAMILY_COLUMNS,
    MIN_SECONDS,
    cells,
    empty_common,
    family,
    family_rows,
    repetitions,
)
from crosscheck.harness.reports.conditions import SUMMED, conditions, tallied
from crosscheck.harness.reports.numbers import is_number
from crosscheck.harness.reports.paired import MIN_INSTANCES, PAIRED_COLUMNS, Paired, compare_all
from crosscheck.harness.reports.plots import Plot, figure_notes, plots, svg
from crosscheck.harness.reports.tables import (
    SUMMARY_COLUMNS,
    columns_for,
    crashed,
    evidence_notes,
    failure_reasons,
    row_cells,
    run_notes,
    summary_line,
    summary_rows,
    why_failed,
)
from crosscheck.harness.reports.wording import counted, first_line
from crosscheck.solvers.base import Status

#: The filters of the run table: the row attribute each one reads, and its label.
FILTERS = ("puzzle", "family", "solver", "status", "verdict")
#: Columns of the run table sorted by number: each cell carries its leading number as
#: ``data-key`` (``86`` of ``86 states``; ``19`` of ``19/21``, the distinct costs of repetitions that
#: differ, first run's first; empty for an unknown value, sorted last).
NUMERIC_COLUMNS = ("cost", "bound", "seconds", "runs", "median s", "min s", "iqr s", "effort", "independent")
_LEADING_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
#: Environment entries shown under provenance, in this order (others follow by name); those
#: the conditions table sums up (`crosscheck.harness.reports.conditions.SUMMED`) are not repeated.
ENVIRONMENT_ORDER = ("source", "crosscheck", "python", "ortools", "pydantic", "time_limit", "clock",
                     "memory_limit_mb", "pinned_cores", "machine")


def build(judged: JudgedRuns, files: Sequence[tuple[str, Sequence[RunRecord]]] = (),
          read_notes: Sequence[str] = ()) -> str:
    """The page for the judged records (already merged); `files` are the results files read, each
    with its records as read, for the provenance section; `read_notes` what reading and
    merging them left out or assumed (a line cut short, an older schema, a run recorded
    twice), shown under the page's lead."""
    records, verdicts = judged.records, judged.verdicts
    sections = [
        ("verdicts", "Verdicts", _verdicts(judged)),
        ("families", "Per family", _families(records)),
        ("solvers", "Per solver", _table(SUMMARY_COLUMNS, summary_rows(list(records)))),
        ("paired", "Paired statistics", _paired(records)),
        *_ablation_section(records),
        ("plots", "Figures", _figures(records)),
        ("runs-section", "Runs", _runs(judged)),
        ("provenance", "Environment and provenance", _provenance(records, files)),
    ]
    nav = " ".join(f'<a href="#{key}">{title}</a>' for key, title, _ in sections)
    body = "\n".join(f'<section id="{key}">\n<h2>{title}</h2>\n{content}\n</section>' for key, title, content in sections)
    runs = solver_runs(records)
    unreadable = len(records) - len(runs)
    lead = (f"{counted(len(runs), 'run')} of {counted(len({r.solver for r in runs}), 'solver')} on "
            f"{counted(len(verdicts), 'instance')} from {counted(len(files), 'file')}"
            + (f"; {counted(unreadable, 'unreadable instance file')}" if unreadable else ""))
    notes = [*read_notes, *run_notes(list(records))]
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>crosscheck report</title>\n<style>\n{_asset('report.css')}</style>\n</head>\n<body>\n"
            f'<h1>crosscheck report</h1>\n<p class="lead">{html.escape(lead)}</p>\n{_read_notes(notes)}'
            f"<nav>{nav}</nav>\n{body}\n"
            f"<script>\n{_asset('report.js')}</script>\n</body>\n</html>\n")


def _read_notes(read_notes: Sequence[str]) -> str:
    """The notes on reading the files, as a list ('' without any)."""
    if not read_notes:
        return ""
    return ('<ul id="read-notes" class="note">' + "".join(f"<li>{html.escape(note)}</li>" for note in read_notes)
            + "</ul>\n")


def _asset(name: str) -> str:
    return (resources.files("crosscheck.harness.reports") / name).read_text(encoding="utf-8")


def _table(columns: Sequence[str], body: Sequence[Sequence[str]], attributes: str = "",
           row_attributes: Sequence[str] = (), keyed: Sequence[str] = ()) -> str:
    """An HTML table, every cell escaped; numeric cells right-aligned; the cells of the
    `keyed` columns carry their `sort_key` (the page's script sorts them by number)."""
    numeric = ' data-numeric="yes"'
    head = "".join(f'<th data-name="{html.escape(c)}"{numeric if c in keyed else ""}>{html.escape(c)}</th>'
                   for c in columns)
    lines = [f"<table{attributes}>", f"<thead><tr>{head}</tr></thead>", "<tbody>"]
    for number, row in enumerate(body):
        extra = row_attributes[number] if row_attributes else ""
        lines.append(f"<tr{extra}>" + "".join(_cell(value, name in keyed)
                                              for name, value in zip(columns, row, strict=True)) + "</tr>")
    lines += ["</tbody>", "</table>"]
    return "\n".join(lines)


def sort_key(cell: str) -> str:
    """The number a numeric column's `cell` sorts by: its leading number (``86`` of
    ``86 states``, ``19`` of ``19/21``: the values of repetitions that differ, not a
    fraction); '' for an empty or unknown cell."""
    found = _LEADING_NUMBER.match(cell.strip())
    return found[0] if found else ""


def _cell(value: str, keyed: bool = False) -> str:
    align = ' class="num"' if value == "-" or is_number(value) else ""
    key = f' data-key="{sort_key(value)}"' if keyed else ""
    return f"<td{align}{key}>{html.escape(value)}</td>"


def _name(verdict: InstanceVerdict) -> str:
    return verdict.instance + (" [variant]" if verdict.variant else "")


def _verdicts(judged: JudgedRuns) -> str:
    """The summary line of the terminal's notes, counts per verdict (worst first), every
    verdict other than agree with its reason, the runs that crashed and why, and the
    independent provers behind the agreements with the `evidence_notes` on them."""
    records, verdicts = judged.records, judged.verdicts
    counts = Counter(v.verdict for v in verdicts)
    count_rows = [[verdict.value, str(counts[verdict])] for verdict in Verdict if counts[verdict]]
    rank = {verdict: number for number, verdict in enumerate(Verdict)}
    others = sorted((v for v in verdicts if v.verdict is not Verdict.AGREE), key=lambda v: rank[v.verdict])
    problem_rows = [[_name(v), v.verdict.value, v.reason] for v in others]
    problem_classes = [' class="bad"' if v.verdict in FAILURES or v.verdict is Verdict.ERROR else
                       ' class="unverified"' for v in others]
    provers = Counter(v.independent for v in verdicts if v.verdict is Verdict.AGREE)
    prover_rows = [[str(n), str(provers[n])] for n in sorted(provers, reverse=True)]
    problems = (_table(("instance", "verdict", "reason"), problem_rows, ' id="problems"', problem_classes)
                if others else '<p id="problems">Every instance: agree.</p>')
    return "\n".join(part for part in [
        f'<p id="summary">{html.escape(summary_line(judged))}</p>',
        _table(("verdict", "instances"), count_rows, ' id="verdict-counts"'),
        f"<h3>Instances whose verdict is not agree ({len(others)})</h3>", problems, _crashes(records),
        "<h3>Independent provers behind each agreement</h3>",
        '<p class="note">How many formulations sharing no answer-deciding component proved the agreed answer.</p>',
        _table(("independent provers", "instances"), prover_rows, ' id="provers"'), _evidence(judged),
    ] if part)


def _evidence(judged: JudgedRuns) -> str:
    """The terminal's `evidence_notes` as a list: the agreements resting on one line of evidence,
    and the pairs counted as independent whose identical effort makes that doubtful ('' without any)."""
    lines = evidence_notes(judged)
    if not lines:
        return ""
    return ('<ul id="evidence-notes" class="note">' + "".join(f"<li>{html.escape(line)}</li>" for line in lines)
            + "</ul>")


def _crashes(records: Sequence[RunRecord]) -> str:
    """How many runs crashed, and why runs crashed or timed out (the terminal's
    `failure_reasons`); each such run's row in the run table says why it did."""
    summary, reasons = crashed(list(records)), failure_reasons(list(records))
    if not reasons:
        return ""
    timed_out = any(r.status is Status.TIMEOUT for r in records)
    items = "".join(f"<li>{html.escape(reason)}</li>" for reason in reasons)
    told = f"<p>{html.escape(summary)}</p>\n" if summary else ""
    return (f"<h3>Runs that crashed{' or timed out' if timed_out else ''}</h3>\n{told}<ul id=\"crashes\">{items}</ul>\n"
            f'<p class="note">The run table gives every {"crashed or timed-out" if timed_out else "crashed"} run\'s '
            "message (filter its status).</p>")


def _families(records: Sequence[RunRecord]) -> str:
    note = ('<p class="note">solved: an accepted plan or a proof of infeasibility; exact: proven; fastest: '
            "instances on which the solver's exact answer was the fastest; times over the <em>common</em> "
            "instances, those every solver of the family solved exactly. The virtual best takes the fastest "
            f"exact answer per instance. A family is a puzzle and a folder. The geometric mean counts times below "
            f"{MIN_SECONDS:g} s as {MIN_SECONDS:g} s (a logarithm cannot take 0); the median does not. A family "
            "whose common is 0 (some solver solved none of the instances the others did) has no times: "
            "<code>report --exclude-solver NAME</code> compares the others.</p>")
    table = family_rows(records)
    empty = "".join(f'<p class="note common-empty">{html.escape(line)}</p>' for line in empty_common(table))
    return note + _table(FAMILY_COLUMNS, table, ' id="family-table"') + empty


def _paired(records: Sequence[RunRecord]) -> str:
    results = compare_all(cells(records))
    note = ('<p class="note">B against A on the instances both solved exactly: the geometric mean of B\'s time '
            "over A's (above 1: B slower), a 95% bootstrap interval of it (hierarchical over instances and "
            "their repetitions where there are repeats; numpy), and the two-sided Wilcoxon signed-rank "
            f"p-value of the per-instance log ratios (SciPy). Times below {MIN_SECONDS:g} s count as "
            f"{MIN_SECONDS:g} s in the ratios (a logarithm cannot take 0). Pairs with fewer than {MIN_INSTANCES} "
            "common instances are left out.</p>")
    if not results:
        return note + "<p>No pair of solvers has enough common instances.</p>"
    return note + _noise_unknown(results) + _table(PAIRED_COLUMNS, [result.row() for result in results],
                                                   ' id="paired-table"')


def _ablation_section(records: Sequence[RunRecord]) -> list[tuple[str, str, str]]:
    """The section of ablations (`crosscheck.harness.reports.ablation`): a table per formulation run in
    its default configuration and in others, with what the table shows; none when there is none."""
    found = ablations(records)
    if not found:
        return []
    parts = []
    for formulation, rows in found.items():
        notes = "".join(f"<li>{html.escape(line)}</li>" for line in ablation_notes(formulation))
        parts += [f"<h3>{html.escape(formulation)}</h3>", f'<ul class="note">{notes}</ul>',
                  _table(ABLATION_COLUMNS, [row.cells() for row in rows], f' id="ablation-{html.escape(formulation)}"')]
    return [("ablations", "Ablations", "\n".join(parts))]


def _noise_unknown(results: Sequence[Paired]) -> str:
    """A remark when some pair rests on cells of one run: their run-to-run noise is unknown."""
    single = [result for result in results if result.repeats == 1]
    if not single:
        return ""
    which = "No run was repeated" if len(single) == len(results) else \
        f"{counted(len(single), 'pair')} (runs per cell 1) rest on runs that were not repeated"
    return (f'<p class="note" id="noise-unknown">{which}, so the run-to-run noise is unknown: intervals and '
            "p-values cover the spread over instances only (repeat the runs with compare --repeat).</p>")


def _figures(records: Sequence[RunRecord]) -> str:
    """Every figure as an embedded SVG; the scatter plots behind one chooser; a note on each
    figure left out (`crosscheck.harness.reports.plots.figure_notes`)."""
    found = plots(records)
    scatters = [plot for plot in found if plot.kind == "scatter"]
    parts = []
    for kind, title in (("cactus", "Cactus"), ("profile", "Performance profiles"), ("scatter", "Scatter"),
                        ("size", "Time against size"), ("spread", "Spread of repeated runs")):
        chosen = [plot for plot in found if plot.kind == kind]
        if not chosen:
            continue
        parts.append(f"<h3>{title}</h3>")
        if kind == "scatter":
            options = "".join(f'<option value="{html.escape(p.name)}">{html.escape(_pair(p))}</option>'
                              for p in scatters)
            parts.append(f'<div class="controls"><label>Pair <select id="pair">{options}</select></label></div>')
        parts += [_figure(plot) for plot in chosen]
    parts += [f'<p class="note figure-note">{html.escape(note)}</p>' for note in figure_notes(records)]
    return "\n".join(parts) if parts else "<p>No solver runs to draw.</p>"


def _pair(plot: Plot) -> str:
    """'A vs B' of a scatter plot's name."""
    return plot.name.removeprefix(f"scatter-{plot.puzzle}-").replace("-vs-", " vs ")


def _figure(plot: Plot) -> str:
    data = base64.b64encode(svg(plot).encode()).decode("ascii")
    pair = f' data-pair="{html.escape(plot.name)}"' if plot.kind == "scatter" else ""
    return (f'<figure id="fig-{html.escape(plot.name)}"{pair}><img alt="{html.escape(plot.name)}" '
            f'src="data:image/svg+xml;base64,{data}"><figcaption>{html.escape(plot.caption)}</figcaption></figure>')


def _runs(judged: JudgedRuns) -> str:
    """The run table with its filters: every row names its instance and verdict, and a
    failed run's row why it failed (the first line of each distinct message; all of it in
    the row's title, shown on hover)."""
    groups = repetitions(judged.records)
    repeated = any(len(group) > 1 for group in groups)
    body, filtered, titles = [], [], []
    for group in groups:
        first = group[0]
        verdict = judged.verdict_of(first.instance, first.variant)
        row = row_cells(group, verdict, repeated)
        values = {"puzzle": first.puzzle or "-", "family": family(first.instance, first.variant),
                  "solver": first.solver, "status": row[2], "verdict": verdict.verdict.value}
        reasons = list(dict.fromkeys(reason for run in group if (reason := why_failed(run))))
        body.append([values["puzzle"], values["family"], *row, " / ".join(map(first_line, reasons))])
        filtered.append(values)
        titles.append(f' title="{html.escape(chr(10).join(reasons))}"' if reasons else "")
    selects = []
    for name in FILTERS:
        options = "".join(f'<option value="{html.escape(c)}">{html.escape(c)}</option>'
                          for c in sorted({values[name] for values in filtered}))
        selects.append(f'<label>{name} <select data-filter="{name}"><option value="">all</option>{options}'
                       "</select></label>")
    controls = ('<div class="controls">' + "".join(selects) + '<label>search <input id="search" type="search">'
                '</label><span id="shown"></span></div>')
    note = ('<p class="note">Click a column to sort (numbers by value; empty cells last either way); the view '
            "is kept in the address, so it can be bookmarked. A filter in the address that matches no row of "
            "this page shows no row, and says so.</p>")
    attributes = ["".join(f' data-{name}="{html.escape(value)}"' for name, value in values.items()) + title
                  for values, title in zip(filtered, titles, strict=True)]
    columns = ("puzzle", "family", *columns_for(repeated), "message")
    return note + controls + _table(columns, body, ' id="runs"', attributes, NUMERIC_COLUMNS)


def _provenance(records: Sequence[RunRecord], files: Sequence[tuple[str, Sequence[RunRecord]]]) -> str:
    """The conditions of the runs, every other environment entry's values with how many runs
    had each (`tallied`: out of how many runs, when some lack the entry), and the files merged.
    Only solver runs count, as in `conditions`: an unreadable file's record is no run."""
    runs = solver_runs(records) or list(records)
    values: dict[str, Counter[str]] = {}
    for record in runs:
        for name, value in record.environment.items():
            if name not in SUMMED:
                values.setdefault(name, Counter())[str(value)] += 1
    names = [n for n in ENVIRONMENT_ORDER if n in values] + sorted(set(values) - set(ENVIRONMENT_ORDER))
    environment = [[name, tallied(values[name], len(runs))] for name in names]
    origin = {}
    for name, contents in files:  # a later file's record of a run replaces an earlier one (shard.merge)
        origin.update({record.key: name for record in contents})
    used = Counter(origin.values())
    file_rows = [[name, str(len(contents)), str(used[name]), str(len({r.instance for r in contents})),
                  ", ".join(sorted({r.solver for r in contents})),
                  ", ".join(sorted({str(r.environment.get("commit", "?")) for r in contents}))]
                 for name, contents in files]
    return "\n".join([
        "<h3>When, how and where</h3>", _table(("entry", "value"), conditions(records), ' id="conditions"'),
        "<h3>Environment</h3>",
        '<p class="note">Every other entry of the records\' environments, with how many runs had each value '
        "where they differ or some runs lack the entry (N of M runs).</p>",
        _table(("entry", "value"), environment, ' id="environment"'),
        "<h3>Files merged</h3>",
        '<p class="note">A run recorded in several files is taken from the last file that holds it.</p>',
        _table(("file", "records", "used", "instances", "solvers", "commits"), file_rows, ' id="files"'),
    ])

"""The output formats of the tables (`crosscheck.harness.reports.tables`) and the figures
(`crosscheck.harness.reports.plots`) and the modes of the progress on stderr
(`crosscheck.harness.reports.progress`), in a module of their own so that the command line can offer
them without importing what renders them."""

from __future__ import annotations

HUMAN_FORMATS = ("table", "markdown")
MACHINE_FORMATS = ("csv", "jsonl", "json")
#: Tables for papers: one booktabs tabular (crosscheck.harness.reports.latex), no notes.
LATEX = "latex"
#: A LaTeX table of more rows than this is a ``longtable`` (a page holds about this many rows
#: of a table in the body's font); ``report --longtable-rows`` sets another.
LONG_TABLE_ROWS = 40
FORMATS = HUMAN_FORMATS + MACHINE_FORMATS + (LATEX,)
#: The file formats `crosscheck.harness.reports.plots.plot_all` writes: raster PNG, or vector SVG and PDF for papers.
PLOT_FORMATS = ("png", "svg", "pdf")
#: Dots per inch of a PNG figure.
PNG_DPI = 200
#: How progress shows on stderr: a display on a terminal only, plain lines, or nothing.
PROGRESS_MODES = ("auto", "lines", "none")
#: Seconds without a finished run before ``--progress lines`` writes a heartbeat.
HEARTBEAT = 60.0

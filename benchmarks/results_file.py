"""The measured tables' file (``docs/results.md``): one section per benchmark, each saying how it was measured.

``python -m benchmarks.speed --write FILE`` calls `update` after each benchmark it runs: the section of
that benchmark is replaced (or added before the `END` marker, else at the end of the file), and the
rest of the file, hand-written text and other sections, is left as it was.  A section is
`MARK`-delimited and holds a heading, the command, the commit, the date, the load average at the
start, and the benchmark's output as it printed it, so a table in the file always says what it was
measured on and a later run regenerates it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from benchmarks.inputs import read_text

#: ``<!-- speed:NAME -->`` opens a benchmark's section, ``<!-- /speed:NAME -->`` closes it.
MARK = "<!-- speed:{name} -->"
CLOSE = "<!-- /speed:{name} -->"
#: New sections go just before this line when the file has it.
END = "<!-- speed:end -->"


@dataclass(frozen=True)
class Provenance:
    """What a table was measured on: the command, the commit, when, and how busy the machine was."""

    command: str
    commit: str
    date: str
    load: str  # the load averages (1, 5, 15 minutes) at the start
    machine: str  # host and cores


def section(name: str, provenance: Provenance, output: str, status: str) -> str:
    """The section of benchmark `name`: its provenance, then `output` verbatim; `status` says how
    the run ended (exit status and wall time)."""
    fence = "````" if "```" in output else "```"
    return "\n".join([
        MARK.format(name=name),
        f"#### {name}",
        "",
        f"- command: `{provenance.command}`",
        f"- commit: `{provenance.commit}`; date: {provenance.date}; load average at the start: {provenance.load}"
        f" ({provenance.machine})",
        f"- {status}",
        "",
        f"{fence}text",
        output.rstrip("\n"),
        fence,
        CLOSE.format(name=name),
    ]) + "\n"


#: What a results file given to ``--write`` must be.
EXPECTED = "a UTF-8 Markdown results file (docs/results.md) or a path where none is yet"


def current_text(path: Path) -> str:
    """The text of the results file at `path` ("" when there is none); exits 2 with one line
    naming it when it is there but unreadable (a folder, not UTF-8).  Called before a run, so a
    bad ``--write`` costs no measurement."""
    return read_text(path, EXPECTED) if path.exists() else ""


def update(path: Path, name: str, text: str) -> None:
    """Write `text` (a `section`) as benchmark `name`'s section of the file at `path`, replacing the
    one there, else before the `END` line, else at the end; a missing file is created."""
    old = current_text(path)
    existing = re.compile(re.escape(MARK.format(name=name)) + r".*?" + re.escape(CLOSE.format(name=name)) + r"\n?",
                          re.DOTALL)
    if existing.search(old):
        new = existing.sub(lambda _: text, old, count=1)
    elif END in old:
        new = old.replace(END, text + "\n" + END, 1)
    else:
        new = old.rstrip("\n") + "\n\n" + text if old.strip() else text
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(new, encoding="utf-8")

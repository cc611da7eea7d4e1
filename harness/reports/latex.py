"""Tables as LaTeX tables with booktabs rules, ready to ``\\input``.

The output is one ``tabular`` (no floating ``table`` around it, so the paper chooses
placement and caption) and needs ``\\usepackage{booktabs}`` in the preamble; a table of
more than `LONG_TABLE_ROWS` rows (the run table of a study; ``report --longtable-rows``
sets another bound) is a ``longtable`` instead,
which breaks across pages and repeats its header on each (``\\usepackage{longtable}``; it
is not put in a float). Every cell is escaped, so instance and solver names with ``_``,
``%`` or ``&`` typeset as written; a number in scientific form
(`crosscheck.harness.reports.numbers.significant`'s ``8.69e-04``) is set in math as
``$8.69\\times10^{-4}$``; columns whose cells are all numbers (or ``-`` for unknown) are
right-aligned.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from crosscheck.harness.reports.formats import LONG_TABLE_ROWS
from crosscheck.harness.reports.numbers import is_number

#: LaTeX's special characters and what typesets each as itself.
_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}",  # the default OT1 encoding prints them as ¡ and ¿
}
_SCIENTIFIC = re.compile(r"(-?\d(?:\.\d+)?)e([-+])0*(\d+)")


def escape(text: str) -> str:
    """`text` with LaTeX's special characters escaped."""
    return "".join(_ESCAPES.get(char, char) for char in text)


def cell(text: str) -> str:
    """A table cell: a number in scientific form (``8.69e-04``) in math (``$8.69\\times10^{-4}$``),
    anything else `escape`d."""
    found = _SCIENTIFIC.fullmatch(text)
    if found is None:
        return escape(text)
    mantissa, sign, exponent = found.groups()
    return f"${mantissa}\\times10^{{{'-' if sign == '-' else ''}{exponent}}}$"


def _numeric(text: str) -> bool:
    return text in ("", "-") or is_number(text)


def tabular(columns: Sequence[str], body: Sequence[Sequence[str]], comments: Sequence[str] = (),
            long_rows: int = LONG_TABLE_ROWS) -> str:
    """`body` under `columns` as a booktabs ``tabular``, or a ``longtable`` past `long_rows`
    rows (its header repeated on every page); `comments` (lines saying where the table
    came from) go above it as LaTeX comments."""
    align = "".join("r" if body and all(_numeric(row[i]) for row in body) else "l" for i in range(len(columns)))
    head = [r"\toprule", " & ".join(escape(name) for name in columns) + r" \\", r"\midrule"]
    if len(body) > long_rows:
        needs, environment = r"\usepackage{booktabs} and \usepackage{longtable}", "longtable"
        head += [r"\endhead", r"\bottomrule", r"\endfoot"]  # every page, the last too, ends with the rule
    else:
        needs, environment = r"\usepackage{booktabs}", "tabular"
    lines = [*(f"% {' '.join(comment.split())}" for comment in comments), f"% needs {needs}",
             f"\\begin{{{environment}}}{{{align}}}", *head]
    lines += [" & ".join(cell(text) for text in row) + r" \\" for row in body]
    if environment == "tabular":
        lines.append(r"\bottomrule")
    lines.append(f"\\end{{{environment}}}")
    return "\n".join(line for line in lines if line) + "\n"

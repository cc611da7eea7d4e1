"""Tables as LaTeX ``tabular`` environments with booktabs rules, ready to ``\\input``.

The output is one ``tabular`` (no floating ``table`` around it, so the paper chooses
placement and caption) and needs ``\\usepackage{booktabs}`` in the preamble.  Every cell
is escaped, so instance and solver names with ``_``, ``%`` or ``&`` typeset as written;
columns whose cells are all numbers (or ``-`` for unknown) are right-aligned.
"""

from __future__ import annotations

from collections.abc import Sequence

from crosscheck.harness.numbers import is_number

#: LaTeX's special characters and what typesets each as itself.
_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}",  # the default OT1 encoding prints them as ¡ and ¿
}


def escape(text: str) -> str:
    """`text` with LaTeX's special characters escaped."""
    return "".join(_ESCAPES.get(char, char) for char in text)


def _numeric(cell: str) -> bool:
    return cell in ("", "-") or is_number(cell)


def tabular(columns: Sequence[str], body: Sequence[Sequence[str]], comments: Sequence[str] = ()) -> str:
    """`body` under `columns` as a booktabs ``tabular``; `comments` (lines saying where the
    table came from) go above it as LaTeX comments."""
    align = "".join("r" if body and all(_numeric(row[i]) for row in body) else "l" for i in range(len(columns)))
    lines = [*(f"% {' '.join(comment.split())}" for comment in comments), "% needs \\usepackage{booktabs}",
             f"\\begin{{tabular}}{{{align}}}", r"\toprule",
             " & ".join(escape(name) for name in columns) + r" \\", r"\midrule"]
    lines += [" & ".join(escape(cell) for cell in row) + r" \\" for row in body]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(line for line in lines if line) + "\n"

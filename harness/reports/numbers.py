"""Numbers as table cells: times and ratios to significant figures, the same in every format.

A fixed number of decimals prints a fast solver's 5e-5 s as ``0.000`` and a ratio of 5
as ``5`` beside ``5.28``; `significant` keeps `DIGITS` significant digits instead
(``0.0523``, ``5.00``, ``123``) and writes values below `SCIENTIFIC_BELOW` in scientific
form (``5.23e-05``).  Terminal, Markdown, LaTeX and HTML tables all use it.
"""

from __future__ import annotations

import math

#: Significant digits of a time or a ratio in a table.
DIGITS = 3
#: Below this (in absolute value), a number is written in scientific form.
SCIENTIFIC_BELOW = 1e-3


def significant(value: float, digits: int = DIGITS) -> str:
    """`value` to `digits` significant digits, trailing zeros kept (``5.00``); integers of
    more digits whole (``1234``); below `SCIENTIFIC_BELOW` as ``5.23e-05``; zero as ``0``."""
    if value == 0:
        return "0"
    if not math.isfinite(value):
        return str(value)
    if abs(value) >= 10 ** digits:
        return f"{value:.0f}"
    rounded = float(f"{value:.{digits - 1}e}")  # round first: 9.996 becomes 10.0, of two integer digits
    if abs(rounded) < SCIENTIFIC_BELOW:
        return f"{rounded:.{digits - 1}e}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(rounded))))
    return f"{rounded:.{decimals}f}"


def is_number(cell: str) -> bool:
    """Whether a table cell reads as a number (so it is right-aligned)."""
    try:
        float(cell)
    except ValueError:
        return False
    return True

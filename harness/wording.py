"""Words for messages and summaries: counts (``1 instance``, ``2 instances``), a message's first line,
a word with its article (`with_article`, defined with the models, which cannot import the harness)."""

from __future__ import annotations

from crosscheck.models.base import with_article

__all__ = ["counted", "first_line", "with_article"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` and `noun`, the noun in the plural (`plural`, else ``noun + "s"``) unless
    the count is exactly 1: ``counted(1, "run")`` is ``1 run``, ``counted(0, "run")`` ``0 runs``."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def first_line(message: str, blank: str = "no message") -> str:
    """The first line of a run's `message` (the rest stays in its record), `blank` when it is blank."""
    return message.strip().splitlines()[0] if message.strip() else blank

"""Counts in words for messages and summaries: ``1 instance``, ``2 instances``."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` and `noun`, the noun in the plural (`plural`, else ``noun + "s"``) unless
    the count is exactly 1: ``counted(1, "run")`` is ``1 run``, ``counted(0, "run")`` ``0 runs``."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"

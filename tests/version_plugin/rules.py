"""The safety rule of `lifts.RuledLift`."""

from __future__ import annotations

from crosscheck.models.elevator.model import Facility


def start_is_safe(facility: Facility) -> bool:
    """True when no microchip starts on a floor with a generator but not its own."""
    pairs = list(zip(facility.chips, facility.generators, strict=True))
    return all(generator == chip or chip not in facility.generators for chip, generator in pairs)

"""Puzzle models: parsing, rules, variant transforms, generators and plan checkers."""

from crosscheck.models.base import InvalidInstance, InvalidPlan
from crosscheck.models.puzzle import Puzzle

__all__ = ["InvalidInstance", "InvalidPlan", "Puzzle"]

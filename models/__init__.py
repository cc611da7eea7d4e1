"""Puzzle models: parsing, rules, variant transforms, generators and plan checkers."""

from crosscheck.models.base import InvalidInstance, InvalidPlan, Puzzle

__all__ = ["InvalidInstance", "InvalidPlan", "Puzzle"]

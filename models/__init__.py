"""Puzzle models: parsing, rules, variant transforms, generators and plan checkers."""

from models.base import InvalidInstance, InvalidPlan, Puzzle

__all__ = ["InvalidInstance", "InvalidPlan", "Puzzle"]

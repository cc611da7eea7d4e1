"""Formulations of the puzzles, all answering with the same `Result`."""

"""`python -m crosscheck` is the `crosscheck` command."""

from crosscheck.harness.cli import main

main()

"""``python -m crosscheck.harness.cli``: the command line, as the ``crosscheck`` script runs it."""

from crosscheck.harness.cli import main

main()

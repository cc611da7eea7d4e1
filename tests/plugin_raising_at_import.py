"""A plugin module whose import fails (tests/test_cli.py): it must be left out, not stop the runs."""

raise RuntimeError("this plugin fails as it is imported")

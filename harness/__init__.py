"""The harness: runs solvers on instances, checks plans, compares answers, reports."""

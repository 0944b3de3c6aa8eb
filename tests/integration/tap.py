# SPDX-License-Identifier: MIT
"""The reporter of the Python integration tests, as lib.sh's is of the shell ones: a line
"ok - WHAT" or "FAIL - WHAT" per check, then "N passed, N failed" and the exit status."""
import sys

_counts = {"passed": 0, "failed": 0}


def check(what, cond):
    _counts["passed" if cond else "failed"] += 1
    print(("ok - " if cond else "FAIL - ") + what)


def raises(exc, fn, *a, **k):
    """The exception of type exc that fn(*a, **k) raises, None when it returns."""
    try:
        fn(*a, **k)
    except exc as e:
        return e
    return None


def finish():
    print("%d passed, %d failed" % (_counts["passed"], _counts["failed"]))
    sys.exit(1 if _counts["failed"] else 0)

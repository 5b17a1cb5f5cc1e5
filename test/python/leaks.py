"""leaks.py: the leak check the Python suites (test_bindings.py, test_ir.py,
test_python_passes.py) share, so that each says only what it exercises.
A binding that forgets a Py_DECREF shows as Python memory that grows with
the number of calls, or as a reference count on a long-lived object (the
context, a pattern) that does not come back."""
import gc
import sys
import tracemalloc


def assert_no_leaks(test, once, keep=(), warmup=3, runs=200, limit=64 * 1024):
    """Calls once() warmup times (caches, interned names), then runs times
    under tracemalloc; fails test when Python memory grew by limit bytes or
    more, or when an object in keep has gained or lost references."""
    base = [sys.getrefcount(o) for o in keep]
    for _ in range(warmup):
        once()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for _ in range(runs):
            once()
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    test.assertLess(grown, limit, "Python memory grew by %d bytes over %d iterations" % (grown, runs))
    test.assertEqual([sys.getrefcount(o) for o in keep], base)

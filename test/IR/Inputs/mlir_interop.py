# mlir_interop.py: checks that nc's generic output is MLIR: for every valid
# .mlir test file, `mlir-opt --allow-unregistered-dialect` must accept what
# `nc-opt --mlir-print-op-generic` prints, and nc reading mlir-opt's generic
# output back must print exactly what it printed first (so both tools give the
# file the same meaning). Checked without and with --mlir-print-debuginfo.
#
# Usage: mlir_interop.py NC_OPT MLIR_OPT DIR
# Files are chosen and split as in roundtrip.py; files or chunks marked
# `nc-interop: skip` (nc-only syntax) are skipped too.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from roundtrip import run, valid_chunks  # noqa: E402

MODES = [["--mlir-print-op-generic"], ["--mlir-print-op-generic", "--mlir-print-debuginfo"]]


def main():
    nc_opt, mlir_opt, root = sys.argv[1], sys.argv[2], sys.argv[3]
    failures, checked = [], 0
    for where, chunk in valid_chunks(root):
        if b"nc-interop: skip" in chunk:
            continue
        for mode in MODES:
            flags = " ".join(mode)
            rc, ours, err = run(nc_opt, mode, chunk)
            if rc != 0:
                failures.append("%s %s: nc-opt failed:\n%s" % (where, flags, err.decode()))
                continue
            rc, theirs, err = run(mlir_opt, mode, ours)
            if rc != 0:
                failures.append("%s %s: mlir-opt rejects nc's output:\n%s\n--- nc output:\n%s" %
                                (where, flags, err.decode(), ours.decode()))
                continue
            rc, back, err = run(nc_opt, mode, theirs)
            if rc != 0:
                failures.append("%s %s: nc-opt rejects mlir-opt's output:\n%s\n--- mlir-opt output:\n%s" %
                                (where, flags, err.decode(), theirs.decode()))
            elif back != ours:
                failures.append("%s %s: meaning changed through mlir-opt\n--- nc:\n%s\n--- nc(mlir-opt(nc)):\n%s" %
                                (where, flags, ours.decode(), back.decode()))
            checked += 1
    for f in failures:
        print("FAIL: " + f)
    print("mlir-interop: %d checks, %d failures" % (checked, len(failures)))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

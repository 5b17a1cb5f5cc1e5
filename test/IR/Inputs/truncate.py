# truncate.py: feeds nc-opt every prefix of a file (cut at every byte, or at
# every N-th byte with NC_SANITIZED set, since sanitized runs are slow) and
# checks each run: exit status 0, or 1 with a first stderr line of the form
# `<stdin>:line:col: error: ...`. Anything else (crash, other status,
# unlocated error) is reported.
# Usage: truncate.py NC_OPT FILE
import os
import re
import subprocess
import sys

LOCATED = re.compile(rb"^<stdin>:[0-9]+:[0-9]+: error: ")


def main():
    nc_opt, path = sys.argv[1], sys.argv[2]
    data = open(path, "rb").read()
    step = 7 if os.environ.get("NC_SANITIZED") else 1
    bad, rejected, total = [], 0, 0
    for n in range(0, len(data) + 1, step):
        p = subprocess.run([nc_opt, "--allow-unregistered-dialect", "-"], input=data[:n],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
        total += 1
        if p.returncode == 1 and LOCATED.match(p.stderr):
            rejected += 1
        elif p.returncode != 0:
            bad.append("prefix of %d bytes: exit status %d:\n%s" % (n, p.returncode, p.stderr.decode(errors="replace")))
    for b in bad:
        print("BAD: " + b)
    print("truncate: %d prefixes, %d rejected with a located error, %d bad" % (total, rejected, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

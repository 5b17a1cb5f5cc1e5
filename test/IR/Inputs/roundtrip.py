# roundtrip.py: checks that printing is a fixed point of parsing for every
# valid .mlir test file: print(parse(print(x))) == print(x), byte for byte,
# in the custom form, the generic form and both with debug info.
#
# Usage: roundtrip.py NC_OPT DIR
# Files named invalid-* are skipped. A file whose RUN lines use
# --split-input-file is split on `// -----` lines and each chunk is checked
# on its own; chunks that expect diagnostics (`expected-...`) and files
# marked `nc-roundtrip: skip` (inputs that are meant to fail) are skipped.
# Exits non-zero and lists every failure.
import os
import subprocess
import sys
import tempfile

MODES = [
    [],
    ["--mlir-print-op-generic"],
    ["--mlir-print-debuginfo"],
    ["--mlir-print-op-generic", "--mlir-print-debuginfo"],
]


def run(tool, args, data):
    """Runs nc-opt or mlir-opt on data (stdin); returns (status, stdout, stderr)."""
    p = subprocess.run([tool, "--allow-unregistered-dialect"] + args + ["-"], input=data,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def chunks(path):
    text = open(path, "rb").read()
    if b"--split-input-file" not in text or b"nc-roundtrip: whole-file" in text:
        return [text]
    out, cur = [], []
    for line in text.split(b"\n"):
        if line.startswith(b"// -----"):
            out.append(b"\n".join(cur))
            cur = []
        else:
            cur.append(line)
    out.append(b"\n".join(cur))
    return out


def valid_chunks(root):
    """Yields (where, chunk) for each chunk of each valid .mlir file below root
    (Inputs/ folders left out) that expects no diagnostics."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != "Inputs"]
        for name in sorted(filenames):
            if not name.endswith(".mlir") or name.startswith("invalid-"):
                continue
            path = os.path.join(dirpath, name)
            if b"nc-roundtrip: skip" in open(path, "rb").read():
                continue
            for i, chunk in enumerate(chunks(path)):
                if b"expected-" not in chunk:
                    yield ("%s (chunk %d)" % (path, i) if i else path), chunk


def main():
    nc_opt, root = sys.argv[1], sys.argv[2]
    failures, checked = [], 0
    for where, chunk in valid_chunks(root):
        for mode in MODES:
            rc, first, err = run(nc_opt, mode, chunk)
            if rc != 0:
                failures.append("%s %s: first parse failed:\n%s" % (where, " ".join(mode), err.decode()))
                continue
            rc, second, err = run(nc_opt, mode, first)
            if rc != 0:
                failures.append("%s %s: printed output does not parse:\n%s" % (where, " ".join(mode), err.decode()))
            elif second != first:
                with tempfile.NamedTemporaryFile("wb", suffix=".mlir", delete=False) as f:
                    f.write(first)
                failures.append("%s %s: second print differs from the first (first print kept in %s)" %
                                (where, " ".join(mode), f.name))
            checked += 1
    for f in failures:
        print("FAIL: " + f)
    print("roundtrip: %d checks, %d failures" % (checked, len(failures)))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

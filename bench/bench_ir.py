#!/usr/bin/python3
"""bench_ir.py: parse + verify + print speed and memory of nc-opt beside mlir-opt.

For each case it generates the input with gen_ir.py into a data directory
(reused while the file's first line still matches the generator's header),
runs both tools on the same file, printing the generic form to /dev/null:

  nc-opt   --allow-unregistered-dialect --mlir-print-op-generic FILE -o /dev/null
  mlir-opt --allow-unregistered-dialect --mlir-disable-threading --mlir-print-op-generic FILE -o /dev/null

and measures each child's wall time, peak RSS and CPU time (through GNU time,
see run()). Small inputs run 3 times (mlir-opt and nc-opt alternating) and
keep each tool's fastest run. Both tools must exit 0; for inputs up to
--check-mb MB nc's output must also re-parse in mlir-opt and print exactly
what mlir-opt prints for the original file (mlir-opt's generic print is the
canonical form both are compared in).

It prints one Markdown table: nc's figures beside mlir-opt's as ratios from
this one run. "cpu speedup" is the same ratio on user + system CPU time of
the chosen runs: both tools run single-threaded here, so it stays meaningful
when other jobs share the machine and stretch the walls. Goals (issue 2):
speedup >= 5x, memory ratio <= 1/3, hex at >= 1 GB/s. Misses are listed
under the table; they never fail the script (the machines are noisy): only a
tool failure or a check mismatch does. docs/benchmarks.md has a full run.

Usage: bench/bench_ir.py [--mode quick|full] [--cases SUBSTR,...] [--data-dir D]
                         [--nc PATH] [--mlir-opt PATH] [--reps N] [--check-mb MB]
"""
import argparse
import inspect
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gen_ir  # noqa: E402

# name, generator kind, generator kwargs, ops (None: a bytes case)
CASES = {
    "full": [
        ("generic-1e5", "generic", dict(n=100_000), 100_000),
        ("generic-1e6", "generic", dict(n=1_000_000), 1_000_000),
        ("arith-1e6-dup25", "arith", dict(n=1_000_000, funcs=1), 1_000_000),
        ("arith-1e6-dup25-f1000", "arith", dict(n=1_000_000, funcs=1000), 1_000_000),
        ("arith-3e5-f100", "arith", dict(n=300_000, funcs=100), 300_000),
        ("arith-3e5-f100-props", "arith", dict(n=300_000, funcs=100, syntax="mlir-generic"), 300_000),
        ("named-3e5", "named", dict(n=300_000), 300_000),
        ("hex-dense-512MiB", "hex", dict(mib=256, kind="dense"), None),
        ("hex-resource-512MiB", "hex", dict(mib=256, kind="resource"), None),
        ("decimal-f32-4M", "decimal", dict(elements=4 << 20), None),
    ],
    "quick": [
        ("generic-1e4", "generic", dict(n=10_000), 10_000),
        ("generic-1e5", "generic", dict(n=100_000), 100_000),
        ("arith-1e5-dup25-f100", "arith", dict(n=100_000, funcs=100), 100_000),
        ("arith-3e4-f10-props", "arith", dict(n=30_000, funcs=10, syntax="mlir-generic"), 30_000),
        ("named-3e4", "named", dict(n=30_000), 30_000),
        ("hex-dense-32MiB", "hex", dict(mib=16, kind="dense"), None),
        ("hex-resource-32MiB", "hex", dict(mib=16, kind="resource"), None),
        ("decimal-f32-256K", "decimal", dict(elements=256 << 10, cols=512), None),
    ],
}

TIME = "/usr/bin/time"  # GNU time (Debian package "time")

GENERATORS = {"generic": gen_ir.gen_generic, "arith": gen_ir.gen_arith, "named": gen_ir.gen_named,
              "hex": gen_ir.gen_hex, "decimal": gen_ir.gen_decimal}


# gen_ir.py's command-line flag for each generator argument
GEN_FLAGS = {"n": "-n", "funcs": "--funcs", "dup": "--dup", "syntax": "--syntax", "mib": "--mib",
             "kind": "--kind", "blob_mib": "--blob-mib", "elements": "--elements", "cols": "--cols",
             "seed": "--seed"}


def expected_header(kind, kw):
    """The first line gen_ir writes for these arguments (defaults filled in)."""
    sig = inspect.signature(GENERATORS[kind])
    params = {k: p.default for k, p in sig.parameters.items() if k != "out"}
    params.update(kw)
    return gen_ir.header(kind, **params)


def ensure_input(data_dir, name, kind, kw):
    path = os.path.join(data_dir, name + ".mlir")
    want = expected_header(kind, kw)
    if os.path.exists(path):
        with open(path) as f:
            if f.readline() == want:
                return path
    sys.stderr.write(f"bench_ir: generating {path}\n")
    tmp = path + ".tmp"
    cli = [sys.executable, os.path.join(HERE, "gen_ir.py"), kind, "-o", tmp]
    for k, v in kw.items():
        cli += [GEN_FLAGS[k], str(v)]
    subprocess.run(cli, check=True)
    os.replace(tmp, path)
    return path


def run(cmd, timeout, stdout_path=os.devnull):
    """Runs CMD; returns (exit code, wall seconds, peak RSS in bytes, stderr,
    CPU seconds (user + system)).

    The peak RSS comes from GNU time, a small process that forks the tool:
    a child forked straight from this (larger) Python process would inherit
    Python's RSS in its ru_maxrss, because Linux keeps the high-water mark of
    the address space that exec replaces."""
    with tempfile.TemporaryFile() as err, open(stdout_path, "wb") as out, \
            tempfile.NamedTemporaryFile("r") as tf:
        t0 = time.perf_counter()
        p = subprocess.Popen([TIME, "-f", "%x %M %U %S", "-o", tf.name, "--"] + cmd,
                             stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        # A blocking wait: Popen.wait(timeout) polls with sleeps of up to
        # 50 ms, which once rounded every wall time up by as much.
        killer = threading.Timer(timeout, p.kill)
        killer.start()
        p.wait()
        wall = time.perf_counter() - t0
        killer.cancel()
        err.seek(0)
        msg = err.read().decode(errors="replace")
        last = (tf.read().strip().splitlines() or ["-1 0"])[-1].split()
        try:
            rc, rss_kib, cpu = int(last[0]), int(last[1]), float(last[2]) + float(last[3])
        except (ValueError, IndexError):
            rc, rss_kib, cpu = p.returncode or -1, 0, 0.0
        if p.returncode and not rc:
            rc = p.returncode
        return rc, wall, rss_kib * 1024, msg, cpu


def best_of(cmds, reps, timeout):
    """Runs the commands in turn, REPS rounds (interleaved, so that a burst of
    load elsewhere on the machine hits both tools alike); returns each
    command's fastest successful run, or its first failed one."""
    best = [None] * len(cmds)
    for _ in range(reps):
        for i, cmd in enumerate(cmds):
            if best[i] is not None and best[i][0] != 0:
                continue
            r = run(cmd, timeout)
            if r[0] != 0 or best[i] is None or r[1] < best[i][1]:
                best[i] = r
    return best


def check_roundtrip(mlir_opt, nc_cmd, path, timeout):
    """nc's output must re-parse in mlir-opt and print what the input prints."""
    with tempfile.TemporaryDirectory() as d:
        nc_out, a, b = (os.path.join(d, x) for x in ("nc.mlir", "a.mlir", "b.mlir"))
        rc, *_ , err = run(nc_cmd(path, nc_out), timeout, nc_out)
        if rc:
            return f"nc-opt failed: {err[:300]}"
        canon = [mlir_opt, "--allow-unregistered-dialect", "--mlir-disable-threading", "--mlir-print-op-generic"]
        rc, *_, err = run(canon + [nc_out, "-o", a], timeout)
        if rc:
            return f"mlir-opt cannot parse nc's output: {err[:300]}"
        rc, *_, err = run(canon + [path, "-o", b], timeout)
        if rc:
            return f"mlir-opt cannot parse the input: {err[:300]}"
        with open(a, "rb") as fa, open(b, "rb") as fb:
            while True:
                x, y = fa.read(1 << 20), fb.read(1 << 20)
                if x != y:
                    return "nc's output differs from the input once both are printed by mlir-opt"
                if not x:
                    return None


def fmt_count(n):
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= div:
            return f"{n / div:g}{suffix}"
    return str(n)


def fmt_rate(ops, nbytes, wall):
    if ops:
        r = ops / wall
        return f"{r / 1e6:.2f} Mops/s" if r >= 1e6 else f"{r / 1e3:.0f} kops/s"
    r = nbytes / wall / 1e6
    return f"{r / 1e3:.2f} GB/s" if r >= 1000 else f"{r:.0f} MB/s"


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores, {model}, {mem:.0f} GiB RAM, {platform.system()} {platform.release()}"


def report(misses, failures, goals):
    """Prints the missed goals (never fatal: timings are noisy) and the failures."""
    if misses:
        print(f"goals missed ({goals}):")
        for x in misses:
            print(f"  {x}")
    elif not failures:
        print(f"all goals met ({goals})")
    for x in failures:
        print(f"FAILED {x}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=sorted(CASES), default="quick",
                    help="quick: CI-sized inputs (seconds); full: the sizes in docs/benchmarks.md")
    ap.add_argument("--cases", default="", help="comma-separated substrings of case names to run")
    ap.add_argument("--data-dir", default=os.path.join(ROOT, "build", "bench-data"))
    ap.add_argument("--nc", default=os.path.join(ROOT, "build", "bin", "nc-opt"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-19/bin/mlir-opt")
    ap.add_argument("--reps", type=int, default=0, help="runs per tool and case (default: 3 below 32 MB, else 1)")
    ap.add_argument("--check-mb", type=float, default=32, help="round-trip check inputs up to this size")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a run is killed")
    args = ap.parse_args()

    if not os.access(TIME, os.X_OK):
        sys.exit(f"bench_ir: {TIME} is missing (apt-get install time)")
    for tool in (args.nc, args.mlir_opt):
        if not os.access(tool, os.X_OK):
            sys.exit(f"bench_ir: {tool} is not an executable (build nc with scripts/build.sh)")
    os.makedirs(args.data_dir, exist_ok=True)
    wanted = [s for s in args.cases.split(",") if s]
    cases = [c for c in CASES[args.mode] if not wanted or any(w in c[0] for w in wanted)]
    if not cases:
        sys.exit("bench_ir: no case matches --cases")

    def nc_cmd(path, out=os.devnull):
        return [args.nc, "--allow-unregistered-dialect", "--mlir-print-op-generic", path, "-o", out]

    def mlir_cmd(path):
        return [args.mlir_opt, "--allow-unregistered-dialect", "--mlir-disable-threading",
                "--mlir-print-op-generic", path, "-o", os.devnull]

    print(f"machine: {machine()}")
    print(f"mode: {args.mode}; wall = best of the runs, RSS = peak resident set of that run; "
          f"load average before: {os.getloadavg()[0]:.2f}\n")
    print("| case | size | mlir-opt wall | nc wall | speedup | cpu speedup | mlir-opt RSS | nc RSS | memory ratio "
          "| nc throughput |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    failures, misses = [], []
    for name, kind, kw, ops in cases:
        path = ensure_input(args.data_dir, name, kind, kw)
        size = os.path.getsize(path)
        reps = args.reps or (3 if size < 32e6 else 1)
        m, n = best_of([mlir_cmd(path), nc_cmd(path)], reps, args.timeout)
        what = f"{fmt_count(ops)} ops, " if ops else ""
        size_s = f"{what}{size / 1e6:.0f} MB" if size >= 1e6 else f"{what}{size / 1e3:.0f} kB"
        if m[0] or n[0]:
            for tool, r in (("mlir-opt", m), ("nc-opt", n)):
                if r[0]:
                    failures.append(f"{name}: {tool} exited {r[0]}: {r[3].strip()[:400]}")
            cells = [f"rc={m[0]}" if m[0] else f"{m[1]:.2f} s", f"rc={n[0]}" if n[0] else f"{n[1]:.2f} s"]
            print(f"| {name} | {size_s} | {cells[0]} | {cells[1]} | – | – | – | – | – | – |")
            continue
        speed, mem = m[1] / n[1], n[2] / m[2]
        cpu_speed = f"{m[4] / n[4]:.1f}x" if n[4] > 0 else "–"
        print(f"| {name} | {size_s} | {m[1]:.2f} s | {n[1]:.2f} s | {speed:.1f}x | {cpu_speed} | {m[2] / 2**20:.0f} MiB "
              f"| {n[2] / 2**20:.0f} MiB | {mem:.2f} | {fmt_rate(ops, size, n[1])} |", flush=True)
        if speed < 5:
            misses.append(f"{name}: speedup {speed:.1f}x < 5x")
        if mem > 1 / 3:
            misses.append(f"{name}: memory ratio {mem:.2f} > 0.33")
        if kind == "hex" and size / n[1] < 1e9:
            misses.append(f"{name}: {size / n[1] / 1e9:.2f} GB/s < 1 GB/s")
        if size <= args.check_mb * 1e6:
            bad = check_roundtrip(args.mlir_opt, nc_cmd, path, args.timeout)
            if bad:
                failures.append(f"{name}: {bad}")
    print(f"\nload average after: {os.getloadavg()[0]:.2f} (above ~1 other jobs shared the 2 cores: walls are inflated)")
    report(misses, failures, "speedup >= 5x, memory ratio <= 0.33, hex >= 1 GB/s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""bench_passes.py: canonicalize and cse in nc-opt beside mlir-opt, end to end.

For each input (gen_ir.py's arith files: 25% duplicate ops, in 1 function or
spread over many) and each pipeline

  builtin.module(func.func(canonicalize))
  builtin.module(func.func(cse))
  builtin.module(func.func(canonicalize,cse))

it runs both tools on the same file, once with threads (each tool's default:
one thread per CPU) and once with --mlir-disable-threading:

  TOOL --allow-unregistered-dialect [--mlir-disable-threading] --mlir-timing
       --mlir-print-op-generic --pass-pipeline=P FILE -o OUT

and measures the whole process (parse, verify, passes with verification
after each, print, exit) through GNU time: wall, user + system CPU and peak
RSS (see bench_ir.run). The --mlir-timing report of the same run gives the
time of the pass pipeline alone (the wall time of its 'func.func' Pipeline
row: the passes and the verifier after each, both tools report it alike).

Correctness, not timing, decides the exit status: both tools must exit 0,
the number of ops of each name left in their outputs must be the same
(counted on the generic form, one op a line), and nc's threaded output must
be byte-identical to its single-threaded one. Any difference makes the
script exit 1. Timings only fill the table: nc's figures beside mlir-opt's
as ratios from this one run (goal from issue 3: speedup >= 5x end to end,
and threaded runs faster than single-threaded ones on the many-function
file); misses are listed under the table, never failed on, because these
machines are noisy. docs/benchmarks.md ("Passes") has a full run.

Usage: bench/bench_passes.py [--mode quick|full] [--cases SUBSTR,...]
                             [--pipelines canonicalize,cse,...] [--reps N]
                             [--data-dir D] [--nc PATH] [--mlir-opt PATH]
"""
import argparse
import collections
import hashlib
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import bench_ir  # noqa: E402  (input generation, GNU time runs, machine line)

# name, gen_ir kwargs, number of functions (the thread speedup goal applies to many)
CASES = {
    "full": [
        ("arith-1e6-dup25", dict(n=1_000_000, funcs=1)),
        ("arith-1e6-dup25-f1000", dict(n=1_000_000, funcs=1000)),
        ("arith-3e5-f100", dict(n=300_000, funcs=100)),
        ("arith-3e5-f100-props", dict(n=300_000, funcs=100, syntax="mlir-generic")),
    ],
    "quick": [
        ("arith-1e5-dup25", dict(n=100_000, funcs=1)),
        ("arith-1e5-dup25-f100", dict(n=100_000, funcs=100)),
    ],
}
PIPELINES = ["canonicalize", "cse", "canonicalize,cse"]

# one op per line in the generic form: `%a, %b = "name"(` or `%a:2 = "name"(` or `"name"(`
OP_LINE = re.compile(rb'^[ \t]*(?:%[^=\n]*=[ \t]*)?"([^"\n]+)"\(', re.M)
# a row of an --mlir-timing report: one or two `seconds (percent%)` columns, then the name
TIMING_ROW = re.compile(r"^\s*((?:[0-9.]+ \(\s*[0-9.]+%\)\s+)+)(\S.*?)\s*$")


SPIN = "import sys\nx = 0\nfor i in range(int(sys.argv[1])): x += i\n"


def parallel_capacity(iters=6_000_000):
    """How many cores' worth of CPU this session gets right now: the wall time
    of one CPU-bound child, times two, over the wall time of two such children
    run at once (2.0 on an idle 2-core machine). With Linux's autogroup
    scheduling, CPU is shared fairly between sessions, not threads: while
    other sessions keep the cores busy, a second thread of ours gains
    nothing, and neither tool's threaded run can beat its single-threaded one."""
    import subprocess
    import time

    def spin(n):
        t0 = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", SPIN, str(iters)]) for _ in range(n)]
        for p in procs:
            p.wait()
        return time.perf_counter() - t0

    one = min(spin(1) for _ in range(2))
    two = min(spin(2) for _ in range(2))
    return 2 * one / two


def count_ops(path):
    """Ops of each name in a generic-form file."""
    with open(path, "rb") as f:
        data = f.read()
    return collections.Counter(m.decode() for m in OP_LINE.findall(data)), hashlib.sha256(data).hexdigest()


def timing_rows(stderr):
    """{row name: wall seconds} from an --mlir-timing report (the last column is wall time)."""
    rows = {}
    for line in stderr.splitlines():
        m = TIMING_ROW.match(line)
        if m:
            secs = re.findall(r"([0-9.]+) \(", m.group(1))
            rows.setdefault(m.group(2), float(secs[-1]))
    return rows


def pass_wall(rows):
    """Wall seconds of the nested pass pipeline (the passes plus the verifier after each)."""
    for name, secs in rows.items():
        if name.endswith("Pipeline"):
            return secs
    return None


def diff_counts(a, b):
    names = sorted(set(a) | set(b))
    return ", ".join(f"{n}: {a.get(n, 0)} vs {b.get(n, 0)}" for n in names if a.get(n, 0) != b.get(n, 0))


def fmt_s(x):
    return "–" if x is None else f"{x:.2f} s" if x >= 0.1 else f"{x * 1000:.0f} ms"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=sorted(CASES), default="quick",
                    help="quick: 10^5 ops (seconds); full: 10^6 ops, the table in docs/benchmarks.md")
    ap.add_argument("--cases", default="", help="comma-separated substrings of case names to run")
    ap.add_argument("--pipelines", default=",".join(p.replace(",", "+") for p in PIPELINES),
                    help="comma-separated nested pipelines, passes joined by '+' (default: %(default)s)")
    ap.add_argument("--data-dir", default=os.path.join(ROOT, "build", "bench-data"))
    ap.add_argument("--nc", default=os.path.join(ROOT, "build", "bin", "nc-opt"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-19/bin/mlir-opt")
    ap.add_argument("--reps", type=int, default=1, help="runs per tool and configuration; the fastest counts")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a run is killed")
    args = ap.parse_args()

    if not os.access(bench_ir.TIME, os.X_OK):
        sys.exit(f"bench_passes: {bench_ir.TIME} is missing (apt-get install time)")
    for tool in (args.nc, args.mlir_opt):
        if not os.access(tool, os.X_OK):
            sys.exit(f"bench_passes: {tool} is not an executable (build nc with scripts/build.sh)")
    os.makedirs(args.data_dir, exist_ok=True)
    wanted = [s for s in args.cases.split(",") if s]
    cases = [c for c in CASES[args.mode] if not wanted or any(w in c[0] for w in wanted)]
    pipelines = [p.replace("+", ",") for p in args.pipelines.split(",") if p]
    if not cases or not pipelines:
        sys.exit("bench_passes: no case matches --cases, or no --pipelines")

    def cmd(tool, path, pipeline, threads, out):
        c = [tool, "--allow-unregistered-dialect", "--mlir-timing", "--mlir-print-op-generic",
             f"--pass-pipeline=builtin.module(func.func({pipeline}))", path, "-o", out]
        return c if threads else c[:1] + ["--mlir-disable-threading"] + c[1:]

    print(f"machine: {bench_ir.machine()}")
    print(f"mode: {args.mode}, {args.reps} run(s) per tool and row (fastest kept); "
          f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"parallel capacity before: {parallel_capacity():.2f} cores\n")
    print("| case | pipeline | threads | mlir-opt wall | nc wall | speedup | cpu speedup | mlir-opt pass | nc pass "
          "| pass speedup | threaded speedup mlir-opt / nc | mlir-opt RSS | nc RSS | ops left |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    failures, misses = [], []
    with tempfile.TemporaryDirectory(prefix="bench_passes.") as tmp:
        for name, kw in cases:
            path = bench_ir.ensure_input(args.data_dir, name, "arith", kw)
            for pipeline in pipelines:
                single_wall, nc_hash = {}, None
                for threads in (False, True):
                    outs = {t: os.path.join(tmp, f"{t}.mlir") for t in ("mlir", "nc")}
                    best = {}
                    for _ in range(args.reps):  # interleaved, so load bursts hit both tools alike
                        for t, tool in (("mlir", args.mlir_opt), ("nc", args.nc)):
                            if t in best and best[t][0] != 0:
                                continue  # a failed tool is not run again
                            r = bench_ir.run(cmd(tool, path, pipeline, threads, outs[t]), args.timeout)
                            if r[0] == 0:
                                r += (count_ops(outs[t]),)
                            if t not in best or r[0] != 0 or r[1] < best[t][1]:
                                best[t] = r
                    label = f"| {name} | {pipeline} | {'yes' if threads else 'no'} |"
                    bad = [t for t in best if best[t][0] != 0]
                    for t in bad:
                        failures.append(f"{name} {pipeline} threads={threads}: {t} exited {best[t][0]}: "
                                        f"{best[t][3].strip()[:400]}")
                    if bad:
                        print(label + " – |" * 11, flush=True)
                        continue
                    m, n = best["mlir"], best["nc"]
                    (m_counts, _), (n_counts, n_digest) = m[5], n[5]
                    if m_counts != n_counts:
                        failures.append(f"{name} {pipeline} threads={threads}: ops left differ (mlir-opt vs nc): "
                                        f"{diff_counts(m_counts, n_counts)}")
                    if nc_hash is None:
                        nc_hash = n_digest
                    elif nc_hash != n_digest:
                        failures.append(f"{name} {pipeline}: nc's threaded output differs from its single-threaded one")
                    mp, np_ = pass_wall(timing_rows(m[3])), pass_wall(timing_rows(n[3]))
                    speed = m[1] / n[1]
                    cpu = f"{m[4] / n[4]:.1f}x" if n[4] > 0 else "–"
                    pspeed = f"{mp / np_:.1f}x" if mp and np_ else "–"
                    if threads:
                        ts_m, ts_n = single_wall["mlir"] / m[1], single_wall["nc"] / n[1]
                        tsp = f"{ts_m:.2f}x / {ts_n:.2f}x"
                        if kw["funcs"] > 1 and ts_n <= 1:
                            misses.append(f"{name} {pipeline}: nc threaded is not faster than single-threaded "
                                          f"({ts_n:.2f}x)")
                    else:
                        single_wall = {"mlir": m[1], "nc": n[1]}
                        tsp = "–"
                    left = sum(n_counts.values())
                    print(f"{label} {fmt_s(m[1])} | {fmt_s(n[1])} | {speed:.1f}x | {cpu} | {fmt_s(mp)} | {fmt_s(np_)} "
                          f"| {pspeed} | {tsp} | {m[2] / 2**20:.0f} MiB | {n[2] / 2**20:.0f} MiB "
                          f"| {bench_ir.fmt_count(left)}{'' if m_counts == n_counts else ' (DIFFER)'} |", flush=True)
                    if speed < 5:
                        misses.append(f"{name} {pipeline} threads={threads}: speedup {speed:.1f}x < 5x")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"parallel capacity after: {parallel_capacity():.2f} cores\n"
          "(load above ~1: other jobs shared the cores and inflated the walls; parallel capacity = how many "
          "cores' worth two CPU-bound processes of this session got at once: near 1, threads cannot gain)")
    bench_ir.report(misses, failures, "speedup >= 5x; threaded faster than single-threaded on many functions")
    if not failures:
        print("ops left: the same in both tools for every row; nc's threaded and single-threaded outputs identical")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Compiles real CNNs for NorthPole and runs them on its simulator.

For each model -- torchvision resnet18, resnet50, mobilenet_v2,
mobilenet_v3_small, squeezenet1_1, googlenet, densenet121, vgg11 (random
weights, fixed seed, torch.onnx at opset 13, exported by
test/models/gen_torchvision.py into --cache and reused while up to date) and
the digits CNN of examples/digits, plus vgg19 (issue 9's compile-speed
yardstick: at most 3 s) -- at each precision (8 and 4 bits), this measures:

  compile    `nc-compile MODEL --calibration=CAL --mlir-timing`: wall seconds
             and peak RSS (GNU time's %M) of the whole process; the
             GraphQuantize row of --mlir-timing (calibration in the
             interpreter + weight quantization) and its Calibration row
             (running the float graph on the calibration inputs) are
             reported separately: issue 9's compile goals leave
             calibration out;
  chip       `nc-run MODEL.ncb --input X2 --stats-json`: on two images, the
             simulated chip's cores used, cycles per inference in steady
             state (docs/targets/figures.md), frames/s at the chip's clock,
             the two ceilings of the roofline in cycles per inference (compute:
             the MACs over all cores' MAC rate; host I/O: the input bytes over
             the host link's width), the fraction of the compute bound achieved
             (1 / compute_roofline_ratio) and of the roofline, the higher of the
             two (1 / roofline_ratio), with the ceiling that binds; plus the
             host seconds the simulation took; cycles per inference are the
             steady state: the two images repeated to --frames (F) frames in
             one run, the cycles per frame of its second half, from the frames'
             end cycles (frame_end_cycles); the pipeline's filling is left out
             only once it is over, so the run is checked: the second half's first
             quarter may take at most --steady-tolerance more cycles per frame
             than its last, or --steady-floor cycles per frame if that is more,
             else F doubles, up to --max-frames (then the figure is marked "not
             steady"). The floor is for tiny frames: frames end a few cycles
             early or late (copies taking turns, frames finishing out of order;
             the digits CNN's ends stray by up to ~15 cycles from an 8-cycle
             pace), about a cycle per frame over a quarter, where 3% of 8 cycles
             is a quarter of one. A row-pipelined ResNet-50 fills in
             about ten frames, densenet121 (~120 layers deep; its first frame's
             latency is ~25 of its steady frames) in ~30: a deep pipeline
             finishes its first frames ever faster as it fills, so a window that
             starts too early overstates its cycles (F = 32 gave densenet121
             24.6k cycles per frame where it settles at 18.0k). A window faster
             than the busiest core's compute and send cycles per frame (by
             more than --burst-tolerance) is a burst of frames ending together (the VGGs' guest slices), and one
             faster than the binding ceiling (compute or host I/O) is the run's
             drain (its last frames, with no input behind them, end faster); then
             the figure is the difference of an F- and an F/2-frame run over
             F/2 (marked "burst" or "drain"). The window's frames are in the table; the two-image figure
             (docs/targets/figures.md) is kept beside it (--frames=2: only
             that one); beside the pace, the busiest core's compute and
             send cycles per frame and its layers (nc-run's busiest_core_*
             figures): no steady pace is faster (a window may read a little
             under it, as the burst check's tolerance allows), so a pace at
             that figure loses nothing to waits, and one well above it waits
             for data, links, credits or a shared core;
  exact      the simulator's outputs equal the int8 interpreter's
             (`nc-run` on the --emit=quantized graph) on both images;
  SQNR       of the simulator's output against the float model's (torch's
             for torchvision models, nc's float interpreter for digits), in dB.

A model that does not compile shows the stage that stopped it (the first
of --emit=graph, quantized, dataflow, core, binary that fails) and the
message. The table goes into docs/benchmarks.md between the markers
`<!-- bench_northpole:begin -->` and `<!-- bench_northpole:end -->`
(--no-write to only print it; --update to replace only the rows of the
models and widths run, keeping the others and saying which run each row
comes from, so one changed model is re-measured without an hour-long full
run). Timings are never pass/fail material: the
script exits non-zero only if the simulator disagrees with the interpreter.
Use Debian's /usr/bin/python3 (python3-torch, python3-torchvision, numpy).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "test", "models"))

TORCHVISION = ["resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_small", "squeezenet1_1", "googlenet",
               "densenet121", "vgg11"]
LEVELS = ["graph", "quantized", "dataflow", "core"]
NOAVG = "_noavgpool"
EXTRA = ["vgg19"]  # the compile-speed yardstick of issue 9 (at most 3 s); "<model>_noavgpool" variants still work
BEGIN, END = "<!-- bench_northpole:begin -->", "<!-- bench_northpole:end -->"


def run(cmd, timeout):
    """(returncode, stdout, stderr, wall seconds, peak RSS bytes or None) of cmd under GNU time."""
    with tempfile.NamedTemporaryFile(suffix=".rss") as rss:
        full = ["/usr/bin/time", "-f", "%M", "-o", rss.name] + cmd
        t0 = time.perf_counter()
        try:
            p = subprocess.run(full, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return 124, "", "timed out after %d s" % timeout, time.perf_counter() - t0, None
        wall = time.perf_counter() - t0
        try:
            kb = int(open(rss.name).read().strip().splitlines()[-1])
        except (ValueError, IndexError):
            kb = None
        return p.returncode, p.stdout, p.stderr, wall, kb * 1024 if kb else None


def first_error(stderr, path=None):
    for line in stderr.splitlines():
        if "error" in line:
            line = line.strip()
            return line.replace(path, os.path.basename(path)) if path else line
    lines = [l for l in stderr.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "failed"


def timing_row(stderr, name):
    m = re.search(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+" + re.escape(name) + r"\s*$", stderr, re.M)
    return float(m.group(1)) if m else None


def sqnr_db(ref, out):
    ref = ref.astype(np.float64).ravel()
    err = out.astype(np.float64).ravel() - ref
    num, den = float(np.sum(ref * ref)), float(np.sum(err * err))
    return float("inf") if den == 0 else 10 * np.log10(num / den) if num > 0 else float("-inf")


def prepare_models(args):
    """[(name, model.onnx, calibration.npy, two_images.npy, float_reference.npy or None)]."""
    models = []
    names = [m for m in args.models.split(",") if m]
    tv = [m for m in names if m != "digits"]
    if tv:
        import gen_torchvision  # noqa: E402 (needs torch)
        import torch

        build = gen_torchvision.build

        def build_variant(name):  # "<model>_noavgpool": the adaptive average pool replaced by an identity
            if name.endswith(NOAVG):
                model = build(name[:-len(NOAVG)])
                model.avgpool = torch.nn.Identity()  # at 224x224 the features are already 7x7
                return model
            return build(name)

        gen_torchvision.build = build_variant
        gargs = argparse.Namespace(out=args.cache, seed=args.seed, opset=13, batch2=True)
        for name in tv:
            made = gen_torchvision.generate(name, gargs)
            print("%s: %s" % (name, "generated" if made else "up to date"), file=sys.stderr)
            d = os.path.join(args.cache, name)
            models.append((name, os.path.join(d, "model.onnx"), os.path.join(d, "input.npy"),
                           os.path.join(d, "input2.npy"), os.path.join(d, "expected2.npy")))
    if "digits" in names:
        ex = os.path.join(ROOT, "examples", "digits")
        d = os.path.join(args.cache, "digits")
        os.makedirs(d, exist_ok=True)
        x2 = os.path.join(d, "input2.npy")
        np.save(x2, np.load(os.path.join(ex, "test_x.npy"))[:2].astype(np.float32))
        models.append(("digits", os.path.join(ex, "digits_cnn.onnx"), os.path.join(ex, "train_x.npy"), x2, None))
    return models


def bench_one(args, name, onnx, calib, x2, ref, bits, work):
    row = {"model": name, "bits": bits, "onnx_mb": os.path.getsize(onnx) / 2**20}
    base = [os.path.join(args.bin, "nc-compile"), onnx, "--calibration=" + calib] + args.compile_option
    if bits != 8:
        base.append("--precision=%d" % bits)
    ncb = os.path.join(work, "%s_%d.ncb" % (name, bits))
    rc, _, err, wall, rss = run(base + ["--mlir-timing", "-o", ncb], args.timeout)
    row.update(compile_s=wall, rss=rss, quantize_s=timing_row(err, "GraphQuantize"),
               calibration_s=timing_row(err, "Calibration"))
    if rc != 0:
        stage = "binary"
        for level in LEVELS:
            lrc, _, lerr, _, _ = run(base + ["--emit=" + level, "-o", os.devnull], args.timeout)
            if lrc != 0:
                stage, err = level, lerr
                break
        row["error"] = "%s: %s" % (stage, first_error(err, onnx))
        return row
    stats = os.path.join(work, "%s_%d.json" % (name, bits))
    sim = os.path.join(work, "%s_%d_sim.npy" % (name, bits))
    rc, _, err, _, _ = run([os.path.join(args.bin, "nc-run"), ncb, "--input", x2, "--output", sim, "--time",
                            "--stats-json", stats], args.timeout)
    if rc != 0:
        row["error"] = "simulate: %s" % first_error(err)
        return row
    m = re.search(r"run time ([0-9.]+) ms", err)
    row["sim_s"] = float(m.group(1)) / 1e3 / 2 if m else None
    fig = json.load(open(stats))
    row.update(cores=fig.get("cores_used"), cycles=fig.get("cycles_per_inference"),
               fps=fig.get("frames_per_second"), roofline=fig.get("roofline_ratio"),
               compute_bound=fig.get("compute_bound_cycles", fig.get("roofline_bound_cycles")),
               compute_ratio=fig.get("compute_roofline_ratio", fig.get("roofline_ratio")),
               host_io_bound=fig.get("host_io_bound_cycles"), ceiling=fig.get("roofline_ceiling"))
    row["cycles2"] = row["cycles"]
    busiest_of(row, fig)
    if args.frames > 2:  # the steady state, after the pipeline has filled
        x = np.load(x2)
        f = args.frames
        while True:
            xs = os.path.join(work, "%s_%d_x%d.npy" % (name, bits, f))
            np.save(xs, np.concatenate([x] * ((f + len(x) - 1) // len(x)))[:f])
            js = os.path.join(work, "%s_%d_%d.json" % (name, bits, f))
            rc, _, err, _, _ = run([os.path.join(args.bin, "nc-run"), ncb, "--input", xs, "--output",
                                    os.path.join(work, "frames.npy"), "--stats-json", js], args.timeout)
            if rc != 0:
                row["error"] = "simulate: %s" % first_error(err)
                return row
            run_fig = json.load(open(js))
            ends = run_fig["frame_end_cycles"]
            cpi, steady = steady_state(ends, args.steady_tolerance, args.steady_floor)
            why = window_too_fast(cpi, busiest_core_cycles(run_fig), f, fig.get("roofline_bound_cycles"),
                                  args.burst_tolerance)
            if why:  # the two-run difference measures the pace: (cycles of F - of F/2) / (F/2)
                xh = os.path.join(work, "%s_%d_x%d.npy" % (name, bits, f // 2))
                np.save(xh, np.load(xs)[:f // 2])
                jh = os.path.join(work, "%s_%d_%d.json" % (name, bits, f // 2))
                rc, _, err, _, _ = run([os.path.join(args.bin, "nc-run"), ncb, "--input", xh, "--output",
                                        os.path.join(work, "frames.npy"), "--stats-json", jh], args.timeout)
                if rc != 0:
                    row["error"] = "simulate: %s" % first_error(err)
                    return row
                cpi = (run_fig["total_cycles"] - json.load(open(jh))["total_cycles"]) / (f - f // 2)
                steady, row["burst"] = True, why
                break
            if steady or 2 * f > args.max_frames:
                break
            f *= 2  # still filling: a longer run
        busiest_of(row, run_fig)
        bound, cbound = fig.get("roofline_bound_cycles"), row.get("compute_bound")
        row.update(cycles=cpi, frames=f, steady=steady, fps=fig.get("clock_hz", 4e8) / cpi if cpi > 0 else None,
                   roofline=cpi / bound if bound and cpi > 0 else None,
                   compute_ratio=cpi / cbound if cbound and cpi > 0 else None)
    q = os.path.join(work, "%s_%d_q.mlir" % (name, bits))
    interp = os.path.join(work, "%s_%d_interp.npy" % (name, bits))
    rc1, _, e1, _, _ = run(base + ["--emit=quantized", "-o", q], args.timeout)
    rc2, _, e2, _, _ = run([os.path.join(args.bin, "nc-run"), q, "--input", x2, "--output", interp],
                           args.timeout) if rc1 == 0 else (1, "", e1, 0, None)
    out = np.load(sim)
    if rc2 == 0:
        row["exact"] = bool(np.array_equal(out, np.load(interp)))
    else:
        row["exact"] = None
        row["exact_error"] = first_error(e2)
    if ref is None:  # the float model in nc's interpreter
        ref = os.path.join(work, "%s_float.npy" % name)
        rc, _, _, _, _ = run([os.path.join(args.bin, "nc-run"), onnx, "--input", x2, "--output", ref], args.timeout)
        if rc != 0:
            ref = None
    if ref is not None:
        row["sqnr"] = sqnr_db(np.load(ref), out)
    return row


def steady_state(ends, tolerance, floor=0.0):
    """(cycles per frame over the run's second half, whether the pipeline had filled by then) from the
    frames' end cycles (nc-run --stats-json's frame_end_cycles) of one run of F frames: a pipeline still
    filling finishes its frames ever faster, and deep ones (densenet121: ~30 frames) take longer than F/2,
    so the second half's first quarter may take at most `tolerance` (a fraction) more cycles per frame than
    its last (a slower last quarter is the copies' rotation or the run's end, which a longer run does not
    remove), or `floor` more cycles per frame if that is more: frame ends jitter by a few cycles, which a
    fraction of a pace of a few cycles per frame cannot absorb."""
    f = len(ends)
    rate = lambda a, b: (ends[b - 1] - ends[a - 1]) / (b - a)  # frames a..b-1, from frame a-1's end
    early, late = rate(f // 2, 3 * f // 4), rate(3 * f // 4, f)
    return rate(f // 2, f), early <= late + max(tolerance * late, floor)


def busiest_core_cycles(fig):
    """The most cycles one core spends computing and sending over a run (its tiles' busy and send
    cycles summed): no steady pace is faster than that over the run's frames."""
    per_core = {}
    for c in fig.get("cores", []):
        key = (c.get("x"), c.get("y"))
        per_core[key] = per_core.get(key, 0) + c.get("busy_cycles", 0) + c.get("send_cycles", 0)
    return max(per_core.values(), default=0)


def busiest_of(row, fig):
    """Puts the simulator's busiest core (nc-run's busiest_core_* figures: the core whose tiles compute and
    send the most cycles per frame) into the row: a pace close to it loses nothing to waits, and what is left
    is that core's compute and sends; a pace well above it waits (for data, links, credits, a shared core)."""
    if "busiest_core_cycles_per_inference" in fig:
        send = fig.get("busiest_core_send_cycles_per_inference", 0)
        row.update(busiest=fig["busiest_core_cycles_per_inference"], busiest_send=send,
                   busiest_nodes=fig.get("busiest_core_nodes", "?"))


def busiest_text(r):
    """"compute + send (layers)" of the busiest core, or "-"."""
    if r.get("busiest") is None:
        return "-"
    nodes = r["busiest_nodes"] if len(r["busiest_nodes"]) <= 40 else r["busiest_nodes"][:37] + "..."
    return "%.0f + %.0f (%s)" % (r["busiest"] - r["busiest_send"], r["busiest_send"], nodes)


def window_too_fast(cpi, busiest, frames, bound, tolerance):
    """Why a one-run window's cycles per frame cannot be the steady pace, or None: faster than the busiest
    core's compute and send cycles per frame ("burst": frames ended together, a layer sharing cores ran only
    once the other tiles there had no frame left), or faster than the chip's binding ceiling (the roofline
    bound: compute or host I/O), which no steady pace beats ("drain": the run's last frames, with no input
    behind them, end faster; mobilenet_v2 at 8 bits read 4,604 against the host link's 4,704). Either way the
    two-run difference measures the pace, the run's end the same in both runs."""
    if cpi < (1 - tolerance) * busiest / frames:
        return "burst"
    if bound and cpi < bound:
        return "drain"
    return None


def fmt(v, f):
    return "-" if v is None else f % v


CEILING = {"compute": "compute", "host_io": "host I/O"}


def table(rows):
    out = ["| model | bits | compile s | quantize s | calibration s | peak RSS MB | ONNX MB | cores | "
           "cycles/inference | steady window (frames) | busiest core cycles/frame: compute + send (layers) | frames/s @400MHz | cycles/inference (2 frames) | bound cycles: compute / host I/O | % of compute bound | "
           "% of roofline (binding ceiling) | bit-exact (2 images) | SQNR dB | simulator s/inference |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        head = "| %s | %d | %s | %s | %s | %s | %.1f |" % (r["model"], r["bits"], fmt(r.get("compile_s"), "%.2f"),
                                                        fmt(r.get("quantize_s"), "%.2f"),
                                                        fmt(r.get("calibration_s"), "%.2f"),
                                                        fmt(r["rss"] / 2**20 if r.get("rss") else None, "%.0f"),
                                                        r["onnx_mb"])
        if "error" in r:
            msg = r["error"].replace("|", "\\|")
            if len(msg) > 160:
                msg = msg[:157] + "..."
            out.append(head + " %s |" % ("does not compile: `%s`" % msg if not msg.startswith("simulate")
                                           else "`%s`" % msg) + " |" * 11)
            continue
        exact = {True: "yes", False: "**no**", None: "-"}[r.get("exact")]
        pct = 100.0 / r["roofline"] if r.get("roofline") else None
        cpct = 100.0 / r["compute_ratio"] if r.get("compute_ratio") else None
        cyc = lambda v: fmt(v, "%.0f" if v is not None and v >= 100 else "%.3g")
        bounds = "%s / %s" % (cyc(r.get("compute_bound")), cyc(r.get("host_io_bound")))
        roof = fmt(pct, "%.2f") + (" (%s)" % CEILING.get(r["ceiling"], r["ceiling"]) if r.get("ceiling") else "")
        window = "-" if not r.get("frames") else "%d..%d%s" % (r["frames"] // 2, r["frames"],
                                                               " (%s: two runs' difference)" % r["burst"] if r.get("burst")
                                                               else "" if r.get("steady") else " (not steady)")
        out.append(head + " %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            fmt(r.get("cores"), "%d"), fmt(r.get("cycles"), "%.0f"), window, busiest_text(r), fmt(r.get("fps"), "%.0f"),
            fmt(r.get("cycles2"), "%.0f"), bounds,
            fmt(cpct, "%.2f"), roof, exact, fmt(r.get("sqnr"), "%.1f"), fmt(r.get("sim_s"), "%.2f")))
    return "\n".join(out)


def row_key(line):
    """(model, bits) of a table row "| model | bits | ...", or None for the header and separator lines."""
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    return (cells[0], cells[1]) if len(cells) > 1 and cells[1].isdigit() else None


def updated_block(old, new_table, when):
    """The marked block `old` with the rows of `new_table` put in place of the rows of the same model and
    width (new ones after the others), its other rows kept, and a line naming the rows this run gave; raises
    ValueError when the two tables' columns differ (a table written by an older script: run them all)."""
    lines = old.split("\n")
    rows = [l for l in lines if l.startswith("|")]
    new_rows = new_table.split("\n")
    if not rows or rows[0] != new_rows[0]:
        raise ValueError("its table has other columns than this script writes")
    fresh = {row_key(l): l for l in new_rows[2:]}
    kept = [fresh.pop(row_key(l), l) for l in rows[2:]]
    ran = ", ".join("%s %s-bit" % row_key(l) for l in new_rows[2:])
    notes = [l for l in lines if l and not l.startswith("|") and l not in (BEGIN, END)]
    notes.append("Rows %s: a later run of `bench/bench_northpole.py --update` (%s)." % (ran, when))
    return "%s\n\n%s\n\n%s\n\n%s" % (BEGIN, "\n\n".join(notes), "\n".join(new_rows[:2] + kept + list(fresh.values())),
                                      END)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"), help="nc-compile and nc-run (default: %(default)s)")
    ap.add_argument("--cache", default=os.path.join(ROOT, "build", "bench-models"),
                    help="where the exported models are kept (default: %(default)s)")
    ap.add_argument("--models", default=",".join(TORCHVISION + EXTRA + ["digits"]),
                    help="comma-separated (default: %(default)s)")
    ap.add_argument("--bits", default=None, help="comma-separated precisions (default: 8, and 4 if nc-compile has "
                    "--precision)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--compile-option", action="append", default=[], metavar="--OPT=VALUE",
                    help="an extra nc-compile option for every model (repeatable), e.g. --compile-option=--balance-costs=links")
    ap.add_argument("--frames", type=int, default=32, help="frames of the first steady-state run (F; its second "
                    "half, at least core-replicate's max-replicas (16) frames, so every copy takes its share, is "
                    "measured; 2: the two-image run's figure only; default: %(default)s)")
    ap.add_argument("--max-frames", type=int, default=128, help="F doubles while the pipeline is still filling in "
                    "the second half, up to this (default: %(default)s)")
    ap.add_argument("--steady-tolerance", type=float, default=0.03, help="the second half's first quarter may take "
                    "this fraction more cycles per frame than its last; more: still filling (default: %(default)s)")
    ap.add_argument("--steady-floor", type=float, default=1.0, help="... or this many more cycles per frame if that "
                    "is more: the jitter of frame ends, which a fraction of a tiny frame does not cover (default: "
                    "%(default)s)")
    ap.add_argument("--burst-tolerance", type=float, default=0.01, help="a one-run window more than this fraction "
                    "under the busiest core's compute and send cycles per frame is a burst, and the two-run "
                    "difference is taken (vgg11 at 4 bits read 1.8%% under; steady windows read up to about 0.5%% "
                    "under; default: %(default)s)")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per command (default: %(default)s)")
    ap.add_argument("--no-write", action="store_true", help="print the table, leave docs/benchmarks.md alone")
    ap.add_argument("--update", action="store_true", help="replace only the rows of the models and widths run in "
                    "the table there, keep the others, and add a line naming this run's rows (default: the run "
                    "replaces the whole table)")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "benchmarks.md"),
                    help="the markdown file the table goes into (default: %(default)s)")
    args = ap.parse_args()
    if args.bits:
        bits = [int(b) for b in args.bits.split(",")]
    else:
        h = subprocess.run([os.path.join(args.bin, "nc-compile"), "--target=northpole", "--help"],
                           capture_output=True, text=True)
        bits = [8, 4] if "--precision" in h.stdout + h.stderr else [8]
    models = prepare_models(args)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_northpole.") as work:
        for name, onnx, calib, x2, ref in models:
            for b in bits:
                r = bench_one(args, name, onnx, calib, x2, ref, b, work)
                print("%s %d-bit: %s" % (name, b, r.get("error") or "compiled in %.2f s, %s cycles/inference" %
                                         (r["compile_s"], fmt(r.get("cycles"), "%.0f"))), file=sys.stderr)
                rows.append(r)
    cpu = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    load = os.getloadavg()[0]
    doc = open(args.doc).read() if not args.no_write and os.path.exists(args.doc) else ""
    old = doc[doc.index(BEGIN):doc.index(END) + len(END)] if BEGIN in doc and END in doc else None
    when = "%s, %s cores, load average %.1f at the end" % (time.strftime("%Y-%m-%d"), cpu, load)
    if args.update and old is not None:
        try:
            text = updated_block(old, table(rows), when)
        except ValueError as e:
            print("bench_northpole.py: %s: cannot update: %s" % (args.doc, e), file=sys.stderr)
            return 2
    else:
        text = "%s\n\nOne run of `bench/bench_northpole.py` (%s).\n\n%s\n\n%s" % (BEGIN, when, table(rows), END)
    print(text)
    if not args.no_write:
        if old is not None:
            doc = doc.replace(old, text)
        else:
            doc = doc.rstrip("\n") + "\n\n## NorthPole: real networks\n\n" + text + "\n"
        open(args.doc, "w").write(doc)
    return 1 if any(r.get("exact") is False for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())

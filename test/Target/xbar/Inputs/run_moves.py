#!/usr/bin/python3
"""run_moves.py DIR SAME GRAPH:CAL:X:N...: for test/Target/xbar/moves.test,
compiles each graph for xbar (calibration DIR/CAL) into DIR/<stem>.ncb and
its int8 graph, prints the nodes xbar-map put on digital units but the
conv's, then simulates the binary and interprets the int8 graph on DIR/X
and compares their N outputs bit for bit with SAME (same.py)."""
import os
import re
import subprocess
import sys

out_dir, same = sys.argv[1], sys.argv[2]
for spec in sys.argv[3:]:
    graph, cal, x, n = spec.rsplit(":", 3)
    stem = os.path.splitext(os.path.basename(graph))[0]
    base = os.path.join(out_dir, stem)
    common = ["nc-compile", graph, "--target=xbar", "--calibration=" + os.path.join(out_dir, cal)]
    subprocess.run(common + ["-o", base + ".ncb"], check=True)
    subprocess.run(common + ["--emit=quantized", "-o", base + "_q.mlir"], check=True)
    subprocess.run(common + ["--emit=xbar", "-o", base + "_x.mlir"], check=True)
    digital = re.findall(r'xbar\.digital \{core = \d+ : i64, node = "(\w+)"\}', open(base + "_x.mlir").read())
    print("%s: xbar.digital %s" % (os.path.basename(graph), " ".join(digital)))
    sim = [a for i in range(int(n)) for a in ("--output", "%s_s%d.npy" % (base, i))]
    ref = [a for i in range(int(n)) for a in ("--output", "%s_r%d.npy" % (base, i))]
    xin = os.path.join(out_dir, x)
    subprocess.run(["nc-run", base + ".ncb", "--input", xin] + sim, check=True)
    subprocess.run(["nc-run", base + "_q.mlir", "--input", xin] + ref, check=True)
    for i in range(int(n)):
        sys.stdout.flush()
        subprocess.run([sys.executable, same, "%s_s%d.npy" % (base, i), "%s_r%d.npy" % (base, i)], check=True)

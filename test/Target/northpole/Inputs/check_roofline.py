# check_roofline.py STATS.json CHIP.json INPUT.npy [ROWS]: recomputes NorthPole's
# roofline figures (docs/targets/northpole.md) from the chip description and
# the input, independently of the simulator, and checks the --stats-json
# keys against them: the compute ceiling (MACs over every core's rate; an
# 8-bit network), the host-I/O ceiling (one frame's input bytes over the host
# link's width), the roofline as the higher of the two, both ratios, the
# ceiling named, and that the simulated cycles per frame respect the bound.
# ROWS: the input rows (of an [N, C, H, W] input) the network reads, when not
# all of them (the host sends only rows some tile receives).
# Prints the ceiling that binds.
import json
import math
import sys

import numpy as np

stats, chip, x = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), np.load(sys.argv[3])
close = lambda a, b: math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
keys = ("roofline_bound_cycles", "roofline_ratio", "roofline_ceiling", "compute_bound_cycles",
        "compute_roofline_ratio", "host_io_bound_cycles", "host_input_bytes", "host_cycles_per_inference")
missing = [k for k in keys if k not in stats]
assert not missing, missing
cores = chip["grid"]["rows"] * chip["grid"]["cols"]
macs_per_cycle = chip["core"]["ops_per_cycle"]["8"] // 2
frame_bytes = x.size // x.shape[0]  # int8 on the chip: a byte per element
if len(sys.argv) > 4:
    frame_bytes = frame_bytes // x.shape[2] * int(sys.argv[4])
compute = stats["macs_per_inference"] / (cores * macs_per_cycle)
host_io = frame_bytes / chip["noc"]["link_bytes_per_cycle"]
cpi = stats["cycles_per_inference"]
assert stats["host_input_bytes"] == frame_bytes, (stats["host_input_bytes"], frame_bytes)
assert close(stats["compute_bound_cycles"], compute), (stats["compute_bound_cycles"], compute)
assert close(stats["host_io_bound_cycles"], host_io), (stats["host_io_bound_cycles"], host_io)
assert close(stats["roofline_bound_cycles"], max(compute, host_io)), stats["roofline_bound_cycles"]
assert close(stats["roofline_ratio"], cpi / max(compute, host_io)), stats["roofline_ratio"]
assert close(stats["compute_roofline_ratio"], cpi / compute), stats["compute_roofline_ratio"]
assert stats["roofline_ceiling"] == ("compute" if compute >= host_io else "host_io"), stats["roofline_ceiling"]
# the host link sends at least every byte once at full width; a frame takes at least the roofline
assert stats["host_cycles_per_inference"] >= host_io, stats["host_cycles_per_inference"]
assert cpi >= stats["roofline_bound_cycles"], (cpi, stats["roofline_bound_cycles"])
print("roofline ok: ceiling", stats["roofline_ceiling"])

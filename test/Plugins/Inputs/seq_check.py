# seq_check.py: checks for the seq example target (examples/target-plugin).
#   seq_check.py figures STATS.json DATAFLOW.mlir
#       checks that the run's figures have every key docs/targets/figures.md
#       requires, with its type, and that they agree with each other and with
#       the MACs graph-to-dataflow records per node (cycles = sum of
#       ceil(MACs / macs_per_cycle) over the layers)
#   seq_check.py damage FILE.ncb DIR
#       writes binaries whose seq sections break one bound each (with valid
#       checksums, so that the container accepts them and seq's loader must
#       refuse them), by the layout in examples/target-plugin/seq.h
import json
import math
import os
import re
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Target", "northpole", "Inputs"))
import ncb  # noqa: E402  (the shared .ncb reader of the tests)

REQUIRED = {"target": str, "inferences": int, "cycles_per_inference": (int, float), "frames_per_second": float,
            "latency_cycles": int, "roofline_bound_cycles": (int, float), "roofline_ratio": (int, float),
            "cores_used": int, "cores": list}


def figures(stats, ir):
    f = json.load(open(stats))
    for key, ty in REQUIRED.items():
        if key not in f or not isinstance(f[key], ty):
            sys.exit(f"figures: {key} missing or not {ty}")
    macs = [int(m) for m in re.findall(r"\bmacs = (\d+)", open(ir).read())]
    mpc = f["macs_per_cycle"]
    cycles = sum(-(-m // mpc) for m in macs)
    checks = {
        "cycles_per_inference": f["cycles_per_inference"] == cycles,
        "latency_cycles": f["latency_cycles"] == cycles,
        "frames_per_second": math.isclose(f["frames_per_second"], f["clock_hz"] / cycles),
        "roofline_bound_cycles": math.isclose(f["roofline_bound_cycles"], sum(macs) / mpc),
        "roofline_ratio": math.isclose(f["roofline_ratio"], cycles / f["roofline_bound_cycles"]),
        "cores": f["cores_used"] == 1 and len(f["cores"]) == 1 and f["cores"][0]["macs"] == sum(macs),
    }
    bad = [k for k, ok in checks.items() if not ok]
    if bad:
        sys.exit(f"figures: wrong {', '.join(bad)}")
    print(f"figures: ok: {len(macs)} layers, {f['inferences']} inferences, target {f['target']}")


# (name, section type, byte offset in the section, struct format, value)
DAMAGE = [
    ("macs0", 1, 0, "<Q", 0),               # chip: macs_per_cycle
    ("output", 1, 20, "<I", 99),            # chip: output layer
    ("kind", 2, 0, "<I", 9),                # layer 0: kind
    ("source", 2, 4, "<I", 3),              # layer 0: reads a later layer
    ("zero_point", 2, 168, "<q", 200),      # layer 0: input zero point
    ("stride", 2, 96, "<q", 2),             # layer 0: stride that does not give its output shape
    ("multiplier", 2, 212, "<q", 1 << 31),  # layer 0: requantization multiplier
]


def damage(path, d):
    b = open(path, "rb").read()
    h = ncb.parse(b)
    for name, stype, at, fmt, value in DAMAGE:
        i = next(i for i, s in enumerate(h["sections"]) if s[0] == stype and s[1] == 0)
        out = bytearray(b)
        struct.pack_into(fmt, out, h["sections"][i][2] + at, value)
        ncb.fix_section_crc(out, i)
        open(os.path.join(d, name + ".ncb"), "wb").write(bytes(out))


if __name__ == "__main__":
    if sys.argv[1] == "figures":
        figures(sys.argv[2], sys.argv[3])
    else:
        damage(sys.argv[2], sys.argv[3])

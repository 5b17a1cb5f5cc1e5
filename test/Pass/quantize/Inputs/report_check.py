"""Checks two quant reports (8 and 4 bits) of the digits CNN: test/Pass/quantize/report.test."""
import json
import math
import sys

r8, r4 = (json.load(open(p)) for p in sys.argv[1:3])
keys = set()
for r in (r8, r4):
    assert r["samples"] == 64, r["samples"]
    for layer in r["layers"]:
        keys |= set(layer)
print("keys ok:", " ".join(k for k in ("layer", "op", "bits", "scale", "sqnr_db") if k in keys))
print("widths 8:", " ".join(str(l["bits"]) for l in r8["layers"]))
print("widths 4:", " ".join(str(l["bits"]) for l in r4["layers"]))
c8 = next(l for l in r8["layers"] if l["layer"] == "/conv2/Conv")
c4 = next(l for l in r4["layers"] if l["layer"] == "/conv2/Conv")
print("8-bit conv2 SQNR above 4-bit:", "yes" if c8["sqnr_db"] > c4["sqnr_db"] + 10 else "no")
ok = all(l["scale"] > 0 and l["sqnr_db"] is not None and math.isfinite(l["sqnr_db"])
         for r in (r8, r4) for l in r["layers"])
print("scales positive, SQNR finite:", "yes" if ok else "no")

"""Reads the quant report of a mixed-precision compile (test/Pass/quantize/mixed.test)."""
import json
import sys

r = json.load(open(sys.argv[1]))
print("widths:", " ".join(str(l["bits"]) for l in r["layers"]))
print("searched:", " ".join(str(l.get("searched")) for l in r["layers"]))
m = r["mixed"]
print("metric %s, min %g, chosen above it: %s, trials > 0: %s"
      % (m["metric"], m["min_sqnr"], "yes" if m["chosen_sqnr"] >= m["min_sqnr"] else "no",
         "yes" if m["trials"] > 0 else "no"))

"""Compares a mixed-precision compile of the digits CNN with the all-8-bit
one (test/e2e/digits-mixed-throughput.test): the simulator's cycles per
frame (nc-run --stats-json), the quant report's chosen widths and budget,
and the search's own estimate. Prints one line per property."""
import json
import sys

mixed_stats, base_stats, report = (json.load(open(p)) for p in sys.argv[1:4])
m = report["mixed"]
widths = [l["bits"] for l in report["layers"]]
searched = [l["bits"] for l in report["layers"] if l.get("searched")]
sim_m, sim_8 = mixed_stats["cycles_per_inference"], base_stats["cycles_per_inference"]
print("objective:", m["objective"])
print("simulated cycles/frame, mixed <= 8-bit:", "yes" if sim_m <= sim_8 else "no (%g > %g)" % (sim_m, sim_8))
print("estimate shorter than 8-bit:", "yes" if m["frame_cycles_chosen"] < m["frame_cycles_base"] else "no")
print("budget kept:", "yes" if m["chosen_sqnr"] >= m["min_sqnr"] else "no")
print("some layer narrowed:", "yes" if min(widths) < 8 else "no")
print("searched widths differ:", "yes" if len(set(searched)) > 1 else "no")

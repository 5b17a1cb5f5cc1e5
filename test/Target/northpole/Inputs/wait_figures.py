"""Checks nc-run --stats-json's per-core wait figures (docs/targets/figures.md):
every core's data_wait_cycles (waiting for messages not yet arrived) and
link_wait_cycles (the part of those waits that links held by other messages
caused) satisfy 0 <= link_wait <= data_wait and busy + data_wait <= total
cycles. Prints whether any core waited on links, and whether any waited at all."""
import json
import sys

fig = json.load(open(sys.argv[1]))
total = fig["total_cycles"]
bad = [c for c in fig["cores"]
       if not 0 <= c["link_wait_cycles"] <= c["data_wait_cycles"] or c["busy_cycles"] + c["data_wait_cycles"] > total]
print("inconsistent: %d" % len(bad))
print("recv waits: %s" % ("yes" if any(c["data_wait_cycles"] for c in fig["cores"]) else "no"))
print("link waits: %s" % ("yes" if any(c["link_wait_cycles"] for c in fig["cores"]) else "no"))

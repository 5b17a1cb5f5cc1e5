"""Checks packed-sends.test's digits at 4 bits: every core.send of a tile
carries its iteration's elements packed at the layer's width (one output row
of the tile's channels: two 4-bit values a byte), and the simulator's
bytes_sent per core (nc-run --stats-json, one inference) is the sum of that
core's sends, a multicast group counted once.
usage: packed_sends.py CORE.mlir STATS.json"""
import json
import re
import sys

# node -> (output channels, output row width, bits) of digits at --precision=4
NODES = {"conv1": (16, 8, 8), "conv2": (32, 8, 4), "pool1": (32, 4, 4), "conv3": (32, 4, 4)}

tiles, cur = {}, None
for line in open(sys.argv[1]):
    m = re.search(r'core\.tile \{node = "(\w+)"(.*)x = (\d+) : i64, y = (\d+) : i64\}', line)
    if m:
        ch = re.search(r"out_channels = array<i64: (\d+), (\d+)>", m.group(2))
        cur = {"node": m.group(1), "ch": int(ch.group(2)) - int(ch.group(1)) if ch else None, "sends": []}
        tiles[(int(m.group(3)), int(m.group(4)))] = cur
        continue
    m = re.search(r"core\.send \{bytes = (\d+) : i64.*", line)
    if m and cur is not None:
        cur["sends"].append((int(m.group(1)), "multicast" in line))

narrow = 0
for xy, t in tiles.items():
    if t["node"] not in NODES:
        continue
    c, w, bits = NODES[t["node"]]
    want = ((t["ch"] or c) * w * bits + 7) // 8
    for b, _ in t["sends"]:
        assert b == want, (xy, t["node"], b, want)
        narrow += bits < 8
stats = json.load(open(sys.argv[2]))
for core in stats["cores"]:
    t = tiles[(core["x"], core["y"])]
    sent, grouped = 0, False
    for b, mc in t["sends"]:
        if not grouped:
            sent += b
        grouped = mc
    assert core["bytes_sent"] == sent * stats["inferences"], (core, sent)
print("packed sends: %d at 4 bits, %d cores' bytes_sent match" % (narrow, len(stats["cores"])))

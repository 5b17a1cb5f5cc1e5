"""Long-run drift of the simulated cycles per frame (test/Target/northpole/noc-drift.test).

  noc_drift.py frames CORE.mlir IMAGES.npy OUT   writes OUT/n1.npy, n2.npy, n4.npy: N, 2N and 4N frames
                                                 (the images repeated), N twice the replicas' rotation
                                                 and at least 16
  noc_drift.py check N1.json N2.json N4.json     compares the frames N..2N with 2N..4N (nc-run --stats-json)

The rotation L is the least common multiple of the tiles' copy counts
(core.tile {replica = array<i64: k, n>}): copy k of n takes frames k, k + n,
..., so the whole mapping repeats every L frames, and a window of a multiple
of L frames holds whole rotations. In a steady state that repeats, the 2N
frames after 2N then take exactly twice the cycles of the N after N. What
such a state still leaves is where each run's host stream ends: the host
sends every input as fast as its link allows, ahead of the chip, and stops
at a point proportional to the run's length, which offsets the last frame of
each run by less than a frame; so the two windows may differ by up to one
frame interval per run compared (two). A drift (cycles per frame growing
with the run, as links that are never back-filled give) grows with N instead.
"""
import json
import math
import os
import re
import sys

import numpy as np

if sys.argv[1] == "frames":
    core, images, out = sys.argv[2:5]
    counts = [int(n) for n in re.findall(r"replica = array<i64: \d+, (\d+)>", open(core).read())]
    rotation = math.lcm(1, *counts)
    n = rotation * max(2, -(-16 // rotation))  # and at least 16 frames: the pipeline has filled
    x = np.load(images).astype(np.float32)
    x = np.concatenate([x] * (4 * n // len(x) + 1))
    for k in (1, 2, 4):
        np.save(os.path.join(out, "n%d.npy" % k), x[:k * n])
    print("rotation %d frames, N = %d" % (rotation, n))
else:
    t1, t2, t4 = (json.load(open(p))["total_cycles"] for p in sys.argv[2:5])
    n = json.load(open(sys.argv[2]))["inferences"]
    d1, d2 = t2 - t1, t4 - t2  # N frames, then 2N frames
    frame = d1 / n  # the steady state's cycles per frame
    ok = abs(d2 - 2 * d1) <= 2 * frame
    print("frames N..2N: %s cycles per frame, 2N..4N: %s" % (d1 / n, d2 / (2 * n)) if not ok else
          "no drift: 2N..4N within two frame intervals of twice N..2N")

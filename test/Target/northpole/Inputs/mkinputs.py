# mkinputs.py DIR: random inputs for tiny.mlir (1x1x4x4 f32, in [-2, 2]):
# x1.npy (one inference), x5.npy (five), and x5_i8.npy, x5 quantized exactly
# as QuantizeLinear does (float32 division by the scale 1/64, round half to
# even, saturate to int8).
import os
import sys

import numpy as np

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
rng = np.random.default_rng(7)
x5 = rng.uniform(-2, 2, (5, 1, 4, 4)).astype(np.float32)
np.save(os.path.join(d, "x1.npy"), x5[:1])
np.save(os.path.join(d, "x5.npy"), x5)
q = np.clip(np.rint(x5 / np.float32(0.015625)), -128, 127).astype(np.int8)
np.save(os.path.join(d, "x5_i8.npy"), q)

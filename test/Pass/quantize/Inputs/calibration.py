#!/usr/bin/python3
"""Writes the calibration inputs of the graph-quantize tests into DIR.

Values are multiples of powers of two so that every scale, multiplier and
bias in the tests can be derived by hand (see each test's comments).
Usage: calibration.py DIR. Needs /usr/bin/python3 (numpy).
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, a, dtype=np.float32):
    np.save(os.path.join(out, name + ".npy"), np.asarray(a, dtype))


# conv.mlir: input tensor<1x1x1x2xf32>; max |x| = 127/128 in the second sample
conv = [[[[[0.5, -0.25]]]], [[[[127 / 128, -127 / 128]]]]]
save("conv", conv)                                     # [N, 1, 1, 1, 2]
save("conv_batched", np.reshape(conv, (2, 1, 1, 2)))   # [N*1, 1, 1, 2]
save("conv_f64", conv, np.float64)
save("conv_empty", np.zeros((0, 1, 1, 1, 2)))
save("conv_inf", [[[[[np.inf, 0.0]]]]])
save("conv_nan", np.full((2, 1, 1, 1, 2), np.nan))  # all NaN: once accepted with scales of 1
# gemm.mlir: input tensor<1x2xf32>
save("gemm", [[[127 / 128, -0.5]], [[0.25, -127 / 128]]])
# all-zero inputs: every scale falls back to 1
save("zeros", np.zeros((3, 1, 2)))

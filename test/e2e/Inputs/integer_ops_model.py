"""A model with ONNX's integer ops in a static QOperator graph, built with
the onnx helper: QuantizeLinear (a constant scale), ConvInteger (3 -> 8,
3x3, padded) -> Cast -> Mul by the per-channel xs * ws -> Add bias -> Relu
-> QuantizeLinear / DequantizeLinear, Flatten, QuantizeLinear, MatMulInteger
-> Cast -> Mul by xs * ws -> QuantizeLinear / DequantizeLinear. Also a numpy
reference of nc's integer semantics for it (the weight scales are s / xs in
f32; bias rounded to int32 at xs * ws; sums requantized by the fixed-point
rule, relu, saturation to int8).

    integer_ops_model.py OUT_DIR    writes model.onnx, x.npy and ref.npy
"""
import math
import os
import sys

import numpy as np
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

import model_files

rng = np.random.default_rng(5)
out = sys.argv[1]
f = np.float32

xs, y1s, y2s = f(0.02), f(0.05), f(0.08)
w1 = rng.integers(-127, 128, (8, 3, 3, 3)).astype(np.int8)
w2 = rng.integers(-127, 128, (288, 10)).astype(np.int8)
w1s = rng.uniform(0.002, 0.01, 8).astype(f)
s1 = (xs * w1s).astype(f).reshape(1, 8, 1, 1)
s2 = np.array(y1s * f(0.003), f)
b1 = rng.uniform(-0.5, 0.5, (1, 8, 1, 1)).astype(f)
inits = [nh.from_array(a, n) for n, a in [
    ("xs", np.array(xs)), ("y1s", np.array(y1s)), ("y2s", np.array(y2s)), ("z", np.array(0, np.int8)),
    ("w1", w1), ("w2", w2), ("s1", s1), ("s2", s2), ("b1", b1), ("shape", np.array([1, 288], np.int64))]]
nodes = [
    h.make_node("QuantizeLinear", ["x", "xs", "z"], ["xq"], name="x_q"),
    h.make_node("ConvInteger", ["xq", "w1", "z"], ["acc1"], name="conv", pads=[1, 1, 1, 1]),
    h.make_node("Cast", ["acc1"], ["acc1f"], name="conv_cast", to=T.FLOAT),
    h.make_node("Mul", ["acc1f", "s1"], ["c1"], name="conv_scale"),
    h.make_node("Add", ["c1", "b1"], ["c1b"], name="conv_bias"),
    h.make_node("Relu", ["c1b"], ["r1"], name="relu"),
    h.make_node("QuantizeLinear", ["r1", "y1s", "z"], ["r1q"], name="r1_q"),
    h.make_node("DequantizeLinear", ["r1q", "y1s", "z"], ["r1d"], name="r1_dq"),
    h.make_node("Reshape", ["r1d", "shape"], ["flat"], name="flatten"),
    h.make_node("QuantizeLinear", ["flat", "y1s", "z"], ["flatq"], name="flat_q"),
    h.make_node("MatMulInteger", ["flatq", "w2"], ["acc2"], name="fc"),
    h.make_node("Cast", ["acc2"], ["acc2f"], name="fc_cast", to=T.FLOAT),
    h.make_node("Mul", ["acc2f", "s2"], ["m"], name="fc_scale"),
    h.make_node("QuantizeLinear", ["m", "y2s", "z"], ["mq"], name="m_q"),
    h.make_node("DequantizeLinear", ["mq", "y2s", "z"], ["y"], name="y_dq"),
]
model_files.save_graph(out, "integer_ops", nodes, inits, [1, 3, 6, 6], [1, 10])


def fixed_point(scale):  # nc_fixed_point_from_scale: scale = m / 2^shift, m in [2^30, 2^31)
    q, e = math.frexp(scale)
    mult = round(math.ldexp(q, 31))
    if mult == 1 << 31:
        mult, e = mult >> 1, e + 1
    return mult, 31 - e


def requant(acc, scale, lo):
    mult, shift = fixed_point(scale)
    def one(v):
        p = int(v) * mult
        q, r, half = p >> shift, p & ((1 << shift) - 1), 1 << (shift - 1)
        q += 1 if r > half or (r == half and q & 1) else 0
        return min(127, max(lo, q))
    return np.vectorize(one)(acc).astype(np.int64)


x = rng.standard_normal((1, 3, 6, 6)).astype(f)
np.save(os.path.join(out, "x.npy"), x)
xq = np.clip(np.rint(x[0] / xs), -128, 127).astype(np.int64)
ws1 = (s1.reshape(8) / xs).astype(f)
xp = np.pad(xq, ((0, 0), (1, 1), (1, 1)))
acc = np.zeros((8, 6, 6), np.int64)
for i in range(6):
    for j in range(6):
        acc[:, i, j] = np.tensordot(w1.astype(np.int64), xp[:, i:i + 3, j:j + 3], 3)
bq = np.rint(b1.reshape(8).astype(np.float64) / (np.float64(xs) * ws1.astype(np.float64))).astype(np.int64)
r1 = np.stack([requant(acc[c] + bq[c], float(xs) * float(ws1[c]) / float(y1s), 0) for c in range(8)])
ws2 = f(s2 / y1s)
acc2 = r1.reshape(1, 288) @ w2.astype(np.int64)
y = requant(acc2, float(y1s) * float(ws2) / float(y2s), -128)
np.save(os.path.join(out, "ref.npy"), (y * y2s).astype(f))

"""A model of ONNX Runtime's com.microsoft QOperator ops, built with the onnx
helper (onnxruntime is not a Debian package): QuantizeLinear, QLinearConv
(3 -> 8, per-channel weight scales, int32 bias), a 1x1 QLinearConv, a
residual QLinearAdd of the two, a QLinearGlobalAveragePool to a new scale
(a squeeze-and-excitation gate), a QLinearMul of the sum by the gate
(channel broadcast), a QLinearConcat of the product and the first conv
(different scales) and a QLinearGlobalAveragePool keeping its scale, then
DequantizeLinear. Also a numpy reference of nc's integer semantics for it
(docs/quantization.md): conv sums requantized by the fixed-point rule,
each add / concat input rescaled to the output scale, the product
rescaled once, average pools as the rounded integer mean, then rescaled to
the pool's own output scale.

    qoperator_ms_model.py OUT_DIR    writes model.onnx, x.npy and ref.npy
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from model_files import conv_int

rng = np.random.default_rng(3)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
f = np.float32

w1 = rng.integers(-127, 128, (8, 3, 3, 3)).astype(np.int8)
w2 = rng.integers(-127, 128, (8, 8, 1, 1)).astype(np.int8)
b1, b2 = rng.integers(-500, 500, 8).astype(np.int32), rng.integers(-500, 500, 8).astype(np.int32)
s = dict(xs=f(0.02), w1s=rng.uniform(0.002, 0.01, 8).astype(f), y1s=f(0.05), w2s=np.full(8, 0.004, f), y2s=f(0.04),
         as_=f(0.06), gs=f(0.03), ms=f(0.01), cs=f(0.05))
inits = [nh.from_array(np.array(v), k) for k, v in s.items()] + [nh.from_array(a, n) for n, a in [
    ("z", np.array(0, np.int8)), ("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2), ("w1z", np.zeros(8, np.int8))]]
ms = "com.microsoft"
nodes = [
    h.make_node("QuantizeLinear", ["x", "xs", "z"], ["xq"], name="x_q"),
    h.make_node("QLinearConv", ["xq", "xs", "z", "w1", "w1s", "w1z", "y1s", "z", "b1"], ["c1"], name="conv1",
                pads=[1, 1, 1, 1]),
    h.make_node("QLinearConv", ["c1", "y1s", "z", "w2", "w2s", "z", "y2s", "z", "b2"], ["c2"], name="conv2"),
    h.make_node("QLinearAdd", ["c1", "y1s", "z", "c2", "y2s", "z", "as_", "z"], ["a"], name="add", domain=ms),
    h.make_node("QLinearGlobalAveragePool", ["a", "as_", "z", "gs", "z"], ["g"], name="gate", domain=ms,
                channels_last=0),
    h.make_node("QLinearMul", ["a", "as_", "z", "g", "gs", "z", "ms", "z"], ["m"], name="mul", domain=ms),
    h.make_node("QLinearConcat", ["cs", "z", "m", "ms", "z", "c1", "y1s", "z"], ["cc"], name="concat", domain=ms,
                axis=1),
    h.make_node("QLinearGlobalAveragePool", ["cc", "cs", "z", "cs", "z"], ["p"], name="pool", domain=ms),
    h.make_node("DequantizeLinear", ["p", "cs", "z"], ["y"], name="y_dq"),
]
g = h.make_graph(nodes, "qoperator_ms", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 6, 6])],
                 [h.make_tensor_value_info("y", T.FLOAT, [1, 16, 1, 1])], inits)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13), h.make_opsetid(ms, 1)])
onnx.checker.check_model(m)
onnx.save(m, os.path.join(out, "model.onnx"))


def fixed_point(scale):  # nc_fixed_point_from_scale: scale = m / 2^shift, m in [2^30, 2^31)
    q, e = math.frexp(scale)
    mult = round(math.ldexp(q, 31))  # Python's round is half to even
    if mult == 1 << 31:
        mult, e = mult >> 1, e + 1
    return mult, 31 - e


def round_shift(v, shift):  # round_half_even(v / 2^shift), exact on Python ints
    q, r = v >> shift, v & ((1 << shift) - 1)
    half = 1 << (shift - 1)
    return q + (1 if r > half or (r == half and q & 1) else 0)


def rescale(x, scale):  # each element by the fixed-point rule, saturated to int8
    mult, shift = fixed_point(scale)
    return np.vectorize(lambda v: min(127, max(-128, round_shift(int(v) * mult, shift))))(x).astype(np.int64)


def conv(x, w, b, pad):  # int64 NCHW convolution, stride 1, one image, plus the bias
    return conv_int(x, w, pad) + b[:, None, None]


def requant(acc, xs, ws, ys):  # per output channel
    return np.stack([rescale(acc[c], float(xs) * float(ws[c]) / float(ys)) for c in range(acc.shape[0])])


def mean(x):  # round_half_even(sum / count) per channel, as [C, 1, 1]
    n = x.shape[1] * x.shape[2]
    out = []
    for v in x:
        t = int(v.sum())
        q, r = t // n, t % n
        out.append(q + (1 if 2 * r > n or (2 * r == n and q & 1) else 0))
    return np.array(out, np.int64)[:, None, None]


x = rng.standard_normal((1, 3, 6, 6)).astype(f)
np.save(os.path.join(out, "x.npy"), x)
F = lambda k: float(s[k])
xq = np.clip(np.rint(x[0] / s["xs"]), -128, 127).astype(np.int64)
c1 = requant(conv(xq, w1, b1, 1), F("xs"), s["w1s"], F("y1s"))
c2 = requant(conv(c1, w2, b2, 0), F("y1s"), s["w2s"], F("y2s"))
m1, sh1 = fixed_point(F("y1s") / F("as_"))
m2, sh2 = fixed_point(F("y2s") / F("as_"))
a = np.vectorize(lambda u, v: min(127, max(-128, round_shift(int(u) * m1, sh1) + round_shift(int(v) * m2, sh2))))(
    c1, c2).astype(np.int64)
gate = rescale(mean(a), F("as_") / F("gs"))
mm, msh = fixed_point(F("as_") * F("gs") / F("ms"))
prod = np.vectorize(lambda u, v: min(127, max(-128, round_shift(int(u) * int(v) * mm, msh))))(a, gate).astype(np.int64)
cc = np.concatenate([rescale(prod, F("ms") / F("cs")), rescale(c1, F("y1s") / F("cs"))])
p = mean(cc)
np.save(os.path.join(out, "ref.npy"), (p * s["cs"]).astype(f)[None])

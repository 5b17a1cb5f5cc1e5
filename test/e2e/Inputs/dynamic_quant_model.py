"""A dynamically quantized model as ONNX Runtime's quantize_dynamic writes
it (built with the onnx helper; onnxruntime is not a Debian package): per
layer DynamicQuantizeLinear of the float input, ConvInteger / MatMulInteger
with the constant weight codes, Cast to f32, Mul by Mul(x_scale,
w_scale), then the float bias Add. A 3x3 conv (int8 weights, per-channel
scales) with relu, a global average pool, flatten, and a fully connected
layer (uint8 weights with zero point 131, one scale). Also a numpy
reference of the ONNX semantics (DynamicQuantizeLinear in f32 as ONNX's
reference computes it; exact integer sums; f32 products), calibration
images and a test image.

    dynamic_quant_model.py OUT_DIR   writes model.onnx, x.npy, calib.npy, ref.npy
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from model_files import conv_int as conv

rng = np.random.default_rng(7)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
f = np.float32

w1 = rng.integers(-127, 128, (8, 3, 3, 3)).astype(np.int8)
w1s = rng.uniform(0.002, 0.01, 8).astype(f)
b1 = rng.normal(0, 0.1, (1, 8, 1, 1)).astype(f)
w2 = rng.integers(0, 256, (8, 10)).astype(np.uint8)
w2s, w2z = f(0.004), np.uint8(131)
b2 = rng.normal(0, 0.1, 10).astype(f)
inits = [nh.from_array(a, n) for n, a in [
    ("w1", w1), ("w1s", w1s), ("w1z", np.zeros(8, np.int8)), ("b1", b1), ("w2", w2), ("w2s", np.array(w2s)),
    ("w2z", np.array(w2z)), ("b2", b2)]]
nodes = [
    h.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"], name="x_dq"),
    h.make_node("ConvInteger", ["xq", "w1", "xz", "w1z"], ["c1i"], name="conv1", pads=[1, 1, 1, 1]),
    h.make_node("Cast", ["c1i"], ["c1c"], name="conv1_cast", to=T.FLOAT),
    h.make_node("Mul", ["xs", "w1s"], ["s1"], name="conv1_scales_mul"),
    h.make_node("Mul", ["c1c", "s1"], ["c1m"], name="conv1_mul"),
    h.make_node("Add", ["c1m", "b1"], ["c1"], name="conv1_bias"),
    h.make_node("Relu", ["c1"], ["r1"], name="relu"),
    h.make_node("GlobalAveragePool", ["r1"], ["g"], name="gap"),
    h.make_node("Flatten", ["g"], ["fl"], name="flatten"),
    h.make_node("DynamicQuantizeLinear", ["fl"], ["fq", "fs", "fz"], name="fl_dq"),
    h.make_node("MatMulInteger", ["fq", "w2", "fz", "w2z"], ["mi"], name="fc"),
    h.make_node("Cast", ["mi"], ["mc"], name="fc_cast", to=T.FLOAT),
    h.make_node("Mul", ["fs", "w2s"], ["s2"], name="fc_scales_mul"),
    h.make_node("Mul", ["mc", "s2"], ["mm"], name="fc_mul"),
    h.make_node("Add", ["mm", "b2"], ["y"], name="fc_bias"),
]
# ConvInteger's per-channel scales broadcast as [8, 1, 1] against [1, 8, H, W]
inits[1] = nh.from_array(w1s.reshape(8, 1, 1), "w1s")
g = h.make_graph(nodes, "dynamic_quant", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                 [h.make_tensor_value_info("y", T.FLOAT, [1, 10])], inits)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
onnx.checker.check_model(m)
onnx.save(m, os.path.join(out, "model.onnx"))


def dql(x):  # ONNX's reference DynamicQuantizeLinear (f32)
    lo, hi = np.minimum(f(0), x.min()), np.maximum(f(0), x.max())
    s = f((hi - lo) / f(255))
    z = np.clip(np.round(f(0) - lo / s), 0, 255)
    return np.clip(np.round(x / s) + z, 0, 255).astype(np.int64), s, int(z)


x = rng.standard_normal((1, 3, 8, 8)).astype(f)
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "calib.npy"), rng.standard_normal((8, 3, 8, 8)).astype(f))
xq, xs, xz = dql(x[0])
c = conv(xq - xz, w1, 1)  # padding holds the zero point: x - x_zp is 0 there
c1 = np.maximum(c.astype(f)[None] * (xs * w1s.reshape(8, 1, 1)) + b1, f(0))
gv = c1.mean(axis=(2, 3), dtype=np.float64).astype(f)
fq, fs, fz = dql(gv)
mi = (fq - fz) @ (w2.astype(np.int64) - int(w2z))
np.save(os.path.join(out, "ref.npy"), (mi.astype(f) * (fs * w2s) + b2).astype(f))

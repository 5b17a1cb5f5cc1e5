"""A QOperator model (QuantizeLinear, QLinearConv with per-channel weight
scales and an int32 bias, a second QLinearConv, DequantizeLinear, Reshape,
QLinearMatMul, DequantizeLinear), built with the onnx helper since
onnxruntime is not a Debian package, and a numpy reference of the ONNX
QLinear semantics (int32 accumulation, requantization by x_scale * w_scale /
y_scale rounded half to even, saturation to int8).
The second conv's and the matmul's channels have largest codes below 127
(and one of -128), so nc matches only by keeping the model's own scales.

    qoperator_model.py OUT_DIR    writes model.onnx, x.npy and ref.npy
                                  (the reference output for x.npy)
"""
import os
import sys

import numpy as np
from onnx import helper as h
from onnx import numpy_helper as nh

import model_files

rng = np.random.default_rng(1)
out = sys.argv[1]
f = np.float32


def codes(shape, top, axis=0):  # channel c's largest |code| is top[c]
    w = np.moveaxis(np.zeros(shape, np.int8), axis, 0).copy()
    for c, t in enumerate(top):
        w[c] = rng.integers(-abs(t) + 1, abs(t), w[c].shape)
        w[c].reshape(-1)[0] = t
    return np.ascontiguousarray(np.moveaxis(w, 0, axis))


w1 = codes((4, 1, 3, 3), [127] * 4)
w2 = codes((6, 4, 1, 1), [127, 90, 60, -128, 33, 100])
w3 = codes((96, 10), [64, 127, 20, 100, 7, 127, 50, 90, 126, 80], axis=1)
b1, b2 = np.array([300, -200, 0, 70], np.int32), np.arange(-3, 3, dtype=np.int32) * 50
s = dict(xs=f(0.02), w1s=np.array([0.01, 0.02, 0.005, 0.0125], f), y1s=f(0.05),
         w2s=np.full(6, 0.01, f), y2s=f(0.04), w3s=np.full(10, 0.003, f), y3s=f(0.1))
z = np.array(0, np.int8)
inits = [nh.from_array(np.array(v), k) for k, v in s.items()] + [nh.from_array(a, n) for n, a in [
    ("z", z), ("w1", w1), ("w1z", np.zeros(4, np.int8)), ("b1", b1), ("w2", w2), ("b2", b2),
    ("w3", w3), ("shape", np.array([1, 96], np.int64))]]
nodes = [
    h.make_node("QuantizeLinear", ["x", "xs", "z"], ["xq"], name="x_q"),
    h.make_node("QLinearConv", ["xq", "xs", "z", "w1", "w1s", "w1z", "y1s", "z", "b1"], ["c1"], name="conv1",
                pads=[1, 1, 1, 1], strides=[2, 2]),
    h.make_node("QLinearConv", ["c1", "y1s", "z", "w2", "w2s", "z", "y2s", "z", "b2"], ["c2"], name="conv2"),
    h.make_node("DequantizeLinear", ["c2", "y2s", "z"], ["c2d"], name="c2_dq"),
    h.make_node("Reshape", ["c2d", "shape"], ["flat"], name="flatten"),
    h.make_node("QuantizeLinear", ["flat", "y2s", "z"], ["flatq"], name="flat_q"),
    h.make_node("QLinearMatMul", ["flatq", "y2s", "z", "w3", "w3s", "z", "y3s", "z"], ["m"], name="fc"),
    h.make_node("DequantizeLinear", ["m", "y3s", "z"], ["y"], name="fc_dq"),
]
model_files.save_graph(out, "qoperator", nodes, inits, [1, 1, 8, 8], [1, 10])


def requant(acc, scale, ys):
    return np.clip(np.rint(acc.astype(np.float64) * (scale / ys)), -128, 127).astype(np.int32)


def conv(x, w, b, stride, pad):  # int32 NCHW convolution, one image
    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
    m, c, kh, kw = w.shape
    oh, ow = (x.shape[1] - kh) // stride + 1, (x.shape[2] - kw) // stride + 1
    y = np.zeros((m, oh, ow), np.int64)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw].astype(np.int64)
            y[:, i, j] = np.tensordot(w.astype(np.int64), patch, 3)
    return y + b[:, None, None]


xs = rng.standard_normal((2, 1, 8, 8)).astype(f)
np.save(os.path.join(out, "x.npy"), xs)
refs = []
for x in xs:
    q = np.clip(np.rint(x / s["xs"]), -128, 127).astype(np.int32)
    c1 = requant(conv(q, w1, b1, 2, 1), (s["xs"] * s["w1s"]).astype(f)[:, None, None], s["y1s"])
    c2 = requant(conv(c1, w2, b2, 1, 0), (s["y1s"] * s["w2s"]).astype(f)[:, None, None], s["y2s"])
    acc = c2.reshape(1, 96).astype(np.int64) @ w3.astype(np.int64)
    refs.append(requant(acc, s["y2s"] * s["w3s"], s["y3s"])[0] * s["y3s"])
np.save(os.path.join(out, "ref.npy"), np.array(refs, f))
with open(os.path.join(out, "codes.check"), "w") as fh:
    fh.write(model_files.blob_check(w2))

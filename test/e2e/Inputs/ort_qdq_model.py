"""A QDQ model in the form ONNX Runtime's quantizer writes (symmetric int8,
QuantizeLinear -> DequantizeLinear on activations, int8 weight initializers
with per-channel DequantizeLinear on axis 0, Conv + Relu and Gemm between
them), built with the onnx helper since onnxruntime is not a Debian package.
Each weight channel's largest code is 127, so nc's per-channel weight
scales are the model's own.

    ort_qdq_model.py OUT_DIR    writes model.onnx, x.npy and codes.check
                                (FileCheck lines: the first conv's int8
                                weight and int32 bias blobs nc must keep)
"""
import os
import sys

import numpy as np
from onnx import helper as h
from onnx import numpy_helper as nh

import model_files

rng = np.random.default_rng(0)
out = sys.argv[1]


def codes(shape):
    w = rng.integers(-126, 127, shape).astype(np.int8)
    w.reshape(shape[0], -1)[:, 0] = 127  # the largest |code| of each channel
    return w


w1, w2 = codes((4, 1, 3, 3)), codes((10, 64))
f = np.float32
inits = [nh.from_array(a, n) for n, a in [
    ("xs", np.array(0.02, f)), ("z", np.array(0, np.int8)),
    ("w1", w1), ("w1s", np.array([0.01, 0.02, 0.005, 0.0125], f)), ("w1z", np.zeros(4, np.int8)),
    ("b1", np.array([100, -50, 0, 7], np.int32)), ("b1s", np.array([0.0002, 0.0004, 0.0001, 0.00025], f)),
    ("ys", np.array(0.05, f)),
    ("w2", w2), ("w2s", np.full(10, 0.004, f)), ("w2z", np.zeros(10, np.int8)),
    ("b2", np.arange(-5, 5, dtype=np.int32) * 10), ("b2s", np.full(10, 0.0002, f)),
    ("os", np.array(0.1, f)), ("shape", np.array([1, 64], np.int64))]]
nodes = [
    h.make_node("QuantizeLinear", ["x", "xs", "z"], ["xq"], name="x_q"),
    h.make_node("DequantizeLinear", ["xq", "xs", "z"], ["xd"], name="x_dq"),
    h.make_node("DequantizeLinear", ["w1", "w1s", "w1z"], ["w1d"], name="w1_dq", axis=0),
    h.make_node("DequantizeLinear", ["b1", "b1s"], ["b1d"], name="b1_dq", axis=0),
    h.make_node("Conv", ["xd", "w1d", "b1d"], ["c"], name="conv", pads=[1, 1, 1, 1], strides=[2, 2]),
    h.make_node("Relu", ["c"], ["r"], name="relu"),
    h.make_node("QuantizeLinear", ["r", "ys", "z"], ["rq"], name="r_q"),
    h.make_node("DequantizeLinear", ["rq", "ys", "z"], ["rd"], name="r_dq"),
    h.make_node("Reshape", ["rd", "shape"], ["flat"], name="flatten"),
    h.make_node("DequantizeLinear", ["w2", "w2s", "w2z"], ["w2d"], name="w2_dq", axis=0),
    h.make_node("DequantizeLinear", ["b2", "b2s"], ["b2d"], name="b2_dq", axis=0),
    h.make_node("Gemm", ["flat", "w2d", "b2d"], ["g"], name="fc", transB=1),
    h.make_node("QuantizeLinear", ["g", "os", "z"], ["gq"], name="fc_q"),
    h.make_node("DequantizeLinear", ["gq", "os", "z"], ["y"], name="fc_dq"),
]
model_files.save_graph(out, "ort_qdq", nodes, inits, [1, 1, 8, 8], [1, 10])
np.save(os.path.join(out, "x.npy"), rng.standard_normal((2, 1, 8, 8)).astype(f))
with open(os.path.join(out, "codes.check"), "w") as fh:
    fh.write(model_files.blob_check(w1, "w1_dq_q"))
    fh.write(model_files.blob_check(np.array([100, -50, 0, 7], np.int32), "b1_dq_q"))

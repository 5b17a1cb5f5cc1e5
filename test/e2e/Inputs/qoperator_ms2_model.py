"""A second model of ONNX Runtime's com.microsoft QOperator ops, built with
the onnx helper (onnxruntime is not a Debian package), for the ops its
quantizer writes for activations, pools and fully connected layers:
QuantizeLinear, QLinearConv (3 -> 8, per-channel weight scales, int32
bias), QLinearLeakyRelu (alpha 0.1, to a new scale), QLinearAveragePool
(3x3, stride 2, pads 1, not counting them, to a new scale), QLinearSigmoid,
QLinearGlobalAveragePool, Flatten (in float between DequantizeLinear and
QuantizeLinear, as the quantizer leaves it), QGemm (transB, per-column weight scales,
int32 bias at a_scale * b_scale), QLinearSoftmax (opset 13 semantics), then
DequantizeLinear. Also two float variants for the import test: QGemm with no
y_scale (a float output) and QLinearSoftmax with opset 1 on a 2-D input.

    qoperator_ms2_model.py OUT_DIR    writes model.onnx, x.npy, qgemm_float.onnx
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

rng = np.random.default_rng(5)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
f = np.float32
ms = "com.microsoft"

w1 = rng.integers(-127, 128, (8, 3, 3, 3)).astype(np.int8)
b1 = rng.integers(-500, 500, 8).astype(np.int32)
wg = rng.integers(-127, 128, (10, 8)).astype(np.int8)
bg = rng.integers(-3000, 3000, 10).astype(np.int32)
s = dict(xs=f(0.02), w1s=rng.uniform(0.002, 0.01, 8).astype(f), y1s=f(0.05), lrs=f(0.04), aps=f(0.03),
         sgs=f(1 / 127), gps=f(0.006), wgs=rng.uniform(0.003, 0.02, 10).astype(f), ygs=f(0.05), sms=f(1 / 127))
inits = [nh.from_array(np.array(v), k) for k, v in s.items()] + [nh.from_array(a, n) for n, a in [
    ("z", np.array(0, np.int8)), ("w1", w1), ("b1", b1), ("w1z", np.zeros(8, np.int8)), ("wg", wg), ("bg", bg),
    ("wgz", np.zeros(10, np.int8))]]


def model(nodes, name, out_shape, extra=()):
    g = h.make_graph(nodes, name, [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                     [h.make_tensor_value_info("y", T.FLOAT, out_shape)], inits + list(extra))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13), h.make_opsetid(ms, 1)])
    onnx.checker.check_model(m)
    return m


head = [
    h.make_node("QuantizeLinear", ["x", "xs", "z"], ["xq"], name="x_q"),
    h.make_node("QLinearConv", ["xq", "xs", "z", "w1", "w1s", "w1z", "y1s", "z", "b1"], ["c1"], name="conv1",
                pads=[1, 1, 1, 1]),
    h.make_node("QLinearLeakyRelu", ["c1", "y1s", "z", "lrs", "z"], ["lr"], name="leaky", domain=ms, alpha=0.1),
    h.make_node("QLinearAveragePool", ["lr", "lrs", "z", "aps", "z"], ["ap"], name="pool", domain=ms,
                kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=0, channels_last=0),
    h.make_node("QLinearSigmoid", ["ap", "aps", "z", "sgs", "z"], ["sg"], name="sigmoid", domain=ms),
    h.make_node("QLinearGlobalAveragePool", ["sg", "sgs", "z", "gps", "z"], ["gp"], name="gpool", domain=ms),
    # the quantizer leaves Flatten in float between a DequantizeLinear and a QuantizeLinear
    h.make_node("DequantizeLinear", ["gp", "gps", "z"], ["gpf"], name="gp_dq"),
    h.make_node("Flatten", ["gpf"], ["flf"], name="flatten"),
    h.make_node("QuantizeLinear", ["flf", "gps", "z"], ["fl"], name="fl_q"),
]
tail = [
    h.make_node("QGemm", ["fl", "gps", "z", "wg", "wgs", "wgz", "bg", "ygs", "z"], ["g"], name="fc", domain=ms,
                transB=1),
    h.make_node("QLinearSoftmax", ["g", "ygs", "z", "sms", "z"], ["sm"], name="softmax", domain=ms, axis=-1,
                opset=13),
    h.make_node("DequantizeLinear", ["sm", "sms", "z"], ["y"], name="y_dq"),
]
onnx.save(model(head + tail, "qoperator_ms2", [1, 10]), os.path.join(out, "model.onnx"))
# QGemm without y_scale: its float result is the model's output
onnx.save(model(head + [h.make_node("QGemm", ["fl", "gps", "z", "wg", "wgs", "wgz", "bg"], ["y"], name="fc",
                                    domain=ms, transB=1)], "qgemm_float", [1, 10]),
          os.path.join(out, "qgemm_float.onnx"))
np.save(os.path.join(out, "x.npy"), rng.standard_normal((1, 3, 8, 8)).astype(f))
np.save(os.path.join(out, "calib.npy"), rng.standard_normal((4, 3, 8, 8)).astype(f))

#!/usr/bin/python3
"""Synthetic ONNX models for the graph passes' numerical tests (python3-onnx).

  graph_models.py models DIR     writes DIR/<name>.onnx and a random input
                                 DIR/<name>_in.npy for each model below
  graph_models.py compare A B    compares two .npy files (the interpreter's
                                 outputs before and after the passes): same
                                 shape, |a - b| <= atol + rtol * |a|; prints the
                                 largest difference, exits 1 if out of tolerance

The models exercise every graph pass: conv / gemm / matmul followed by
batch_norm (folded), bias adds and activations (fused), a depthwise conv,
values with two uses (left alone), transposes and reshapes that cancel or
compose, and weights computed from constants (folded). Weights are seeded
random numbers, batch_norm variances positive.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def init(name, a):
    return numpy_helper.from_array(np.asarray(a, dtype=np.float32), name)


def model(name, nodes, inits, inputs, outputs):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="nc-tests")
    onnx.checker.check_model(m, full_check=True)
    return m


def vi(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def bn_params(rng, prefix, c):
    return [init(prefix + ".scale", rng.uniform(0.5, 1.5, c)), init(prefix + ".b", rng.normal(0, 0.5, c)),
            init(prefix + ".mean", rng.normal(0, 0.5, c)), init(prefix + ".var", rng.uniform(0.2, 2.0, c))]


def bn_node(prefix, x, y, eps=1e-5):
    return helper.make_node("BatchNormalization", [x, prefix + ".scale", prefix + ".b", prefix + ".mean",
                                                   prefix + ".var"], [y], epsilon=eps, name=prefix)


def convbn(rng):
    inits = [init("w1", rng.normal(0, 0.3, (8, 3, 3, 3))), init("w2", rng.normal(0, 0.2, (8, 8, 3, 3))),
             init("b2", rng.normal(0, 0.1, 8)), init("w3", rng.normal(0, 0.3, (8, 1, 3, 3))),
             init("d3", rng.normal(0, 0.2, (8, 1, 1))), init("w4", rng.normal(0, 0.3, (5, 8))),
             init("c4", rng.normal(0, 0.1, 5)), init("zero", 0.0), init("six", 6.0)]
    inits += bn_params(rng, "bn1", 8) + bn_params(rng, "bn2", 8) + bn_params(rng, "bn4", 5)
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        bn_node("bn1", "c1", "n1"),
        helper.make_node("Relu", ["n1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], strides=[2, 2], name="conv2"),
        bn_node("bn2", "c2", "n2", 1e-3),
        helper.make_node("Clip", ["n2", "zero", "six"], ["r2"], name="clip2"),
        helper.make_node("Conv", ["r2", "w3"], ["c3"], pads=[1, 1, 1, 1], group=8, name="conv3"),
        helper.make_node("Add", ["c3", "d3"], ["a3"], name="add3"),
        helper.make_node("LeakyRelu", ["a3"], ["r3"], alpha=0.1, name="lrelu3"),
        helper.make_node("GlobalAveragePool", ["r3"], ["p"], name="gap"),
        helper.make_node("Flatten", ["p"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "w4", "c4"], ["g4"], transB=1, name="fc"),
        bn_node("bn4", "g4", "n4"),
        helper.make_node("Sigmoid", ["n4"], ["y"], name="sigmoid"),
    ]
    return model("convbn", nodes, inits, [vi("x", [2, 3, 10, 10])], [vi("y", [2, 5])]), (2, 3, 10, 10)


def linear(rng):
    inits = [init("w1", rng.normal(0, 0.3, (16, 12))), init("b1", rng.normal(0, 0.1, 12)),
             init("w2", rng.normal(0, 0.3, (12, 6))), init("w3", rng.normal(0, 0.3, (6, 6))),
             init("c3", rng.normal(0, 0.1, 6)), init("d3", rng.normal(0, 0.1, (1, 6)))]
    inits += bn_params(rng, "bn2", 6)
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["m1"], name="mm1"),
        helper.make_node("Add", ["m1", "b1"], ["a1"], name="add1"),
        helper.make_node("Tanh", ["a1"], ["t1"], name="tanh1"),
        helper.make_node("MatMul", ["t1", "w2"], ["m2"], name="mm2"),
        bn_node("bn2", "m2", "n2"),
        helper.make_node("Relu", ["n2"], ["r2"], name="relu2"),
        helper.make_node("Gemm", ["r2", "w3", "c3"], ["g3"], alpha=0.5, beta=2.0, name="fc3"),
        helper.make_node("Add", ["g3", "d3"], ["y2"], name="add3"),
        # y2 has two uses: the relu stays a separate op
        helper.make_node("Relu", ["y2"], ["y1"], name="relu3"),
    ]
    return model("linear", nodes, inits, [vi("x", [4, 16])], [vi("y1", [4, 6]), vi("y2", [4, 6])]), (4, 16)


def shapes(rng):
    inits = [init("w", rng.normal(0, 0.5, (5, 4))), init("half", 0.5), init("ba", rng.normal(0, 0.1, 5)),
             init("bb", rng.normal(0, 0.1, 5)),
             numpy_helper.from_array(np.array([1], dtype=np.int64), "ax1"),
             numpy_helper.from_array(np.array([6, 4], dtype=np.int64), "shape64")]
    nodes = [
        helper.make_node("Transpose", ["x"], ["t1"], perm=[0, 2, 1], name="t1"),
        helper.make_node("Transpose", ["t1"], ["t2"], perm=[0, 2, 1], name="t2"),
        helper.make_node("Unsqueeze", ["t2", "ax1"], ["u"], name="unsq"),
        helper.make_node("Squeeze", ["u", "ax1"], ["s"], name="sq"),
        helper.make_node("Reshape", ["s", "shape64"], ["r"], name="reshape"),
        helper.make_node("Flatten", ["r"], ["f"], axis=1, name="flatten"),
        # weights computed at run time from constants: folded
        helper.make_node("Transpose", ["w"], ["wt"], perm=[1, 0], name="wt"),
        helper.make_node("Mul", ["wt", "half"], ["ws"], name="wscale"),
        helper.make_node("Add", ["ba", "bb"], ["bias"], name="bias"),
        helper.make_node("MatMul", ["f", "ws"], ["m"], name="mm"),
        helper.make_node("Add", ["m", "bias"], ["a"], name="addb"),
        helper.make_node("Unsqueeze", ["a", "ax1"], ["u2"], name="unsq2"),
        helper.make_node("Transpose", ["u2"], ["y"], perm=[1, 0, 2], name="t3"),
    ]
    return model("shapes", nodes, inits, [vi("x", [2, 3, 4])], [vi("y", [1, 6, 5])]), (2, 3, 4)


def write_models(d):
    os.makedirs(d, exist_ok=True)
    for i, gen in enumerate([convbn, linear, shapes]):
        rng = np.random.default_rng(1234 + i)
        m, in_shape = gen(rng)
        onnx.save(m, os.path.join(d, m.graph.name + ".onnx"))
        np.save(os.path.join(d, m.graph.name + "_in.npy"), rng.normal(0, 1, in_shape).astype(np.float32))


def compare(a_path, b_path, rtol=1e-4, atol=1e-5):
    a, b = np.load(a_path), np.load(b_path)
    if a.shape != b.shape or a.dtype != b.dtype:
        print("MISMATCH: %s %s vs %s %s" % (a.shape, a.dtype, b.shape, b.dtype))
        return 1
    diff = np.abs(a.astype(np.float64) - b.astype(np.float64))
    ok = bool(np.all(diff <= atol + rtol * np.abs(a.astype(np.float64))))
    print("%s: shape %s, max abs diff %.3g" % ("ok" if ok else "OUT OF TOLERANCE", a.shape, diff.max()))
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "models":
        write_models(sys.argv[2])
    elif len(sys.argv) in (4, 6) and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3], *map(float, sys.argv[4:])))
    else:
        sys.exit(__doc__)

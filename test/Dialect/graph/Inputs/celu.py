#!/usr/bin/python3
"""Models and data for test/Dialect/graph/celu.test (docs/tutorials/first-op.md).

Usage: celu.py OUT_DIR                 writes celu.onnx (alpha 0.5, opset 12),
                                       celu_default.onnx (no alpha, opset 17),
                                       celu_opset11.onnx (too old) and x.npy
       celu.py OUT_DIR --compare Y.npy [ALPHA]
                                       compares nc's output with ONNX's formula
                                       max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
Run with Debian's /usr/bin/python3 (python3-onnx, numpy).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

SHAPE = [2, 3, 4, 4]


def model(opset, **attrs):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, SHAPE)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, SHAPE)
    node = helper.make_node("Celu", ["x"], ["y"], name="celu", **attrs)
    graph = helper.make_graph([node], "celu", [x], [y])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="nc-test")
    m.ir_version = 7
    onnx.checker.check_model(m)
    return m


def inputs():
    """Values from -6 to 6 (both signs, and near 0) without a random generator."""
    n = int(np.prod(SHAPE))
    return np.linspace(-6, 6, n, dtype=np.float32).reshape(SHAPE)


def main(argv):
    out = argv[0]
    if len(argv) > 1 and argv[1] == "--compare":
        alpha = np.float32(argv[3]) if len(argv) > 3 else np.float32(1.0)
        x, y = inputs(), np.load(argv[2])
        want = np.maximum(0, x) + np.minimum(0, alpha * (np.exp(x / alpha) - 1))
        err = float(np.abs(y - want).max())
        print("celu: shape %s, max |nc - onnx| = %s" % (list(y.shape), "ok" if err < 1e-6 else err))
        return 0 if y.shape == want.shape and err < 1e-6 else 1
    os.makedirs(out, exist_ok=True)
    onnx.save(model(12, alpha=0.5), os.path.join(out, "celu.onnx"))
    onnx.save(model(17), os.path.join(out, "celu_default.onnx"))
    m = model(12)
    m.opset_import[0].version = 11  # Celu is opset 12: the checker would refuse it, nc must too
    onnx.save(m, os.path.join(out, "celu_opset11.onnx"))
    np.save(os.path.join(out, "x.npy"), inputs())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

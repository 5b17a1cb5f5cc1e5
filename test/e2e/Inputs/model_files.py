"""model_files.py: the files every small e2e model generator writes.

Each torch generator (acts_model.py, residual_model.py, pools_model.py, ...)
defines a torch module; write() writes it the same way for all of them, so
the tests read one layout: OUT/model.onnx (torch.onnx, opset 13, random
weights under seed 0), OUT/calib.npy (4 calibration images), OUT/x.npy (1
test image) and, when asked, OUT/expected.npy (torch's float output for x).
The generators that build a quantized graph node by node with the onnx
helper (onnxruntime, which writes such graphs, is not a Debian package:
ort_qdq_model.py, qoperator_model.py, ...) write OUT/model.onnx with
save_graph() and the FileCheck lines for the weight blobs nc must keep with
blob_check(). torch and onnx are imported where used: a generator that needs
one does not wait for the other.
"""
import os

import numpy as np


def write(out, make_model, shape, expected=False, **export_args):
    """Exports make_model() (built after torch.manual_seed(0)) for inputs of
    shape [1, *shape] into out, with calibration and test images drawn from
    numpy's RandomState(0); export_args go to torch.onnx.export."""
    import torch
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = make_model().eval()
    torch.onnx.export(model, torch.randn(1, *shape), os.path.join(out, "model.onnx"), opset_version=13,
                      **export_args)
    rng = np.random.RandomState(0)
    np.save(os.path.join(out, "calib.npy"), rng.randn(4, *shape).astype(np.float32))
    x = rng.randn(1, *shape).astype(np.float32)
    np.save(os.path.join(out, "x.npy"), x)
    if expected:
        with torch.no_grad():
            np.save(os.path.join(out, "expected.npy"), model(torch.from_numpy(x)).numpy())


def save_graph(out, name, nodes, inits, x_shape, y_shape, opsets=(("", 13),), full_check=True):
    """Writes OUT/model.onnx: the graph name of nodes and initializers inits
    from one float input x of x_shape to one float output y of y_shape,
    importing the (domain, version) pairs opsets; checked by onnx's checker
    first (full_check: with shape inference, which custom domains lack)."""
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h
    g = h.make_graph(nodes, name, [h.make_tensor_value_info("x", T.FLOAT, x_shape)],
                     [h.make_tensor_value_info("y", T.FLOAT, y_shape)], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid(d, v) for d, v in opsets])
    onnx.checker.check_model(m, full_check=full_check)
    os.makedirs(out, exist_ok=True)
    onnx.save(m, os.path.join(out, "model.onnx"))


def blob_check(array, label=""):
    """A FileCheck line matching array as nc prints it in a dense_resource
    blob: a little-endian u32 alignment header (the element size), then the
    little-endian bytes in hex; label (an op or resource name) before it."""
    a = np.ascontiguousarray(array, array.dtype.newbyteorder("<"))
    header = a.dtype.itemsize.to_bytes(4, "little")
    return 'CHECK: %s"0x%s%s"\n' % (label + ": " if label else "", header.hex().upper(), a.tobytes().hex().upper())


def conv_int(x, w, pad):
    """The exact int64 NCHW convolution of one image x [C, H, W] by w [M, C, kh, kw], stride 1, zero padding:
    the oracle the integer model generators compute their expected outputs with."""
    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad))).astype(np.int64)
    m, c, kh, kw = w.shape
    oh, ow = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    y = np.zeros((m, oh, ow), np.int64)
    for i in range(oh):
        for j in range(ow):
            y[:, i, j] = np.tensordot(w.astype(np.int64), x[:, i:i + kh, j:j + kw], 3)
    return y

#!/usr/bin/python3
"""Check the exported digits model and list its graph.

Runs onnx.checker (full check, with shape inference), then prints every node
with its op type, attributes and inferred output shapes.  Since onnx 1.12 has
no reference runtime (onnx.reference arrived in 1.13) and there is no
onnxruntime here, the graph is also evaluated by the small NumPy interpreter
below (Conv, Relu, MaxPool, Flatten, Gemm only) and compared with torch's
reference_logits.npy, so the reference outputs are tied to the ONNX file
itself rather than to the torch module that produced it.  When onnx.reference
exists, it is used as well.

Usage: check_onnx.py [--dir DIR] [--atol A]   (default DIR: this directory)
Exit status is non-zero if any check fails.
"""

import argparse
import importlib.util
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper, shape_inference


def shape_str(value_info):
    dims = value_info.type.tensor_type.shape.dim
    return "x".join(str(d.dim_value) if d.HasField("dim_value")
                    else (d.dim_param or "?") for d in dims)


def attr_str(node):
    parts = []
    for a in node.attribute:
        v = onnx.helper.get_attribute_value(a)
        if isinstance(v, bytes):
            v = v.decode()
        parts.append(f"{a.name}={v}")
    return ", ".join(parts)


def print_graph(model):
    inferred = shape_inference.infer_shapes(model, check_type=True,
                                            strict_mode=True)
    g = inferred.graph
    shapes = {vi.name: shape_str(vi)
              for vi in list(g.input) + list(g.value_info) + list(g.output)}
    for init in g.initializer:
        shapes[init.name] = "x".join(map(str, init.dims))
    print(f"producer {model.producer_name} {model.producer_version}, "
          f"ir_version {model.ir_version}, opsets "
          + ", ".join(f"{o.domain or 'ai.onnx'}:{o.version}"
                      for o in model.opset_import))
    for vi in g.input:
        print(f"input  {vi.name}: {shape_str(vi)}")
    for vi in g.output:
        print(f"output {vi.name}: {shape_str(vi)}")
    n_params = sum(int(np.prod(i.dims)) for i in g.initializer)
    print(f"{len(g.initializer)} initializers, {n_params} parameters")
    for n in g.node:
        ins = ", ".join(f"{i}[{shapes.get(i, '?')}]" for i in n.input)
        outs = ", ".join(f"{o}[{shapes.get(o, '?')}]" for o in n.output)
        print(f"  {n.op_type:8s} {n.name}: ({ins}) -> {outs}"
              + (f"  {{{attr_str(n)}}}" if n.attribute else ""))
    print("op types: " + ", ".join(dict.fromkeys(n.op_type for n in g.node)))


# --- A tiny NumPy interpreter for the ops this example uses. ---------------

def _attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _pad_hw(x, pads, value):
    t, l, b, r = pads[0], pads[1], pads[2], pads[3]
    return np.pad(x, ((0, 0), (0, 0), (t, b), (l, r)), constant_values=value)


def _windows(x, kh, kw, sh, sw, dh=1, dw=1):
    n, c, h, w = x.shape
    oh = (h - dh * (kh - 1) - 1) // sh + 1
    ow = (w - dw * (kw - 1) - 1) // sw + 1
    out = np.empty((n, c, kh, kw, oh, ow), dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i, j] = x[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                                j * dw:j * dw + sw * (ow - 1) + 1:sw]
    return out


def _conv(node, x, w, b=None):
    a = _attrs(node)
    if a.get("group", 1) != 1 or a.get("auto_pad", b"NOTSET") != b"NOTSET":
        raise NotImplementedError("Conv with groups/auto_pad")
    kh, kw = w.shape[2:]
    sh, sw = a.get("strides", [1, 1])
    dh, dw = a.get("dilations", [1, 1])
    x = _pad_hw(x, a.get("pads", [0, 0, 0, 0]), 0.0)
    win = _windows(x, kh, kw, sh, sw, dh, dw)      # n c kh kw oh ow
    y = np.einsum("nckloq,mckl->nmoq", win.astype(np.float64),
                  w.astype(np.float64))
    if b is not None:
        y += b.astype(np.float64)[None, :, None, None]
    return y.astype(np.float32)


def _maxpool(node, x):
    a = _attrs(node)
    if a.get("ceil_mode", 0) or a.get("auto_pad", b"NOTSET") != b"NOTSET":
        raise NotImplementedError("MaxPool with ceil_mode/auto_pad")
    kh, kw = a["kernel_shape"]
    sh, sw = a.get("strides", [1, 1])
    dh, dw = a.get("dilations", [1, 1])
    x = _pad_hw(x, a.get("pads", [0, 0, 0, 0]), -np.inf)
    return _windows(x, kh, kw, sh, sw, dh, dw).max(axis=(2, 3))


def _gemm(node, a_, b_, c=None):
    a = _attrs(node)
    if a.get("transA", 0):
        a_ = a_.T
    if a.get("transB", 0):
        b_ = b_.T
    y = a.get("alpha", 1.0) * (a_.astype(np.float64) @ b_.astype(np.float64))
    if c is not None:
        y += a.get("beta", 1.0) * c.astype(np.float64)
    return y.astype(np.float32)


def _flatten(node, x):
    axis = _attrs(node).get("axis", 1)
    axis = axis if axis >= 0 else axis + x.ndim
    return x.reshape(int(np.prod(x.shape[:axis])), -1)


KERNELS = {
    "Conv": _conv,
    "Relu": lambda node, x: np.maximum(x, np.float32(0)),
    "MaxPool": _maxpool,
    "Flatten": _flatten,
    "Gemm": _gemm,
}


def run_numpy(model, x):
    """Evaluate the graph on a batch by running it once per sample."""
    g = model.graph
    params = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    for n in g.node:
        if n.op_type not in KERNELS:
            raise NotImplementedError(f"op {n.op_type} ({n.name})")
    outs = []
    for sample in x:
        env = dict(params)
        env[g.input[0].name] = sample[None]
        for n in g.node:
            args = [env[i] for i in n.input if i]
            env[n.output[0]] = KERNELS[n.op_type](n, *args)
        outs.append(env[g.output[0].name][0])
    return np.stack(outs)


def run_reference(model, x):
    from onnx.reference import ReferenceEvaluator  # onnx >= 1.13
    sess = ReferenceEvaluator(model)
    name = model.graph.input[0].name
    return np.stack([sess.run(None, {name: s[None]})[0][0] for s in x])


def compare(label, got, ref, labels, atol):
    err = float(np.abs(got - ref).max())
    same = int((got.argmax(1) == ref.argmax(1)).sum())
    acc = float((got.argmax(1) == labels).mean())
    ok = err <= atol and same == len(ref)
    print(f"{label}: max |logit - reference| = {err:.3g} (atol {atol:g}), "
          f"argmax agrees on {same}/{len(ref)}, accuracy {acc:.4f}"
          f" -> {'ok' if ok else 'FAIL'}")
    return ok


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=here,
                    help="directory with digits_cnn.onnx and the .npy files")
    ap.add_argument("--atol", type=float, default=1e-4,
                    help="tolerance on logits vs reference_logits.npy")
    args = ap.parse_args()

    path = os.path.join(args.dir, "digits_cnn.onnx")
    try:
        model = onnx.load(path)
        onnx.checker.check_model(model, full_check=True)
    except Exception as e:  # noqa: BLE001 - report any load/check failure
        print(f"{path}: error: {e}", file=sys.stderr)
        return 1
    print(f"{path}: onnx.checker ok")
    print_graph(model)

    test_x = np.load(os.path.join(args.dir, "test_x.npy"))
    test_y = np.load(os.path.join(args.dir, "test_y.npy"))
    ref = np.load(os.path.join(args.dir, "reference_logits.npy"))
    ok = compare("numpy interpreter", run_numpy(model, test_x), ref,
                 test_y, args.atol)
    if importlib.util.find_spec("onnx.reference") is None:
        print(f"onnx.reference: not available in onnx {onnx.__version__}, "
              "skipped")
    else:
        ok &= compare("onnx.reference", run_reference(model, test_x), ref,
                      test_y, args.atol)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

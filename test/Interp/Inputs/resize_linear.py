#!/usr/bin/python3
"""resize_linear.py OUT [--check]: ONNX Resize models in mode linear for
test/Interp/resize-linear.test, one per coordinate_transformation_mode
(half_pixel, pytorch_half_pixel, asymmetric, align_corners) and shape
(upsampling by 2, by a non-integer factor, downsampling, a size-1 output,
over the channels, the channels with H and W, the batch, all four dims),
each with its input and the output of onnx's own reference implementation
(onnx/backend/test/case/node/resize.py, linear coefficients):
OUT/<name>.onnx, OUT/<name>_x.npy, OUT/<name>_ref.npy. Also OUT/int.mlir, an
int8 graph.resize per case, and OUT/<name>_q.npy, its int8 input, with
OUT/<name>_qref.npy: the documented fixed-point rule computed here in
Python integers (the oracle for the integer kernel). With --check, runs
nc-run on every case and compares: the float result must equal the
reference's, the int8 result the rule's, and the rule must stay within
0.5 + 2 * 255 / 2048 of the exact interpolation of the int8 values (the
final rounding, and per interpolated dim a weight off by at most 1/2048
between neighbours at most 255 apart)."""
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.backend.test.case.node.resize import interpolate_nd, linear_coeffs

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
SHAPES = {"up2": ((1, 2, 3, 4), (1, 2, 6, 8)), "up_odd": ((1, 1, 4, 3), (1, 1, 7, 5)),
          "down": ((1, 2, 6, 7), (1, 2, 3, 4)), "one": ((1, 1, 3, 5), (1, 1, 1, 2)),
          # the channels and the batch too (northpole runs the channel ones: resize-channels.test)
          "chan": ((1, 3, 4, 5), (1, 6, 4, 5)), "chan_hw": ((1, 4, 3, 3), (1, 2, 5, 6)),
          "batch": ((2, 2, 3, 3), (3, 2, 3, 3)), "all4": ((2, 3, 3, 4), (3, 5, 2, 6))}
MODES = ["half_pixel", "pytorch_half_pixel", "asymmetric", "align_corners"]
F = 10


def coord(mode, n_in, n_out, o):
    """The exact source coordinate (nc_kernel_resize_linear_coord)."""
    if mode == "align_corners":
        return Fraction(0) if n_out == 1 else Fraction(o * (n_in - 1), n_out - 1)
    if mode == "asymmetric":
        return Fraction(o * n_in, n_out)
    if mode == "pytorch_half_pixel" and n_out == 1:
        return Fraction(-1, 2)
    return Fraction((2 * o + 1) * n_in - n_out, 2 * n_out)


def rhe(q):
    """round half to even of a Fraction"""
    f = q.numerator // q.denominator
    r = q - f
    return f + (1 if r > Fraction(1, 2) or (r == Fraction(1, 2) and f % 2) else 0)


def taps(mode, n_in, n_out):
    out = []
    for o in range(n_out):
        c = coord(mode, n_in, n_out, o)
        f = c.numerator // c.denominator
        w1 = rhe((c - f) * 2 ** F)
        out.append((min(max(f, 0), n_in - 1), min(max(f + 1, 0), n_in - 1), w1))
    return out


def fixed_point(x, out_shape, mode):
    t = [taps(mode, a, b) for a, b in zip(x.shape, out_shape)]
    dims = [d for d in range(4) if any(w for _, _, w in t[d])]
    y = np.zeros(out_shape, np.int64)
    for idx in np.ndindex(*out_shape):
        acc = 0
        for corner in range(1 << len(dims)):
            at, w = [t[d][idx[d]][0] for d in range(4)], 1
            for j, d in enumerate(dims):
                i0, i1, w1 = t[d][idx[d]]
                hi = corner >> j & 1
                at[d] = i1 if hi else i0
                w *= w1 if hi else 2 ** F - w1
            acc += w * int(x[tuple(at)])
        y[idx] = rhe(Fraction(acc, 2 ** (F * len(dims))))
    return y


rng = np.random.RandomState(0)
mlir = []
for sname, (ishape, oshape) in SHAPES.items():
    for mode in MODES:
        name = "%s_%s" % (mode, sname)
        x = rng.randn(*ishape).astype(np.float32)
        node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode="linear",
                                coordinate_transformation_mode=mode)
        g = helper.make_graph([node], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, ishape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, oshape)],
                              [helper.make_tensor("sizes", TensorProto.INT64, [4], list(oshape))])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
        onnx.checker.check_model(m)
        onnx.save(m, os.path.join(OUT, name + ".onnx"))
        np.save(os.path.join(OUT, name + "_x.npy"), x)
        ref = interpolate_nd(x, linear_coeffs, output_size=list(oshape),
                             coordinate_transformation_mode=mode).astype(np.float32)
        np.save(os.path.join(OUT, name + "_ref.npy"), ref)
        q = rng.randint(-128, 128, size=ishape).astype(np.int8)
        np.save(os.path.join(OUT, name + "_q.npy"), q)
        np.save(os.path.join(OUT, name + "_qref.npy"), fixed_point(q, oshape, mode).astype(np.int8))
        ti = "tensor<%sxi8>" % "x".join(map(str, ishape))
        to = "tensor<%sxi8>" % "x".join(map(str, oshape))
        mlir.append('func.func @%s(%%x: %s) -> %s {\n  %%y = graph.resize %%x {mode = "linear", '
                    'coordinate_transformation_mode = "%s", sizes = array<i64: %s>} : (%s) -> %s\n'
                    '  return %%y : %s\n}\n' % (name, ti, to, mode, ", ".join(map(str, oshape)), ti, to, to))
        exact = interpolate_nd(q.astype(np.float64), linear_coeffs, output_size=list(oshape),
                               coordinate_transformation_mode=mode)
        np.save(os.path.join(OUT, name + "_qexact.npy"), exact)
open(os.path.join(OUT, "int.mlir"), "w").write("\n".join(mlir))

if "--check" in sys.argv:
    for s in SHAPES:
        for mode in MODES:
            p = os.path.join(OUT, "%s_%s" % (mode, s))
            subprocess.run(["nc-run", p + ".onnx", "--input", p + "_x.npy", "--output", p + "_y.npy"], check=True)
            subprocess.run(["nc-run", os.path.join(OUT, "int.mlir"), "--function", "%s_%s" % (mode, s),
                            "--input", p + "_q.npy", "--output", p + "_qy.npy"], check=True)
            y, ref = np.load(p + "_y.npy"), np.load(p + "_ref.npy")
            qy, qref = np.load(p + "_qy.npy"), np.load(p + "_qref.npy")
            err = np.abs(qref.astype(np.float64) - np.load(p + "_qexact.npy")).max()
            assert y.dtype == ref.dtype and np.array_equal(y, ref), (p, y, ref)
            assert qy.dtype == np.int8 and np.array_equal(qy, qref), (p, qy, qref)
            assert err <= 0.5 + 2 * 255 / 2048, (p, err)
            print("%s_%s: float as onnx's reference, int8 as the rule" % (mode, s))

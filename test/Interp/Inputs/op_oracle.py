#!/usr/bin/python3
"""Every graph op through nc-run, against references computed independently.

Each case is a one-op graph-dialect function written to WORK/<case>.mlir,
its inputs as .npy files; nc-run's outputs are compared with a reference
computed here: numpy for elementwise, data-movement and reduction ops,
torch (an independent implementation) for convolutions, pooling and LRN,
and the formulas of ONNX's reference implementation, in numpy, for the
quantized ops. Floats must agree within rtol 1e-4 / atol 1e-5 (1e-3 for
f16); integer results must be exact. Prints one line per failure and a
summary `N cases, N failed, N skipped` (skipped: cases of ops designed in
docs/design/spine.md that the dialect does not have yet); exits 1 on any
failure.
Usage: op_oracle.py NC_RUN WORK_DIR. Needs /usr/bin/python3 (numpy, torch).
"""
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

rng = np.random.default_rng(20240611)
CASES = []

IR_TYPES = {np.float32: "f32", np.float64: "f64", np.float16: "f16", np.int8: "i8", np.uint8: "ui8",
            np.int16: "i16", np.uint16: "ui16", np.int32: "i32", np.uint32: "ui32", np.int64: "i64",
            np.uint64: "ui64", np.bool_: "i1"}


def ir_type(a):
    a = np.asarray(a)
    return "tensor<%s%s>" % ("".join("%dx" % d for d in a.shape), IR_TYPES[a.dtype.type])


def case(name, op, ins, ref, attrs="", tol=None, pending=False):
    """A case: `op` applied to inputs `ins` (numpy arrays) with attribute
    text `attrs`; `ref` gives the expected output(s) (array or tuple).
    `pending` cases use an op designed but not yet in the dialect: they are
    skipped while nc does not know the op."""
    outs = ref(*ins)
    outs = outs if isinstance(outs, tuple) else (outs,)
    CASES.append((name, op, [np.asarray(a) for a in ins], [np.asarray(o) for o in outs], attrs, tol, pending))


def f32(*shape, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, size=shape).astype(np.float32)


def ints(dtype, *shape, lo=None, hi=None):
    info = np.iinfo(dtype)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


def t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def wrap(v, dtype):
    return v.astype(np.int64).astype(dtype)  # two's complement wrap


# --- data movement -------------------------------------------------------------------------------------------------
x = f32(2, 3, 4)
case("identity", "graph.identity", [x], lambda a: a)
case("cast_f32_i32", "graph.cast", [f32(3, 4, lo=-100, hi=100)], lambda a: np.trunc(a).astype(np.int32))
case("cast_i32_f32", "graph.cast", [ints(np.int32, 2, 5)], lambda a: a.astype(np.float32))
case("cast_f32_f16", "graph.cast", [f32(7)], lambda a: a.astype(np.float16))
case("reshape", "graph.reshape", [x], lambda a: a.reshape(2, 12), "{shape = array<i64: 0, -1>}")
case("flatten", "graph.flatten", [x], lambda a: a.reshape(6, 4), "{axis = 2 : i64}")
case("squeeze", "graph.squeeze", [f32(2, 1, 3, 1)], lambda a: a.reshape(2, 3, 1), "{axes = array<i64: 1>}")
case("unsqueeze", "graph.unsqueeze", [x], lambda a: a.reshape(1, 2, 3, 1, 4), "{axes = array<i64: 0, -2>}")
case("transpose", "graph.transpose", [x], lambda a: a.transpose(2, 0, 1), "{perm = array<i64: 2, 0, 1>}")
case("transpose_default", "graph.transpose", [x], lambda a: a.transpose())
case("concat", "graph.concat", [f32(2, 3), f32(2, 1), f32(2, 4)], lambda *a: np.concatenate(a, axis=-1),
     "{axis = -1 : i64}")
case("concat_i8", "graph.concat", [ints(np.int8, 1, 3), ints(np.int8, 2, 3)], lambda *a: np.concatenate(a, 0),
     "{axis = 0 : i64}")
case("split", "graph.split", [f32(3, 7)], lambda a: tuple(np.split(a, [2, 5], axis=1)),
     "{axis = 1 : i64, split = array<i64: 2, 3, 2>}")
case("split_equal", "graph.split", [f32(6, 2)], lambda a: tuple(np.split(a, 3, axis=0)))
case("slice", "graph.slice", [f32(5, 6, 4)], lambda a: a[1:4, ::-2, -3:],
     "{starts = array<i64: 1, -1, -3>, ends = array<i64: 4, -9223372036854775808, 100>, "
     "axes = array<i64: 0, 1, 2>, steps = array<i64: 1, -2, 1>}")
case("pad_constant", "graph.pad", [f32(2, 3)],
     lambda a: np.pad(a, ((1, 0), (2, 1)), constant_values=1.5), "{pads = array<i64: 1, 2, 0, 1>, value = 1.5 : f32}")
case("pad_reflect", "graph.pad", [f32(1, 4, 5)], lambda a: np.pad(a, ((0, 0), (2, 1), (1, 3)), mode="reflect"),
     "{mode = \"reflect\", pads = array<i64: 0, 2, 1, 0, 1, 3>}")
case("pad_edge", "graph.pad", [f32(3, 3)], lambda a: np.pad(a, ((2, 2), (0, 1)), mode="edge"),
     "{mode = \"edge\", pads = array<i64: 2, 0, 2, 1>}")
case("resize_nearest", "graph.resize", [f32(1, 2, 3, 5)],
     lambda a: F.interpolate(t(a), size=(7, 8), mode="nearest").numpy(),
     "{coordinate_transformation_mode = \"asymmetric\", nearest_mode = \"floor\", sizes = array<i64: 1, 2, 7, 8>}")
case("resize_nearest_exact", "graph.resize", [f32(1, 2, 3, 5)],
     lambda a: F.interpolate(t(a), size=(4, 11), mode="nearest-exact").numpy(),
     "{nearest_mode = \"round_prefer_ceil\", sizes = array<i64: 1, 2, 4, 11>}")
case("resize_i8", "graph.resize", [ints(np.int8, 1, 3, 2, 2)], lambda a: a.repeat(2, axis=2).repeat(3, axis=3),
     "{coordinate_transformation_mode = \"asymmetric\", nearest_mode = \"floor\", sizes = array<i64: 1, 3, 4, 6>}")
case("resize_nearest_channels_i8", "graph.resize", [ints(np.int8, 1, 3, 2, 2)],
     lambda a: F.interpolate(t(a.astype(np.float32))[None], size=(7, 2, 4), mode="nearest").numpy()[0].astype(np.int8),
     "{coordinate_transformation_mode = \"asymmetric\", nearest_mode = \"floor\", sizes = array<i64: 1, 7, 2, 4>}")
case("resize_nearest_exact_channels", "graph.resize", [f32(1, 5, 3, 2)],
     lambda a: F.interpolate(t(a)[None], size=(3, 3, 2), mode="nearest-exact").numpy()[0],
     "{nearest_mode = \"round_prefer_ceil\", sizes = array<i64: 1, 3, 3, 2>}")
case("channel_shuffle", "graph.channel_shuffle", [f32(1, 6, 2, 3)],
     lambda a: a.reshape(1, 3, 2, 2, 3).transpose(0, 2, 1, 3, 4).reshape(1, 6, 2, 3), "{group = 3 : i64}")
case("channel_shuffle_i8", "graph.channel_shuffle", [ints(np.int8, 2, 4, 3)],
     lambda a: a.reshape(2, 2, 2, 3).transpose(0, 2, 1, 3).reshape(2, 4, 3), "{group = 2 : i64}")

# --- elementwise ----------------------------------------------------------------------------------------------------
a, b = f32(2, 3, 4), f32(3, 1)
for name, fn in [("add", np.add), ("sub", np.subtract), ("mul", np.multiply)]:
    case(name, "graph." + name, [a, b], fn)
case("div", "graph.div", [a, f32(4, lo=0.5, hi=2)], np.divide)
case("pow", "graph.pow", [f32(2, 5, lo=0.1, hi=3), f32(5, lo=-2, hi=2)], np.power)
case("add_i8_wraps", "graph.add", [ints(np.int8, 4, 4), ints(np.int8, 4)], lambda p, q: wrap(p.astype(np.int64) + q, np.int8))
case("mul_i32_wraps", "graph.mul", [ints(np.int32, 9), ints(np.int32, 9)],
     lambda p, q: wrap(p.astype(np.int64) * q, np.int32))
case("div_i32_truncates", "graph.div", [ints(np.int32, 8, lo=-1000, hi=1000), ints(np.int32, 8, lo=1, hi=30) *
                                        np.array([1, -1] * 4, np.int32)],
     lambda p, q: (np.trunc(p.astype(np.float64) / q)).astype(np.int32))
xs3 = [f32(2, 3), f32(3), f32(1, 1)]
case("max", "graph.max", xs3, lambda *v: np.maximum(np.maximum(v[0], v[1]), v[2]))
case("min", "graph.min", xs3, lambda *v: np.minimum(np.minimum(v[0], v[1]), v[2]))
case("sum", "graph.sum", xs3, lambda *v: v[0] + v[1] + v[2])
case("mean", "graph.mean", xs3, lambda *v: (v[0] + v[1] + v[2]) / np.float32(3))
u = f32(3, 5, lo=-4, hi=4)
pos = f32(3, 5, lo=0.1, hi=4)
for name, inp, fn in [("sqrt", pos, np.sqrt), ("exp", u, np.exp), ("neg", u, np.negative), ("abs", u, np.abs),
                      ("log", pos, np.log), ("reciprocal", pos, np.reciprocal),
                      ("relu", u, lambda v: np.maximum(v, 0)), ("sigmoid", u, lambda v: 1 / (1 + np.exp(-v))),
                      ("tanh", u, np.tanh), ("softplus", u, lambda v: np.log1p(np.exp(v))),
                      ("softsign", u, lambda v: v / (1 + np.abs(v)))]:
    case(name, "graph." + name, [inp], lambda v, fn=fn: fn(v.astype(np.float64)).astype(np.float32))
case("neg_i16", "graph.neg", [ints(np.int16, 6)], lambda v: wrap(-v.astype(np.int64), np.int16))
case("leaky_relu", "graph.leaky_relu", [u], lambda v: np.where(v < 0, np.float32(0.3) * v, v), "{alpha = 0.3 : f32}")
case("elu", "graph.elu", [u], lambda v: np.where(v < 0, 0.7 * np.expm1(v.astype(np.float64)), v).astype(np.float32),
     "{alpha = 0.7 : f32}")
case("selu", "graph.selu", [u], lambda v: (1.0507010 * np.where(v <= 0, 1.6732632 * np.expm1(v.astype(np.float64)),
                                                                    v)).astype(np.float32))
case("prelu", "graph.prelu", [f32(2, 3, 4, 4), f32(3, 1, 1)], lambda v, s: np.where(v < 0, s * v, v))
case("clip", "graph.clip", [u], lambda v: np.clip(v, -1.25, 2.0), "{min = -1.25 : f32, max = 2.0 : f32}")
case("clip_i8", "graph.clip", [ints(np.int8, 12)], lambda v: np.clip(v, -5, 300).astype(np.int8),
     "{min = -5 : i64, max = 300 : i64}")
case("softmax", "graph.softmax", [f32(2, 3, 5)], lambda v: torch.softmax(t(v), 1).numpy(), "{axis = 1 : i64}")
case("log_softmax", "graph.log_softmax", [f32(4, 6)], lambda v: torch.log_softmax(t(v), -1).numpy())

# --- products and convolutions ---------------------------------------------------------------------------------------
case("matmul_batched", "graph.matmul", [f32(2, 1, 3, 4), f32(5, 4, 2)], np.matmul)
case("matmul_1d", "graph.matmul", [f32(4), f32(3, 4, 2)], np.matmul)
case("matmul_i32", "graph.matmul", [ints(np.int32, 3, 4, lo=-50, hi=50), ints(np.int32, 4, 2, lo=-50, hi=50)],
     lambda p, q: (p.astype(np.int64) @ q).astype(np.int32))
case("gemm", "graph.gemm", [f32(4, 3), f32(5, 4), f32(5)],
     lambda p, q, c: (np.float32(0.5) * (p.T @ q.T) + np.float32(2.0) * c),
     "{alpha = 0.5 : f32, beta = 2.0 : f32, trans_a = 1 : i64, trans_b = 1 : i64}")
case("gemm_relu", "graph.gemm", [f32(3, 4), f32(4, 5)], lambda p, q: np.maximum(p @ q, 0), "{activation = \"relu\"}")
case("matmul_tanh", "graph.matmul", [f32(3, 4), f32(4, 5)], lambda p, q: np.tanh(p @ q), "{activation = \"tanh\"}")
case("add_leaky", "graph.add", [f32(3, 4), f32(4)], lambda p, q: np.where(p + q < 0, np.float32(0.1) * (p + q), p + q),
     "{activation = \"leaky_relu\", activation_alpha = 0.1 : f32}")

xc, wc, bc = f32(2, 4, 9, 8), f32(6, 2, 3, 2), f32(6)
case("conv2d", "graph.conv", [xc, wc, bc],
     lambda v, w, bb: F.conv2d(t(v), t(w), t(bb), stride=(2, 1), padding=0, dilation=(1, 2), groups=2).numpy(),
     "{strides = array<i64: 2, 1>, dilations = array<i64: 1, 2>, group = 2 : i64}")
case("conv2d_pads", "graph.conv", [f32(1, 3, 7, 7), f32(4, 3, 3, 3)],
     lambda v, w: F.conv2d(F.pad(t(v), (2, 0, 1, 1)), t(w)).numpy(), "{pads = array<i64: 1, 2, 1, 0>}")
case("conv2d_same_upper", "graph.conv", [f32(1, 2, 7, 5), f32(3, 2, 4, 3)],
     lambda v, w: F.conv2d(F.pad(t(v), (1, 1, 1, 2)), t(w), stride=(2, 2)).numpy(),
     "{auto_pad = \"SAME_UPPER\", strides = array<i64: 2, 2>}")
case("conv2d_depthwise_clip", "graph.conv", [f32(1, 4, 6, 6), f32(4, 1, 3, 3)],
     lambda v, w: torch.clamp(F.conv2d(t(v), t(w), padding=1, groups=4), 0, 1).numpy(),
     "{pads = array<i64: 1, 1, 1, 1>, group = 4 : i64, activation = \"clip\", activation_min = 0.0 : f32, "
     "activation_max = 1.0 : f32}")
case("conv1d", "graph.conv", [f32(2, 3, 11), f32(5, 3, 4), f32(5)],
     lambda v, w, bb: F.conv1d(t(v), t(w), t(bb), stride=3, padding=2).numpy(),
     "{strides = array<i64: 3>, pads = array<i64: 2, 2>}")
case("conv3d", "graph.conv", [f32(1, 2, 5, 4, 6), f32(3, 2, 2, 3, 2)],
     lambda v, w: F.conv3d(t(v), t(w), padding=1).numpy(), "{pads = array<i64: 1, 1, 1, 1, 1, 1>}")
case("conv_transpose2d", "graph.conv_transpose", [f32(1, 4, 5, 4), f32(4, 3, 3, 3), f32(6)],
     lambda v, w, bb: F.conv_transpose2d(t(v), t(w), t(bb), stride=2, padding=1, output_padding=1, groups=2).numpy(),
     "{strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, output_padding = array<i64: 1, 1>, group = 2 : i64}")
case("conv_transpose1d_sigmoid", "graph.conv_transpose", [f32(2, 3, 6), f32(3, 2, 3)],
     lambda v, w: torch.sigmoid(F.conv_transpose1d(t(v), t(w), stride=3, dilation=2)).numpy(),
     "{strides = array<i64: 3>, dilations = array<i64: 2>, activation = \"sigmoid\"}")

# --- pooling, reductions, normalisation --------------------------------------------------------------------------------
xp = f32(2, 3, 9, 8)
case("max_pool", "graph.max_pool", [xp],
     lambda v: F.max_pool2d(t(v), (3, 2), stride=(2, 2), padding=(1, 1), dilation=(1, 2), ceil_mode=True).numpy(),
     "{kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, "
     "dilations = array<i64: 1, 2>, ceil_mode = 1 : i64}")
case("max_pool_u8", "graph.max_pool", [ints(np.uint8, 1, 2, 5, 5)],
     lambda v: F.max_pool2d(t(v.astype(np.float32)), 2, stride=1).numpy().astype(np.uint8),
     "{kernel_shape = array<i64: 2, 2>}")
case("avg_pool", "graph.avg_pool", [xp],
     lambda v: F.avg_pool2d(t(v), 3, stride=2, padding=1, count_include_pad=False).numpy(),
     "{kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}")
case("avg_pool_include_pad", "graph.avg_pool", [xp],
     lambda v: F.avg_pool2d(t(v), 3, stride=2, padding=1, count_include_pad=True).numpy(),
     "{kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, "
     "count_include_pad = 1 : i64}")
case("avg_pool1d", "graph.avg_pool", [f32(2, 3, 10)], lambda v: F.avg_pool1d(t(v), 4, stride=3).numpy(),
     "{kernel_shape = array<i64: 4>, strides = array<i64: 3>}")
case("global_avg_pool", "graph.global_avg_pool", [xp], lambda v: v.mean(axis=(2, 3), keepdims=True))
case("global_max_pool", "graph.global_max_pool", [xp], lambda v: v.max(axis=(2, 3), keepdims=True))
xr = f32(3, 4, 5)
case("reduce_mean", "graph.reduce_mean", [xr], lambda v: v.mean(axis=(0, 2), keepdims=True), "{axes = array<i64: 0, -1>}")
case("reduce_sum", "graph.reduce_sum", [xr], lambda v: v.sum(axis=1), "{axes = array<i64: 1>, keepdims = 0 : i64}")
case("reduce_max_all", "graph.reduce_max", [xr], lambda v: v.max(keepdims=True))
case("reduce_min", "graph.reduce_min", [xr], lambda v: v.min(axis=2, keepdims=True), "{axes = array<i64: 2>}")
case("reduce_sum_i32", "graph.reduce_sum", [ints(np.int32, 3, 4)], lambda v: wrap(v.astype(np.int64).sum(0), np.int32),
     "{axes = array<i64: 0>, keepdims = 0 : i64}")
case("lrn", "graph.lrn", [f32(2, 7, 3, 3)],
     lambda v: F.local_response_norm(t(v), 3, alpha=0.02, beta=0.6, k=1.5).numpy(),
     "{size = 3 : i64, alpha = 0.02 : f32, beta = 0.6 : f32, bias = 1.5 : f32}")
bn = [f32(2, 3, 4, 5), f32(3), f32(3), f32(3), f32(3, lo=0.5, hi=2)]
case("batch_norm", "graph.batch_norm", bn,
     lambda v, s, bb, m, var: F.batch_norm(t(v), t(m), t(var), t(s), t(bb), eps=1e-3).numpy(), "{epsilon = 1.0e-03 : f32}")
case("instance_norm", "graph.instance_norm", [f32(2, 3, 4, 5), f32(3), f32(3)],
     lambda v, s, bb: F.instance_norm(t(v), weight=t(s), bias=t(bb), eps=1e-5).numpy())


# --- quantization: ONNX reference formulas ------------------------------------------------------------------------------
def rint_sat(v, dtype):
    info = np.iinfo(dtype)
    return np.clip(np.rint(v), info.min, info.max).astype(dtype)


def quantize(v, s, z, axis=1):
    shape = [1] * v.ndim
    if np.ndim(s) == 1:
        shape[axis] = -1
    s, z = np.reshape(s, shape), np.reshape(z, shape)
    return rint_sat(np.rint(v / s) + z.astype(np.float64), z.dtype)


xq = f32(2, 3, 4, lo=-3, hi=3)
xq.flat[:4] = [0.25, 0.75, -0.25, 12.0]  # ties at scale 0.5, and saturation
case("quantize_linear_i8", "graph.quantize_linear", [xq, np.float32(0.5), np.int8(3)], quantize)
case("quantize_linear_axis_u8", "graph.quantize_linear",
     [xq, np.array([0.02, 0.05, 0.1], np.float32), np.array([0, 128, 255], np.uint8)], quantize)
case("dequantize_linear_axis", "graph.dequantize_linear",
     [ints(np.uint8, 2, 3, 4), np.array([0.02, 0.05, 0.1], np.float32), np.array([0, 128, 255], np.uint8)],
     lambda v, s, z: ((v.astype(np.int64) - z.reshape(1, 3, 1)) * s.reshape(1, 3, 1).astype(np.float64))
     .astype(np.float32))
case("dequantize_linear_i32", "graph.dequantize_linear", [ints(np.int32, 6), np.float32(0.001)],
     lambda v, s: (v.astype(np.float64) * np.float64(s)).astype(np.float32))


def conv_int(v, w, pads=(0, 0, 0, 0), group=1):
    # exact: small integers in float64
    xt = F.pad(t(v.astype(np.float64)), (pads[1], pads[3], pads[0], pads[2]))
    return np.rint(F.conv2d(xt, t(w.astype(np.float64)), groups=group).numpy()).astype(np.int64)


xi, wi = ints(np.uint8, 1, 4, 6, 6), ints(np.int8, 6, 2, 3, 3)
case("conv_integer", "graph.conv_integer", [xi, wi, np.uint8(131), np.int8(-3)],
     lambda v, w, xz, wz: conv_int(v.astype(np.int64) - xz, w.astype(np.int64) - wz, (1, 1, 1, 1), 2).astype(np.int32),
     "{pads = array<i64: 1, 1, 1, 1>, group = 2 : i64}")


def qlinear_conv(v, vs, vz, w, ws, wz, ys, yz, bias):
    acc = conv_int(v.astype(np.int64) - vz, w.astype(np.int64) - wz.reshape(-1, 1, 1, 1), (0, 1, 2, 1), 2)
    acc = wrap(acc + bias.reshape(1, -1, 1, 1), np.int32)
    s = (np.float32(vs) * ws.astype(np.float32)).astype(np.float32) / np.float32(ys)
    return rint_sat(acc.astype(np.float64) * s.astype(np.float32).astype(np.float64).reshape(1, -1, 1, 1) +
                    np.float64(yz), np.uint8)


case("qlinear_conv", "graph.qlinear_conv",
     [xi, np.float32(0.03), np.uint8(120), wi, np.array([0.01, 0.02, 0.015, 0.05, 0.001, 0.03], np.float32),
      np.zeros(6, np.int8), np.float32(0.2), np.uint8(100), ints(np.int32, 6, lo=-500, hi=500)],
     qlinear_conv, "{pads = array<i64: 0, 1, 2, 1>, group = 2 : i64}")


def qlinear_matmul(p, ps, pz, q, qs, qz, ys, yz):
    acc = (p.astype(np.int64) - pz) @ (q.astype(np.int64) - qz)
    s = np.float32(np.float32(ps) * np.float32(qs)) / np.float32(ys)
    return rint_sat(acc.astype(np.float64) * np.float64(np.float32(s)) + yz, np.int8)


case("qlinear_matmul", "graph.qlinear_matmul",
     [ints(np.int8, 2, 3, 5), np.float32(0.05), np.int8(-2), ints(np.int8, 5, 4), np.float32(0.02), np.int8(4),
      np.float32(0.3), np.int8(-10)], qlinear_matmul)
case("matmul_integer", "graph.matmul_integer",
     [ints(np.uint8, 3, 7), ints(np.uint8, 7, 2), np.uint8(12), np.uint8(200)],
     lambda p, q, pz, qz: ((p.astype(np.int64) - pz) @ (q.astype(np.int64) - qz)).astype(np.int32))


def requantize(acc, bias, mult, shift, axis, zp, relu, dtype):
    """docs/design/spine.md: saturate(round_half_even((acc + bias[c]) * m[c] / 2^s[c]) + zp), relu at zp."""
    shape = [1] * acc.ndim
    shape[axis] = -1
    v = wrap(acc.astype(np.int64) + bias.reshape(shape), np.int32).astype(np.int64)
    prod = v * np.array(mult, np.int64).reshape(shape)
    s = np.array(shift, np.int64).reshape(shape)
    q = prod >> s  # floor
    rem = prod - (q << s)
    half = np.where(s > 0, np.left_shift(1, np.maximum(s - 1, 0)), 0)
    q = q + ((s > 0) & ((rem > half) | ((rem == half) & (q % 2 == 1))))
    r = q + zp
    if relu:
        r = np.maximum(r, zp)
    info = np.iinfo(dtype)
    return np.clip(r, info.min, info.max).astype(dtype)


acc = ints(np.int32, 2, 3, 4, lo=-200000, hi=200000)
acc.flat[0], acc.flat[1] = 2147483600, -2147483600  # the bias add wraps
case("requantize", "graph.requantize", [acc, np.array([100, -50, 7], np.int32)],
     lambda v, bb: requantize(v, bb, [1518500250, 1073741824, 2147483647], [40, 33, 38], 1, 4, True, np.int8),
     "{multiplier = array<i64: 1518500250, 1073741824, 2147483647>, shift = array<i64: 40, 33, 38>, "
     "axis = 1 : i64, output_zero_point = 4 : i64, activation = \"relu\"}")

# --- the driver ----------------------------------------------------------------------------------------------------------
def write_case(work, name, op, ins, outs, attrs):
    args = ", ".join("%%a%d: %s" % (i, ir_type(v)) for i, v in enumerate(ins))
    rtypes = [ir_type(o) for o in outs]
    res = "%0" if len(outs) == 1 else "%%0:%d" % len(outs)
    rets = ", ".join("%0" if len(outs) == 1 else "%%0#%d" % i for i in range(len(outs)))
    with open(os.path.join(work, name + ".mlir"), "w") as f:
        f.write("func.func @main(%s) -> (%s) {\n" % (args, ", ".join(rtypes)))
        f.write('  %s = "%s"(%s) %s : (%s) -> (%s)\n' % (res, op, ", ".join("%%a%d" % i for i in range(len(ins))), attrs,
                                                       ", ".join(ir_type(v) for v in ins), ", ".join(rtypes)))
        f.write("  return %s : %s\n}\n" % (rets, ", ".join(rtypes)))
    paths = []
    for i, v in enumerate(ins):
        paths.append(os.path.join(work, "%s.in%d.npy" % (name, i)))
        np.save(paths[-1], v)
    return paths


def check(name, got, want, tol):
    if got.dtype != want.dtype or got.shape != want.shape:
        return "got %s %s, expected %s %s" % (got.dtype, got.shape, want.dtype, want.shape)
    if want.dtype.kind == "f":
        rtol, atol = tol or ((1e-3, 1e-3) if want.dtype == np.float16 else (1e-4, 1e-5))
        if not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
            d = np.abs(got.astype(np.float64) - want)
            return "max difference %g at %s" % (d.max(), np.unravel_index(np.argmax(d), d.shape))
    elif not np.array_equal(got, want):
        return "%d of %d elements differ, first at %s: got %s, expected %s" % (
            (got != want).sum(), want.size, np.argwhere(got != want)[0], got[got != want][0], want[got != want][0])
    return None


def main():
    nc_run, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    failed = skipped = 0
    for name, op, ins, outs, attrs, tol, pending in CASES:
        paths = write_case(work, name, op, ins, outs, attrs)
        out_paths = [os.path.join(work, "%s.out%d.npy" % (name, i)) for i in range(len(outs))]
        cmd = [nc_run, os.path.join(work, name + ".mlir")]
        for p in paths:
            cmd += ["--input", p]
        for p in out_paths:
            cmd += ["--output", p]
        r = subprocess.run(cmd, capture_output=True, text=True)
        why = None
        if r.returncode and pending and "unregistered operation '%s'" % op in r.stderr:
            skipped += 1
            print("SKIP %s: %s is not in the dialect yet" % (name, op))
            continue
        if r.returncode:
            why = "nc-run failed: " + r.stderr.strip()
        else:
            for i, (p, want) in enumerate(zip(out_paths, outs)):
                why = check(name, np.load(p), want, tol)
                if why:
                    why = "output %d: %s" % (i, why)
                    break
        if why:
            failed += 1
            print("FAIL %s: %s" % (name, why))
    print("%d cases, %d failed, %d skipped" % (len(CASES), failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""An independent model of an int8 graph, to check nc's interpreter bit for bit.

Reads a graph-quantize result as nc-opt prints it (graph ops one per line,
weights in the dialect_resources blobs), evaluates it with numpy on a batch
of inputs following the semantics written down in docs/quantization.md and
docs/design/spine.md (not nc's code): QuantizeLinear rounding half to even,
ConvInteger / MatMulInteger exact in int64 then wrapped to int32,
requantize as v = acc + bias (int32, wrapping), r = round_half_even(v * m /
2^s) + zp, relu at zp, saturation; max_pool, flatten; DequantizeLinear.
Compares the result with nc-run's output (.npy) for exact equality and
prints a summary. Exits 1 on any difference or an op it does not model.

Usage: int8_reference.py GRAPH.mlir INPUTS.npy NC_OUTPUT.npy
Needs /usr/bin/python3 (numpy).
"""
import re
import sys

import numpy as np

DTYPES = {"f32": np.float32, "i8": np.int8, "i32": np.int32, "i64": np.int64}


def parse_type(text):
    """tensor<1x10xi8> -> ([1, 10], np.int8)"""
    m = re.fullmatch(r"tensor<(.*)>", text.strip())
    parts = m.group(1).split("x")
    return [int(d) for d in parts[:-1]], DTYPES[parts[-1]]


def parse_attrs(text):
    attrs = {}
    for m in re.finditer(r'(\w+) = (?:array<i64(?::\s*([-\d, ]*))?>|"([^"]*)"|(-?\d+) : i64)', text or ""):
        name, arr, string, integer = m.groups()
        if arr is not None or (string is None and integer is None):
            attrs[name] = [int(v) for v in arr.split(",")] if arr else []
        elif string is not None:
            attrs[name] = string
        else:
            attrs[name] = int(integer)
    return attrs


def parse(path):
    text = open(path).read()
    blobs = {}
    for m in re.finditer(r'^\s*([^\s:]+): "0x([0-9A-Fa-f]*)"', text, re.M):
        raw = bytes.fromhex(m.group(2))
        blobs[m.group(1)] = raw[4:]  # after the 4-byte alignment header
    ops = []
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"(%\w+) = graph\.(\w+)(.*)$", line)
        if m:
            res, name, rest = m.groups()
            head, types = rest.rsplit(" : ", 1) if name != "constant" else (rest, "")
            operands = re.findall(r"%\w+", head.split("{")[0])
            attr_text = head[head.index("{"):] if "{" in head else ""
            ops.append((res, name, operands, attr_text, types))
        elif line.startswith("return "):
            ops.append((None, "return", re.findall(r"%\w+", line.split(":")[0]), "", ""))
    return ops, blobs


def constant(attr_text, blobs):
    m = re.search(r"value = dense_resource<([^>]+)> : (tensor<[^>]*>)", attr_text)
    if m:
        shape, dt = parse_type(m.group(2))
        return np.frombuffer(blobs[m.group(1)], dtype=dt).reshape(shape)
    m = re.search(r"value = dense<([^>\[]+)> : (tensor<[^>]*>)", attr_text)
    if m:  # a splat
        shape, dt = parse_type(m.group(2))
        return np.full(shape, float(m.group(1)) if dt == np.float32 else int(m.group(1)), dtype=dt)
    raise SystemExit("int8_reference: unsupported constant %s" % attr_text)


def wrap32(v):
    return ((v.astype(np.int64) + 2**31) % 2**32 - 2**31).astype(np.int64)


def conv_integer(x, w, attrs):
    assert attrs.get("group", 1) == 1 and set(attrs.get("dilations", [1, 1])) == {1}, attrs
    assert attrs.get("auto_pad", "NOTSET") == "NOTSET", attrs
    top, left, bottom, right = attrs.get("pads", [0, 0, 0, 0])
    sy, sx = attrs.get("strides", [1, 1])
    m, c, kh, kw = w.shape
    xp = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (top, bottom), (left, right)))
    oh, ow = (xp.shape[2] - kh) // sy + 1, (xp.shape[3] - kw) // sx + 1
    out = np.zeros((x.shape[0], m, oh, ow), np.int64)
    for ky in range(kh):
        for kx in range(kw):
            patch = xp[:, :, ky:ky + sy * (oh - 1) + 1:sy, kx:kx + sx * (ow - 1) + 1:sx]
            out += np.einsum("nchw,mc->nmhw", patch, w[:, :, ky, kx].astype(np.int64))
    return wrap32(out)


def requantize(acc, bias, attrs, dtype):
    axis = attrs.get("axis", 1)
    axis = axis + acc.ndim if axis < 0 else axis
    shape = [1] * acc.ndim
    mult, shift = np.array(attrs["multiplier"], np.int64), np.array(attrs["shift"], np.int64)
    if len(mult) > 1:
        shape[axis] = -1
    v = acc.astype(np.int64)
    if bias is not None:
        bshape = [1] * acc.ndim
        if bias.size > 1:
            bshape[axis] = -1
        v = wrap32(v + bias.astype(np.int64).reshape(bshape))
    prod = v * mult.reshape(shape)
    s = shift.reshape(shape)
    q = prod >> s  # floor division by 2^s
    rem = prod - (q << s)
    half = np.where(s > 0, np.left_shift(np.int64(1), np.maximum(s - 1, 0)), 0)
    q = q + ((s > 0) & ((rem > half) | ((rem == half) & (q % 2 == 1))))
    zp = attrs.get("output_zero_point", 0)
    r = q + zp
    if attrs.get("activation") == "relu":
        r = np.maximum(r, zp)
    info = np.iinfo(dtype)
    return np.clip(r, info.min, info.max).astype(dtype)


def max_pool(x, attrs):
    assert not any(attrs.get("pads", [])) and attrs.get("ceil_mode", 0) == 0, attrs
    kh, kw = attrs["kernel_shape"]
    sy, sx = attrs.get("strides", [1, 1])
    oh, ow = (x.shape[2] - kh) // sy + 1, (x.shape[3] - kw) // sx + 1
    out = None
    for ky in range(kh):
        for kx in range(kw):
            win = x[:, :, ky:ky + sy * (oh - 1) + 1:sy, kx:kx + sx * (ow - 1) + 1:sx]
            out = win if out is None else np.maximum(out, win)
    return out


def evaluate(ops, blobs, x):
    env = {"%arg0": x}
    for res, name, operands, attr_text, types in ops:
        attrs = parse_attrs(attr_text)
        a = [env[o] for o in operands]
        if name == "constant":
            env[res] = constant(attr_text, blobs)
        elif name == "quantize_linear":
            zp = a[2].astype(np.int64) if len(a) > 2 else 0
            q = np.rint(a[0] / a[1].astype(np.float32)).astype(np.int64) + zp  # f32 division, ties to even
            env[res] = np.clip(q, -128, 127).astype(np.int8)
        elif name == "conv_integer":
            assert len(a) == 2, "zero points are not modelled"
            env[res] = conv_integer(a[0], a[1], attrs)
        elif name == "matmul_integer":
            assert len(a) == 2, "zero points are not modelled"
            env[res] = wrap32(a[0].astype(np.int64) @ a[1].astype(np.int64))
        elif name == "requantize":
            env[res] = requantize(a[0], a[1] if len(a) > 1 else None, attrs, parse_type(types.split("->")[1])[1])
        elif name == "max_pool":
            env[res] = max_pool(a[0], attrs)
        elif name == "flatten":
            assert attrs.get("axis", 1) == 1
            env[res] = a[0].reshape(a[0].shape[0], -1)
        elif name == "dequantize_linear":
            zp = a[2].astype(np.int64) if len(a) > 2 else 0
            env[res] = ((a[0].astype(np.int64) - zp).astype(np.float32) * a[1].astype(np.float32)).astype(np.float32)
        elif name == "return":
            return a[0]
        else:
            raise SystemExit("int8_reference: op graph.%s is not modelled" % name)
    raise SystemExit("int8_reference: no return")


def main():
    graph, inputs, nc_out = sys.argv[1:4]
    ops, blobs = parse(graph)
    x = np.load(inputs)
    want = evaluate(ops, blobs, x)
    got = np.load(nc_out)
    if got.dtype != want.dtype or got.shape != want.shape:
        print("FAIL: nc-run gave %s %s, the reference %s %s" % (got.dtype, got.shape, want.dtype, want.shape))
        return 1
    same = np.all(got.reshape(len(x), -1) == want.reshape(len(x), -1), axis=1)
    print("ops: %s" % " ".join(sorted({o[1] for o in ops if o[1] not in ("constant", "return")})))
    print("bit-exact: %d/%d samples, %d values" % (same.sum(), len(x), want.size))
    if not same.all():
        i = int(np.argmin(same))
        print("FAIL: sample %d differs: nc %s, reference %s" % (i, got[i], want[i]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""resize_models.py OUT NC_RUN: ONNX Resize (opsets 11 and 13) and Upsample
(opsets 7 and 9) in mode nearest, built with onnx.helper in each coordinate
transformation and nearest rounding mode, run by nc-run (nc's importer and
interpreter) on float and int8 inputs and compared with a numpy reference
written from the ONNX operator spec. Prints one line per model; then writes
models nc must refuse (OUT/refused_*.onnx) for the test's error checks."""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper


def ref_index(o, in_len, out_len, coord, nearest):
    """The input index output o copies along one dim (ONNX's Resize spec, scale = out / in)."""
    s = out_len / in_len
    if coord == "half_pixel":
        x = (o + 0.5) / s - 0.5
    elif coord == "pytorch_half_pixel":
        x = (o + 0.5) / s - 0.5 if out_len > 1 else 0.0
    elif coord == "asymmetric":
        x = o / s
    elif coord == "align_corners":
        x = 0.0 if out_len == 1 else o * (in_len - 1) / (out_len - 1)
    elif coord == "tf_half_pixel_for_nn":
        x = (o + 0.5) / s
    if nearest == "round_prefer_floor":
        r = np.floor(x) if x == np.floor(x) + 0.5 else np.round(x)
    elif nearest == "round_prefer_ceil":
        r = np.ceil(x) if x == np.floor(x) + 0.5 else np.round(x)
    elif nearest == "floor":
        r = np.floor(x)
    else:
        r = np.ceil(x)
    return int(min(max(r, 0), in_len - 1))


def ref_resize(x, sizes, coord, nearest):
    idx = [np.array([ref_index(o, x.shape[d], sizes[d], coord, nearest) for o in range(sizes[d])])
           for d in range(x.ndim)]
    return x[np.ix_(*idx)]


def save(out, name, graph, opset, domain_opsets=()):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset), *domain_opsets])
    onnx.checker.check_model(model)
    path = os.path.join(out, name + ".onnx")
    onnx.save(model, path)
    return path


def resize_graph(shape, out_shape, dt, coord=None, nearest=None, scales=None, sizes=None, mode="nearest", opset=13):
    inits, attrs = [], {"mode": mode}
    if coord:
        attrs["coordinate_transformation_mode"] = coord
    if nearest:
        attrs["nearest_mode"] = nearest
    inputs = ["x", ""]
    if scales is not None:
        inits.append(helper.make_tensor("scales", TensorProto.FLOAT, [len(scales)], scales))
        inputs.append("scales")
    else:
        inputs.append("")
        inits.append(helper.make_tensor("sizes", TensorProto.INT64, [len(sizes)], sizes))
        inputs.append("sizes")
    if opset < 13:  # opset 11: roi and scales are required inputs (empty tensors when unused)
        inits.append(helper.make_tensor("roi", TensorProto.FLOAT, [0], []))
        inputs[1] = "roi"
        if scales is None:
            inits.append(helper.make_tensor("noscales", TensorProto.FLOAT, [0], []))
            inputs[2] = "noscales"
    node = helper.make_node("Resize", inputs, ["y"], **attrs)
    return helper.make_graph([node], "resize", [helper.make_tensor_value_info("x", dt, shape)],
                             [helper.make_tensor_value_info("y", dt, out_shape)], inits)


def main():
    out, nc_run = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    rng = np.random.RandomState(0)
    cases = [  # name, in shape, scales or sizes, coord, nearest, opset
        ("half_pixel_x2", [1, 2, 3, 4], [1, 1, 2, 2], None, "half_pixel", "round_prefer_floor", 13),
        ("half_pixel_x1_5", [1, 2, 4, 4], [1, 1, 1.5, 1.5], None, None, None, 13),
        ("asymmetric_floor_x3", [1, 2, 3, 2], [1, 1, 3, 3], None, "asymmetric", "floor", 13),
        ("asymmetric_round_ceil_x3", [1, 1, 3, 3], [1, 1, 3, 3], None, "asymmetric", "round_prefer_ceil", 13),
        ("align_corners_sizes", [1, 2, 3, 4], None, [1, 2, 7, 5], "align_corners", "round_prefer_ceil", 13),
        ("pytorch_half_pixel_ceil", [1, 1, 4, 5], None, [1, 1, 8, 3], "pytorch_half_pixel", "ceil", 13),
        ("tf_half_pixel_for_nn", [1, 1, 3, 3], [1, 1, 2, 2], None, "tf_half_pixel_for_nn", None, 13),
        ("opset11_sizes", [1, 2, 2, 3], None, [1, 2, 4, 6], "asymmetric", "floor", 11),
    ]
    for name, shape, scales, sizes, coord, nearest, opset in cases:
        out_shape = sizes or [int(round(d * s)) for d, s in zip(shape, scales)]
        for dt, npdt in ((TensorProto.FLOAT, np.float32), (TensorProto.INT8, np.int8)):
            tag = name + ("_i8" if npdt == np.int8 else "")
            path = save(out, tag, resize_graph(shape, out_shape, dt, coord, nearest, scales, sizes, opset=opset), opset)
            x = (rng.randn(*shape) * 50).astype(npdt)
            np.save(os.path.join(out, tag + "_x.npy"), x)
            subprocess.run([nc_run, path, "--input", os.path.join(out, tag + "_x.npy"), "--output",
                            os.path.join(out, tag + "_y.npy")], check=True)
            y = np.load(os.path.join(out, tag + "_y.npy"))
            want = ref_resize(x, out_shape, coord or "half_pixel", nearest or "round_prefer_floor")
            print(tag, "matches the reference" if y.dtype == want.dtype and np.array_equal(y, want) else "DIFFERS")

    # Upsample: opset 7 (scales attribute) and 9 (scales input): out[o] = in[floor(o / scale)]
    for opset in (7, 9):
        x_info = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 3])
        y_info = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 6, 9])
        if opset == 7:
            node, inits = helper.make_node("Upsample", ["x"], ["y"], scales=[1.0, 1.0, 2.0, 3.0]), []
        else:
            node = helper.make_node("Upsample", ["x", "s"], ["y"])
            inits = [helper.make_tensor("s", TensorProto.FLOAT, [4], [1, 1, 2, 3])]
        path = save(out, "upsample%d" % opset, helper.make_graph([node], "up", [x_info], [y_info], inits), opset)
        x = rng.randn(1, 2, 3, 3).astype(np.float32)
        np.save(os.path.join(out, "up_x.npy"), x)
        subprocess.run([nc_run, path, "--input", os.path.join(out, "up_x.npy"), "--output",
                        os.path.join(out, "up_y.npy")], check=True)
        y = np.load(os.path.join(out, "up_y.npy"))
        want = x.repeat(2, axis=2).repeat(3, axis=3)
        print("upsample opset %d" % opset, "matches the reference" if np.array_equal(y, want) else "DIFFERS")

    # refused: cubic mode, linear with tf_half_pixel_for_nn, a scale whose output size is not whole
    save(out, "refused_cubic", resize_graph([1, 1, 2, 2], [1, 1, 4, 4], TensorProto.FLOAT, scales=[1, 1, 2, 2],
                                            mode="cubic"), 13)
    save(out, "refused_linear_tf", resize_graph([1, 1, 2, 2], [1, 1, 4, 4], TensorProto.FLOAT, scales=[1, 1, 2, 2],
                                                mode="linear", coord="tf_half_pixel_for_nn"), 13)
    # mode linear imports (its values: test/Interp/resize-linear.test)
    save(out, "linear", resize_graph([1, 1, 2, 2], [1, 1, 4, 4], TensorProto.FLOAT, scales=[1, 1, 2, 2],
                                     mode="linear", coord="align_corners"), 13)
    save(out, "refused_scale", resize_graph([1, 1, 3, 3], [1, 1, 4, 4], TensorProto.FLOAT, scales=[1, 1, 1.5, 1.5]),
         13)


if __name__ == "__main__":
    main()

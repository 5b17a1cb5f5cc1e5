#!/usr/bin/python3
"""Writes the small ONNX models of nc's import/export tests.

Usage: make_models.py OUT_DIR [NAME...]   (all models when no NAME is given)

Each model exercises one operator (or one opset variant of it, or one shape
chain, or one error) and is built with onnx.helper, so the tests need no
binary files in the repository. Run with Debian's /usr/bin/python3, which has
python3-onnx and numpy.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper, numpy_helper

MODELS = {}


def model(fn):
    MODELS[fn.__name__] = fn
    return fn


def ir_for(opset):
    for limit, ir in ((8, 3), (9, 4), (10, 5), (11, 6), (14, 7), (18, 8), (20, 9)):
        if opset <= limit:
            return ir
    return 10


def vi(name, shape, t=T.FLOAT):
    return helper.make_tensor_value_info(name, t, shape)


def init(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


def make(nodes, inputs, outputs, inits=(), opset=17, value_info=(), name="g", inits_as_inputs=None):
    """A model; opset <= 8 models also list their initializers as inputs."""
    inputs = list(inputs)
    if inits_as_inputs is None:
        inits_as_inputs = opset <= 8
    if inits_as_inputs:
        inputs += [helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in inits]
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits), value_info=list(value_info))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="nc-test")
    m.ir_version = ir_for(opset)
    return m


def node(op, ins, outs, name=None, **attrs):
    return helper.make_node(op, ins, outs, name=name if name is not None else outs[0] + "_node", **attrs)


def rand(*shape):
    """Deterministic values in [-1, 1) (no random generator, so tests can check the bytes)."""
    n = int(np.prod(shape))
    return (((np.arange(n) * 0.375 + 0.25 * len(shape)) % 2) - 1).astype(np.float32).reshape(shape)


def unary(op, opset=17, **attrs):
    return make([node(op, ["x"], ["y"], name=op, **attrs)], [vi("x", [2, 3])], [vi("y", [2, 3])], opset=opset)


# --- elementwise -----------------------------------------------------------------------------------------------

UNARY = ["Sqrt", "Exp", "Neg", "Abs", "Log", "Reciprocal", "Relu", "Sigmoid", "Tanh", "Softplus", "Softsign"]


@model
def unary_all():
    return make([node(op, ["x"], ["y_" + op], name=op) for op in UNARY], [vi("x", [2, 3])],
                [vi("y_" + op, [2, 3]) for op in UNARY])


@model
def leaky_relu():
    return unary("LeakyRelu", alpha=0.2)


@model
def leaky_relu_default():
    return unary("LeakyRelu")


@model
def elu():
    return unary("Elu", alpha=0.5)


@model
def selu():
    return unary("Selu", alpha=2.0, gamma=3.0)


@model
def binary():
    ops = ["Add", "Sub", "Mul", "Div", "Pow"]
    nodes = [node(op, ["a", "b"], ["y_" + op], name=op) for op in ops]
    return make(nodes, [vi("a", [2, 3, 4]), vi("b", [3, 1])], [vi("y_" + op, [2, 3, 4]) for op in ops])


@model
def binary_int():
    return make([node("Add", ["a", "b"], ["y"], name="add")], [vi("a", [4], T.INT32), vi("b", [1], T.INT32)],
                [vi("y", [4], T.INT32)])


@model
def binary_legacy_axis():  # opset 6: B matched against A at axis 1
    return make([node("Add", ["a", "b"], ["y"], name="add", broadcast=1, axis=1)],
                [vi("a", [2, 3, 4, 5])], [vi("y", [2, 3, 4, 5])], inits=[init("b", rand(3))], opset=6)


@model
def binary_legacy_runtime():  # opset 6 with a run-time B: a reshape is inserted
    return make([node("Mul", ["a", "b"], ["y"], name="mul", broadcast=1, axis=0)],
                [vi("a", [2, 3, 4]), vi("b", [2, 3])], [vi("y", [2, 3, 4])], opset=6)


@model
def variadic():
    ops = ["Max", "Min", "Sum", "Mean"]
    nodes = [node(op, ["a", "b", "c"], ["y_" + op], name=op) for op in ops]
    return make(nodes, [vi("a", [2, 3]), vi("b", [3]), vi("c", [1, 1])], [vi("y_" + op, [2, 3]) for op in ops])


@model
def prelu():
    return make([node("PRelu", ["x", "slope"], ["y"], name="prelu")], [vi("x", [1, 3, 4, 4])], [vi("y", [1, 3, 4, 4])],
                inits=[init("slope", rand(3, 1, 1))])


@model
def prelu_opset6():  # a 1-D slope is per channel before opset 7
    return make([node("PRelu", ["x", "slope"], ["y"], name="prelu")], [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])],
                inits=[init("slope", rand(3))], opset=6)


@model
def clip6():
    return make([node("Clip", ["x"], ["y"], name="clip", min=-1.0, max=6.0)], [vi("x", [4])], [vi("y", [4])], opset=6)


@model
def clip11():
    return make([node("Clip", ["x", "lo", "hi"], ["y"], name="clip")], [vi("x", [4])], [vi("y", [4])],
                inits=[init("lo", np.float32(-1)), init("hi", np.float32(6))], opset=11)


@model
def clip13_max_only():
    return make([node("Clip", ["x", "", "hi"], ["y"], name="clip")], [vi("x", [4])], [vi("y", [4])],
                inits=[init("hi", np.float32(6))], opset=13)


@model
def clip_int():
    return make([node("Clip", ["x", "lo", "hi"], ["y"], name="clip")], [vi("x", [4], T.INT8)], [vi("y", [4], T.INT8)],
                inits=[init("lo", np.int8(-100)), init("hi", np.int8(100))], opset=13)


# --- matrix products and convolutions ------------------------------------------------------------------------------


@model
def matmul():
    return make([node("MatMul", ["a", "b"], ["y"], name="mm")], [vi("a", [2, 5, 3])], [vi("y", [2, 5, 4])],
                inits=[init("b", rand(3, 4))])


@model
def gemm():
    return make([node("Gemm", ["a", "w", "c"], ["y"], name="fc", alpha=0.5, beta=2.0, transA=1, transB=1)],
                [vi("a", [3, 2])], [vi("y", [2, 4])], inits=[init("w", rand(4, 3)), init("c", rand(4))])


@model
def gemm_no_c():
    return make([node("Gemm", ["a", "w"], ["y"], name="fc")], [vi("a", [2, 3])], [vi("y", [2, 4])],
                inits=[init("w", rand(3, 4))], opset=11)


@model
def conv():
    return make([node("Conv", ["x", "w", "b"], ["y"], name="layer1.0/conv1/Conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                      strides=[1, 1], dilations=[1, 1], group=1)],
                [vi("x", [1, 2, 8, 8])], [vi("y", [1, 4, 8, 8])], inits=[init("w", rand(4, 2, 3, 3)), init("b", rand(4))])


@model
def conv_strided_grouped():
    return make([node("Conv", ["x", "w"], ["y"], name="conv", strides=[2, 2], group=2, dilations=[2, 1],
                      auto_pad="NOTSET")],
                [vi("x", [1, 4, 9, 9])], [vi("y", [1, 4, 4, 4])], inits=[init("w", rand(4, 2, 2, 2))])


@model
def conv_same():
    return make([node("Conv", ["x", "w"], ["y"], name="conv", auto_pad="SAME_UPPER", strides=[2])],
                [vi("x", [1, 1, 7])], [vi("y", [1, 1, 4])], inits=[init("w", rand(1, 1, 3))])


@model
def conv_dynamic():
    return make([node("Conv", ["x", "w"], ["y"], name="conv", pads=[1, 1, 1, 1])],
                [vi("x", ["N", 1, "H", 8])], [vi("y", ["N", 2, "H", 8])], inits=[init("w", rand(2, 1, 3, 3))])


@model
def conv_transpose():
    return make([node("ConvTranspose", ["x", "w", "b"], ["y"], name="up", strides=[2, 2], output_padding=[1, 1],
                      pads=[1, 1, 1, 1])],
                [vi("x", [1, 2, 4, 4])], [vi("y", [1, 3, 8, 8])], inits=[init("w", rand(2, 3, 3, 3)), init("b", rand(3))])


@model
def conv_transpose_output_shape():
    return make([node("ConvTranspose", ["x", "w"], ["y"], name="up", strides=[2, 2], output_shape=[9, 9])],
                [vi("x", [1, 2, 4, 4])], [vi("y", [1, 3, 9, 9])], inits=[init("w", rand(2, 3, 3, 3))])


# --- pooling, reductions, normalisation --------------------------------------------------------------------------------


@model
def max_pool():
    return make([node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
                      ceil_mode=1, dilations=[1, 1])],
                [vi("x", [1, 2, 8, 8])], [vi("y", [1, 2, 5, 5])], opset=12)


@model
def max_pool_indices():
    return make([node("MaxPool", ["x"], ["y", "idx"], name="pool", kernel_shape=[2, 2])],
                [vi("x", [1, 2, 8, 8])], [vi("y", [1, 2, 7, 7]), vi("idx", [1, 2, 7, 7], T.INT64)])


@model
def avg_pool():
    return make([node("AveragePool", ["x"], ["y"], name="pool", kernel_shape=[2, 2], count_include_pad=1,
                      pads=[0, 0, 1, 1])],
                [vi("x", [1, 2, 8, 8])], [vi("y", [1, 2, 8, 8])])


@model
def avg_pool_opset1():  # AveragePool-1: no count_include_pad
    return make([node("AveragePool", ["x"], ["y"], name="pool", kernel_shape=[2])],
                [vi("x", [1, 2, 8])], [vi("y", [1, 2, 7])], opset=1)


@model
def global_pools():
    return make([node("GlobalAveragePool", ["x"], ["a"], name="gap"), node("GlobalMaxPool", ["x"], ["m"], name="gmp")],
                [vi("x", [1, 3, 5, 5])], [vi("a", [1, 3, 1, 1]), vi("m", [1, 3, 1, 1])])


@model
def reduce13():
    nodes = [node("ReduceMean", ["x"], ["mean"], name="mean", axes=[1], keepdims=0),
             node("ReduceMax", ["x"], ["max"], name="max", axes=[-1]),
             node("ReduceMin", ["x"], ["min"], name="min"),
             node("ReduceSum", ["x", "axes"], ["sum"], name="sum", keepdims=0)]
    return make(nodes, [vi("x", [2, 3, 4])],
                [vi("mean", [2, 4]), vi("max", [2, 3, 1]), vi("min", [1, 1, 1]), vi("sum", [3])],
                inits=[init("axes", np.array([0, 2], np.int64))], opset=13)


@model
def reduce18():
    nodes = [node("ReduceMean", ["x", "axes"], ["mean"], name="mean"),
             node("ReduceMax", ["x"], ["same"], name="noop", noop_with_empty_axes=1)]
    return make(nodes, [vi("x", [2, 3, 4])], [vi("mean", [2, 1, 4]), vi("same", [2, 3, 4])],
                inits=[init("axes", np.array([1], np.int64))], opset=18)


@model
def lrn():
    return make([node("LRN", ["x"], ["y"], name="lrn", size=3, alpha=0.001)], [vi("x", [1, 4, 2, 2])],
                [vi("y", [1, 4, 2, 2])])


@model
def batch_norm():
    c = 3
    inits = [init("s", rand(c)), init("bias", rand(c)), init("m", rand(c)), init("v", np.abs(rand(c)) + 1)]
    return make([node("BatchNormalization", ["x", "s", "bias", "m", "v"], ["y"], name="bn", epsilon=1e-3, momentum=0.9)],
                [vi("x", [2, c, 4, 4])], [vi("y", [2, c, 4, 4])], inits=inits, opset=15)


@model
def batch_norm_opset7():  # initializers listed as graph inputs, unused training outputs
    c = 2
    inits = [init("s", rand(c)), init("bias", rand(c)), init("m", rand(c)), init("v", np.abs(rand(c)) + 1)]
    return make([node("BatchNormalization", ["x", "s", "bias", "m", "v"], ["y", "mean_out"], name="bn")],
                [vi("x", [1, c, 3])], [vi("y", [1, c, 3])], inits=inits, opset=7)


@model
def batch_norm_training():
    c = 2
    inits = [init("s", rand(c)), init("bias", rand(c)), init("m", rand(c)), init("v", np.abs(rand(c)) + 1)]
    return make([node("BatchNormalization", ["x", "s", "bias", "m", "v"], ["y", "rm", "rv"], name="bn_train",
                      training_mode=1)],
                [vi("x", [1, c, 3])], [vi("y", [1, c, 3]), vi("rm", [c]), vi("rv", [c])], inits=inits, opset=15)


@model
def instance_norm():
    return make([node("InstanceNormalization", ["x", "s", "bias"], ["y"], name="in", epsilon=1e-4)],
                [vi("x", [1, 2, 3, 3])], [vi("y", [1, 2, 3, 3])], inits=[init("s", rand(2)), init("bias", rand(2))])


@model
def softmax13():
    return make([node("Softmax", ["x"], ["y"], name="sm", axis=1), node("LogSoftmax", ["x"], ["z"], name="lsm")],
                [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4]), vi("z", [2, 3, 4])], opset=13)


@model
def softmax11():  # coerce-to-2D semantics: rewritten unless axis is the last dim
    return make([node("Softmax", ["x"], ["y"], name="sm", axis=1), node("LogSoftmax", ["x"], ["z"], name="lsm", axis=2)],
                [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4]), vi("z", [2, 3, 4])], opset=11)


# --- data movement ------------------------------------------------------------------------------------------------------


@model
def concat():
    return make([node("Concat", ["a", "b"], ["y"], name="cat", axis=-1)], [vi("a", [2, 3]), vi("b", [2, 5])],
                [vi("y", [2, 8])])


@model
def concat_opset1():  # axis defaults to 1 before opset 4
    return make([node("Concat", ["a", "b"], ["y"], name="cat")], [vi("a", [2, 3]), vi("b", [2, 1])], [vi("y", [2, 4])],
                opset=1)


@model
def split2():
    return make([node("Split", ["x"], ["a", "b"], name="split", axis=1, split=[1, 3])], [vi("x", [2, 4])],
                [vi("a", [2, 1]), vi("b", [2, 3])], opset=2)


@model
def split13():
    return make([node("Split", ["x", "sizes"], ["a", "b"], name="split")], [vi("x", [5, 2])],
                [vi("a", [2, 2]), vi("b", [3, 2])], inits=[init("sizes", np.array([2, 3], np.int64))], opset=13)


@model
def split13_equal():
    return make([node("Split", ["x"], ["a", "b", "c"], name="split", axis=-1)], [vi("x", [2, 6])],
                [vi("a", [2, 2]), vi("b", [2, 2]), vi("c", [2, 2])], opset=13)


@model
def split18():  # num_outputs: parts of ceil(7 / 3) = 3, the last smaller
    return make([node("Split", ["x"], ["a", "b", "c"], name="split", num_outputs=3)], [vi("x", [7])],
                [vi("a", [3]), vi("b", [3]), vi("c", [1])], opset=18)


@model
def slice1():
    return make([node("Slice", ["x"], ["y"], name="slice", starts=[1, 0], ends=[3, -1], axes=[0, 1])],
                [vi("x", [4, 5])], [vi("y", [2, 4])], opset=1)


@model
def slice10():
    inits = [init("starts", np.array([1], np.int64)), init("ends", np.array([100], np.int64)),
             init("axes", np.array([-1], np.int64)), init("steps", np.array([2], np.int64))]
    return make([node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"], name="slice")],
                [vi("x", [4, 6])], [vi("y", [4, 3])], inits=inits, opset=10)


@model
def reshape1():
    return make([node("Reshape", ["x"], ["y"], name="reshape", shape=[2, -1])], [vi("x", [2, 3, 4])],
                [vi("y", [2, 12])], opset=1)


@model
def reshape5():
    return make([node("Reshape", ["x", "shape"], ["y"], name="reshape")], [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])],
                inits=[init("shape", np.array([0, 3, -1], np.int64))], opset=5)


@model
def reshape14_allowzero():
    return make([node("Reshape", ["x", "shape"], ["y"], name="reshape", allowzero=1)], [vi("x", [2, 0])],
                [vi("y", [0, 4])], inits=[init("shape", np.array([0, 4], np.int64))], opset=14)


@model
def flatten():
    return make([node("Flatten", ["x"], ["y"], name="flat", axis=2)], [vi("x", [2, 3, 4, 5])], [vi("y", [6, 20])])


@model
def squeeze1():
    return make([node("Squeeze", ["x"], ["y"], name="sq", axes=[0, 2]), node("Unsqueeze", ["y"], ["z"], name="unsq",
                                                                              axes=[1])],
                [vi("x", [1, 3, 1, 2])], [vi("z", [3, 1, 2])], opset=1)


@model
def squeeze13():
    return make([node("Squeeze", ["x", "ax"], ["y"], name="sq"), node("Unsqueeze", ["y", "ax2"], ["z"], name="unsq"),
                 node("Squeeze", ["z"], ["w"], name="sq_all")],
                [vi("x", [1, 3, 1, 2])], [vi("w", [3, 2])],
                inits=[init("ax", np.array([0], np.int64)), init("ax2", np.array([-1, 0], np.int64))], opset=13)


@model
def transpose():
    return make([node("Transpose", ["x"], ["y"], name="perm", perm=[0, 2, 3, 1]), node("Transpose", ["x"], ["z"],
                                                                                      name="rev")],
                [vi("x", [1, 2, 3, 4])], [vi("y", [1, 3, 4, 2]), vi("z", [4, 3, 2, 1])])


@model
def pad2():
    return make([node("Pad", ["x"], ["y"], name="pad", pads=[0, 1, 0, 2], value=1.5)], [vi("x", [2, 3])],
                [vi("y", [2, 6])], opset=2)


@model
def pad11():
    return make([node("Pad", ["x", "pads", "cv"], ["y"], name="pad", mode="reflect")], [vi("x", [1, 4])],
                [vi("y", [1, 6])], inits=[init("pads", np.array([0, 1, 0, 1], np.int64)), init("cv", np.float32(0))],
                opset=11)


@model
def pad18_axes():
    return make([node("Pad", ["x", "pads", "", "axes"], ["y"], name="pad", mode="edge")], [vi("x", [2, 3, 4])],
                [vi("y", [2, 3, 7])], inits=[init("pads", np.array([1, 2], np.int64)), init("axes", np.array([-1], np.int64))],
                opset=18)


@model
def pad_wrap():
    """mode wrap came with opset 19: at 18 it is refused"""
    return make([node("Pad", ["x", "pads"], ["y"], name="pad_wrap", mode="wrap")], [vi("x", [2, 3])], [vi("y", [2, 5])],
                inits=[init("pads", np.array([0, 1, 0, 1], np.int64))], opset=18)


# --- constants, casts, no-ops ---------------------------------------------------------------------------------------


@model
def constants_empty():
    """value_ints and value_floats with no elements (a fuzzer found the importer copying from their NULL arrays)"""
    nodes = []
    for out, field, kind in [("c_ints", "value_ints", onnx.AttributeProto.INTS),
                             ("c_floats", "value_floats", onnx.AttributeProto.FLOATS)]:
        n = node("Constant", [], [out], name=out)
        a = n.attribute.add()
        a.name, a.type = field, kind
        nodes.append(n)
    return make(nodes, [], [vi("c_ints", [0], T.INT64), vi("c_floats", [0])], opset=13)


@model
def constants():
    sparse = helper.make_sparse_tensor(numpy_helper.from_array(np.array([5.0, 7.0], np.float32), "sv"),
                                       numpy_helper.from_array(np.array([1, 4], np.int64), "si"), [2, 3])
    nodes = [node("Constant", [], ["c_tensor"], name="ct", value=numpy_helper.from_array(rand(2, 3), "cv")),
             node("Constant", [], ["c_float"], name="cf", value_float=2.5),
             node("Constant", [], ["c_floats"], name="cfs", value_floats=[1.0, 2.0, 3.0]),
             node("Constant", [], ["c_int"], name="ci", value_int=3),
             node("Constant", [], ["c_ints"], name="cis", value_ints=[1, 2]),
             node("Constant", [], ["c_sparse"], name="cs", sparse_value=sparse),
             node("Add", ["x", "c_tensor"], ["a"], name="add1"), node("Mul", ["a", "c_float"], ["b"], name="mul"),
             node("Add", ["b", "c_floats"], ["c"], name="add2"), node("Sub", ["c", "c_sparse"], ["y"], name="sub"),
             node("Cast", ["c_int"], ["ci_f"], name="cast_ci", to=T.FLOAT),
             node("Cast", ["c_ints"], ["cis_f"], name="cast_cis", to=T.FLOAT),
             node("Add", ["ci_f", "cis_f"], ["z"], name="add3")]
    return make(nodes, [vi("x", [2, 3])], [vi("y", [2, 3]), vi("z", [2])], opset=13)


@model
def sparse_initializer():
    sparse = helper.make_sparse_tensor(numpy_helper.from_array(np.array([2.0, 3.0], np.float32), "sp"),
                                       numpy_helper.from_array(np.array([[0, 1], [1, 0]], np.int64), "spi"), [2, 2])
    g = helper.make_graph([node("Mul", ["x", "sp"], ["y"], name="mul")], "g", [vi("x", [2, 2])], [vi("y", [2, 2])],
                          sparse_initializer=[sparse])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="nc-test")
    m.ir_version = 7
    return m


@model
def cast():
    return make([node("Cast", ["x"], ["y"], name="to_int8", to=T.INT8), node("Cast", ["y"], ["z"], name="to_bool",
                                                                           to=T.BOOL),
                 node("Cast", ["x"], ["same"], name="noop_cast", to=T.FLOAT)],
                [vi("x", [3])], [vi("z", [3], T.BOOL), vi("same", [3])])


@model
def cast1_string_to():  # Cast-1 names its target type with a string
    return make([node("Cast", ["x"], ["y"], name="cast", to="INT32")], [vi("x", [3])], [vi("y", [3], T.INT32)], opset=1)


@model
def identity_dropout():
    nodes = [node("Identity", ["x"], ["i"], name="id"), node("Dropout", ["i", "ratio"], ["d"], name="drop"),
             node("Relu", ["d"], ["y"], name="relu")]
    return make(nodes, [vi("x", [4])], [vi("y", [4])], inits=[init("ratio", np.float32(0.3))], opset=13)


@model
def dropout_mask():
    return make([node("Dropout", ["x"], ["y", "mask"], name="drop")], [vi("x", [4])],
                [vi("y", [4]), vi("mask", [4], T.BOOL)], opset=13)


@model
def passthrough():  # an output that is an input, and one that is an initializer
    return make([node("Identity", ["x"], ["y"], name="id"), node("Identity", ["w"], ["z"], name="idw")],
                [vi("x", [2])], [vi("y", [2]), vi("z", [2])], inits=[init("w", rand(2))])


# --- quantization --------------------------------------------------------------------------------------------------------


@model
def qdq():
    nodes = [node("QuantizeLinear", ["x", "s", "zp"], ["q"], name="quant"),
             node("DequantizeLinear", ["q", "s", "zp"], ["dq"], name="dequant"),
             node("DequantizeLinear", ["wq", "ws"], ["w"], name="dequant_w", axis=0),
             node("MatMul", ["dq", "w"], ["y"], name="mm")]
    inits = [init("s", np.float32(0.1)), init("zp", np.int8(3)), init("wq", np.arange(12, dtype=np.int8).reshape(3, 4)),
             init("ws", np.array([0.1, 0.2, 0.3], np.float32))]
    return make(nodes, [vi("x", [2, 3])], [vi("y", [2, 4])], inits=inits, opset=13)


@model
def quantize_default_uint8():
    return make([node("QuantizeLinear", ["x", "s"], ["q"], name="quant")], [vi("x", [4])], [vi("q", [4], T.UINT8)],
                inits=[init("s", np.float32(0.5))], opset=10)


@model
def quantize21():  # opset 21: output_dtype without a zero point; INT4 weights (packed two per byte)
    w4 = onnx.TensorProto(name="w4", data_type=22, dims=[2, 3], raw_data=bytes([0x21, 0xF3, 0x8E]))
    nodes = [node("QuantizeLinear", ["x", "s"], ["q"], name="quant", output_dtype=T.INT8),
             node("DequantizeLinear", ["w4", "s"], ["w"], name="dequant_w4")]
    return make(nodes, [vi("x", [2, 3])], [vi("q", [2, 3], T.INT8), vi("w", [2, 3])],
                inits=[init("s", np.float32(0.5)), w4], opset=21)


@model
def quantize_blocked():
    return make([node("QuantizeLinear", ["x", "s"], ["q"], name="quant", block_size=2, axis=1)], [vi("x", [2, 4])],
                [vi("q", [2, 4], T.UINT8)], inits=[init("s", np.ones((2, 2), np.float32))], opset=21)


@model
def qlinear():
    f = np.float32
    inits = [init("xs", f(0.1)), init("xz", np.uint8(128)), init("w", np.ones((2, 3, 1, 1), np.int8)),
             init("wsc", np.array([0.2, 0.3], f)), init("wz", np.zeros(2, np.int8)), init("ys", f(0.5)),
             init("yz", np.uint8(10)), init("bias", np.array([1, 2], np.int32)),
             init("b", np.ones((2, 5), np.uint8)), init("bs", f(0.1)), init("bz", np.uint8(1))]
    nodes = [node("QLinearConv", ["x", "xs", "xz", "w", "wsc", "wz", "ys", "yz", "bias"], ["c"], name="qconv"),
             node("QLinearMatMul", ["a", "xs", "xz", "b", "bs", "bz", "ys", "yz"], ["m"], name="qmm")]
    return make(nodes, [vi("x", [1, 3, 4, 4], T.UINT8), vi("a", [3, 2], T.UINT8)],
                [vi("c", [1, 2, 4, 4], T.UINT8), vi("m", [3, 5], T.UINT8)], inits=inits, opset=10)


@model
def integer_ops():
    inits = [init("w", np.ones((2, 3, 3, 3), np.int8)), init("wz", np.int8(1)), init("b", np.ones((4, 2), np.uint8)),
             init("az", np.uint8(3))]
    nodes = [node("ConvInteger", ["x", "w", "", "wz"], ["c"], name="convi", pads=[1, 1, 1, 1]),
             node("MatMulInteger", ["a", "b", "az"], ["m"], name="mmi")]
    return make(nodes, [vi("x", [1, 3, 4, 4], T.INT8), vi("a", [3, 4], T.UINT8)],
                [vi("c", [1, 2, 4, 4], T.INT32), vi("m", [3, 2], T.INT32)], inits=inits, opset=10)


# --- shape chains (PyTorch exports) -------------------------------------------------------------------------------------


def view_flatten(batch):
    """x.view(x.size(0), -1) as torch exports it: Shape -> Gather -> Unsqueeze -> Concat -> Reshape."""
    nodes = [node("Shape", ["x"], ["shape"], name="/Shape"),
             node("Constant", [], ["zero"], name="/Constant", value=numpy_helper.from_array(np.array(0, np.int64))),
             node("Gather", ["shape", "zero"], ["n"], name="/Gather", axis=0),
             node("Unsqueeze", ["n", "axes0"], ["n1"], name="/Unsqueeze"),
             node("Constant", [], ["minus1"], name="/Constant_1",
                  value=numpy_helper.from_array(np.array([-1], np.int64))),
             node("Concat", ["n1", "minus1"], ["target"], name="/Concat", axis=0),
             node("Reshape", ["x", "target"], ["y"], name="/Reshape")]
    return make(nodes, [vi("x", [batch, 2, 3, 4])], [vi("y", [batch, 24])],
                inits=[init("axes0", np.array([0], np.int64))], opset=13)


@model
def shape_chain():
    return view_flatten(2)


@model
def shape_chain_dynamic():
    return view_flatten("batch")


@model
def shape_chain_expand():
    """ones.expand(x.shape) style: ConstantOfShape, Equal, Where, Expand, Range, Cast, Slice, Squeeze."""
    nodes = [node("Shape", ["x"], ["s"], name="shape"),
             node("ConstantOfShape", ["s"], ["ones"], name="cos",
                  value=numpy_helper.from_array(np.array([1.0], np.float32))),
             node("Slice", ["s", "st", "en"], ["s_last"], name="slice"),
             node("Squeeze", ["s_last", "ax"], ["d"], name="squeeze"),
             node("Range", ["zero", "d", "one"], ["r"], name="range"),
             node("Cast", ["r"], ["rf"], name="cast", to=T.FLOAT),
             node("Equal", ["s", "minus1"], ["eq"], name="equal"),
             node("Where", ["eq", "one_v", "s"], ["s2"], name="where"),
             node("Expand", ["row", "s2"], ["ex"], name="expand"),
             node("Add", ["x", "ones"], ["a"], name="add"), node("Mul", ["a", "rf"], ["b"], name="mul"),
             node("Add", ["b", "ex"], ["y"], name="add2")]
    inits = [init("st", np.array([-1], np.int64)), init("en", np.array([100], np.int64)), init("ax", np.array([0], np.int64)),
             init("zero", np.array(0, np.int64)), init("one", np.array(1, np.int64)),
             init("minus1", np.array([-1, -1], np.int64)), init("one_v", np.array([1, 1], np.int64)),
             init("row", np.arange(4, dtype=np.float32))]
    return make(nodes, [vi("x", [3, 4])], [vi("y", [3, 4])], inits=inits, opset=13)


@model
def shape_chain_dim_param():  # y reshaped by x's batch: the same dim_param "b", so a 0 copies it
    nodes = [node("Shape", ["x"], ["s"], name="shape"), node("Gather", ["s", "zero"], ["n"], name="gather"),
             node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsqueeze"),
             node("Concat", ["n1", "rest"], ["target"], name="concat", axis=0),
             node("Reshape", ["y", "target"], ["z"], name="reshape")]
    inits = [init("zero", np.array(0, np.int64)), init("axes0", np.array([0], np.int64)),
             init("rest", np.array([3, -1], np.int64))]
    return make(nodes, [vi("x", ["b", 5]), vi("y", ["b", 6])], [vi("z", ["b", 3, 2])], inits=inits, opset=13)


@model
def shape_chain_unresolvable():  # a target of two dynamic dims, swapped
    nodes = [node("Shape", ["x"], ["s"], name="shape"), node("Slice", ["s", "st", "en", "ax", "step"], ["r"], name="rev"),
             node("Reshape", ["x", "r"], ["y"], name="reshape")]
    inits = [init("st", np.array([-1], np.int64)), init("en", np.array([-100], np.int64)),
             init("ax", np.array([0], np.int64)), init("step", np.array([-1], np.int64))]
    return make(nodes, [vi("x", ["h", "w"])], [vi("y", ["w", "h"])], inits=inits, opset=13)


@model
def shape_chain_runtime():  # a Reshape target computed from run-time data: not supported
    return make([node("Cast", ["s"], ["s64"], name="cast", to=T.INT64), node("Reshape", ["x", "s64"], ["y"], name="reshape")],
                [vi("x", [2, 3]), vi("s", [2], T.INT32)], [vi("y", [3, 2])], opset=13)


@model
def fold_weights():  # a Transpose and Cast of initializers fold into one constant
    nodes = [node("Cast", ["w16"], ["w32"], name="cast", to=T.FLOAT), node("Transpose", ["w32"], ["wt"], name="t"),
             node("MatMul", ["x", "wt"], ["y"], name="mm")]
    return make(nodes, [vi("x", [2, 3])], [vi("y", [2, 4])], inits=[init("w16", rand(4, 3).astype(np.float16))],
                opset=13)


@model
def unsorted():  # nodes out of topological order
    nodes = [node("Relu", ["a"], ["y"], name="second"), node("Neg", ["x"], ["a"], name="first")]
    return make(nodes, [vi("x", [2])], [vi("y", [2])])


@model
def value_info_refine():  # a dynamic input; the model's value_info gives the static shape
    return make([node("Relu", ["x"], ["r"], name="relu"), node("Flatten", ["r"], ["y"], name="flat")],
                [vi("x", ["n", 4])], [vi("y", [2, 4])], value_info=[vi("r", [2, 4])])


@model
def value_info_conflict():  # the model declares a shape that contradicts the operator's
    return make([node("Relu", ["x"], ["r"], name="relu"), node("Flatten", ["r"], ["y"], name="flat")],
                [vi("x", [2, 4])], [vi("y", [2, 4])], value_info=[vi("r", [4, 2])])


@model
def names():  # a graph name that needs sanitizing, and an unnamed node
    return make([helper.make_node("Relu", ["x"], ["y"])], [vi("x", [2])], [vi("y", [2])], name="my model-v2")


@model
def blob_names():  # initializer names that collide once made resource keys
    inits = [init("onnx::Mul_5", np.float32([1, 2])), init("onnx__Mul_5", np.float32([3, 4])),
             init("7weights", np.float32([5, 6]))]
    nodes = [node("Mul", ["x", "onnx::Mul_5"], ["a"], name="m1"), node("Mul", ["a", "onnx__Mul_5"], ["b"], name="m2"),
             node("Mul", ["b", "7weights"], ["y"], name="m3")]
    return make(nodes, [vi("x", [2])], [vi("y", [2])], inits=inits, name="")


@model
def unnamed_error():
    return make([helper.make_node("Mod", ["x", "x"], ["y"])], [vi("x", [2])], [vi("y", [2])])


# --- errors -------------------------------------------------------------------------------------------------------------


@model
def unsupported_op():
    return make([node("Det", ["x"], ["y"], name="Det_12")], [vi("x", [1, 2, 2])], [vi("y", [1])], opset=13)


@model
def unsupported_domain():
    n = helper.make_node("FusedConv", ["x"], ["y"], name="fc", domain="com.microsoft")
    m = make([n], [vi("x", [2])], [vi("y", [2])])
    m.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return m


@model
def unsupported_opset():
    return make([node("Relu", ["x"], ["y"], name="relu")], [vi("x", [2])], [vi("y", [2])], opset=22)


@model
def unsupported_attr_value():
    return make([node("Conv", ["x", "w"], ["y"], name="conv", auto_pad="SIDEWAYS")], [vi("x", [1, 1, 4, 4])],
                [vi("y", [1, 1, 4, 4])], inits=[init("w", rand(1, 1, 3, 3))])


@model
def unknown_attr():
    return make([node("Relu", ["x"], ["y"], name="relu", flavour=2)], [vi("x", [2])], [vi("y", [2])])


@model
def bad_shapes():
    return make([node("Add", ["a", "b"], ["y"], name="add")], [vi("a", [2, 3]), vi("b", [4])], [vi("y", [2, 3])])


@model
def undefined_input():
    return make([node("Relu", ["nowhere"], ["y"], name="relu")], [vi("x", [2])], [vi("y", [2])])


@model
def cycle():
    return make([node("Relu", ["b"], ["a"], name="r1"), node("Relu", ["a"], ["b"], name="r2")], [vi("x", [2])],
                [vi("b", [2])])


@model
def huge_constant_of_shape():  # ConstantOfShape of 2^40 elements from a 100-byte model
    return make([node("ConstantOfShape", ["s"], ["y"], name="cos")], [], [vi("y", [1 << 20, 1 << 20])],
                inits=[init("s", np.array([1 << 20, 1 << 20], np.int64))], opset=13)


@model
def doubling_shape():  # 40 Concats each doubling a shape vector: refused long before 2^40 elements
    nodes = [node("Shape", ["x"], ["s0"], name="shape")]
    nodes += [node("Concat", ["s%d" % i, "s%d" % i], ["s%d" % (i + 1)], name="c%d" % i, axis=0) for i in range(40)]
    nodes.append(node("Reshape", ["x", "s40"], ["y"], name="reshape"))
    return make(nodes, [vi("x", ["n", 2])], [vi("y", None)], opset=13)


@model
def absurd_input_dims():  # a static input of 2^62 elements: types only, nothing is allocated
    return make([node("Relu", ["x"], ["y"], name="relu")], [vi("x", [1 << 31, 1 << 31])], [vi("y", [1 << 31, 1 << 31])])


@model
def external_data():
    m = make([node("Add", ["x", "big"], ["y"], name="add")], [vi("x", [64])], [vi("y", [64])],
             inits=[init("big", np.arange(64, dtype=np.float32))])
    return m


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = sys.argv[2:] or sorted(MODELS)
    for name in names:
        m = MODELS[name]()
        path = os.path.join(out, name + ".onnx")
        if name == "external_data":
            onnx.save_model(m, path, save_as_external_data=True, all_tensors_to_one_file=True,
                            location="external_data.bin", size_threshold=0)
        else:
            onnx.save(m, path)


if __name__ == "__main__":
    main()

# An ONNX model whose node has no name (as many exported QDQ models), and calibration data for it.
import sys
import numpy as np
import onnx
from onnx import helper, TensorProto
node = helper.make_node("Exp", ["x"], ["y"])  # no name, as many exported QDQ models
g = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(m, sys.argv[1] + "/unnamed.onnx")
np.save(sys.argv[1] + "/cal.npy", np.zeros((2, 1, 4), np.float32))

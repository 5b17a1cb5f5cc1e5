// A model whose weights are computed from constants at run time (which the
// ONNX importer would already have folded): a transposed, scaled weight blob
// and a bias that is a difference of two constants, feeding matmul + add +
// sigmoid. graph-optimize folds the weights and fuses the rest into a gemm.
func.func @main(%x: tensor<3x4xf32>) -> tensor<3x5xf32> {
  %w = graph.constant {value = dense_resource<w> : tensor<5x4xf32>} : () -> tensor<5x4xf32>
  %wt = graph.transpose %w : (tensor<5x4xf32>) -> tensor<4x5xf32>
  %k = graph.constant {value = dense<0.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %ws = graph.mul %wt, %k : (tensor<4x5xf32>, tensor<1xf32>) -> tensor<4x5xf32>
  %m = graph.matmul %x, %ws : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %b1 = graph.constant {value = dense<[-0.5525205, -0.07052734, -0.38023394, 0.08137931, 0.04702533]> : tensor<5xf32>} : () -> tensor<5xf32>
  %b2 = graph.constant {value = dense<[-0.05607928, -0.7550279, -0.16160786, -0.01455028, 0.0339927]> : tensor<5xf32>} : () -> tensor<5xf32>
  %b = graph.sub %b1, %b2 : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %y = graph.add %m, %b : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  %s = graph.sigmoid %y : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %s : tensor<3x5xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x04000000193D213A2DF5183ECC5B0CBED4FDE3BE9CCA68BE8CDCFDBE2359F63C2C8C2B3F7E027CBE71D79EBE94CC7A3EE5B9363E6DE3573D2733EEBE85A16FBC64FFB13E390F2CBF9D4C6ABE445B73BF930F25BF"
    }
  }
#-}

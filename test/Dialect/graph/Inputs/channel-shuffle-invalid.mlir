func.func @bad_group(%x: tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf32> {
  // expected-error@+1 {{'graph.channel_shuffle' op expects 'group' to divide the 6 channels, got 4}}
  %s = graph.channel_shuffle %x {group = 4 : i64} : (tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf32>
  return %s : tensor<1x6x2x2xf32>
}

// -----

func.func @bad_resize(%x: tensor<1x6x2x2xf32>) -> tensor<1x6x4x4xf32> {
  // expected-error@+1 {{'graph.resize' op unsupported coordinate_transformation_mode "tf_crop_and_resize"}}
  %s = graph.resize %x {coordinate_transformation_mode = "tf_crop_and_resize", sizes = array<i64: 1, 6, 4, 4>} : (tensor<1x6x2x2xf32>) -> tensor<1x6x4x4xf32>
  return %s : tensor<1x6x4x4xf32>
}


"foo.lists"() {a = dense<[1, 2, 3]> : tensor<3xi32>, b = dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>,
  c = dense<[[[1.5], [-2.0]]]> : tensor<1x2x1xf32>, d = dense<[true, false, 1]> : tensor<3xi1>,
  e = dense<[-8, 7, 15, 0]> : tensor<4xi4>, f = dense<[15, 0]> : tensor<2xui4>, g = dense<[1, 2]> : tensor<2xi2>,
  h = dense<[0, 1]> : vector<2xindex>, i = dense<[-32768, 0x7FFF]> : tensor<2xi16>,
  j = dense<[1.0, 0x7C00]> : tensor<2xf16>, k = dense<[2.0, 0xFFC0]> : tensor<2xbf16>,
  l = dense<[-9223372036854775808, 18]> : tensor<2xi64>, m = dense<[0.1, 2.0]> : tensor<2xf64>} : () -> ()

"foo.splats"() {a = dense<0> : tensor<4x4xi32>, b = dense<1.0> : tensor<2x3xf32>, c = dense<true> : tensor<8xi1>,
  d = dense<[[7, 7], [7, 7]]> : tensor<2x2xi8>, e = dense<15> : tensor<3xi4>, f = dense<5> : tensor<i64>,
  g = dense<false> : vector<4xi1>} : () -> ()

"foo.empty"() {a = dense<> : tensor<0xf32>, b = dense<[[], []]> : tensor<2x0xi8>, c = dense<> : tensor<0x3xi1>,
  d = dense<4.0> : tensor<f64>} : () -> ()

"foo.hex"() {a = dense<"0x01000200"> : tensor<2xi16>, b = dense<"0x0000803F00000040"> : tensor<2xf32>,
  c = dense<"0xFFFFFFFF"> : tensor<3xi32>, d = dense<"0x0D"> : tensor<5xi1>, e = dense<"0xFF"> : tensor<9xi1>,
  f = dense<"0x01ff"> : tensor<2xi8>} : () -> ()

"foo.large"() {a = dense<[-50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50]> : tensor<101xi8>,
  b = dense<[false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true]> : tensor<101xi1>,
  c = dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5, 20.5, 21.5, 22.5, 23.5, 24.5, 25.5, 26.5, 27.5, 28.5, 29.5, 30.5, 31.5, 32.5, 33.5, 34.5, 35.5, 36.5, 37.5, 38.5, 39.5, 40.5, 41.5, 42.5, 43.5, 44.5, 45.5, 46.5, 47.5, 48.5, 49.5, 50.5, 51.5, 52.5, 53.5, 54.5, 55.5, 56.5, 57.5, 58.5, 59.5, 60.5, 61.5, 62.5, 63.5, 64.5, 65.5, 66.5, 67.5, 68.5, 69.5, 70.5, 71.5, 72.5, 73.5, 74.5, 75.5, 76.5, 77.5, 78.5, 79.5, 80.5, 81.5, 82.5, 83.5, 84.5, 85.5, 86.5, 87.5, 88.5, 89.5, 90.5, 91.5, 92.5, 93.5, 94.5, 95.5, 96.5, 97.5, 98.5, 99.5, 100.5]> : tensor<101xf32>,
  d = dense<0> : tensor<1000xi8>} : () -> ()

"foo.nested"() {a = [dense<1> : tensor<2xi8>, {x = dense<[1, 2]> : tensor<2xi32>}]} : () -> ()

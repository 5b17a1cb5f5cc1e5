// Dense elements: nested lists, splats, booleans, sub-byte integers, floats,
// empty tensors, hex blobs `dense<"0x...">` (i1 bit-packed as in MLIR), and
// more than 100 elements printing as hex.
// RUN: nc-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect %s | nc-opt --allow-unregistered-dialect | FileCheck %s
// RUN: nc-opt --allow-unregistered-dialect --mlir-print-op-generic %s | nc-opt --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: "foo.lists"
// CHECK-SAME: a = dense<[1, 2, 3]> : tensor<3xi32>
// CHECK-SAME: b = dense<{{\[\[}}1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>
// CHECK-SAME: c = dense<{{\[\[\[}}1.500000e+00], [-2.000000e+00]]]> : tensor<1x2x1xf32>
// CHECK-SAME: d = dense<[true, false, true]> : tensor<3xi1>
// CHECK-SAME: e = dense<[-8, 7, -1, 0]> : tensor<4xi4>
// CHECK-SAME: f = dense<[15, 0]> : tensor<2xui4>
// CHECK-SAME: g = dense<[1, -2]> : tensor<2xi2>
// CHECK-SAME: h = dense<[0, 1]> : vector<2xindex>
// CHECK-SAME: i = dense<[-32768, 32767]> : tensor<2xi16>
// CHECK-SAME: j = dense<[1.000000e+00, 0x7C00]> : tensor<2xf16>
// CHECK-SAME: k = dense<[2.000000e+00, 0xFFC0]> : tensor<2xbf16>
// CHECK-SAME: l = dense<[-9223372036854775808, 18]> : tensor<2xi64>
// CHECK-SAME: m = dense<[1.000000e-01, 2.000000e+00]> : tensor<2xf64>
"foo.lists"() {a = dense<[1, 2, 3]> : tensor<3xi32>, b = dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>,
  c = dense<[[[1.5], [-2.0]]]> : tensor<1x2x1xf32>, d = dense<[true, false, 1]> : tensor<3xi1>,
  e = dense<[-8, 7, 15, 0]> : tensor<4xi4>, f = dense<[15, 0]> : tensor<2xui4>, g = dense<[1, 2]> : tensor<2xi2>,
  h = dense<[0, 1]> : vector<2xindex>, i = dense<[-32768, 0x7FFF]> : tensor<2xi16>,
  j = dense<[1.0, 0x7C00]> : tensor<2xf16>, k = dense<[2.0, 0xFFC0]> : tensor<2xbf16>,
  l = dense<[-9223372036854775808, 18]> : tensor<2xi64>, m = dense<[0.1, 2.0]> : tensor<2xf64>} : () -> ()

// A literal with all-equal elements is stored (and printed) as a splat.
// CHECK-LABEL: "foo.splats"
// CHECK-SAME: a = dense<0> : tensor<4x4xi32>, b = dense<1.000000e+00> : tensor<2x3xf32>, c = dense<true> : tensor<8xi1>
// CHECK-SAME: d = dense<7> : tensor<2x2xi8>, e = dense<-1> : tensor<3xi4>, f = dense<5> : tensor<i64>, g = dense<false> : vector<4xi1>
"foo.splats"() {a = dense<0> : tensor<4x4xi32>, b = dense<1.0> : tensor<2x3xf32>, c = dense<true> : tensor<8xi1>,
  d = dense<[[7, 7], [7, 7]]> : tensor<2x2xi8>, e = dense<15> : tensor<3xi4>, f = dense<5> : tensor<i64>,
  g = dense<false> : vector<4xi1>} : () -> ()

// Empty tensors print `dense<>`; a rank-0 tensor holds one element.
// CHECK-LABEL: "foo.empty"
// CHECK-SAME: a = dense<> : tensor<0xf32>, b = dense<> : tensor<2x0xi8>, c = dense<> : tensor<0x3xi1>, d = dense<4.000000e+00> : tensor<f64>
"foo.empty"() {a = dense<> : tensor<0xf32>, b = dense<[[], []]> : tensor<2x0xi8>, c = dense<> : tensor<0x3xi1>,
  d = dense<4.0> : tensor<f64>} : () -> ()

// Hex blobs: raw little-endian bytes; a blob of one element is a splat. i1
// blobs are bit-packed (one byte 0x00/0xFF/0x01 is a splat).
// CHECK-LABEL: "foo.hex"
// CHECK-SAME: a = dense<[1, 2]> : tensor<2xi16>, b = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-SAME: c = dense<-1> : tensor<3xi32>, d = dense<[true, false, true, true, false]> : tensor<5xi1>
// CHECK-SAME: e = dense<true> : tensor<9xi1>, f = dense<[1, -1]> : tensor<2xi8>
"foo.hex"() {a = dense<"0x01000200"> : tensor<2xi16>, b = dense<"0x0000803F00000040"> : tensor<2xf32>,
  c = dense<"0xFFFFFFFF"> : tensor<3xi32>, d = dense<"0x0D"> : tensor<5xi1>, e = dense<"0xFF"> : tensor<9xi1>,
  f = dense<"0x01ff"> : tensor<2xi8>} : () -> ()

// More than 100 elements (not a splat) print as a hex blob, as in MLIR.
// CHECK-LABEL: "foo.large"
// CHECK-SAME: a = dense<"0xCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132"> : tensor<101xi8>
// CHECK-SAME: b = dense<"0xB66DDBB66DDBB66DDBB66DDB16"> : tensor<101xi1>
// CHECK-SAME: c = dense<"0x0000003F0000C03F
// CHECK-SAME: > : tensor<101xf32>
// CHECK-SAME: d = dense<0> : tensor<1000xi8>
"foo.large"() {a = dense<[-50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50]> : tensor<101xi8>,
  b = dense<[false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true]> : tensor<101xi1>,
  c = dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5, 20.5, 21.5, 22.5, 23.5, 24.5, 25.5, 26.5, 27.5, 28.5, 29.5, 30.5, 31.5, 32.5, 33.5, 34.5, 35.5, 36.5, 37.5, 38.5, 39.5, 40.5, 41.5, 42.5, 43.5, 44.5, 45.5, 46.5, 47.5, 48.5, 49.5, 50.5, 51.5, 52.5, 53.5, 54.5, 55.5, 56.5, 57.5, 58.5, 59.5, 60.5, 61.5, 62.5, 63.5, 64.5, 65.5, 66.5, 67.5, 68.5, 69.5, 70.5, 71.5, 72.5, 73.5, 74.5, 75.5, 76.5, 77.5, 78.5, 79.5, 80.5, 81.5, 82.5, 83.5, 84.5, 85.5, 86.5, 87.5, 88.5, 89.5, 90.5, 91.5, 92.5, 93.5, 94.5, 95.5, 96.5, 97.5, 98.5, 99.5, 100.5]> : tensor<101xf32>,
  d = dense<0> : tensor<1000xi8>} : () -> ()

// Dense elements are typed attributes and can appear anywhere an attribute can.
// CHECK-LABEL: "foo.nested"
// CHECK-SAME: {a = [dense<1> : tensor<2xi8>, {x = dense<[1, 2]> : tensor<2xi32>}]}
"foo.nested"() {a = [dense<1> : tensor<2xi8>, {x = dense<[1, 2]> : tensor<2xi32>}]} : () -> ()

// Integers whose width is not a power of two take ceil(width / 8) bytes in
// hex, as in MLIR (i24: 3 bytes, i34: 5), and hex values are sign-extended.
// CHECK-LABEL: "foo.odd_widths"
// CHECK-SAME: a = dense<[1, -1]> : tensor<2xi24>, b = dense<[1, -2]> : tensor<2xi34>, c = dense<-1> : tensor<3xi12>
// CHECK-SAME: d = dense<"0x
// CHECK-SAME: > : tensor<101xi24>
"foo.odd_widths"() {a = dense<"0x010000FFFFFF"> : tensor<2xi24>, b = dense<"0x0100000000FEFFFFFF03"> : tensor<2xi34>,
  c = dense<"0xFF0F"> : tensor<3xi12>, d = dense<[-8388608, -7388605, -6388602, -5388599, -4388596, -3388593, -2388590, -1388587, -388584, 611419, 1611422, 2611425, 3611428, 4611431, 5611434, 6611437, 7611440, -8165773, -7165770, -6165767, -5165764, -4165761, -3165758, -2165755, -1165752, -165749, 834254, 1834257, 2834260, 3834263, 4834266, 5834269, 6834272, 7834275, -7942938, -6942935, -5942932, -4942929, -3942926, -2942923, -1942920, -942917, 57086, 1057089, 2057092, 3057095, 4057098, 5057101, 6057104, 7057107, 8057110, -7720103, -6720100, -5720097, -4720094, -3720091, -2720088, -1720085, -720082, 279921, 1279924, 2279927, 3279930, 4279933, 5279936, 6279939, 7279942, 8279945, -7497268, -6497265, -5497262, -4497259, -3497256, -2497253, -1497250, -497247, 502756, 1502759, 2502762, 3502765, 4502768, 5502771, 6502774, 7502777, -8274436, -7274433, -6274430, -5274427, -4274424, -3274421, -2274418, -1274415, -274412, 725591, 1725594, 2725597, 3725600, 4725603, 5725606, 6725609, 7725612]> : tensor<101xi24>} : () -> ()

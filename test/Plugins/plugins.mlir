// Builds the example plugins of examples/plugins with the system C compiler
// against nc installed into %t (headers, libnc and nc.pc: the `dev`
// component), loads them into nc-opt and runs their pass and op in pipelines.
// RUN: rm -rf %t && mkdir -p %t/out
// RUN: %cmake --install %nc_build --prefix %t/prefix --component dev > %t/install.log
// RUN: env PKG_CONFIG_PATH=%t/prefix/lib/pkgconfig make -s -C %nc_src/examples/plugins OUT=%t/out CC=%cc
// RUN: nc-opt --load-pass-plugin=%t/out/count_ops.so --load-dialect-plugin=%t/out/clamp_dialect.so %s \
// RUN:   --pass-pipeline='builtin.module(func.func(example-count-ops{op-name=arith.addi},canonicalize,example-count-ops))' \
// RUN:   --mlir-pass-statistics 2>&1 | FileCheck %s
// Legacy pass flags work for plugin passes (the plugin is loaded first):
// RUN: nc-opt -load-pass-plugin %t/out/count_ops.so --load-dialect-plugin %t/out/clamp_dialect.so %s \
// RUN:   -example-count-ops | FileCheck %s --check-prefix=LEGACY
// Generic output re-parses, in another process, with the plugin loaded:
// RUN: nc-opt --load-dialect-plugin=%t/out/clamp_dialect.so %s --mlir-print-op-generic \
// RUN:   | nc-opt --load-dialect-plugin=%t/out/clamp_dialect.so - | FileCheck %s --check-prefix=ROUND
// The plugins show in --help, --show-dialects and the dialect docs:
// RUN: nc-opt --load-pass-plugin=%t/out/count_ops.so --help | FileCheck %s --check-prefix=HELP
// RUN: nc-opt --load-dialect-plugin=%t/out/clamp_dialect.so --show-dialects | FileCheck %s --check-prefix=DIALECTS
// RUN: nc-opt --load-dialect-plugin=%t/out/clamp_dialect.so --dump-dialect-docs=example | FileCheck %s --check-prefix=DOCS
// The op's verifier (lo <= hi) runs on plugin ops:
// RUN: nc-opt --load-dialect-plugin=%t/out/clamp_dialect.so %S/Inputs/invalid-clamp.mlir --split-input-file --verify-diagnostics
// Without the plugin, the op is unknown:
// RUN: not nc-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// The statistics (summed over @f and @g) come first; the first count
// (arith.addi only) is then overwritten by the second (every op, after
// canonicalize folded the clamp of a constant into arith.constant 255).
// CHECK:       'func.func' Pipeline
// CHECK-NEXT:    ExampleCountOps
// CHECK-NEXT:      (S) 2 num-ops - Number of ops counted
// CHECK-NEXT:    Canonicalizer
// CHECK:           (S) 1 num-folds
// CHECK:         ExampleCountOps
// CHECK-NEXT:      (S) 6 num-ops - Number of ops counted
// CHECK-LABEL: func.func @f(%arg0: i32, %arg1: i32) -> i32 attributes {example.num_ops = 5 : i64} {
// CHECK-NEXT:    %0 = arith.constant 255 : i32
// CHECK-NEXT:    %1 = arith.addi %arg0, %0 : i32
// CHECK-NEXT:    %2 = arith.addi %1, %arg1 : i32
// CHECK-NEXT:    %3 = example.clamp %2[-8, 7] : i32
// CHECK-NEXT:    return %3 : i32
// CHECK-LABEL: func.func @g() attributes {example.num_ops = 1 : i64} {

// LEGACY: func.func @f(%arg0: i32, %arg1: i32) -> i32 attributes {example.num_ops = 6 : i64} {
// LEGACY: example.clamp %0[0, 255] : i32
// LEGACY: func.func @g() attributes {example.num_ops = 1 : i64} {

// ROUND:      %1 = example.clamp %0[0, 255] : i32
// ROUND:      %4 = example.clamp %3[-8, 7] : i32

// HELP:      Example plugin passes:
// HELP-NEXT:   --example-count-ops - Record the number of ops of each function as example.num_ops (on func.func)
// HELP-NEXT:     --op-name=<string> - Count only ops of this name

// DIALECTS: Available Dialects: {{.*}}, example

// DOCS: example.clamp
// DOCS: Clamps an integer to [lo, hi]

// NOPLUGIN: error: {{.*}}example.clamp

func.func @f(%a: i32, %b: i32) -> i32 {
  %c = arith.constant 300 : i32
  %0 = example.clamp %c [0, 255] : i32
  %1 = arith.addi %a, %0 : i32
  %2 = arith.addi %1, %b : i32
  %3 = example.clamp %2 [-8, 7] : i32
  return %3 : i32
}

func.func @g() {
  return
}

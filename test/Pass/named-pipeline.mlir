// A named pipeline is registered under one name with options of its own and
// expands to passes where it is used (how a target registers its lowering).
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(test-named-pipeline{count=2 max-iterations=3},symbol-dce)' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=EXPAND --match-full-lines
// EXPAND:Pass Manager with 3 passes:
// EXPAND-NEXT:builtin.module(func.func(canonicalize{max-iterations=3 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},cse),func.func(canonicalize{max-iterations=3 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},cse),symbol-dce)
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(test-named-pipeline{cse=false}))' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=NESTED --match-full-lines
// NESTED:builtin.module(func.func(canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}))
// As a legacy flag, with its options.
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect -test-named-pipeline='count=2' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=LEGACY --match-full-lines
// LEGACY:Pass Manager with 2 passes:
// It runs: cse merges the duplicate pure op.
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(test-named-pipeline)' | FileCheck %s
// CHECK: func.func @f(%arg0: i32) -> (i64, i64) {
// CHECK-NEXT:  %0 = unrealized_conversion_cast %arg0 : i32 to i64
// CHECK-NEXT:  return %0, %0 : i64, i64

func.func @f(%a: i32) -> (i64, i64) {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  %1 = builtin.unrealized_conversion_cast %a : i32 to i64
  return %0, %1 : i64, i64
}

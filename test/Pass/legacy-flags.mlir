// Passes as legacy flags, as in mlir-opt: -canonicalize -cse become
// builtin.module(canonicalize,cse); options go after `=`; passes anchored on
// other ops are nested implicitly. Mixing with --pass-pipeline is an error.
// RUN: nc-opt --enable-test-passes %s -canonicalize -cse --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=BASIC --match-full-lines
// BASIC:Pass Manager with 2 passes:
// BASIC-NEXT:builtin.module(canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},cse)
// RUN: nc-opt --enable-test-passes %s -canonicalize='max-iterations=3 top-down=false' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=OPTS --match-full-lines
// OPTS:builtin.module(canonicalize{max-iterations=3 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=false})
// RUN: nc-opt --enable-test-passes %s --test-function-pass -test-function-pass -cse -test-function-pass -test-module-pass --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=NEST --match-full-lines
// NEST:Pass Manager with 4 passes:
// NEST-NEXT:builtin.module(func.func(test-function-pass,test-function-pass),cse,func.func(test-function-pass),test-module-pass{mark-unchanged=false})
// RUN: not nc-opt --enable-test-passes %s -cse --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=MIX
// MIX: nc-opt: '--pass-pipeline' cannot be used with individual pass flags
// RUN: not nc-opt --enable-test-passes %s -canonicalize='max-iteration=3' 2>&1 | FileCheck %s --check-prefix=BAD-OPT
// BAD-OPT: error: no such option 'max-iteration' for 'canonicalize'; did you mean 'max-iterations'?
// RUN: not nc-opt --enable-test-passes %s -canonicalise 2>&1 | FileCheck %s --check-prefix=TYPO
// TYPO: nc-opt: unknown option '-canonicalise'; did you mean '--canonicalize'?
// Legacy passes run like the pipeline they stand for.
// RUN: nc-opt --enable-test-passes %s -cse | FileCheck %s
// CHECK: %0 = unrealized_conversion_cast %arg0 : i32 to i64
// CHECK-NEXT: return %0, %0 : i64, i64

func.func @f(%a: i32) -> (i64, i64) {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  %1 = builtin.unrealized_conversion_cast %a : i32 to i64
  return %0, %1 : i64, i64
}

// --dump-pass-pipeline prints the fully expanded pipeline with every option
// (to stderr, like mlir-opt), and that text parses back to the same pipeline.
// RUN: nc-opt --enable-test-passes %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=2 disable-patterns=a,b},cse),test-named-pipeline{count=1},inline{default-pipeline={cse}},view-op-graph{max-label-len=5},any(strip-debuginfo),print-op-stats{json})' --dump-pass-pipeline -o /dev/null 2> %t.first
// RUN: FileCheck %s --input-file=%t.first --match-full-lines
// CHECK:Pass Manager with 6 passes:
// CHECK-NEXT:builtin.module(func.func(canonicalize{disable-patterns=a,b max-iterations=2 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},cse),func.func(canonicalize{max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true},cse),inline{default-pipeline={cse}},view-op-graph{level=op max-label-len=5 print-attrs=true print-control-flow-edges=false print-data-flow-edges=true print-result-types=true},any(strip-debuginfo),print-op-stats{json=true})
// CHECK-EMPTY:
// The printed pipeline, given back, prints the same.
// RUN: sed -n 2p %t.first | xargs -d '\n' -I PIPELINE nc-opt --enable-test-passes %s --pass-pipeline=PIPELINE --dump-pass-pipeline -o /dev/null 2> %t.second
// RUN: diff %t.first %t.second

func.func @f() {
  return
}

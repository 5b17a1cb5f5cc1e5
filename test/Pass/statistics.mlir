// --mlir-pass-statistics reports every pass's statistics after the run, in
// mlir-opt's format: the pipeline's structure (default) or a list merged by
// pass name; statistics sorted by name, values and names aligned. Each
// --split-input-file chunk gets its own report.
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,test-stats-pass),symbol-dce,test-stats-pass)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE --strict-whitespace --match-full-lines
// PIPELINE:===-------------------------------------------------------------------------===
// PIPELINE-NEXT:                         ... Pass statistics report ...
// PIPELINE-NEXT:===-------------------------------------------------------------------------===
// PIPELINE-NEXT:'func.func' Pipeline
// PIPELINE-NEXT:  CSE
// PIPELINE-NEXT:    (S) 1 num-cse'd - Number of operations CSE'd
// PIPELINE-NEXT:    (S) 0 num-dce'd - Number of operations DCE'd
// PIPELINE-NEXT:  TestStatisticPass
// PIPELINE-NEXT:    (S) 9 num-ops  - Number of operations counted
// PIPELINE-NEXT:    (S) 9 num-ops2 - Number of operations counted one more time
// PIPELINE-NEXT:SymbolDCE
// PIPELINE-NEXT:  (S) 1 num-dce'd - Number of symbols DCE'd
// PIPELINE-NEXT:TestStatisticPass
// PIPELINE-NEXT:  (S) 8 num-ops  - Number of operations counted
// PIPELINE-NEXT:  (S) 8 num-ops2 - Number of operations counted one more time
// PIPELINE-EMPTY:
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,test-stats-pass),symbol-dce,test-stats-pass)' --mlir-pass-statistics --mlir-pass-statistics-display=list -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST --strict-whitespace --match-full-lines
// LIST:===-------------------------------------------------------------------------===
// LIST-NEXT:                         ... Pass statistics report ...
// LIST-NEXT:===-------------------------------------------------------------------------===
// LIST-NEXT:  CSE
// LIST-NEXT:    (S) 1 num-cse'd - Number of operations CSE'd
// LIST-NEXT:    (S) 0 num-dce'd - Number of operations DCE'd
// LIST-NEXT:  SymbolDCE
// LIST-NEXT:    (S) 1 num-dce'd - Number of symbols DCE'd
// LIST-NEXT:  TestStatisticPass
// LIST-NEXT:    (S) 17 num-ops  - Number of operations counted
// LIST-NEXT:    (S) 17 num-ops2 - Number of operations counted one more time
// LIST-EMPTY:
// Threads do not change the numbers.
// RUN: env NC_NUM_THREADS=4 nc-opt --enable-test-passes %s --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(cse,test-stats-pass),symbol-dce,test-stats-pass)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE --strict-whitespace --match-full-lines
// RUN: not nc-opt --enable-test-passes %s --mlir-pass-statistics-display=tree 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: nc-opt: --mlir-pass-statistics-display must be 'list' or 'pipeline'
// Per chunk: the second chunk counts only its own ops.
// RUN: nc-opt --enable-test-passes %s --allow-unregistered-dialect --split-input-file --pass-pipeline='builtin.module(test-stats-pass)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: (S) 8 num-ops
// SPLIT: (S) 4 num-ops

func.func @f(%a: i32) -> i64 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  %1 = builtin.unrealized_conversion_cast %a : i32 to i64
  "foo.use"(%1) : (i64) -> ()
  return %0 : i64
}
func.func private @unused() {
  return
}

// -----

func.func @g() {
  "foo.op"() : () -> ()
  return
}

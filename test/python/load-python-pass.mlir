// nc-opt --load-python-pass=file.py: a pass written in Python runs in a
// pipeline next to C passes (cse), with its options and statistics, in
// parallel over functions; errors it raises carry the op's location.
// REQUIRES: python-bindings
// CPython keeps allocations at exit: no leak check in the sanitized build.
// RUN: env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 nc-opt %s --load-python-pass=%S/Inputs/forward_identity.py --pass-pipeline='builtin.module(func.func(py-forward-identity,cse))' --mlir-pass-statistics 2>%t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 nc-opt %s --load-python-pass %S/Inputs/forward_identity.py -py-forward-identity='max-forwards=1' | FileCheck %s --check-prefix=ONE
// RUN: env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 nc-opt --load-python-pass=%S/Inputs/forward_identity.py --help | FileCheck %s --check-prefix=HELP
// RUN: env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 not nc-opt %s --load-python-pass=%S/Inputs/forward_identity.py --pass-pipeline='builtin.module(func.func(py-forward-identity{max-forwards=-2}))' 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 not nc-opt %s --load-python-pass=%S/Inputs/raising_pass.py --pass-pipeline='builtin.module(func.func(py-reject-adds))' 2>&1 | FileCheck %s --check-prefix=RAISE
// RUN: env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 not nc-opt %s --load-python-pass=%S/Inputs/broken_pass.py 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 not nc-opt %s --load-python-pass=%t.missing.py 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 not nc-opt %s --load-python-pass 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 NC_PYTHON_LOADER=%t.noloader.so not nc-opt %s --load-python-pass=%S/Inputs/forward_identity.py 2>&1 | FileCheck %s --check-prefix=NOLOADER

// CHECK-LABEL: func.func @f(
// CHECK-NEXT:    %[[A:.*]] = graph.add %arg0, %arg0
// CHECK-NEXT:    %[[M:.*]] = graph.mul %[[A]], %[[A]]
// CHECK-NEXT:    return %[[M]]
// CHECK-LABEL: func.func @g(
// CHECK-NOT:     graph.identity
// CHECK:         return

// STATS:      'func.func' Pipeline
// STATS-NEXT:   ForwardIdentity
// STATS-NEXT:     (S) 3 num-forwarded - Number of graph.identity ops forwarded
// STATS-NEXT:   CSE
// STATS-NEXT:     (S) 1 num-cse'd

// ONE-LABEL: func.func @f(
// ONE-COUNT-1: graph.identity
// ONE-LABEL: func.func @g(
// ONE-NOT:   graph.identity

// HELP:      Python passes:
// HELP-NEXT:   --py-forward-identity {{.*}}Forward graph.identity operands to their uses (written in Python) (on func.func)
// HELP-NEXT:     --max-forwards=<int> {{.*}}Forward at most this many per function (-1: all) (default: -1)

// BADOPT: error: {{.*}}max-forwards

// RAISE: load-python-pass.mlir:[[# @LINE + 14]]:8: error: graph.add is not supported here
// RAISE: load-python-pass.mlir:[[# @LINE + 10]]:1: note: in this function

// BROKEN: nc-opt: error: cannot load Python passes from '{{.*}}broken_pass.py': RuntimeError: this file does not load

// MISSING: nc-opt: error: cannot load Python passes from '{{.*}}missing.py': FileNotFoundError

// NOFILE: nc-opt: error: option '--load-python-pass' requires a Python file

// NOLOADER: nc-opt: error: --load-python-pass needs the Python loader '{{.*}}noloader.so'

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.identity %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.identity %x : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.add %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.mul %2, %3 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}

func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.identity %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

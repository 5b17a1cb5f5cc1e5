// core-spread-links: whole cores swap so that the busiest mesh link carries
// less. Inputs/spread-links.mlir is core-schedule's output for a 2x4 grid
// with pool1 and flatten1 moved by hand to (2, 1) and (1, 0): conv1's sends
// (0, 0) -> pool1 and flatten1's (1, 0) -> matmul1 (3, 0) then share the
// eastward link out of (1, 0): 4 + 2 port cycles per frame. Swapping the
// two cores gives every flow its own links (conv1's 4 is then the most);
// conv1 and matmul1 talk to the host and stay. Every recv and send naming a
// moved core names its new place.
// RUN: nc-opt --core-spread-links %S/Inputs/spread-links.mlir | FileCheck %s
// RUN: nc-opt --core-spread-links --mlir-pass-statistics %S/Inputs/spread-links.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// iterations=0: nothing moves.
// RUN: nc-opt --pass-pipeline='builtin.module(core-spread-links{iterations=0})' %S/Inputs/spread-links.mlir | FileCheck %s --check-prefix=KEEP
// radius=0: no core may move.
// RUN: nc-opt --pass-pipeline='builtin.module(core-spread-links{radius=0})' %S/Inputs/spread-links.mlir | FileCheck %s --check-prefix=KEEP
// The northpole pipeline runs it (and --spread-links=false leaves it out).
// RUN: nc-compile %nc_src/examples/digits/digits_cnn.onnx --calibration=%nc_src/examples/digits/train_x.npy --max-samples=4 --dump-pass-pipeline --emit=core -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: nc-compile %nc_src/examples/digits/digits_cnn.onnx --calibration=%nc_src/examples/digits/train_x.npy --max-samples=4 --spread-links=false --dump-pass-pipeline --emit=core -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPIPE

// STATS:      CoreSpreadLinks
// STATS-NEXT: (S) 1 core-swaps
// STATS-NEXT: (S) 4 max-link-load-after
// STATS-NEXT: (S) 6 max-link-load-before

// CHECK:      core.tile {node = "conv1", x = 0 : i64, y = 0 : i64}
// CHECK:        core.send {bytes = 8 : i64, iter = 0 : i64, to = array<i64: 1, 0>}
// CHECK:      core.tile {node = "pool1", x = 1 : i64, y = 0 : i64}
// CHECK:        core.recv {from = array<i64: 0, 0>, iter = 0 : i64, operand = 0 : i64}
// CHECK:        core.send {bytes = 4 : i64, iter = 0 : i64, to = array<i64: 2, 1>}
// CHECK:      core.tile {node = "flatten1", x = 2 : i64, y = 1 : i64}
// CHECK:        core.recv {from = array<i64: 1, 0>, iter = 0 : i64, operand = 0 : i64}
// CHECK:        core.send {bytes = 4 : i64, iter = 0 : i64, to = array<i64: 3, 0>}
// CHECK:      core.tile {node = "matmul1", x = 3 : i64, y = 0 : i64}
// CHECK:        core.recv {from = array<i64: 2, 1>, iter = 0 : i64, operand = 0 : i64}

// KEEP: core.tile {node = "pool1", x = 2 : i64, y = 1 : i64}
// KEEP: core.tile {node = "flatten1", x = 1 : i64, y = 0 : i64}

// PIPE: core-multicast,core-spread-links{{.*}},core-plan-memory
// NOPIPE-NOT: core-spread-links

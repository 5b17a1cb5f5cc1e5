// core-spread-links costs a send that runs on some frames (`frames = r, n`)
// by its share of them: 64 bytes at 32 bytes per cycle is 2 cycles on each
// link of its route, over every third frame 2/3 of a cycle per frame. The
// search works in integer units (here sixths of a cycle: the lcm of the
// periods 3 and 2), so the three thirds of (2, 2)'s sends to (4, 2) add up to
// exactly 2 cycles per frame on each of the two eastward links, and the send
// to (2, 4) on every second frame, 1 cycle, to 1/2 on each of the two
// southward links: the busiest link 2, all links 2 x 2 + 2 x 1/2 = 5. Costs
// cut to whole cycles per frame would give 0 for each send.
// RUN: nc-opt --pass-pipeline='builtin.module(core-spread-links{iterations=0})' --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s
// CHECK:      CoreSpreadLinks
// CHECK-NEXT: (S) 2 max-link-cycles
// CHECK-NEXT: (S) 2 max-link-cycles-initial
// CHECK-NEXT: (S) 0 swaps
// CHECK-NEXT: (S) 5 total-link-cycles
// CHECK-NEXT: (S) 5 total-link-cycles-initial
// The swaps then bring b and c next to a (the search compares exact integer
// sums of the loads' fourth powers): one link each, 2 + 1/2 = 2.5 cycles per
// frame in all (printed rounded, 3).
// RUN: nc-opt --core-spread-links --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s --check-prefix=SWAP
// SWAP:      CoreSpreadLinks
// SWAP-NEXT: (S) 2 max-link-cycles
// SWAP-NEXT: (S) 2 max-link-cycles-initial
// SWAP-NEXT: (S) {{[1-9][0-9]*}} swaps
// SWAP-NEXT: (S) 3 total-link-cycles
// SWAP-NEXT: (S) 5 total-link-cycles-initial
module attributes {nc.chip = #core.desc<name = "tiny", rows = 5, cols = 5, sram_bytes = 1024, ops_per_cycle = array<i64: 8, 2048>, hop_latency_cycles = 1, link_bytes_per_cycle = 32, clock_hz = 4.0e+08>} {
  core.chip {rows = 5 : i64, cols = 5 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
    core.tile {x = 2 : i64, y = 2 : i64, node = "a"} ({
      core.program ({
        core.send {to = array<i64: 4, 2>, iter = 0 : i64, bytes = 64 : i64, frames = array<i64: 0, 3>}
        core.send {to = array<i64: 4, 2>, iter = 0 : i64, bytes = 64 : i64, frames = array<i64: 1, 3>}
        core.send {to = array<i64: 4, 2>, iter = 0 : i64, bytes = 64 : i64, frames = array<i64: 2, 3>}
        core.send {to = array<i64: 2, 4>, iter = 0 : i64, bytes = 32 : i64, frames = array<i64: 1, 2>}
      })
    })
    core.tile {x = 4 : i64, y = 2 : i64, node = "b"} ({
      core.program ({
      })
    })
    core.tile {x = 2 : i64, y = 4 : i64, node = "c"} ({
      core.program ({
      })
    })
  }) : () -> ()
}

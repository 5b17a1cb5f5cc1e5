// core-spread-links counts in integer units of a cycle per frame: the lcm of
// the frame periods, unless the loads' fourth powers could then overflow the
// 128 bits a swap's gain is summed in. Here the periods 16, 15, 13, 11 and 7
// (lcm 240,240) and 8,192 cycles a message (262,144 bytes at 32 bytes per
// cycle) would overflow, so the unit is a power of two of a cycle (2^-16)
// and costs are rounded to it. Per frame: to (4, 2) 8192/16 = 512 on two
// eastward links, to (2, 4) 8192/15 = 546.13 on two southward, to (0, 2)
// 8192/13 = 630.15 on two westward, to (2, 0) 8192/11 = 744.73 on two
// northward, to (3, 3) 8192/7 = 1170.29 east then south. The busiest link,
// east out of (2, 2): 512 + 1170.29 = 1682.29; all links 2 x 3603.30 = 7206.6
// (printed rounded).
// RUN: nc-opt --pass-pipeline='builtin.module(core-spread-links{iterations=0})' --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s
// CHECK:      CoreSpreadLinks
// CHECK-NEXT: (S) 1682 max-link-cycles
// CHECK-NEXT: (S) 1682 max-link-cycles-initial
// CHECK-NEXT: (S)    0 swaps
// CHECK-NEXT: (S) 7207 total-link-cycles
// CHECK-NEXT: (S) 7207 total-link-cycles-initial
module attributes {nc.chip = #core.desc<name = "tiny", rows = 5, cols = 5, sram_bytes = 1024, ops_per_cycle = array<i64: 8, 2048>, hop_latency_cycles = 1, link_bytes_per_cycle = 32, clock_hz = 4.0e+08>} {
  core.chip {rows = 5 : i64, cols = 5 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
    core.tile {x = 2 : i64, y = 2 : i64, node = "a"} ({
      core.program ({
        core.send {to = array<i64: 4, 2>, iter = 0 : i64, bytes = 262144 : i64, frames = array<i64: 0, 16>}
        core.send {to = array<i64: 2, 4>, iter = 0 : i64, bytes = 262144 : i64, frames = array<i64: 0, 15>}
        core.send {to = array<i64: 0, 2>, iter = 0 : i64, bytes = 262144 : i64, frames = array<i64: 0, 13>}
        core.send {to = array<i64: 2, 0>, iter = 0 : i64, bytes = 262144 : i64, frames = array<i64: 0, 11>}
        core.send {to = array<i64: 3, 3>, iter = 0 : i64, bytes = 262144 : i64, frames = array<i64: 0, 7>}
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
    core.tile {x = 0 : i64, y = 2 : i64, node = "d"} ({
      core.program ({
      })
    })
    core.tile {x = 2 : i64, y = 0 : i64, node = "e"} ({
      core.program ({
      })
    })
    core.tile {x = 3 : i64, y = 3 : i64, node = "f"} ({
      core.program ({
      })
    })
  }) : () -> ()
}

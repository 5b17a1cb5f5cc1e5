// core-spread-links loads a multicast group's XY route tree once per link,
// not once per destination path. The core at (2, 2) multicasts 64 bytes
// (2 cycles per link at 32 bytes per cycle) to (4, 0), (4, 4), (0, 3) and
// (2, 0); XY routes go along the row first. The tree: east (2,2)-(4,2) and
// west (2,2)-(0,2), 2 links each; column 4 north to y 0 and south to y 4, 2
// links each; column 0 south to y 3, 1 link; column 2 north to y 0, 2 links:
// 11 links x 2 = 22 cycles, each link 2. Counting each path on its own would
// give 26 and 4 on (2,2)'s eastward link, which two paths take. (1, 2)'s send
// to (3, 2) adds 2 links (eastward (1,2) and (2,2)): (2,2)'s eastward link
// then carries 4, the total 26. With iterations=0 nothing moves.
// RUN: nc-opt --pass-pipeline='builtin.module(core-spread-links{iterations=0})' --mlir-pass-statistics %s 2>&1 >/dev/null | FileCheck %s
// CHECK:      CoreSpreadLinks
// CHECK-NEXT: (S)  4 max-link-cycles
// CHECK-NEXT: (S)  4 max-link-cycles-initial
// CHECK-NEXT: (S)  0 swaps
// CHECK-NEXT: (S) 26 total-link-cycles
// CHECK-NEXT: (S) 26 total-link-cycles-initial
module attributes {nc.chip = #core.desc<name = "tiny", rows = 5, cols = 5, sram_bytes = 1024, ops_per_cycle = array<i64: 8, 2048>, hop_latency_cycles = 1, link_bytes_per_cycle = 32, clock_hz = 4.0e+08>} {
  core.chip {rows = 5 : i64, cols = 5 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
    core.tile {x = 2 : i64, y = 2 : i64, node = "a"} ({
      core.program ({
        core.send {to = array<i64: 4, 0>, iter = 0 : i64, bytes = 64 : i64, multicast}
        core.send {to = array<i64: 4, 4>, iter = 0 : i64, bytes = 64 : i64, multicast}
        core.send {to = array<i64: 0, 3>, iter = 0 : i64, bytes = 64 : i64, multicast}
        core.send {to = array<i64: 2, 0>, iter = 0 : i64, bytes = 64 : i64}
      })
    })
    core.tile {x = 1 : i64, y = 2 : i64, node = "e"} ({
      core.program ({
        core.send {to = array<i64: 3, 2>, iter = 0 : i64, bytes = 64 : i64}
      })
    })
    core.tile {x = 4 : i64, y = 0 : i64, node = "b"} ({
      core.program ({
      })
    })
    core.tile {x = 4 : i64, y = 4 : i64, node = "c"} ({
      core.program ({
      })
    })
    core.tile {x = 0 : i64, y = 3 : i64, node = "d"} ({
      core.program ({
      })
    })
    core.tile {x = 2 : i64, y = 0 : i64, node = "f"} ({
      core.program ({
      })
    })
    core.tile {x = 3 : i64, y = 2 : i64, node = "g"} ({
      core.program ({
      })
    })
  }) : () -> ()
}

// core-multicast groups the sends of one iteration whatever frames they run
// on: core-replicate's sends to a copy (frames = [r, n]) join the sends to the
// other consumers, and each frame's multicast goes to the members that run on
// it (the simulator; test/e2e/replicate.test runs such groups bit-exactly).
// RUN: nc-opt %s --core-multicast | FileCheck %s
// CHECK: core.send {bytes = 4 : i64, frames = array<i64: 0, 2>, iter = 0 : i64, multicast, to = array<i64: 1, 0>}
// CHECK-NEXT: core.send {bytes = 4 : i64, frames = array<i64: 1, 2>, iter = 0 : i64, multicast, to = array<i64: 2, 0>}
// CHECK-NEXT: core.send {bytes = 4 : i64, iter = 0 : i64, to = array<i64: 0, 1>}
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      core.send {to = array<i64: 1, 0>, iter = 0 : i64, bytes = 4 : i64, frames = array<i64: 0, 2>}
      core.send {to = array<i64: 2, 0>, iter = 0 : i64, bytes = 4 : i64, frames = array<i64: 1, 2>}
      core.send {to = array<i64: 0, 1>, iter = 0 : i64, bytes = 4 : i64}
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "b", replica = array<i64: 0, 2>} ({
    core.program ({
    })
  })
  core.tile {x = 2 : i64, y = 0 : i64, node = "b", replica = array<i64: 1, 2>} ({
    core.program ({
    })
  })
  core.tile {x = 0 : i64, y = 1 : i64, node = "c"} ({
    core.program ({
    })
  })
}) : () -> ()

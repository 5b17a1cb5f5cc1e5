// Tiles sharing a core (core.tile slot, endpoints array<i64: x, y, slot>,
// docs/dialects/core.md): slots in range and unique on a core, endpoints
// naming an existing tile's slot, and disjoint SRAM for the tiles of a core.
// RUN: nc-opt --split-input-file --verify-diagnostics %s

// Two tiles on one core are fine in distinct slots; the same slot twice is not.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 1 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
    })
  })
  // expected-note@+1 {{the other tile}}
  core.tile {x = 1 : i64, y = 0 : i64, slot = 1 : i64, node = "b"} ({
    core.program ({
    })
  })
  // expected-error@+1 {{'core.tile' op is placed in slot 1 of core (1, 0), which already holds a tile of 'b' there}}
  core.tile {x = 1 : i64, y = 0 : i64, slot = 1 : i64, node = "c"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  // expected-error@+1 {{'core.tile' op the tile's slot 64 must be between 0 and 63}}
  core.tile {x = 1 : i64, y = 0 : i64, slot = 64 : i64, node = "a"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A send to a slot of a core that holds no tile there.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.send' op sends to (1, 0) slot 2, where the chip has no tile}}
      core.send {to = array<i64: 1, 0, 2>, iter = 0 : i64, bytes = 4 : i64}
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, node = "b"} ({
    core.program ({
    })
  })
  core.tile {x = 1 : i64, y = 0 : i64, slot = 1 : i64, node = "c"} ({
    core.program ({
    })
  })
}) : () -> ()

// -----

// A tile sends to another tile of its own core (another slot), not to itself.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      core.send {to = array<i64: 0, 0, 1>, iter = 0 : i64, bytes = 4 : i64}
    })
  })
  core.tile {x = 0 : i64, y = 0 : i64, slot = 1 : i64, node = "b"} ({
    core.program ({
      // expected-error@+1 {{'core.send' op sends to its own tile (0, 0)}}
      core.send {to = array<i64: 0, 0, 1>, iter = 0 : i64, bytes = 4 : i64}
    })
  })
}) : () -> ()

// -----

// The host has no slot.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.recv' op from names the host (-1, -1), which has no slot (1)}}
      core.recv {from = array<i64: -1, -1, 1>, operand = 0 : i64, iter = 0 : i64}
    })
  })
}) : () -> ()

// -----

core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    core.program ({
      // expected-error@+1 {{'core.send' op attribute 'to' failed to satisfy constraint: i64 dense array attribute of 2 or 3 elements}}
      core.send {to = array<i64: 1, 0, 0, 0>, iter = 0 : i64, bytes = 4 : i64}
    })
  })
}) : () -> ()

// -----

// Tiles sharing a core run interleaved: their buffers may not share bytes,
// even where each tile's own buffers could by their lifetimes.
core.chip {rows = 2 : i64, cols = 3 : i64, sram_bytes = 1024 : i64, target = "tiny"} ({
  core.tile {x = 0 : i64, y = 0 : i64, node = "a"} ({
    // expected-note@+1 {{the other buffer}}
    core.buffer {name = "weights", kind = "weights", bytes = 100 : i64, offset = 0 : i64}
    core.program ({
    })
  })
  core.tile {x = 0 : i64, y = 0 : i64, slot = 1 : i64, node = "b"} ({
    // expected-error@+1 {{'core.buffer' op buffer 'weights' at [64, 164) overlaps buffer 'weights' at [0, 100) of tile 'a', which shares the core}}
    core.buffer {name = "weights", kind = "weights", bytes = 100 : i64, offset = 64 : i64}
    core.program ({
    })
  })
}) : () -> ()

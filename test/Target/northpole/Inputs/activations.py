# activations.py: models at NorthPole's NP_MAX_ACTIVATIONS bound (np_limits.h:
# the operand and result elements of every tile, summed, that the simulator
# holds), written at the core level by hand so that nothing allocates them
# (activation-limit.test).
#   activations.py module N H W OUT   N copy nodes reading the one input
#                                     [1, 1, H, W], each its own output
#                                     (one tile each), as core-level IR
#   activations.py widen IN OUT H W   rewrites a binary of `module`: the input
#                                     [1, 1, H, W] and the outputs [1, H W] in
#                                     the header and every tile (checksums
#                                     fixed)
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncb  # noqa: E402

CHIP = ('#core.desc<name = "northpole", rows = 16, cols = 16, sram_bytes = 786432, ops_per_cycle = array<i64: 2, '
        '8192, 4, 4096, 8, 2048>, hop_latency_cycles = 1, link_bytes_per_cycle = 32, clock_hz = 4.0e+08>')


def module(n, h, w, out):
    x = "tensor<1x1x%dx%d%%s>" % (h, w)
    y = "tensor<1x%d%%s>" % (h * w)
    io_in = '{argument = 0 : i64, bits = 8 : i64, name = "input0", scale = 1.0 : f64, zero_point = 0 : i64}'
    io_out = ", ".join('{bits = 8 : i64, name = "output%d", result = %d : i64, scale = 1.0 : f64, zero_point = 0 : '
                       'i64}' % (i, i) for i in range(n))
    lines = ['module attributes {nc.chip = %s, nc.target = "northpole"} {' % CHIP,
             '  func.func @big(%%x: %s) -> (%s) attributes {dataflow.io = {inputs = [%s], outputs = [%s]}} {'
             % (x % "xf32", ", ".join([y % "xf32"] * n), io_in, io_out),
             '    %s = graph.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>',
             '    %z = graph.constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>',
             '    %%q = graph.quantize_linear %%x, %%s, %%z : (%s, tensor<f32>, tensor<i8>) -> %s'
             % (x % "xf32", x % "xi8")]
    for i in range(n):
        lines += ['    %%n%d = dataflow.node "copy%d"(%%q) {buffer_elements = array<i64: %d>, control = '
                  '[#dataflow.map<"{ P[y] -> S[y\' = y] : 0 <= y < %d }">], domain = #dataflow.set<"{ S[y] : 0 <= y '
                  '< %d }">, earliest = [#dataflow.map<"{ S[y] -> P[y\' = y] : 0 <= y < %d }">], kind = "copy", macs '
                  '= 0 : i64, reads = [#dataflow.map<"{ S[y] -> In0[c = 0, y, x] : 0 <= y < %d and 0 <= x < %d }">], '
                  'writes = #dataflow.map<"{ S[y] -> Out[i] : 0 <= y < %d and %dy <= i < %d + %dy }">}({'
                  % (i, i, w, h, h, h, h, w, h, w, w, w),
                  '    ^bb0(%%a: %s):' % (x % "xi8"),
                  '      %%f = graph.flatten %%a : (%s) -> %s' % (x % "xi8", y % "xi8"),
                  '      dataflow.yield %%f : %s' % (y % "xi8"),
                  '    }) : (%s) -> %s' % (x % "xi8", y % "xi8"),
                  '    %%d%d = graph.dequantize_linear %%n%d, %%s : (%s, tensor<f32>) -> %s'
                  % (i, i, y % "xi8", y % "xf32")]
    lines += ['    return %s : %s' % (", ".join("%%d%d" % i for i in range(n)), ", ".join([y % "xf32"] * n)),
              '  }',
              '  core.chip {cols = 16 : i64, function = @big, rows = 16 : i64, sram_bytes = 786432 : i64, '
              'target = "northpole"}({']
    for i in range(n):
        lines += ['    core.tile {node = "copy%d", x = %d : i64, y = %d : i64}({' % (i, i % 16, i // 16),
                  '      core.buffer {bytes = %d : i64, kind = "input", name = "in0", offset = 0 : i64}' % w,
                  '      core.buffer {bytes = %d : i64, kind = "output", name = "out", offset = %d : i64}' % (w, w),
                  '      core.program({']
        for r in range(h):
            lines += ['        core.recv {from = array<i64: -1, -1>, iter = %d : i64, operand = 0 : i64}' % r,
                      '        core.compute {begin = %d : i64, end = %d : i64}' % (r, r + 1),
                      '        core.send {bytes = %d : i64, iter = %d : i64, to = array<i64: -1, -1>}' % (w, r)]
        lines += ['      })', '    })']
    lines += ['  }) : () -> ()', '}']
    open(out, "w").write("\n".join(lines) + "\n")


def widen(src, dst, h, w):
    b = bytearray(open(src, "rb").read())
    hd = ncb.parse(b)
    struct.pack_into("<qqqq", b, ncb.HEADER + 40, 1, 1, h, w)  # input 0's dims
    for k in range(1, len(hd["tensors"])):  # the outputs
        struct.pack_into("<qq", b, ncb.HEADER + k * ncb.TENSOR + 40, 1, h * w)
    for i, (t, ident, off, size, crc) in enumerate(hd["sections"]):
        if t == 1:  # a tile: its one operand (host input i32, rank u32, 8 dims i64) after 56 bytes, its result
            struct.pack_into("<qqqq", b, off + 56 + 8, 1, 1, h, w)
            struct.pack_into("<qq", b, off + 56 + 72 + 4, 1, h * w)
            ncb.fix_section_crc(b, i)
    ncb.fix_header_crc(b)
    open(dst, "wb").write(bytes(b))


if __name__ == "__main__":
    if sys.argv[1] == "module":
        module(*map(int, sys.argv[2:5]), sys.argv[5])
    else:
        widen(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))

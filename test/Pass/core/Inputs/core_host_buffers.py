"""core-host-buffers.test's check: per tile that receives host input steps,
its in0 buffer in the bare pipeline (--host-buffer-frames=0) and with 3:
with 3 it holds at least 3 x its distinct steps x 8 bytes (a row of the 8x8 digits
input), more than the bare line buffer."""
import re
import sys


def host_tiles(path):
    text = open(path).read()
    out = []
    for tile in re.split(r"core\.tile ", text)[1:]:
        steps = set(re.findall(r"core\.recv \{from = array<i64: -1, -1>, iter = (\d+) : i64, operand = 0", tile))
        m = re.search(r'core\.buffer \{bytes = (\d+) : i64, kind = "input", name = "in0"', tile)
        if steps and m:
            out.append((len(steps), int(m.group(1))))
    return out


bare, three = host_tiles(sys.argv[1]), host_tiles(sys.argv[2])
same = len(bare) == len(three) and all(a[0] == b[0] for a, b in zip(bare, three))
print("host-fed tiles: %d, bare smaller: %s, three frames of their rows at least: %s" % (
    len(three), same and all(a[1] < b[1] for a, b in zip(bare, three)),
    all(b[1] >= 3 * b[0] * 8 for b in three)))

# patch_words.py IN OUT OLD NEW: copies the .ncb IN to OUT with the one run
# of little-endian i32 words OLD (comma-separated) replaced by NEW, and the
# checksums of its section and the header fixed (ncb.py), so that only the
# loader's own checks can refuse it. Exits 1 unless OLD occurs exactly once.
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(__file__))
import ncb  # noqa: E402

src, dst, old, new = sys.argv[1:5]
pack = lambda s: struct.pack("<%di" % len(s.split(",")), *map(int, s.split(",")))
b = bytearray(open(src, "rb").read())
at = b.find(pack(old))
if at < 0 or b.find(pack(old), at + 1) >= 0:
    sys.exit("patch_words.py: %s occurs %s" % (old, "nowhere" if at < 0 else "more than once"))
b[at:at + len(pack(new))] = pack(new)
h = ncb.parse(b)
for i, (t, ident, off, size, crc) in enumerate(h["sections"]):
    if off <= at < off + size:
        ncb.fix_section_crc(b, i)
open(dst, "wb").write(b)

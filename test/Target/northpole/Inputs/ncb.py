# ncb.py: reads and rewrites .ncb binaries by the layout documented in
# docs/targets/ncb-format.md (so the tests check the document too).
#   ncb.py dump FILE           prints the header, tensors and sections
#   ncb.py corrupt FILE DIR    writes one damaged variant per kind of damage
#   ncb.py fields FILE DIR     writes one variant per tile field out of its range
#   ncb.py prefixes FILE INPUT runs nc-run on prefixes of FILE; each must be
#                              refused with "truncated" or "not an nc binary"
import os
import struct
import subprocess
import tempfile
import sys
import zlib

HEADER = 128
TENSOR = 128
ENTRY = 32


def parse(b):
    magic, major, minor, hsize, hcrc, fsize = struct.unpack_from("<4sHHIIQ", b, 0)
    target = b[24:56].split(b"\0")[0].decode()
    n_in, n_out, n_sec, flags = struct.unpack_from("<IIII", b, 56)
    tensors = []
    for i in range(n_in + n_out):
        o = HEADER + i * TENSOR
        name = b[o:o + 32].split(b"\0")[0].decode()
        dtype, rank = struct.unpack_from("<II", b, o + 32)
        dims = struct.unpack_from("<8q", b, o + 40)[:rank]
        scale, zp = struct.unpack_from("<fi", b, o + 104)
        tensors.append(("input" if i < n_in else "output", name, dtype, dims, scale, zp))
    table = HEADER + (n_in + n_out) * TENSOR
    sections = [struct.unpack_from("<IIQQI", b, table + i * ENTRY) for i in range(n_sec)]
    chip = {}
    for t, ident, off, size, crc in sections:
        if t == 3 and off + 40 <= len(b):  # NorthPole's chip section (targets/northpole/runtime/np_format.h)
            rows, cols, clock, sram, macs, hop, link, mpi = struct.unpack_from("<IIQIIIIQ", b, off)
            chip = dict(grid=(rows, cols), clock=clock, sram=sram, macs_per_cycle=macs, hop=hop, link=link,
                        macs_per_inference=mpi)
    return dict(magic=magic, version=(major, minor), header_size=hsize, header_crc=hcrc, file_size=fsize,
                target=target, chip=chip, tensors=tensors, table=table, sections=sections)


def fix_header_crc(b):
    h = parse(b)
    hdr = bytearray(b[:h["header_size"]])
    hdr[12:16] = b"\0\0\0\0"
    struct.pack_into("<I", b, 12, zlib.crc32(bytes(hdr)))


def fix_section_crc(b, i):
    h = parse(b)
    t, ident, off, size, crc = h["sections"][i]
    struct.pack_into("<I", b, h["table"] + i * ENTRY + 24, zlib.crc32(bytes(b[off:off + size])))
    fix_header_crc(b)


def dump(path):
    b = open(path, "rb").read()
    h = parse(b)
    hdr = bytearray(b[:h["header_size"]])
    hdr[12:16] = b"\0\0\0\0"
    print("magic", h["magic"], "version %d.%d" % h["version"], "file_size", h["file_size"] == len(b),
          "header_crc", zlib.crc32(bytes(hdr)) == h["header_crc"])
    c = h["chip"]
    print("target", h["target"], "grid %dx%d" % c["grid"], "clock", c["clock"], "sram", c["sram"],
          "macs_per_cycle", c["macs_per_cycle"], "hop", c["hop"], "link", c["link"],
          "macs_per_inference", c["macs_per_inference"])
    for t in h["tensors"]:
        print("%s '%s' dtype %d dims %s scale %.9g zero_point %d" % t)
    for i, (t, ident, off, size, crc) in enumerate(h["sections"]):
        print("section %d type %d id %d aligned %s crc_ok %s" % (i, t, ident, off % 16 == 0,
                                                                zlib.crc32(b[off:off + size]) == crc))


def tile_fields(b, off):
    """Offsets of the fields of the tile section at `off` (np_format.h)."""
    f = dict(flags=off + 12)
    p = off + 52
    n_ops = struct.unpack_from("<I", b, p)[0]
    p += 4 + n_ops * 72 + 68 + 16 + 11 * 8
    f["zero_point"] = p
    n_rq = struct.unpack_from("<I", b, p + 4)[0]
    p += 8 + 8 * n_rq
    n_bias = struct.unpack_from("<I", b, p)[0]
    p += 4 + 4 * n_bias
    wbytes = struct.unpack_from("<Q", b, p)[0]
    f["weight_bytes"] = p
    if wbytes >> 63:  # shared: the low bits count the bytes, an offset into the weights section follows
        f["weights"] = ("shared", wbytes & ~(1 << 63), struct.unpack_from("<Q", b, p + 8)[0])
        p += 16
    else:
        f["weights"] = ("inline", wbytes, None)
        p += 8 + wbytes
    p += (8 - (p - off) % 8) % 8
    n_buf = struct.unpack_from("<I", b, p)[0]
    f["buffers"] = []
    p += 4
    for i in range(n_buf):
        name = b[p:p + 16].split(b"\0")[0].decode()
        f["buffers"].append((name, p))  # kind at +16, bytes at +32
        p += 56
    n_iters = struct.unpack_from("<I", b, p)[0]
    p += 4
    f["iters"] = p  # macs at +0, vector ops at +8, n_blocks at +16, the zero word at +20, first block at +24
    for i in range(n_iters):
        nb = struct.unpack_from("<I", b, p + 16)[0]
        p += 24 + 32 * nb
    f["n_instrs"] = p
    f["instrs"] = p + 4  # opcode at +0, the zero word at +4, a at +8
    return f


def first_tile(h):
    i = next(i for i, s in enumerate(h["sections"]) if s[0] == 1)
    return i, h["sections"][i][2]


def corrupt_fields(path, d):
    """One variant per field checked against its documented range."""
    b = open(path, "rb").read()
    h = parse(b)
    i, off = first_tile(h)
    f = tile_fields(b, off)
    def out(name, edit):
        m = bytearray(b)
        edit(m)
        fix_section_crc(m, i)
        open("%s/%s.ncb" % (d, name), "wb").write(bytes(m))
    out("block-start", lambda m: struct.pack_into("<q", m, f["iters"] + 24, (1 << 63) - 2))
    out("macs", lambda m: struct.pack_into("<Q", m, f["iters"], (1 << 64) - 1))
    out("vector-ops", lambda m: struct.pack_into("<Q", m, f["iters"] + 8, (1 << 64) - 1))
    out("iter-zero-word", lambda m: struct.pack_into("<I", m, f["iters"] + 20, 7))
    # bit 9 of a recv's word is no field (bit 0 the network, 1..7 a peer's slot, 8 multicast, 16.. frames)
    out("instr-zero-word", lambda m: struct.pack_into("<I", m, f["instrs"] + 4, 1 << 9))
    # instruction 0 receives from the host, which has no slot (bits 1..7)
    out("instr-host-slot", lambda m: struct.pack_into("<I", m, f["instrs"] + 4, 3 << 1))
    out("flags", lambda m: struct.pack_into("<I", m, f["flags"], 0x200002))
    # a recv's frames (bits 16..31 of its word): a period of 1 frame says nothing (core-replicate)
    out("frames", lambda m: struct.pack_into("<I", m, f["instrs"] + 4, 1 << 16))
    # the layer width in flags bits 8..15: 3 is not 8, 4 or 2; 0 is an older binary's 8
    fl = struct.unpack_from("<I", b, f["flags"])[0] & 0xff
    out("width3", lambda m: struct.pack_into("<I", m, f["flags"], fl | 3 << 8))
    out("width0", lambda m: struct.pack_into("<I", m, f["flags"], fl))
    # a reflect-pad flag (64) on tile 0, a conv
    out("padflag", lambda m: struct.pack_into("<I", m, f["flags"], fl | 64 | 8 << 8))
    def wait(m):
        struct.pack_into("<Iiqqqq", m, f["instrs"], 4, 0, 1 << 62, 0, 0, 0)
    out("wait", wait)
    def scratch(m):
        name, p = next(x for x in f["buffers"] if x[0] == "acc")
        struct.pack_into("<q", m, p + 32, 0)
    out("scratch", scratch)
    # the input tensor's zero point in the header, outside int8
    m = bytearray(b); struct.pack_into("<i", m, HEADER + 108, 300); fix_header_crc(m)
    open("%s/zero-point.ncb" % d, "wb").write(bytes(m))


def corrupt(path, d):
    b = open(path, "rb").read()
    h = parse(b)
    def out(name, data):
        open("%s/%s.ncb" % (d, name), "wb").write(bytes(data))
    out("truncated", b[:len(b) // 2])
    out("short", b[:20])
    m = bytearray(b); m[0:4] = b"XCB\0"; out("magic", m)
    m = bytearray(b); struct.pack_into("<H", m, 4, 3); out("version", m)
    m = bytearray(b); struct.pack_into("<H", m, 6, 9); out("minor", m)
    t, ident, off, size, crc = h["sections"][-1]
    m = bytearray(b); m[off + size // 2] ^= 0x55; out("crc-section", m)
    m = bytearray(b); struct.pack_into("<I", m, 56, 2); out("crc-header", m)
    out("trailing", b + bytes(16))
    m = bytearray(b); struct.pack_into("<Q", m, h["table"] + 8, len(b) + 64); fix_header_crc(m); out("bounds", m)
    m = bytearray(b); struct.pack_into("<I", m, off + size - 40, 9); fix_section_crc(m, len(h["sections"]) - 1)
    out("opcode", m)
    m = bytearray(b); m[24:56] = b"loihi".ljust(32, b"\0"); fix_header_crc(m); out("target", m)


def prefixes(path, x):
    b = open(path, "rb").read()
    with tempfile.TemporaryDirectory() as d:
        for n in list(range(0, len(b), 97)) + [len(b) - 1]:
            f = os.path.join(d, "p.ncb")
            open(f, "wb").write(b[:n])
            r = subprocess.run(["nc-run", f, "--input", x, "--print"], capture_output=True, text=True)
            if r.returncode != 1 or not ("truncated" in r.stderr or "not an nc binary" in r.stderr):
                sys.exit("prefix of %d bytes: status %d, %s" % (n, r.returncode, r.stderr))
    print("all prefixes refused")


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(sys.argv[2])
    elif sys.argv[1] == "prefixes":
        prefixes(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "fields":
        corrupt_fields(sys.argv[2], sys.argv[3])
    else:
        corrupt(sys.argv[2], sys.argv[3])

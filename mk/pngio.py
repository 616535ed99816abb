"""Minimal PNG reading for mk/png-ink.py and mk/png-stack.py (standard library only).

8-bit grey, RGB or RGBA, not interlaced: what GTKWave's grab writes.
"""
import struct
import sys
import zlib

BPP = {0: 1, 2: 3, 6: 4}  # bytes per pixel by colour type


def read(path, who):
    """(IHDR body, width, height, bytes per pixel, inflated scanlines) of PNG `path`."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{who}: {path}: not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            hdr = data[pos + 8:pos + 8 + n]
        elif kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    if hdr is None:
        sys.exit(f"{who}: {path}: no IHDR chunk")
    w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", hdr)
    if depth != 8 or interlace or ctype not in BPP:
        sys.exit(f"{who}: {path}: unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
    return hdr, w, h, BPP[ctype], zlib.decompress(idat)


def unfilter(f, line, prev, bpp):
    """Undo filter type `f` on scanline `line` (bytearray, in place) given the row above `prev`."""
    for x in range(len(line)):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1:
            line[x] = (line[x] + a) & 255
        elif f == 2:
            line[x] = (line[x] + b) & 255
        elif f == 3:
            line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return line

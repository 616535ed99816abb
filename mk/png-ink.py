#!/usr/bin/env python3
"""Print how much of a GTKWave grab shows waveforms: '<trace %> <colours>'.

Trace = pixels in GTKWave's waveform green (G > 150, R and B < 120), in
percent of the picture: an empty view (window chrome, grid, no signals)
has ~0 %, a view with a few traced ports has 1 % or more.
Reads 8-bit RGB/RGBA/grey non-interlaced PNGs (what GTKWave's grab writes)
with the standard library only. Usage: png-ink.py FILE.png
"""
import struct
import sys
import zlib
from collections import Counter


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or interlace or ctype not in (0, 2, 6):
        sys.exit(f"{path}: unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
    bpp = {0: 1, 2: 3, 6: 4}[ctype]
    raw, stride, prev, out = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.extend(bytes(line[i:i + bpp]) for i in range(0, stride, bpp))
        prev = line
    return out


px = pixels(sys.argv[1])
trace = sum(1 for c in px if c[1] > 150 and c[0] < 120 and c[2] < 120)
print(f"{100.0 * trace / len(px):.2f} {len(Counter(px))}")

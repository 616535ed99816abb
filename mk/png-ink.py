#!/usr/bin/env python3
"""Print how much of a GTKWave grab shows waveforms: '<trace %> <colours>'.

Trace = pixels in GTKWave's waveform green (G > 150, R and B < 120), in
percent of the picture: an empty view (window chrome, grid, no signals)
has ~0 %, a view with a few traced ports has 1 % or more.
Reads 8-bit RGB/RGBA/grey non-interlaced PNGs (what GTKWave's grab writes)
with the standard library only (mk/pngio.py). Usage: png-ink.py FILE.png
"""
import sys
from collections import Counter

import pngio


def pixels(path):
    _, w, h, bpp, raw = pngio.read(path, "png-ink")
    stride, prev, out = w * bpp, bytearray(w * bpp), []
    for y in range(h):
        row = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        line = pngio.unfilter(row[0], bytearray(row[1:]), prev, bpp)
        out.extend(bytes(line[i:i + bpp]) for i in range(0, stride, bpp))
        prev = line
    return out


px = pixels(sys.argv[1])
trace = sum(1 for c in px if c[1] > 150 and c[0] < 120 and c[2] < 120)
print(f"{100.0 * trace / len(px):.2f} {len(Counter(px))}")

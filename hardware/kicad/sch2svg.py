#!/usr/bin/env python3
"""Draws the reedboard's KiCad schematic as SVG, for the schematic PDF of `host/tools/dev hardware`.

    sch2svg.py SCHEMATIC OUT.svg

KiCad 6 plots a schematic only from its window, so this reads the .kicad_sch itself and draws
what gen.py puts there: each symbol's box, its pins with their names, its reference and value,
and the global labels that name the pins' nets. (rsvg-convert turns the SVG into the PDF.)
"""

import os
import sys
from xml.sax.saxutils import escape

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sexp  # noqa: E402

FONT = 1.27


def text(x, y, s, anchor="start", size=FONT):
    return (f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size}" text-anchor="{anchor}" '
            f'dominant-baseline="middle">{escape(s)}</text>')


def draw(root):
    out = []
    libs = {}
    for sym in sexp.item(root, "lib_symbols")[1:]:
        rects, pins = [], []
        for unit in sexp.items(sym, "symbol"):
            for r in sexp.items(unit, "rectangle"):
                s, e = sexp.item(r, "start"), sexp.item(r, "end")
                rects.append((float(s[1]), float(s[2]), float(e[1]), float(e[2])))
            for p in sexp.items(unit, "pin"):
                at = sexp.item(p, "at")
                pins.append((float(at[1]), float(at[2]), int(at[3]), float(sexp.item(p, "length")[1]),
                             sexp.item(p, "name")[1]))
        libs[sym[1]] = (rects, pins)
    for sym in sexp.items(root, "symbol"):
        at = sexp.item(sym, "at")
        sx, sy = float(at[1]), float(at[2])
        rects, pins = libs[sexp.item(sym, "lib_id")[1]]
        for x0, y0, x1, y1 in rects:
            out.append(f'<rect x="{sx + min(x0, x1):.2f}" y="{sy - max(y0, y1):.2f}" width="{abs(x1 - x0):.2f}" '
                       f'height="{abs(y1 - y0):.2f}" fill="#ffffe0" stroke="#800000" stroke-width="0.25"/>')
        for px, py, ang, length, name in pins:
            x, y = sx + px, sy - py
            dx = length if ang == 0 else -length
            out.append(f'<line x1="{x:.2f}" y1="{y:.2f}" x2="{x + dx:.2f}" y2="{y:.2f}" stroke="#800000" '
                       'stroke-width="0.2"/>')
            out.append(text(x + dx + (0.6 if ang == 0 else -0.6), y, name, "start" if ang == 0 else "end", 1.0))
        for prop in sexp.items(sym, "property"):
            if prop[1] in ("Reference", "Value"):
                pat = sexp.item(prop, "at")
                out.append(text(float(pat[1]), float(pat[2]), prop[2], "middle"))
    for label in sexp.items(root, "global_label"):
        at = sexp.item(label, "at")
        x, y, rot = float(at[1]), float(at[2]), int(at[3])
        out.append(text(x + (0.5 if rot == 0 else -0.5), y, label[1], "start" if rot == 0 else "end", 1.0))
    return out


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as fh:
        root = sexp.parse(fh.read())
    paper = sexp.item(root, "paper")
    w, h = float(paper[2]), float(paper[3])
    title = sexp.item(sexp.item(root, "title_block"), "title")[1]
    body = draw(root)
    with open(argv[2], "w", encoding="utf-8") as fh:
        fh.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
                 f'viewBox="0 0 {w} {h}" font-family="sans-serif" fill="#000">\n')
        fh.write(f'<rect width="{w}" height="{h}" fill="white"/>\n')
        fh.write(text(10, 10, f"{title}: schematic generated from hardware/netlist.txt "
                      "(each label names the pin's net)", size=3) + "\n")
        fh.write("\n".join(body) + "\n</svg>\n")
    print(f"{argv[2]}: {len(body)} drawing elements")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Generates the reedboard's KiCad 6 project (board, schematic, project) from hardware/netlist.txt.

    gen.py NETLIST OUTDIR

The netlist stays the one truth: the committed project in hardware/kicad/ is this script's output,
and the hardware test compares the board's nets with the netlist and runs KiCad's DRC on it.

The board: the 8 x 8 squares at the reference 50 mm pitch (hardware/BUILD.md), a reed switch
under each square's hole and its diode beside it, rank lines on the top copper, file lines on the
bottom; below rank 1 a strip for the controller (Nano, 74HC138, pull-ups, LED, buzzer, buttons),
routed as a two-layer channel: each net a horizontal track on the top copper, each pin reaching
it with a vertical track on the bottom copper and a via.
"""

import os
import sys
import uuid

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import netlist as nlmod  # noqa: E402
from footprints import FOOTPRINTS  # noqa: E402

PITCH = 50.0  # square size (BUILD.md reference build)
FILES = "abcdefgh"
TRACK = 0.25
POWER_TRACK = 0.4
POWER_NETS = ("+5V", "GND")
VIA = (0.6, 0.3)
LANE = 1.0  # channel lane pitch
ROW_V_X0, ROW_V_STEP = 3.0, 1.2  # the rank lines' runs down the left edge
COL_DX = -6.0  # a file line's offset from its switches
STRIP_GAP = 4.0  # matrix to the first lane

# Deterministic UUIDs: regenerating gives byte-identical files.
_NS = uuid.UUID("6f1c2d7e-8a47-4c55-9a0e-2b7d5b3c9e01")


def uid(*parts):
    return str(uuid.uuid5(_NS, "/".join(str(p) for p in parts)))


def f(v):
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Board:
    def __init__(self, nl):
        self.nl = nl
        self.place = {}  # ref -> (x, y)
        self.segments = []  # (x0, y0, x1, y1, layer, net)
        self.vias = []  # (x, y, net)
        self.net_of = nl.net_of()

    def pad_xy(self, ref, pin):
        x, y = self.place[ref]
        for name, px, py, *_ in FOOTPRINTS[self.nl.comps[ref][1]]["pads"]:
            if name == pin:
                return x + px, y + py
        raise KeyError(f"{ref}.{pin}: no such pad in {self.nl.comps[ref][1]}")

    def seg(self, x0, y0, x1, y1, layer, net):
        if (x0, y0) != (x1, y1):
            self.segments.append((x0, y0, x1, y1, layer, net))

    def line(self, points, layer, net, vertical):
        """A straight track through points (same x or same y), split at each of them."""
        key = (lambda p: p[1]) if vertical else (lambda p: p[0])
        pts = sorted(set(points), key=key)
        for a, b in zip(pts, pts[1:]):
            self.seg(a[0], a[1], b[0], b[1], layer, net)


def square_xy(fi, rank):
    return PITCH / 2 + PITCH * fi, PITCH / 2 + PITCH * (8 - rank)


def layout_matrix(b):
    """Switches, diodes and their copper; returns where each rank and file line enters the strip."""
    row_pts = {r: [] for r in range(1, 9)}
    col_pts = {fi: [] for fi in range(8)}
    for fi, fl in enumerate(FILES):
        for rank in range(1, 9):
            x, y = square_xy(fi, rank)
            sq = f"{fl}{rank}"
            b.place[f"SW_{sq}"] = (x, y)
            b.place[f"D_{sq}"] = (x + 4.0, y + 13.16)
            sw1, sw2 = b.pad_xy(f"SW_{sq}", "1"), b.pad_xy(f"SW_{sq}", "2")
            dk, da = b.pad_xy(f"D_{sq}", "K"), b.pad_xy(f"D_{sq}", "A")
            b.seg(*sw1, *dk, "F.Cu", b.net_of[(f"SW_{sq}", "1")])
            row_y = y + 18.0
            b.seg(*da, da[0], row_y, "F.Cu", b.net_of[(f"D_{sq}", "A")])
            row_pts[rank].append((da[0], row_y))
            cx = x + COL_DX
            b.seg(*sw2, cx, sw2[1], "B.Cu", b.net_of[(f"SW_{sq}", "2")])
            col_pts[fi].append((cx, sw2[1]))
    entries = []  # (net, x, start_y): vertical runs on B.Cu from start_y down into the strip
    for rank in range(1, 9):
        net = b.net_of[(f"D_a{rank}", "A")]
        vx = ROW_V_X0 + ROW_V_STEP * (rank - 1)
        row_y = row_pts[rank][0][1]
        b.line(row_pts[rank] + [(vx, row_y)], "F.Cu", net, vertical=False)
        b.vias.append((vx, row_y, net))
        entries.append((net, vx, row_y))
    for fi in range(8):
        net = b.net_of[(f"SW_{FILES[fi]}1", "2")]
        b.line(col_pts[fi], "B.Cu", net, vertical=True)
        top = min(p[1] for p in col_pts[fi])
        bottom = max(p[1] for p in col_pts[fi])
        entries.append((net, col_pts[fi][0][0], bottom))
        del top
    return entries


def place_strip(b, refs, y_top, col_xs):
    """Places the controller parts left to right, their upper pad row at y_top, no pad within
    1 mm of an x where a file line comes down (a pin's track up to its lane would touch it)."""
    x = 20.0
    for ref in refs:
        fp = FOOTPRINTS[b.nl.comps[ref][1]]
        c0, _, c1, _ = fp["court"]
        top = min(p[2] for p in fp["pads"])
        while any(abs(x - c0 + p[1] - cx) < 1.0 for p in fp["pads"] for cx in col_xs):
            x += 0.25
        b.place[ref] = (x - c0, y_top - top)
        x += (c1 - c0) + 1.0
    return x


def route_strip(b, refs, entries, y_top, band_h, right_x, forbidden):
    """Two-layer channel routing of the strip; returns the board's bottom edge."""
    up, down = {}, {}  # net -> [x] connection points in the upper / lower channel
    pad_at = {}
    for ref in refs:
        fp = FOOTPRINTS[b.nl.comps[ref][1]]
        ys = [p[2] for p in fp["pads"]]
        mid = (min(ys) + max(ys)) / 2
        for name, px, py, *_ in fp["pads"]:
            net = b.net_of.get((ref, name))
            if not name or net is None:
                continue
            x, y = b.pad_xy(ref, name)
            side = up if (py <= mid or min(ys) == max(ys)) else down
            side.setdefault(net, []).append(x)
            pad_at[(net, x, side is up)] = y
    for net, x, _ in entries:
        up.setdefault(net, []).append(x)
    # Nets with a single connection point on the board need no copper.
    for net in [n for n in set(up) | set(down) if len(up.get(n, [])) + len(down.get(n, [])) < 2]:
        up.pop(net, None)
        down.pop(net, None)
    # Nets in both channels cross at the right end of the strip, each at an x of its own.
    bridges = {}
    bx = right_x + 2.0
    for net in [n for n in b.nl.net_order if n in up and n in down]:
        while any(a - 1.0 < bx < z + 1.0 for a, z in forbidden):
            bx += 1.0
        bridges[net] = bx
        up[net].append(bx)
        down[net].append(bx)
        bx += 1.5
    entry_nets = [e[0] for e in entries]
    up_order = [n for n in entry_nets if n in up] + [n for n in b.nl.net_order if n in up and n not in entry_nets]
    down_order = [n for n in b.nl.net_order if n in down]
    y0 = y_top - 2.5 - LANE * (len(up_order) - 1)  # uppermost lane
    lane_up = {n: y0 + LANE * i for i, n in enumerate(up_order)}
    yb = y_top + band_h + 2.5
    lane_down = {n: yb + LANE * i for i, n in enumerate(down_order)}
    entry_y = {(n, x): y for n, x, y in entries}
    for lanes, side, is_up in ((lane_up, up, True), (lane_down, down, False)):
        for net, ly in lanes.items():
            pts = []
            for x in side[net]:
                if (net, x) in entry_y and is_up:
                    start = entry_y[(net, x)]
                elif net in bridges and x == bridges[net]:
                    start = None
                else:
                    start = pad_at[(net, x, is_up)]
                if start is not None:
                    b.seg(x, start, x, ly, "B.Cu", net)
                b.vias.append((x, ly, net))
                pts.append((x, ly))
            b.line(pts, "F.Cu", net, vertical=False)
    for net, x in bridges.items():
        b.seg(x, lane_up[net], x, lane_down[net], "B.Cu", net)
    return (yb + LANE * (len(down_order) - 1) + 3.0) if down_order else yb, y0, bx


def build(nl):
    b = Board(nl)
    entries = layout_matrix(b)
    matrix_bottom = 8 * PITCH
    strip_refs = [r for r in nl.order if nl.on_board(r) and r not in b.place]
    col_xs = sorted(x for n, x, _ in entries if n.startswith("COL_"))
    forbidden = [(x - 2.5, x + 2.5) for x in col_xs]
    # the upper lanes need room above the parts: count the nets first with a trial placement
    trial_top = 1000.0
    right = place_strip(b, strip_refs, trial_top, col_xs)
    band_h = max(FOOTPRINTS[nl.comps[r][1]]["court"][3] - min(p[2] for p in FOOTPRINTS[nl.comps[r][1]]["pads"])
                 for r in strip_refs)
    saved = (list(b.segments), list(b.vias))
    _, y0, _ = route_strip(b, strip_refs, entries, trial_top, band_h, right, forbidden)
    b.segments, b.vias = saved
    y_top = trial_top + (matrix_bottom + STRIP_GAP - y0)
    place_strip(b, strip_refs, y_top, col_xs)
    bottom, _, bx = route_strip(b, strip_refs, entries, y_top, band_h, right, forbidden)
    width = max(8 * PITCH, bx + 2.0)
    return b, width, bottom


# ---------------------------------------------------------------------------------------------
# writers

LAYERS = """  (layers
    (0 "F.Cu" signal)
    (31 "B.Cu" signal)
    (32 "B.Adhes" user "B.Adhesive")
    (33 "F.Adhes" user "F.Adhesive")
    (34 "B.Paste" user)
    (35 "F.Paste" user)
    (36 "B.SilkS" user "B.Silkscreen")
    (37 "F.SilkS" user "F.Silkscreen")
    (38 "B.Mask" user)
    (39 "F.Mask" user)
    (40 "Dwgs.User" user "User.Drawings")
    (41 "Cmts.User" user "User.Comments")
    (42 "Eco1.User" user "User.Eco1")
    (43 "Eco2.User" user "User.Eco2")
    (44 "Edge.Cuts" user)
    (45 "Margin" user)
    (46 "B.CrtYd" user "B.Courtyard")
    (47 "F.CrtYd" user "F.Courtyard")
    (48 "B.Fab" user)
    (49 "F.Fab" user)
  )
"""


def rect_lines(x0, y0, x1, y1, layer, width, indent="    ", kind="fp_line"):
    out = []
    pts = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    for (a, c), (d, e) in zip(pts, pts[1:]):
        out.append(f"{indent}({kind} (start {f(a)} {f(c)}) (end {f(d)} {f(e)}) (layer {q(layer)}) (width {f(width)})")
        if kind == "gr_line":
            out[-1] += f" (tstamp {uid(kind, layer, a, c, d, e)}))"
        else:
            out[-1] += ")"
    return out


def write_pcb(b, width, height, path):
    nl = b.nl
    nets = [""] + [n for n in nl.net_order]
    num = {n: i for i, n in enumerate(nets)}
    out = ["(kicad_pcb (version 20211014) (generator twinboard_gen)", "",
           "  (general", "    (thickness 1.6)", "  )", "",
           f'  (paper "User" {f(width + 40)} {f(height + 40)})',
           "  (title_block", '    (title "reedboard")', '    (company "twinboard")',
           '    (comment 1 "Generated from hardware/netlist.txt by hardware/kicad/gen.py")',
           '    (comment 2 "CERN-OHL-S-2.0 (hardware/LICENSE)")', "  )", "", LAYERS.rstrip("\n"), "",
           "  (setup", "    (pad_to_mask_clearance 0)", "  )", ""]
    for n in nets:
        out.append(f"  (net {num[n]} {q(n)})")
    out.append("")
    ox, oy = 20.0, 20.0  # the board's corner on the page
    for ref in nl.order:
        if not nl.on_board(ref):
            continue
        value, fpname, descr = nl.comps[ref]
        fp = FOOTPRINTS[fpname]
        x, y = b.place[ref]
        out.append(f'  (footprint "reedboard:{fpname}" (layer "F.Cu")')
        out.append(f"    (tedit 0) (tstamp {uid('fp', ref)})")
        out.append(f"    (at {f(ox + x)} {f(oy + y)})")
        out.append(f"    (descr {q(fp['descr'])})")
        out.append(f"    (property \"Description\" {q(descr)})")
        out.append(f"    (path \"/{uid('sym', ref)}\")")
        out.append("    (attr through_hole)")
        c0, c1, c2, c3 = fp["court"]
        out.append(f"    (fp_text reference {q(ref)} (at {f((c0 + c2) / 2)} {f((c1 + c3) / 2)}) (layer \"F.Fab\")")
        out.append(f"      (effects (font (size 1 1) (thickness 0.15))) (tstamp {uid('ref', ref)}))")
        out.append(f"    (fp_text value {q(value)} (at {f((c0 + c2) / 2)} {f(c3 - 0.8)}) (layer \"F.Fab\") hide")
        out.append(f"      (effects (font (size 0.8 0.8) (thickness 0.12))) (tstamp {uid('val', ref)}))")
        out.extend(rect_lines(*fp["court"], "F.CrtYd", 0.05))
        out.extend(rect_lines(*fp["body"], "F.Fab", 0.1))
        for name, px, py, size, drill, shape in fp["pads"]:
            line = (f"    (pad {q(name)} thru_hole {shape} (at {f(px)} {f(py)}) (size {f(size)} {f(size)}) "
                    f"(drill {f(drill)}) (layers *.Cu *.Mask)")
            net = b.net_of.get((ref, name)) if name else None
            if net is not None:
                line += f" (net {num[net]} {q(net)})"
            line += f" (tstamp {uid('pad', ref, name, px, py)}))"
            out.append(line)
        out.append("  )")
        out.append("")
    for x0, y0, x1, y1, layer, net in b.segments:
        w = POWER_TRACK if net in POWER_NETS else TRACK
        out.append(f"  (segment (start {f(ox + x0)} {f(oy + y0)}) (end {f(ox + x1)} {f(oy + y1)}) (width {f(w)}) "
                   f"(layer {q(layer)}) (net {num[net]}) (tstamp {uid('seg', x0, y0, x1, y1, layer)}))")
    for x, y, net in b.vias:
        out.append(f"  (via (at {f(ox + x)} {f(oy + y)}) (size {f(VIA[0])}) (drill {f(VIA[1])}) "
                   f"(layers \"F.Cu\" \"B.Cu\") (net {num[net]}) (tstamp {uid('via', x, y)}))")
    out.extend(rect_lines(ox, oy, ox + width, oy + height, "Edge.Cuts", 0.1, indent="  ", kind="gr_line"))
    # square outlines and names on the silkscreen, where no copper is
    for fi, fl in enumerate(FILES):
        for rank in range(1, 9):
            x, y = square_xy(fi, rank)
            out.append(f"  (gr_text \"{fl}{rank}\" (at {f(ox + x - 15)} {f(oy + y - 15)}) (layer \"F.SilkS\") "
                       f"(tstamp {uid('sqtext', fl, rank)})")
            out.append("    (effects (font (size 2 2) (thickness 0.3))))")
            out.append(f"  (gr_circle (center {f(ox + x)} {f(oy + y)}) (end {f(ox + x + 3.25)} {f(oy + y)}) "
                       f"(layer \"F.SilkS\") (width 0.15) (fill none) (tstamp {uid('hole', fl, rank)}))")
    out.append("")
    out.append(")")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")


PROJECT = """{
  "board": {
    "design_settings": {
      "defaults": {
        "board_outline_line_width": 0.1,
        "copper_line_width": 0.2,
        "copper_text_size_h": 1.5,
        "copper_text_size_v": 1.5,
        "copper_text_thickness": 0.3,
        "other_line_width": 0.15,
        "silk_line_width": 0.15,
        "silk_text_size_h": 1.0,
        "silk_text_size_v": 1.0,
        "silk_text_thickness": 0.15
      },
      "rules": {
        "min_clearance": 0.2,
        "min_copper_edge_clearance": 0.5,
        "min_hole_clearance": 0.25,
        "min_hole_to_hole": 0.25,
        "min_through_hole_diameter": 0.3,
        "min_track_width": 0.2,
        "min_via_annular_width": 0.1,
        "min_via_diameter": 0.5,
        "solder_mask_clearance": 0.0,
        "solder_mask_min_width": 0.0
      },
      "track_widths": [0.0, 0.25, 0.4],
      "via_dimensions": [{"diameter": 0.0, "drill": 0.0}, {"diameter": 0.6, "drill": 0.3}]
    },
    "layer_presets": []
  },
  "meta": {
    "filename": "reedboard.kicad_pro",
    "version": 1
  },
  "net_settings": {
    "classes": [
      {
        "bus_width": 12.0,
        "clearance": 0.2,
        "diff_pair_gap": 0.25,
        "diff_pair_via_gap": 0.25,
        "diff_pair_width": 0.2,
        "line_style": 0,
        "microvia_diameter": 0.3,
        "microvia_drill": 0.1,
        "name": "Default",
        "pcb_color": "rgba(0, 0, 0, 0.000)",
        "schematic_color": "rgba(0, 0, 0, 0.000)",
        "track_width": 0.25,
        "via_diameter": 0.6,
        "via_drill": 0.3,
        "wire_width": 6.0
      }
    ],
    "meta": {
      "version": 2
    }
  },
  "sheets": [
    ["%s", ""]
  ]
}
"""


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: gen.py NETLIST OUTDIR\n")
        return 2
    try:
        nl = nlmod.parse(argv[1])
    except (OSError, nlmod.NetlistError) as e:
        sys.stderr.write(f"gen.py: {e}\n")
        return 1
    missing = sorted({nl.comps[r][1] for r in nl.order if nl.on_board(r)} - set(FOOTPRINTS))
    if missing:
        sys.stderr.write(f"gen.py: no footprint drawn for {', '.join(missing)} (hardware/kicad/footprints.py)\n")
        return 1
    b, width, height = build(nl)
    os.makedirs(argv[2], exist_ok=True)
    write_pcb(b, width, height, os.path.join(argv[2], "reedboard.kicad_pcb"))
    import schematic  # noqa: E402  (kept apart: it only draws)
    schematic.write(nl, os.path.join(argv[2], "reedboard.kicad_sch"), uid("sheet"), uid)
    with open(os.path.join(argv[2], "reedboard.kicad_pro"), "w", encoding="utf-8") as fh:
        fh.write(PROJECT % uid("sheet"))
    print(f"reedboard: {f(width)} x {f(height)} mm, {len(b.segments)} tracks, {len(b.vias)} vias")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/python3
"""The hardware files' tests (tests/unit/hardware/CMakeLists.txt registers each case):

    hw_files.py SOURCE_DIR CASE [SCRATCH_DIR]

board_matches_netlist   the KiCad board has the netlist's connections and passes KiCad's DRC
moved_connection_named  a connection moved in a scratch copy (of the netlist, and of the board)
                        is named by the check, and the DRC finds the copper that no longer fits
project_is_generated    the committed KiCad project is what gen.py makes from the netlist now, and
                        the schematic's labels sit on its symbols' pin ends so that its nets are
                        the netlist's
fab_files_read         the gerbers and drill file made by fab.py open in gerbv without a complaint,
                        the JLCPCB BOM and CPL list every part of the board once, and the
                        schematic's drawing (sch2svg.py, for the PDF) shows every part
parts_render            every printable part renders to a non-empty, closed STL with OpenSCAD

Exit 77 (a skip) only when KiCad's Python module or OpenSCAD is not installed.
"""

import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
sys.dont_write_bytecode = True  # no __pycache__ in the source tree


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def fail(msg):
    print(f"FAIL: {msg}")
    return 1


def board_matches_netlist(src, _tmp):
    rc, out = run([sys.executable, f"{src}/hardware/kicad/check.py", f"{src}/hardware/netlist.txt",
                   f"{src}/hardware/kicad/reedboard.kicad_pcb"])
    print(out, end="")
    return rc


def moved_connection_named(src, tmp):
    # the square a1's diode anode moved from rank 1's line to rank 2's, in a copy of the netlist
    with open(f"{src}/hardware/netlist.txt", encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    moved = []
    for line in lines:
        words = line.split()
        if words[:2] == ["net", "ROW_1"]:
            words.remove("D_a1.A")
        elif words[:2] == ["net", "ROW_2"]:
            words.append("D_a1.A")
        moved.append(" ".join(words) if words[:1] == ["net"] else line)
    scratch = os.path.join(tmp, "netlist.txt")
    with open(scratch, "w", encoding="utf-8") as fh:
        fh.write("\n".join(moved) + "\n")
    check = [sys.executable, f"{src}/hardware/kicad/check.py"]
    board = f"{src}/hardware/kicad/reedboard.kicad_pcb"
    rc, out = run(check + [scratch, board])
    print(out, end="")
    if rc == SKIP:
        return SKIP
    want = "D_a1.A: on net ROW_2 in the netlist, on net ROW_1 on the board"
    if rc != 1 or want not in out:
        return fail(f"the netlist with D_a1.A moved: want exit 1 and '{want}'")
    if sum(1 for line in out.splitlines() if line.startswith(("D_", "SW_", "U", "R_", "C1"))) != 1:
        return fail("the moved connection is the only difference, but more were named")
    # the same move on the board: named, and the DRC finds the track that now joins two nets
    rc, out = run(check + [f"{src}/hardware/netlist.txt", board, "--move", "D_a1.A", "ROW_2"])
    print(out, end="")
    want = "D_a1.A: on net ROW_1 in the netlist, on net ROW_2 on the board"
    if rc != 1 or want not in out or "[clearance]" not in out or "unconnected" not in out:
        return fail(f"the board with D_a1.A moved: want '{want}', a clearance violation, an unconnected pad")
    print("moved connection named in both directions; DRC catches the board's short")
    return 0


def project_is_generated(src, tmp):
    rc, out = run([sys.executable, f"{src}/hardware/kicad/gen.py", f"{src}/hardware/netlist.txt", tmp])
    print(out, end="")
    if rc:
        return fail("gen.py failed")
    stale = [n for n in ("reedboard.kicad_pcb", "reedboard.kicad_sch", "reedboard.kicad_pro")
             if not filecmp.cmp(os.path.join(tmp, n), f"{src}/hardware/kicad/{n}", shallow=False)]
    if stale:
        return fail(f"hardware/kicad/{', '.join(stale)} differ from what the netlist gives: run "
                    "hardware/kicad/gen.py hardware/netlist.txt hardware/kicad")
    sys.path.insert(0, f"{src}/hardware/kicad")
    import netlist

    want = netlist.parse(f"{src}/hardware/netlist.txt").net_of()
    got = schematic_nets(src, f"{src}/hardware/kicad/reedboard.kicad_sch")
    diffs = [f"{r}.{p}: {want.get((r, p))} in the netlist, {got.get((r, p))} in the schematic"
             for r, p in sorted(set(want) | set(got)) if want.get((r, p)) != got.get((r, p))]
    if diffs:
        return fail("the schematic's nets differ:\n" + "\n".join(diffs[:20]))
    print(f"schematic: {len(got)} pins on their netlist nets by their labels")
    return 0


def fab_files_read(src, tmp):
    gerbv = shutil.which("gerbv")
    rc, out = run([sys.executable, f"{src}/hardware/kicad/fab.py", f"{src}/hardware/kicad/reedboard.kicad_pcb",
                   f"{src}/hardware/netlist.txt", tmp])
    print(out, end="")
    if "pcbnew) is not installed" in out or not gerbv:
        print("SKIP: KiCad or gerbv is not installed (`host/tools/dev deps test` installs them)")
        return SKIP
    if rc:
        return fail("fab.py failed")
    files = sorted(n for n in os.listdir(tmp) if n.endswith((".gtl", ".gbl", ".gts", ".gbs", ".gto", ".gbo", ".gm1", ".drl")))
    if len(files) != 8:
        return fail(f"want 7 gerbers and a drill file, got {files}")
    for name in files:
        png = os.path.join(tmp, name + ".png")
        rc, out = run([gerbv, "-x", "png", "--dpi=25", "-o", png, os.path.join(tmp, name)])
        if rc or out.strip() or not os.path.getsize(png):
            return fail(f"gerbv on {name}: exit {rc}: {out.strip()}")
    import csv
    with open(os.path.join(tmp, "reedboard-bom.csv"), encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    with open(os.path.join(tmp, "reedboard-cpl.csv"), encoding="utf-8") as fh:
        cpl = list(csv.reader(fh))
    if rows[0] != ["Comment", "Designator", "Footprint", "LCSC Part #"] or cpl[0] != ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]:
        return fail("the BOM or CPL header is not JLCPCB's")
    bom_refs = sorted(r for row in rows[1:] for r in row[1].split(","))
    cpl_refs = sorted(row[0] for row in cpl[1:])
    sys.path.insert(0, f"{src}/hardware/kicad")
    import netlist

    nl = netlist.parse(f"{src}/hardware/netlist.txt")
    want = sorted(r for r in nl.comps if nl.on_board(r))
    if bom_refs != want or cpl_refs != want:
        return fail(f"BOM ({len(bom_refs)}) and CPL ({len(cpl_refs)}) must list the board's {len(want)} parts once each")
    # the schematic drawing for the PDF names every part of the netlist
    svg = os.path.join(tmp, "schematic.svg")
    rc, out = run([sys.executable, f"{src}/hardware/kicad/sch2svg.py", f"{src}/hardware/kicad/reedboard.kicad_sch", svg])
    if rc:
        return fail(f"sch2svg.py: {out}")
    with open(svg, encoding="utf-8") as fh:
        drawn = fh.read()
    missing = [r for r in nl.comps if f">{r}</text>" not in drawn]
    if missing:
        return fail(f"the schematic drawing lacks {missing[:5]}")
    print(f"{len(files)} files open in gerbv; BOM and CPL list {len(cpl_refs)} parts")
    return 0


def schematic_nets(src, path):
    """(ref, pin) -> net, read as KiCad reads the sheet: a global label on a pin's end."""
    sys.path.insert(0, f"{src}/hardware/kicad")
    import sexp

    with open(path, encoding="utf-8") as fh:
        root = sexp.parse(fh.read())
    libs = {}
    for sym in sexp.item(root, "lib_symbols")[1:]:
        pins = {}
        for unit in sexp.items(sym, "symbol"):
            for pin in sexp.items(unit, "pin"):
                at = sexp.item(pin, "at")
                pins[sexp.item(pin, "number")[1]] = (float(at[1]), float(at[2]))
        libs[sym[1]] = pins
    labels = {}
    for label in sexp.items(root, "global_label"):
        at = sexp.item(label, "at")
        labels[(round(float(at[1]), 3), round(float(at[2]), 3))] = label[1]
    nets = {}
    for sym in sexp.items(root, "symbol"):
        at = sexp.item(sym, "at")
        ref = next(p[2] for p in sexp.items(sym, "property") if p[1] == "Reference")
        for pin, (px, py) in libs[sexp.item(sym, "lib_id")[1]].items():
            # symbol y grows upwards, the sheet's downwards
            where = (round(float(at[1]) + px, 3), round(float(at[2]) - py, 3))
            if where in labels:
                nets[(ref, pin)] = labels[where]
    return nets


def parts_render(src, tmp):
    openscad = shutil.which("openscad")
    if not openscad:
        print("SKIP: openscad is not installed (`host/tools/dev deps test` installs it)")
        return SKIP
    parts = sorted(n for n in os.listdir(f"{src}/hardware/parts") if n.endswith(".scad") and not n.startswith("_"))
    if not parts:
        return fail("no parts in hardware/parts")
    for name in parts:
        stl = os.path.join(tmp, name[:-5] + ".stl")
        # coarser circles than the printed files: the same geometry, rendered in a fraction of the time
        rc, out = run([openscad, "--hardwarnings", "-D", "$fn=16", "-o", stl, f"{src}/hardware/parts/{name}"])
        if rc:
            print(out)
            return fail(f"{name}: openscad exit {rc}")
        with open(stl, encoding="ascii", errors="replace") as fh:
            facets = fh.read().count("facet normal")
        if facets < 12 or "WARNING" in out:
            print(out)
            return fail(f"{name}: {facets} facets (or warnings) in its STL")
        print(f"{name}: {facets} facets")
    return 0


CASES = {f.__name__: f for f in (board_matches_netlist, moved_connection_named, project_is_generated, fab_files_read,
                                  parts_render)}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        sys.stderr.write(__doc__)
        sys.exit(2)
    with tempfile.TemporaryDirectory() as scratch:
        sys.exit(CASES[sys.argv[2]](sys.argv[1], scratch))

#!/usr/bin/python3
"""Makes the files a PCB fab needs from the KiCad board, for JLCPCB's order and assembly forms.

    fab.py BOARD NETLIST OUTDIR

Writes into OUTDIR: gerbers (Protel names: .GTL top copper, .GBL bottom, .GTS/.GBS masks,
.GTO/.GBO silkscreen, .GM1 outline) and the Excellon drill file (.DRL, plated and unplated
holes together), all zipped as reedboard-gerbers.zip (the upload); reedboard-bom.csv (JLCPCB's
BOM columns: Comment, Designator, Footprint, LCSC Part #) and reedboard-cpl.csv (JLCPCB's
pick-and-place columns: Designator, Mid X, Mid Y, Layer, Rotation); reedboard-assembly.pdf (the
board's outline, parts and references, for hand assembly).
"""

import csv
import os
import sys
import zipfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import netlist as nlmod  # noqa: E402

GERBERS = [  # layer, file name suffix (Protel extension)
    ("F_Cu", "GTL"), ("B_Cu", "GBL"), ("F_Mask", "GTS"), ("B_Mask", "GBS"),
    ("F_SilkS", "GTO"), ("B_SilkS", "GBO"), ("Edge_Cuts", "GM1"),
]


def plotter(pcbnew, board, out, frame, values):
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(out)
    po.SetPlotFrameRef(frame)
    po.SetPlotValue(values)
    po.SetPlotReference(True)
    return pc, po


def plot_gerbers(pcbnew, board, out):
    pc, po = plotter(pcbnew, board, out, False, False)
    po.SetUseGerberProtelExtensions(True)
    po.SetUseGerberX2format(False)  # plain RS-274X: every fab and viewer reads it
    po.SetSubtractMaskFromSilk(True)
    made = []
    for layer, _ext in GERBERS:
        pc.SetLayer(getattr(pcbnew, layer))
        pc.OpenPlotfile(layer, pcbnew.PLOT_FORMAT_GERBER, layer)
        if not pc.PlotLayer():
            raise RuntimeError(f"plotting {layer} failed")
        made.append(pc.GetPlotFileName())
    pc.ClosePlot()
    return made


def plot_assembly(pcbnew, board, out):
    pc, po = plotter(pcbnew, board, out, True, True)
    po.SetPlotInvisibleText(False)
    pc.OpenPlotfile("assembly", pcbnew.PLOT_FORMAT_PDF, "assembly")
    for layer in (pcbnew.F_Fab, pcbnew.Edge_Cuts, pcbnew.F_SilkS):
        pc.SetLayer(layer)
        pc.PlotLayer()
    name = pc.GetPlotFileName()
    pc.ClosePlot()
    return name


def write_drill(pcbnew, board, out):
    w = pcbnew.EXCELLON_WRITER(board)
    w.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), True)  # PTH+NPTH merged
    w.SetFormat(True)  # metric
    w.CreateDrillandMapFilesSet(out, True, False)
    return [os.path.join(out, n) for n in os.listdir(out) if n.endswith(".drl")]


def write_bom_cpl(pcbnew, board, nl, out):
    groups = {}
    for fp in board.GetFootprints():
        ref = fp.GetReference()
        value, fpname, _ = nl.comps[ref]
        groups.setdefault((value, fpname), []).append(ref)
    bom = os.path.join(out, "reedboard-bom.csv")
    with open(bom, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["Comment", "Designator", "Footprint", "LCSC Part #"])
        for (value, fpname), refs in sorted(groups.items()):
            w.writerow([value, ",".join(sorted(refs)), fpname, ""])
    cpl = os.path.join(out, "reedboard-cpl.csv")
    edge = board.GetBoardEdgesBoundingBox()
    x0, y1 = edge.GetX(), edge.GetBottom()
    with open(cpl, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["Designator", "Mid X", "Mid Y", "Layer", "Rotation"])
        for fp in sorted(board.GetFootprints(), key=lambda f: f.GetReference()):
            # the part's middle: the centre of its pads (a footprint's origin is its pin 1)
            pads = list(fp.Pads())
            xs, ys = [p.GetPosition().x for p in pads], [p.GetPosition().y for p in pads]
            pos = pcbnew.wxPoint((min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2)
            # the board's lower left corner is 0,0 and y grows upwards, as the fab's viewer has it
            w.writerow([fp.GetReference(), f"{pcbnew.ToMM(pos.x - x0):.3f}mm", f"{pcbnew.ToMM(y1 - pos.y):.3f}mm",
                        "Top" if fp.GetLayer() == pcbnew.F_Cu else "Bottom", f"{fp.GetOrientationDegrees():.0f}"])
    return bom, cpl, sum(len(r) for r in groups.values()), len(groups)


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    try:
        import pcbnew
    except ImportError:
        print("fab.py: KiCad's Python module (pcbnew) is not installed (`host/tools/dev deps hardware`)")
        return 1
    board_path, netlist_path, out = argv[1:]
    nl = nlmod.parse(netlist_path)
    os.makedirs(out, exist_ok=True)
    board = pcbnew.LoadBoard(board_path)
    gerbers = plot_gerbers(pcbnew, board, out)
    drills = write_drill(pcbnew, board, out)
    if not drills:
        print("fab.py: no drill file written")
        return 1
    with zipfile.ZipFile(os.path.join(out, "reedboard-gerbers.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for path in gerbers + drills:
            z.write(path, os.path.basename(path))
    _, _, parts, lines = write_bom_cpl(pcbnew, board, nl, out)
    pdf = plot_assembly(pcbnew, board, out)
    os.replace(pdf, os.path.join(out, "reedboard-assembly.pdf"))
    edge = board.GetBoardEdgesBoundingBox()
    print(f"fab files in {out}: {len(gerbers)} gerbers + drill (reedboard-gerbers.zip), board "
          f"{pcbnew.ToMM(edge.GetWidth()):.1f} x {pcbnew.ToMM(edge.GetHeight()):.1f} mm, 2 layers; "
          f"JLCPCB BOM ({parts} parts in {lines} lines) and CPL; assembly drawing")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

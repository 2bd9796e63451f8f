#!/usr/bin/python3
"""Checks the KiCad board against the netlist and runs KiCad's design-rule check.

    check.py NETLIST BOARD [--report FILE] [--move REF.PIN NET]

Compares every pad's net on BOARD (read with pcbnew, KiCad's Python module) with NETLIST, naming
each difference, then runs pcbnew's DRC headless and fails on any violation, unconnected pad or
footprint error. --move puts one pad on another net in memory first (how the test shows that a
moved connection is found). Exit: 0 all good, 1 a difference or violation, 2 bad usage,
77 KiCad's Python module is not installed.
"""

import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import netlist as nlmod  # noqa: E402


def board_pins(board):
    """(ref, pin) -> net name for every pad of the board with a net."""
    out = {}
    for fp in board.GetFootprints():
        ref = fp.GetReference()
        for pad in fp.Pads():
            name = pad.GetName()
            net = pad.GetNetname()
            if name and net:
                out[(ref, name)] = net
    return out


def compare(nl, pins, refs):
    """The differences between the netlist and the board's pads, one line each."""
    want = {k: v for k, v in nl.net_of().items() if nl.on_board(k[0])}
    diffs = []
    for ref in sorted(r for r in nl.comps if nl.on_board(r)):
        if ref not in refs:
            diffs.append(f"{ref}: in the netlist, not on the board")
    for ref in sorted(refs - set(nl.comps)):
        diffs.append(f"{ref}: on the board, not in the netlist")
    for key in sorted(set(want) | set(pins)):
        a, b = want.get(key), pins.get(key)
        if a == b or key[0] not in refs or key[0] not in nl.comps:
            continue
        where = f"{key[0]}.{key[1]}"
        if a is None:
            diffs.append(f"{where}: on net {b} on the board, on no net in the netlist")
        elif b is None:
            diffs.append(f"{where}: on net {a} in the netlist, on no net on the board")
        else:
            diffs.append(f"{where}: on net {a} in the netlist, on net {b} on the board")
    return diffs


def drc(pcbnew, board, report):
    if not pcbnew.WriteDRCReport(board, report, pcbnew.EDA_UNITS_MILLIMETRES, True):
        return ["KiCad's DRC did not run"]
    with open(report, encoding="utf-8") as fh:
        text = fh.read()
    counts = re.findall(r"\*\* Found (\d+) ([A-Za-z ]+?) \*\*", text)
    if len(counts) != 3:
        return [f"DRC report {report}: not in the expected form"]
    problems = [f"DRC: {n} {what}" for n, what in counts if int(n)]
    if problems:
        # each violation's line and its indented detail lines (rule, where, which items)
        problems += ["  " + line for line in text.splitlines() if line.startswith(("[", "    "))]
    return problems


def main(argv):
    args = argv[1:]
    report = move = None
    while len(args) > 2:
        if args[2] == "--report" and len(args) > 3:
            report = args[3]
            del args[2:4]
        elif args[2] == "--move" and len(args) > 4:
            move = (args[3], args[4])
            del args[2:5]
        else:
            break
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    try:
        import pcbnew
    except ImportError:
        print("check.py: KiCad's Python module (pcbnew) is not installed: `host/tools/dev deps test` installs it")
        return 77
    try:
        nl = nlmod.parse(args[0])
    except (OSError, nlmod.NetlistError) as e:
        print(f"check.py: {e}")
        return 1
    if not os.path.isfile(args[1]):
        print(f"check.py: {args[1]}: no such board file")
        return 1
    board = pcbnew.LoadBoard(args[1])
    if move:
        ref, _, pin = move[0].partition(".")
        fp = board.FindFootprintByReference(ref)
        net = board.FindNet(move[1])
        pads = [p for p in fp.Pads() if p.GetName() == pin] if fp else []
        if not pads or net is None:
            print(f"check.py: --move {move[0]} {move[1]}: no such pad or net on the board")
            return 2
        for pad in pads:
            pad.SetNet(net)
    pins = board_pins(board)
    refs = {fp.GetReference() for fp in board.GetFootprints()}
    problems = compare(nl, pins, refs)
    with tempfile.TemporaryDirectory() as tmp:
        problems += drc(pcbnew, board, report or os.path.join(tmp, "drc.rpt"))
    for line in problems:
        print(line)
    bbox = board.GetBoardEdgesBoundingBox()
    size = f"{pcbnew.ToMM(bbox.GetWidth()):.1f} x {pcbnew.ToMM(bbox.GetHeight()):.1f} mm"
    if problems:
        print(f"{args[1]}: {len(problems)} problem line(s)")
        return 1
    print(f"{args[1]}: {len(refs)} footprints, {len(set(pins.values()))} nets as in {args[0]}; "
          f"DRC clean; board {size}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env bash
# fab.sh TOP OUTDIR - everything a club needs to order and make the board, into OUTDIR
# (`host/tools/dev hardware` runs it; hardware/BUILD.md, "Ordering the board"). Nothing it makes
# is committed. Stops at the first problem, naming it.
set -euo pipefail
top=$1
out=$2
hw=$top/hardware
py=/usr/bin/python3 # KiCad's Python module is Debian's python3's
[ -x "$py" ] || py=python3
say() { printf 'hardware: %s\n' "$*" >&2; }

rm -rf "$out"
mkdir -p "$out/gerbers" "$out/stl"

# The board must be the netlist's and pass KiCad's DRC before anything is made from it.
"$py" "$hw/kicad/check.py" "$hw/netlist.txt" "$hw/kicad/reedboard.kicad_pcb" --report "$out/drc.rpt" >&2

# Gerbers, drill, the JLCPCB BOM and CPL, the assembly drawing (pcbnew's plotter).
# (KiCad 6 prints an internal assertion about the drill map while plotting: kept in kicad.log)
"$py" "$hw/kicad/fab.py" "$hw/kicad/reedboard.kicad_pcb" "$hw/netlist.txt" "$out/gerbers" 2>"$out/kicad.log" || {
    cat "$out/kicad.log" >&2
    exit 1
}
mv "$out/gerbers/reedboard-gerbers.zip" "$out/gerbers/reedboard-bom.csv" "$out/gerbers/reedboard-cpl.csv" \
    "$out/gerbers/reedboard-assembly.pdf" "$out/"

# Every gerber and the drill file must open in gerbv, an independent reader.
n=0
for f in "$out"/gerbers/*; do
    log=$(gerbv -x png --dpi=25 -o "$out/gerbv-check.png" "$f" 2>&1 || echo "exit status $?")
    if [ -n "$log" ] || [ ! -s "$out/gerbv-check.png" ]; then
        say "gerbv cannot read $f: $log"
        exit 1
    fi
    n=$((n + 1))
done
gerbv -x png --dpi=100 -o "$out/reedboard-copper.png" "$out"/gerbers/*.gtl "$out"/gerbers/*.gbl \
    "$out"/gerbers/*.gm1 "$out"/gerbers/*.drl 2>/dev/null
rm -f "$out/gerbv-check.png"
say "$n gerber and drill files open in gerbv"

# The schematic as PDF. KiCad 6 plots a schematic only from its window, so sch2svg.py draws the
# KiCad schematic's symbols, pins and net labels from the file itself; the wiring diagram drawn
# from the same netlist (hardware/wiring.svg) comes along as a second PDF.
"$py" "$hw/kicad/sch2svg.py" "$hw/kicad/reedboard.kicad_sch" "$out/schematic.svg" >/dev/null
rsvg-convert -f pdf -o "$out/reedboard-schematic.pdf" "$out/schematic.svg"
rsvg-convert -f pdf -o "$out/reedboard-wiring.pdf" "$hw/wiring.svg"
rm -f "$out/schematic.svg"

# The printable parts.
for scad in "$hw"/parts/*.scad; do
    name=$(basename "$scad" .scad)
    case $name in _*) continue ;; esac
    openscad --hardwarnings -o "$out/stl/$name.stl" "$scad" 2>"$out/stl/$name.log" || {
        cat "$out/stl/$name.log" >&2
        say "openscad failed on $scad"
        exit 1
    }
    rm -f "$out/stl/$name.log"
done
say "made in $out: $(cd "$out" && printf '%s ' *)"
say "stl: $(cd "$out/stl" && printf '%s ' *)"

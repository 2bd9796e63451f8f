// The magnet jig: glues every magnet at the same height and with the same pole down.
// Each well holds a peg tip up; under it, below a 1 mm floor, a reference magnet sits in its own
// pocket (glued in once, the marked pole up). A loose magnet held over the peg's pocket turns and
// drops in with its attracting pole down, the same in every peg; the well's depth leaves the peg's
// tip flush with the jig's top plate, so a flat scraper levels the magnet and glue with the tip.
include <_dims.scad>

wells = 8;              // a set of pegs at a time (a rank of pieces)
pitch = 14;             // far enough apart that neighbouring reference magnets do not turn a magnet
floor_h = 1.0;          // between the reference magnet and the peg's base
base_d = 20;            // the peg's base disc (peg.scad)
base_h = 1.6;
depth = base_h + peg_len;

module well() {
    // the peg's base disc and shaft, tip level with the top
    translate([0, 0, magnet_h + floor_h]) cylinder(d = base_d + 2 * fit, h = base_h + 0.01);
    translate([0, 0, magnet_h + floor_h]) cylinder(d = peg_d + 2 * fit, h = depth + 1);
    // the reference magnet's pocket, entered from below
    translate([0, 0, -0.01]) cylinder(d = magnet_d + 2 * fit, h = magnet_h + 0.01);
}

width = wells * pitch + 10;
difference() {
    translate([-width / 2, -(base_d + 10) / 2, 0]) cube([width, base_d + 10, magnet_h + floor_h + depth]);
    for (i = [0 : wells - 1]) translate([(i - (wells - 1) / 2) * pitch, 0, 0]) well();
    // the pole mark: an arrow on the top plate pointing at the first well
    translate([-width / 2 + 2, -2, magnet_h + floor_h + depth - 0.6]) cube([3, 4, 1]);
}

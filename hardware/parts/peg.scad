// The peg under a piece: a disc glued under the piece's base, the 6 mm peg, and the magnet's
// pocket at the tip (glue the magnet flush with the tip, with the magnet_jig). Print tip up.
include <_dims.scad>

base_d = 20;     // glued under the piece (felt removed); trim to the piece if smaller
base_h = 1.6;

assert((peg_d - magnet_d - 2 * fit) / 2 >= wall_min, "magnet too wide for the peg's wall");
assert(magnet_h + 1 <= peg_len, "magnet too long for the peg");
assert(peg_d + 2 * fit <= hole_d - 0.2, "the peg would stick in the hole");

difference() {
    union() {
        cylinder(d = base_d, h = base_h);
        cylinder(d = peg_d, h = base_h + peg_len);
    }
    // the magnet's pocket, open at the tip
    translate([0, 0, base_h + peg_len - magnet_h]) cylinder(d = magnet_d + 2 * fit, h = magnet_h + 1);
    // glue grooves under the base
    for (a = [0, 60, 120]) rotate([0, 0, a]) translate([-base_d / 2, -0.5, -0.01]) cube([base_d, 1, 0.4]);
}

// The button box on the VI player's right (BUILD.md): four 12 mm tactile switches in a row under
// caps that differ by touch, the status LED, and holes over the buzzer. Print open side up; the
// switches sit on a strip of stripboard screwed to the bosses, or the box sits over the board's
// controller strip.
include <_dims.scad>

buttons = 4;
pitch = 24;           // a finger's width between caps
cap = 12.4;           // the switches' square plungers' caps pass through these openings
wall = 2;
inner_h = 18;         // switch height plus stripboard and wiring
len = buttons * pitch + 24;
wid = 36;

module cap_shape(i) {
    // PROMOTE round, REPEAT square, CLOCK triangle, ARBITER cross: told apart by touch
    if (i == 0) circle(d = cap);
    else if (i == 1) square(cap, center = true);
    else if (i == 2) circle(d = cap + 3, $fn = 3);
    else union() { square([cap, cap / 3], center = true); square([cap / 3, cap], center = true); }
}

difference() {
    cube([len, wid, inner_h + wall]);
    translate([wall, wall, -0.01]) cube([len - 2 * wall, wid - 2 * wall, inner_h]);
    for (i = [0 : buttons - 1])
        translate([12 + pitch / 2 + i * pitch, wid / 2, inner_h - 0.1]) linear_extrude(wall + 0.2) offset(0.3) cap_shape(i);
    // the LED (5 mm) and the buzzer's sound holes at the far end
    translate([len - 8, wid / 2 + 8, inner_h - 0.1]) cylinder(d = 5.2, h = wall + 0.2);
    for (dx = [-3, 0, 3], dy = [-3, 0, 3]) translate([len - 8 + dx, wid / 2 - 6 + dy, inner_h - 0.1]) cylinder(d = 1.6, h = wall + 0.2);
    // the cable's way out
    translate([-0.01, wid / 2 - 4, -0.01]) cube([wall + 0.02, 8, 6]);
}
// screw bosses (M3, self-tapping) in the corners
for (x = [wall + 4, len - wall - 4], y = [wall + 4, wid - wall - 4])
    translate([x, y, 0]) difference() { cylinder(d = 7, h = inner_h); translate([0, 0, -0.01]) cylinder(d = 2.6, h = inner_h); }

// Shared dimensions of the printable parts (mm), from hardware/BUILD.md and BOM.md.
hole_d = 6.5;        // the square's hole
peg_d = 6.0;         // the peg: stands firmly, lifts out easily
peg_len = 7.0;       // 1 mm shorter than the 8 mm hole: the piece's base rests on the board
// A printed peg holds its magnet in a pocket at its tip, so the magnet is narrower than the peg:
// 4 x 2 mm (N52) leaves a 1 mm wall. (A wooden dowel peg carries the 6 x 3 mm magnet on its end.)
magnet_d = 4.0;
magnet_h = 2.0;
fit = 0.15;          // printing clearance for a press fit
wall_min = 0.8;      // thinnest wall an FDM printer makes reliably
$fn = 64;

"""The reedboard's footprints, by the netlist's footprint names.

Each footprint's pads carry the netlist's pin names (the netlist names the 74HC138's pins A0,
Y0, ... rather than numbers), so the board's pads and the netlist compare one to one. Every
footprint is drawn at rotation 0 in the orientation the board uses. Units: mm.
"""

# name -> dict(pads=[(pin, x, y, size, drill, shape)], court=(x0, y0, x1, y1), body=...)
# A pin of "" is a mechanical leg (a switch's second pair of legs): copper, no net.


def _row(names, x0, y, pitch, size, drill, first_square=False):
    pads = []
    for i, name in enumerate(names):
        shape = "rect" if first_square and i == 0 else "circle"
        pads.append((name, x0 + i * pitch, y, size, drill, shape))
    return pads


def _two(p1, p2, pitch, size=1.6, drill=0.8):
    return [(p1, 0.0, 0.0, size, drill, "rect"), (p2, pitch, 0.0, size, drill, "circle")]


# Arduino Nano v3, seen from above with the USB socket on the left, header rows horizontal.
# Upper row: D13, 3V3, AREF, A0..A7, 5V, RST, GND, VIN; lower row: TX, RX, RST, GND, D2..D12.
NANO_UPPER = ["PB5", "3V3", "AREF", "PC0", "PC1", "PC2", "PC3", "PC4", "PC5", "ADC6", "ADC7",
              "5V", "RST", "GND_2", "VIN"]
NANO_LOWER = ["PD1", "PD0", "RST_2", "GND", "PD2", "PD3", "PD4", "PD5", "PD6", "PD7", "PB0",
              "PB1", "PB2", "PB3", "PB4"]

# 74HC138 in DIP-16, pin 1 lower left: lower row pins 1..8, upper row pins 16..9.
DIP138_LOWER = ["A0", "A1", "A2", "G2A_N", "G2B_N", "G1", "Y7", "GND"]
DIP138_UPPER = ["VCC", "Y0", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]

FOOTPRINTS = {
    "Arduino_Nano_v3": dict(
        pads=_row(NANO_UPPER, 0, 0, 2.54, 1.6, 1.0, True) + _row(NANO_LOWER, 0, 15.24, 2.54, 1.6, 1.0),
        court=(-4.5, -1.8, 40.1, 17.1), body=(-4.0, -1.3, 39.6, 16.5),
        descr="Arduino Nano v3 module on two 15-pin female headers"),
    "DIP-16": dict(
        pads=_row(DIP138_UPPER, 0, 0, 2.54, 1.6, 0.8, False) + _row(DIP138_LOWER, 0, 7.62, 2.54, 1.6, 0.8, True),
        court=(-1.6, -1.6, 19.4, 9.2), body=(-1.2, 1.0, 19.0, 6.6),
        descr="DIP-16 socket, 7.62 mm rows"),
    "C_Disc_P5.00mm": dict(pads=_two("1", "2", 5.0), court=(-1.3, -1.8, 6.3, 1.8),
                           body=(-0.5, -1.3, 5.5, 1.3), descr="ceramic disc capacitor, 5 mm pitch"),
    "R_Axial_P7.62mm": dict(pads=_two("1", "2", 7.62), court=(-1.3, -1.5, 8.9, 1.5),
                            body=(1.0, -1.0, 6.6, 1.0), descr="axial resistor, 7.62 mm pitch"),
    "D_DO-35_P7.62mm": dict(pads=_two("K", "A", 7.62), court=(-1.3, -1.4, 8.9, 1.4),
                            body=(1.4, -0.9, 6.2, 0.9), descr="DO-35 diode, cathode (band) on the left"),
    "LED_D5.0mm": dict(pads=_two("K", "A", 2.54, 1.8, 0.9), court=(-1.95, -3.2, 4.5, 3.2),
                       body=(-1.45, -2.7, 4.0, 2.7), descr="5 mm LED, flat (cathode) on the left"),
    "Buzzer_12x9.5mm": dict(pads=_two("P", "N", 7.6, 2.0, 1.0), court=(-2.4, -6.3, 10.0, 6.3),
                            body=(-2.2, -6.0, 9.8, 6.0), descr="12 mm active buzzer, + on the left"),
    "TO-92_Inline": dict(pads=[("E", 0.0, 0.0, 1.5, 0.8, "rect"), ("B", 2.54, 0.0, 1.5, 0.8, "circle"),
                               ("C", 5.08, 0.0, 1.5, 0.8, "circle")],
                         court=(-1.3, -3.0, 6.4, 1.8), body=(-0.8, -2.6, 5.9, 1.3),
                         descr="TO-92, legs E B C bent to 2.54 mm (flat side towards the board edge)"),
    # 12 mm tactile switch: legs 1 and 2 switch; the legs 12.5 mm across are their twins
    "SW_PUSH_12mm": dict(pads=[("1", 0.0, 0.0, 2.0, 1.0, "rect"), ("2", 0.0, 5.0, 2.0, 1.0, "circle"),
                               ("", 12.5, 0.0, 2.0, 1.0, "circle"), ("", 12.5, 5.0, 2.0, 1.0, "circle")],
                         court=(-1.5, -4.3, 14.0, 9.3), body=(0.25, -3.5, 12.25, 8.5),
                         descr="12 x 12 mm tactile switch"),
    # glass reed switch lying along the file; leads bent down 20.32 mm apart. The origin is the
    # square's hole centre: 4 mm inside the upper end of the 14 mm glass body.
    "Reed_Glass_14mm": dict(pads=[("2", 0.0, -7.16, 1.8, 0.9, "circle"), ("1", 0.0, 13.16, 1.8, 0.9, "rect")],
                            court=(-1.8, -8.3, 1.8, 14.3), body=(-1.3, -4.0, 1.3, 10.0),
                            descr="glass reed switch, 14 mm body, leads bent to 20.32 mm"),
}

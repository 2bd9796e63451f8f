"""Writes the reedboard's KiCad 6 schematic from the netlist: one box symbol per part with the
netlist's pin names, every connected pin carrying a global label with its net's name (labels of
one name are one net in KiCad), parts on a grid in the netlist's order."""

G = 2.54  # KiCad's connection grid


def _q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _f(v):
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _font():
    return "(effects (font (size 1.27 1.27)))"


def _symbol_name(value):
    return "".join(c if c.isalnum() or c in "_-" else "_" for c in value)


def _shape(pins):
    """Pin positions of the box: half on the left, half on the right (lib coordinates, y up)."""
    left = pins[: (len(pins) + 1) // 2]
    right = pins[len(left):]
    rows = max(len(left), len(right))
    half_w = 2 * G if len(pins) <= 3 else 4 * G
    top = (rows - 1) * G / 2
    top = round(top / G) * G
    out = []
    for i, p in enumerate(left):
        out.append((p, -half_w - G, top - i * G, 0))
    for i, p in enumerate(right):
        out.append((p, half_w + G, top - i * G, 180))
    return out, half_w, top, rows


def _lib_symbol(name, value, pins):
    shape, half_w, top, rows = _shape(pins)
    bottom = top - (rows - 1) * G
    lines = [f'    (symbol "reedboard:{name}" (in_bom yes) (on_board yes)',
             f'      (property "Reference" "U" (id 0) (at 0 {_f(top + G)} 0) {_font()})',
             f'      (property "Value" {_q(value)} (id 1) (at 0 {_f(bottom - G)} 0) {_font()})',
             f'      (property "Footprint" "" (id 2) (at 0 0 0) (effects (font (size 1.27 1.27)) hide))',
             f'      (property "Datasheet" "" (id 3) (at 0 0 0) (effects (font (size 1.27 1.27)) hide))',
             f'      (symbol "{name}_0_1"',
             f"        (rectangle (start {_f(-half_w)} {_f(top + G / 2)}) (end {_f(half_w)} {_f(bottom - G / 2)})",
             "          (stroke (width 0.254) (type default) (color 0 0 0 0)) (fill (type background)))",
             "      )", f'      (symbol "{name}_1_1"']
    for pin, x, y, ang in shape:
        lines.append(f"        (pin passive line (at {_f(x)} {_f(y)} {ang}) (length {_f(G)})")
        lines.append(f"          (name {_q(pin)} {_font()}) (number {_q(pin)} {_font()}))")
    lines += ["      )", "    )"]
    return lines


def write(nl, path, sheet_uuid, uid):
    kinds = {}
    for ref in nl.order:
        value = nl.comps[ref][0]
        name = _symbol_name(value)
        if name in kinds and kinds[name][1] != nl.pins[ref]:
            name = _symbol_name(f"{value}_{ref}")
        kinds.setdefault(name, (value, nl.pins[ref]))
    net_of = nl.net_of()
    cols, cell_w = 12, 24 * G
    body = []
    instances = []
    x0, y = 10 * G, 10 * G
    row_h = 0
    for i, ref in enumerate(nl.order):
        if i % cols == 0 and i:
            y += row_h + 4 * G
            row_h = 0
        value, fp, _descr = nl.comps[ref]
        name = _symbol_name(value)
        if kinds[name][1] != nl.pins[ref]:
            name = _symbol_name(f"{value}_{ref}")
        shape, half_w, top, rows = _shape(nl.pins[ref])
        sx = x0 + (i % cols) * cell_w
        sy = y + top + G
        row_h = max(row_h, (rows + 2) * G)
        sid = uid("sym", ref)
        fp_text = f"reedboard:{fp}" if fp != "on_module" else ""
        body.append(f'  (symbol (lib_id "reedboard:{name}") (at {_f(sx)} {_f(sy)} 0) (unit 1)')
        body.append(f"    (in_bom yes) (on_board {'yes' if fp != 'on_module' else 'no'})")
        body.append(f"    (uuid {sid})")
        body.append(f'    (property "Reference" {_q(ref)} (id 0) (at {_f(sx)} {_f(sy - top - G)} 0) {_font()})')
        body.append(f'    (property "Value" {_q(value)} (id 1) (at {_f(sx)} {_f(sy - top + (rows) * G)} 0) {_font()})')
        body.append(f'    (property "Footprint" {_q(fp_text)} (id 2) (at {_f(sx)} {_f(sy)} 0) '
                    "(effects (font (size 1.27 1.27)) hide))")
        body.append(f'    (property "Datasheet" "" (id 3) (at {_f(sx)} {_f(sy)} 0) (effects (font (size 1.27 1.27)) hide))')
        for pin, _x, _y, _a in shape:
            body.append(f"    (pin {_q(pin)} (uuid {uid('pin', ref, pin)}))")
        body.append("  )")
        instances.append(f'    (path "/{sid}" (reference {_q(ref)}) (unit 1) (value {_q(value)}) (footprint {_q(fp_text)}))')
        for pin, px, py, ang in shape:
            net = net_of.get((ref, pin))
            if net is None:
                body.append(f"  (no_connect (at {_f(sx + px)} {_f(sy - py)}) (uuid {uid('nc', ref, pin)}))")
                continue
            lx, ly = sx + px, sy - py
            rot, just = (180, "right") if ang == 0 else (0, "left")
            body.append(f"  (global_label {_q(net)} (shape passive) (at {_f(lx)} {_f(ly)} {rot}) (fields_autoplaced)")
            body.append(f"    (effects (font (size 1.27 1.27)) (justify {just})) (uuid {uid('label', ref, pin)})")
            body.append(f'    (property "Intersheet References" "${{INTERSHEET_REFS}}" (id 0) (at {_f(lx)} {_f(ly)} 0)')
            body.append("      (effects (font (size 1.27 1.27)) hide)))")
    width = x0 * 2 + cols * cell_w
    height = y + row_h + 10 * G
    out = ["(kicad_sch (version 20211123) (generator twinboard_gen)", "",
           f"  (uuid {sheet_uuid})", "", f'  (paper "User" {_f(width)} {_f(height)})', "",
           "  (title_block", '    (title "reedboard")', '    (company "twinboard")',
           '    (comment 1 "Generated from hardware/netlist.txt by hardware/kicad/gen.py")',
           '    (comment 2 "CERN-OHL-S-2.0 (hardware/LICENSE)")', "  )", "", "  (lib_symbols"]
    for name, (value, pins) in kinds.items():
        out.extend(_lib_symbol(name, value, pins))
    out.append("  )")
    out.append("")
    out.extend(body)
    out += ["", "  (sheet_instances", '    (path "/" (page "1"))', "  )", "", "  (symbol_instances"]
    out.extend(instances)
    out += ["  )", ")"]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")

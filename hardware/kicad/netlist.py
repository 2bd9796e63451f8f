"""Reads hardware/netlist.txt (format: hardware/README.md) for the KiCad generator and checks.

A component whose footprint is `on_module` (the USB-serial bridge on the Nano) has no part of
its own on the board: it is in the schematic, and left out of the board and its comparison.
"""

import sys


class NetlistError(Exception):
    pass


class Netlist:
    def __init__(self):
        self.comps = {}  # ref -> (value, footprint, description)
        self.order = []  # refs in file order
        self.pins = {}  # ref -> [pin, ...]
        self.nets = {}  # net -> [(ref, pin), ...] in file order
        self.net_order = []

    def net_of(self):
        """(ref, pin) -> net name."""
        out = {}
        for net, members in self.nets.items():
            for member in members:
                out[member] = net
        return out

    def on_board(self, ref):
        return self.comps[ref][1] != "on_module"


def parse(path):
    nl = Netlist()
    seen = {}
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].split()
            if not line:
                continue
            where = f"{path}:{lineno}"
            kind, args = line[0], line[1:]
            if kind == "comp":
                if len(args) < 3:
                    raise NetlistError(f"{where}: comp needs <ref> <value> <footprint>")
                ref = args[0]
                if ref in nl.comps:
                    raise NetlistError(f"{where}: component {ref} declared twice")
                nl.comps[ref] = (args[1], args[2], " ".join(args[3:]))
                nl.order.append(ref)
                nl.pins[ref] = []
            elif kind == "pins":
                if not args or args[0] not in nl.comps:
                    raise NetlistError(f"{where}: pins of an undeclared component")
                nl.pins[args[0]].extend(args[1:])
            elif kind == "net":
                if len(args) < 2:
                    raise NetlistError(f"{where}: net needs a name and pins")
                name = args[0]
                if name not in nl.nets:
                    nl.nets[name] = []
                    nl.net_order.append(name)
                for item in args[1:]:
                    ref, _, pin = item.partition(".")
                    if ref not in nl.comps or pin not in nl.pins[ref]:
                        raise NetlistError(f"{where}: {item} is not a declared pin")
                    if (ref, pin) in seen:
                        raise NetlistError(f"{where}: {item} already on net {seen[(ref, pin)]}")
                    seen[(ref, pin)] = name
                    nl.nets[name].append((ref, pin))
            else:
                raise NetlistError(f"{where}: unknown statement '{kind}'")
    return nl


if __name__ == "__main__":
    n = parse(sys.argv[1])
    print(f"{len(n.comps)} components, {len(n.nets)} nets")

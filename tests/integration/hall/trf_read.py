#!/usr/bin/env python3
"""trf_read.py FILE ROUND - the player records of a FIDE TRF (TRF-16, FIDE Handbook C.04
Annex 2) read by their documented columns, one line each:
"RANK|NAME|FIDEID|POINTS|OPPONENT|COLOUR|RESULT" for round ROUND.

Columns (1-based): 1-3 "001", 5-8 starting rank, 15-47 name, 58-68 FIDE number, 81-84 points;
round R at 92 + 10 (R - 1): 4 columns the opponent's starting rank, then the colour at +5 and
the result at +7. Exit 1 when a line ends without CR or a 001 record is shorter than its round.
"""
import sys

path, rnd = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read().decode("utf-8")
lines = data.split("\n")
if lines and lines[-1] == "":
    lines.pop()
for line in lines:
    if not line.endswith("\r"):
        sys.exit("a line does not end with CR: %r" % line)
    line = line[:-1]
    if not line.startswith("001"):
        continue
    col = lambda a, b: line[a - 1:b].strip()
    c = 92 + 10 * (rnd - 1)
    if len(line) < c + 5:
        sys.exit("a record without round %d: %r" % (rnd, line))
    print("|".join([col(5, 8), col(15, 47), col(58, 68), col(81, 84), col(c, c + 3),
                    col(c + 5, c + 5), col(c + 7, c + 7)]))

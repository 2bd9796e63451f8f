#!/usr/bin/env python3
"""push_order.py DIR [--after N] [--newest FOLDER] BOARD... - every position of each board's
game, in order, in what the mock lichess received (DIR/req-NNNN.pgn, oldest first).

Per board, the games' main lines (moves without comments, clocks or move numbers) taken from the
requests in turn (after request N with --after) must each be the one before with one ply more,
the same, or shorter (a takeback): a position never skipped. Prints each board's ply counts as
they arrived ("board 2: 0 1 2 3 2"). With --newest, the last game pushed of each board must be
FOLDER/game-BOARD.pgn. Exit 1 naming the request where a board skipped a position, or the board
whose newest push is not its file.
"""
import os
import re
import sys

from pgn_games import games_of, moves_of

args = sys.argv[1:]
out, after, newest = args.pop(0), 0, None
while args and args[0].startswith("--"):
    opt = args.pop(0)
    if opt == "--after":
        after = int(args.pop(0))
    elif opt == "--newest":
        newest = args.pop(0)
boards = args


seen = {b: [] for b in boards}  # each board's main lines as they changed
last = {}  # each board's newest game text
bad = []
for name in sorted(f for f in os.listdir(out) if re.match(r"req-\d+\.pgn$", f)):
    if int(name[4:-4]) <= after:
        continue
    with open(os.path.join(out, name)) as f:
        body = f.read()
    for g in games_of(body):
        m = re.search(r'^\[Board "(\d+)"\]$', g, re.M)
        if not m or m.group(1) not in seen:
            continue
        b = m.group(1)
        last[b] = g
        line, prev = moves_of(g), seen[b]
        if prev and line == prev[-1]:
            continue
        if prev and len(line) > len(prev[-1]) and (len(line) != len(prev[-1]) + 1 or line[:-1] != prev[-1]):
            bad.append("%s: board %s went from %d plies to %d (%s)"
                       % (name, b, len(prev[-1]), len(line), " ".join(line[len(prev[-1]):])))
        prev.append(line)
for b in boards:
    print("board %s: %s" % (b, " ".join(str(len(l)) for l in seen[b])))
    if newest:
        with open(os.path.join(newest, "game-%s.pgn" % b)) as f:
            if f.read().strip() != last.get(b, "").strip():
                bad.append("board %s: the newest game pushed is not game-%s.pgn" % (b, b))
for why in bad:
    print(why)
sys.exit(1 if bad else 0)

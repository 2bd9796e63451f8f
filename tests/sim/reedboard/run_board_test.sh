#!/usr/bin/env bash
# run_board_test.sh SIM ELF TWINBOARD - `twinboard board-test` against the real firmware in reedboard-sim
# --pty, with d3 welded shut: the tester (a script in simulated time) covers a1..h8; the tool
# must name d3 stuck, pass the other 63 squares, print the map with S on d3, and exit 1.
set -euo pipefail
sim=$1
elf=$2
tool=$3
tmp=$(mktemp -d)
simpid=
cleanup() {
    [ -n "$simpid" ] && kill "$simpid" 2>/dev/null && wait "$simpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

# the walk: each square covered for 20 ms, 20 ms apart, from 3 s (the tool has started the test)
for sq in {1..8}; do for f in a b c d e f g h; do echo "$f$sq"; done; done |
    awk '{ t = 3000 + 40 * (NR - 1); printf "%d vi place %s\n%d vi lift %s\n", t, $1, t + 20, $1 }' \
        >"$tmp/walk.script"
"$sim" --elf "$elf" --pty --link "$tmp/board" --initial empty --fault stuck:d3 \
    --script "$tmp/walk.script" >"$tmp/sim.log" 2>&1 &
simpid=$!
for _ in $(seq 100); do [ -e "$tmp/board" ] && break; sleep 0.05; done
[ -e "$tmp/board" ] || { echo "FAIL: reedboard-sim made no pty"; cat "$tmp/sim.log"; exit 1; }

rc=0
"$tool" board-test --wait-ms 0 --debounce-ms 5 --timeout-s 60 "$tmp/board" >"$tmp/out" 2>&1 || rc=$?
cat "$tmp/out"
fail() { echo "FAIL: $*"; exit 1; }
[ "$rc" = 1 ] || fail "exit status $rc, want 1 (a fault found)"
grep -qx 'd3 stuck: closed with the board cleared' "$tmp/out" || fail "d3 not named stuck"
grep -qx 'self-test done: 63 of 64 squares passed' "$tmp/out" || fail "not 63 squares passed"
grep -qx '3 o o o S o o o o 3' "$tmp/out" || fail "the map's rank 3 is not o o o S o o o o"
[ "$(grep -c '^[1-8] o o o o o o o o [1-8]$' "$tmp/out")" = 7 ] || fail "the other ranks are not all passed"
grep -qx 'e4 covered' "$tmp/out" || fail "squares not reported as covered"
echo "twinboard board-test named the stuck switch and passed the rest"

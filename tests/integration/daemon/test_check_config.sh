#!/bin/bash
# daemon_check_config: --check-config is the daemon's own start-up check. Thirty-one broken files
# (one problem each, the doorgeefschaak guide's example on a machine without its four headsets
# among them) are fed to `twinboardd --check-config FILE` and to `twinboardd -c FILE`: both must
# refuse (exit 1 and 78; the daemon makes no socket), and both must print the same FILE:LINE lines, the
# line expected for the case naming the key and its problem once. The sound system has a
# default device (ALSA's null device) and no other.
# Usage: test_check_config.sh SOURCE_DIR TWINBOARDD WORK_DIR
set -uo pipefail
src=$1
tbd=$2
work=$3
rm -rf "$work"
mkdir -p "$work/j" "$work/rw"
chmod 1777 "$work/rw" # a directory every user may write to
printf 'pcm.!default { type null }\n' >"$work/alsa.conf"
export ALSA_CONFIG_PATH=$work/alsa.conf
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
printf '0 vi lift e2\n300 vi place e4\n' >"$work/good.script"
printf '0 vi lift e2\n300 vi levitate e4\n' >"$work/bad.script"
: >"$work/afile"
head="[daemon]
socket = $work/control
journal_dir = $work/j"
boards="[player vi]
board = keys:
audio = null
[player sighted]
board = keys:
audio = null"
ok="$head
[arbiter]
pin = 583920
$boards"
# A good file but for the [player vi] lines given (line 7 on), the sighted board keys:.
vi() {
    printf '%s\n[arbiter]\npin = 583920\n[player vi]\n%s\n[player sighted]\nboard = keys:\naudio = null' \
        "$head" "$1"
}

# The doorgeefschaak guide's example, as printed (its four headsets are not on this machine).
guide=$(awk '/^```ini/ { on = 1; next } /^```/ { on = 0 } on' "$src/docs/doorgeefschaak.md" |
    awk 'NR == 1, /^audio_black_b/')
n=0
# case NAME WANT TEXT [COUNT]: WANT is a line expected (after FILE:), TEXT the file, COUNT the
# problems in it (1 unless said).
case_() {
    n=$((n + 1))
    local f=$work/$n-$1.ini
    printf '%s\n' "$3" >"$f"
    "$tbd" --check-config "$f" >"$work/check.out" 2>"$work/check.err"
    local rc1=$?
    rm -f "$work/control"
    timeout 20 "$tbd" -c "$f" >/dev/null 2>"$work/start.err"
    local rc2=$?
    [ "$rc1" -eq 1 ] || fail "$1: --check-config exit $rc1: $(cat "$work/check.out" "$work/check.err")"
    [ "$rc2" -eq 78 ] || fail "$1: the daemon's start exit $rc2: $(cat "$work/start.err")"
    [ -e "$work/control" ] && fail "$1: the daemon made its socket"
    grep "^$f:" "$work/check.out" >"$work/check.lines"
    grep "^$f:" "$work/start.err" >"$work/start.lines"
    [ -s "$work/check.lines" ] || fail "$1: --check-config names no line: $(cat "$work/check.out")"
    cmp -s "$work/check.lines" "$work/start.lines" ||
        fail "$1: --check-config and the start differ:"$'\n'"$(cat "$work/check.lines")"$'\n'"$(cat "$work/start.err")"
    grep -qF "$f:$2" "$work/check.lines" || fail "$1: no '$2' in: $(cat "$work/check.lines")"
    [ "$(grep -c '' "$work/check.lines")" -eq "${4:-1}" ] ||
        fail "$1: not ${4:-1} problem(s): $(cat "$work/check.lines")"
    # the problem once: the message does not say its start again (a reason wrapped in itself)
    local msg
    while read -r msg; do
        msg=${msg#"$f":*: }
        [ "$(grep -o -F "${msg:0:24}" <<<"$msg" | wc -l)" -eq 1 ] || fail "$1: said twice: $msg"
    done <"$work/check.lines"
}

case_ no-pin "1: no arbiter PIN" "$head
$boards"
case_ pin-short "5: pin must be 6 to 8 digits" "$head
[arbiter]
pin = 0000
$boards"
case_ pin-repeated "5: pin is one digit repeated" "$head
[arbiter]
pin = 999999
$boards"
case_ pin-run "5: pin is a run of digits" "$head
[arbiter]
pin = 345678
$boards"
case_ unknown-section "12: unknown section [boards]" "$ok
[boards]"
case_ unknown-key "4: unknown key 'speed' in [daemon]" "$head
speed = fast
[arbiter]
pin = 583920
$boards"
case_ same-colour "13: both players have the colour white" "$ok
[player sighted]
colour = white" 
case_ dgt-vi-board "7: board: dgt: a DGT e-board cannot be the VI player's board" \
    "$(vi "board = dgt:/dev/ttyACM7")"
case_ clock-builtin-no-control "13: source builtin needs a time control" "$ok
[clock]
source = builtin"
case_ clock-bad-control "13: control" "$ok
[clock]
control = 90x"
case_ hall-no-broker "12: [hall] needs broker" "$ok
[hall]
tournament = open-2026
table = t1"
case_ hall-password-file "16: [hall] password_file = $work/none: No such file or directory" "$ok
[hall]
broker = 127.0.0.1
tournament = open-2026
table = t1
password_file = $work/none"
case_ hall-cafile "16: [hall] cafile = $work/none.crt: No such file or directory" "$ok
[hall]
broker = 127.0.0.1
tournament = open-2026
table = t1
cafile = $work/none.crt"
case_ broadcast-tcp-address "13: tcp" "$ok
[broadcast]
tcp = 0.0.0.0:3334"
case_ broadcast-pgn-dir "13: [broadcast] pgn_dir = $work/no/such/pgn: no directory $work/no/such" "$ok
[broadcast]
pgn_dir = $work/no/such/pgn"
case_ broadcast-delay "14: delay '61m' is not a delay (0, 90s, 15m; at most 60m)" "$ok
[broadcast]
pgn_dir = $work/rw
delay = 61m"
case_ broadcast-dgt "13: [broadcast] dgt = $work/no/dgt: no directory $work/no" "$ok
[broadcast]
dgt = pty:$work/no/dgt"
case_ pack-missing "9: [player vi] pack = xx:" "$(vi "board = keys:
audio = null
pack = xx")"
case_ headset-missing "8: [player vi] audio = Headset X:" "$(vi "board = keys:
audio = Headset X")"
case_ script-missing "7: [player vi] board = sim:$work/none.script:" "$(vi "board = sim:$work/none.script
audio = null")"
case_ script-malformed "7: [player vi] board = sim:$work/bad.script:" "$(vi "board = sim:$work/bad.script
audio = null")"
case_ fast-script-against-real-time "7: [player vi] board = sim:$work/good.script?speed=fast: a fast script" "$head
[arbiter]
pin = 583920
[player vi]
board = sim:$work/good.script?speed=fast
audio = null
[player sighted]
board = serial:/dev/ttyUSB9
audio = null"
case_ journal-relative "3: journal_dir must be an absolute path" "[daemon]
socket = $work/control
journal_dir = games
[arbiter]
pin = 583920
$boards"
case_ socket-unsafe-dir "2: [daemon] socket = $work/rw/control:" "[daemon]
socket = $work/rw/control
journal_dir = $work/j
[arbiter]
pin = 583920
$boards"
case_ journal-is-a-file "3: [daemon] journal_dir = $work/afile:" "[daemon]
socket = $work/control
journal_dir = $work/afile
[arbiter]
pin = 583920
$boards"
case_ blip-range "4: blip_window_ms '5' must be a whole number of milliseconds from 10 to 2000" "$head
blip_window_ms = 5
[arbiter]
pin = 583920
$boards"
case_ rate-range "9: rate" "$(vi "board = keys:
audio = null
rate = 2000")"
case_ bad-start-fen "6: start" "$head
[arbiter]
pin = 583920
start = 8/8/8/8/8/8/8/8 w - - 0 1
$boards"
# doorgeefschaak: the guide's example, as printed, names each of its four headsets
printf '%s\n' "$head" "$guide" >"$work/guide.ini"
guide_line=$(grep -n '^audio_white_a' "$work/guide.ini" | cut -d: -f1)
case_ doorgeefschaak-guide "$guide_line: [bughouse] audio_white_a = Headset A1: no audio output device" \
    "$(cat "$work/guide.ini")" 4
case_ doorgeefschaak-pack "14: [bughouse] pack_black_a = xx:" "$ok
[bughouse]
enabled = yes
pack_black_a = xx"
case_ doorgeefschaak-control "14: control" "$ok
[bughouse]
enabled = yes
control = seven minutes"
[ "$n" -eq 31 ] || fail "$n cases, not 31"
echo "daemon_check_config: $n files, $failures failed"
[ "$failures" -eq 0 ] && rm -rf "$work"
[ "$failures" -eq 0 ]

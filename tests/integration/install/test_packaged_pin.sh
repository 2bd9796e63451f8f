#!/bin/bash
# install_packaged_pin: the configuration the package installs has no arbiter PIN. With it as
# shipped (only the socket and journal moved into the work directory), --check-config refuses it
# and the daemon does not start, both naming the file, the line of [arbiter] and how to set one;
# with a guessable PIN written in, the same; with a PIN of the organiser's own it starts and
# answers status. The VI player's headset is the sound system's default: an ALSA null device.
# Usage: test_packaged_pin.sh PACKAGED_INI TWINBOARDD TWINBOARD WORK_DIR
set -uo pipefail
ini=$1
tbd=$2
tb=$3
work=$4
rm -rf "$work"
mkdir -p "$work"
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
sed -e "s#^socket = .*#socket = $work/control#" -e "s#^journal_dir = .*#journal_dir = $work/journal#" \
    "$ini" >"$work/twinboard.ini"
grep -q '^pin *=' "$work/twinboard.ini" && fail "the packaged configuration sets a PIN"
printf 'pcm.!default { type null }\n' >"$work/alsa.conf"
export ALSA_CONFIG_PATH=$work/alsa.conf
line=$(grep -n '^\[arbiter\]' "$work/twinboard.ini" | cut -d: -f1)

# Both refuse, with the same line: --check-config on stdout, the daemon on stderr.
refused() { # PIN_LINE_OR_EMPTY WANT
    local cfg=$work/twinboard.ini
    if [ -n "$1" ]; then
        sed "s/^\[arbiter\]$/[arbiter]\n$1/" "$work/twinboard.ini" >"$work/weak.ini"
        cfg=$work/weak.ini
    fi
    "$tbd" --check-config "$cfg" >"$work/check.out" 2>&1 && fail "--check-config passed ${1:-no PIN}"
    timeout 10 "$tbd" -c "$cfg" >"$work/start.out" 2>&1
    local rc=$?
    [ "$rc" -eq 78 ] || fail "the daemon with ${1:-no PIN} exited $rc, not 78 (EX_CONFIG): $(cat "$work/start.out")"
    grep -qF "$2" "$work/check.out" || fail "--check-config with ${1:-no PIN}: $(cat "$work/check.out")"
    grep -qF "$2" "$work/start.out" || fail "the daemon with ${1:-no PIN}: $(cat "$work/start.out")"
    [ -e "$work/control" ] && fail "the daemon with ${1:-no PIN} made its socket"
}
refused "" "$work/twinboard.ini:$line: no arbiter PIN: the daemon does not start without one; write pin ="
refused "" "twinboard set-pin changes it once the daemon runs"
refused "pin = 0000" "weak.ini:$((line + 1)): pin must be 6 to 8 digits"
refused "pin = 111111" "weak.ini:$((line + 1)): pin is one digit repeated"
refused "pin = 456789" "weak.ini:$((line + 1)): pin is a run of digits"

# The organiser's own PIN: it starts.
sed -i "s/^\[arbiter\]$/[arbiter]\npin = 583920/" "$work/twinboard.ini"
"$tbd" --check-config "$work/twinboard.ini" >"$work/check.out" 2>&1 ||
    fail "--check-config refuses a good PIN: $(cat "$work/check.out")"
"$tbd" -c "$work/twinboard.ini" 2>"$work/daemon.log" &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
ok=0
for _ in $(seq 1 100); do
    "$tb" --socket "$work/control" status >"$work/status.out" 2>&1 && ok=1 && break
    sleep 0.1
done
[ "$ok" = 1 ] || fail "the daemon with a PIN did not start: $(cat "$work/daemon.log")"
kill "$pid"
wait "$pid" || fail "the daemon did not stop cleanly: $(cat "$work/daemon.log")"
echo "install_packaged_pin: $failures failed"
[ "$failures" -eq 0 ] && rm -rf "$work"
[ "$failures" -eq 0 ]

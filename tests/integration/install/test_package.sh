#!/bin/bash
# install_package: the Debian package as an organiser gets it. Builds it (Release, CPack DEB),
# runs lintian on it (no error; each warning explained in docs/install.md), installs it with
# dpkg, and checks: systemd-analyze verify accepts the unit, the twinboard user
# and /var/lib/twinboard exist, the packaged configuration passes --check-config, the installed
# daemon run as the twinboard user plays a simulated game from a sim: board with its journal
# under /var/lib/twinboard and the installed twinboard reads its PGN, man -w finds the pages, and
# dpkg --purge leaves nothing behind; udev reads the rules without refusing a line. systemd
# need not be running (the daemon is run directly).
# The installed daemon also runs under the unit's own RestrictAddressFamilies= (applied by
# UNIT_SANDBOX, the same seccomp filter systemd installs, since systemd need not be PID 1 here)
# with a [hall] broker (a real mosquitto on loopback) and a [broadcast] TCP listener: the table
# is seen on the broker and a DGT client reads the board from the port; the unit's old line
# (no AF_INET) is refused the same way, so the filter is shown to bite.
# Skips (exit 77) when not root, or dpkg, systemd-analyze or man is missing, or twinboard is
# already installed. Usage: test_package.sh SOURCE_DIR WORK_DIR [C_COMPILER [UNIT_SANDBOX]]
set -euo pipefail
src=$1
work=$2
cc=${3:-cc}
sandbox=${4:-}
skip() {
    echo "install_package: SKIPPED: $*"
    exit 77
}
fail() {
    echo "install_package: FAIL: $*" >&2
    exit 1
}
[ "$(id -u)" -eq 0 ] || skip "needs root to install a package"
for tool in dpkg dpkg-deb cpack systemd-analyze systemd-sysusers systemd-tmpfiles man runuser setpriv \
    flock lintian; do
    command -v "$tool" >/dev/null || skip "$tool is missing (host/tools/dev deps test installs it)"
done
# One install test at a time on a machine; dpkg would refuse a second one anyway.
exec 9>/run/lock/twinboard-install-test
flock -w 600 9 || fail "another install test holds /run/lock/twinboard-install-test"
if dpkg-query -W -f='${Status}' twinboard 2>/dev/null | grep -q 'ok installed'; then
    skip "the twinboard package is installed on this machine; the test would replace it"
fi

mkdir -p "$work"
log=$work/log
: >"$log"
run() { "$@" >>"$log" 2>&1 || fail "$* (see $log)"; }

# The Maintainer field from the packager's configuration as host/tools/dev package takes it
# ($DEBEMAIL, else git's user), else the test's own name.
email=${DEBEMAIL:-$(git -C "$src" config user.email 2>/dev/null || true)}
name=${DEBFULLNAME:-$(git -C "$src" config user.name 2>/dev/null || true)}
maintainer="${name:-twinboard install test} <${email:-install-test@twinboard.example.org}>"
# The package's own build flags (dpkg-buildflags), as host/tools/dev package builds it.
mapfile -t shipped < <(TB_SHIPPED_CC=$cc "$src/host/tools/dev" shipped-args)
[ ${#shipped[@]} -gt 0 ] || fail "host/tools/dev shipped-args gives no flags"
run cmake -S "$src" -B "$work/build" "${shipped[@]}" -DBUILD_TESTING=OFF \
    -DCMAKE_INSTALL_PREFIX=/usr -DTB_MAINTAINER="$maintainer"
run cmake --build "$work/build" -j "${TB_JOBS:-2}"
(cd "$work/build" && run cpack -G DEB)
deb=$(ls "$work"/build/twinboard_*.deb)

# Debian's checker: no error, and every warning one docs/install.md names with its reason.
lintian "$deb" >"$work/lintian.out" 2>&1
grep -q '^E: ' "$work/lintian.out" && fail "lintian finds errors: $(grep '^[EW]: ' "$work/lintian.out")"
for tag in $(sed -n 's/^W: twinboard[^:]*: \([a-z0-9-]*\).*/\1/p' "$work/lintian.out" | sort -u); do
    grep -q "| \`$tag\` |" "$src/docs/install.md" ||
        fail "lintian warns $tag, and docs/install.md gives no reason: $(grep "$tag" "$work/lintian.out")"
done

cleanup() {
    if [ -n "${pid:-}" ]; then kill "$pid" 2>/dev/null || true; fi
    if [ -n "${broker:-}" ]; then kill "$broker" 2>/dev/null || true; fi
    dpkg --purge twinboard >>"$log" 2>&1 || true
}
trap cleanup EXIT
run dpkg -i "$deb"

# the firmware image `twinboard flash` writes without a compiler (hardware/BUILD.md, step 5)
hex=$(dpkg -L twinboard | grep '^/usr/share/twinboard/firmware/reedboard.hex$') ||
    fail "the package ships no firmware image"
grep -q '^:00000001FF' "$hex" || fail "$hex is not an Intel HEX image"
twinboard flash /dev/null-not-a-port >"$work/flash.out" 2>&1 && fail "flash to no port succeeded"
grep -q 'is not a serial device' "$work/flash.out" ||
    fail "the installed twinboard flash does not find its image: $(cat "$work/flash.out")"
unit=$(dpkg -L twinboard | grep '/twinboardd.service$')
systemd-analyze verify "$unit" >"$work/verify.out" 2>&1 ||
    fail "systemd-analyze verify $unit: $(cat "$work/verify.out")"
# The packaged configuration has no PIN: the installed daemon refuses it with the exit status
# the unit does not restart on (a refused file is not retried every 2 s until systemd gives up).
no_restart=$(sed -n 's/^RestartPreventExitStatus=//p' "$unit")
rc=0
setpriv --reuid=twinboard --regid=twinboard --init-groups -- twinboardd -c /etc/twinboard/twinboard.ini \
    >"$work/nopin.out" 2>&1 || rc=$?
[ -n "$no_restart" ] && [ "$rc" = "$no_restart" ] ||
    fail "the packaged configuration: exit $rc, the unit does not restart on '$no_restart': $(cat "$work/nopin.out")"
rules=$(dpkg -L twinboard | grep '/60-twinboard.rules$')
if command -v udevadm >/dev/null; then
    # udev names a rule it cannot read as FILE:LINE and skips it.
    tty=$(find /sys/class/tty -mindepth 1 -maxdepth 1 | head -1)
    udevadm test --action=add "$tty" >"$work/udev.out" 2>&1
    grep -q "Reading rules file: .*60-twinboard.rules" "$work/udev.out" ||
        fail "udev does not read $rules: $(cat "$work/udev.out")"
    ! grep "60-twinboard.rules:[0-9]" "$work/udev.out" || fail "udev refuses lines of $rules"
else
    echo "install_package: udevadm missing, the udev rules are not checked"
fi
getent passwd twinboard >/dev/null || fail "no twinboard user"
getent group twinboard >/dev/null || fail "no twinboard group"
[ "$(stat -c %U:%G /var/lib/twinboard)" = twinboard:twinboard ] ||
    fail "/var/lib/twinboard is not the twinboard user's"
grep -qx /etc/twinboard/twinboard.ini /var/lib/dpkg/info/twinboard.conffiles ||
    fail "/etc/twinboard/twinboard.ini is not a conffile"
# The PIN in it is the arbiter's: no one outside the daemon's group reads it.
[ "$(stat -c %a:%U:%G /etc/twinboard/twinboard.ini)" = 640:root:twinboard ] ||
    fail "/etc/twinboard/twinboard.ini is $(stat -c %a:%U:%G /etc/twinboard/twinboard.ini), not 640:root:twinboard"
runuser -u nobody -- cat /etc/twinboard/twinboard.ini >/dev/null 2>&1 &&
    fail "another user reads the PIN in /etc/twinboard/twinboard.ini"
# The packaged configuration sets no PIN: refused as shipped, naming what to do ...
printf 'pcm.!default { type null }\n' >"$work/alsa.conf"
if ALSA_CONFIG_PATH="$work/alsa.conf" twinboardd --check-config /etc/twinboard/twinboard.ini \
    >"$work/check.out"; then
    fail "the packaged configuration without a PIN passes --check-config"
fi
grep -q "no arbiter PIN: the daemon does not start without one" "$work/check.out" ||
    fail "the missing PIN is not named: $(cat "$work/check.out")"
# ... and with the organiser's PIN it gives the VI player the sound system's default device:
# checked against a sound system that has one (ALSA, no sound card needed: voice-notes 3.5) ...
sed -i 's/^\[arbiter\]$/[arbiter]\npin = 583920/' /etc/twinboard/twinboard.ini
ALSA_CONFIG_PATH="$work/alsa.conf" twinboardd --check-config /etc/twinboard/twinboard.ini \
    >"$work/check.out" || fail "the packaged configuration is refused: $(cat "$work/check.out")"
# ... and refused, loudly, where there is no audio device at all (no headset, no sound card).
if [ ! -e /dev/snd ]; then
    if env -u ALSA_CONFIG_PATH twinboardd --check-config /etc/twinboard/twinboard.ini \
        >"$work/check-nosound.out"; then
        fail "--check-config passed a headset on a machine without audio devices"
    fi
    grep -q "audio = default: no default audio output device" "$work/check-nosound.out" ||
        fail "no audio device is not named: $(cat "$work/check-nosound.out")"
fi
for page in twinboardd twinboard twinboard.ini twinboard-hall; do
    man -w "$page" >/dev/null 2>&1 || fail "man -w $page finds no page"
done
man -w 8 twinboardd | grep -q /usr/share/man/man8/ || fail "twinboardd(8) is not in man8"

# A game on sim: boards, the daemon run as the service would run it (setpriv execs, so the
# signal reaches the daemon itself).
game=/var/lib/twinboard/install-test
install -d -o twinboard -g twinboard "$game" "$game/journal"
install -m 0644 "$src/tests/integration/install/mate.script" "$game/mate.script"
# The game's configuration: the mate on two sim: boards, journaled in the directory $1.
game_ini() {
    cat <<INI
[daemon]
socket = /run/twinboard/control
journal_dir = $1
[arbiter]
pin = 246813
[player vi]
board = sim:$game/mate.script?speed=fast
audio = null
[player sighted]
board = sim:$game/mate.script?speed=fast
audio = null
INI
}
game_ini "$game/journal" >"$game/test.ini"
[ -d /run/twinboard ] || fail "systemd-tmpfiles did not make /run/twinboard"
setpriv --reuid=twinboard --regid=twinboard --init-groups -- twinboardd -c "$game/test.ini" >"$work/daemon.out" 2>&1 &
pid=$!
export TWINBOARD_SOCKET=/run/twinboard/control
for _ in $(seq 1 300); do
    if runuser -u twinboard -- env TWINBOARD_SOCKET=$TWINBOARD_SOCKET twinboard pgn \
        >"$work/game.pgn" 2>/dev/null && grep -q '4\. Qxf7# 1-0' "$work/game.pgn"; then
        break
    fi
    kill -0 "$pid" 2>/dev/null || fail "the daemon stopped: $(cat "$work/daemon.out")"
    sleep 0.1
done
grep -q '4\. Qxf7# 1-0' "$work/game.pgn" ||
    fail "no finished game from the installed daemon: $(cat "$work/game.pgn" "$work/daemon.out")"
runuser -u twinboard -- sh -c "twinboard pgn > $game/game.pgn" ||
    fail "the twinboard user cannot keep the PGN under /var/lib/twinboard"
# Games kept: the daemon itself wrote the game's PGN under /var/lib/twinboard when it ended,
# named by date and players, and lists it.
kept=$(find "$game/journal" -name '*_VI_player-sighted_player.pgn' -user twinboard)
[ -n "$kept" ] && grep -q '4\. Qxf7# 1-0' "$kept" ||
    fail "the daemon kept no PGN of the game in $game/journal: $(ls -l "$game/journal")"
runuser -u twinboard -- env TWINBOARD_SOCKET=$TWINBOARD_SOCKET twinboard games >"$work/games.out" ||
    fail "twinboard games: $(cat "$work/games.out")"
grep -q "_VI_player-sighted_player  finished, 7 plies, result 1-0" "$work/games.out" ||
    fail "twinboard games does not list the game: $(cat "$work/games.out")"
kill "$pid"
wait "$pid" || fail "the daemon did not stop cleanly on SIGTERM: $(cat "$work/daemon.out")"
pid=
[ -n "$(find "$game/journal" -type f -user twinboard -name current.tbj)" ] ||
    fail "no journal written by the twinboard user in $game/journal"
grep -q 'Qxf7#' "$game/game.pgn" || fail "no PGN kept under /var/lib/twinboard"

# The service's sandbox with the hall and the broadcast configured.
if [ -z "$sandbox" ]; then
    echo "install_package: no unit sandbox given, the unit's address families are not checked"
elif ! command -v mosquitto >/dev/null || ! command -v mosquitto_sub >/dev/null; then
    echo "install_package: mosquitto missing, the unit's address families are not checked"
else
    install -m 0755 "$sandbox" "$game/unit_sandbox"
    bport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    mport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$mport" >"$work/mosquitto.conf"
    mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.out" 2>&1 &
    broker=$!
    {
        game_ini "$game/journal-hall"
        cat <<INI
[hall]
broker = 127.0.0.1
port = $mport
tournament = install
table = t1
[broadcast]
tcp = 127.0.0.1:$bport
INI
    } >"$game/hall.ini"
    install -d -o twinboard -g twinboard "$game/journal-hall"
    # The unit's old line (no AF_INET): the daemon cannot open the broadcast's listener.
    sed 's/^RestrictAddressFamilies=.*/RestrictAddressFamilies=AF_UNIX AF_NETLINK/' "$unit" >"$work/old.service"
    if setpriv --reuid=twinboard --regid=twinboard --init-groups -- "$game/unit_sandbox" \
        "$work/old.service" twinboardd -c "$game/hall.ini" >"$work/daemon-old.out" 2>&1; then
        fail "the daemon started without AF_INET: the sandbox does not bite: $(cat "$work/daemon-old.out")"
    fi
    grep -q "Address family not supported" "$work/daemon-old.out" ||
        fail "without AF_INET the daemon fails otherwise: $(cat "$work/daemon-old.out")"
    # The packaged unit as it is.
    setpriv --reuid=twinboard --regid=twinboard --init-groups -- "$game/unit_sandbox" "$unit" \
        twinboardd -c "$game/hall.ini" >"$work/daemon-hall.out" 2>&1 &
    pid=$!
    for _ in $(seq 1 300); do
        runuser -u twinboard -- env TWINBOARD_SOCKET=$TWINBOARD_SOCKET twinboard status \
            >"$work/status.out" 2>/dev/null && grep -q "broker connected" "$work/status.out" && break
        kill -0 "$pid" 2>/dev/null || fail "the sandboxed daemon stopped: $(cat "$work/daemon-hall.out")"
        sleep 0.1
    done
    grep -q "hall: install/t1, broker connected" "$work/status.out" ||
        fail "the sandboxed daemon does not reach the broker: $(cat "$work/status.out" "$work/daemon-hall.out")"
    grep -q "socket families allowed: AF_UNIX AF_INET AF_INET6 AF_NETLINK" "$work/daemon-hall.out" ||
        fail "the unit's families were not applied: $(cat "$work/daemon-hall.out")"
    mosquitto_sub -h 127.0.0.1 -p "$mport" -t twinboard/install/t1/state -C 1 -W 10 \
        >"$work/state.json" || fail "no table state on the broker"
    grep -q '"table":"t1"' "$work/state.json" || fail "the broker's table state is not the table's: $(cat "$work/state.json")"
    # A DGT client on the broadcast's port: DGT_SEND_BRD (0x42) answered by DGT_BOARD_DUMP
    # (0x86, 67 bytes).
    python3 - "$bport" >"$work/dgt.out" 2>&1 <<'PY' || fail "no DGT board on the broadcast port: $(cat "$work/dgt.out")"
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
s.sendall(b"\x42")
got = b""
while len(got) < 67:
    chunk = s.recv(67 - len(got))
    if not chunk:
        break
    got += chunk
assert len(got) == 67 and got[0] == 0x86, got.hex()
print("board dump", got.hex())
PY
    kill "$pid"
    wait "$pid" || fail "the sandboxed daemon did not stop cleanly: $(cat "$work/daemon-hall.out")"
    pid=
    kill "$broker"
    wait "$broker" 2>/dev/null || true
    broker=
fi

# The installed programs find the installed packs first.
out=$(env -u TB_VOICE_PACKS twinboard say --pack no-such-pack e2e4 2>&1 || true)
case $out in
*"in /usr/bin/../share/twinboard/packs:"*) ;;
*) fail "the installed packs are not searched first: $out" ;;
esac

run dpkg --purge twinboard
left=$(for f in /etc/twinboard /var/lib/twinboard /run/twinboard /usr/sbin/twinboardd \
    /usr/bin/twinboard /usr/share/twinboard "$unit" /usr/lib/sysusers.d/twinboard.conf \
    /usr/lib/tmpfiles.d/twinboard.conf "$rules" \
    /etc/systemd/system/multi-user.target.wants/twinboardd.service; do
    [ -e "$f" ] && echo "$f"
done || true)
[ -z "$left" ] || fail "left after purge: $left"
trap - EXIT
rm -rf "$work"
echo "install_package: ok"

#!/bin/sh
# install_prefix: cmake --install to a prefix under DESTDIR gives working programs. The installed
# twinboard finds the packs beside itself (a pack that exists only in the installed tree is
# found), TWINBOARD_DATA_DIR overrides that, and the installed twinboardd checks the installed
# configuration. Usage: test_prefix.sh BUILD_DIR WORK_DIR
set -eu
build=$1
work=$2
prefix=/opt/twinboard-test
rm -rf "$work"
mkdir -p "$work"
fail() {
    echo "install_prefix: FAIL: $*" >&2
    exit 1
}

DESTDIR="$work/dest" cmake --install "$build" --prefix "$prefix" >"$work/install.log" ||
    fail "cmake --install failed (see $work/install.log)"
root="$work/dest$prefix"
for f in bin/twinboard sbin/twinboardd share/twinboard/packs/de-fide.pack \
    share/twinboard/packs/en.pack share/twinboard/packs/nl.pack etc/twinboard/twinboard.ini \
    lib/systemd/system/twinboardd.service lib/sysusers.d/twinboard.conf \
    lib/tmpfiles.d/twinboard.conf lib/udev/rules.d/60-twinboard.rules; do
    [ -e "$root/$f" ] || fail "$prefix/$f was not installed"
done
ls "$root"/share/man/man8/twinboardd.8* >/dev/null 2>&1 || fail "no twinboardd(8) man page"

# Moved elsewhere after installation, the tree still finds its own packs.
mv "$root" "$work/moved"
root="$work/moved"
# A pack only the installed tree has: found relative to the program, not in the build or source.
sed 's/^name *=.*/name = install-only/' "$root/share/twinboard/packs/en.pack" \
    >"$root/share/twinboard/packs/install-only.pack"
env -u TB_VOICE_PACKS -u TWINBOARD_DATA_DIR "$root/bin/twinboard" say --pack install-only e2e4 \
    >"$work/say.out" 2>&1 || fail "installed twinboard does not find its packs: $(cat "$work/say.out")"
grep -q . "$work/say.out" || fail "installed twinboard said nothing"
env -u TB_VOICE_PACKS -u TWINBOARD_DATA_DIR "$root/bin/twinboard" say --pack de-fide e2e4 \
    >"$work/say-de.out" 2>&1 || fail "installed twinboard: $(cat "$work/say-de.out")"
grep -q "Eva" "$work/say-de.out" || fail "de-fide phrase expected, got: $(cat "$work/say-de.out")"

# TWINBOARD_DATA_DIR overrides: an empty data directory has no packs, and the error names it.
mkdir -p "$work/empty/packs"
if env -u TB_VOICE_PACKS TWINBOARD_DATA_DIR="$work/empty" "$root/bin/twinboard" say \
    --pack install-only e2e4 >"$work/override.out" 2>&1; then
    fail "TWINBOARD_DATA_DIR did not override the installed packs"
fi
grep -q "$work/empty/packs" "$work/override.out" ||
    fail "the error does not name the overriding directory: $(cat "$work/override.out")"

# The installed configuration is valid once the organiser has written a PIN into it (it ships
# none). (audio = default: a sound system with a default device, no sound card needed)
printf 'pcm.!default { type null }\n' >"$work/alsa.conf"
sed -i 's/^\[arbiter\]$/[arbiter]\npin = 583920/' "$root/etc/twinboard/twinboard.ini"
ALSA_CONFIG_PATH="$work/alsa.conf" "$root/sbin/twinboardd" --check-config \
    "$root/etc/twinboard/twinboard.ini" >"$work/check.out" ||
    fail "installed twinboard.ini refused: $(cat "$work/check.out")"
"$root/sbin/twinboardd" --version | grep -q "^twinboardd [0-9]" || fail "twinboardd --version"
"$root/bin/twinboard" --version | grep -q "^twinboard [0-9]" || fail "twinboard --version"
rm -rf "$work"
echo "install_prefix: ok"

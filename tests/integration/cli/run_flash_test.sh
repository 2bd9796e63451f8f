#!/usr/bin/env bash
# run_flash_test.sh TWINBOARD - `twinboard flash` runs avrdude with the Nano bootloader's settings,
# names the other bootloader's speed when avrdude fails, and says when avrdude is missing. A
# stand-in avrdude on the PATH records its arguments; /dev/null stands in for the serial device.
set -euo pipefail
tb=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/empty"
cat >"$tmp/bin/avrdude" <<'STANDIN'
#!/bin/sh
printf '%s\n' "$@" >"$FLASH_ARGS"
exit "${FLASH_RC:-0}"
STANDIN
chmod +x "$tmp/bin/avrdude"
echo ':00000001FF' >"$tmp/reedboard.hex"
export FLASH_ARGS=$tmp/args
fail() { echo "FAIL: $*"; exit 1; }

out=$(PATH="$tmp/bin:$PATH" "$tb" flash --hex "$tmp/reedboard.hex" /dev/null 2>&1) || fail "exit $?: $out"
want=$(printf '%s\n' -c arduino -p m328p -P /dev/null -b 115200 -D -U "flash:w:$tmp/reedboard.hex:i")
[ "$(cat "$tmp/args")" = "$want" ] || fail "avrdude got: $(tr '\n' ' ' <"$tmp/args")"
echo "$out" | grep -q '^done' || fail "no 'done' line: $out"

PATH="$tmp/bin:$PATH" "$tb" flash --hex "$tmp/reedboard.hex" --baud 57600 /dev/null >/dev/null
grep -qx 57600 "$tmp/args" || fail "--baud 57600 did not reach avrdude"

rc=0
out=$(FLASH_RC=1 PATH="$tmp/bin:$PATH" "$tb" flash --hex "$tmp/reedboard.hex" /dev/null 2>&1) || rc=$?
[ "$rc" = 1 ] || fail "a failing avrdude: exit $rc, want 1"
echo "$out" | grep -q 'answers at 57600 baud: --baud 57600' || fail "the other speed not named: $out"

rc=0
out=$(PATH="$tmp/empty" "$tb" flash --hex "$tmp/reedboard.hex" /dev/null 2>&1) || rc=$?
[ "$rc" = 1 ] || fail "no avrdude: exit $rc, want 1"
echo "$out" | grep -q 'avrdude is not installed (apt-get install avrdude)' || fail "missing avrdude not named: $out"

rc=0
out=$("$tb" flash --hex "$tmp/none.hex" /dev/null 2>&1) || rc=$?
if [ "$rc" != 2 ] || ! echo "$out" | grep -q "no firmware image at $tmp/none.hex"; then
    fail "missing image: exit $rc: $out"
fi
echo "twinboard flash: avrdude's settings, failures and absence as a maker would see them"

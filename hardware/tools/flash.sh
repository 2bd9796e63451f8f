#!/usr/bin/env bash
# flash.sh HEX PORT - writes the reedboard firmware image to an Arduino Nano through its
# bootloader with avrdude (`host/tools/dev flash [PORT]` runs it; hardware/BUILD.md, step 5).
# TB_FLASH_BAUD: the bootloader's speed, 115200 (the current Nano bootloader, the default) or
# 57600 (a Nano or clone with the old bootloader).
set -euo pipefail
hex=$1
port=$2
baud=${TB_FLASH_BAUD:-115200}
say() { printf 'flash: %s\n' "$*" >&2; }

[ -s "$hex" ] || { say "no firmware image at $hex"; exit 1; }
[ -c "$port" ] || { say "$port: no such serial device (is the board plugged in? ls /dev/ttyUSB* /dev/ttyACM*)"; exit 1; }
command -v avrdude >/dev/null || { say "avrdude is not installed (apt-get install avrdude)"; exit 1; }
case $baud in 115200 | 57600) ;; *) say "TB_FLASH_BAUD=$baud: give 115200 or 57600"; exit 2 ;; esac

say "writing $hex to the ATmega328P on $port at $baud baud"
if ! avrdude -c arduino -p m328p -P "$port" -b "$baud" -D -U "flash:w:$hex:i"; then
    other=57600
    [ "$baud" = 57600 ] && other=115200
    say "avrdude failed; a Nano with the other bootloader answers at $other: TB_FLASH_BAUD=$other"
    exit 1
fi
say "done: the board restarts with the new firmware"

#!/bin/bash
# doc_session: the example session of docs/control-protocol.md is what the daemon answers. The
# session's game (fixup-game.txt) is played in real time on two sim: boards; each `> request`
# is sent with the twinboard command of the same name (pin=P as TB_PIN=P) and its answer
# compared with the `< ` lines: `ok+` data lines with the command's output, `error WORD MSG`
# with exit status 1 and "twinboard: MSG". A `status` is asked again (up to 20 s) until the
# game has reached the state shown; the `time used:` line is not compared (wall-clock time).
# Usage: test_doc_session.sh SOURCE_DIR TWINBOARD TWINBOARDD WORK_DIR
set -uo pipefail
src=$1
tb=$2
tbd=$3
work=$4
doc=$src/docs/control-protocol.md
rm -rf "$work"
mkdir -p "$work/journal"
cp "$src/tests/integration/docs/fixup-game.txt" "$work/game.txt"
cat >"$work/twinboard.ini" <<INI
[daemon]
socket = $work/control
journal_dir = $work/journal
[arbiter]
pin = 246813
[player vi]
board = sim:$work/game.txt
audio = null
[player sighted]
board = sim:$work/game.txt
audio = null
INI
"$tbd" -c "$work/twinboard.ini" 2>"$work/daemon.log" &
daemon=$!
trap 'kill $daemon 2>/dev/null' EXIT
export TWINBOARD_SOCKET=$work/control

# The session: "> request" and "< answer" lines of the "Example session" section.
awk '/^## Example session/ { on = 1; next } /^## / { on = 0 } on && /^    [<>] / { print substr($0, 5) }' \
    "$doc" | sed "s#/tmp/fixup-st/game.txt#$work/game.txt#g" >"$work/session"
[ "$(grep -c '^> ' "$work/session")" -ge 5 ] || {
    echo "FAIL: no example session found in $doc" >&2
    exit 1
}

failures=0
# Runs one request; sets rc, out (stdout without the time line), err.
ask() {
    local -a words
    read -ra words <<<"$1"
    local last=${words[${#words[@]} - 1]} pin=""
    if [[ $last == pin=* ]]; then
        unset 'words[${#words[@]}-1]'
        pin=${last#pin=}
    fi
    [ "${words[0]}" = scoresheet ] && words[0]=sheet
    # the PIN from the environment (never argv); empty: none, and no prompt
    TB_PIN="$pin" "$tb" "${words[@]}" >"$work/out" 2>"$work/err"
    rc=$?
    out=$(grep -v '^time used: ' "$work/out")
    err=$(cat "$work/err")
}
check() { # request, expected answer lines
    local req=$1 answer=$2 first want_rc=0 want_out="" want_err=""
    first=$(head -1 <<<"$answer")
    case $first in
    "ok+"*) want_out=$(tail -n +2 <<<"$answer" | sed '$d' | grep -v '^time used: ' | sed 's/^\.//') ;;
    "ok "*) want_out=${first#ok } ;;
    ok) ;;
    "error "*)
        want_rc=1
        want_err="twinboard: $(cut -d' ' -f3- <<<"$first")"
        ;;
    esac
    local tries=1
    [ "$req" = status ] && tries=100
    for ((i = 0; i < tries; i++)); do
        ask "$req"
        [ "$rc" = "$want_rc" ] && [ "$out" = "$want_out" ] && [ "$err" = "$want_err" ] && return 0
        sleep 0.2
    done
    failures=$((failures + 1))
    echo "FAIL: '> $req': the doc shows" >&2
    printf '%s\n' "$answer" >&2
    echo "but the daemon answers (exit $rc):" >&2
    printf '%s\n%s\n' "$out" "$err" >&2
}

req="" answer=""
while IFS= read -r line; do
    case $line in
    "> "*)
        [ -n "$req" ] && check "$req" "$answer"
        req=${line#> } answer=""
        ;;
    "< "*) answer+="${answer:+$'\n'}${line#< }" ;;
    esac
done <"$work/session"
[ -n "$req" ] && check "$req" "$answer"
echo "doc_session: $(grep -c '^> ' "$work/session") requests, $failures differ"
[ "$failures" -eq 0 ] && rm -rf "$work"
[ "$failures" -eq 0 ]

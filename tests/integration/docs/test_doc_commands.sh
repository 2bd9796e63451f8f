#!/bin/bash
# doc_commands: every `twinboard ...` line shown in a code block of docs/*.md and README.md is
# accepted by the program, so the guides cannot drift from it. A synopsis line (with [ ], |, ...
# or a placeholder in capitals) must name a command that exists and only options its usage
# lists (inline `twinboard ...` code spans count too). A concrete control line is run against a daemon with two keys: boards: it must not be
# a usage error (exit 2) and the daemon must not refuse it as malformed; a refusal for the state
# of the game (exit 1: no such mismatch, an illegal move here) is the game's answer, not drift.
# A concrete tool line must at least use only options its command's usage lists.
# Usage: test_doc_commands.sh SOURCE_DIR TWINBOARD TWINBOARDD WORK_DIR
set -uo pipefail
src=$1
tb=$2
tbd=$3
work=$4
rm -rf "$work"
mkdir -p "$work/journal"
pin=2468
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

cat >"$work/test.ini" <<INI
[daemon]
socket = $work/control
journal_dir = $work/journal
[arbiter]
pin = $pin
[player vi]
board = keys:
audio = null
[player sighted]
board = keys:
audio = null
INI
"$tbd" -c "$work/test.ini" --log-level debug 2>"$work/daemon.log" &
daemon=$!
trap 'kill $daemon 2>/dev/null' EXIT
export TWINBOARD_SOCKET=$work/control
for _ in $(seq 1 100); do
    "$tb" status >/dev/null 2>&1 && break
    sleep 0.1
done
"$tb" status >/dev/null || {
    echo "FAIL: the daemon did not start: $(cat "$work/daemon.log")" >&2
    exit 1
}

control=" status moves pgn sheet resolve takeback promote repeat new-game set-position move "
# FILE:LINE<TAB>command line, from indented (4+ spaces) and fenced code blocks.
for doc in "$src"/docs/*.md "$src/README.md"; do
    awk -v f="${doc#"$src"/}" '
        /^ *```/ { fence = !fence; next }
        {
            line = $0
            if (fence || line ~ /^    /) {
                sub(/^ +/, "", line)
                sub(/^\$ /, "", line)
                if (line ~ /^twinboard /) printf "%s:%d\t%s\n", f, NR, line
                next
            }
            # inline code: `twinboard ...`
            while (match(line, /`twinboard [^`]*`/)) {
                printf "%s:%d\t%s\n", f, NR, substr(line, RSTART + 1, RLENGTH - 2)
                line = substr(line, RSTART + RLENGTH)
            }
        }' "$doc"
done >"$work/lines"
[ -s "$work/lines" ] || {
    echo "FAIL: no twinboard lines found in the docs" >&2
    exit 1
}

n=0
while IFS=$'\t' read -r where line; do
    n=$((n + 1))
    line=${line%%  #*}          # a trailing comment
    line=${line%% > *}          # an output redirection
    line=${line%"${line##*[! ]}"} # trailing blanks
    read -ra words <<<"$line"
    cmd=${words[1]:-}
    if ! usage=$("$tb" help "$cmd" 2>&1); then
        fail "$where: '$line': $usage"
        continue
    fi
    usage=${usage//$'\n'/ }
    for w in "${words[@]:2}"; do
        case $w in
        --*=*) w=${w%%=*} ;;
        esac
        case $w in
        --*) [[ " $usage " == *"$w"[\ \]=]* ]] || fail "$where: '$line': $cmd has no option $w ($usage)" ;;
        esac
    done
    synopsis=0
    [[ $line == *"["* || $line == *"|"* || $line == *"..."* ]] && synopsis=1
    for w in "${words[@]:2}"; do
        [[ $w =~ ^[A-Z][A-Z_]+$ && $w != NNNN ]] && synopsis=1
    done
    [[ $synopsis == 1 || $control != *" $cmd "* ]] && continue
    # A concrete control line: run it.
    words=("${words[@]/#NNNN/$pin}")
    before=$(grep -c "control: refused" "$work/daemon.log")
    "${tb}" "${words[@]:1}" >"$work/out" 2>"$work/err" </dev/null
    rc=$?
    after=$(grep -c "control: refused" "$work/daemon.log")
    if [ "$rc" -ge 2 ]; then
        fail "$where: '$line': exit $rc: $(cat "$work/err")"
    elif [ "$after" -ne "$before" ]; then
        fail "$where: '$line': the daemon refused it as malformed: $(tail -1 "$work/daemon.log")"
    elif grep -qi "usage:\|unknown command\|no command" "$work/err"; then
        fail "$where: '$line': $(cat "$work/err")"
    fi
done <"$work/lines"

echo "doc_commands: $n lines checked, $failures failed"
[ "$failures" -eq 0 ] && rm -rf "$work"
[ "$failures" -eq 0 ]

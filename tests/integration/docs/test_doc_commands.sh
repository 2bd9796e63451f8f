#!/bin/bash
# doc_commands: every `twinboard ...` line shown in a code block of docs/*.md and README.md is
# accepted by the program, so the guides cannot drift from it. A synopsis line (with [ ], |, ...
# or a placeholder in capitals) must name a command that exists and only options its usage
# lists (inline `twinboard ...` code spans count too). A concrete control line is run against a daemon with two keys: boards: it must not be
# a usage error (exit 2) and the daemon must not refuse it as malformed; a refusal for the state
# of the game (exit 1: no such mismatch, an illegal move here) is the game's answer, not drift.
# A concrete tool line must at least use only options its command's usage lists; one of the tools
# that need no file (say, perft, devices) is run and must succeed. A `twinboardd` line may use
# only options `twinboardd --help` lists. Then a few facts the docs state are checked against
# the programs (defaults, ranges, a new pack's file).
# Usage: test_doc_commands.sh SOURCE_DIR TWINBOARD TWINBOARDD WORK_DIR
set -uo pipefail
src=$1
tb=$2
tbd=$3
work=$4
rm -rf "$work"
mkdir -p "$work/journal"
pin=246813
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

control=" status moves pgn sheet resolve takeback promote repeat new-game set-position move games "
daemon_usage=$("$tbd" --help 2>&1)
daemon_usage=${daemon_usage//$'\n'/ }
# FILE:LINE<TAB>block|inline<TAB>command line, from indented (4+ spaces) and fenced code blocks
# and inline code spans.
for doc in "$src"/docs/*.md "$src/README.md" "$src"/hardware/*.md; do
    awk -v f="${doc#"$src"/}" '
        /^ *```/ { fence = !fence; next }
        {
            line = $0
            if (fence || line ~ /^    /) {
                sub(/^ +/, "", line)
                sub(/^\$ /, "", line)
                if (line ~ /^twinboardd? /) printf "%s:%d\tblock\t%s\n", f, NR, line
                next
            }
            # inline code: `twinboard ...`
            while (match(line, /`twinboardd? [^`]*`/)) {
                printf "%s:%d\tinline\t%s\n", f, NR, substr(line, RSTART + 1, RLENGTH - 2)
                line = substr(line, RSTART + RLENGTH)
            }
        }' "$doc"
done >"$work/lines"
[ -s "$work/lines" ] || {
    echo "FAIL: no twinboard lines found in the docs" >&2
    exit 1
}

n=0
while IFS=$'\t' read -r where kind line; do
    n=$((n + 1))
    line=${line%%  #*}          # a trailing comment
    line=${line%% > *}          # an output redirection
    line=${line%"${line##*[! ]}"} # trailing blanks
    read -ra words <<<"$line"
    if [ "${words[0]}" = twinboardd ]; then
        for w in "${words[@]:1}"; do
            w=${w%%=*}
            case $w in
            -*) [[ " $daemon_usage " == *[\ \[]"$w"[\ \]]* ]] ||
                fail "$where: '$line': twinboardd has no option $w" ;;
            esac
        done
        continue
    fi
    # twinboard -c FILE CMD, --socket PATH CMD ...: the control commands' options before it
    while [[ ${words[1]:-} =~ ^(-c|--config|--socket|--timeout|--pin-file)$ ]]; do
        words=("${words[0]}" "${words[@]:3}")
    done
    [ ${#words[@]} -lt 2 ] && continue # the option alone, as prose names it
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
    if [[ $synopsis == 0 && $kind == block && " say perft devices " == *" $cmd "* ]]; then
        "${tb}" "${words[@]:1}" >"$work/out" 2>"$work/err" </dev/null ||
            fail "$where: '$line': exit $?: $(cat "$work/err")"
        continue
    fi
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

# ---- transcripts: "$ twinboard ..." lines and the output shown under them ----
# In a code block, a line "$ twinboard ARGS" is followed by what the program prints (standard
# output and error together) up to the next "$ " line or the block's end. Each doc's transcript
# runs in order against a daemon of its own (two keys: boards, a game just begun), and the output
# must be exactly the lines shown: a refusal as the CLI prints it, with a non-zero exit status;
# a line with no "twinboard: " message must exit 0.
transcripts=0
for doc in "$src"/docs/*.md "$src/README.md"; do
    awk '
        /^ *```/ { fence = !fence; if (cmd) { print "END"; cmd = 0 } next }
        {
            code = fence || $0 ~ /^    /
            line = $0
            sub(/^    /, "", line)
            if (code && line ~ /^\$ twinboard /) {
                if (cmd) print "END"
                print "CMD\t" substr(line, 3); cmd = 1; next
            }
            if (cmd && code && line !~ /^ *$/) { print "OUT\t" line; next }
            if (cmd) { print "END"; cmd = 0 }
        }
        END { if (cmd) print "END" }' "$doc" >"$work/transcript"
    [ -s "$work/transcript" ] || continue
    name=$(basename "$doc" .md)
    tdir=$work/t-$name
    mkdir -p "$tdir/journal"
    sed -e "s#^socket = .*#socket = $tdir/control#" -e "s#^journal_dir = .*#journal_dir = $tdir/journal#" \
        "$work/test.ini" >"$tdir/test.ini"
    "$tbd" -c "$tdir/test.ini" 2>"$tdir/daemon.log" &
    tpid=$!
    for _ in $(seq 1 100); do
        TWINBOARD_SOCKET=$tdir/control "$tb" status >/dev/null 2>&1 && break
        sleep 0.1
    done
    want=
    run_one() {
        local -a args
        read -ra args <<<"${cmd#twinboard }"
        got=$(TWINBOARD_SOCKET=$tdir/control "$tb" "${args[@]}" 2>&1 </dev/null)
        local rc=$?
        transcripts=$((transcripts + 1))
        [ "$got" = "$want" ] ||
            fail "docs/$name.md: '\$ $cmd' prints:"$'\n'"$got"$'\n'"the doc shows:"$'\n'"$want"
        if [[ $'\n'$want == *$'\n'"twinboard: "* ]]; then
            [ "$rc" -ne 0 ] || fail "docs/$name.md: '\$ $cmd': a refusal shown, but exit 0"
        else
            [ "$rc" -eq 0 ] || fail "docs/$name.md: '\$ $cmd': exit $rc"
        fi
    }
    while IFS=$'\t' read -r kind text; do
        case $kind in
        CMD) cmd=$text want= ;;
        OUT) want=${want:+$want$'\n'}$text ;;
        END) run_one ;;
        esac
    done <"$work/transcript"
    kill "$tpid" 2>/dev/null
    wait "$tpid" 2>/dev/null
done
[ "$transcripts" -ge 6 ] || fail "only $transcripts transcript lines found in the docs"

# ---- facts the docs state, checked against the programs ----
printf '[arbiter]\npin = 371946\n' >"$work/min.ini"
summary=$("$tbd" --check-config "$work/min.ini")
blip=$(grep -o '`blip_window_ms` | 10\.\.2000:[^|]*| `[0-9]*`' "$src/docs/configuration.md" | grep -o '[0-9]*`$')
[[ $summary == *"blip=${blip%\`}ms"* ]] ||
    fail "configuration.md: blip_window_ms default ${blip%\`} but the daemon uses: $summary"
grep -q 'blip window: 100 ms' "$src/docs/guide-vi-player.md" && [[ $summary == *"blip=100ms"* ]] ||
    fail "guide-vi-player.md: the blip window it names is not the daemon's default ($summary)"
# the packaged configuration and its manual page ship the daemon's default too
grep -qx "blip_window_ms = ${blip%\`}" "$src/host/packaging/twinboard.ini.in" ||
    fail "packaging/twinboard.ini.in: blip_window_ms is not the daemon's default ${blip%\`}"
grep -qx "touch. Default ${blip%\`}." "$src/host/packaging/man/twinboard.ini.5" ||
    fail "man/twinboard.ini.5: the blip_window_ms default is not the daemon's ${blip%\`}"
rates=$(grep -o 'words per minute, [0-9]*\.\.[0-9]*' "$src/docs/configuration.md" | grep -o '[0-9]*\.\.[0-9]*')
lo=${rates%..*} hi=${rates#*..}
for r in "$lo" "$hi"; do
    printf '[arbiter]\npin = 371946\n[player vi]\nrate = %s\n' "$r" >"$work/rate.ini"
    "$tbd" --check-config "$work/rate.ini" >/dev/null ||
        fail "configuration.md: rate $r (of $rates) is refused"
done
printf '[arbiter]\npin = 371946\n[player vi]\nrate = %s\n' "$((hi + 1))" >"$work/rate.ini"
"$tbd" --check-config "$work/rate.ini" >/dev/null && fail "rate $((hi + 1)) is accepted, docs: $rates"
"$tb" say --rate "$hi" e2e4 >/dev/null 2>&1 || fail "say --rate $hi refused, docs: $rates"
# "a new language is a new file": a pack file es.pack is taken by the configuration
mkdir -p "$work/packs"
sed 's/^name *=.*/name = es/' "$src/voice/packs/en.pack" >"$work/packs/es.pack"
printf '[arbiter]\npin = 371946\n[player vi]\npack = es\n' >"$work/es.ini"
TB_VOICE_PACKS="$work/packs:$TB_VOICE_PACKS" "$tbd" --check-config "$work/es.ini" >"$work/es.out" ||
    fail "pack = es refused although es.pack is there: $(cat "$work/es.out")"
"$tbd" --check-config "$work/es.ini" >"$work/es.out" &&
    fail "pack = es accepted without es.pack"
grep -q '\[player vi\] pack = es:' "$work/es.out" || fail "a missing pack is not named: $(cat "$work/es.out")"

echo "doc_commands: $n lines checked, $transcripts transcript lines compared, $failures failed"
[ "$failures" -eq 0 ] && rm -rf "$work"
[ "$failures" -eq 0 ]

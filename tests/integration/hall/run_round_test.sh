#!/usr/bin/env bash
# run_round_test.sh HALL TWINBOARDD TWINBOARD BOARDS - a round run by the hall, as an organiser
# sees it.
#
# A Mosquitto broker of the test's own, two real twinboardd tables (t1, t2: simulated reed
# boards, the built-in clock), a mock lichess (mock_lichess.py: the broadcast push API as
# published, checking method, path, bearer token and body) and twinboard-hall with a pairings
# file exported as a pairing program does. Checked: each table's PGN carries the pairing's names
# and round (sent by the hall, no new-game typed); the round folder (a PGN per board, games.pgn)
# equals each table's own `pgn` with the pairing's Board, titles and FIDE ids added, and
# pgn-extract reads it; lichess gets every position of each board's game in order (push_order.py)
# and last its file; a takeback shows as the corrected main line; lichess away while both tables
# move: the push retried with back-off and every position pushed in order after it; a per-game
# error from lichess shown on the hall's round view; the results list at the round's end; a
# second hall with `delay = 2s` shows a move only 2 s after it was agreed; a bad pairings file
# is refused naming file and line and changes nothing; the token is in no log.
# Exit 77 (skipped) when mosquitto, python3, curl or pgn-extract is not installed.
set -uo pipefail
hall=$1 tbd=$2 tb=$3 boards=$4
here=$(cd "$(dirname "$0")" && pwd)
say() { printf 'round-test: %s\n' "$*"; }
fail() {
    say "FAIL: $*"
    for f in "$tmp"/*.log "$tmp"/lichess/log; do [ -s "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done
    exit 1
}
pe=$(command -v pgn-extract || echo /usr/games/pgn-extract)
for tool in mosquitto python3 curl "$pe"; do
    command -v "$tool" >/dev/null 2>&1 || { say "SKIPPED: $tool is not installed"; exit 77; }
done
m=${TB_TIME_MULTIPLIER:-1}

tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
free_port() {
    local p
    for _ in $(seq 200); do
        p=$((20000 + RANDOM % 30000))
        (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
    done
    fail "no free port"
}
wait_port() {
    for _ in $(seq 200); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}
# until "$@" succeeds, at most $1 s (times the multiplier)
until_ok() {
    local n=$(($1 * 20 * m))
    shift
    for _ in $(seq "$n"); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.05
    done
    return 1
}

mqtt_port=$(free_port) http_port=$(free_port) http2_port=$(free_port) lichess_port=$(free_port)
lichess2_port=$(free_port)
# the public hall's delay: 2 s in ctest; TB_ROUND_DELAY_S=60 (by hand, not in ctest) for a minute
delay_s=${TB_ROUND_DELAY_S:-2}
cat >"$tmp/mosquitto.conf" <<EOF
listener $mqtt_port 127.0.0.1
allow_anonymous true
persistence false
user $(id -un)
EOF
mosquitto -c "$tmp/mosquitto.conf" >"$tmp/mosquitto.log" 2>&1 &
pids+=("$!")
wait_port "$mqtt_port" || fail "the broker did not start"

token=lip_rOuNdTeStToKeN42
mkdir -p "$tmp/lichess"
start_lichess() {
    python3 "$here/mock_lichess.py" "$lichess_port" "$tmp/lichess" r3AbCdEf "$token" \
        >>"$tmp/lichess.log" 2>&1 &
    lichess_pid=$!
    pids+=("$lichess_pid")
    wait_port "$lichess_port" || fail "the mock lichess did not start"
}
start_lichess
# the public hall's own lichess round (never away): what it pushes, delayed
mkdir -p "$tmp/lichess2"
for try in 1 2 3; do # a port taken meanwhile by another program: another one
    python3 "$here/mock_lichess.py" "$lichess2_port" "$tmp/lichess2" r3AbCdEf "$token" >>"$tmp/lichess2.log" 2>&1 &
    lichess2_pid=$!
    pids+=("$lichess2_pid")
    wait_port "$lichess2_port" && kill -0 "$lichess2_pid" 2>/dev/null && break
    [ "$try" = 3 ] && fail "the second mock lichess did not start"
    lichess2_port=$(free_port)
done

# ---- two tables on simulated boards, the built-in clock --------------------------------------
declare -A tfd
start_table() { # name
    local t=$1 dir=$tmp/$1
    mkdir -p "$dir/journal" "$dir/live"
    mkfifo "$dir/boards.in"
    "$boards" "$dir" <"$dir/boards.in" >"$tmp/$t.boards.log" 2>&1 &
    pids+=("$!")
    exec {fd}>"$dir/boards.in"
    tfd[$t]=$fd
    until_ok 10 grep -q '^ready' "$tmp/$t.boards.log" || fail "the boards of $t did not start"
    cat >"$dir/twinboard.ini" <<EOF
[daemon]
socket = $dir/control
journal_dir = $dir/journal
blip_window_ms = 100
[arbiter]
pin = 246813
[clock]
control = 90m+30s
[player vi]
board = pty:$dir/vi-board
audio = null
[player sighted]
board = pty:$dir/sighted-board
audio = null
[broadcast]
pgn_dir = $dir/live
delay = ${delay_s}s
[hall]
broker = 127.0.0.1
port = $mqtt_port
tournament = open-2026
table = $t
EOF
    "$tbd" -c "$dir/twinboard.ini" --audio none >"$tmp/$t.log" 2>&1 &
    pids+=("$!")
    until_ok 10 tstatus_has "$t" 'sighted: Black, pty:[^,]*, connected,' || fail "table $t did not start"
}
tstatus_has() { "$tb" --socket "$tmp/$1/control" status 2>&1 | grep -qE "$2"; }
tpgn() { "$tb" --socket "$tmp/$1/control" pgn 2>/dev/null; }
to() { # table "move vi e2e4": by hand on the table's boards
    local n
    n=$(grep -c '^done ' "$tmp/$1.boards.log")
    echo "$2" >&"${tfd[$1]}"
    until_ok 5 done_more "$1" "$n" || fail "the boards of $1 did not do: $2"
}
move() { # table from-to: made on the mover's board, copied on the other
    local first=vi second=sighted
    [ "$(($(plies "$1") % 2))" = 1 ] && first=sighted second=vi
    to "$1" "move $first $2"
    to "$1" "move $second $2"
}
has_moves() { tr '\n' ' ' <"$1" | grep -qE "$2"; } # a file's movetext, lines joined
done_more() { test "$(grep -c '^done ' "$tmp/$1.boards.log")" -gt "$2"; }
plies_are() { test "$(plies "$1")" = "$2"; }
plies() { "$tb" --socket "$tmp/$1/control" status 2>&1 | sed -n 's/.*game: \([0-9]*\) plies agreed.*/\1/p' | head -1; }
start_table t1
start_table t2
say "broker, mock lichess and tables t1, t2 started"
tpgn t1 | grep -q '^\[White' || fail "t1's pgn cannot be read: $(tpgn t1 | head -5)"

# ---- the round: pairings as a pairing program exports them ------------------------------------
cat >"$tmp/r3.pgn" <<'EOF'
[Event "Leiden Open 2026"]
[Site "Leiden NED"]
[Date "2026.11.28"]
[Round "3"]
[Board "1"]
[White "Carlsen, Magnus"]
[Black "Nakamura, Hikaru"]
[Result "*"]
[WhiteTitle "GM"]
[BlackTitle "GM"]
[WhiteElo "2831"]
[BlackElo "2802"]
[WhiteFideId "1503014"]
[BlackFideId "2016192"]

*

[Event "Leiden Open 2026"]
[Site "Leiden NED"]
[Date "2026.11.28"]
[Round "3"]
[Board "2"]
[White "Schmidt, Anna"]
[Black "de Vries, Bram"]
[Result "*"]
[WhiteFideId "24600010"]
[BlackFideId "1000021"]

*
EOF
printf '246813\n' >"$tmp/pin"
printf '%s\n' "$token" >"$tmp/token"
chmod 600 "$tmp/pin" "$tmp/token"
cat >"$tmp/hall.ini" <<EOF
[round]
pairings = $tmp/r3.pgn
folder = $tmp/round
pin_file = $tmp/pin
tables = t1 t2
[lichess]
round = r3AbCdEf
token_file = $tmp/token
url = http://127.0.0.1:$lichess_port
retry = 200ms
EOF
start_halls() {
    "$hall" --broker-port "$mqtt_port" --port "$http_port" --config "$tmp/hall.ini" >>"$tmp/hall.log" 2>&1 &
    hall_pid=$!
    pids+=("$hall_pid")
    # the public's hall: the same round, 2 s behind, no PIN (it sends nothing to the tables)
    "$hall" --broker-port "$mqtt_port" --port "$http2_port" --config "$tmp/hall2.ini" >>"$tmp/hall2.log" 2>&1 &
    hall2_pid=$!
    pids+=("$hall2_pid")
}
# the public's hall reads the same round as a CSV with the players' start ranks (results.trf)
cat >"$tmp/r3.csv" <<'EOF'
Board,Event,Site,Date,Round,White,Black,WhiteTitle,BlackTitle,WhiteElo,BlackElo,WhiteFideId,BlackFideId,WhiteStartRank,BlackStartRank
1,Leiden Open 2026,Leiden NED,2026.11.28,3,"Carlsen, Magnus","Nakamura, Hikaru",GM,GM,2831,2802,1503014,2016192,1,3
2,Leiden Open 2026,Leiden NED,2026.11.28,3,"Schmidt, Anna","de Vries, Bram",,,,,24600010,1000021,4,2
EOF
printf '[round]\npairings = %s\nfolder = %s\ndelay = %ss\n[lichess]\nround = r3AbCdEf\ntoken_file = %s\nurl = http://127.0.0.1:%s\nretry = 200ms\n' \
    "$tmp/r3.csv" "$tmp/delayed" "$delay_s" "$tmp/token" "$lichess2_port" >"$tmp/hall2.ini"
start_halls
wait_port "$http_port" && wait_port "$http2_port" || fail "twinboard-hall did not listen"
api() { curl -s -H "Host: 127.0.0.1:$http_port" "http://127.0.0.1:$http_port$1"; }

tpgn_has() { tpgn "$1" | grep -q "$2"; }
until_ok 10 tpgn_has t1 '^\[Black "Nakamura, Hikaru"\]' || fail "t1 did not get the pairing's names: $(tpgn t1 | head -8)"
until_ok 10 tpgn_has t2 '^\[White "Schmidt, Anna"\]' || fail "t2 did not get the pairing's names"
tpgn_has t1 '^\[Round "3.1"\]' && tpgn_has t2 '^\[Round "3.2"\]' || fail "the tables' Round is not r.b: $(tpgn t2 | head -6)"
tpgn_has t1 '^\[Event "Leiden Open 2026"\]' || fail "t1's Event is not the pairing's"
until_ok 5 sh -c "curl -s -H 'Host: 127.0.0.1:$http_port' http://127.0.0.1:$http_port/api/round | grep -q '\"tags\":\"the table plays this pairing\"'" ||
    fail "the round view does not say the tables play their pairings: $(api /api/round)"
say "the pairings set both tables' names and rounds (no new-game typed)"
# the halls publish once the tables' retained states had their time (2 s after the start)
until_ok 5 test -f "$tmp/round/games.pgn" && until_ok 5 test -f "$tmp/delayed/games.pgn" ||
    fail "the halls wrote no round folder"

# ---- moves: the folder, the push, the readers -------------------------------------------------
# the folder's board file = the table's own pgn with the pairing's extra tags
extra='^\[(Board|WhiteTitle|BlackTitle|WhiteElo|BlackElo|WhiteFideId|BlackFideId) '
folder_is_table() { # board table [dir]
    local f=${3:-$tmp/round}/game-$1.pgn
    [ -f "$f" ] || return 1
    diff <(grep -vE "$extra" "$f") <(tpgn "$2") >/dev/null
}
pushed_is_games() { # each board's newest game pushed = its file, no position skipped
    python3 "$here/push_order.py" "$tmp/lichess" --newest "$tmp/round" 1 2
}
check_round() { # what: the folder, the readers, the push after an agreed move
    until_ok 5 folder_is_table 1 t1 && until_ok 5 folder_is_table 2 t2 ||
        fail "$1: the folder is not the tables' pgn: $(diff <(grep -vE "$extra" "$tmp/round/game-1.pgn") <(tpgn t1))"
    grep -q '^\[Board "1"\]' "$tmp/round/game-1.pgn" && grep -q '^\[WhiteFideId "1503014"\]' "$tmp/round/game-1.pgn" &&
        grep -q '^\[WhiteTitle "GM"\]' "$tmp/round/game-1.pgn" || fail "$1: game-1.pgn lacks Board, title or FIDE id"
    "$pe" -s -Wuci -C -N -V "$tmp/round/games.pgn" >"$tmp/pe.out" 2>"$tmp/pe.err"
    [ -s "$tmp/pe.err" ] && fail "$1: pgn-extract complained about games.pgn: $(cat "$tmp/pe.err")"
    [ "$(grep -c '^\[Event ' "$tmp/pe.out")" = 2 ] || fail "$1: pgn-extract did not read two games"
    if [ -x "$here/../pgnread/pgn_readers.sh" ]; then
        bash "$here/../pgnread/pgn_readers.sh" "$tmp/round/games.pgn" >"$tmp/readers.out" 2>&1
        rc=$?
        [ "$rc" = 0 ] || [ "$rc" = 77 ] || fail "$1: the PGN readers disagree: $(cat "$tmp/readers.out")"
    fi
    until_ok "${push_wait:-5}" pushed_is_games || fail "$1: what lichess has is not the folder: $(pushed_is_games)"
    [ -s "$tmp/lichess/log" ] && grep -q '^wrong' "$tmp/lichess/log" && fail "$1: a wrong request: $(grep wrong "$tmp/lichess/log")"
    return 0
}
move t1 e2e4
until_ok 5 plies_are t1 1 || fail "t1 did not agree e4"
move t1 e7e5
move t2 d2d4
until_ok 5 plies_are t1 2 && until_ok 5 plies_are t2 1 || fail "the moves were not agreed"
check_round "after 1. e4 e5 and 1. d4"
[ "$(grep -c '\[%clk ' "$tmp/round/game-1.pgn")" -ge 1 ] && grep -q '^\[TimeControl ' "$tmp/round/game-1.pgn" ||
    fail "the board's PGN has no clocks: $(cat "$tmp/round/game-1.pgn")"
clks=$(grep -o '\[%clk [0-9:]*\]' "$tmp/round/game-1.pgn" | wc -l)
[ "$clks" = 2 ] || fail "2 moves, $clks [%clk] in game-1.pgn"
say "folder = each table's pgn + the pairing's tags, [%clk] on every move, read by pgn-extract$( [ "${rc:-77}" = 0 ] && echo ', chess.js, chessops'); lichess has each board's file"

# ---- the delay: the public's hall shows e4 2 s after the arbiter's hall had it -----------------
# both halls take the table's state at the same moment; each writes game-1.pgn when its public
# game changes: the files' times differ by the delay
until_ok $((delay_s + 4)) grep -q '1\. e4' "$tmp/delayed/game-1.pgn" || fail "the delayed folder never shows e4"
first_e4=$(stat -c '%.3Y' "$tmp/delayed/game-1.pgn")
api /api/round | grep -q '"plies":2' || fail "the arbiter's round view is delayed"
until_ok $((delay_s + 4)) has_moves "$tmp/delayed/game-1.pgn" '1\. e4 .* e5' || fail "the delayed folder never shows e5"
until_ok $((delay_s + 4)) grep -q '1\. d4' "$tmp/delayed/game-2.pgn" || fail "the delayed folder never shows d4"
# e5 at t1 and d4 at t2 were agreed last: the undelayed files are of then
late1=$(python3 -c "print(round(($(stat -c '%.3Y' "$tmp/delayed/game-2.pgn") - $(stat -c '%.3Y' "$tmp/round/game-2.pgn")) * 1000))")
lo=$((delay_s * 1000 - 100)) hi=$((delay_s * 1000 + 1000))
[ "$late1" -ge "$lo" ] && [ "$late1" -le "$hi" ] || fail "d4 reached the delayed folder $late1 ms after the arbiter's (delay $delay_s s)"
# the public hall's push: the first request with board 2's d4, as long after the arbiter's file
first_d4() {
    python3 - "$tmp/lichess2" <<'EOF'
import os, re, sys
sys.path.insert(0, os.environ["here"])
from pgn_games import games_of, moves_of
d = sys.argv[1]
for f in sorted(x for x in os.listdir(d) if re.match(r"req-\d+\.pgn$", x)):
    for g in games_of(open(os.path.join(d, f)).read()):
        if '[Board "2"]' in g and len(moves_of(g)) >= 1:
            print("%.3f" % os.stat(os.path.join(d, f)).st_mtime)
            sys.exit(0)
sys.exit(1)
EOF
}
# the table's own live PGN, delayed by its [broadcast] delay: when it first shows d4
live_d4() {
    local f
    f=$(grep -l '1\. d4' "$tmp"/t2/live/*/*.pgn 2>/dev/null | head -1)
    [ -n "$f" ] && stat -c '%.3Y' "$f"
}
export here
until_ok 5 first_d4 || fail "the public hall never pushed d4"
until_ok 5 live_d4 || fail "t2's live PGN never shows d4"
late3=$(python3 -c "print(round(($(live_d4) - $(stat -c '%.3Y' "$tmp/round/game-2.pgn")) * 1000))")
# (the arbiter's file is written after the table agreed and the broker carried it: up to 0.5 s
# more under load, so the live PGN is allowed 0.5 s less; the daemon's own test times it exactly)
[ "$late3" -ge $((lo - 400)) ] && [ "$late3" -le "$hi" ] || fail "d4 reached t2's live PGN $late3 ms after the arbiter's hall had it (delay $delay_s s)"
late2=$(python3 -c "print(round(($(first_d4) - $(stat -c '%.3Y' "$tmp/round/game-2.pgn")) * 1000))")
[ "$late2" -ge "$lo" ] && [ "$late2" -le "$hi" ] || fail "d4 was pushed by the delayed hall $late2 ms after the arbiter's file (delay $delay_s s)"
say "delay = ${delay_s}s: the public folder shows a move $late1 ms and its push carries it $late2 ms, the table's live PGN $late3 ms after the arbiter's hall had it (allowed $lo-$hi ms); the arbiter's view at once"

# ---- lichess away: retried with back-off, every position pushed in order --------------------
kill "$lichess_pid"
wait "$lichess_pid" 2>/dev/null
move t2 d7d5
until_ok 5 plies_are t2 2 || fail "t2 did not agree d5"
until_ok 5 sh -c "curl -s -H 'Host: 127.0.0.1:$http_port' http://127.0.0.1:$http_port/api/round | grep -q '\"failing\":true'" ||
    fail "the round view does not show the failing push: $(api /api/round)"
api /api/round | grep -q 'lichess not reached' || fail "the failing push says nothing: $(api /api/round | tail -c 300)"
# moves at both tables while lichess is away: 6 each at 0.5 s in ctest; TB_ROUND_OUTAGE_S=30
# (by hand, not in ctest) keeps it away 30 s, 12 moves each spread over it
outage=${TB_ROUND_OUTAGE_S:-3}
t1_moves=(g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d3 d7d6 b1d2 a7a6 h2h3 h7h6)
t2_moves=(g1f3 g8f6 e2e3 e7e6 f1d3 f8d6 b1d2 b8d7 h2h3 h7h6 a2a3 a7a6)
steps=$((outage * 2 > 12 ? 12 : outage * 2))
steps=$((steps / 2 * 2)) # even: each side has the move it had before
gap_ms=$((outage * 1000 / steps))
away_from=$(date +%s%3N)
for i in $(seq 0 $((steps - 1))); do
    at=$((away_from + i * gap_ms))
    while [ "$(date +%s%3N)" -lt "$at" ]; do sleep 0.02; done
    move t1 "${t1_moves[$i]}"
    move t2 "${t2_moves[$i]}"
done
until_ok 5 plies_are t1 $((2 + steps)) && until_ok 5 plies_are t2 $((2 + steps)) ||
    fail "the moves made while lichess was away were not agreed"
api /api/round | grep -q '"backlog":[1-9]' || fail "the round view shows no positions waiting: $(api /api/round | tail -c 300)"
left=$((away_from + outage * 1000 - $(date +%s%3N)))
[ "$left" -gt 0 ] && sleep "$(printf '%d.%03d' $((left / 1000)) $((left % 1000)))"
start_lichess
push_wait=$((5 + outage)) check_round "after lichess came back"
python3 "$here/push_order.py" "$tmp/lichess" 1 2 >"$tmp/order.out" 2>&1 || fail "a position skipped: $(cat "$tmp/order.out")"
for b in 1 2; do # every ply from the start, each in its own request
    want="board $b: $(seq -s ' ' 0 $((2 + steps)))"
    grep -qx "$want" "$tmp/order.out" || fail "board $b's positions as lichess got them: $(cat "$tmp/order.out")"
done
say "lichess away $outage s while each table made $steps moves: the hall showed the failure and the backlog, retried, and pushed every position of both games in order ($(tr '\n' ';' <"$tmp/order.out"))"

# ---- a per-game error from lichess, shown to the arbiter ----------------------------------------
echo 2 >"$tmp/lichess/error-board"
move t2 c2c4
until_ok 5 sh -c "curl -s -H 'Host: 127.0.0.1:$http_port' http://127.0.0.1:$http_port/api/round | grep -q 'Invalid move on board 2 (mock)'" ||
    fail "lichess's error for board 2 is not on the round view: $(api /api/round)"
# the page as the arbiter's browser shows it: the error beside board 2, the tiles' time control
if command -v chromium >/dev/null 2>&1; then
    cdp_port=$(free_port)
    chromium --headless=new --no-sandbox --disable-gpu --no-first-run --disable-extensions \
        --user-data-dir="$tmp/chromium" --remote-debugging-port="$cdp_port" \
        "http://127.0.0.1:$http_port/" >"$tmp/chromium.out" 2>&1 &
    pids+=("$!")
    wait_port "$cdp_port" || fail "chromium did not start"
    python3 "$here/cdp.py" "$cdp_port" wait "document.getElementById('round-boards') &&
        document.getElementById('round-boards').innerText.includes('error: Invalid move on board 2 (mock)') &&
        document.getElementById('round-boards').innerText.includes('Carlsen, Magnus')" $((10000 * m)) >/dev/null ||
        fail "the hall page does not show lichess's error beside board 2: $(python3 "$here/cdp.py" "$cdp_port" eval "document.getElementById('round').innerText")"
    python3 "$here/cdp.py" "$cdp_port" wait "document.getElementById('tiles').innerText.includes('time control 5400+30')" $((5000 * m)) >/dev/null ||
        fail "the hall's tiles do not show the time control: $(python3 "$here/cdp.py" "$cdp_port" eval "document.getElementById('tiles').innerText")"
fi
rm "$tmp/lichess/error-board"
say "lichess's per-game error shown on the hall's round view (and page); the tiles show the time control"

# ---- a takeback: the corrected main line ------------------------------------------------------
TB_PIN=246813 "$tb" --socket "$tmp/t1/control" takeback 1 >"$tmp/cli.log" 2>&1 || fail "t1's takeback refused: $(cat "$tmp/cli.log")"
until_ok 5 plies_are t1 $((1 + steps)) || fail "t1 did not take back its last move"
check_round "after the takeback"
[ "$(tr '\n' ' ' <"$tmp/round/game-1.pgn" | grep -o '\[%clk ' | wc -l)" = $((1 + steps)) ] || fail "the taken-back move is still in game-1.pgn: $(cat "$tmp/round/game-1.pgn")"
python3 "$here/push_order.py" "$tmp/lichess" 1 >"$tmp/order.out" 2>&1 || fail "the takeback: $(cat "$tmp/order.out")"
grep -qx "board 1: .* $((2 + steps)) $((1 + steps))" "$tmp/order.out" || fail "the takeback did not reach lichess: $(cat "$tmp/order.out")"
cat "$tmp"/lichess/req-*.pgn | python3 -c 'import re, sys; sys.exit("(" in re.sub(r"\{[^}]*\}", "", sys.stdin.read()))' ||
    fail "the takeback became a variation"
say "takeback: the folder and the push carry the corrected main line"

# ---- the results list at the round's end -----------------------------------------------------
TB_PIN=246813 "$tb" --socket "$tmp/t2/control" result draw >"$tmp/cli.log" 2>&1 || fail "t2's draw refused: $(cat "$tmp/cli.log")"
TB_PIN=246813 "$tb" --socket "$tmp/t1/control" result resign black >"$tmp/cli.log" 2>&1 || fail "t1's result refused: $(cat "$tmp/cli.log")"
until_ok 5 grep -q '^2,"Schmidt, Anna","de Vries, Bram",1/2-1/2$' "$tmp/round/results.csv" &&
    until_ok 5 grep -q '^1,"Carlsen, Magnus","Nakamura, Hikaru",1-0$' "$tmp/round/results.csv" ||
    fail "results.csv: $(cat "$tmp/round/results.csv")"
api /round/results.csv | cmp -s - "$tmp/round/results.csv" || fail "the page's results.csv differs from the folder's"
# the TRF: the public's hall (start ranks given) writes it, read by its documented columns; the
# arbiter's hall (a pairings PGN without them) says why not and writes the CSV and text all the same
trf_is() { python3 "$here/trf_read.py" "$tmp/delayed/results.trf" 3 >"$tmp/trf.out" 2>&1 && cmp -s "$tmp/trf.out" - <<'EOF'
1|Carlsen, Magnus|1503014|1.0|3|w|1
2|de Vries, Bram|1000021|0.5|4|b|=
3|Nakamura, Hikaru|2016192|0.0|1|b|0
4|Schmidt, Anna|24600010|0.5|2|w|=
EOF
}
until_ok $((delay_s + 4)) trf_is || fail "results.trf as its columns read: $(cat "$tmp/trf.out")"
[ -e "$tmp/round/results.trf" ] && fail "a results.trf without start ranks"
api /api/round | grep -q '"results_trf":"not written: board 1: Carlsen, Magnus (White) has no start rank (WhiteStartRank)' ||
    fail "the round view does not say why there is no results.trf: $(api /api/round | head -c 400)"
[ -s "$tmp/round/results.txt" ] || fail "no results.txt"
check_round "at the round's end"
say "results.csv: $(tr '\n' ';' <"$tmp/round/results.csv"); results.trf (start ranks given) read by its columns: $(tr '\n' ';' <"$tmp/trf.out"); without start ranks: the round view says so"

# ---- both halls restarted mid-round: the public keeps what it had ------------------------------
kill "$hall_pid" "$hall2_pid"
wait "$hall_pid" "$hall2_pid" 2>/dev/null
nreq=$(ls "$tmp"/lichess/req-*.pgn | wc -l)
rm "$tmp/round/results.txt" && mkdir "$tmp/round/results.txt" # a file the hall cannot replace
start_halls
wait_port "$http_port" && wait_port "$http2_port" || fail "twinboard-hall did not listen again"
for _ in $(seq 60); do # 3 s: the delayed folder never falls back to the bare pairing
    has_moves "$tmp/delayed/game-1.pgn" '1\. e4' || fail "the restarted delayed hall showed board 1 without its moves"
    sleep 0.05
done
more_requests() { [ "$(ls "$tmp"/lichess/req-*.pgn | wc -l)" -gt "$nreq" ]; }
until_ok 5 more_requests || fail "the restarted hall pushed nothing"
python3 "$here/push_order.py" "$tmp/lichess" --after "$nreq" 1 >"$tmp/order.out"
grep -qE '^board 1: [1-9]' "$tmp/order.out" && ! grep -qE '^board 1: .* 0( |$)' "$tmp/order.out" ||
    fail "the restarted hall pushed board 1 without its moves: $(cat "$tmp/order.out")"
folder_error() { api /api/round | grep -q '"folder_error":"[^"]*results.txt: Is a directory"'; }
until_ok 5 folder_error || fail "the folder's write error is not on the round view: $(api /api/round | head -c 600)"
rmdir "$tmp/round/results.txt"
until_ok 5 test -f "$tmp/round/results.txt" || fail "the folder was not written again once it could be"
until_ok 5 sh -c "curl -s -H 'Host: 127.0.0.1:$http_port' http://127.0.0.1:$http_port/api/round | grep -q '\"folder_error\":\"\"'" ||
    fail "the folder's error stays on the round view"
check_round "after both halls were restarted"
say "both halls restarted mid-round: the folders and lichess kept every move; a folder file that could not be written shown, then written"

# ---- a bad pairings file changes nothing -------------------------------------------------------
sed 's/^\[Board "2"\]/[Board "1"]/' "$tmp/r3.pgn" >"$tmp/bad.pgn"
before=$(cat "$tmp/round/games.pgn")
out=$("$hall" --broker-port "$mqtt_port" --port "$(free_port)" --config "$tmp/hall.ini" --round "$tmp/bad.pgn" 2>&1)
rc=$?
[ "$rc" = 2 ] || fail "a bad pairings file: exit $rc"
case $out in *"bad.pgn:18: board 1 is paired already (line 1)"*) ;; *) fail "the bad file's message: $out" ;; esac
[ "$(cat "$tmp/round/games.pgn")" = "$before" ] || fail "a bad pairings file changed the folder"
say "bad pairings refused: $out"
# a bad configuration: named by file, line and key, nothing started
sed 's/^retry = 200ms$/retry = 2 hours/' "$tmp/hall.ini" >"$tmp/bad.ini"
out=$("$hall" --broker-port "$mqtt_port" --port "$(free_port)" --config "$tmp/bad.ini" 2>&1)
[ $? = 2 ] && case $out in *"bad.ini:10: [lichess] retry: not a time"*) true ;; *) false ;; esac ||
    fail "a bad configuration line: $out"
sed "s|^token_file = .*|token_file = $tmp/no-such-token|" "$tmp/hall.ini" >"$tmp/bad.ini"
out=$("$hall" --broker-port "$mqtt_port" --port "$(free_port)" --config "$tmp/bad.ini" 2>&1)
[ $? = 2 ] && case $out in *"[lichess] token_file $tmp/no-such-token: cannot be read"*) true ;; *) false ;; esac ||
    fail "a missing token file: $out"
[ "$(cat "$tmp/round/games.pgn")" = "$before" ] || fail "a bad configuration changed the folder"
say "bad configuration refused: $out"

grep -rq "$token" "$tmp"/*.log "$tmp/lichess/log" && fail "the token is in a log"
# the public hall's push: every position of both boards in order, the last its delayed file
until_ok $((delay_s + 4)) python3 "$here/push_order.py" "$tmp/lichess2" --newest "$tmp/delayed" 1 2 ||
    fail "the delayed hall's push: $(python3 "$here/push_order.py" "$tmp/lichess2" --newest "$tmp/delayed" 1 2)"
say "PASS"

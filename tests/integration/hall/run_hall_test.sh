#!/usr/bin/env bash
# run_hall_test.sh HALL TWINBOARDD TWINBOARD BOARDS DOCS - the arbiter's hall with the real parts.
#
# A Mosquitto broker of the test's own (free loopback port, own config, no persistence, every
# client logs in), three tables, each a real twinboardd with its [hall] section on two simulated
# reed boards (BOARDS: hall_boards, the board's wire protocol on pseudo-terminals, moved by hand
# from this script), the dashboard twinboard-hall, and a real headless Chromium driven over its
# DevTools protocol (cdp.py). Checked as a user would notice: the page shows the right tables; a
# mismatch shows within a second; a resolve with a wrong PIN is refused by the daemon and with
# the right one reaches it and clears the mismatch (twinboard status on that daemon); the broker
# killed and restarted mid-game loses nothing and the page catches up; malformed payloads,
# forged commands and HTTP garbage change nothing; wrong PINs from the broker wait out the control
# socket's guard delays; the ARBITER button calls the arbiter on the
# page; a table with a wrong password stays out; a doorgeefschaak table shows both games, the
# hands, the moves with a drop and a result, and refuses the hall's commands. TLS: a second broker with a test CA made here by
# openssl; a table whose [hall] names that CA connects and publishes, one naming another CA does
# not. The screenshots (hall-mismatch.png, hall-table.png) are made here, into the directory
# given (the build tree); TB_UPDATE_SCREENSHOTS=1 writes them into docs/ instead, to refresh the
# ones the arbiter's guide shows.
# Exit 77 (skipped) when mosquitto, chromium, python3, curl or openssl is not installed.
set -uo pipefail
hall=$1 tbd=$2 tb=$3 boards=$4 docs=$5
[ "${TB_UPDATE_SCREENSHOTS:-0}" = 1 ] && docs="$(cd "$(dirname "$0")/../../.." && pwd)/docs"
mkdir -p "$docs"
here=$(cd "$(dirname "$0")" && pwd)
cdp() { python3 "$here/cdp.py" "$cdp_port" "$@"; }
say() { printf 'hall-test: %s\n' "$*"; }
fail() {
    say "FAIL: $*"
    for f in "$tmp"/*.log; do [ -s "$f" ] && { echo "--- $f"; tail -n 25 "$f"; }; done
    exit 1
}

for tool in mosquitto mosquitto_passwd chromium python3 curl mosquitto_pub mosquitto_sub openssl; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        say "SKIPPED: $tool is not installed (host/tools/dev deps installs it)"
        exit 77
    fi
done

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
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return
        fi
    done
    fail "no free port"
}
# waits until a TCP port accepts connections (at most 10 s)
wait_port() {
    for _ in $(seq 200); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}
# waits until a file holds a line matching a pattern (at most $3 s)
wait_line() {
    local n=$(($3 * 20))
    for _ in $(seq "$n"); do
        grep -qE "$2" "$1" 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}

mqtt_port=$(free_port)
http_port=$(free_port)
cdp_port=$(free_port)
# every client logs in: the tables (each as its table), the dashboard, the test's own publisher
# ("tester": anyone on a broker without ACLs, for the forged payloads); the ACL is the one
# shipped (host/hall/broker/twinboard.acl) plus the tester
mosquitto_passwd -b -c "$tmp/passwd" hall hall-secret >/dev/null 2>&1 || fail "mosquitto_passwd"
for u in t1 t2 t3 t4 t5 t6 b1; do mosquitto_passwd -b "$tmp/passwd" "$u" hall-secret >/dev/null 2>&1; done
mosquitto_passwd -b "$tmp/passwd" tester tester-secret >/dev/null 2>&1
chmod 600 "$tmp/passwd"
{ printf 'user tester\ntopic readwrite twinboard/#\n\n'; cat "$here/../../../host/hall/broker/twinboard.acl"; } >"$tmp/acl"
cat >"$tmp/mosquitto.conf" <<EOF
listener $mqtt_port 127.0.0.1
allow_anonymous false
password_file $tmp/passwd
acl_file $tmp/acl
persistence false
user $(id -un)
log_dest file $tmp/mosquitto.log
EOF
broker_pid=
start_broker() {
    mosquitto -c "$tmp/mosquitto.conf" >>"$tmp/mosquitto.out.log" 2>&1 &
    broker_pid=$!
    pids+=("$broker_pid")
    wait_port "$mqtt_port" || fail "the broker did not start"
}
start_broker
say "broker on 127.0.0.1:$mqtt_port"

# the login PIN opens every table's commands: a guessable one keeps the hall from starting
for weak in 123456 777777 8642; do
    rc=0
    TB_HALL_PIN=$weak "$hall" --broker-port "$mqtt_port" --port "$http_port" >"$tmp/weak.log" 2>&1 || rc=$?
    [ "$rc" = 2 ] && grep -q "TB_HALL_PIN .*choose 6 to 8 digits" "$tmp/weak.log" ||
        fail "twinboard-hall started with the login PIN $weak (exit $rc): $(cat "$tmp/weak.log")"
done
say "guessable login PINs refused at start"

TB_HALL_PIN=86420719 TB_HALL_PASSWORD=hall-secret "$hall" --broker-port "$mqtt_port" --port "$http_port" \
    --username hall >"$tmp/hall.log" 2>&1 &
hall_pid=$!
pids+=("$hall_pid")
wait_port "$http_port" || fail "twinboard-hall did not listen"
url="http://127.0.0.1:$http_port"

# tables: a twinboardd each, on two simulated reed boards moved from a fifo this script writes
declare -A tfd tpid
start_table() { # name pin [password [extra lines [broker port [status when ready]]]]
    local t=$1 dir=$tmp/$1
    mkdir -p "$dir/journal"
    mkfifo "$dir/boards.in"
    "$boards" "$dir" <"$dir/boards.in" >"$tmp/$t.boards.log" 2>&1 &
    pids+=("$!")
    exec {fd}>"$dir/boards.in"
    tfd[$t]=$fd
    wait_line "$tmp/$t.boards.log" '^ready' 10 || fail "the boards of $t did not start"
    printf '%s\n' "${3:-hall-secret}" >"$dir/password"
    chmod 600 "$dir/password"
    cat >"$dir/twinboard.ini" <<EOF
[daemon]
socket = $dir/control
journal_dir = $dir/journal
blip_window_ms = 100
[arbiter]
pin = $2
[player vi]
board = pty:$dir/vi-board
audio = null
[player sighted]
board = pty:$dir/sighted-board
audio = null
[hall]
broker = 127.0.0.1
port = ${5:-$mqtt_port}
tournament = open-2026
table = $t
username = $t
password_file = $dir/password
${4:-}
EOF
    "$tbd" -c "$dir/twinboard.ini" --audio none >"$tmp/$t.log" 2>&1 &
    pids+=("$!")
    tpid[$t]=$!
    wait_status "$t" "${6:-sighted: Black, pty:[^,]*, connected,}" 10 || fail "table $t did not start"
}
tstatus() { "$tb" status --socket "$tmp/$1/control" 2>&1; }
# waits until `twinboard status` of table $1 matches $2 (at most $3 s)
wait_status() {
    local n=$(($3 * 10))
    for _ in $(seq "$n"); do
        tstatus "$1" | grep -qE "$2" && return 0
        sleep 0.1
    done
    return 1
}
to() { # table "move vi e2e4" | "arbiter vi": by hand on the table's boards
    local n
    n=$(grep -c '^done ' "$tmp/$1.boards.log")
    echo "$2" >&"${tfd[$1]}"
    for _ in $(seq 100); do
        [ "$(grep -c '^done ' "$tmp/$1.boards.log")" -gt "$n" ] && return 0
        sleep 0.05
    done
    fail "the boards of $1 did not do: $2"
}
start_table t1 246813
start_table t2 135792
start_table t3 958273

chromium --headless=new --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --user-data-dir="$tmp/chromium" --remote-debugging-port="$cdp_port" \
    --window-size=1280,900 --autoplay-policy=no-user-gesture-required \
    --host-resolver-rules="MAP rebind.test 127.0.0.1" \
    "$url/" >"$tmp/chromium.log" 2>&1 &
pids+=("$!")
wait_port "$cdp_port" || fail "chromium did not start"

# ---- the page shows the right tables ----------------------------------------------------------
to t1 "move vi e2e4"
to t1 "move sighted e2e4"
to t1 "move sighted e7e5"
to t1 "move vi e7e5"
to t2 "move vi d2d4"
wait_status t1 'game: 2 plies agreed' 10 && wait_status t1 'state: in-sync' 10 ||
    fail "t1 did not agree two moves: $(tstatus t1)"
cdp wait "document.querySelectorAll('#tiles > li').length === 3 &&
          document.querySelector('#tile-open-2026--t1 .state').textContent === 'in sync' &&
          document.querySelector('#tile-open-2026--t2').dataset.state === 'waiting'" 10000 \
    >/dev/null || fail "the page does not show t1, t2, t3 as they stand: $(cdp eval "document.getElementById('tiles').innerText")"
tiles=$(cdp eval "[...document.querySelectorAll('#tiles > li')].map(t => t.dataset.table).sort().join(',')")
[ "$tiles" = '"t1,t2,t3"' ] || fail "tiles $tiles, expected t1,t2,t3"
label=$(cdp eval "document.querySelector('#tile-open-2026--t2 svg').getAttribute('aria-label')")
case $label in *"differs on d2, d4"*) ;; *) fail "t2's board has no text naming the differing squares: $label" ;; esac
say "the page shows t1 (in sync), t2 (waiting: differs on d2, d4), t3"

# ---- a mismatch shows within a second ---------------------------------------------------------
to t1 "move vi g1f3"
wait_status t1 'state: waiting' 10 || fail "t1 did not announce Nf3: $(tstatus t1)"
# the sighted player copies the wrong knight move (lift, 150 ms, place): timed from the place,
# when the boards differ, to the page showing it
to t1 "move sighted g1h3"
start=$(($(date +%s%3N) - 50))
shown=$(cdp when "!!document.querySelector('#tile-open-2026--t1.alert') &&
                  document.getElementById('alerts').textContent.includes('mismatch')" 5000) ||
    fail "no mismatch alert on t1's tile"
took=$((shown - start))
say "mismatch on t1 shown (tile, alert region) after $took ms"
limit=$((1000 * ${TB_TIME_MULTIPLIER:-1})) # a loaded machine is slower, not wrong
[ "$took" -le "$limit" ] || fail "the mismatch took $took ms to show (limit $limit)"
first=$(cdp eval "document.querySelector('#tiles > li').dataset.table")
[ "$first" = '"t1"' ] || fail "the table with the mismatch is not the first tile ($first)"
mkdir -p "$docs"
cdp shot "$docs/hall-mismatch.png" || fail "no screenshot"

# ---- the table page; a wrong PIN is refused, the right one resolves ---------------------------
cdp goto "$url/table/open-2026/t1" || fail "no table page"
cdp wait "document.getElementById('mm-list') &&
          document.getElementById('mm-list').textContent.includes('wrong move') &&
          document.querySelectorAll('table.sheet').length === 2" 5000 >/dev/null ||
    fail "the table page lacks the mismatch or the scoresheets"
send() { # pin (the hall's login PIN too while the page has no session)
    cdp eval "document.getElementById('act-resolve').checked = true;
              if (document.getElementById('hall-pin')) document.getElementById('hall-pin').value = '86420719';
              document.getElementById('pin').value = '$1';
              document.getElementById('send').click(); true" >/dev/null
}
send 118624
cdp wait "document.getElementById('outcome').textContent.startsWith('Refused by the table: wrong PIN')" 5000 \
    >/dev/null || fail "wrong PIN: the page shows '$(cdp eval "document.getElementById('outcome').textContent")'"
wait_line "$tmp/t1.log" 'hall: resolve \(request [^)]*\) refused: wrong arbiter PIN' 5 ||
    fail "t1 did not refuse the wrong PIN"
grep -qE 'hall: resolve \(request [^)]*\) done' "$tmp/t1.log" && fail "t1 accepted a wrong PIN"
wait_status t1 'state: blocked: mismatch 1 open' 1 || fail "a wrong PIN changed t1: $(tstatus t1)"
[ "$(cdp eval "document.getElementById('detail-state').textContent")" = '"blocked"' ] ||
    fail "a wrong PIN changed the table's state"
say "resolve with a wrong PIN refused by the table; nothing changed"
send 246813
cdp wait "document.getElementById('outcome').textContent.startsWith('Accepted by the table')" 5000 \
    >/dev/null || fail "right PIN: the page shows '$(cdp eval "document.getElementById('outcome').textContent")'"
wait_line "$tmp/t1.log" 'hall: resolve \(request [^)]*\) done' 5 || fail "t1 did not take the resolve"
to t1 "move sighted h3f3" # the board put right as the resolution says
cdp wait "document.getElementById('detail-state').textContent === 'in-sync' &&
          document.getElementById('mm-list').textContent.includes('Outcome:')" 5000 >/dev/null ||
    fail "the mismatch did not clear on the page: $(cdp eval "document.getElementById('detail').innerText")"
wait_status t1 'state: in-sync' 5 && wait_status t1 'game: 3 plies agreed' 5 ||
    fail "the mismatch did not clear on t1's daemon: $(tstatus t1)"
tstatus t1 | grep -q 'MISMATCH' && fail "t1's status still shows the mismatch"
say "resolve with the right PIN reached t1's daemon; the mismatch cleared (twinboard status: in-sync)"
cdp shot "$docs/hall-table.png" || fail "no screenshot"

# ---- the broker killed and restarted mid-game -------------------------------------------------
cdp goto "$url/" || fail "no hall page"
kill -9 "$broker_pid"
wait "$broker_pid" 2>/dev/null
to t1 "move sighted b8c6"
to t1 "move vi b8c6"
to t1 "move vi f1b5"
to t1 "move sighted f1b5"
to t3 "move vi c2c4"
wait_status t1 'game: 5 plies agreed' 10 && wait_status t1 'state: in-sync' 10 ||
    fail "t1 stopped playing without the broker: $(tstatus t1)"
wait_status t1 'hall: open-2026/t1, broker NOT CONNECTED' 5 || fail "t1 does not see the broker gone"
say "broker down: t1 played on ($(tstatus t1 | grep '^hall:'))"
sleep 1
start_broker
cdp wait "tables.get('open-2026/t1').state.plies === 5 &&
          tables.get('open-2026/t1').state.boards.every(b => b.sheet.join(' ') === 'e4 e5 Nf3 Nc6 Bb5') &&
          tables.get('open-2026/t3').state.state === 'waiting' &&
          document.querySelectorAll('#tiles > li').length === 3" 20000 >/dev/null ||
    fail "the page did not catch up after the broker came back: $(cdp eval "JSON.stringify(tables.get('open-2026/t1').state.boards.map(b => b.sheet))")"
wait_status t1 'broker connected, 2 connects, 0 events queued, 0 dropped' 10 ||
    fail "t1 did not deliver everything after the reconnect: $(tstatus t1 | grep '^hall:')"
say "broker back: the page caught up (t1: both scoresheets e4 e5 Nf3 Nc6 Bb5), t1 queued and dropped nothing"

# ---- bad input changes nothing ----------------------------------------------------------------
before=$(curl -s "$url/api/state")
mosquitto_pub -u tester -P tester-secret -p "$mqtt_port" -t twinboard/open-2026/t2/state -m '{"tournament":"open-2026"' || fail "mosquitto_pub"
mosquitto_pub -u tester -P tester-secret -p "$mqtt_port" -t twinboard/open-2026/t2/state -m '{"seq":99,"evil":true}'
head -c 200000 /dev/zero | tr '\0' '{' >"$tmp/huge"
mosquitto_pub -u tester -P tester-secret -p "$mqtt_port" -t twinboard/open-2026/t2/state -f "$tmp/huge"
mosquitto_pub -u tester -P tester-secret -p "$mqtt_port" -t twinboard/open-2026/t2/event -m '{"kind":"move","seq":1e400}'
mosquitto_pub -u tester -P tester-secret -p "$mqtt_port" -t twinboard/open-2026/t1/cmd -m '{"action":"takeback","request":"x","mismatch":0,"n":2}'
mosquitto_pub -u tester -P tester-secret -p "$mqtt_port" -t twinboard/open-2026/t1/cmd -m '{"action":"takeback","request":"x","mismatch":0,"n":2,"pin":"604127"}'
sleep 1
refused=$(curl -s "$url/api/state" | python3 -c 'import json,sys; print(json.load(sys.stdin)["refused"])')
[ "$refused" -ge 4 ] || fail "the dashboard counted $refused refused payloads, expected at least 4"
after=$(curl -s "$url/api/state")
strip() { python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("refused"); d.pop("gen"); [t.pop("events") for t in d["tables"]]; print(json.dumps(d,sort_keys=True))'; }
[ "$(echo "$before" | strip)" = "$(echo "$after" | strip)" ] ||
    fail "malformed payloads changed a table: $(diff <(echo "$before" | strip | tr ',' '\n') <(echo "$after" | strip | tr ',' '\n'))"
wait_line "$tmp/t1.log" 'hall: takeback \(request x\) refused: wrong arbiter PIN' 5 ||
    fail "the forged takeback with a PIN was not refused"
[ "$(grep -c 'hall: takeback' "$tmp/t1.log")" = 1 ] || fail "the forged takeback without a PIN reached the table"
wait_status t1 'game: 5 plies agreed' 1 || fail "t1 changed: $(tstatus t1)"

code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
form=(-H 'Content-Type: application/x-www-form-urlencoded' -H "Origin: $url")
# a session of the test's own: the hall's PIN; the cookie HttpOnly and SameSite=Strict
curl -s -D "$tmp/login.head" -c "$tmp/jar" "${form[@]}" --data 'pin=86420719' "$url/api/login" >"$tmp/login.json" ||
    fail "no login"
csrf=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["csrf"])' "$tmp/login.json") ||
    fail "the login gave no CSRF token: $(cat "$tmp/login.json")"
grep -qi '^Set-Cookie: tb_hall=[0-9a-f]\{32\}; Path=/; HttpOnly; SameSite=Strict' "$tmp/login.head" ||
    fail "the session cookie is not HttpOnly and SameSite=Strict: $(grep -i set-cookie "$tmp/login.head")"
sess=(-b "$tmp/jar" -H "X-CSRF-Token: $csrf")
ok_cmd="tournament=open-2026&table=t1&action=takeback&n=1&pin=246813"
[ "$(code "${form[@]}" --data "$ok_cmd" "$url/api/cmd")" = 401 ] || fail "a command without a session was taken"
[ "$(code "${form[@]}" -b "$tmp/jar" --data "$ok_cmd" "$url/api/cmd")" = 403 ] || fail "a command without the CSRF token was taken"
[ "$(code "${form[@]}" -b "$tmp/jar" -H "X-CSRF-Token: $(echo "$csrf" | tr '0-9a-f' '1-9a-f0')" --data "$ok_cmd" "$url/api/cmd")" = 403 ] || fail "a command with another CSRF token was taken"
[ "$(code -H 'Content-Type: application/x-www-form-urlencoded' "${sess[@]}" --data "$ok_cmd" "$url/api/cmd")" = 403 ] || fail "a command without Origin was taken"
[ "$(code -H "Host: rebind.test:$http_port" "$url/api/state")" = 421 ] || fail "the state was served for another host name"
[ "$(code -H "Host: 127.0.0.1:1" "$url/")" = 421 ] || fail "the page was served for another port"
# wrong hall PINs are held back for their address alone (curl from 127.0.0.9)
[ "$(code --interface 127.0.0.9 "${form[@]}" --data 'pin=1111' "$url/api/login")" = 403 ] || fail "a wrong hall PIN logged in"
[ "$(code --interface 127.0.0.9 "${form[@]}" --data 'pin=86420719' "$url/api/login")" = 429 ] || fail "a PIN right after a wrong one was checked at once"
[ "$(code "${form[@]}" --data 'pin=86420719' "$url/api/login")" = 200 ] || fail "another address was held back by 127.0.0.9's wrong PIN"
form+=("${sess[@]}")
[ "$(code "${form[@]}" --data "tournament=open-2026&table=t1&action=resolve&mismatch=1&pin=1&pin=2" "$url/api/cmd")" = 400 ] || fail "a field given twice was taken"
[ "$(code "${form[@]}" --data "tournament=open-2026&table=t1&action=reboot&pin=1" "$url/api/cmd")" = 400 ] || fail "an unknown action was taken"
[ "$(code "${form[@]}" --data "tournament=open-2026&table=t%2F1&action=takeback&n=1&pin=1" "$url/api/cmd")" = 400 ] || fail "a bad table name was taken"
[ "$(code "${form[@]}" --data "tournament=open-2026&table=t1&action=takeback&n=1&pin=1%0a" "$url/api/cmd")" = 400 ] || fail "a control character was taken"
[ "$(code "${form[@]}" --data "$(head -c 5000 /dev/zero | tr '\0' a)" "$url/api/cmd")" = 413 ] || fail "an oversized body was taken"
[ "$(code -H 'Content-Type: text/plain' --data "x" "$url/api/cmd")" = 415 ] || fail "a body of another type was taken"
[ "$(code -H 'Content-Type: application/x-www-form-urlencoded' "${sess[@]}" -H 'Origin: http://evil.example' --data "tournament=open-2026&table=t1&action=takeback&n=1&pin=246813" "$url/api/cmd")" = 403 ] || fail "a command from another site's page was taken"
say "the page's commands need a session (the hall's PIN: an HttpOnly, SameSite=Strict cookie) and its CSRF token, from the dashboard's own Origin; wrong hall PINs held back per address"
[ "$(code -X PUT "$url/")" = 405 ] || fail "PUT answered"
[ "$(code "$url/etc/passwd")" = 404 ] || fail "an unknown page answered"
[ "$(code "$url/events?from=-1")" = 400 ] || fail "a bad stream position answered"
printf 'GET /\r\n\r\n' | timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$http_port; cat >&3; cat <&3" >"$tmp/garbage.out" 2>/dev/null
printf 'GARBAGE\0\r\n\r\n' | timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$http_port; cat >&3; cat <&3" >/dev/null 2>&1
head -c 300 /dev/urandom | timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$http_port; cat >&3; cat <&3" >/dev/null 2>&1
grep -q '^HTTP/1.[01] 4' "$tmp/garbage.out" || fail "HTTP garbage was not refused with 4xx: $(head -c 100 "$tmp/garbage.out")"

# ---- DNS rebinding: a page of another name whose address is 127.0.0.1 -------------------------
# Chromium resolves rebind.test to 127.0.0.1 (--host-resolver-rules): a script of that page,
# as an attacker's page would be once its name points here, runs with the page's origin.
takebacks=$(grep -c 'hall: takeback' "$tmp/t1.log")
cdp goto "http://rebind.test:$http_port/" || fail "chromium did not open rebind.test"
body="new URLSearchParams({tournament: 'open-2026', table: 't1', action: 'takeback', n: '1', pin: '2468'})"
got=$(cdp eval "(async () => { const r = await fetch('/api/state'); return r.status + ' ' + (await r.text()).slice(0, 60); })()")
case $got in '"421 '*'Host: not a name of this dashboard'*) ;; *) fail "a rebound page read the state: $got" ;; esac
got=$(cdp eval "(async () => (await fetch('/api/cmd', {method: 'POST', body: $body})).status)()")
[ "$got" = 421 ] || fail "a rebound page posted a command: $got"
# the same page asking the dashboard's own name: the answer is not readable, the post refused
got=$(cdp eval "(async () => { try { await fetch('$url/api/state'); return 'read'; } catch (e) { return 'not readable'; } })()")
[ "$got" = '"not readable"' ] || fail "another origin read the state: $got"
cdp eval "(async () => { await fetch('$url/api/cmd', {method: 'POST', mode: 'no-cors', credentials: 'include', body: $body}); return true; })()" >/dev/null
sleep 1
[ "$(grep -c 'hall: takeback' "$tmp/t1.log")" = "$takebacks" ] || fail "a command from another origin reached t1"
cdp goto "$url/" || fail "chromium did not come back to the dashboard"
say "a page of another name on 127.0.0.1 (DNS rebinding) reads nothing (421) and sends nothing; another origin's post refused"

# ---- 200 idle, slow and non-reading clients from four loopback addresses ----------------------
hall_log0=$(stat -c %s "$tmp/hall.log")
python3 "$here/load_clients.py" "$http_port" 200 127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5 \
    >"$tmp/load.out" 2>&1 &
pids+=("$!")
wait_line "$tmp/load.out" '^ready' 30 || fail "the load clients did not connect: $(cat "$tmp/load.out")"
sleep 1
limit=$((1000 * ${TB_TIME_MULTIPLIER:-1}))
worst=0
for round in 1 2 3; do
    for what in page state login cmd; do
        start=$(date +%s%3N)
        case $what in
        page) c=$(code --max-time 5 "$url/table/open-2026/t1") want=200 ;;
        state) c=$(code --max-time 5 "$url/api/state") want=200 ;;
        login) c=$(code --max-time 5 -c "$tmp/jar2" -H 'Content-Type: application/x-www-form-urlencoded' \
            -H "Origin: $url" --data 'pin=86420719' "$url/api/login") want=200 ;;
        cmd) c=$(code --max-time 5 "${form[@]}" --data "tournament=open-2026&table=t3&action=takeback&n=1&pin=0000" "$url/api/cmd") want=202 ;;
        esac
        took=$(($(date +%s%3N) - start))
        [ "$c" = "$want" ] || fail "beside 200 idle, slow and non-reading clients $what answered $c (round $round)"
        [ "$took" -le "$limit" ] || fail "beside 200 idle, slow and non-reading clients $what took $took ms (limit $limit)"
        [ "$took" -gt "$worst" ] && worst=$took
    done
done
cdp wait "document.getElementById('link').textContent === 'Live'" 5000 >/dev/null ||
    fail "the arbiter's page lost its live stream beside the load"
grown=$(($(stat -c %s "$tmp/hall.log") - hall_log0))
[ "$grown" -lt 4096 ] || fail "the load wrote $grown bytes into the dashboard's log: $(sort "$tmp/hall.log" | uniq -c | sort -rn | head -3)"
say "beside $(cut -d' ' -f2 "$tmp/load.out") held connections from 4 addresses the page, the state, a login and a command answered within $worst ms; the dashboard's log grew $grown bytes"
sleep 0.5
grep -qE 'hall: takeback \(request [^)]*\) done' "$tmp/t1.log" && fail "a refused request reached t1"
kill -0 "$hall_pid" || fail "twinboard-hall died"
[ "$(code "$url/api/state")" = 200 ] || fail "twinboard-hall stopped answering"
say "malformed payloads, forged commands and HTTP garbage refused; nothing changed"

# ---- the broker as a trust boundary: ACLs, a forged sequence, a table started again ----------
# a table's login may write only its own topics: t2's credentials on t1's state and commands
# are dropped by the broker
mosquitto_pub -u t2 -P hall-secret -p "$mqtt_port" -t twinboard/open-2026/t1/cmd \
    -m '{"action":"takeback","request":"acl","mismatch":0,"n":1,"pin":"246813"}'
mosquitto_pub -u t2 -P hall-secret -p "$mqtt_port" -t twinboard/open-2026/t1/state -m '{"x":1}'
sleep 1
grep -q 'request acl' "$tmp/t1.log" && fail "a table's login sent a command to another table"
[ "$(curl -s "$url/api/state" | python3 -c 'import json,sys; print(json.load(sys.stdin)["refused"])')" = "$refused" ] ||
    fail "a table's login wrote another table's state"
st_of() { # table -> "epoch seq plies" of its state on the dashboard
    curl -s "$url/api/state" | python3 -c 'import json,sys
t = [t for t in json.load(sys.stdin)["tables"] if t["table"] == sys.argv[1]][0]["state"]
print(t.get("epoch", "-"), t["seq"], t["plies"])' "$1"
}
read -r epoch2 seq2 _ <<<"$(st_of t2)"
[ "$epoch2" != - ] || fail "t2's state carries no epoch"
# a retained state of t2's own session with a seq no restart explains: refused, the table seen on
curl -s "$url/api/state" | python3 -c 'import json,sys
t = [t for t in json.load(sys.stdin)["tables"] if t["table"] == "t2"][0]["state"]
t["seq"] = 9007199254740991; t["state"] = "in-sync"; t["plies"] = 0
print(json.dumps(t))' >"$tmp/forged.json"
mosquitto_pub -u tester -P tester-secret -p "$mqtt_port" -r -t twinboard/open-2026/t2/state -f "$tmp/forged.json"
sleep 0.5
read -r e s _ <<<"$(st_of t2)"
[ "$e $s" = "$epoch2 $seq2" ] || fail "a forged state with seq 2^53-1 was taken: $e $s"
to t2 "move sighted d2d4"
for _ in $(seq 50); do read -r e s _ <<<"$(st_of t2)"; [ "$s" -gt "$seq2" ] && break; sleep 0.1; done
[ "$e" = "$epoch2" ] && [ "$s" -gt "$seq2" ] && [ "$s" -lt 1000 ] ||
    fail "t2's own next state was not taken after the forged one: $e $s"
# t3 started again (SIGKILL, then started): a new session from seq 1, taken at once
read -r epoch3 seq3 plies3 <<<"$(st_of t3)"
kill -9 "${tpid[t3]}"
wait "${tpid[t3]}" 2>/dev/null
"$tbd" -c "$tmp/t3/twinboard.ini" --audio none >>"$tmp/t3.log" 2>&1 &
pids+=("$!")
tpid[t3]=$!
wait_status t3 'broker connected' 10 || fail "t3 did not come back: $(tstatus t3)"
for _ in $(seq 50); do read -r e s p <<<"$(st_of t3)"; [ "$e" != "$epoch3" ] && break; sleep 0.1; done
[ "$e" != "$epoch3" ] && [ "$s" -le 5 ] && [ "$p" = "$plies3" ] ||
    fail "t3 started again was not taken as a new session: $epoch3 $seq3 -> $e $s (plies $plies3 -> $p)"
say "ACL: a table's login cannot write another table's topics; a forged state of seq 2^53-1 refused and t2's next state taken (seq $s); t3 started again: a new session (epoch $e, seq from 1) taken at once"

# ---- the guard's delays apply to PINs from the broker as to the control socket's ------------
# each event with the moment it arrived (%U: seconds.nanoseconds)
mosquitto_sub -u hall -P hall-secret -p "$mqtt_port" -t twinboard/open-2026/t2/event \
    -F '%U %p' >"$tmp/t2.events" 2>&1 &
pids+=("$!")
sleep 1 # subscribed
cmd() { # request pin: a resolve of mismatch 1 at t2 from the broker; prints when it was sent
    date +%s%3N
    mosquitto_pub -u hall -P hall-secret -p "$mqtt_port" -t twinboard/open-2026/t2/cmd \
        -m "{\"action\":\"resolve\",\"request\":\"$1\",\"mismatch\":1,\"n\":0,\"pin\":\"$2\"}"
}
answered() { # request: when its answer came (waits up to 10 s)
    wait_line "$tmp/t2.events" "\"request\":\"$1\"" 10 || fail "no answer to $1: $(cat "$tmp/t2.events")"
    local at
    at=$(grep "\"request\":\"$1\"" "$tmp/t2.events" | head -1 | cut -d' ' -f1)
    echo "${at%.*}${at#*.}" | cut -c1-13 # in ms
}
sent1=$(cmd g1 604127)
sent2=$(cmd g2 604127) # while the first wrong PIN's answer is held: refused unchecked
at1=$(answered g1)
grep '"request":"g2"' "$tmp/t2.events" | grep -q 'busy' || fail "a command during the delay was not refused as busy"
sent3=$(cmd g3 604127)
at3=$(answered g3)
sent4=$(cmd g4 135792) # the right PIN, once the delay has passed: the daemon's own answer
at4=$(answered g4)
[ $((at1 - sent1)) -ge 1000 ] || fail "the first wrong PIN was answered after $((at1 - sent1)) ms (at least 1000)"
[ $((at3 - sent3)) -ge 2000 ] || fail "the second wrong PIN was answered after $((at3 - sent3)) ms (at least 2000)"
grep '"request":"g4"' "$tmp/t2.events" | grep -q 'no open mismatch 1' ||
    fail "the right PIN did not reach the daemon's check: $(grep '"request":"g4"' "$tmp/t2.events")"
[ "$(grep -c 'refused: wrong arbiter PIN (' "$tmp/t2.log")" = 2 ] ||
    fail "t2 did not log two wrong PINs"
grep -q 'refused: wrong arbiter PIN (1 in a row)' "$tmp/t2.log" &&
    grep -q 'refused: wrong arbiter PIN (2 in a row)' "$tmp/t2.log" ||
    fail "the guard did not count each wrong PIN from the broker once: $(grep 'in a row' "$tmp/t2.log")"
say "wrong PINs from the broker held back as on the control socket: $((at1 - sent1)) ms, then $((at3 - sent3)) ms; a command meanwhile refused unchecked; the right PIN reached the daemon ($((at4 - sent4)) ms)"
# a burst of wrong PINs from one sender (a page session) holds back that sender alone: another
# sender's right PIN is checked at once
cmd_from() { # request pin sender
    date +%s%3N
    mosquitto_pub -u hall -P hall-secret -p "$mqtt_port" -t twinboard/open-2026/t2/cmd \
        -m "{\"action\":\"resolve\",\"request\":\"$1\",\"mismatch\":1,\"n\":0,\"pin\":\"$2\",\"from\":\"$3\"}"
}
for i in $(seq 20); do cmd_from "b$i" 000000 s-guess >/dev/null; done
worst=0
for i in 1 2 3; do
    sent=$(cmd_from "r$i" 135792 s-arbiter)
    at=$(answered "r$i")
    grep "\"request\":\"r$i\"" "$tmp/t2.events" | grep -q 'no open mismatch 1' ||
        fail "another sender's right PIN was not checked beside the guesses: $(grep "\"request\":\"r$i\"" "$tmp/t2.events")"
    [ $((at - sent)) -le "$limit" ] || fail "another sender's right PIN took $((at - sent)) ms beside the guesses (limit $limit)"
    [ $((at - sent)) -gt "$worst" ] && worst=$((at - sent))
    sleep 0.3
done
grep '"request":"b20"' "$tmp/t2.events" | grep -q 'busy' || fail "the guesses were not held back"
say "20 wrong PINs from one sender over the broker: its own held back (busy), another sender's right PIN checked within $worst ms"

# ---- the ARBITER button; a table with a wrong password is kept out -----------------------------
to t3 "arbiter vi"
cdp wait "!!document.querySelector('#tile-open-2026--t3.alert') &&
          document.getElementById('alerts').textContent.includes('t3: the arbiter is called')" 5000 \
    >/dev/null || fail "the ARBITER button at t3 did not call the arbiter on the page"
start_table t4 118624 wrong-password
to t4 "move vi e2e4"
sleep 1.5
wait_status t4 'broker NOT CONNECTED, 0 connects' 5 || fail "a table with a wrong password connected: $(tstatus t4)"
wait_status t4 'state: waiting' 5 || fail "t4 does not play on without the broker: $(tstatus t4)"
[ "$(cdp eval "tables.has('open-2026/t4')")" = false ] || fail "a table with a wrong password reached the page"
say "the ARBITER button calls the arbiter; a table with a wrong password is kept out"

# ---- the result reaches the page (5.1, the arbiter's decision) --------------------------------
TB_PIN=958273 "$tb" result arbiter 1-0 "the hall test decides" --socket "$tmp/t3/control" \
    >"$tmp/t3.result.log" 2>&1 || fail "the arbiter's result at t3 refused: $(cat "$tmp/t3.result.log")"
cdp wait "(document.querySelector('#tile-open-2026--t3 .result') || {textContent: ''}).textContent.startsWith('Result 1-0')" 5000 \
    >/dev/null || fail "t3's result is not on the page: $(cdp eval "document.getElementById('tile-open-2026--t3').innerText")"
[ "$(cdp eval "!!document.querySelector('#tile-open-2026--t1 .result')")" = false ] ||
    fail "t1, still playing, shows a result"
say "the arbiter's result at t3 is on the page; t1, still playing, shows none"

# ---- a doorgeefschaak table: both games, the hands (2.1), the moves with a drop, a result -----
start_table b1 424281 hall-secret "
[bughouse]
enabled = yes" "" 'board B: pty:[^,]*, connected;'
bug() { for m in "$@"; do to b1 "$m"; done; }
# 6.4: the first press starts both clocks; A: 1.e4 d5 2.exd5 (d5 lifted, then e4, put on d5)
bug "clock vi" "move vi e2e4" "clock vi" "move vi d7d5" "clock vi" \
    "lift vi d5" "lift vi e4" "place vi d5" "clock vi" "move sighted e2e4" "clock sighted"
hand="document.querySelector('#tile-open-2026--b1 [data-seat=\"Black B\"]')"
cdp wait "!!$hand && $hand.textContent.includes('(pawn)') &&
          tables.get('open-2026/b1').state.games[0].sheet.join(' ') === 'e4 d5 exd5' &&
          document.querySelectorAll('#tile-open-2026--b1 svg').length === 2" 10000 >/dev/null ||
    fail "b1's tile does not show the pawn passed to Black B: $(cdp eval "document.getElementById('tile-open-2026--b1').innerText") $(tstatus b1)"
say "doorgeefschaak b1: board A 1.e4 d5 2.exd5, the pawn in Black B's hand on the tile"
bug "place sighted d4" "clock sighted" # 2.2: the pawn dropped, B: 1.e4 P@d4
cdp goto "$url/table/open-2026/b1" || fail "no table page of b1"
cdp wait "document.getElementById('sheet-A').textContent.includes('exd5') &&
          document.getElementById('sheet-B').textContent.includes('P@d4') &&
          document.querySelector('#game-B [data-seat=\"Black B\"]').textContent.includes('nothing') &&
          document.querySelector('#game-B svg').getAttribute('aria-label').split('Black')[1].includes('d4') &&
          !document.getElementById('cmd')" 10000 >/dev/null ||
    fail "b1's page lacks the moves or the drop: $(cdp eval "document.getElementById('detail').innerText") $(tstatus b1)"
TB_PIN=424281 "$tb" resign a white --socket "$tmp/b1/control" >"$tmp/b1.resign.log" 2>&1 ||
    fail "resign on b1 refused: $(cat "$tmp/b1.resign.log")"
cdp wait "(document.querySelector('#game-A .result') || {textContent: ''}).textContent.startsWith('Result 0-1') &&
          !document.querySelector('#game-B .result') &&
          document.getElementById('news').textContent.includes('0-1')" 5000 >/dev/null ||
    fail "b1's result is not on the page: $(cdp eval "document.getElementById('detail').innerText")"
# 7.4: on B White's knight g1-g3, not a knight's move, completed with the clock: the opponent
# decides; the page alerts as for a mismatch
bug "move sighted g1g3" "clock sighted"
cdp wait "!!document.querySelector('#game-B .irregular') &&
          document.getElementById('alerts').textContent.includes('Board B: an illegal move waits')" 5000 \
    >/dev/null || fail "the illegal move on b1's board B is not alerted: $(cdp eval "document.getElementById('detail').innerText") $(tstatus b1)"
cdp shot "$docs/hall-bughouse.png" || fail "no screenshot"
mosquitto_pub -u hall -P hall-secret -p "$mqtt_port" -t twinboard/open-2026/b1/cmd \
    -m '{"action":"takeback","request":"bt","mismatch":0,"n":1,"pin":"424281"}'
wait_line "$tmp/b1.log" 'hall: takeback \(request bt\) refused: not for a doorgeefschaak table' 5 ||
    fail "b1 did not refuse the hall's takeback"
wait_status b1 'board A result: 0-1' 1 && wait_status b1 'mode: doorgeefschaak \(bughouse\), 6 plies' 1 ||
    fail "b1 changed: $(tstatus b1)"
say "doorgeefschaak b1: both move lists (exd5, P@d4), the hand emptied by the drop, A's result after the resignation and B's illegal move (7.4) alerted on the page; the hall's takeback refused"

# ---- TLS: a broker with a CA made here; the daemon checks the broker's certificate ------------
(
    cd "$tmp" || exit 1
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=hall-test-ca -keyout ca.key \
        -out ca.crt && openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout broker.key \
        -out broker.csr && printf 'subjectAltName=IP:127.0.0.1\n' >san.ext &&
        openssl x509 -req -in broker.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 \
            -extfile san.ext -out broker.crt &&
        openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other-ca -keyout other.key \
            -out other.crt
) >"$tmp/openssl.out" 2>&1 || fail "openssl could not make the test CA: $(tail -3 "$tmp/openssl.out")"
tls_port=$(free_port)
cat >"$tmp/mosquitto-tls.conf" <<EOF
listener $tls_port 127.0.0.1
cafile $tmp/ca.crt
certfile $tmp/broker.crt
keyfile $tmp/broker.key
allow_anonymous false
password_file $tmp/passwd
acl_file $tmp/acl
persistence false
user $(id -un)
log_dest file $tmp/mosquitto-tls.log
EOF
mosquitto -c "$tmp/mosquitto-tls.conf" >>"$tmp/mosquitto-tls.out.log" 2>&1 &
pids+=("$!")
if ! wait_port "$tls_port"; then
    say "TLS UNTESTED: mosquitto did not start with the test CA ($(tail -2 "$tmp/mosquitto-tls.out.log"))"
    say "ok"
    exit 0
fi
start_table t5 555561 hall-secret "cafile = $tmp/ca.crt" "$tls_port"
start_table t6 666671 hall-secret "cafile = $tmp/other.crt" "$tls_port"
to t5 "move vi e2e4"
wait_status t5 'broker connected, 1 connects' 10 || fail "t5 did not connect over TLS: $(tstatus t5 | grep '^hall:')"
state=$(timeout 10 mosquitto_sub -h 127.0.0.1 -p "$tls_port" --cafile "$tmp/ca.crt" -u hall \
    -P hall-secret -t twinboard/open-2026/t5/state -C 1 -W 10 2>&1)
case $state in *'"table":"t5"'*) ;; *) fail "no state of t5 over TLS: $state" ;; esac
case $state in *'"state":"waiting"'*) ;; *) fail "t5's state over TLS is not its game: $state" ;; esac
wait_status t6 'broker NOT CONNECTED, 0 connects' 5 ||
    fail "t6 connected to a broker whose certificate its CA did not sign: $(tstatus t6 | grep '^hall:')"
say "TLS: t5 (the broker's CA) connects and its state is read over TLS; t6 (another CA) stays out"
say "ok"


#!/usr/bin/env bash
# pgn_readers.sh - a PGN file read by three independent PGN readers: pgn-extract (Debian),
# chess.js (most web viewers) and chessops (lichess), the versions package.json pins.
#
#   pgn_readers.sh FILE
#
# Exit 0 when each reader reads every game of FILE without a complaint and all three read the
# same moves (in UCI) and result for each game; 1 naming the reader, the game and what it said
# otherwise; 77 when a reader is not installed (host/tools/dev installs them: pgn-extract as a
# Debian package, the npm readers with `npm ci` into build-node/ beside the sources, or where
# TB_NODE_DIR says). chess.js plays no Chess960: it skips those games, the other two read them.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
node_dir=${TB_NODE_DIR:-$here/../../../build-node}
file=${1:?usage: pgn_readers.sh FILE}

pe=$(command -v pgn-extract || true)
[ -z "$pe" ] && [ -x /usr/games/pgn-extract ] && pe=/usr/games/pgn-extract
if [ -z "$pe" ]; then
    echo "pgn_readers: pgn-extract not installed"
    exit 77
fi
if ! command -v node >/dev/null || [ ! -d "$node_dir/node_modules/chess.js" ] ||
    [ ! -d "$node_dir/node_modules/chessops" ]; then
    echo "pgn_readers: node or the npm readers (chess.js, chessops) not installed in $node_dir"
    exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# pgn-extract: moves in UCI, no comments, NAGs or variations; a game per paragraph.
"$pe" -s -Wuci -C -N -V -w 1000000 "$file" >"$tmp/pe.out" 2>"$tmp/pe.err"
if [ -s "$tmp/pe.err" ]; then
    echo "pgn_readers: pgn-extract complained about $file:"
    cat "$tmp/pe.err"
    exit 1
fi
awk '/^\[/ { if (moves != "") { printf "pgn-extract %d: %s\n", ++n, moves }; moves = ""; sep = ""; body = 0; next }
     /^$/ { body = 1; next }
     body { moves = moves sep $0; sep = " " }
     END { if (moves != "") printf "pgn-extract %d: %s\n", ++n, moves }' "$tmp/pe.out" |
    sed 's/\([a-h][18]\)\([QRBN]\)\b/\1\L\2/g' >"$tmp/pe.games"

node "$here/read.mjs" "$node_dir" "$file" >"$tmp/node.games" 2>"$tmp/node.err"
rc=$?
if [ $rc -ne 0 ]; then
    echo "pgn_readers: $file:"
    grep -h "REFUSED" "$tmp/node.games" "$tmp/node.err"
    [ -s "$tmp/node.err" ] && cat "$tmp/node.err"
    exit 1
fi

games=$(grep -c '^\[Event ' "$file")
for reader in pgn-extract chess.js chessops; do
    if [ "$reader" = pgn-extract ]; then src=$tmp/pe.games; else src=$tmp/node.games; fi
    grep "^$reader " "$src" | sed "s/^$reader //" >"$tmp/$reader"
    read_n=$(wc -l <"$tmp/$reader")
    if [ "$read_n" -ne "$games" ]; then
        echo "pgn_readers: $file: $reader reads $read_n games of $games"
        exit 1
    fi
done
# chess.js's skipped games (Chess960) compared by the other two only
while IFS= read -r line; do
    n=${line%%:*}
    for reader in chess.js chessops; do
        other=$(grep "^$n: " "$tmp/$reader")
        case $other in
        *": SKIPPED: "*) continue ;;
        esac
        if [ "$other" != "$line" ]; then
            echo "pgn_readers: $file: game $n read differently"
            echo "  pgn-extract: ${line#*: }"
            echo "  $reader: ${other#*: }"
            exit 1
        fi
    done
done <"$tmp/pgn-extract"
echo "pgn_readers: $file: $games game(s) read alike by pgn-extract, chess.js and chessops"
exit 0

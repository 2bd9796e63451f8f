#!/usr/bin/env bash
# pgn_check.sh - reads a live PGN file with an independent PGN reader (pgn-extract, Debian) and
# compares its moves and tags with what the test expects; then the three readers of
# tests/integration/pgnread (pgn-extract, chess.js, chessops) must all read it alike.
#
#   pgn_check.sh FILE "e2e4 e7e5 ... RESULT" 'Tag=Value'...
#
# Exit 0 when pgn-extract reads the file without a complaint, its moves in UCI form (and the
# result) are exactly the expected ones and every tag has its value; 1 naming the difference
# otherwise; 77 when pgn-extract is not installed (host/tools/dev installs it; the test then
# fails saying so).
set -uo pipefail

pe=$(command -v pgn-extract || true)
[ -z "$pe" ] && [ -x /usr/games/pgn-extract ] && pe=/usr/games/pgn-extract
if [ -z "$pe" ]; then
    echo "pgn_check: pgn-extract not installed"
    exit 77
fi
file=$1
want=$2
shift 2

err=$(mktemp)
trap 'rm -f "$err"' EXIT
out=$("$pe" -s -Wuci -C -N -V -w 1000000 "$file" 2>"$err")
if [ -s "$err" ]; then
    echo "pgn_check: pgn-extract complained about $file:"
    cat "$err"
    exit 1
fi
# The move text: every line after the tag section, joined.
got=$(awk 'body && NF { printf "%s%s", sep, $0; sep = " " } /^$/ { body = 1 }' <<<"$out")
# UCI promotion letters are lower case; pgn-extract writes them in upper case.
got=${got,,}
want=${want,,}
if [ "$got" != "$want" ]; then
    echo "pgn_check: $file: moves differ"
    echo "  want: $want"
    echo "  got:  $got"
    exit 1
fi
for t in "$@"; do
    line="[${t%%=*} \"${t#*=}\"]"
    if ! grep -qxF "$line" <<<"$out"; then
        echo "pgn_check: $file: no tag line $line"
        exit 1
    fi
done
exec bash "$(dirname "${BASH_SOURCE[0]}")/../pgnread/pgn_readers.sh" "$file"

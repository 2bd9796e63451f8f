// read.mjs - reads a PGN file with two independent readers from the npm registry, the ones web
// viewers and lichess use: chess.js (most web viewers) and chessops (lichess's own rules and
// PGN parser). For each reader and each game it prints one line:
//
//     READER GAME_NUMBER: UCI_MOVES... RESULT
//
// and for a game a reader refuses: "READER GAME_NUMBER: REFUSED: why". Exit 0 when both read
// every game, 1 otherwise, 2 on a usage error.
//
//     node read.mjs NODE_DIR FILE     (NODE_DIR: where npm ci put package.json's readers)
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

if (process.argv.length !== 4) {
    process.stderr.write('usage: node read.mjs NODE_DIR FILE\n');
    process.exit(2);
}
// The readers' ES modules by path: the versions package.json pins, installed in NODE_DIR.
const mod = (file) => import(pathToFileURL(path.resolve(process.argv[2], 'node_modules', file)).href);
const { Chess } = await mod('chess.js/dist/esm/chess.js');
const { parsePgn, startingPosition } = await mod('chessops/dist/esm/pgn.js');
const { parseSan } = await mod('chessops/dist/esm/san.js');
const { makeUci } = await mod('chessops/dist/esm/util.js');
const text = fs.readFileSync(process.argv[3], 'utf8');

// The file's games, split where a tag pair follows movetext (a comment's line may start with
// an embedded command such as [%clk ...], which is no tag): chess.js reads one at a time.
function games(all) {
    const out = [];
    let cur = [];
    let moves = false;
    const tag = /^\[[A-Za-z0-9_]+\s+"/;
    for (const line of all.split(/\r?\n/)) {
        if (tag.test(line) && moves) {
            out.push(cur.join('\n'));
            cur = [];
            moves = false;
        }
        if (line.trim() && !tag.test(line)) moves = true;
        cur.push(line);
    }
    if (cur.join('').trim()) out.push(cur.join('\n'));
    return out;
}

let failed = false;
const say = (line) => process.stdout.write(line + '\n');

games(text).forEach((g, i) => {
    if (/^\[Variant "(Chess960|Fischerandom)"\]/im.test(g)) {
        say(`chess.js ${i + 1}: SKIPPED: chess.js does not play Chess960`);
        return;
    }
    try {
        const c = new Chess();
        c.loadPgn(g, { strict: true });
        const uci = c.history({ verbose: true }).map((m) => m.from + m.to + (m.promotion || ''));
        say(`chess.js ${i + 1}: ${uci.concat([c.getHeaders().Result || '?']).join(' ')}`);
    } catch (e) {
        failed = true;
        say(`chess.js ${i + 1}: REFUSED: ${String(e.message || e).split('\n')[0]}`);
    }
});

parsePgn(text).forEach((game, i) => {
    const start = startingPosition(game.headers);
    if (start.isErr) {
        failed = true;
        say(`chessops ${i + 1}: REFUSED: the start position: ${start.error.message}`);
        return;
    }
    const pos = start.value;
    const chess960 = /^(chess960|fischerandom)$/i.test(game.headers.get('Variant') || '');
    const uci = [];
    for (const node of game.moves.mainline()) {
        const move = parseSan(pos, node.san);
        if (!move) {
            failed = true;
            say(`chessops ${i + 1}: REFUSED: '${node.san}' after ${uci.length} plies`);
            return;
        }
        // chessops names castling king-takes-rook; a standard game's UCI moves the king two files
        const king = pos.board.get(move.from);
        const own = pos.board.get(move.to);
        let u = makeUci(move);
        if (!chess960 && king && king.role === 'king' && own && own.color === king.color)
            u = u.slice(0, 2) + (move.to > move.from ? 'g' : 'c') + u.slice(3, 4);
        uci.push(u);
        pos.play(move);
    }
    say(`chessops ${i + 1}: ${uci.concat([game.headers.get('Result') || '?']).join(' ')}`);
});
process.exit(failed ? 1 : 0);

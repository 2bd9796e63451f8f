#!/usr/bin/env python3
"""mock_lichess.py PORT DIR ROUND TOKEN - lichess's broadcast push as its API describes it.

POST /api/broadcast/round/{ROUND}/push with "Authorization: Bearer TOKEN" and a PGN body (at
most 100 games) is answered 200 with {"games": [{"tags": {...}, "moves": N} | {"tags": {...},
"error": "..."}]}. Anything else is answered as lichess would (401 without the token, 404 for
another round, 405 for another method, 400 for no game) and counted as wrong. Every request is
written to DIR: req-NNNN.pgn (the body) and a line in DIR/log ("ok N games" or "wrong: why").
The file DIR/error-board, when it holds a board number, makes that board's game answered with a
per-game error. Stop it with SIGTERM.
"""
import http.server
import json
import os
import sys

from pgn_games import games_of, moves_of, tags_of

port, out, round_id, token = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
# numbered on from the requests of an earlier run (a restart after an outage)
count = len([f for f in os.listdir(out) if f.startswith("req-")])


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, code, obj, wrong=None):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        if wrong:
            with open(os.path.join(out, "log"), "a") as f:
                f.write("wrong: %s\n" % wrong)

    def do_GET(self):
        self.answer(405, {"error": "Method not allowed"}, "GET %s" % self.path)

    def do_POST(self):
        global count
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n).decode("utf-8", "replace")
        if self.path != "/api/broadcast/round/%s/push" % round_id:
            return self.answer(404, {"error": "Not found"}, "path %s" % self.path)
        if self.headers.get("Authorization") != "Bearer " + token:
            return self.answer(401, {"error": "No such token"}, "Authorization header")
        if not (self.headers.get("Content-Type") or "").startswith("text/plain"):
            return self.answer(400, {"error": "text/plain"}, "Content-Type")
        games = games_of(body)
        if not games or len(games) > 100:
            return self.answer(400, {"error": "1 to 100 games"}, "%d games" % len(games))
        count += 1
        with open(os.path.join(out, "req-%04d.pgn" % count), "w") as f:
            f.write(body)
        bad = ""
        try:
            with open(os.path.join(out, "error-board")) as f:
                bad = f.read().strip()
        except OSError:
            pass
        res = []
        for g in games:
            t = tags_of(g)
            if bad and t.get("Board") == bad:
                res.append({"tags": t, "error": "Invalid move on board %s (mock)" % bad})
            else:
                res.append({"tags": t, "moves": len(moves_of(g))})
        with open(os.path.join(out, "log"), "a") as f:
            f.write("ok %d games req-%04d\n" % (len(games), count))
        self.answer(200, {"games": res})


http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()

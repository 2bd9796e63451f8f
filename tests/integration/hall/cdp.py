#!/usr/bin/env python3
"""cdp.py - drives a running headless Chromium over its DevTools protocol (standard library
only: a minimal WebSocket client), for the hall tests.

  cdp.py PORT eval EXPR               prints the JSON value of EXPR in the page
  cdp.py PORT wait EXPR TIMEOUT_MS    polls EXPR until truthy; prints the ms it took; exit 1
                                      if it never became truthy
  cdp.py PORT when EXPR TIMEOUT_MS    the same, printing the wall-clock time (ms since the epoch)
                                      at which it became truthy
  cdp.py PORT goto URL                loads URL in the page and waits for it to load
  cdp.py PORT shot FILE               a PNG of the page
"""
import base64, json, os, socket, struct, sys, time, urllib.request


def page_ws(port):
    for _ in range(100):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as r:
                for t in json.load(r):
                    if t.get("type") == "page":
                        return t["webSocketDebuggerUrl"]
        except OSError:
            pass
        time.sleep(0.1)
    sys.exit("cdp: no page in the browser")


class Ws:
    def __init__(self, url):
        rest = url.split("://", 1)[1]
        hostport, path = rest.split("/", 1)
        host, port = hostport.split(":")
        self.s = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.s.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            sys.exit("cdp: no websocket: " + head.decode(errors="replace"))
        self.n = 0

    def _read(self, n):
        b = b""
        while len(b) < n:
            c = self.s.recv(n - len(b))
            if not c:
                sys.exit("cdp: browser closed the connection")
            b += c
        return b

    def send(self, method, **params):
        self.n += 1
        data = json.dumps({"id": self.n, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        head = bytes([0x81])
        if len(data) < 126:
            head += bytes([0x80 | len(data)])
        elif len(data) < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        self.s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
        while True:
            msg = self.recv()
            if msg.get("id") == self.n:
                if "error" in msg:
                    sys.exit("cdp: " + json.dumps(msg["error"]))
                return msg.get("result", {})

    def recv(self):
        payload = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload += self._read(n)
            if b0 & 0x80:
                return json.loads(payload)


def evaluate(ws, expr):
    r = ws.send("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
    if "exceptionDetails" in r:
        return None
    return r.get("result", {}).get("value")


def main():
    port, cmd = sys.argv[1], sys.argv[2]
    ws = Ws(page_ws(port))
    if cmd == "eval":
        print(json.dumps(evaluate(ws, sys.argv[3])))
    elif cmd in ("wait", "when"):
        start, limit = time.monotonic(), int(sys.argv[4]) / 1000
        while True:
            if evaluate(ws, sys.argv[3]):
                done = time.monotonic() - start if cmd == "wait" else time.time()
                print(int(done * 1000))
                return
            if time.monotonic() - start > limit:
                print(int((time.monotonic() - start) * 1000))
                sys.exit(1)
            time.sleep(0.02)
    elif cmd == "goto":
        ws.send("Page.enable")
        ws.send("Page.navigate", url=sys.argv[3])
        start = time.monotonic()
        while time.monotonic() - start < 20:
            if evaluate(ws, "document.readyState") == "complete":
                return
            time.sleep(0.05)
        sys.exit("cdp: the page did not load")
    elif cmd == "shot":
        r = ws.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        with open(sys.argv[3], "wb") as f:
            f.write(base64.b64decode(r["data"]))
    else:
        sys.exit("cdp: unknown command " + cmd)


main()

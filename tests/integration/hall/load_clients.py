"""Clients that hold the dashboard's connections without using them: idle (connected, never
sending), slow (a request a byte a second, never whole) and non-reading (a live stream asked
for and never read), spread over several loopback addresses. Prints "ready" once all are
connected and holds them until killed.

usage: load_clients.py PORT COUNT ADDRESSES   (ADDRESSES: 127.0.0.2,127.0.0.3,...)"""
import socket
import sys
import time


def main():
    port, count, addrs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(",")
    host = "127.0.0.1:%d" % port
    slow_req = ("GET /api/state HTTP/1.1\r\nHost: %s\r\nX-Slow: " % host).encode()
    stream_req = ("GET /events?from=0 HTTP/1.1\r\nHost: %s\r\n\r\n" % host).encode()
    slow, held = [], []
    for i in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # fills soon: never read
        s.bind((addrs[i % len(addrs)], 0))
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            continue  # a limit reached: the dashboard chose
        kind = i % 3
        if kind == 1:
            slow.append([s, 0])
        elif kind == 2:
            try:
                s.sendall(stream_req)
            except OSError:
                pass
        held.append(s)
    print("ready %d" % len(held), flush=True)
    while True:
        for entry in slow:
            s, n = entry
            try:
                s.send(slow_req[n:n + 1] if n < len(slow_req) else b"x")
            except OSError:
                pass
            entry[1] = n + 1
        time.sleep(1)


if __name__ == "__main__":
    main()

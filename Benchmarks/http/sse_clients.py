#!/usr/bin/env python3
"""Opens N idle Server-Sent Events connections and holds them.

Usage: sse_clients.py PORT N HOLD_SECONDS
Prints "open N" once every stream has answered its head, then holds them for
HOLD_SECONDS (so the caller can measure the server) and closes them all.
"""
import socket
import sys
import time


def main() -> None:
    port, count, hold = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    request = b"GET /events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n"
    sockets = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(request)
        sockets.append(s)
    for s in sockets:
        s.settimeout(10)
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                raise SystemExit("a stream closed early")
            head += chunk
        if not head.startswith(b"HTTP/1.1 200"):
            raise SystemExit("unexpected answer: %r" % head[:60])
    print("open %d" % len(sockets), flush=True)
    time.sleep(hold)
    for s in sockets:
        s.close()


if __name__ == "__main__":
    main()

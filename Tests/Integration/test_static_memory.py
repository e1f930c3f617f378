"""Large static files cost a bounded amount of memory per connection, whatever the clients
do: over TLS the body is read from the file in chunks as the socket drains, and a pipelined
request waits for the file before it is answered, so nothing copies the file whole."""
import os
import socket
import ssl
import tempfile
import time
from pathlib import Path

from storehost_server import StorehostServer, throwaway_certificate

FILE_BYTES = 20 * 1024 * 1024
CLIENTS = 40
# The old server grew by the file's size per client (800 MB here); streaming costs some
# hundred kilobytes per connection.
GROWTH_BOUND = 150 * 1024 * 1024


def rss(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def public_directory():
    directory = tempfile.mkdtemp(prefix="static-memory-")
    (Path(directory) / "large.bin").write_bytes(os.urandom(FILE_BYTES))
    return directory


def stalled_client(port, wrap, requests):
    """A client that asks for the large file `requests` times at once and then reads nothing."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", port))
    connection = wrap(raw)
    connection.sendall(b"GET /large.bin HTTP/1.1\r\nHost: localhost\r\n\r\n" * requests)
    return connection


def peak_growth(server, clients):
    before = rss(server.process.pid)
    connections = [clients() for _ in range(CLIENTS)]
    peak = before
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        peak = max(peak, rss(server.process.pid))
        time.sleep(0.05)
    for connection in connections:
        connection.close()
    return peak - before


def test_tls_clients_that_do_not_read_a_large_file_cost_bounded_memory():
    certificates = tempfile.mkdtemp(prefix="tls-")
    throwaway_certificate(certificates)
    server = StorehostServer(
        "--tls-cert", str(Path(certificates) / "cert.pem"), "--tls-key", str(Path(certificates) / "key.pem"),
        "--public", public_directory()).start()
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        growth = peak_growth(server, lambda: stalled_client(
            server.port, lambda raw: context.wrap_socket(raw, server_hostname="localhost"), 1))
        assert growth < GROWTH_BOUND, f"the server grew by {growth // (1024 * 1024)} MB"
    finally:
        server.stop()


def test_pipelined_requests_behind_a_large_file_cost_bounded_memory():
    server = StorehostServer("--public", public_directory()).start()
    try:
        growth = peak_growth(server, lambda: stalled_client(server.port, lambda raw: raw, 2))
        assert growth < GROWTH_BOUND, f"the server grew by {growth // (1024 * 1024)} MB"
    finally:
        server.stop()

"""`storehost` over HTTPS on throwaway certificates: Mozilla's intermediate profile checked
by sslyze, the modern profile, and certificates renewed on disk taken without a restart.

Needs `.build/debug/storehost` (scripts/test builds it), `openssl`, and PyPI `sslyze`
(Tests/Integration/requirements.txt).
"""

import signal
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from sslyze import Scanner, ServerNetworkLocation, ServerScanRequest
from sslyze.mozilla_tls_profile.tls_config_checker import (
    SCAN_COMMANDS_NEEDED_BY_MOZILLA_CHECKER,
    MozillaTlsConfiguration,
    ServerNotCompliantWithTlsConfiguration,
    TlsConfigurationEnum,
    check_server_against_tls_configuration,
)

from storehost_server import StorehostServer, throwaway_certificate

WAIT = 10  # seconds; every wait for something to happen in this file is bounded by it
DEFAULT_RELOAD_INTERVAL = 10  # seconds: --tls-reload-interval when not given

# sslyze's own trust store holds a certificate that `cryptography` warns about.
pytestmark = pytest.mark.filterwarnings("ignore:Parsed a serial number")


def tls_server(directory, *flags, stderr=None):
    return StorehostServer(
        "--tls-cert", str(Path(directory) / "cert.pem"), "--tls-key", str(Path(directory) / "key.pem"), *flags,
        stderr=stderr).start()


def mozilla_issues(port, profile):
    """What sslyze finds against Mozilla's `profile` ("intermediate" or "modern"), by the
    checker behind `sslyze --mozilla_config=…`: a dict of issue name to explanation."""
    scanner = Scanner()
    scanner.queue_scans([ServerScanRequest(
        server_location=ServerNetworkLocation("localhost", port, ip_address="127.0.0.1"),
        scan_commands=SCAN_COMMANDS_NEEDED_BY_MOZILLA_CHECKER)])
    result = next(iter(scanner.get_results()))
    try:
        check_server_against_tls_configuration(result, MozillaTlsConfiguration.get(TlsConfigurationEnum(profile)))
    except ServerNotCompliantWithTlsConfiguration as error:
        return error.issues
    return {}


def test_intermediate_profile_is_compliant_but_for_the_throwaway_certificates_trust():
    directory = tempfile.mkdtemp(prefix="tls-")
    throwaway_certificate(directory)
    server = tls_server(directory)
    try:
        issues = mozilla_issues(server.port, "intermediate")
        # A self-signed certificate cannot be validated; everything else must comply: TLS
        # versions, cipher suites (TLS 1.2 and 1.3), curves, ECDH size, and the
        # vulnerability checks (compression, renegotiation, fallback SCSV, extended master
        # secret, Heartbleed, CCS injection, ROBOT).
        assert set(issues) == {"certificate_path_validation"}, issues
    finally:
        server.stop()


def test_modern_profile_offers_tls_1_3_only():
    directory = tempfile.mkdtemp(prefix="tls-")
    throwaway_certificate(directory)
    server = tls_server(directory, "--tls-profile", "modern")
    try:
        assert handshake(server.port, maximum=ssl.TLSVersion.TLSv1_3) == "TLSv1.3"
        assert handshake(server.port, maximum=ssl.TLSVersion.TLSv1_2) is None
    finally:
        server.stop()


def handshake(port, maximum=ssl.TLSVersion.TLSv1_3):
    """The TLS version a new connection agrees on, or None when the server refuses it."""
    context = insecure_context()
    context.maximum_version = maximum
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as raw:
            with context.wrap_socket(raw, server_hostname="localhost") as connection:
                return connection.version()
    except ssl.SSLError:
        return None


def insecure_context():
    """A client context that accepts any certificate: the tests compare the bytes served."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def served_certificate(port):
    """The DER bytes of the certificate a new connection gets."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as raw:
        with insecure_context().wrap_socket(raw, server_hostname="localhost") as connection:
            return connection.getpeercert(binary_form=True)


def wait_for_certificate(port, expected):
    deadline = time.monotonic() + WAIT
    while served_certificate(port) != expected:
        assert time.monotonic() < deadline, "the renewed certificate was not served"
        time.sleep(0.05)


def healthz(connection):
    """GET /healthz on an open keep-alive connection; returns the status line."""
    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
    answer = b""
    while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
        chunk = connection.recv(4096)
        assert chunk, f"connection closed after {answer!r}"
        answer += chunk
    return answer.split(b"\r\n", 1)[0].decode()


def log_lines(path, message):
    return [line for line in Path(path).read_text().splitlines() if f'"message":"{message}' in line]


def logging_tls_server(reload_interval):
    """A server on a new throwaway certificate (CN=first), its standard error in a file, and
    that certificate looked at every `reload_interval` seconds (0: on SIGHUP only). Returns
    (server, its certificate directory, the first certificate's DER, the log's path)."""
    directory = tempfile.mkdtemp(prefix="tls-")
    first = throwaway_certificate(directory, "first")
    log = Path(directory) / "stderr.log"
    with open(log, "w") as stderr:
        server = tls_server(directory, "--tls-reload-interval", str(reload_interval), stderr=stderr)
    return server, directory, first, log


def test_a_renewed_certificate_is_served_after_sighup_and_open_connections_keep_theirs():
    server, directory, first, log = logging_tls_server(0)
    try:
        assert served_certificate(server.port) == first
        with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as raw:
            with insecure_context().wrap_socket(raw, server_hostname="localhost") as open_connection:
                assert healthz(open_connection) == "HTTP/1.1 200 OK"

                second = throwaway_certificate(directory, "second")
                # Not watching the files: nothing changes until SIGHUP, not even after the
                # default interval at which a watching server would have loaded them.
                time.sleep(DEFAULT_RELOAD_INTERVAL + 2)
                assert served_certificate(server.port) == first
                server.process.send_signal(signal.SIGHUP)
                wait_for_certificate(server.port, second)
                assert len(log_lines(log, "TLS certificate reloaded")) == 1

                # The connection opened before keeps its certificate and keeps being served.
                assert open_connection.getpeercert(binary_form=True) == first
                assert healthz(open_connection) == "HTTP/1.1 200 OK"

        # A key of another certificate: refused with a log line, the last good pair kept.
        elsewhere = tempfile.mkdtemp(prefix="tls-other-")
        throwaway_certificate(elsewhere, "other")
        throwaway_certificate(directory, "mismatched", key_from=elsewhere)
        server.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + WAIT
        while not log_lines(log, "TLS certificate refused"):
            assert time.monotonic() < deadline, "no log line for the refused pair"
            time.sleep(0.05)
        refused = log_lines(log, "TLS certificate refused")
        assert len(refused) == 1 and '"level":"error"' in refused[0] and "mismatch" in refused[0]
        assert served_certificate(server.port) == second
        assert server.process.poll() is None
    finally:
        assert server.stop() == 0


def test_a_certificate_renewed_on_disk_is_picked_up_without_a_signal():
    server, directory, first, log = logging_tls_server(1)
    try:
        assert served_certificate(server.port) == first
        second = throwaway_certificate(directory, "second")
        wait_for_certificate(server.port, second)
        # A look between the renames of the key and the certificate may refuse that pair
        # once; the last word is the reload.
        assert "TLS certificate reloaded" in log_lines(log, "TLS certificate")[-1]
    finally:
        assert server.stop() == 0


def test_an_unknown_profile_stops_the_command_with_a_clear_error():
    from storehost_server import BINARY
    bad = subprocess.run([str(BINARY), "--tls-profile", "old"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--tls-profile must be intermediate or modern, not 'old'" in bad.stderr
    help_text = subprocess.run([str(BINARY), "--help"], capture_output=True, text=True, check=True).stdout
    for flag in ("--tls-profile", "--tls-reload-interval", "--behind-tls-proxy", "--hsts-max-age",
                 "--content-security-policy"):
        assert flag in help_text

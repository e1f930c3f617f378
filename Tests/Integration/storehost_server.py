"""Starts and stops `storehost` processes for the integration tests.

The binary is the debug build made by scripts/test (`swift build --build-tests`).
"""
import json
import os
import signal
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "storehost"


class StorehostServer:
    """One `storehost` process on loopback, with its own data directory."""

    def __init__(self, *flags, data=None, port=0, stderr=None, binary=BINARY):
        self.binary = binary
        self.flags = list(flags)
        self.data = data or tempfile.mkdtemp(prefix="storehost-test-")
        self.port = port
        self.stderr = stderr
        self.scheme = "http"
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [str(self.binary), "--port", str(self.port), "--data", self.data,
             "--public", str(ROOT / "Public"), *self.flags],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        line = self.process.stdout.readline().strip()
        assert line.startswith(("StoreHost serving http://", "StoreHost serving https://")), \
            f"unexpected start line: {line!r}"
        self.scheme = line.split("://", 1)[0].rsplit(" ", 1)[1]
        self.port = int(line.split("//", 1)[1].split(" ", 1)[0].rsplit(":", 1)[1])
        return self

    @property
    def url(self):
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def stop(self, sig=signal.SIGTERM, timeout=15):
        """Stops the process with `sig`; returns its exit status."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else None
        self.process.send_signal(sig)
        status = self.process.wait(timeout=timeout)
        self.process.stdout.close()
        return status

    def restart(self):
        assert self.stop() == 0, "storehost did not exit cleanly on SIGTERM"
        return self.start()


def curl(*args, body=None, headers=(), method=None, timeout=10):
    """Runs curl; returns (status, headers dict with lower-case names, body text)."""
    command = ["curl", "-sS", "-D", "-", "--max-time", str(timeout)]
    if method:
        command += ["-X", method]
    for header in headers:
        command += ["-H", header]
    if body is not None:
        command += ["--data-binary", body if isinstance(body, str) else json.dumps(body)]
    command += list(args)
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    # Text mode turns CRLF into LF.
    head, _, text = output.partition("\n\n")
    while head.startswith("HTTP/1.1 100"):
        head, _, text = text.partition("\n\n")
    lines = head.split("\n")
    status = int(lines[0].split(" ")[1])
    response_headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        response_headers.setdefault(name.strip().lower(), []).append(value.strip())
    return status, response_headers, text


def throwaway_certificate(directory, common_name="localhost", key_from=None):
    """Writes a self-signed P-256 certificate for `common_name`, valid one day, and its key
    into `directory` (cert.pem, key.pem), each renamed over the file before it as ACME
    clients do. With `key_from` (another directory), key.pem is that directory's key
    instead, which does not match. Returns the certificate's DER bytes."""
    directory = Path(directory)
    staging = Path(tempfile.mkdtemp(prefix="cert-", dir=directory))
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-days", "1", "-subj", f"/CN={common_name}", "-keyout", str(staging / "key.pem"),
         "-out", str(staging / "cert.pem")],
        check=True, capture_output=True)
    if key_from is not None:
        (staging / "key.pem").write_bytes((Path(key_from) / "key.pem").read_bytes())
    der = subprocess.run(["openssl", "x509", "-in", str(staging / "cert.pem"), "-outform", "DER"],
                         check=True, capture_output=True).stdout
    for name in ("key.pem", "cert.pem"):
        os.rename(staging / name, directory / name)
    staging.rmdir()
    return der

"""What `storehost` does when its disk fills: the data directory on a small tmpfs, filled
while clients send actions, then freed. An answer that says "error" applied nothing, fast
mode acknowledges nothing past its window, the log and `/readyz` say so, and nothing
acknowledged is lost, through a graceful restart."""
import json
import os
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import httpx
import pytest

from storehost_server import BINARY, StorehostServer

INCREMENT = {"counter": "incrementButtonTapped"}
# Fast mode acknowledges while writes fail for at most a second; its first failing write
# comes within the batch delay (100 ms) of the disk filling. The rest is the test's own
# slack: a request acknowledged just before the refusals began is still being answered.
LATEST_ACKNOWLEDGEMENT = 1.6


@pytest.fixture
def small_disk():
    """A 32 MiB tmpfs (room for the database and its write-ahead log), unmounted afterwards."""
    mount_point = tempfile.mkdtemp(prefix="storehost-tmpfs-")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", mount_point], capture_output=True)
    if mounted.returncode != 0:
        pytest.fail(f"cannot mount a tmpfs (the fault tests run as root): {mounted.stderr.decode()}")
    try:
        yield Path(mount_point)
    finally:
        subprocess.run(["umount", "-l", mount_point], check=False)
        os.rmdir(mount_point)


def fill(disk):
    """Fills `disk` to the last byte; returns the filler's path."""
    filler = disk / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        for size in (65536, 1):
            while True:
                try:
                    os.write(descriptor, b"\0" * size)
                except OSError:
                    break
    finally:
        os.close(descriptor)
    return filler


class Server:
    """A storehost process on `data`, its log lines kept."""

    def __init__(self, data, *flags):
        self.log_path = Path(tempfile.mkdtemp(prefix="storehost-log-")) / "stderr.log"
        self.log = open(self.log_path, "w")
        self.process = StorehostServer("--log-level", "info", *flags, data=str(data), stderr=self.log).start()
        self.client = httpx.Client(base_url=self.process.url, timeout=15)

    def log_lines(self):
        self.log.flush()
        return [json.loads(line) for line in self.log_path.read_text().splitlines() if line.startswith("{")]

    def ready_status(self):
        return self.client.get("/readyz").status_code

    def metric(self, name):
        for line in self.client.get("/metrics").text.splitlines():
            if line.startswith(name + " "):
                return int(float(line.split(" ")[1]))
        raise AssertionError(f"no metric {name}")

    def restart(self):
        self.client.close()
        assert self.process.restart()
        self.client = httpx.Client(base_url=self.process.url, timeout=15)

    def stop(self):
        self.client.close()
        status = self.process.stop()
        self.log.close()
        return status


def count(server, session):
    answer = server.client.get(f"/api/sessions/{session['id']}", headers=auth(session))
    assert answer.status_code == 200, answer.text
    return answer.json()["state"]["counter"]["count"]


def auth(session):
    return {"Authorization": f"Bearer {session['token']}"}


def hammer(server, sessions, seconds, outcomes, stop):
    """Sends increments round-robin until `stop` or `seconds`, each session under its rate
    limit (20 actions a second); records each answer with the time it came back."""
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=server.process.url, timeout=15) as client:
        index = 0
        while time.monotonic() < deadline and not stop.is_set():
            session = sessions[index % len(sessions)]
            index += 1
            answer = client.post(f"/api/sessions/{session['id']}/actions", json=INCREMENT, headers=auth(session))
            code = answer.json()["error"]["code"] if answer.status_code >= 400 else None
            outcomes.append((time.monotonic(), session["id"], answer.status_code, code))
            time.sleep(0.1 / len(sessions))


def run_disk_full(small_disk, durability):
    server = Server(small_disk, "--durability", durability)
    try:
        sessions = [server.client.post("/api/sessions").json() for _ in range(8)]
        for session in sessions:
            assert server.client.post(
                f"/api/sessions/{session['id']}/actions", json=[INCREMENT] * 5, headers=auth(session)).status_code == 202
        assert server.ready_status() == 200

        outcomes = []
        stop = threading.Event()
        sender = threading.Thread(target=hammer, args=(server, sessions, 30, outcomes, stop))
        sender.start()
        time.sleep(0.5)
        filler = fill(small_disk)
        full_at = time.monotonic()
        time.sleep(4)
        ready_while_full = server.ready_status()
        probes_while_full = {
            name: subprocess.run([str(BINARY), "healthcheck", *flags, "--port", str(server.process.port)],
                                 capture_output=True).returncode
            for name, flags in (("liveness", []), ("readiness", ["--ready"]))}
        new_session_while_full = server.client.post("/api/sessions")
        failing_gauge = server.metric("storehost_storage_failing")
        filler.unlink()
        freed_at = time.monotonic()
        recovered_at = None
        while time.monotonic() - freed_at < 10:
            if server.ready_status() == 200:
                recovered_at = time.monotonic()
                break
            time.sleep(0.05)
        time.sleep(1)
        stop.set()
        sender.join()

        assert ready_while_full == 503, "/readyz said ready while no write worked"
        assert probes_while_full == {"liveness": 0, "readiness": 1}, probes_while_full
        assert new_session_while_full.status_code == 503
        assert new_session_while_full.json()["error"]["code"] == "storage_unavailable"
        assert failing_gauge == 1
        assert recovered_at is not None, "/readyz did not come back within 10 s of the space coming back"
        assert recovered_at - freed_at < 3, f"recovery took {recovered_at - freed_at:.2f} s"

        # Every error says nothing was applied; every 202 counts.
        errors = [code for _, _, status, code in outcomes if status != 202]
        assert errors, "no request failed while the disk was full"
        assert set(errors) <= {"storage_unavailable"}, f"unexpected answers: {set(errors)}"
        during = [(at, status) for at, _, status, _ in outcomes if full_at + LATEST_ACKNOWLEDGEMENT < at < freed_at]
        assert during and all(status != 202 for _, status in during), \
            f"{sum(1 for _, s in during if s == 202)} actions acknowledged more than {LATEST_ACKNOWLEDGEMENT} s into the failure"
        after = [status for at, _, status, _ in outcomes if at > (recovered_at or freed_at) + 0.5]
        assert after and all(status == 202 for status in after), "actions still refused after recovery"

        acknowledged = {session["id"]: 5 for session in sessions}
        for _, session_id, status, _ in outcomes:
            if status == 202:
                acknowledged[session_id] += 1
        for session in sessions:
            assert count(server, session) == acknowledged[session["id"]], "an answered error applied, or a 202 did not"

        logs = server.log_lines()
        failing = [line for line in logs if line["level"] == "error" and line["message"] == "saving sessions fails"]
        assert len(failing) >= 1 and "disk is full" in failing[0]["error"], failing
        assert any(line["message"] == "saving sessions works again" for line in logs)

        server.restart()
        for session in sessions:
            assert count(server, session) == acknowledged[session["id"]], "an acknowledged action was lost in a restart"
        assert server.stop() == 0
    finally:
        server.stop()


def test_a_full_disk_in_strict_mode_applies_nothing_it_answered_as_an_error(small_disk):
    run_disk_full(small_disk, "strict")


def test_a_full_disk_in_fast_mode_acknowledges_nothing_past_its_window_and_loses_nothing(small_disk):
    run_disk_full(small_disk, "fast")


def test_a_session_going_to_rest_while_the_disk_is_full_stays_live_and_is_saved_later(small_disk):
    server = Server(small_disk, "--rest-after", "1")
    try:
        session = server.client.post("/api/sessions").json()
        filler = fill(small_disk)
        answer = server.client.post(f"/api/sessions/{session['id']}/actions", json=[INCREMENT] * 3, headers=auth(session))
        assert answer.status_code == 202
        time.sleep(3)  # three times its rest delay: it would have rested by now
        assert server.metric("storehost_sessions_rested_total") == 0
        assert server.metric("storehost_sessions") == 1
        filler.unlink()
        deadline = time.monotonic() + 10
        while server.metric("storehost_sessions_rested_total") == 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert server.metric("storehost_sessions_rested_total") == 1, "the session did not rest once space came back"
        assert count(server, session) == 3
        server.restart()
        assert count(server, session) == 3
    finally:
        server.stop()

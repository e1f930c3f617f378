"""What the cluster checks share: starting storehost processes on one PostgreSQL, reading
a session's event stream, posting actions."""
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid

import httpx
from httpx_sse import connect_sse

SECRET = "cluster-test-secret-0123456789abcdef"
INCREMENT = {"counter": "incrementButtonTapped"}


def start(binary, database, data, port=0):
    """One storehost process on `database` in strict mode; returns it and its URL."""
    process = subprocess.Popen(
        [binary, "--port", str(port), "--database", database, "--durability", "strict", "--secret", SECRET,
         "--data", data, "--actions-per-second", "10000", "--action-burst", "10000", "--log-level", os.environ.get("STOREHOST_TEST_LOG_LEVEL", "error")],
        stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()
    assert line.startswith("StoreHost serving "), line
    return process, line.split()[2]


class Stream(threading.Thread):
    """Reads one session's event stream, recording every version it shows."""

    def __init__(self, url, session):
        super().__init__(daemon=True)
        self.url, self.session = url, session
        self.versions, self.counts, self.shared, self.timers = [], [], [], []
        self.stop = threading.Event()

    def run(self):
        headers = {"Authorization": "Bearer " + self.session["token"]}
        with httpx.Client(timeout=httpx.Timeout(5, read=None)) as client:
            with connect_sse(client, "GET", f"{self.url}/api/sessions/{self.session['id']}/events",
                             headers=headers) as source:
                for event in source.iter_sse():
                    if event.event == "state":
                        data = json.loads(event.data)
                        self.timers.append(data["state"]["timer"]["secondsElapsed"])
                        self.versions.append(data["version"])
                        self.counts.append(data["state"]["counter"]["count"])
                        self.shared.append(data["state"]["shared"]["count"])
                    if self.stop.is_set():
                        return

    def wait_for(self, version, seconds=15):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.versions and self.versions[-1] >= version:
                return
            time.sleep(0.02)
        raise AssertionError(f"stream on {self.url} stopped at {self.versions[-1:]} before {version}")


RETRIED_CODES = ("outcome_unknown", "database_unavailable")


def post(client, url, session, retry_seconds=10):
    """Sends one increment, as a careful client does: with an Idempotency-Key, sent again
    with the same key after a 503 that says the outcome is unknown or the database did not
    answer (the machine stalled longer than a statement's 5 s), for up to `retry_seconds`.
    Returns the version it produced; anything but 202 at the end fails."""
    headers = {"Authorization": "Bearer " + session["token"], "Idempotency-Key": uuid.uuid4().hex}
    deadline = time.time() + retry_seconds
    while True:
        response = client.post(f"{url}/api/sessions/{session['id']}/actions", json=INCREMENT, headers=headers)
        if response.status_code != 503 or time.time() > deadline:
            break
        code = response.json()["error"]["code"]
        if code not in RETRIED_CODES:
            break
        print(f"note: 503 {code} from {url}, sent again with the same key", file=sys.stderr)
        time.sleep(0.1)
    assert response.status_code == 202, (response.status_code, response.text)
    return response.json()["version"]


def database(command):
    """Runs a function of scripts/postgres-temp.sh on the test's database."""
    subprocess.run(["bash", "-c", f"source scripts/postgres-temp.sh && {command}"], check=True)




def stop_all(processes):
    """Ends every (process, url) still running: SIGTERM (after SIGCONT, for one stopped),
    then SIGKILL for any that did not exit within 15 s."""
    for process, _ in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGCONT)
            process.send_signal(signal.SIGTERM)
    for process, _ in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()

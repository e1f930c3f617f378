"""Two storehost processes on one PostgreSQL that stalls (every server process SIGSTOPped
for 10 s) and then restarts. During the stall each action answers within about 5 s,
`/readyz` says 503 while `/healthz` and static files keep answering, the log says saving
fails; within 3 s of the database coming back both are ready again; an answer that said
nothing was applied applied nothing, an unknown outcome is settled by sending the request
again with its Idempotency-Key, and nothing acknowledged is lost through a graceful restart.
Streams abandoned before they open leave no follower behind, and sessions left alone past
`--idle-timeout` are deleted from the database.

Usage: cluster_storage_faults_check.py BINARY DATABASE_URL (the database from
scripts/postgres-temp.sh, whose pg_temp_freeze/thaw/pause/resume it calls)."""
import json
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import httpx

from cluster_support import INCREMENT, SECRET, database

STALL_SECONDS = 10
# The statement timeout (5 s), with room for a save queued behind a stuck write (measured
# 5.0-7.0 s).
SLOWEST_ANSWER = 9
NOTHING_APPLIED = {"database_unavailable", "session_moved", "owner_unavailable", "forwarding_busy"}


class Process:
    """A storehost process on the database in strict mode, its log in a file."""

    def __init__(self, binary, url, data):
        self.log_path = Path(data) / "stderr.log"
        self.binary, self.url_of_database, self.data = binary, url, data
        self.start()

    def start(self, *flags):
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [self.binary, "--port", "0", "--database", self.url_of_database, "--durability", "strict",
             "--secret", SECRET, "--data", self.data, "--log-level", "warning",
             "--actions-per-second", "10000", "--action-burst", "10000", *flags],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline().strip()
        assert line.startswith("StoreHost serving "), line
        self.url = line.split()[2]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            status = self.process.wait(timeout=30)
            assert status == 0, f"exit status {status}"
        self.log.close()

    def log_lines(self):
        self.log.flush()
        return [json.loads(line) for line in self.log_path.read_text().splitlines() if line.startswith("{")]

    def status(self, path, timeout=10):
        started = time.monotonic()
        try:
            code = httpx.get(self.url + path, timeout=timeout).status_code
        except httpx.HTTPError:
            code = None
        return code, time.monotonic() - started


class Ledger:
    """What each session was told: acknowledged actions, and keys whose outcome is unknown."""

    def __init__(self):
        self.acknowledged = {}
        self.unknown = []
        self.answers = []
        self.lock = threading.Lock()

    def send(self, client, url, session, key=None):
        key = key or str(uuid.uuid4())
        started = time.monotonic()
        try:
            response = client.post(
                f"{url}/api/sessions/{session['id']}/actions", json=INCREMENT,
                headers={"Authorization": "Bearer " + session["token"], "Idempotency-Key": key})
            status = response.status_code
            code = response.json()["error"]["code"] if status >= 400 else None
        except httpx.HTTPError as error:
            status, code = None, type(error).__name__
        took = time.monotonic() - started
        with self.lock:
            self.answers.append((status, code, took))
            if status == 202:
                self.acknowledged[session["id"]] = self.acknowledged.get(session["id"], 0) + 1
            elif code not in NOTHING_APPLIED:
                self.unknown.append((url, session, key))
        return status, code, took


def count(url, session):
    response = httpx.get(f"{url}/api/sessions/{session['id']}",
                         headers={"Authorization": "Bearer " + session["token"]}, timeout=15)
    assert response.status_code == 200, response.text
    return response.json()["state"]["counter"]["count"]


def metric(process, name):
    for line in httpx.get(process.url + "/metrics", timeout=15).text.splitlines():
        if line.startswith(name + " "):
            return int(float(line.split(" ")[1]))
    raise AssertionError(f"no metric {name}")


def wait_ready(processes, within):
    deadline = time.monotonic() + within
    started = time.monotonic()
    while time.monotonic() < deadline:
        if all(process.status("/readyz", timeout=1)[0] == 200 for process in processes):
            return time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError(f"not ready within {within} s: {[p.status('/readyz')[0] for p in processes]}")


def settle_unknown(ledger):
    """Sends each request whose outcome was unknown again with its key: applied once."""
    with httpx.Client(timeout=15) as client:
        for url, session, key in ledger.unknown:
            for _ in range(20):
                status, code, _ = ledger.send(client, url, session, key)
                if status == 202 or code in NOTHING_APPLIED:
                    break
                time.sleep(0.25)
            else:
                raise AssertionError(f"an unknown outcome stayed unknown: {code}")
    ledger.unknown = []


def fault_round(processes, sessions, ledger, fault, seconds):
    """Sends an action to every session from its own thread during `fault`."""
    with httpx.Client(timeout=30) as client:
        for process, owned in zip(processes, sessions):
            for session in owned:
                assert ledger.send(client, process.url, session)[0] == 202
    wait_ready(processes, within=5)
    fault()
    faulted_at = time.monotonic()
    during = []

    def keep_sending(process, session):
        with httpx.Client(timeout=30) as client:
            while time.monotonic() - faulted_at < seconds:
                during.append(ledger.send(client, process.url, session))

    threads = [threading.Thread(target=keep_sending, args=(process, session))
               for process, owned in zip(processes, sessions) for session in owned]
    for thread in threads:
        thread.start()
    time.sleep(min(3, seconds / 2))
    readiness = [process.status("/readyz", timeout=5) for process in processes]
    health = [process.status("/healthz", timeout=5) for process in processes]
    static = [process.status("/", timeout=5) for process in processes]
    for thread in threads:
        thread.join()
    return during, readiness, health, static


def check_outcomes(processes, sessions, ledger, label):
    settle_unknown(ledger)
    for process, owned in zip(processes, sessions):
        for session in owned:
            assert count(process.url, session) == ledger.acknowledged.get(session["id"], 0), \
                f"{label}: an answer that said nothing was applied applied it, or a 202 was lost"


def main(binary, url):
    directories = [tempfile.mkdtemp(prefix="storehost-fault-") for _ in range(2)]
    processes = [Process(binary, url, directory) for directory in directories]
    ledger = Ledger()
    try:
        with httpx.Client(timeout=15) as client:
            sessions = [[client.post(f"{process.url}/api/sessions").json() for _ in range(3)] for process in processes]

        # A stall: every statement is stuck.
        during, readiness, health, static = fault_round(
            processes, sessions, ledger, lambda: database("pg_temp_freeze"), STALL_SECONDS)
        database("pg_temp_thaw")
        recovery = wait_ready(processes, within=3)
        slowest = max(took for _, _, took in during)
        assert slowest < SLOWEST_ANSWER, f"an action waited {slowest:.2f} s during the stall"
        assert all(code == 503 for code, _ in readiness), f"/readyz during the stall: {readiness}"
        assert all(code == 200 and took < 1 for code, took in health), f"/healthz during the stall: {health}"
        assert all(code == 200 and took < 1 for code, took in static), f"a static file during the stall: {static}"
        refused = [code for status, code, _ in during if status != 202]
        assert refused, "no action failed during a 10 s stall"
        check_outcomes(processes, sessions, ledger, "stall")
        for process in processes:
            failing = [line for line in process.log_lines() if line["level"] == "error" and line["message"] == "saving sessions fails"]
            assert failing, "no error line said saving fails"
        print(f"stall: {len(during)} actions, {len(refused)} refused ({sorted(set(refused))}), slowest {slowest:.2f} s; "
              f"ready again {recovery:.2f} s after the database")

        # A restart: the database goes away and comes back.
        during, readiness, health, _ = fault_round(
            processes, sessions, ledger, lambda: database("pg_temp_pause"), 4)
        database("pg_temp_resume")
        slowest = max(took for _, _, took in during)
        assert slowest < SLOWEST_ANSWER, f"an action waited {slowest:.2f} s while the database was down"
        assert all(code == 503 for code, _ in readiness), f"/readyz while the database was down: {readiness}"
        recovery = wait_ready(processes, within=3)
        check_outcomes(processes, sessions, ledger, "restart")
        print(f"restart: {len(during)} actions, slowest {slowest:.2f} s; ready again within {recovery:.2f} s")

        # Nothing acknowledged is lost through a graceful restart of both processes.
        for process in processes:
            process.stop()
            process.start()
        for process, owned in zip(processes, sessions):
            for session in owned:
                assert count(process.url, session) == ledger.acknowledged[session["id"]]

        # Streams whose clients leave before they open (the database slow to answer) leave
        # nothing behind on the process that would have followed the session.
        follower = processes[1]
        abandoned = sessions[0][0]
        database("pg_temp_freeze")
        clients = []
        for _ in range(5):
            client = subprocess.Popen(
                ["curl", "-sN", "--max-time", "0.5", "-H", "Authorization: Bearer " + abandoned["token"],
                 f"{follower.url}/api/sessions/{abandoned['id']}/events"], stdout=subprocess.DEVNULL)
            clients.append(client)
        for client in clients:
            client.wait()
        time.sleep(0.5)
        database("pg_temp_thaw")
        deadline = time.monotonic() + 10
        while metric(follower, "storehost_followed_sessions") != 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert metric(follower, "storehost_followed_sessions") == 0, "streams that never opened left a follower behind"

        # Sessions left alone past the idle timeout are deleted, whichever process had them.
        for process in processes:
            process.stop()
            process.start("--idle-timeout", "3")
        with httpx.Client(timeout=15) as client:
            idle = [(process, client.post(f"{process.url}/api/sessions").json()) for process in processes for _ in range(5)]
        time.sleep(10)  # a request would make them active again, so the check comes once
        remaining = [session for process, session in idle
                     if httpx.get(f"{process.url}/api/sessions/{session['id']}",
                                  headers={"Authorization": "Bearer " + session["token"]}, timeout=15).status_code != 404]
        assert not remaining, f"{len(remaining)} of {len(idle)} idle sessions still stored 10 s after their 3 s idle timeout"
        print("cluster storage faults: ok")
    finally:
        for process in processes:
            if process.process.poll() is None:
                process.process.send_signal(signal.SIGCONT)
                process.process.kill()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

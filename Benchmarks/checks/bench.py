"""The checks a deploy runs, over many saved sessions.

`sessions`: writes N demo sessions straight into a fresh data directory's SQLite file (after
one start of `storehost` made its tables), then runs `storehost sessions check` on it under
`/usr/bin/time -v`. `deploy`: makes one demo session with H steps of history through the
server, copies it (state and history rows) to N sessions, then runs `storehost deploy-check`.
Prints the time, the peak memory (maximum resident set size) and the load average.

    Benchmarks/checks/run.sh sessions [--sessions 1000000]
    Benchmarks/checks/run.sh deploy [--sessions 10000] [--steps 500] [--sample 200]
"""
import argparse
import base64
import os
import re
import signal
import sqlite3
import subprocess
import tempfile
import time

import httpx


def start(binary, data, *flags):
    process = subprocess.Popen(
        [binary, "--port", "0", "--data", data, "--log-level", "warning", *flags], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    return process, int(line.split("//", 1)[1].split(" ", 1)[0].rsplit(":", 1)[1])


def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait()


def new_id():
    return base64.urlsafe_b64encode(os.urandom(16)).decode().rstrip("=")


def measure(command):
    """Runs `command` under /usr/bin/time -v: its exit status, wall seconds and peak RSS (MiB)."""
    load = os.getloadavg()
    result = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", result.stderr)
    hours, minutes, seconds = int(wall.group(1) or 0), int(wall.group(2)), float(wall.group(3))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1)) / 1024
    print(f"$ {' '.join(command)}")
    print(result.stdout.strip()[:2000])
    print(f"exit {result.returncode}, {hours * 3600 + minutes * 60 + seconds:.1f} s, peak RSS {rss:.1f} MiB, "
          f"load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def sessions(binary, count):
    data = tempfile.mkdtemp(prefix="storehost-check-")
    process, port = start(binary, data)
    state = httpx.post(f"http://127.0.0.1:{port}/api/sessions").json()["state"]
    stop(process)
    state = httpx.Response(200, json=state).content
    now_ms = int(time.time() * 1000)
    database = sqlite3.connect(os.path.join(data, "sessions.sqlite"))
    started = time.monotonic()
    for start_index in range(0, count, 50_000):
        database.executemany(
            "INSERT INTO sessions (id, version, state, created_at_ms, last_active_at_ms, state_version, reserved_version)"
            " VALUES (?, 3, ?, ?, ?, 1, 3)",
            ((new_id(), state, now_ms - 3_600_000, now_ms - 600_000) for _ in range(min(50_000, count - start_index))))
    database.commit()
    database.close()
    size = os.path.getsize(os.path.join(data, "sessions.sqlite")) / 2**20
    print(f"{count:,} sessions written in {time.monotonic() - started:.1f} s ({size:.0f} MiB of SQLite)")
    measure([binary, "sessions", "check", "--data", data])
    subprocess.run(["rm", "-rf", data], check=True)


def deploy(binary, count, steps, sample):
    data = tempfile.mkdtemp(prefix="storehost-deploy-")
    process, port = start(binary, data, "--history", str(steps), "--actions-per-second", "100000",
                          "--action-burst", "100000")
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        created = client.post("/api/sessions").json()
        headers = {"Authorization": f"Bearer {created['token']}"}
        actions = [{"counter": "incrementButtonTapped"}, {"counter": "decrementButtonTapped"},
                   {"todos": "addButtonTapped"}, {"counter": "incrementButtonTapped"}]
        for start_index in range(0, steps, 25):
            batch = [actions[(start_index + i) % len(actions)] for i in range(min(25, steps - start_index))]
            response = client.post(f"/api/sessions/{created['id']}/actions", headers=headers, json=batch)
            assert response.status_code == 202, response.text
    stop(process)
    database = sqlite3.connect(os.path.join(data, "sessions.sqlite"))
    session = database.execute("SELECT * FROM sessions").fetchone()
    history = database.execute("SELECT * FROM history_runs WHERE session_id = ?", (session[0],)).fetchall()
    steps = sum(run[3] - run[1] + 1 for run in history)
    print(f"one session with {steps} history steps in {len(history)} runs; copying it to {count:,} sessions")
    started = time.monotonic()
    now_ms = int(time.time() * 1000)
    for index in range(count - 1):
        session_id = new_id()
        row = list(session)
        row[0], row[4] = session_id, now_ms - index
        database.execute(f"INSERT INTO sessions VALUES ({', '.join('?' * len(row))})", row)
        database.executemany(
            "INSERT INTO history_runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)", ((session_id, *run[1:]) for run in history))
        if index % 1000 == 999:
            database.commit()
    database.commit()
    database.close()
    size = os.path.getsize(os.path.join(data, "sessions.sqlite")) / 2**20
    print(f"{count:,} sessions written in {time.monotonic() - started:.1f} s ({size:.0f} MiB of SQLite)")
    measure([binary, "deploy-check", "--data", data, "--sample", str(sample)])
    subprocess.run(["rm", "-rf", data], check=True)


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("binary")
    arguments.add_argument("what", choices=["sessions", "deploy"])
    arguments.add_argument("--sessions", type=int)
    arguments.add_argument("--steps", type=int, default=500)
    arguments.add_argument("--sample", type=int, default=200)
    options = arguments.parse_args()
    if options.what == "sessions":
        sessions(options.binary, options.sessions or 1_000_000)
    else:
        deploy(options.binary, options.sessions or 10_000, options.steps, options.sample)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Chaos for a cluster: storehost processes in strict mode on one PostgreSQL, under load,
while processes are killed, paused, drained and restarted and the database restarts.

Usage: cluster_chaos.py BINARY DATABASE_URL [options]
(with PG_TEMP_DIR and PG_TEMP_PORT of scripts/postgres-temp.sh, to restart the database)

Clients send keyed actions (`Idempotency-Key`), each through a process picked at random, as
a load balancer without sticky sessions would, and retry with the same key until they get
an answer. Every logical action adds one to-do whose title is its key, so the final state
says exactly which actions were applied, and how many times. An answer that says nothing
was applied (a 503 `database_unavailable`, say) is sometimes believed: the client gives up
on that action, which must then never appear. Followers read each session's event stream
from a random process and reconnect to another one now and then with `Last-Event-ID`.

Faults, one at a time, at random: kill -9 and restart, SIGSTOP for longer than a lease then
SIGCONT, SIGTERM and restart, a restart of PostgreSQL.

It reports:
- acknowledged actions lost (acknowledged, missing from the final state);
- actions applied twice, or applied although an answer said nothing was applied;
- stream anomalies: a version that went back or came twice, one version showing two
  states, a to-do that a stream showed and the final state lacks (a version shown before it
  was durable), a to-do that disappeared, a stream that ended, failed or was refused on a
  process with no fault, a stream that never reached the final version, and a follower
  that received no state at all;
- the longest time a session could not be served: from the first attempt of an action to
  its answer;
- every 5xx answer, by code.

With --check it exits 1 unless all of these are 0 (5xx only with --faults none) and no
session was unserved for longer than --max-unserved seconds.
"""
import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict

import httpx
from httpx_sse import connect_sse

SECRET = "cluster-chaos-secret-0123456789abcdef"
# Answers that say the request was not applied, so a client may stop and believe it.
NOT_APPLIED = {"database_unavailable", "session_moved", "owner_unavailable", "shutting_down", "forwarding_busy",
               "storage_unavailable", "rate_limited", "at_capacity"}
FAULTS = ("kill", "stop", "term", "database")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Timeline:
    """What happened when: faults and process states, for attributing what clients saw."""

    def __init__(self):
        self.lock = threading.Lock()
        self.faults = []  # (start, end, kind, target)

    def begin(self, kind, target):
        """Records a fault starting now; returns its index for `end`."""
        with self.lock:
            self.faults.append((time.time(), None, kind, target))
            return len(self.faults) - 1

    def end(self, index):
        with self.lock:
            start, _, kind, target = self.faults[index]
            self.faults[index] = (start, time.time(), kind, target)

    def near_fault(self, moment, target, margin=3.0):
        """Whether `target` (a process index) or the database had a fault around `moment`."""
        with self.lock:
            return any(start - margin <= moment <= (end or time.time()) + margin and (t == target or t == "database")
                       for start, end, kind, t in self.faults)

    def cause(self, moment):
        """The last fault that started before `moment` (or within a second after it), if it
        ended less than 10 s before."""
        with self.lock:
            candidates = [(start, kind) for start, end, kind, _ in self.faults
                          if start <= moment + 1 and (end is None or moment - end < 10)]
        return max(candidates)[1] if candidates else "none"


class Node:
    """One storehost process slot: same port and data directory across restarts."""

    def __init__(self, index, binary, database, root):
        self.index, self.binary, self.database = index, binary, database
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.data = os.path.join(root, f"node{index}")
        self.log = open(os.path.join(root, f"node{index}.log"), "a")
        self.process = None

    def start(self):
        arguments = [self.binary, "--port", str(self.port), "--database", self.database, "--durability", "strict",
                     "--secret", SECRET, "--data", self.data, "--actions-per-second", "100000", "--action-burst",
                     "100000", "--log-level", os.environ.get("STOREHOST_TEST_LOG_LEVEL", "warning")]
        for attempt in range(50):
            self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=self.log, text=True)
            line = self.process.stdout.readline().strip()
            if line.startswith("StoreHost serving "):
                threading.Thread(target=self.process.stdout.read, daemon=True).start()
                return
            self.process.wait()
            time.sleep(0.2)  # the database may be restarting
        raise RuntimeError(f"process {self.index} did not start")

    def signal(self, number):
        if self.process and self.process.poll() is None:
            self.process.send_signal(number)

    def stop(self):
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Chaos(threading.Thread):
    """Injects one fault at a time until stopped."""

    def __init__(self, nodes, timeline, kinds, pause, interval):
        super().__init__(daemon=True)
        self.nodes, self.timeline, self.kinds, self.interval = nodes, timeline, kinds, interval
        self.pause = pause
        self.stopping = threading.Event()
        self.counts = Counter()
        self.errors = []

    def run(self):
        # Each kind once first (in random order), then at random.
        plan = random.sample(self.kinds, len(self.kinds))
        while not self.stopping.wait(random.uniform(*self.interval)):
            kind = plan.pop(0) if plan else random.choice(self.kinds)
            try:
                self.inject(kind)
            except Exception as error:  # noqa: BLE001 - reported at the end
                self.errors.append(f"{kind}: {error!r}")

    def inject(self, kind):
        if kind == "database":
            fault = self.timeline.begin(kind, "database")
            database("pg_temp_pause")
            time.sleep(random.uniform(0.5, 2.0))
            database("pg_temp_resume")
            self.timeline.end(fault)
            self.counts[kind] += 1
            return
        node = random.choice(self.nodes)
        fault = self.timeline.begin(kind, node.index)
        if kind == "kill":
            node.signal(signal.SIGKILL)
            node.process.wait()
            time.sleep(random.uniform(0.5, 2.0))
            node.start()
        elif kind == "stop":
            node.signal(signal.SIGSTOP)
            time.sleep(random.uniform(*self.pause))
            node.signal(signal.SIGCONT)
        elif kind == "term":
            node.signal(signal.SIGTERM)
            node.process.wait(timeout=30)
            node.start()
        self.timeline.end(fault)
        self.counts[kind] += 1


def database(command):
    subprocess.run(["bash", "-c", f"source scripts/postgres-temp.sh && {command}"], check=True)


class Balancer:
    """Picks a process at random, as a load balancer without sticky sessions does, skipping
    one that fails its health check (`GET /healthz` every half second, half a second to
    answer), or that did not answer a request, for a few seconds."""

    def __init__(self, nodes, stopping):
        self.nodes = nodes
        self.lock = threading.Lock()
        self.down_until = {}
        threading.Thread(target=self.check_health, args=(stopping,), daemon=True).start()

    def check_health(self, stopping):
        with httpx.Client(timeout=0.5) as client:
            while not stopping.wait(0.5):
                for node in self.nodes:
                    try:
                        healthy = client.get(node.url + "/healthz").status_code == 200
                    except httpx.HTTPError:
                        healthy = False
                    if not healthy:
                        self.failed(node, seconds=1)

    def pick(self):
        now = time.time()
        with self.lock:
            up = [node for node in self.nodes if self.down_until.get(node.index, 0) <= now]
        return random.choice(up or self.nodes)

    def failed(self, node, seconds=5):
        with self.lock:
            self.down_until[node.index] = max(self.down_until.get(node.index, 0), time.time() + seconds)


class Results:
    def __init__(self):
        self.lock = threading.Lock()
        self.acknowledged = defaultdict(set)   # session id -> keys
        self.rejected = defaultdict(set)       # claimed not applied, given up
        self.unresolved = defaultdict(set)     # no answer before the deadline
        self.statuses = Counter()              # (status, code) of every error answer
        self.other_errors = []
        self.unserved = []                     # (seconds, first attempt time)
        self.slow = []                         # attempts over a second: (seconds, when, process, outcome)
        self.attempts = 0

    def note_slow(self, sent, node, outcome):
        """Remembers an attempt that took more than a second, for the report."""
        took = time.time() - sent
        if took > 1:
            with self.lock:
                self.slow.append((round(took, 2), time.strftime("%H:%M:%S", time.localtime(sent)), node, outcome))

    def add(self, field, session, key):
        with self.lock:
            getattr(self, field)[session].add(key)


class Sessions:
    """The sessions clients use; a session is retired after `per_session` to-dos."""

    def __init__(self, nodes, count, per_session):
        self.nodes, self.per_session = nodes, per_session
        self.lock = threading.Lock()
        self.all = {}
        self.slots = [None] * count
        self.slot_locks = [threading.Lock() for _ in range(count)]
        self.sent = Counter()

    def create(self, client):
        while True:
            node = random.choice(self.nodes)
            try:
                response = client.post(node.url + "/api/sessions")
                if response.status_code == 201:
                    session = response.json()
                    with self.lock:
                        self.all[session["id"]] = session
                    return session
            except httpx.HTTPError:
                pass
            time.sleep(0.2)

    def session_for(self, slot, client):
        with self.slot_locks[slot]:
            with self.lock:
                session = self.slots[slot]
                if session is not None and self.sent[session["id"]] < self.per_session:
                    self.sent[session["id"]] += 1
                    return session
            session = self.create(client)
            with self.lock:
                self.slots[slot] = session
                self.sent[session["id"]] += 1
            return session

    def current(self, slot):
        with self.lock:
            return self.slots[slot]


def body_for(key):
    return json.dumps([{"todos": {"binding": {"newTodoText": key}}}, {"todos": "addButtonTapped"}])


class Client(threading.Thread):
    """Sends keyed actions to one session slot, one at a time, retrying each until answered."""

    def __init__(self, name, slot, sessions, balancer, results, stopping, options):
        super().__init__(daemon=True)
        self.name_, self.slot, self.sessions, self.balancer, self.results = name, slot, sessions, balancer, results
        self.stopping, self.believe, self.think = stopping, options.believe, options.think
        self.timeout, self.deadline = options.request_timeout, 60
        self.keyed = not options.without_keys

    def run(self):
        number = 0
        # A request that gets no answer in time is sent again through another process, as a
        # load balancer does with an upstream that stopped answering: safe with its key.
        with httpx.Client(timeout=httpx.Timeout(self.timeout, connect=1)) as client:
            while not self.stopping.is_set():
                session = self.sessions.session_for(self.slot, client)
                number += 1
                self.send(client, session, f"{self.name_}-{number}-{uuid.uuid4().hex[:8]}")
                if self.think:
                    time.sleep(random.uniform(0, self.think))

    def send(self, client, session, key):
        body = body_for(key)
        headers = {"Authorization": "Bearer " + session["token"], "Content-Type": "application/json"}
        if self.keyed:
            headers["Idempotency-Key"] = key
        first = time.time()
        while True:
            if time.time() - first > self.deadline:
                self.results.add("unresolved", session["id"], key)
                return
            node = self.balancer.pick()
            with self.results.lock:
                self.results.attempts += 1
            sent = time.time()
            try:
                response = client.post(f"{node.url}/api/sessions/{session['id']}/actions", content=body,
                                       headers=headers)
            except httpx.HTTPError as error:
                self.results.note_slow(sent, node.index, type(error).__name__)
                if isinstance(error, (httpx.TimeoutException, httpx.ConnectError)):
                    self.balancer.failed(node)
                time.sleep(0.05)
                continue
            self.results.note_slow(sent, node.index, str(response.status_code))
            if response.status_code == 202:
                self.results.add("acknowledged", session["id"], key)
                with self.results.lock:
                    self.results.unserved.append((time.time() - first, first))
                return
            try:
                code = response.json()["error"]["code"]
            except (ValueError, KeyError, TypeError):
                code = "?"
            with self.results.lock:
                self.results.statuses[(response.status_code, code)] += 1
            if response.status_code == 409:
                time.sleep(0.05)
                continue
            if response.status_code >= 500 or response.status_code == 429:
                if code in NOT_APPLIED and random.random() < self.believe:
                    self.results.add("rejected", session["id"], key)
                    with self.results.lock:
                        self.results.unserved.append((time.time() - first, first))
                    return
                time.sleep(0.05)
                continue
            with self.results.lock:
                self.results.other_errors.append((response.status_code, response.text[:200]))
            return


class Follower(threading.Thread):
    """Follows one session slot's event stream, reconnecting to a random process now and then."""

    def __init__(self, slot, sessions, nodes, timeline, stopping, reconnect):
        super().__init__(daemon=True)
        self.slot, self.sessions, self.nodes, self.timeline = slot, sessions, nodes, timeline
        self.stopping, self.reconnect = stopping, reconnect
        self.anomalies = []
        self.seen = defaultdict(dict)        # session id -> version -> titles
        self.last = {}                       # session id -> (version, titles)
        self.reconnects = 0
        self.events = 0                      # state events received
        self.refused = Counter()             # status of every stream answer other than 200

    def run(self):
        while not self.stopping.is_set():
            session = self.sessions.current(self.slot)
            if session is None:
                time.sleep(0.1)
                continue
            node = random.choice(self.nodes)
            self.follow(session, node, time.time() + random.uniform(*self.reconnect))

    def follow(self, session, node, until):
        headers = {"Authorization": "Bearer " + session["token"]}
        last = self.last.get(session["id"])
        if last:
            headers["Last-Event-ID"] = str(last[0])
        ended_by_us = False
        try:
            with httpx.Client(timeout=httpx.Timeout(5, read=2)) as client:
                with connect_sse(client, "GET", f"{node.url}/api/sessions/{session['id']}/events",
                                 headers=headers) as source:
                    if source.response.status_code != 200:
                        self.refused[source.response.status_code] += 1
                        if not self.timeline.near_fault(time.time(), node.index):
                            self.anomalies.append(f"stream of {session['id'][:8]} on process {node.index} answered "
                                                  f"{source.response.status_code} with no fault near")
                        time.sleep(0.1)
                        return
                    self.reconnects += 1
                    try:
                        for event in source.iter_sse():
                            if event.event == "state":
                                self.events += 1
                                self.check(session["id"], json.loads(event.data), node)
                            if time.time() > until or self.stopping.is_set() or self.sessions.current(self.slot) is not session:
                                ended_by_us = True
                                return
                    except httpx.ReadTimeout:
                        ended_by_us = True  # quiet for 2 s: reconnect
                        return
        except httpx.HTTPError as error:
            if not self.timeline.near_fault(time.time(), node.index):
                self.anomalies.append(f"stream of {session['id'][:8]} on process {node.index} failed with no fault "
                                      f"near: {error!r}")
            time.sleep(0.1)
            return
        if not ended_by_us and not self.timeline.near_fault(time.time(), node.index):
            self.anomalies.append(f"stream of {session['id'][:8]} on process {node.index} ended with no fault near "
                                  f"at {time.strftime('%H:%M:%S', time.localtime())}")
        time.sleep(0.05)

    def check(self, session_id, data, node):
        version = data["version"]
        titles = frozenset(todo["title"] for todo in data["state"]["todos"]["todos"])
        last = self.last.get(session_id)
        if last is not None:
            if version <= last[0]:
                kind = "came twice" if version == last[0] else "went back"
                self.anomalies.append(f"{session_id[:8]} on process {node.index}: version {version} {kind} after {last[0]}")
            if not last[1] <= titles:
                self.anomalies.append(f"{session_id[:8]}: to-dos disappeared at version {version}")
        known = self.seen[session_id].get(version)
        if known is not None and known != titles:
            self.anomalies.append(f"{session_id[:8]}: version {version} showed two states")
        self.seen[session_id][version] = titles
        if last is None or version > last[0]:
            self.last[session_id] = (version, titles)


def final_states(nodes, sessions):
    states = {}
    with httpx.Client(timeout=10) as client:
        for session_id, session in sessions.items():
            for _ in range(100):
                try:
                    response = client.get(f"{random.choice(nodes).url}/api/sessions/{session_id}",
                                          headers={"Authorization": "Bearer " + session["token"]})
                    if response.status_code == 200:
                        states[session_id] = response.json()
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
    return states


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("database")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--sessions", type=int, default=8, help="sessions in use at once")
    parser.add_argument("--clients-per-session", type=int, default=1)
    parser.add_argument("--per-session", type=int, default=150, help="to-dos before a session is retired")
    parser.add_argument("--faults", default="all", help="comma-separated of kill,stop,term,database; all; none")
    parser.add_argument("--without-keys", action="store_true",
                        help="send no Idempotency-Key, as a plain client does (with --faults none only: a retry "
                             "after a broken connection could apply twice)")
    parser.add_argument("--fault-interval", type=float, nargs=2, default=(3, 7))
    parser.add_argument("--pause", type=float, nargs=2, default=(2, 5), help="SIGSTOP seconds (longer than a lease)")
    parser.add_argument("--believe", type=float, default=0.3, help="chance a client believes a 'not applied' answer")
    parser.add_argument("--think", type=float, default=0.01, help="longest pause between a client's actions")
    parser.add_argument("--request-timeout", type=float, default=3,
                        help="seconds without an answer before a client sends the request again elsewhere")
    parser.add_argument("--followers", type=int, default=None, help="session slots with a stream (default: all)")
    parser.add_argument("--max-unserved", type=float, default=5.0)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--report", help="also write the report as JSON here")
    options = parser.parse_args()
    kinds = list(FAULTS) if options.faults == "all" else [] if options.faults == "none" else options.faults.split(",")

    root = tempfile.mkdtemp(prefix="storehost-chaos-")
    nodes = [Node(index, options.binary, options.database, root) for index in range(options.processes)]
    timeline = Timeline()
    results = Results()
    sessions = Sessions(nodes, options.sessions, options.per_session)
    stopping = threading.Event()
    try:
        for node in nodes:
            node.start()
        balancer = Balancer(nodes, stopping)
        clients = [Client(f"c{slot}.{n}", slot, sessions, balancer, results, stopping, options)
                   for slot in range(options.sessions) for n in range(options.clients_per_session)]
        follower_count = options.sessions if options.followers is None else options.followers
        followers = [Follower(slot, sessions, nodes, timeline, stopping, (2, 6)) for slot in range(follower_count)]
        for thread in clients + followers:
            thread.start()
        chaos = Chaos(nodes, timeline, kinds, tuple(options.pause), tuple(options.fault_interval))
        started = time.time()
        if kinds:
            chaos.start()
        time.sleep(options.seconds)
        chaos.stopping.set()
        if kinds:
            chaos.join(timeout=60)
        for node in nodes:
            node.signal(signal.SIGCONT)
            if node.process.poll() is not None:
                node.start()
        stopping.set()
        for client in clients:
            client.join(timeout=90)
        ran = time.time() - started
        states = final_states(nodes, sessions.all)
        stream_anomalies = [anomaly for follower in followers for anomaly in follower.anomalies]
        stream_anomalies += catch_up(nodes, sessions.all, states, followers)
        report = evaluate(results, states, sessions.all, followers, stream_anomalies, chaos, timeline, ran, options)
    finally:
        stopping.set()
        for node in nodes:
            if node.process is not None:
                node.stop()
    print_report(report)
    if options.report:
        with open(options.report, "w") as file:
            json.dump(report, file, indent=2)
    if options.check:
        failures = check(report, kinds, options)
        for failure in failures:
            print("FAIL:", failure)
        if failures:
            print(f"(process logs kept in {root})")
            sys.exit(1)
    subprocess.run(["rm", "-rf", root])


def catch_up(nodes, sessions, states, followers):
    """Reads each session's stream once more from a random process with the last version a
    follower saw: it must reach the final version, and never show an older one."""
    anomalies = []
    seen = {}
    for follower in followers:
        for session_id, (version, titles) in follower.last.items():
            seen[session_id] = max(seen.get(session_id, (-1, None)), (version, titles), key=lambda pair: pair[0])
    # The session each follower was given last is read too, from its start if it never saw it.
    for follower in followers:
        current = follower.sessions.current(follower.slot)
        if current is not None:
            seen.setdefault(current["id"], (-1, None))
    for session_id, state in states.items():
        if session_id not in seen:
            continue
        final = state["version"]
        last_seen = seen[session_id][0]
        node = random.choice(nodes)
        headers = {"Authorization": "Bearer " + sessions[session_id]["token"]}
        if last_seen >= 0:
            headers["Last-Event-ID"] = str(last_seen)
        reached = False
        if last_seen > final:
            anomalies.append(f"{session_id[:8]}: a stream showed version {last_seen}, the final state is {final}")
            continue
        if last_seen == final:
            continue
        try:
            with httpx.Client(timeout=httpx.Timeout(5, read=5)) as client:
                with connect_sse(client, "GET", f"{node.url}/api/sessions/{session_id}/events",
                                 headers=headers) as source:
                    for event in source.iter_sse():
                        if event.event == "state":
                            version = json.loads(event.data)["version"]
                            if version < last_seen:
                                anomalies.append(f"{session_id[:8]}: resumed at {last_seen}, got {version}")
                            if version >= final:
                                reached = True
                                break
        except httpx.HTTPError as error:
            anomalies.append(f"{session_id[:8]}: the stream did not reach the final version {final}: {error!r}")
            continue
        if not reached:
            anomalies.append(f"{session_id[:8]}: the stream ended before the final version {final}")
    return anomalies


def evaluate(results, states, sessions, followers, stream_anomalies, chaos, timeline, ran, options):
    applied = {}
    for session_id in sessions:
        if session_id not in states:
            continue
        applied[session_id] = Counter(todo["title"] for todo in states[session_id]["state"]["todos"]["todos"])
    unread = [session_id[:8] for session_id in sessions if session_id not in states]
    lost, twice, despite_error, phantom = [], [], [], []
    sent = set()
    for field in ("acknowledged", "rejected", "unresolved"):
        for session_id, keys in getattr(results, field).items():
            sent |= {(session_id, key) for key in keys}
    for session_id, counts in applied.items():
        for key, count in counts.items():
            if count > 1:
                twice.append(f"{session_id[:8]} {key} x{count}")
            if key in results.rejected[session_id]:
                despite_error.append(f"{session_id[:8]} {key}")
            if (session_id, key) not in sent:
                phantom.append(f"{session_id[:8]} {key}")
        for key in results.acknowledged[session_id]:
            if counts[key] == 0:
                lost.append(f"{session_id[:8]} {key}")
    # To-dos a stream showed must be in the final state: streams show durable versions only.
    for follower in followers:
        for session_id, versions in follower.seen.items():
            if session_id not in applied:
                continue
            shown = set().union(*versions.values()) if versions else set()
            for key in shown - set(applied[session_id]):
                stream_anomalies.append(f"{session_id[:8]}: a stream showed {key}, which the final state lacks")
    unserved = sorted(results.unserved, reverse=True)
    by_cause = defaultdict(float)
    for seconds, first in unserved:
        cause = timeline.cause(first)
        by_cause[cause] = max(by_cause[cause], seconds)
    errors_5xx = {f"{status} {code}": count for (status, code), count in results.statuses.items() if status >= 500}
    return {
        "seconds": round(ran, 1),
        "processes": options.processes,
        "faults": dict(chaos.counts),
        "fault_errors": chaos.errors,
        "sessions": len(sessions),
        "attempts": results.attempts,
        "acknowledged": sum(len(keys) for keys in results.acknowledged.values()),
        "believed_not_applied": sum(len(keys) for keys in results.rejected.values()),
        "unresolved": sum(len(keys) for keys in results.unresolved.values()),
        "lost": lost,
        "applied_twice": twice,
        "applied_despite_error": despite_error,
        "phantom": phantom,
        "unread_sessions": unread,
        "stream_anomalies": stream_anomalies,
        "stream_connections": sum(follower.reconnects for follower in followers),
        "stream_events": sum(follower.events for follower in followers),
        "streams_refused": dict(sum((follower.refused for follower in followers), Counter())),
        "followers_without_events": [follower.slot for follower in followers if follower.events == 0],
        "followed_sessions": len({session_id for follower in followers for session_id in follower.seen}),
        "errors": {f"{status} {code}": count for (status, code), count in sorted(results.statuses.items())},
        "errors_5xx": sum(errors_5xx.values()),
        "other_errors": results.other_errors[:10],
        "longest_unserved_s": round(unserved[0][0], 2) if unserved else 0,
        "longest_unserved_by_fault_s": {cause: round(seconds, 2) for cause, seconds in sorted(by_cause.items())},
        "p99_answer_s": round(percentile([seconds for seconds, _ in unserved], 0.99), 3),
        "slowest_attempts": sorted(results.slow, reverse=True)[:8],
        "faults_at": [(time.strftime("%H:%M:%S", time.localtime(start)), round((end or start) - start, 1), kind, target)
                      for start, end, kind, target in timeline.faults],
    }


def percentile(values, fraction):
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def print_report(report):
    print(f"chaos: {report['seconds']} s, {report['processes']} processes, faults {report['faults']}, "
          f"{report['sessions']} sessions")
    print(f"  actions: {report['acknowledged']} acknowledged, {report['believed_not_applied']} answered "
          f"'not applied' and given up, {report['unresolved']} unresolved; {report['attempts']} requests")
    for field in ("lost", "applied_twice", "applied_despite_error", "phantom", "unread_sessions", "stream_anomalies"):
        print(f"  {field.replace('_', ' ')}: {len(report[field])}" + (f"  e.g. {report[field][:3]}" if report[field] else ""))
    print(f"  stream connections: {report['stream_connections']}, state events: {report['stream_events']}, "
          f"sessions seen on a stream: {report['followed_sessions']} of {report['sessions']}, "
          f"refused: {report['streams_refused']}")
    print(f"  error answers: {report['errors']} (5xx: {report['errors_5xx']})")
    if report["other_errors"]:
        print(f"  other errors: {report['other_errors']}")
    print(f"  longest unserved: {report['longest_unserved_s']} s; by fault: {report['longest_unserved_by_fault_s']}; "
          f"p99 answer {report['p99_answer_s']} s")
    print(f"  slowest attempts (s, sent, process, outcome): {report['slowest_attempts']}")
    print(f"  faults (start, s, kind, process): {report['faults_at']}")
    if report["fault_errors"]:
        print(f"  fault errors: {report['fault_errors']}")


def check(report, kinds, options):
    failures = []
    for field in ("lost", "applied_twice", "applied_despite_error", "phantom", "unread_sessions", "stream_anomalies",
                  "fault_errors", "other_errors"):
        if report[field]:
            failures.append(f"{field}: {report[field][:5]}")
    # The stream checks above hold vacuously unless streams open and show versions: every
    # follower must have received states (catch_up also reads each follower's last session
    # to its final version).
    if report["followers_without_events"]:
        failures.append(f"followers of slots {report['followers_without_events']} received no state event")
    if report["unresolved"]:
        failures.append(f"{report['unresolved']} actions got no answer within 60 s")
    if not kinds and report["errors_5xx"]:
        failures.append(f"{report['errors_5xx']} 5xx answers with no fault: {report['errors']}")
    if report["longest_unserved_s"] > options.max_unserved:
        failures.append(f"a session was unserved for {report['longest_unserved_s']} s")
    return failures


if __name__ == "__main__":
    main()

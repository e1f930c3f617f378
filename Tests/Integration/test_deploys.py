"""A deploy of a changed build on old data, and a rollback, as users run them: the demo is
copied into a package of its own on this checkout, built, changed, built again, and each
build is started on the same data directory.

1. the demo as it is makes sessions (counters, to-dos);
2. a build whose Counter and Todo states gained a field with a default reads every one of
   them, intact, with the defaults;
3. rolled back, the first build reads them all again;
4. a build that renamed a field, with a migration, carries every value over;
5. rolled back across that migration, the first build keeps them unserved and undeleted,
   and `storehost sessions check` says so;
6. rolled forward, every session is there.

The package's build stays in .build/deploy-test, so later runs build only what changed."""
import json
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import httpx

from storehost_server import ROOT, StorehostServer

PACKAGE = ROOT / ".build" / "deploy-test"
BINARY = PACKAGE / ".build" / "debug" / "deployed-storehost"
# Target names are unique across a package graph, so the copies get names of their own.
FOLDERS = {
    "StoreHostDemoClients": "DeployedDemoClients", "StoreHostDemo": "DeployedDemo", "storehost": "deployed-storehost",
}

MANIFEST = """// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "DeployTest",
  platforms: [.macOS(.v15)],
  dependencies: [.package(path: "%(root)s")],
  targets: [
    .target(
      name: "DeployedDemoClients",
      dependencies: [
        .product(name: "Dependencies", package: "%(identity)s"),
        .product(name: "DependenciesMacros", package: "%(identity)s"),
      ]),
    .target(
      name: "DeployedDemo",
      dependencies: ["DeployedDemoClients", .product(name: "ComposableArchitecture", package: "%(identity)s")]),
    .executableTarget(
      name: "deployed-storehost",
      dependencies: [
        "DeployedDemo", .product(name: "StoreHost", package: "%(identity)s"), .product(name: "HTTP", package: "%(identity)s"),
        .product(name: "Composable", package: "%(identity)s"),
        .product(name: "StoreHostPostgres", package: "%(identity)s"),
      ]),
  ]
)
"""


def demo_sources():
    return {
        path.relative_to(ROOT / "Sources"): path.read_text()
        for folder in FOLDERS
        for path in (ROOT / "Sources" / folder).glob("*.swift")
    }


def edit(sources, file, old, new):
    path = Path("StoreHostDemo") / file
    assert old in sources[path], f"{file} no longer holds {old!r}"
    sources[path] = sources[path].replace(old, new)


def with_added_fields(sources):
    """Counter gained `step` and a to-do gained `priority`, both with defaults."""
    edit(sources, "Counter.swift", "    public var count = 0\n", "    public var count = 0\n    public var step = 1\n")
    edit(sources, "Todos.swift", "    @BindingState public var isComplete = false\n",
         "    @BindingState public var isComplete = false\n    public var priority = 0\n")
    return sources


def with_renamed_count(sources):
    """Counter's `count` became `value`, with a migration from the demo's state version."""
    edit(sources, "Counter.swift", "public var count = 0", "public var value = 0")
    edit(sources, "Counter.swift", "self.count = count", "self.value = count")
    sources[Path("StoreHostDemo/Counter.swift")] = sources[Path("StoreHostDemo/Counter.swift")].replace(
        "state.count", "state.value")
    edit(sources, "AppFeature.swift", "public static var stateVersion: Int { 1 }",
         "public static var stateVersion: Int { 2 }")
    edit(sources, "AppFeature.swift",
         """    if version == 0 { json["numberFact"]?.renameMember("count", to: "number") }\n""",
         """    if version == 0 { json["numberFact"]?.renameMember("count", to: "number") }
    if version == 1 {
      json["counter"]?.renameMember("count", to: "value")
      json["twoCounters"]?["first"]?.renameMember("count", to: "value")
      json["twoCounters"]?["second"]?.renameMember("count", to: "value")
    }\n""")
    return sources


def build(sources):
    """Writes `sources` into the package and builds its storehost."""
    # A package required by path is named after its directory.
    manifest = MANIFEST % {"root": ROOT, "identity": ROOT.name.lower()}
    (PACKAGE / "Package.swift").parent.mkdir(parents=True, exist_ok=True)
    (PACKAGE / "Package.swift").write_text(manifest)
    for folder in FOLDERS.values():
        shutil.rmtree(PACKAGE / "Sources" / folder, ignore_errors=True)
    for relative, text in sources.items():
        path = PACKAGE / "Sources" / FOLDERS[relative.parts[0]] / relative.name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("import StoreHostDemo", "import DeployedDemo"))
    built = subprocess.run(
        ["swift", "build", "--product", "deployed-storehost"], cwd=PACKAGE, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]


def start(data):
    return StorehostServer(data=data, binary=BINARY).start()


def states(server, sessions):
    """Each session's state, or the error code it answers."""
    found = {}
    with httpx.Client(base_url=server.url, timeout=10) as client:
        for session in sessions:
            response = client.get(f"/api/sessions/{session['id']}",
                                  headers={"Authorization": f"Bearer {session['token']}"})
            found[session["id"]] = response.json()["state"] if response.status_code == 200 else (
                response.json()["error"]["code"])
    return found


def test_a_deploy_that_changes_state_and_a_rollback_keep_every_session():
    data = tempfile.mkdtemp(prefix="storehost-deploy-")
    original = demo_sources()

    build(dict(original))
    server = start(data)
    sessions = []
    with httpx.Client(base_url=server.url, timeout=10) as client:
        for index in range(20):
            session = client.post("/api/sessions").json()
            headers = {"Authorization": f"Bearer {session['token']}"}
            actions = [{"counter": "incrementButtonTapped"}] * (index + 1)
            if index % 2:
                for title in ("milk", "eggs")[: 1 + index % 3]:
                    actions += [{"todos": {"binding": {"newTodoText": title}}}, {"todos": "addButtonTapped"}]
            assert client.post(f"/api/sessions/{session['id']}/actions", json=actions,
                               headers=headers).status_code == 202
            sessions.append(session)
    before = states(server, sessions)
    assert server.stop() == 0

    # A build with added fields reads every session, with the defaults.
    build(with_added_fields(dict(original)))
    server = start(data)
    after = states(server, sessions)
    assert server.stop() == 0
    for id, state in before.items():
        expected = json.loads(json.dumps(state))
        expected["counter"]["step"] = 1
        expected["twoCounters"]["first"]["step"] = expected["twoCounters"]["second"]["step"] = 1
        for todo in expected["todos"]["todos"]:
            todo["priority"] = 0
        assert after[id] == expected

    # Rolled back, every session is served again, as it was.
    build(dict(original))
    server = start(data)
    assert states(server, sessions) == before
    assert server.stop() == 0

    # A build that renamed a field, with a migration, carries every value over.
    build(with_renamed_count(dict(original)))
    server = start(data)
    renamed = states(server, sessions)
    with httpx.Client(base_url=server.url, timeout=10) as client:
        first = sessions[0]
        assert client.post(f"/api/sessions/{first['id']}/actions", json={"counter": "incrementButtonTapped"},
                           headers={"Authorization": f"Bearer {first['token']}"}).status_code == 202
    assert server.stop() == 0
    for id, state in before.items():
        assert renamed[id]["counter"] == {"value": state["counter"]["count"]}

    # Rolled back across the migration: kept, unserved, and reported.
    build(dict(original))
    check = subprocess.run([str(BINARY), "sessions", "check", "--data", data], capture_output=True, text=True)
    assert check.returncode == 1 and "0 readable, 20 unreadable" in check.stdout, check.stdout
    server = start(data)
    assert set(states(server, sessions).values()) == {"session_unreadable"}
    assert server.stop() == 0

    # Rolled forward again, every session is there, with the change made before the rollback.
    build(with_renamed_count(dict(original)))
    server = start(data)
    again = states(server, sessions)
    assert server.stop(signal.SIGTERM) == 0
    assert again[sessions[0]["id"]]["counter"] == {"value": before[sessions[0]["id"]]["counter"]["count"] + 1}
    assert all(again[id]["counter"] == renamed[id]["counter"] for id in before if id != sessions[0]["id"])

"""The token secret from a file, and its rotation without a stop (the Cluster article of StoreHostPostgres, "Rotating the secret"): a process
started with the new secret and `--previous-secret-file` accepts the tokens the old secret
signed and signs new ones with the new secret."""
import json
import os
import tempfile

from storehost_server import StorehostServer, curl

JSON = "Content-Type: application/json"
OLD = "old-secret-0123456789abcdef0123456789"
NEW = "new-secret-0123456789abcdef0123456789"


def secret_file(directory, name, secret):
    path = os.path.join(directory, name)
    with open(path, "w") as file:
        file.write(secret + "\n")
    return path


def create(server):
    status, _, body = curl(server.url + "/api/sessions", method="POST", body="")
    assert status == 201, body
    return json.loads(body)


def act(server, session):
    status, _, _ = curl(
        f"{server.url}/api/sessions/{session['id']}/actions", body={"counter": "incrementButtonTapped"},
        headers=[f"Authorization: Bearer {session['token']}", JSON])
    return status


def test_a_token_signed_under_the_old_secret_is_accepted_after_rotation():
    directory = tempfile.mkdtemp(prefix="storehost-secrets-")
    old_file = secret_file(directory, "old", OLD)
    new_file = secret_file(directory, "new", NEW)
    server = StorehostServer("--secret-file", old_file).start()
    try:
        before = create(server)
        assert act(server, before) == 202
        server.stop()
        server.flags = ["--secret-file", new_file, "--previous-secret-file", old_file]
        server.start()
        assert act(server, before) == 202
        after = create(server)
        assert act(server, after) == 202
        server.stop()
        server.flags = ["--secret", NEW]
        server.start()
        assert act(server, after) == 202
        assert act(server, before) == 401
    finally:
        server.stop()


"""The security headers on every kind of answer `storehost` gives (page, static file, 304,
JSON, error, event stream), over HTTP and HTTPS, and the flags that change them.

Needs `.build/debug/storehost` (scripts/test builds it), curl and openssl.
"""

import json
import tempfile

import httpx

from storehost_server import StorehostServer, curl, throwaway_certificate

POLICY = "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
ALWAYS = {
    "content-security-policy": POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
}
HSTS = "strict-transport-security"


def every_kind_of_answer(server):
    """(what, status, headers with lower-case names) for each kind of answer."""
    answers = []

    def get(what, *args, **options):
        status, headers, _ = curl("-k", *args, **options)
        answers.append((what, status, {name: values[-1] for name, values in headers.items()}))
        return headers

    page = get("page", server.url + "/")
    get("static file", server.url + "/app.js")
    get("304", server.url + "/", headers=[f"If-None-Match: {page['etag'][0]}"])
    get("JSON", server.url + "/healthz")
    get("JSON error", server.url + "/api/sessions/nope")
    get("parser error", server.url + "/" + "a" * 9000)
    status, headers, body = curl("-k", server.url + "/api/sessions", method="POST", body="")
    answers.append(("created session", status, {name: values[-1] for name, values in headers.items()}))
    session = json.loads(body)
    with httpx.stream("GET", f"{server.url}/api/sessions/{session['id']}/events", verify=False, timeout=10,
                      headers={"Authorization": f"Bearer {session['token']}"}) as stream:
        answers.append(("event stream", stream.status_code, {k.lower(): v for k, v in stream.headers.items()}))
    return answers


def test_every_answer_carries_the_security_headers_and_hsts_only_over_https():
    plain = StorehostServer().start()
    try:
        answers = every_kind_of_answer(plain)
        assert [status for _, status, _ in answers] == [200, 200, 304, 200, 401, 414, 201, 200]
        for what, _, headers in answers:
            assert {name: headers.get(name) for name in ALWAYS} == ALWAYS, what
            assert HSTS not in headers, what
        assert answers[-1][2]["content-type"] == "text/event-stream"
    finally:
        plain.stop()

    directory = tempfile.mkdtemp(prefix="headers-tls-")
    throwaway_certificate(directory)
    secure = StorehostServer("--tls-cert", f"{directory}/cert.pem", "--tls-key", f"{directory}/key.pem").start()
    try:
        answers = every_kind_of_answer(secure)
        for what, _, headers in answers:
            assert {name: headers.get(name) for name in ALWAYS} == ALWAYS, what
            assert headers.get(HSTS) == "max-age=63072000", what
        cookie = next(headers for what, _, headers in answers if what == "created session")["set-cookie"]
        assert {"HttpOnly", "SameSite=Strict", "Secure"} <= set(cookie.split("; "))
    finally:
        secure.stop()


def test_behind_a_tls_proxy_hsts_and_secure_cookies_are_sent_over_plain_http():
    server = StorehostServer("--behind-tls-proxy", "--hsts-max-age", "600").start()
    try:
        _, headers, _ = curl(server.url + "/api/sessions", method="POST", body="")
        assert headers[HSTS] == ["max-age=600"]
        assert "Secure" in headers["set-cookie"][0].split("; ")
    finally:
        server.stop()


def test_the_content_security_policy_can_be_replaced_or_turned_off():
    replaced = StorehostServer("--content-security-policy", "default-src 'none'").start()
    try:
        _, headers, _ = curl(replaced.url + "/")
        assert headers["content-security-policy"] == ["default-src 'none'"]
        assert headers["x-content-type-options"] == ["nosniff"]
    finally:
        replaced.stop()
    off = StorehostServer("--content-security-policy", "off").start()
    try:
        _, headers, _ = curl(off.url + "/")
        assert "content-security-policy" not in headers and headers["x-frame-options"] == ["DENY"]
    finally:
        off.stop()

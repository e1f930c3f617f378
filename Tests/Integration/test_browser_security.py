"""The demo in headless Chromium under the server's default security headers: it works
with no Content-Security-Policy violation, and a page of another origin cannot frame it.

Needs what test_browser.py needs (Debian chromium + chromium-driver, PyPI selenium, and
`.build/debug/storehost`).
"""

import re
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

# `server` is test_browser.py's fixture: a storehost process of this module's own.
from test_browser import new_browser, open_page, server, text_of, wait, wait_for_text  # noqa: F401

POLICY = "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

# Runs before any script of every page the browser opens: records each violation of the
# page's Content-Security-Policy the browser reports.
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`);
});
"""


@pytest.fixture
def browser():
    driver = new_browser()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS})
    yield driver
    driver.quit()


def violations(driver):
    return driver.execute_script("return window.cspViolations")


def policy_messages(driver):
    return [entry["message"] for entry in driver.get_log("browser")
            if "Content Security Policy" in entry["message"] or "Refused to" in entry["message"]]


def sessions_created(server):
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as response:
        metrics = response.read().decode()
    return int(re.search(r"^storehost_sessions_created_total (\d+)$", metrics, re.M).group(1))


def test_the_demo_works_under_its_default_policy_with_no_violation(server, browser):
    open_page(browser, server, "counter")
    served = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/').then(r => done(r.headers.get('content-security-policy')), e => done(String(e)));")
    assert served == POLICY

    # Every page, each with what it does: actions out, state back over the event stream.
    before = int(text_of(browser, "counter-count"))
    browser.find_element(By.ID, "counter-increment").click()
    wait_for_text(browser, "counter-count", str(before + 1))
    open_page(browser, server, "two-counters")
    browser.find_element(By.CSS_SELECTOR, '[data-counter="first"][data-step="increment"]').click()
    wait_for_text(browser, "first-count", "1")
    open_page(browser, server, "todos")
    browser.find_element(By.ID, "todo-new").send_keys("Milk", Keys.ENTER)
    wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#todo-list label")] == ["Milk"],
         "the to-do never appeared")
    open_page(browser, server, "number-fact")
    browser.find_element(By.ID, "fact-button").click()
    wait(browser, lambda d: text_of(d, "fact-text").startswith("0 is"), "no fact arrived")
    open_page(browser, server, "timer")
    browser.find_element(By.ID, "timer-toggle").click()
    wait_for_text(browser, "timer-state", "Running")
    wait(browser, lambda d: text_of(d, "timer-time") not in ("0:00", ""), "the timer never ticked")
    browser.find_element(By.ID, "timer-toggle").click()
    wait_for_text(browser, "timer-state", "Paused")
    open_page(browser, server, "shared")
    open_page(browser, server, "contacts")
    browser.find_element(By.ID, "contact-add").click()
    wait(browser, lambda d: d.find_element(By.ID, "contact-sheet").get_attribute("open") is not None,
         "the sheet never opened")
    browser.find_element(By.ID, "contact-name").send_keys(Keys.ESCAPE)
    open_page(browser, server, "debug")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#debug-log .log-entry"), "the debug log stayed empty")

    assert violations(browser) == []
    assert policy_messages(browser) == []

    # The recorder does see a violation: a script added inline is refused and never runs.
    browser.execute_script(
        "const script = document.createElement('script');"
        "script.textContent = 'window.inlineRan = true';"
        "document.head.append(script);")
    wait(browser, lambda d: violations(d) == ["script-src-elem blocked inline"], "the inline script was not refused")
    assert browser.execute_script("return window.inlineRan === undefined")


def test_a_page_of_another_origin_cannot_frame_the_demo(server, browser):
    demo = server.url + "/"

    class OtherOrigin(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/own.html":
                body = b"<!doctype html><p id='own'>framed by its own origin</p>"
            else:
                body = (f"<!doctype html><iframe id='own' src='/own.html'></iframe>"
                        f"<iframe id='demo' src='{demo}'></iframe>").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    other = ThreadingHTTPServer(("127.0.0.1", 0), OtherOrigin)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        created = sessions_created(server)
        browser.get(f"http://127.0.0.1:{other.server_address[1]}/")
        refusals = []
        wait(browser, lambda d: refusals.extend(m for m in policy_messages(d) if "frame-ancestors 'none'" in m)
             or refusals, "Chromium never refused the frame")
        assert f"Framing '{demo}'" in refusals[0] and "blocked" in refusals[0]

        # A frame of the framing page's own origin loads: frames work, this one is refused.
        browser.switch_to.frame("own")
        assert browser.find_element(By.ID, "own").text == "framed by its own origin"
        browser.switch_to.default_content()
        browser.switch_to.frame("demo")
        assert browser.find_elements(By.ID, "main") == []
        browser.switch_to.default_content()
        # None of the demo's scripts ran in the frame: it started no session.
        assert sessions_created(server) == created
    finally:
        other.shutdown()
        other.server_close()

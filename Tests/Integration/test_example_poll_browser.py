"""Examples/Poll's page in two headless Chromium browsers against its own server.

Needs `Examples/Poll/.build/debug/poll-server`, which example_poll.sh builds (scripts/test
runs the shell suites before pytest), and what test_browser.py needs.
"""

import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from test_browser import new_browser, wait

EXAMPLE = Path(__file__).resolve().parents[2] / "Examples" / "Poll"
BINARY = EXAMPLE / ".build" / "debug" / "poll-server"


@pytest.fixture(scope="module")
def poll_url():
    assert BINARY.exists(), f"{BINARY} is missing: run Tests/Integration/example_poll.sh (scripts/test does)"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = tempfile.TemporaryDirectory(prefix="poll-")
    server = subprocess.Popen([str(BINARY)], cwd=EXAMPLE, env={"PORT": str(port), "DATA_DIR": data.name},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while True:
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1)
            break
        except OSError:
            assert time.monotonic() < deadline and server.poll() is None, "poll-server did not start"
            time.sleep(0.1)
    yield url
    server.terminate()
    server.wait(timeout=10)
    data.cleanup()


def choice_titles(driver):
    return [button.text for button in driver.find_elements(By.CSS_SELECTOR, "#choices li button.vote")]


def votes_of(driver, title):
    for item in driver.find_elements(By.CSS_SELECTOR, "#choices li"):
        if item.find_element(By.CSS_SELECTOR, "button.vote").text == title:
            return item.find_element(By.CSS_SELECTOR, ".votes").text
    return None


def test_two_browsers_edit_one_poll(poll_url):
    alice, bob = new_browser(), new_browser()
    try:
        for driver in (alice, bob):
            driver.get(poll_url + "/")
            wait(driver, lambda d: d.find_element(By.ID, "status").text == "open", "the stream did not open")
        # The page's StoreHost client came from the poll's own server, which StoreHost serves.
        loaded = alice.execute_script(
            "return performance.getEntriesByType('resource').map(entry => entry.name)"
            ".filter(name => name.includes('/storehost/'))")
        assert poll_url + "/storehost/v1/storehost.js" in loaded, loaded
        assert poll_url + "/storehost/v1/json-patch.js" in loaded, loaded
        field = alice.find_element(By.ID, "choice-input")
        field.send_keys("Park")
        alice.find_element(By.CSS_SELECTOR, "#add-form button").click()
        wait(bob, lambda d: choice_titles(d) == ["Park"], "Alice's choice did not reach Bob's page")

        bob.find_element(By.CSS_SELECTOR, "#choices li button.vote").click()
        wait(alice, lambda d: votes_of(d, "Park") == "1", "Bob's vote did not reach Alice's page")
        wait(bob, lambda d: "mine" in d.find_element(By.CSS_SELECTOR, "#choices li").get_attribute("class"),
             "Bob's page does not mark his vote")
        assert "mine" not in alice.find_element(By.CSS_SELECTOR, "#choices li").get_attribute("class")
        # A choice somebody voted for offers no remove button.
        assert not alice.find_elements(By.CSS_SELECTOR, "#choices li button.remove")

        alice.find_element(By.ID, "question-input").send_keys("Lunch where?")
        alice.find_element(By.CSS_SELECTOR, "#question-form button").click()
        wait(bob, lambda d: d.find_element(By.ID, "question").text == "Lunch where?",
             "Alice's question did not reach Bob's page")

        # The page keeps to the server's default Content-Security-Policy: its style sheet
        # applies, and the browser reports nothing refused.
        assert alice.execute_script("return getComputedStyle(document.getElementById('choices')).listStyleType") == "none"
        for driver in (alice, bob):
            refused = [entry["message"] for entry in driver.get_log("browser")
                       if "Content Security Policy" in entry["message"]]
            assert refused == []
    finally:
        alice.quit()
        bob.quit()

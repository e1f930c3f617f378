"""Time travel on the Debug page, in headless Chromium against the storehost binary (which
keeps 500 steps of history by default): the slider steps back through the session's
versions, showing each state and the action that made it while the live session stays where
it is; "Fork from here" opens a new session at that state in a new tab; "Export test"
downloads the test file.

Needs what test_browser.py needs (Debian chromium + chromium-driver, PyPI selenium, and
`.build/debug/storehost`).
"""

import json
import tempfile
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

# `server` is test_browser.py's fixture: a storehost process of this module's own.
from test_browser import WAIT, new_browser, open_page, server, text_of, wait, wait_for_text  # noqa: F401


@pytest.fixture
def browser():
    driver = new_browser()
    yield driver
    driver.quit()


def shown_state(driver):
    text = text_of(driver, "history-state")
    return json.loads(text) if text.startswith("{") else None


def test_the_slider_shows_past_states_without_moving_the_session_and_forks_and_exports(server, browser):
    open_page(browser, server, "counter")
    for expected in ("1", "2", "3"):
        browser.find_element(By.ID, "counter-increment").click()
        wait_for_text(browser, "counter-count", expected)
    session = browser.execute_script("return window.storehost.sessionId")
    live_version = browser.execute_script("return window.storehost.version")

    # The Debug page loads the history as it opens: the last step first.
    open_page(browser, server, "debug")
    slider = browser.find_element(By.ID, "history-slider")
    wait(browser, lambda d: slider.get_attribute("max") == "3", "the history never loaded its four steps")
    wait(browser, lambda d: (shown_state(d) or {}).get("counter", {}).get("count") == 3, "the last state never showed")
    assert text_of(browser, "history-position") == "step 4 of 4"

    # Back to the first increment, with the keyboard as a user would.
    slider.send_keys(Keys.HOME)
    wait_for_text(browser, "history-version", "v0")
    assert "the session began" in text_of(browser, "history-kind")
    slider.send_keys(Keys.ARROW_RIGHT)
    wait_for_text(browser, "history-version", "v1")
    wait(browser, lambda d: (shown_state(d) or {}).get("counter", {}).get("count") == 1, "version 1's state never showed")
    assert text_of(browser, "history-actions") == "client → counter.incrementButtonTapped"
    assert "replace /counter/count 1" in text_of(browser, "history-ops")
    assert text_of(browser, "history-position") == "step 2 of 4"

    # View only: the live session did not move, here or on the server.
    assert browser.execute_script("return window.storehost.version") == live_version
    assert browser.execute_script("return window.storehost.state.counter.count") == 3
    assert json.loads(text_of(browser, "debug-state"))["counter"]["count"] == 3
    served = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/sessions/' + window.storehost.sessionId).then(r => r.json()).then(done, e => done(String(e)));")
    assert served["version"] == live_version and served["state"]["counter"]["count"] == 3

    # Export test: the file downloads.
    downloads = Path(tempfile.mkdtemp(prefix="storehost-downloads-"))
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    browser.find_element(By.ID, "history-export").click()
    exported = downloads / f"ReplaySession_{session.replace('-', '_')}Tests.swift"
    deadline = time.monotonic() + WAIT
    while not exported.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert exported.exists(), f"no download in {downloads}: {list(downloads.iterdir())}"
    source = exported.read_text()
    assert source.startswith("// A Swift Testing test rebuilt from the history StoreHost kept of session " + session)
    assert source.count("try await store.send(Recorded.action(#\"{\"counter\":\"incrementButtonTapped\"}\"#))") == 3

    # Fork from here: a new session at version 1's state, in a new tab.
    tabs = set(browser.window_handles)
    browser.find_element(By.ID, "history-fork").click()
    wait(browser, lambda d: len(d.window_handles) == len(tabs) + 1, "no tab opened for the fork")
    browser.switch_to.window((set(browser.window_handles) - tabs).pop())
    wait(browser, lambda d: d.execute_script("return window.storehost && window.storehost.state") is not None,
         "the fork's tab never got its state")
    fork = browser.execute_script("return window.storehost.sessionId")
    assert fork != session and f"session={fork}" in browser.current_url
    assert browser.execute_script("return window.storehost.state.counter.count") == 1
    # Its own history starts where it was made.
    wait(browser, lambda d: d.find_element(By.ID, "history-slider").get_attribute("max") == "0",
         "the fork's history never loaded")
    assert "the session began" in text_of(browser, "history-kind")
    browser.find_element(By.CSS_SELECTOR, "[data-route=counter]").click()
    browser.find_element(By.ID, "counter-increment").click()
    wait_for_text(browser, "counter-count", "2")

    # The session forked is untouched.
    browser.switch_to.window(next(iter(tabs)))
    assert browser.execute_script("return window.storehost.state.counter.count") == 3

"""The demo in Public/ driven by a real headless Chromium against the storehost binary.

Needs Debian `chromium` + `chromium-driver` and PyPI `selenium` (installed by .ci/run), and
`.build/debug/storehost`, which scripts/test builds before running this file. The tests run
in file order against one server and share one browser: a count, todos, a second browser
for the shared counter, screenshots of every page (artifacts/screenshots/), and last a
server restart the page must recover from by itself.
"""

import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "storehost"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
WAIT = 10  # seconds; every wait in this file is bounded by it

PAGES = ["counter", "two-counters", "todos", "number-fact", "timer", "shared", "debug"]
PHONE = (390, 844)
DESKTOP = (1280, 800)


# MARK: Server


class StoreHostServer:
    """One `storehost` process on loopback, restartable on the same port and data dir."""

    def __init__(self, data_dir):
        self.data_dir = data_dir
        self.port = 0
        self.process = None
        self.log = open(Path(data_dir) / "server.log", "ab")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        """Starts the server (on its previous port, if it had one); returns the first line."""
        deadline = time.monotonic() + WAIT
        while True:
            line = self._spawn()
            match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
            if match:
                self.port = int(match.group(1))
                # Keep reading stdout so the server never blocks on a full pipe.
                threading.Thread(target=self._drain, args=(self.process,), daemon=True).start()
                return line
            self.stop()
            # The old process's port may take a moment to free up after a restart.
            if self.port == 0 or time.monotonic() > deadline:
                raise AssertionError(f"storehost did not start: {line!r}; see {self.log.name}")
            time.sleep(0.2)

    def _spawn(self):
        assert BINARY.exists(), f"{BINARY} is missing: run `swift build` (scripts/test does) first"
        self.process = subprocess.Popen(
            [str(BINARY), "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(self.data_dir), "--public", str(ROOT / "Public")],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=self.log, stdin=subprocess.DEVNULL,
        )
        ready, _, _ = select.select([self.process.stdout], [], [], WAIT)
        return self.process.stdout.readline().decode(errors="replace").strip() if ready else ""

    @staticmethod
    def _drain(process):
        for _ in process.stdout:
            pass

    def stop(self):
        """SIGTERM, as a deployment would; SIGKILL if it does not exit within the wait."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError("storehost did not exit within 10 s of SIGTERM")

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def server():
    data_dir = tempfile.mkdtemp(prefix="storehost-browser-")
    host = StoreHostServer(data_dir)
    host.start()
    yield host
    host.kill()
    host.log.close()
    shutil.rmtree(data_dir, ignore_errors=True)


# MARK: Browsers


def new_browser():
    for path in (CHROMIUM, CHROMEDRIVER):
        assert os.path.exists(path), f"{path} is missing: apt-get install chromium chromium-driver (see .ci/run)"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions", f"--window-size={DESKTOP[0]},{DESKTOP[1]}"):
        options.add_argument(argument)
    # Each driver gets its own fresh profile, so its own cookie jar and localStorage:
    # two drivers are two browsers, each with its own session.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT)
    return driver


@pytest.fixture(scope="module")
def browser():
    driver = new_browser()
    yield driver
    driver.quit()


@pytest.fixture
def second_browser():
    driver = new_browser()
    yield driver
    driver.quit()


def wait(driver, condition, message):
    return WebDriverWait(driver, WAIT, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition, message)


def status(driver):
    return driver.execute_script("return document.body.dataset.status")


def wait_for_status(driver, expected):
    wait(driver, lambda d: status(d) == expected, f"connection status never became {expected!r}")


def open_page(driver, server, page):
    """Opens the demo on `page` (or just switches to it) and waits for a live stream."""
    if driver.current_url.startswith(server.url):
        driver.execute_script("location.hash = arguments[0]", f"#/{page}")
    else:
        driver.get(f"{server.url}/#/{page}")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'[data-page="{page}"]').is_displayed(),
         f"the {page} page did not show")
    wait_for_status(driver, "open")


def text_of(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def wait_for_text(driver, element_id, expected):
    wait(driver, lambda d: text_of(d, element_id) == expected,
         f"#{element_id} never read {expected!r} (it reads {text_of(driver, element_id)!r})")


def client_state(driver):
    return driver.execute_script("return window.storehost.state")


# MARK: Tests


def test_counter_click_changes_the_count(server, browser):
    open_page(browser, server, "counter")
    wait(browser, lambda d: text_of(d, "counter-count") != "–", "the count never showed")
    before = int(text_of(browser, "counter-count"))
    browser.find_element(By.ID, "counter-increment").click()
    wait_for_text(browser, "counter-count", str(before + 1))
    browser.find_element(By.ID, "counter-increment").click()
    browser.find_element(By.ID, "counter-decrement").click()
    browser.find_element(By.ID, "counter-increment").click()
    wait_for_text(browser, "counter-count", str(before + 2))

    # A reload resumes the same session (id in localStorage, token in the cookie).
    session = browser.execute_script("return window.storehost.sessionId")
    browser.refresh()
    wait_for_status(browser, "open")
    wait_for_text(browser, "counter-count", str(before + 2))
    assert browser.execute_script("return window.storehost.sessionId") == session


def test_keyboard_operates_the_counter(server, browser):
    open_page(browser, server, "counter")
    before = int(text_of(browser, "counter-count"))
    button = browser.find_element(By.ID, "counter-increment")
    browser.execute_script("arguments[0].focus()", button)
    button.send_keys(Keys.ENTER)
    wait_for_text(browser, "counter-count", str(before + 1))
    button.send_keys(Keys.SPACE)
    wait_for_text(browser, "counter-count", str(before + 2))


def test_todos_add_toggle_filter_and_delete(server, browser):
    open_page(browser, server, "todos")
    field = browser.find_element(By.ID, "todo-new")
    field.send_keys("Milk", Keys.ENTER)
    row = wait(browser, lambda d: d.find_element(By.XPATH, '//li[contains(@class,"todo")][label="Milk"]'),
               "the new to-do never appeared")
    wait(browser, lambda d: d.find_element(By.ID, "todo-new").get_attribute("value") == "",
         "the text field was not cleared after adding")
    field.send_keys("Eggs")
    browser.find_element(By.ID, "todo-add").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#todo-list li")) == 2, "the second to-do never appeared")
    wait_for_text(browser, "todo-remaining", "2 items left")

    row.find_element(By.CSS_SELECTOR, "input[type=checkbox]").click()
    wait(browser, lambda d: "is-complete" in row.get_attribute("class"), "the to-do never showed as complete")
    wait_for_text(browser, "todo-remaining", "1 item left")
    todos = client_state(browser)["todos"]["todos"]
    assert [(t["title"], t["isComplete"]) for t in todos] == [("Milk", True), ("Eggs", False)]

    # The filter is state too.
    browser.find_element(By.CSS_SELECTOR, 'label[for="filter-active"]').click()
    wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#todo-list label")] == ["Eggs"],
         "the active filter did not hide the completed to-do")
    assert client_state(browser)["todos"]["filter"] == "active"
    browser.find_element(By.CSS_SELECTOR, 'label[for="filter-all"]').click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#todo-list li")) == 2, "the all filter did not show both")

    # Delete, then clear completed.
    eggs = browser.find_element(By.XPATH, '//li[contains(@class,"todo")][label="Eggs"]')
    eggs.find_element(By.CSS_SELECTOR, ".todo-delete").click()
    wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#todo-list label")] == ["Milk"],
         "the deleted to-do stayed")
    browser.find_element(By.ID, "todo-clear").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#todo-list li") == [], "clear completed left rows")
    assert browser.find_element(By.ID, "todo-empty").is_displayed()


def test_number_fact_shows_loading_then_a_fact(server, browser):
    open_page(browser, server, "number-fact")
    browser.find_element(By.ID, "fact-increment").click()
    browser.find_element(By.ID, "fact-increment").click()
    wait_for_text(browser, "fact-count", "2")
    browser.find_element(By.ID, "fact-button").click()
    wait(browser, lambda d: text_of(d, "fact-text").startswith("2 is a prime"), "no fact arrived")
    assert browser.find_element(By.ID, "fact-button").get_attribute("aria-busy") == "false"


def test_timer_ticks_and_stops(server, browser):
    open_page(browser, server, "timer")
    browser.find_element(By.ID, "timer-toggle").click()
    wait(browser, lambda d: text_of(d, "timer-time") not in ("0:00", ""), "the timer never ticked")
    wait_for_text(browser, "timer-state", "Running")
    browser.find_element(By.ID, "timer-toggle").click()
    wait_for_text(browser, "timer-state", "Paused")
    browser.find_element(By.ID, "timer-reset").click()
    wait_for_text(browser, "timer-time", "0:00")


def test_shared_counter_moves_in_the_other_browser(server, browser, second_browser):
    open_page(browser, server, "shared")
    open_page(second_browser, server, "shared")
    assert browser.execute_script("return window.storehost.sessionId") != \
        second_browser.execute_script("return window.storehost.sessionId"), "the two browsers share a session"
    if "shared" not in client_state(browser):
        assert browser.find_element(By.ID, "shared-unavailable").is_displayed()
        pytest.skip("state.shared is absent: the server's demo feature has no shared counter yet")
    before = client_state(browser)["shared"]["count"]
    second_browser.find_element(By.ID, "shared-increment").click()
    wait_for_text(browser, "shared-count", str(before + 1))


def test_session_named_in_the_url(server, browser, second_browser):
    # This browser's own session, named in the URL, is resumed.
    open_page(browser, server, "counter")
    own = browser.execute_script("return window.storehost.sessionId")
    browser.get(f"{server.url}/?session={own}#/counter")
    wait_for_status(browser, "open")
    assert browser.execute_script("return window.storehost.sessionId") == own

    # A session this browser holds no token for (or that does not exist) is replaced by a
    # new one, and the URL follows.
    second_browser.get(f"{server.url}/?session={own}#/counter")
    wait_for_status(second_browser, "open")
    replacement = second_browser.execute_script("return window.storehost.sessionId")
    assert replacement != own
    assert f"session={replacement}" in second_browser.current_url


def test_debug_page_logs_actions_in_order(server, browser):
    open_page(browser, server, "counter")
    before = int(text_of(browser, "counter-count"))
    browser.find_element(By.ID, "counter-increment").click()
    wait_for_text(browser, "counter-count", str(before + 1))
    version = browser.execute_script("return window.storehost.version")
    open_page(browser, server, "debug")
    wait_for_text(browser, "debug-version", str(version))
    entries = browser.find_elements(By.CSS_SELECTOR, "#debug-log .log-entry")
    texts = [entry.text for entry in entries]
    action = max(i for i, text in enumerate(texts) if "counter.incrementButtonTapped" in text)
    change = next(i for i, text in enumerate(texts) if i > action and "/counter/count" in text)
    assert f"v{version}" in texts[change]
    assert '"count"' in text_of(browser, "debug-state")


def set_viewport(driver, size, mobile, dark=False):
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def test_screenshots_of_every_page(server, browser):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # Some content worth looking at.
    open_page(browser, server, "todos")
    for title in ("Buy oat milk", "Water the plants", "Call the bank about the card"):
        browser.find_element(By.ID, "todo-new").send_keys(title, Keys.ENTER)
        wait(browser, lambda d, t=title: any(e.text == t for e in d.find_elements(By.CSS_SELECTOR, "#todo-list label")),
             f"{title!r} never appeared")
    browser.find_element(By.CSS_SELECTOR, "#todo-list li input[type=checkbox]").click()
    wait_for_text(browser, "todo-remaining", "2 items left")
    open_page(browser, server, "number-fact")
    browser.find_element(By.ID, "fact-button").click()
    wait(browser, lambda d: "is-placeholder" not in d.find_element(By.ID, "fact-text").get_attribute("class"),
         "no fact arrived")
    open_page(browser, server, "timer")
    browser.find_element(By.ID, "timer-toggle").click()
    wait(browser, lambda d: text_of(d, "timer-time") >= "0:03", "the timer did not reach 3 s")
    browser.find_element(By.ID, "timer-toggle").click()
    wait_for_text(browser, "timer-state", "Paused")

    try:
        for name, size, mobile in (("phone", PHONE, True), ("desktop", DESKTOP, False)):
            set_viewport(browser, size, mobile)
            for page in PAGES:
                open_page(browser, server, page)
                browser.execute_script("window.scrollTo(0, 0); document.activeElement.blur()")
                time.sleep(0.3)  # let the bump and flash animations finish
                assert browser.save_screenshot(str(SCREENSHOTS / f"{page}-{name}.png"))
                overflow = browser.execute_script(
                    "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
                assert overflow <= 0, f"the {page} page scrolls sideways at {name} width ({overflow}px)"
        set_viewport(browser, PHONE, True, dark=True)
        for page in ("todos", "debug"):
            open_page(browser, server, page)
            time.sleep(0.3)
            assert browser.save_screenshot(str(SCREENSHOTS / f"{page}-phone-dark.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_no_errors_in_the_console_so_far(browser):
    # Runs before the tests that delete a session or stop the server on purpose.
    errors = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], errors


def test_a_gone_session_is_replaced_by_a_new_one(server, browser):
    open_page(browser, server, "counter")
    old = browser.execute_script("return window.storehost.sessionId")
    # End the session behind the page's back, as an idle eviction would.
    answer = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/sessions/' + arguments[0], {method: 'DELETE'}).then(r => done(r.status), e => done(String(e)));",
        old)
    assert answer == 204, answer
    wait(browser, lambda d: d.execute_script("return window.storehost.sessionId") not in (None, old),
         "the page did not create a new session")
    wait_for_status(browser, "open")
    wait_for_text(browser, "counter-count", "0")
    browser.find_element(By.ID, "counter-increment").click()
    wait_for_text(browser, "counter-count", "1")
    assert browser.execute_script("return localStorage.getItem('storehost.session')") != old


def test_page_recovers_after_a_server_restart(server, browser):
    open_page(browser, server, "counter")
    session = browser.execute_script("return window.storehost.sessionId")
    before = int(text_of(browser, "counter-count"))

    server.stop()
    wait(browser, lambda d: status(d) in ("reconnecting", "connecting"), "the page did not notice the server stopped")
    assert text_of(browser, "connection-text") != "Live"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "reconnecting-desktop.png"))
    server.start()

    wait_for_status(browser, "open")
    browser.find_element(By.ID, "counter-increment").click()
    wait_for_text(browser, "counter-count", str(before + 1))
    assert browser.execute_script("return window.storehost.sessionId") == session, \
        "the session did not survive the restart"

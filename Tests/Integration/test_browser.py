"""The demo in Public/ driven by a real headless Chromium against the storehost binary.

Needs Debian `chromium` + `chromium-driver` and PyPI `selenium` (scripts/test installs them), and
`.build/debug/storehost`, which scripts/test builds before running this file. The tests run
in file order against one server and share one browser: a count, todos, a second browser
for the shared counter, fresh browsers for several tabs at once, screenshots of every page
(artifacts/screenshots/), then an ended session and last a server restart the page must
recover from by itself, with no click lost or applied twice.
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
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "storehost"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
WAIT = 10  # seconds; every wait in this file is bounded by it

PAGES = ["counter", "two-counters", "todos", "number-fact", "timer", "shared", "contacts", "debug"]
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
        assert os.path.exists(path), f"{path} is missing: apt-get install chromium chromium-driver (scripts/test-setup does)"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions", f"--window-size={DESKTOP[0]},{DESKTOP[1]}"):
        options.add_argument(argument)
    # Each driver gets its own fresh profile, so its own cookie jar: two drivers are two
    # browsers. (Tabs of one driver share the cookies, each with its own sessionStorage.)
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


def session_id(driver):
    return driver.execute_script("return window.storehost.sessionId")


def pending_count(driver):
    return driver.execute_script("return window.storehost.pendingCount")


def count(driver):
    return int(text_of(driver, "counter-count"))


def click_times(driver, element_id, times):
    """Clicks a button `times` times in one go, as fast as a page script can."""
    driver.execute_script("for (let i = 0; i < arguments[1]; i++) document.getElementById(arguments[0]).click()",
                          element_id, times)


def open_tab(driver, url):
    """Opens `url` in a new tab of `driver` and switches to it; returns its handle."""
    driver.switch_to.new_window("tab")
    driver.get(url)
    return driver.current_window_handle


def server_count(driver):
    """The counter as the server has it now, read by this page with its cookie."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/sessions/' + window.storehost.sessionId).then(r => r.json())"
        ".then(s => done(s.state.counter.count), e => done(String(e)));")


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

    # A reload resumes the same session (id in sessionStorage, token in the cookie).
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


def todo_titles(driver):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#todo-list label")]


def test_todos_edit_a_title_in_place(server, browser):
    open_page(browser, server, "todos")
    browser.find_element(By.ID, "todo-new").send_keys("Bread", Keys.ENTER)
    wait(browser, lambda d: todo_titles(d) == ["Bread"], "the to-do never appeared")

    def edit_field():
        return wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#todo-list .todo-edit-field"),
                    "no edit field appeared")

    # Double-click, type, Enter: saved through the title binding.
    ActionChains(browser).double_click(browser.find_element(By.CSS_SELECTOR, "#todo-list label")).perform()
    field = edit_field()
    assert field == browser.switch_to.active_element and field.get_attribute("value") == "Bread"
    field.send_keys("Rye bread", Keys.ENTER)  # the title was selected, so typing replaces it
    wait(browser, lambda d: todo_titles(d) == ["Rye bread"], "Enter did not save the new title")
    assert [t["title"] for t in client_state(browser)["todos"]["todos"]] == ["Rye bread"]
    assert browser.find_elements(By.CSS_SELECTOR, ".todo-edit-field") == []

    # Escape cancels: the next save is the next version.
    version = browser.execute_script("return window.storehost.version")
    ActionChains(browser).double_click(browser.find_element(By.CSS_SELECTOR, "#todo-list label")).perform()
    edit_field().send_keys("Cake", Keys.ESCAPE)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".todo-edit-field") == [], "Escape left the field open")
    assert todo_titles(browser) == ["Rye bread"]

    # The pencil button does the same from the keyboard, and gets the focus back.
    edit = browser.find_element(By.CSS_SELECTOR, "#todo-list .todo-edit")
    assert edit.get_attribute("aria-label") == "Edit “Rye bread”"
    browser.execute_script("arguments[0].focus()", edit)
    edit.send_keys(Keys.ENTER)
    edit_field().send_keys("Sourdough", Keys.ENTER)
    wait(browser, lambda d: todo_titles(d) == ["Sourdough"], "the keyboard edit was not saved")
    assert browser.switch_to.active_element.get_attribute("class") == "btn-icon todo-edit"
    assert browser.execute_script("return window.storehost.version") == version + 1, "Escape sent something"

    # An empty title deletes the to-do.
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    edit_field().send_keys(Keys.BACKSPACE, Keys.ENTER)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#todo-list li") == [], "an empty title did not delete")
    assert client_state(browser)["todos"]["todos"] == []
    assert browser.switch_to.active_element.get_attribute("id") == "todo-new"


def test_contacts_sheet_alert_and_drill_down_follow_the_state(server, browser):
    open_page(browser, server, "contacts")
    sheet = browser.find_element(By.ID, "contact-sheet")
    # Add: the server presents the sheet; saving dismisses it from an effect.
    browser.find_element(By.ID, "contact-add").click()
    wait(browser, lambda d: sheet.get_attribute("open") is not None, "the sheet never opened")
    assert client_state(browser)["contacts"]["destination"]["addContact"]["name"] == ""
    browser.find_element(By.ID, "contact-name").send_keys("Blob")
    wait(browser, lambda d: (client_state(d)["contacts"]["destination"] or {}).get("addContact", {}).get("name") == "Blob",
         "the name binding never reached the server")
    browser.find_element(By.ID, "contact-save").click()
    wait(browser, lambda d: sheet.get_attribute("open") is None, "saving did not close the sheet")
    wait(browser, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#contact-list .contact-open")] == ["Blob"],
         "the saved contact never appeared")
    assert client_state(browser)["contacts"]["destination"] is None

    # Escape asks the server to dismiss; it does.
    browser.find_element(By.ID, "contact-add").click()
    wait(browser, lambda d: sheet.get_attribute("open") is not None, "the sheet never opened again")
    browser.find_element(By.ID, "contact-name").send_keys(Keys.ESCAPE)
    wait(browser, lambda d: sheet.get_attribute("open") is None and client_state(d)["contacts"]["destination"] is None,
         "Escape did not dismiss the sheet")

    # Drill down, then back through the pushed page's own effect (dismiss pops it).
    browser.find_element(By.CSS_SELECTOR, "#contact-list .contact-open").click()
    wait(browser, lambda d: d.find_element(By.ID, "contact-detail-name").text == "Blob", "the detail page never showed")
    assert [element["id"] for element in client_state(browser)["contacts"]["path"]] == [0]
    browser.find_element(By.ID, "contact-back").click()
    wait(browser, lambda d: client_state(d)["contacts"]["path"] == [] and d.find_element(By.ID, "contact-detail").get_attribute("hidden"),
         "Back did not pop the page")

    # Delete asks first: Keep dismisses the alert, Delete removes the contact.
    alert = browser.find_element(By.ID, "contact-alert")
    browser.find_element(By.CSS_SELECTOR, "#contact-list .contact-delete").click()
    wait(browser, lambda d: alert.get_attribute("open") is not None, "the alert never opened")
    assert browser.find_element(By.ID, "contact-alert-title").text == "Delete Blob?"
    alert.find_element(By.XPATH, './/button[text()="Keep"]').click()
    wait(browser, lambda d: alert.get_attribute("open") is None, "Keep did not close the alert")
    assert len(client_state(browser)["contacts"]["contacts"]) == 1
    browser.find_element(By.CSS_SELECTOR, "#contact-list .contact-delete").click()
    wait(browser, lambda d: alert.get_attribute("open") is not None, "the alert never opened again")
    alert.find_element(By.XPATH, './/button[text()="Delete"]').click()
    wait(browser, lambda d: alert.get_attribute("open") is None and client_state(d)["contacts"]["contacts"] == [],
         "Delete did not remove the contact")


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

    # A session this browser holds no token for is not replaced behind the user's back: the
    # page says it has ended. A new one starts on request, and the URL follows.
    second_browser.get(f"{server.url}/?session={own}#/counter")
    wait_for_status(second_browser, "ended")
    assert second_browser.find_element(By.ID, "ended").is_displayed()
    assert session_id(second_browser) is None
    second_browser.find_element(By.ID, "ended-restart").click()
    wait_for_status(second_browser, "open")
    replacement = session_id(second_browser)
    assert replacement not in (None, own)
    assert f"session={replacement}" in second_browser.current_url
    assert session_id(browser) == own


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


def test_tabs_keep_their_sessions_when_one_starts_a_new_one(server, second_browser):
    # One browser, three tabs, each its own session (one cookie per session).
    tabs = {}
    for name, clicks in (("a", 1), ("b", 2), ("c", 3)):
        handle = open_tab(second_browser, f"{server.url}/#/counter")
        wait_for_status(second_browser, "open")
        wait_for_text(second_browser, "counter-count", "0")
        click_times(second_browser, "counter-increment", clicks)
        wait_for_text(second_browser, "counter-count", str(clicks))
        tabs[name] = (handle, session_id(second_browser))
    assert len({session for _, session in tabs.values()}) == 3, tabs

    # "New session" in tab b.
    second_browser.switch_to.window(tabs["b"][0])
    open_page(second_browser, server, "debug")
    second_browser.find_element(By.ID, "debug-new-session").click()
    wait(second_browser, expected_conditions.alert_is_present(), "no confirmation was asked")
    second_browser.switch_to.alert.accept()
    wait(second_browser, lambda d: session_id(d) not in (None, tabs["b"][1]), "no new session started")
    wait_for_status(second_browser, "open")
    open_page(second_browser, server, "counter")
    wait_for_text(second_browser, "counter-count", "0")
    tabs["b"] = (tabs["b"][0], session_id(second_browser))

    # The others kept theirs, and each tab's clicks go to its own session.
    for name, before in (("a", 1), ("b", 0), ("c", 3)):
        handle, session = tabs[name]
        second_browser.switch_to.window(handle)
        wait_for_status(second_browser, "open")
        assert session_id(second_browser) == session, f"tab {name} changed sessions"
        wait_for_text(second_browser, "counter-count", str(before))
        second_browser.find_element(By.ID, "counter-increment").click()
        wait_for_text(second_browser, "counter-count", str(before + 1))
        assert server_count(second_browser) == before + 1


def test_two_tabs_opened_together_on_a_first_visit(server, second_browser):
    # A fresh browser opens two tabs at once: both create sessions at the same moment.
    blank = second_browser.current_window_handle
    second_browser.execute_script("window.open(arguments[0]); window.open(arguments[0])", f"{server.url}/#/counter")
    wait(second_browser, lambda d: len(d.window_handles) == 3, "the two tabs did not open")
    tabs = [handle for handle in second_browser.window_handles if handle != blank]
    sessions = []
    for handle in tabs:
        second_browser.switch_to.window(handle)
        wait_for_status(second_browser, "open")
        sessions.append(session_id(second_browser))
    assert None not in sessions and sessions[0] != sessions[1], sessions

    # After a reload each tab still has its session, and both work.
    for clicks, (handle, session) in enumerate(zip(tabs, sessions), start=1):
        second_browser.switch_to.window(handle)
        second_browser.refresh()
        wait_for_status(second_browser, "open")
        assert session_id(second_browser) == session
        click_times(second_browser, "counter-increment", clicks)
        wait_for_text(second_browser, "counter-count", str(clicks))
    for clicks, handle in enumerate(tabs, start=1):
        second_browser.switch_to.window(handle)
        assert server_count(second_browser) == clicks


def test_presence_counts_the_tabs_on_a_session(server, second_browser):
    open_page(second_browser, server, "counter")
    first = second_browser.current_window_handle
    session = session_id(second_browser)

    def wait_for_presence(expected):
        wait(second_browser,
             lambda d: d.find_element(By.CSS_SELECTOR, '.presence [data-presence="session"]').text == expected,
             f"the header never read {expected!r}")

    wait_for_presence("1 tab on this session")
    # A page left for another (kept in the back/forward cache) stops counting, and counts
    # again once it is back.
    second_browser.get(f"{server.url}/?session={session}#/counter")
    wait_for_status(second_browser, "open")
    wait_for_presence("1 tab on this session")
    second_browser.back()
    wait_for_presence("1 tab on this session")
    assert session_id(second_browser) == session
    second_browser.find_element(By.ID, "counter-increment").click()
    wait_for_text(second_browser, "counter-count", "1")  # its stream is live again

    # "Open in another tab" joins this session in a new tab.
    second_browser.find_element(By.CSS_SELECTOR, "footer [data-open-tab]").click()
    wait(second_browser, lambda d: len(d.window_handles) == 2, "no tab opened")
    second = next(handle for handle in second_browser.window_handles if handle != first)
    second_browser.switch_to.window(second)
    open_page(second_browser, server, "shared")
    assert session_id(second_browser) == session
    wait_for_presence("2 tabs on this session")
    presence = second_browser.execute_script("return window.storehost.presence")
    assert presence["session"] == 2 and presence["everyone"] >= 2, presence
    watching = second_browser.find_element(By.ID, "shared-watching")
    wait(second_browser, lambda d: re.fullmatch(r"\d+ watching the shared counter right now", watching.text),
         f"the Shared page reads {watching.text!r}")

    second_browser.switch_to.window(first)
    wait_for_presence("2 tabs on this session")
    second_browser.find_element(By.ID, "counter-increment").click()
    second_browser.switch_to.window(second)
    wait(second_browser, lambda d: client_state(d)["counter"]["count"] == 2, "the other tab did not see the click")
    second_browser.close()
    second_browser.switch_to.window(first)
    wait_for_presence("1 tab on this session")


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


def test_an_ended_session_says_so_and_a_new_one_starts_on_request(server, browser):
    open_page(browser, server, "counter")
    old = session_id(browser)
    # End the session behind the page's back, as an idle eviction would.
    answer = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/sessions/' + arguments[0], {method: 'DELETE'}).then(r => done(r.status), e => done(String(e)));",
        old)
    assert answer == 204, answer
    wait_for_status(browser, "ended")
    notice = browser.find_element(By.ID, "ended")
    assert notice.is_displayed() and "This session has ended" in notice.text
    assert browser.switch_to.active_element.get_attribute("id") == "ended-restart"
    assert browser.execute_script("return document.getElementById('main').inert") is True
    assert session_id(browser) == old, "the ended session was replaced"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "ended-desktop.png"))

    browser.find_element(By.ID, "ended-restart").click()
    wait_for_status(browser, "open")
    assert session_id(browser) not in (None, old)
    assert not notice.is_displayed()
    wait_for_text(browser, "counter-count", "0")
    browser.find_element(By.ID, "counter-increment").click()
    wait_for_text(browser, "counter-count", "1")
    assert browser.execute_script("return sessionStorage.getItem('storehost.session')") == session_id(browser)


def test_clicks_during_a_restart_and_past_the_rate_limit_are_applied_once(server, browser):
    # A second tab whose session never changed must survive the restart too.
    main_tab = browser.current_window_handle
    open_tab(browser, f"{server.url}/#/counter")
    wait_for_status(browser, "open")
    untouched = session_id(browser)
    browser.close()
    browser.switch_to.window(main_tab)

    open_page(browser, server, "counter")
    session = session_id(browser)
    before = count(browser)

    # The first two answers get lost on their way back, as when a connection drops just after
    # the server applied the send: the page sends it again (with the same key).
    browser.execute_script("""
        const fetch = window.fetch;
        let lose = 2;
        window.fetch = async (url, init) => {
          const answer = await fetch(url, init);
          if (String(url).endsWith('/actions') && answer.status === 202 && lose-- > 0) throw new TypeError('lost');
          return answer;
        };""")
    # 50 clicks at once: past the burst of 40, so some wait out a 429 (Retry-After).
    click_times(browser, "counter-increment", 50)
    assert pending_count(browser) > 0
    server.stop()  # while the queue is being sent
    wait(browser, lambda d: status(d) in ("reconnecting", "connecting"), "the page did not notice the server stopped")
    assert text_of(browser, "connection-text") != "Live"
    # Clicks while the server is down wait in the queue, and the page says so.
    for _ in range(10):
        browser.find_element(By.ID, "counter-increment").click()
    banner = browser.find_element(By.ID, "offline-banner")
    assert banner.is_displayed()
    waiting = pending_count(browser)
    assert waiting >= 10
    wait(browser, lambda d: f"Your {waiting} changes will be sent" in banner.text, f"the banner reads {banner.text!r}")
    assert text_of(browser, "pending") == f"Sending {waiting}…"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "reconnecting-desktop.png"))
    server.start()

    wait_for_status(browser, "open")
    wait(browser, lambda d: pending_count(d) == 0, "the queued clicks were never all answered")
    assert session_id(browser) == session, "the session did not survive the restart"
    wait_for_text(browser, "counter-count", str(before + 60))
    assert server_count(browser) == before + 60, "a click was lost or applied twice"
    assert not browser.find_element(By.ID, "pending").is_displayed()
    assert not banner.is_displayed()

    open_tab(browser, f"{server.url}/?session={untouched}#/counter")
    wait_for_status(browser, "open")
    assert session_id(browser) == untouched, "a session never changed was lost in the restart"
    browser.close()
    browser.switch_to.window(main_tab)


def server_state(driver):
    """The session's state as the server has it now, read by this page with its cookie."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/sessions/' + window.storehost.sessionId).then(r => r.json())"
        ".then(s => done(s), e => done(String(e)));")


def test_after_kill_9_the_page_ends_on_the_servers_state(server, browser):
    # Fast durability loses the last fraction of a second of actions to kill -9; the page,
    # which saw them, must come back to what the server kept, never stay on a lost state.
    for trial in range(3):
        open_page(browser, server, "counter")
        click_times(browser, "counter-increment", 5 + 10 * trial)
        wait(browser, lambda d: pending_count(d) == 0, "the clicks were never all answered")
        server.kill()
        wait(browser, lambda d: status(d) in ("reconnecting", "connecting"), "the page did not notice the kill")
        server.start()
        wait_for_status(browser, "open")
        click_times(browser, "counter-increment", 3)
        wait(browser, lambda d: pending_count(d) == 0, "the clicks after the restart were never all answered")
        final = server_state(browser)
        wait(browser, lambda d: client_state(d) == final["state"],
             f"trial {trial}: the page shows {client_state(browser)}, the server has {final['state']}")
        wait_for_text(browser, "counter-count", str(final["state"]["counter"]["count"]))

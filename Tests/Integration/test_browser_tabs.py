"""Many tabs of the demo in one headless Chromium, on plain HTTP/1.1, against a storehost of
their own: the tabs share one event stream, so the browser's six connections per server
are never all taken; tabs sharing a session see each other's clicks; closing tabs, the one
holding the stream among them, keeps the others live; "New session" in one tab leaves the
others on theirs. Needs what test_browser.py needs.
"""
import re
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

# `server` is test_browser's module fixture: this module gets a storehost of its own.
from test_browser import new_browser, server, session_id, status, text_of, wait, wait_for_status  # noqa: F401

TABS = 12
SESSIONS = 4  # tabs 0-3 start one each; tab i joins the session of tab i % 4


@pytest.fixture
def browser():
    driver = new_browser()
    yield driver
    driver.quit()


def metric(server, name):
    text = urllib.request.urlopen(server.url + "/metrics", timeout=5).read().decode()
    return int(re.search(rf"^{name} (\d+)$", text, re.M).group(1))


def open_tab(driver, url, without=()):
    """Opens `url` in a new tab, where the browser APIs named in `without` do not exist."""
    driver.switch_to.new_window("tab")
    if without:
        script = "".join(f"delete window.{name};" for name in without)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    driver.get(url)
    return driver.current_window_handle


def wait_for_count(driver, handle, expected):
    driver.switch_to.window(handle)
    wait(driver, lambda d: text_of(d, "counter-count") == str(expected),
         f"tab {handle} never showed {expected} (it shows {text_of(driver, 'counter-count')})")


def click(driver, handle):
    driver.switch_to.window(handle)
    driver.find_element(By.ID, "counter-increment").click()


def twelve_tabs(driver, server, without=()):
    """Opens the tabs; returns {handle: session}, in the order they opened."""
    tabs = {}
    for index in range(TABS):
        joined = "" if index < SESSIONS else f"?session={list(tabs.values())[index % SESSIONS]}"
        handle = open_tab(driver, f"{server.url}/{joined}#/counter", without)
        wait_for_status(driver, "open")
        tabs[handle] = session_id(driver)
    assert len(set(tabs.values())) == SESSIONS, tabs
    return tabs


def check_tabs_stay_live(driver, server, without, streams):
    """The scenario of the tests below: `streams` is how many event streams the tabs hold."""
    blank = driver.current_window_handle
    tabs = twelve_tabs(driver, server, without)
    driver.switch_to.window(blank)
    driver.close()
    watches = SESSIONS if streams == 1 else TABS
    wait(driver, lambda d: metric(server, "storehost_http_event_streams") == streams,
         f"the tabs do not hold {streams} event stream(s)")
    assert metric(server, "storehost_event_stream_clients") == watches

    # Every tab's click is applied, and reaches the other tabs on its session.
    for handle in tabs:
        click(driver, handle)
    per_session = TABS // SESSIONS
    for handle in tabs:
        wait_for_count(driver, handle, per_session)
    counts = {session: per_session for session in tabs.values()}

    # Close tabs in a mixed order: the first (which started the shared worker, or leads) and
    # the second (next in line to lead), then others. After each, a tab left on the closed
    # tab's session clicks, and every tab left on that session sees it.
    order = list(tabs)
    for closing in [order[0], order[1], order[11], order[6], order[3], order[8], order[5]]:
        session = tabs.pop(closing)
        driver.switch_to.window(closing)
        driver.close()
        remaining = [handle for handle, other in tabs.items() if other == session]
        if not remaining:
            continue
        click(driver, remaining[0])
        counts[session] += 1
        for handle in remaining:
            wait_for_count(driver, handle, counts[session])
    # Every tab left is live, on every session.
    for handle, session in tabs.items():
        driver.switch_to.window(handle)
        assert status(driver) == "open" and session_id(driver) == session
        click(driver, handle)
        counts[session] += 1
    for handle, session in tabs.items():
        wait_for_count(driver, handle, counts[session])
    if streams == 1:
        wait(driver, lambda d: metric(server, "storehost_http_event_streams") == 1, "the tabs hold more than one stream")


def test_twelve_tabs_share_one_stream_in_a_shared_worker(server, browser):
    assert browser.execute_script("return typeof SharedWorker") == "function"
    check_tabs_stay_live(browser, server, without=(), streams=1)


def test_twelve_tabs_share_one_stream_held_by_a_leader_tab(server, browser):
    check_tabs_stay_live(browser, server, without=("SharedWorker",), streams=1)


def test_tabs_without_shared_workers_or_channels_each_watch_their_own(server, browser):
    blank = browser.current_window_handle
    tabs = [open_tab(browser, f"{server.url}/#/counter", ("SharedWorker", "BroadcastChannel")) for _ in range(3)]
    browser.switch_to.window(blank)
    browser.close()
    for clicks, handle in enumerate(tabs, start=1):
        browser.switch_to.window(handle)
        wait_for_status(browser, "open")
        for _ in range(clicks):
            click(browser, handle)
        wait_for_count(browser, handle, clicks)
    wait(browser, lambda d: metric(server, "storehost_http_event_streams") == 3, "the tabs do not hold a stream each")


def start_new_session(driver):
    open_page_without_reload(driver, "debug")
    driver.find_element(By.ID, "debug-new-session").click()
    wait(driver, expected_conditions.alert_is_present(), "no confirmation was asked")
    driver.switch_to.alert.accept()


def open_page_without_reload(driver, page):
    driver.execute_script("location.hash = arguments[0]", f"#/{page}")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'[data-page="{page}"]').is_displayed(),
         f"the {page} page did not show")


def test_new_session_in_one_tab_leaves_the_tabs_showing_its_session_on_it(server, browser):
    first = open_tab(browser, f"{server.url}/#/counter")
    wait_for_status(browser, "open")
    shared = session_id(browser)
    click(browser, first)
    wait_for_count(browser, first, 1)
    second = open_tab(browser, f"{server.url}/?session={shared}#/counter")
    wait_for_status(browser, "open")
    wait_for_count(browser, second, 1)
    own = open_tab(browser, f"{server.url}/#/counter")
    wait_for_status(browser, "open")
    own_session = session_id(browser)

    browser.switch_to.window(first)
    start_new_session(browser)
    wait(browser, lambda d: session_id(d) not in (None, shared), "no new session started")
    wait_for_status(browser, "open")
    open_page_without_reload(browser, "counter")
    wait_for_count(browser, first, 0)

    # The tab that shows the old session keeps it, live, and so does the tab with its own.
    browser.switch_to.window(second)
    assert status(browser) == "open" and session_id(browser) == shared
    assert not browser.find_element(By.ID, "ended").is_displayed()
    click(browser, second)
    wait_for_count(browser, second, 2)
    browser.switch_to.window(own)
    assert status(browser) == "open" and session_id(browser) == own_session
    click(browser, own)
    wait_for_count(browser, own, 1)
    # The new session's clicks stay in the new session.
    click(browser, first)
    wait_for_count(browser, first, 1)
    wait_for_count(browser, second, 2)

    # "New session" in the last tab showing it ends it on the server.
    browser.switch_to.window(second)
    start_new_session(browser)
    wait(browser, lambda d: session_id(d) not in (None, shared), "no new session started")
    gone = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/sessions/' + arguments[0]).then(r => done(r.status), e => done(String(e)));", shared)
    assert gone in (401, 404), gone


def test_a_tab_whose_session_another_tab_ended_says_so_and_offers_a_new_one(server, browser):
    first = open_tab(browser, f"{server.url}/#/counter")
    wait_for_status(browser, "open")
    shared = session_id(browser)
    second = open_tab(browser, f"{server.url}/?session={shared}#/counter")
    wait_for_status(browser, "open")

    # The first tab ends the session (as a page's own "end" button would).
    browser.switch_to.window(first)
    answer = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/sessions/' + arguments[0], {method: 'DELETE'}).then(r => done(r.status), e => done(String(e)));",
        shared)
    assert answer == 204, answer
    for handle in (first, second):
        browser.switch_to.window(handle)
        wait_for_status(browser, "ended")
        notice = browser.find_element(By.ID, "ended")
        assert notice.is_displayed() and "This session has ended" in notice.text
        assert "another tab" in notice.text

    browser.switch_to.window(second)
    browser.find_element(By.ID, "ended-restart").click()
    wait_for_status(browser, "open")
    assert session_id(browser) not in (None, shared)
    wait_for_count(browser, second, 0)
    click(browser, second)
    wait_for_count(browser, second, 1)
    # The first tab still says its session ended, until asked for a new one.
    browser.switch_to.window(first)
    assert status(browser) == "ended"


def test_the_leader_tab_navigating_away_and_back_keeps_every_tab_live(server, browser):
    without = ("SharedWorker",)
    leader = open_tab(browser, f"{server.url}/#/counter", without)
    wait_for_status(browser, "open")
    shared = session_id(browser)
    other = open_tab(browser, f"{server.url}/?session={shared}#/counter", without)
    wait_for_status(browser, "open")

    # The leader leaves for another page (kept in the back/forward cache, or unloaded).
    browser.switch_to.window(leader)
    browser.get(f"{server.url}/healthz")
    click(browser, other)
    wait_for_count(browser, other, 1)
    wait(browser, lambda d: metric(server, "storehost_http_event_streams") == 1, "the stream did not move to the other tab")

    # Back again, it watches too, through whichever tab leads now.
    browser.switch_to.window(leader)
    browser.back()
    wait_for_status(browser, "open")
    assert session_id(browser) == shared
    wait_for_count(browser, leader, 1)
    click(browser, leader)
    wait_for_count(browser, leader, 2)
    wait_for_count(browser, other, 2)

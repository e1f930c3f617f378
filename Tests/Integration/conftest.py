import sys
import threading
import time
from pathlib import Path

import pytest

# Lets test modules import the helpers next to them (storehost_server.py).
sys.path.insert(0, str(Path(__file__).parent))

# An exception in a thread a test started fails that test: the thread remembers the test
# that started it, and its uncaught exception is kept for that test's report. One raised
# after its test was reported fails the run at the end.
_current = {"test": None}
_raised = {}  # test node id -> [formatted exception]
_late = []
_lock = threading.Lock()
_start = threading.Thread.start


def _start_with_owner(thread, *args, **kwargs):
    thread._storehost_test = getattr(threading.current_thread(), "_storehost_test", None) or _current["test"]
    return _start(thread, *args, **kwargs)


def _record(args):
    test = getattr(args.thread, "_storehost_test", None)
    if test is None or args.exc_type is SystemExit:
        _previous_hook(args)
        return
    import traceback
    text = f"in thread {args.thread.name}:\n" + "".join(
        traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback))
    with _lock:
        if test == _current["test"]:
            _raised.setdefault(test, []).append(text)
        else:
            _late.append(f"{test}, {text}")


_previous_hook = threading.excepthook


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    global _previous_hook
    _previous_hook = threading.excepthook
    threading.excepthook = _record
    threading.Thread.start = _start_with_owner


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item):
    _current["test"] = item.nodeid
    try:
        return (yield)
    finally:
        with _lock:
            _current["test"] = None
            _late.extend(f"{item.nodeid}, {text}" for text in _raised.pop(item.nodeid, []))


def _fail_for_threads(item):
    with _lock:
        failures = _raised.pop(item.nodeid, [])
    if failures:
        pytest.fail("an exception in a thread the test started:\n" + "\n".join(failures), pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    # A thread that failed as the test body returned has a moment to be reported.
    time.sleep(0.05)
    _fail_for_threads(item)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item):
    result = yield
    _fail_for_threads(item)
    return result


def pytest_sessionfinish(session):
    if _late:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter):
    if _late:
        terminalreporter.section("exceptions in threads after their test ended")
        for text in _late:
            terminalreporter.write_line(text)

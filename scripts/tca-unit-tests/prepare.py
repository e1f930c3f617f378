#!/usr/bin/env python3
"""Makes a scratch package that runs TCA's own unit tests against StoreHost.

Usage: prepare.py <TCA checkout> <StoreHost checkout> <scratch folder>
       prepare.py --package <scratch folder> <StoreHost checkout> <target>...  (manifest only)

Each file of the checkout's Tests/ComposableArchitectureTests becomes a test target of its
own, with only mechanical edits: Apple-only imports dropped, `@testable` dropped from imports
(`@_spi(...)` kept) (and `XCTExpectFailure` imported from XCTestDynamicOverlay where a file has it
from XCTest alone), test functions that use Combine, Combine schedulers, `ViewStore`, SwiftUI or
`os.signpost` removed (listed in removed.txt), with a test class's `Set<AnyCancellable>`
property and the helpers whose signature names such a type (`_ view: some View`), synchronous `@MainActor` test methods made `async` (Linux XCTest does not discover them), waits
without a timeout given one (Linux XCTest has no default), and `BaseTCATestCase` replaced by
`XCTestCase`. StoreHost is a dependency with its `URLSession` trait on, as an app that uses
`@Dependency(\\.urlSession)` on Linux has it. The shared helper file (`Internal/TestHelpers.swift`) goes into the targets that use it.
Free `test...` functions outside a test class are compile-time checks (no runner calls
them): inventory.json lists them as compile_only, and summarize.py counts them as passing
when their file compiles.
Nothing of TCA is kept in this script: it reads the checkout given to it.
"""

import json
import os
import re
import shutil
import sys

APPLE_ONLY_IMPORTS = {"Combine", "CombineSchedulers", "SwiftUI", "os.signpost", "os", "UIKit", "AppKit"}

# A test function whose body mentions one of these uses Combine, a Combine scheduler,
# ViewStore, SwiftUI or os.signpost.
NON_PORTABLE = [
    r"\bAnyCancellable\b", r"\.sink\b", r"\bPassthroughSubject\b", r"\bCurrentValueSubject\b",
    r"\bJust\(", r"\.publisher\b", r"\bPublishers\b", r"\bcancellables\b", r"eraseToAnyPublisher",
    r"\bFuture\b", r"\bDeferred\b", r"\bCurrentValueRelay\b", r"\bpublisher\b",
    r"\bscheduler\b", r"\bScheduler\b", r"\bAnySchedulerOf\b", r"DispatchQueue\.test",
    r"\.receive\(on:", r"\bTestSchedulerOf\b", r"\bmainQueue\b", r"\bRunLoop\b",
    r"\bViewStore\b", r"\bviewStore\b", r"\bWithViewStore\b", r"\bViewStoreOf\b",
    r"\bSwiftUI\b", r"\bwithAnimation\b", r"\bTransaction\b", r"\bAnimation\b", r"\bBinding<",
    r"\bUIHostingController\b", r"\bsome View\b", r"\bsignpost\b", r"\bOSLog\b",
]
NON_PORTABLE_RE = re.compile("|".join(NON_PORTABLE))
# A test class's stored property of Combine subscriptions, which only removed tests use.
COMBINE_PROPERTY = re.compile(r"^\s*var \w+: Set<AnyCancellable> = \[\]\s*$")
TEST_DECL = re.compile(r"^(\s*)((?:@[\w()., :\"]+\s+)*)(?:public\s+)?func (test\w*)\s*\(\s*\)\s*((?:async\s*)?(?:throws\s*)?)\{", re.M)


def matching_brace(text, open_index):
    """The index just past the brace that closes the one at open_index, skipping strings and comments."""
    depth = 0
    i = open_index
    n = len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                return n
            continue
        if text.startswith("/*", i):
            i = text.find("*/", i) + 2
            continue
        if text.startswith('"""', i):
            i = text.find('"""', i + 3) + 3
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def edit(text, main_actor_file):
    lines = []
    for line in text.split("\n"):
        m = re.match(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+([\w.]+)\s*$", line)
        if m:
            if m.group(1) in APPLE_ONLY_IMPORTS:
                continue
            # `@_spi(...)` stays: TCA's tests import its SPI, which StoreHost declares where it has it.
            spi = re.findall(r"@_spi\(\w+\)", line)
            line = " ".join(spi + ["import " + m.group(1)])
        if COMBINE_PROPERTY.match(line):
            continue
        lines.append(line)
    text = "\n".join(lines).replace("BaseTCATestCase", "XCTestCase")
    # Darwin's XCTest waits without a timeout (its default is `.infinity`); Linux's has no
    # default. Such a wait gets a bounded one, so that an unfulfilled expectation fails the
    # test instead of hanging the run.
    text = re.sub(r"\b(wait\(for|fulfillment\(of): (\[[^\]\n]*\])\)", r"\1: \2, timeout: 5)", text)

    removed, kept, compile_only = [], [], []
    out = []
    pos = 0
    for m in TEST_DECL.finditer(text):
        if m.start() < pos:
            continue
        start = m.start()
        # Attributes on the lines just above belong to the function.
        line_start = text.rfind("\n", 0, start) + 1
        while True:
            prev_end = line_start - 1
            if prev_end <= 0:
                break
            prev_start = text.rfind("\n", 0, prev_end) + 1
            if re.match(r"^\s*@\w+(\([^)]*\))?\s*$", text[prev_start:prev_end]):
                line_start = prev_start
            else:
                break
        body_open = m.end() - 1
        end = matching_brace(text, body_open)
        name = m.group(3)
        body = text[m.end():end]
        out.append(text[pos:line_start])
        if NON_PORTABLE_RE.search(body) or NON_PORTABLE_RE.search(text[line_start:m.end()]):
            removed.append(name)
        else:
            kept.append(name)
            if m.group(1).split("\n")[-1] == "":  # (the match may begin on a blank line above)
                # A free function (ReducerBuilderTests'): no test runner calls it; it checks
                # that its body compiles.
                compile_only.append(name)
            decl = text[line_start:end]
            effects = m.group(4)
            is_main_actor = main_actor_file or "@MainActor" in text[line_start:m.end()]
            if "async" not in effects and is_main_actor:
                head = text[line_start:m.end()]
                head = re.sub(r"\)\s*(throws\s*)?\{$", lambda mm: ") async " + (mm.group(1) or "") + "{", head)
                decl = head + text[m.end():end]
            out.append(decl)
        pos = end
    out.append(text[pos:])
    return remove_non_portable_helpers("".join(out)), kept, removed, compile_only


# A helper function (not a test), with the attributes on the lines above it.
HELPER_DECL = re.compile(
    r"^([ \t]*(?:@\w+(?:\([^)]*\))?[ \t]*\n)*)[ \t]*(?:(?:private|fileprivate|static)\s+)*func (?!test)\w+[^{\n]*\{", re.M)


def remove_non_portable_helpers(text):
    """Removes the helpers whose signature names a non-portable type (`_ view: some View`):
    only the removed tests could call them."""
    out, pos = [], 0
    for m in HELPER_DECL.finditer(text):
        if m.start() < pos or not NON_PORTABLE_RE.search(m.group(0)):
            continue
        end = matching_brace(text, m.end() - 1)
        out.append(text[pos:m.start()])
        pos = end
    out.append(text[pos:])
    return "".join(out)


def import_overlay(text):
    """A file that uses XCTExpectFailure with only `import XCTest` (Darwin's XCTest has it)
    imports it from XCTestDynamicOverlay, as Linux code does."""
    if "XCTExpectFailure" in text and not re.search(r"^(?:@_spi\(\w+\) )*import (ComposableArchitecture|XCTestDynamicOverlay)$", text, re.M):
        text = re.sub(r"^import XCTest$", "import XCTest\nimport XCTestDynamicOverlay", text, count=1, flags=re.M)
    return text


def main():
    if sys.argv[1] == "--package":
        scratch, storehost = os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
        write_package(scratch, storehost, sys.argv[4:])
        return
    tca, storehost, scratch = (os.path.abspath(p) for p in sys.argv[1:4])
    tests = os.path.join(tca, "Tests", "ComposableArchitectureTests")
    helper = os.path.join(tests, "Internal", "TestHelpers.swift")
    if os.path.exists(os.path.join(scratch, "Tests")):
        shutil.rmtree(os.path.join(scratch, "Tests"))
    os.makedirs(scratch, exist_ok=True)
    inventory = {}
    for root, _, files in os.walk(tests):
        if os.path.basename(root) == "Internal":
            continue
        for f in sorted(files):
            if not f.endswith(".swift"):
                continue
            name = f[:-len(".swift")]
            with open(os.path.join(root, f)) as src:
                text = src.read()
            main_actor_file = bool(re.search(r"^@MainActor\s*\n?\s*(final\s+)?class", text, re.M))
            edited, kept, removed, compile_only = edit(text, main_actor_file)
            target = os.path.join(scratch, "Tests", name)
            os.makedirs(target)
            with open(os.path.join(target, f), "w") as dst:
                dst.write(edited)
            if "XCTTODO" in edited:
                with open(helper) as src, open(os.path.join(target, "TestHelpers.swift"), "w") as dst:
                    dst.write(import_overlay(src.read()))
            inventory[name] = {"kept": kept, "removed": removed, "compile_only": compile_only}
    with open(os.path.join(scratch, "inventory.json"), "w") as out:
        json.dump(inventory, out, indent=1, sort_keys=True)
    write_package(scratch, storehost, sorted(inventory))


def write_package(scratch, storehost, names):
    """The scratch package's manifest, with a test target for each of `names`."""
    with open(os.path.join(scratch, "Package.swift"), "w") as out:
        out.write(PACKAGE.replace("@STOREHOST@", storehost).replace("@NAMES@", json.dumps(names)))


PACKAGE = """// swift-tools-version: 6.1
import PackageDescription

let names: [String] = @NAMES@

let package = Package(
  name: "TCAUnitTests",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "StoreHost", path: "@STOREHOST@", traits: ["URLSession"])],
  targets: names.map {
    .testTarget(
      name: $0,
      dependencies: [
        .product(name: "ComposableArchitecture", package: "StoreHost"),
        .product(name: "ComposableTesting", package: "StoreHost"),
        .product(name: "XCTestDynamicOverlay", package: "StoreHost"),
      ],
      swiftSettings: [
        .swiftLanguageMode(.v5), .enableExperimentalFeature("StrictConcurrency"),
        .enableUpcomingFeature("InferSendableFromCaptures"), .enableUpcomingFeature("ExistentialAny"),
      ])
  }
)
"""

if __name__ == "__main__":
    main()

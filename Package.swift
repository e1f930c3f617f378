// swift-tools-version: 6.1
import CompilerPluginSupport
import Foundation
import PackageDescription

/// Where the macro plugin finds swift-syntax.
///
/// Built from a clone (as the root package, or by path from another package), it uses the
/// toolchain's own modules in `<toolchain>/usr/lib/swift/host`, found from the `swiftc` on
/// PATH, so nothing is fetched. Those need unsafe flags, which SwiftPM refuses in a package
/// required by version, so a checkout of a dependency (`.../checkouts/StoreHost`) depends
/// on the swift-syntax package instead: fetched where there is a network, or replaced by the
/// offline stand-in in `scripts/swift-syntax` (see Sources/StoreHost/StoreHost.docc/GettingStarted.md, "Depending on StoreHost").
let isDependencyCheckout = Context.packageDirectory.split(separator: "/").contains("checkouts")

let toolchainHostLibraries: String = {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  for directory in path.split(separator: ":") {
    let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
    guard FileManager.default.fileExists(atPath: candidate.path) else { continue }
    let toolchainBin = candidate.resolvingSymlinksInPath().deletingLastPathComponent()
    return toolchainBin.deletingLastPathComponent().appendingPathComponent("lib/swift/host").path
  }
  return "/usr/lib/swift/host"
}()

/// What a target using the toolchain's swift-syntax modules compiles and links with.
let toolchainSyntaxFlags: (swift: [SwiftSetting], linker: [LinkerSetting]) = (
  [.unsafeFlags(["-I", toolchainHostLibraries])],
  [.unsafeFlags(["-L", toolchainHostLibraries, "-Xlinker", "-rpath", "-Xlinker", toolchainHostLibraries])]
)

/// Release builds of the package's own library modules offer their code to the modules
/// that use them (cross-module optimization): a host's generic session, store and reducer
/// code is then specialized for the app's `State` and `Action` (Counter actions: 15% less
/// CPU, BENCHMARKS.md). An unsafe flag, so not in a dependency checkout, where an app may
/// pass `-Xswiftc -cross-module-optimization` itself.
let releaseOptimization: [SwiftSetting] =
  isDependencyCheckout ? [] : [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

/// Release builds of the HTTP module skip Swift's run-time exclusivity checks. A connection's
/// state is touched only on its event loop's thread, and each property access otherwise costs
/// a check against a thread-local access set: 3% of a tiny GET's CPU (BENCHMARKS.md). Debug
/// builds, which the tests run, keep the checks.
let httpReleaseSettings: [SwiftSetting] =
  releaseOptimization
  + (isDependencyCheckout ? [] : [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))])

let macroPlugin: Target =
  isDependencyCheckout
  ? .macro(
    name: "ComposableMacrosPlugin",
    dependencies: [
      .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
      .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
    ])
  : .macro(
    name: "ComposableMacrosPlugin", swiftSettings: toolchainSyntaxFlags.swift, linkerSettings: toolchainSyntaxFlags.linker)

/// The generated source of the macros, compared with what it should be: only in a clone,
/// whose toolchain has the expansion library.
let macroTests: [Target] =
  isDependencyCheckout
  ? []
  : [
    .testTarget(
      name: "ComposableMacrosPluginTests", dependencies: ["ComposableMacrosPlugin"],
      swiftSettings: toolchainSyntaxFlags.swift, linkerSettings: toolchainSyntaxFlags.linker)
  ]

/// Modules named as the libraries TCA apps import, so a file ports with its imports unchanged.
/// Each re-exports `Composable`: the same types as under `ComposableArchitecture`, and no
/// host linked (ARCHITECTURE.md, "Modules named as TCA's").
let tcaNamedModules = [
  "CasePaths", "Clocks", "ConcurrencyExtras", "CustomDump", "Dependencies", "IdentifiedCollections",
  "IssueReporting", "Sharing", "XCTestDynamicOverlay",
]

let package = Package(
  name: "StoreHost",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "StoreHostJSON", targets: ["StoreHostJSON"]),
    .library(name: "Composable", targets: ["Composable"]),
    .library(name: "ComposableArchitecture", targets: ["ComposableArchitecture"]),
    .library(name: "ComposableTesting", targets: ["ComposableTesting"]),
    .library(name: "DependenciesMacros", targets: ["DependenciesMacros"]),
    .library(name: "HTTP", targets: ["HTTP"]),
    .library(name: "StoreHost", targets: ["StoreHost"]),
    .library(name: "StoreHostPostgres", targets: ["StoreHostPostgres"]),
    // The demo's features, for a test exported from a demo session's history.
    .library(name: "StoreHostDemo", targets: ["StoreHostDemo"]),
    .executable(name: "storehost", targets: ["storehost"]),
  ] + tcaNamedModules.map { .library(name: $0, targets: [$0]) },
  traits: [
    .trait(
      name: "URLSession",
      description: "Declares `@Dependency(\\.urlSession)` and re-exports FoundationNetworking, which links libcurl.")
  ],
  dependencies: isDependencyCheckout
    ? [.package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"700.0.0")] : [],
  targets: [
    // Layer 0: JSON values, parsing, one-pass writing, decoding and diffing. No I/O.
    .target(name: "StoreHostJSON", swiftSettings: releaseOptimization),
    // Layer 1: the architecture. No I/O, no macros: usable by any Swift program.
    .target(name: "Composable", dependencies: ["StoreHostJSON"], swiftSettings: releaseOptimization),
    macroPlugin,
    // `Dependencies` plus `@DependencyClient` and `@DependencyEndpoint`.
    .target(
      name: "DependenciesMacros", dependencies: ["Dependencies", "ComposableMacrosPlugin"], swiftSettings: releaseOptimization),
    // `Composable` plus the `@Reducer` / `@CasePathable` / `@ObservableState` macros.
    .target(
      name: "ComposableArchitecture",
      dependencies: ["Composable", "DependenciesMacros", "ComposableMacrosPlugin"] + tcaNamedModules.map { .target(name: $0) },
      swiftSettings: releaseOptimization),
    // Layer 2: TestStore's failures under XCTest and Swift Testing (TestStore itself is in
    // Composable); installed as the test process loads, by the C constructor.
    .target(name: "CComposableTestingHook"),
    .target(name: "ComposableTesting", dependencies: ["Composable", "CComposableTestingHook"]),
    // Layer 3: HTTP/1.1 on the system's sockets. Knows nothing about stores.
    .target(name: "CSystemShim"),
    .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
    .target(name: "HTTP", dependencies: ["CSystemShim", "COpenSSL"], swiftSettings: httpReleaseSettings),
    // Layer 4: sessions hosting root stores behind the wire protocol.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .target(
      name: "StoreHost",
      dependencies: ["StoreHostJSON", "Composable", "HTTP", "COpenSSL", "CSQLite", "CSystemShim"],
      // Says the client's .js files are ES modules, to Node (its unit tests) and other tools.
      exclude: ["BrowserClient/package.json"],
      swiftSettings: releaseOptimization,
      plugins: ["EmbedBrowserClient"]),
    // The browser client (Sources/StoreHost/BrowserClient/*.js, *.d.ts) built into StoreHost.
    .executableTarget(name: "EmbedFiles", path: "Plugins/EmbedFiles"),
    .plugin(name: "EmbedBrowserClient", capability: .buildTool(), dependencies: ["EmbedFiles"]),
    // Sessions shared by several processes through PostgreSQL: the only target that needs libpq.
    .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    .target(
      name: "StoreHostPostgres", dependencies: ["StoreHost", "Composable", "HTTP", "CLibPQ"], swiftSettings: releaseOptimization),
    // Layer 5: the demo features and the `storehost` command.
    // The demo's client, in a module importing only Dependencies and DependenciesMacros.
    .target(
      name: "StoreHostDemoClients", dependencies: ["Dependencies", "DependenciesMacros"], swiftSettings: releaseOptimization),
    .target(
      name: "StoreHostDemo", dependencies: ["ComposableArchitecture", "StoreHostDemoClients"], swiftSettings: releaseOptimization),
    .executableTarget(name: "storehost", dependencies: ["StoreHost", "StoreHostPostgres", "StoreHostDemo"]),
    .executableTarget(
      name: "ComposableBenchmarks", dependencies: ["ComposableArchitecture"], path: "Benchmarks/ComposableBenchmarks"),
    // The session host serving Counter alone, for Benchmarks/sessions.
    .executableTarget(
      name: "storehost-counter-server", dependencies: ["StoreHost", "ComposableArchitecture"],
      path: "Benchmarks/sessions/CounterServer"),
    // Encoding and diffing the demo's state, against Foundation's JSONEncoder.
    .executableTarget(
      name: "StoreHostEncodingBenchmarks", dependencies: ["StoreHostDemo"], path: "Benchmarks/encoding/Benchmark"),
    .executableTarget(
      name: "StoreHostPersistenceBenchmarks", dependencies: ["StoreHost"], path: "Benchmarks/persistence/Benchmark"),
    // A child process for StoreHostTests to kill -9 in the middle of strict saves.
    .executableTarget(
      name: "StoreHostCrashWriter", dependencies: ["StoreHost"], path: "Benchmarks/persistence/CrashWriter"),

    // A small server over `HTTP` for its benchmarks and integration scripts.
    .executableTarget(name: "http-example-server", dependencies: ["HTTP"], path: "Benchmarks/http/ExampleServer"),

    // What several test targets share: the JSON of before direct encoding, a seeded generator.
    .target(name: "JSONTestSupport", dependencies: ["StoreHostJSON"], path: "Tests/JSONTestSupport"),
    .testTarget(name: "StoreHostJSONTests", dependencies: ["StoreHostJSON", "JSONTestSupport"]),
    .testTarget(name: "ComposableTests", dependencies: ["Composable"]),
    .testTarget(
      name: "ComposableArchitectureTests", dependencies: ["ComposableArchitecture", "ComposableTesting", "JSONTestSupport"]),
    .testTarget(name: "ComposableTestingTests", dependencies: ["ComposableArchitecture", "ComposableTesting"]),
    .testTarget(name: "HTTPTests", dependencies: ["HTTP"]),
    // A client module importing only Dependencies and DependenciesMacros, and a feature
    // module with public types, as TCA apps split them.
    .target(name: "PortingClient", dependencies: ["Dependencies", "DependenciesMacros"], path: "Tests/PortingClient"),
    .target(name: "PortingFeature", dependencies: ["ComposableArchitecture", "PortingClient"], path: "Tests/PortingFeature"),
    // TCA's documented spellings, in both language modes a user's package may use: the
    // Swift 5 target compiles the same files (links to PortingTests').
    .testTarget(
      name: "PortingTests", dependencies: ["ComposableArchitecture", "ComposableTesting", "ConcurrencyExtras", "PortingClient", "PortingFeature"]),
    .testTarget(
      name: "PortingSwift5Tests",
      dependencies: ["ComposableArchitecture", "ComposableTesting", "ConcurrencyExtras", "PortingClient", "PortingFeature"],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    .testTarget(
      name: "StoreHostTests",
      dependencies: ["StoreHost", "StoreHostDemo", "StoreHostDemoClients", "ComposableTesting", "JSONTestSupport"]),
    .testTarget(name: "StoreHostPostgresTests", dependencies: ["StoreHostPostgres"]),
  ] + tcaNamedModules.map {
    .target(name: $0, dependencies: ["Composable"], path: "Sources/TCANamed/\($0)", swiftSettings: releaseOptimization)
  }
    + macroTests,
  swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.0
import PackageDescription

/// A poll that every browser edits at once: one shared board of choices and votes, hosted
/// by StoreHost. A package of its own, which requires StoreHost by path (the clone it sits
/// in); README.md says how to require it by version instead.
let package = Package(
  name: "Poll",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "StoreHost", path: "../..")],
  targets: [
    .target(name: "Poll", dependencies: [.product(name: "ComposableArchitecture", package: "StoreHost")]),
    .executableTarget(
      name: "poll-server",
      dependencies: [
        "Poll", .product(name: "StoreHost", package: "StoreHost"), .product(name: "HTTP", package: "StoreHost"),
      ]),
    .testTarget(
      name: "PollTests",
      dependencies: ["Poll", .product(name: "ComposableTesting", package: "StoreHost")]),
  ]
)

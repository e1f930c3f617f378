// swift-tools-version: 6.0
import PackageDescription

/// An offline stand-in for the swift-syntax package, for a package that requires StoreHost
/// by version on a machine that cannot fetch swift-syntax.
///
/// Its directory name gives it the identity `swift-syntax`, so a root package that lists it
/// by path replaces the swift-syntax package everywhere in its graph. It builds nothing: the
/// modules are the toolchain's own, found with the flags `scripts/swift-syntax/flags` prints.
let package = Package(
  name: "swift-syntax",
  products: ["SwiftSyntax", "SwiftSyntaxMacros", "SwiftCompilerPlugin"].map {
    .library(name: $0, targets: ["ToolchainSwiftSyntax"])
  },
  targets: [.systemLibrary(name: "ToolchainSwiftSyntax")]
)

@_exported import CasePaths
@_exported import Clocks
@_exported import Composable
@_exported import ConcurrencyExtras
@_exported import CustomDump
@_exported import Dependencies
@_exported import DependenciesMacros
// TCA re-exports SwiftUI's navigation tools, which bring Foundation (`UUID`, `Date`, `URL`)
// to every file that imports ComposableArchitecture; so does this module.
@_exported import Foundation
@_exported import IdentifiedCollections
@_exported import IssueReporting
@_exported import Sharing
@_exported import StoreHostJSON
@_exported import XCTestDynamicOverlay

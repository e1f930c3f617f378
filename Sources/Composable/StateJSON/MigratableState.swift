import Foundation
import StoreHostJSON

/// A state whose saved JSON changes shape between builds in a way a default value cannot
/// cover: a renamed field, a changed type, a value split in two.
///
/// Adding a stored property with a default value, adding an optional one or removing one
/// needs nothing: `@ObservableState` decoding keeps the default when the key is missing and
/// ignores keys it does not know. For anything else, raise ``stateVersion`` and say how
/// JSON saved under each earlier version becomes JSON of the next one:
///
/// ```swift
/// extension AppFeature.State: MigratableState {
///   public static var stateVersion: Int { 1 }
///
///   public static func migrate(_ json: inout JSONValue, from version: Int) throws {
///     if version == 0 {
///       // Version 1 renamed numberFact.count to numberFact.number.
///       json["numberFact"]?.renameMember("count", to: "number")
///     }
///   }
/// }
/// ```
///
/// A session host saves every state with its build's ``stateVersion`` and, reading a state
/// saved under an earlier one, runs ``migrate(_:from:)`` once for each step up before it
/// decodes. A state saved under a later version than this build's was written by a newer
/// build: it is never decoded or overwritten here, only kept for a build that can read it.
/// Test a migration like any other code, with `SavedState/decode(_:from:savedAt:)`.
public protocol MigratableState: Decodable {
  /// The version of the JSON this build writes: 0 until the first migration, then one more
  /// with each.
  static var stateVersion: Int { get }

  /// Turns `json`, saved under `version`, into the JSON of `version + 1`. Throw when the
  /// saved value cannot be carried over.
  static func migrate(_ json: inout JSONValue, from version: Int) throws
}

/// Reading states saved by this build or an earlier one (see ``MigratableState``).
public enum SavedState {
  /// The version `type` is saved under: its ``MigratableState/stateVersion``, or 0.
  public static func version<State>(of type: State.Type) -> Int {
    (type as? any MigratableState.Type)?.stateVersion ?? 0
  }

  /// Decodes `json`, saved under state version `version`, migrated first when `version`
  /// is earlier than `type`'s.
  ///
  /// - Throws: ``SavedStateError/savedByNewerBuild(savedVersion:currentVersion:)`` when
  ///   `version` is later than `type`'s, the migration's error, or the `DecodingError` that
  ///   says which value did not fit.
  public static func decode<State: Decodable>(_ type: State.Type, from json: JSONValue, savedAt version: Int) throws
    -> State
  {
    var json = json
    try migrate(&json, of: type, savedAt: version)
    return try json.decode(as: type)
  }

  /// Turns `json`, saved under state version `version`, into the JSON of `type`'s state
  /// version, one migration step at a time; does nothing when it is that version already.
  ///
  /// - Throws: ``SavedStateError/savedByNewerBuild(savedVersion:currentVersion:)`` when
  ///   `version` is later than `type`'s, or the migration's error.
  public static func migrate<State>(_ json: inout JSONValue, of type: State.Type, savedAt version: Int) throws {
    let current = Self.version(of: type)
    guard version <= current else {
      throw SavedStateError.savedByNewerBuild(savedVersion: version, currentVersion: current)
    }
    if version < current, let migratable = type as? any MigratableState.Type {
      for step in version..<current { try migratable.migrate(&json, from: step) }
    }
  }

  /// Decodes the JSON text `bytes`, saved under state version `version` (see
  /// ``decode(_:from:savedAt:)-(_,JSONValue,_)``).
  public static func decode<State: Decodable>(_ type: State.Type, from bytes: some ContiguousBytes, savedAt version: Int)
    throws -> State
  {
    try decode(type, from: JSONValue(parsing: bytes), savedAt: version)
  }
}

/// Why a saved state was not read.
public enum SavedStateError: Error, Equatable, CustomStringConvertible {
  /// A newer build saved it under a state version this build does not know.
  case savedByNewerBuild(savedVersion: Int, currentVersion: Int)

  public var description: String {
    switch self {
    case .savedByNewerBuild(let saved, let current):
      "saved under state version \(saved) by a newer build; this build reads versions up to \(current)"
    }
  }
}

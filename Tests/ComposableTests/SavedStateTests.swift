import Composable
import Foundation
import StoreHostJSON
import Testing

/// A settings state whose version 1 renamed `volume` to `level`, and whose version 2 made
/// `level` a percentage.
private struct Settings: Codable, Equatable, MigratableState {
  var level: Int
  var muted: Bool

  static var stateVersion: Int { 2 }

  static func migrate(_ json: inout JSONValue, from version: Int) throws {
    switch version {
    case 0:
      json.renameMember("volume", to: "level")
    case 1:
      guard case .int(let level) = json["level"] else { throw MigrationFailure() }
      json["level"] = .int(level * 10)
    default:
      break
    }
  }

  struct MigrationFailure: Error {}
}

@Suite struct SavedStateTests {
  @Test func aStateSavedUnderAnEarlierVersionIsMigratedStepByStep() throws {
    let fromZero = try SavedState.decode(Settings.self, from: Data(#"{"volume": 7, "muted": false}"#.utf8), savedAt: 0)
    #expect(fromZero == Settings(level: 70, muted: false))
    let fromOne = try SavedState.decode(Settings.self, from: Data(#"{"level": 7, "muted": true}"#.utf8), savedAt: 1)
    #expect(fromOne == Settings(level: 70, muted: true))
    let current = try SavedState.decode(Settings.self, from: Data(#"{"level": 70, "muted": true}"#.utf8), savedAt: 2)
    #expect(current == fromOne)
  }

  @Test func aStateSavedByANewerBuildIsNotRead() {
    #expect(throws: SavedStateError.savedByNewerBuild(savedVersion: 3, currentVersion: 2)) {
      try SavedState.decode(Settings.self, from: Data(#"{"level": 1, "muted": true}"#.utf8), savedAt: 3)
    }
  }

  @Test func aMigrationsErrorAndADecodingErrorAreThrown() {
    #expect(throws: Settings.MigrationFailure.self) {
      try SavedState.decode(Settings.self, from: Data(#"{"level": "loud", "muted": true}"#.utf8), savedAt: 1)
    }
    #expect(throws: DecodingError.self) {
      try SavedState.decode(Settings.self, from: Data(#"{"level": 1}"#.utf8), savedAt: 2)
    }
  }

  @Test func aStateWithoutMigrationsIsVersionZero() throws {
    struct Plain: Codable, Equatable { var name: String }
    #expect(SavedState.version(of: Plain.self) == 0)
    #expect(SavedState.version(of: Settings.self) == 2)
    #expect(try SavedState.decode(Plain.self, from: Data(#"{"name": "a"}"#.utf8), savedAt: 0) == Plain(name: "a"))
  }

  @Test func membersAreSetRemovedAndRenamedOnObjectsOnly() {
    var json: JSONValue = ["a": 1, "nested": ["b": 2]]
    json["c"] = 3
    json["a"] = nil
    json["nested"]?.renameMember("b", to: "d")
    json.renameMember("missing", to: "e")
    #expect(json == ["c": 3, "nested": ["d": 2]])
    var number: JSONValue = 5
    number["x"] = 1
    #expect(number == 5)
  }
}

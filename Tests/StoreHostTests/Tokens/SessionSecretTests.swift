import Foundation
import Testing

@testable import StoreHost

@Suite struct SessionSecretTests {
  private func temporaryDirectory() -> String {
    NSTemporaryDirectory() + "storehost-secret-\(UUID().uuidString)"
  }

  @Test func createsAPrivateSecretOnceAndReadsItBack() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let created = try SessionSecret.loadOrCreate(inDirectory: directory)
    #expect(created.count == SessionSecret.generatedLength)
    let path = directory + "/" + SessionSecret.fileName
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect(try SessionSecret.loadOrCreate(inDirectory: directory) == created)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [SessionSecret.fileName])
  }

  @Test func tokensSurviveARestart() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let id = SessionID.random()
    let token = try SessionTokenSigner(secret: SessionSecret.loadOrCreate(inDirectory: directory)).issue(sessionID: id)
    let restarted = try SessionTokenSigner(secret: SessionSecret.loadOrCreate(inDirectory: directory))
    #expect(restarted.verify(token) == id)
  }

  @Test func refusesATruncatedSecret() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/" + SessionSecret.fileName
    try Data(repeating: 1, count: 16).write(to: URL(fileURLWithPath: path))
    #expect(throws: SessionSecretError.invalidLength(path: path, length: 16)) {
      try SessionSecret.loadOrCreate(inDirectory: directory)
    }
  }

  @Test func readsAMountedSecretFileWithoutItsTrailingNewline() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/secret"
    let secret = String(repeating: "s", count: 40)
    try Data((secret + "\n").utf8).write(to: URL(fileURLWithPath: path))
    #expect(try SessionSecret.read(file: path) == Array(secret.utf8))
    try Data((secret + "\r\n").utf8).write(to: URL(fileURLWithPath: path))
    #expect(try SessionSecret.read(file: path) == Array(secret.utf8))
    #expect(throws: SessionSecretError.system("open", path: directory + "/absent", errno: ENOENT)) {
      try SessionSecret.read(file: directory + "/absent")
    }
  }
}

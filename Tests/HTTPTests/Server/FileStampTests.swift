import Foundation
import Testing

@testable import HTTP

@Suite struct FileStampTests {
  @Test func aFileRewrittenRenamedOverOrReachedByAnotherSymlinkGetsAnotherStamp() throws {
    let directory = NSTemporaryDirectory() + "stamp-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/cert.pem"
    #expect(FileStamp(path: path) == nil)
    try "one".write(toFile: path, atomically: false, encoding: .utf8)
    let first = try #require(FileStamp(path: path))
    #expect(FileStamp(path: path) == first)

    try "two".write(toFile: path, atomically: false, encoding: .utf8)
    let rewritten = try #require(FileStamp(path: path))
    #expect(rewritten != first)

    try "three".write(toFile: directory + "/new.pem", atomically: false, encoding: .utf8)
    #expect(rename(directory + "/new.pem", path) == 0)
    let renamed = try #require(FileStamp(path: path))
    #expect(renamed != rewritten)

    let link = directory + "/live.pem"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    #expect(FileStamp(path: link) == renamed)
    try "four".write(toFile: directory + "/other.pem", atomically: false, encoding: .utf8)
    try FileManager.default.removeItem(atPath: link)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory + "/other.pem")
    #expect(FileStamp(path: link) != renamed)
  }
}

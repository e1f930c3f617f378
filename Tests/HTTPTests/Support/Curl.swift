import Foundation

/// What `curl` printed and how it exited.
struct CurlResult: Sendable {
  var output: String
  var status: Int32
}

/// Runs `curl -s` with `arguments` (off the cooperative pool).
func curl(_ arguments: [String]) async throws -> CurlResult {
  try await blocking {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-s", "--max-time", "10"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CurlResult(output: String(decoding: data, as: UTF8.self), status: process.terminationStatus)
  }
}

/// Runs a command to completion, returning its exit status.
@discardableResult
func run(_ executable: String, _ arguments: [String]) async throws -> Int32 {
  try await blocking {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }
}

import Foundation

import Glibc

/// Writes files so that a reader, or the file after a crash, has the old content or the new
/// one, never a mix: write a temporary file beside it, fsync it, rename it over the file,
/// then fsync the directory so the rename itself is durable.
enum AtomicFile {
  static func write(_ data: Data, to url: URL) throws {
    let directory = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw posixError() }
    do {
      defer { close(descriptor) }
      try writeAll(data, to: descriptor)
      guard fsync(descriptor) == 0 else { throw posixError() }
    } catch {
      unlink(temporary.path)
      throw error
    }
    guard rename(temporary.path, url.path) == 0 else {
      let error = posixError()
      unlink(temporary.path)
      throw error
    }
    let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard directoryDescriptor >= 0 else { return }
    fsync(directoryDescriptor)
    close(directoryDescriptor)
  }

  private static func writeAll(_ data: Data, to descriptor: Int32) throws {
    try data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw posixError()
        }
        offset += written
      }
    }
  }

  private static func posixError() -> POSIXError {
    POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
  }
}

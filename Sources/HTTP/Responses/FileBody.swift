import Glibc

/// A file's bytes as ``StaticFiles`` keeps them between requests: in memory of their own,
/// written after the head in the same `sendmsg`, or as an open descriptor, sent with
/// `sendfile`. Many answers share one body; none copies it.
public struct FileBody: Sendable {
  enum Source: Sendable {
    case memory(FrameStorage)
    case descriptor(OpenDescriptor)
  }

  let source: Source
  /// The bytes of `source` this body is.
  private(set) var range: Range<Int>

  init(_ source: Source, range: Range<Int>) {
    self.source = source
    self.range = range
  }

  /// The body's length in bytes.
  public var count: Int { range.count }

  /// The part of this body in `bytes` (offsets within it).
  func slice(_ bytes: Range<Int>) -> FileBody {
    FileBody(source, range: (range.lowerBound + bytes.lowerBound)..<(range.lowerBound + bytes.upperBound))
  }

  /// Drops the first `count` bytes, once they are written.
  mutating func advance(by count: Int) {
    range = (range.lowerBound + count)..<range.upperBound
  }

  /// The bytes, copied (fewer when a file on disk shrank meanwhile).
  var bytes: [UInt8] {
    switch source {
    case .memory(let storage):
      return Array(UnsafeRawBufferPointer(start: storage.base + range.lowerBound, count: range.count))
    case .descriptor(let file):
      return file.read(range)
    }
  }
}

/// A descriptor open for reading, closed when the last body using it is gone.
final class OpenDescriptor: Sendable {
  let descriptor: Int32

  init(_ descriptor: Int32) { self.descriptor = descriptor }

  deinit { close(descriptor) }

  /// The bytes in `range` (fewer if the file is shorter).
  func read(_ range: Range<Int>) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: range.count)
    var filled = 0
    while filled < range.count {
      let count = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + filled, range.count - filled, off_t(range.lowerBound + filled))
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      filled += count
    }
    return filled == range.count ? bytes : Array(bytes[0..<filled])
  }
}
